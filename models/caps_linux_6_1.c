/* The capability rules of Linux 6.1 (Debian's linux-source-6.1, 6.1.192): models/caps_linux_6.h for EH_LINUX 601. */
#define EH_LINUX 601
#define EH_LINUX_NAME "6.1"
#define EH_LINUX_RULES eh_cap_rules_linux_6_1
#define EH_LINUX_RELEASE "6.1.192"
#include "caps_linux_6.h"

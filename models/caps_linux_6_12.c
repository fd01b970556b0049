/* The capability rules of Linux 6.12 (Debian's linux-source-6.12, 6.12.118): models/caps_linux_6.h for EH_LINUX 612. */
#define EH_LINUX 612
#define EH_LINUX_NAME "6.12"
#define EH_LINUX_RULES eh_cap_rules_linux_6_12
#define EH_LINUX_RELEASE "6.12.118"
#include "caps_linux_6.h"

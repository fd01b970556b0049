/* The multiply-accumulate of case a53-835769 compiled as Linux 6.1 compiles C: without -mfix-cortex-a53-835769. */
#include "a53_835769.h"

EH_A53_835769_MAC(a53_835769_mac_plain)

/* The multiply-accumulate of case a53-835769 compiled with the workaround: -mfix-cortex-a53-835769 (snippet.flags). */
#include "a53_835769.h"

EH_A53_835769_MAC(a53_835769_mac_fixed)

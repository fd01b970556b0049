/* Every kernel version's capability rules (the models' and errata's registries are generated: harness/registry.cmake). */
#include <stddef.h>

#include "eh/cap.h"

extern const struct eh_cap_rules eh_cap_rules_linux_5_4;
extern const struct eh_cap_rules eh_cap_rules_linux_6_1;
extern const struct eh_cap_rules eh_cap_rules_linux_6_12;

const struct eh_cap_rules *const eh_cap_rules_all[] = {
	&eh_cap_rules_linux_5_4,
	&eh_cap_rules_linux_6_1,
	&eh_cap_rules_linux_6_12,
	NULL,
};

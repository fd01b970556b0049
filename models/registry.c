/* Every CPU model the harness knows, in the order `models` lists them, every erratum, and every kernel version's capability rules. */
#include <stddef.h>

#include "eh/cap.h"
#include "eh/erratum.h"
#include "eh/model.h"

extern const struct eh_model eh_model_cortex_a72;
extern const struct eh_model eh_model_thunderx2;
extern const struct eh_model eh_model_thunderx2_nosmt;
extern const struct eh_model eh_model_vulcan;
extern const struct eh_model eh_model_sve2_capable;

const struct eh_model *const eh_models[] = {
	&eh_model_cortex_a72,
	&eh_model_thunderx2,
	&eh_model_thunderx2_nosmt,
	&eh_model_vulcan,
	&eh_model_sve2_capable,
	NULL,
};

extern const struct eh_erratum eh_erratum_cavium_tx2_219;
extern const struct eh_erratum eh_erratum_arm_cortex_a53_843419;
extern const struct eh_erratum eh_erratum_arm_cortex_a53_835769;

const struct eh_erratum *const eh_errata[] = {
	&eh_erratum_cavium_tx2_219,
	&eh_erratum_arm_cortex_a53_843419,
	&eh_erratum_arm_cortex_a53_835769,
	NULL,
};

extern const struct eh_cap_rules eh_cap_rules_linux_5_4;
extern const struct eh_cap_rules eh_cap_rules_linux_6_1;

const struct eh_cap_rules *const eh_cap_rules_all[] = {
	&eh_cap_rules_linux_5_4,
	&eh_cap_rules_linux_6_1,
	NULL,
};

/* Lookups over the model table of models/, and what a target's boot mode means. */
#include "eh/model.h"

#include <string.h>

#include "eh/erratum.h"
#include "eh/sysreg.h"

const struct eh_model *eh_model_find(const char *name)
{
	const struct eh_model *const *m;

	for (m = eh_models; *m; m++)
		if (!strcmp((*m)->name, name))
			return *m;
	return NULL;
}

uint64_t eh_model_mpidr(const struct eh_model *model, unsigned thread)
{
	/* Bit 31 is RES1; MT (bit 24) says Aff0 numbers threads of one core. */
	return (1ull << 31) | (model->threads_per_core > 1 ? 1ull << 24 : 0) | (thread & 0xff);
}

int eh_model_id_reg(const struct eh_model *model, uint32_t reg, uint64_t *value)
{
	const struct eh_id_reg *r;

	switch (reg) {
	case EH_MIDR_EL1:
		*value = model->midr;
		return 0;
	case EH_REVIDR_EL1:
		*value = model->revidr;
		return 0;
	}
	for (r = model->id_regs; r && r->reg; r++)
		if (r->reg == reg) {
			*value = r->value;
			return 0;
		}
	return EH_ENOENT;
}

const char *const eh_boot_names[] = {
	[EH_BOOT_EL2] = "el2",
	[EH_BOOT_NVHE] = "nvhe",
	[EH_BOOT_EL1] = "el1",
	NULL,
};

int eh_boot_parse(const char *name, enum eh_boot *out)
{
	unsigned i;

	for (i = 0; eh_boot_names[i]; i++)
		if (!strcmp(eh_boot_names[i], name)) {
			*out = (enum eh_boot)i;
			return 0;
		}
	return EH_EINVAL;
}

bool eh_target_hyp_mode(const struct eh_target *t)
{
	return t->boot != EH_BOOT_EL1;
}

bool eh_target_vhe(const struct eh_target *t)
{
	uint64_t mmfr1 = 0;

	/* ID_AA64MMFR1_EL1.VH, bits 11:8 (Arm ARM D17.2.65): 1 = FEAT_VHE. */
	eh_model_id_reg(t->model, EH_ID_AA64MMFR1_EL1, &mmfr1);
	return t->boot == EH_BOOT_EL2 && ((mmfr1 >> 8) & 0xf);
}

bool eh_model_has_erratum(const struct eh_model *model, const char *id)
{
	const struct eh_erratum *e = eh_erratum_find(id);

	return e && eh_erratum_affects(e, model);
}

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

const struct eh_model *eh_model_boot_core(const struct eh_model *model)
{
	return model->cores && model->cores[0] ? model->cores[0] : model;
}

unsigned eh_model_threads(const struct eh_model *model)
{
	const struct eh_model *const *c;
	unsigned n = 0;

	if (!model->cores)
		return model->threads_per_core;
	for (c = model->cores; *c; c++)
		n += (*c)->threads_per_core;
	return n;
}

const struct eh_model *eh_model_thread_core(const struct eh_model *model, unsigned t, unsigned *local,
					    unsigned *core)
{
	const struct eh_model *const *c;
	unsigned i = 0;

	if (!model->cores) {
		if (t >= model->threads_per_core)
			return NULL;
		if (local)
			*local = t;
		if (core)
			*core = 0;
		return model;
	}
	for (c = model->cores; *c; c++, i++) {
		if (t < (*c)->threads_per_core) {
			if (local)
				*local = t;
			if (core)
				*core = i;
			return *c;
		}
		t -= (*c)->threads_per_core;
	}
	return NULL;
}

uint64_t eh_model_mpidr(const struct eh_model *model, unsigned thread)
{
	unsigned local = thread, core = 0;
	const struct eh_model *m = eh_model_thread_core(model, thread, &local, &core);

	if (!m)
		m = model;
	/* Bit 31 is RES1; MT (bit 24) says Aff0 numbers threads of one core; Aff1 numbers the cores. */
	return (1ull << 31) | (m->threads_per_core > 1 ? 1ull << 24 : 0) | ((uint64_t)(core & 0xff) << 8) |
	       (local & 0xff);
}

/* One core's register: what it lists, 0 for what it does not; -ENOENT when it lists no such register. */
static int core_id_reg(const struct eh_model *model, uint32_t reg, uint64_t *value)
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

static uint64_t field_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static int64_t field_get(uint64_t reg, unsigned shift, unsigned width, bool sign)
{
	uint64_t v = (reg >> shift) & field_mask(width);

	if (sign && width < 64 && (v >> (width - 1)) & 1)
		return (int64_t)(v | ~field_mask(width));
	return (int64_t)v;
}

/* arm64_ftr_safe_value(): what two CPUs' differing values of one field combine to. */
static int64_t ftr_safe(const struct eh_id_ftr *f, int64_t a, int64_t b)
{
	switch (f->type) {
	case EH_ID_FTR_EXACT:
		return f->safe;
	case EH_ID_FTR_HIGHER_OR_ZERO_SAFE:
		if (!a || !b)
			return 0;
		return a > b ? a : b;
	case EH_ID_FTR_HIGHER_SAFE:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

/* update_cpu_ftr_reg(): the system's value so far, cur, updated with one more CPU's, val. */
static uint64_t ftr_update(uint32_t reg, uint64_t cur, uint64_t val)
{
	const struct eh_id_ftr *f;
	uint64_t out = 0;
	unsigned shift;
	bool described = false;

	for (f = eh_id_ftrs; f->reg; f++) {
		int64_t a, b;

		if (f->reg != reg)
			continue;
		described = true;
		a = field_get(cur, f->shift, f->width, f->sign);
		b = field_get(val, f->shift, f->width, f->sign);
		out |= ((uint64_t)(a == b ? a : ftr_safe(f, a, b)) & field_mask(f->width)) << f->shift;
	}
	if (described)
		return out;
	/* A register the table does not describe: every 4 bits an unsigned, lower-safe field. */
	for (shift = 0; shift < 64; shift += 4) {
		uint64_t a = (cur >> shift) & 0xf, b = (val >> shift) & 0xf;

		out |= (a < b ? a : b) << shift;
	}
	return out;
}

/* The kernel's sanitised value: the fields of the boot CPU's value, updated with each other core's in turn. */
static int system_id_reg(const struct eh_model *model, uint32_t reg, uint64_t *value)
{
	const struct eh_model *const *c;
	uint64_t v, sys = 0;
	bool any = false;

	for (c = model->cores; *c; c++)
		if (!core_id_reg(*c, reg, &v))
			any = true;
	if (!any)
		return EH_ENOENT;
	for (c = model->cores; *c; c++) {
		v = 0;
		core_id_reg(*c, reg, &v);
		/* init_cpu_ftr_reg(): the boot CPU's value of the described fields, the rest 0. */
		sys = c == model->cores ? ftr_update(reg, v, v) : ftr_update(reg, sys, v);
	}
	*value = sys;
	return 0;
}

int eh_model_id_reg(const struct eh_model *model, uint32_t reg, uint64_t *value)
{
	if (!model->cores)
		return core_id_reg(model, reg, value);
	if (reg == EH_MIDR_EL1 || reg == EH_REVIDR_EL1)
		return core_id_reg(eh_model_boot_core(model), reg, value);
	return system_id_reg(model, reg, value);
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

	/*
	 * ID_AA64MMFR1_EL1.VH, bits 11:8 (Arm ARM D17.2.65): 1 = FEAT_VHE. The boot CPU decides
	 * (a secondary that differs is refused: ARM64_HAS_VIRT_HOST_EXTN is a strict boot CPU feature).
	 */
	eh_model_id_reg(eh_model_boot_core(t->model), EH_ID_AA64MMFR1_EL1, &mmfr1);
	return t->boot == EH_BOOT_EL2 && ((mmfr1 >> 8) & 0xf);
}

bool eh_model_has_erratum(const struct eh_model *model, const char *id)
{
	const struct eh_erratum *e = eh_erratum_find(id);

	return e && eh_erratum_affects(e, model);
}

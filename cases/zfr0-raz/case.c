/* Case zfr0-raz: EL0 reads ID_AA64ZFR0_EL1 with the kernel's SVE support off, before and after ec52c7134b1f. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/case.h"
#include "eh/kconfig.h"
#include "eh/sysreg.h"
#include "ftr_abi.h"
#include "zfr0_raz.h"

static const struct eh_commit commits[] = {
	{ "ec52c7134b1f", "arm64: cpufeature: Treat ID_AA64ZFR0_EL1 as RAZ when SVE is not enabled" },
	{ 0 },
};

/*
 * The kernel configuration is a dimension of its own: the bug needs
 * CONFIG_ARM64_SVE off, and with it on both tables must expose the fields.
 * Variants carry it, since a case's expected outcomes are per (variant, model).
 */
static const struct eh_variant variants[] = {
	{ "before", "ftr_id_aa64zfr0[] with FTR_VISIBLE fields, CONFIG_ARM64_SVE off", "zfr0_read_el0" },
	{ "after", "fields FTR_VISIBLE_IF_IS_ENABLED(CONFIG_ARM64_SVE), CONFIG_ARM64_SVE off",
	  "zfr0_read_el0" },
	{ "before-sve", "the old table, CONFIG_ARM64_SVE on", "zfr0_read_el0" },
	{ "after-sve", "the new table, CONFIG_ARM64_SVE on", "zfr0_read_el0" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .capability = "ARM64_SVE" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN }, /* no SVE: the register is zero anyway */
	{ "after", { .capability = "ARM64_SVE" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "before-sve", { .capability = "ARM64_SVE" }, EH_VERDICT_BENIGN }, /* the old table is right when SVE is on */
	{ "after-sve", { .capability = "ARM64_SVE" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "fields-visible", "EH_MUTANT_FIELDS_VISIBLE",
	  "the fixed table with its fields FTR_VISIBLE again: EL0 sees SVE2 with the kernel's SVE off",
	  (const struct eh_row[]){ { "after" }, { "after-sve" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the EL0 read: nothing changes" },
	{ 0 },
};

#define SVE_OFF "# CONFIG_ARM64_SVE is not set\n"

/* Each variant's kernel: the field table it was built with and its .config. */
static const struct zfr0_build {
	const char *variant;
	const char *table;        /* the snippet's ftr_id_aa64zfr0 */
	const char *config;
} builds[] = {
	{ "before", "ftr_id_aa64zfr0_before", SVE_OFF },
	{ "after", "ftr_id_aa64zfr0_after", SVE_OFF },
	{ "before-sve", "ftr_id_aa64zfr0_before", "CONFIG_ARM64_SVE=y\n" },
	{ "after-sve", "ftr_id_aa64zfr0_after", "CONFIG_ARM64_SVE=y\n" },
	{ 0 },
};

int eh_zfr0_read_table(const struct eh_elf *elf, const char *sym, struct eh_ftr_field out[EH_ZFR0_FIELDS_MAX],
		       struct eh_error *err)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(elf, sym);
	const struct eh_elf_section *sec = s ? eh_elf_section_at(elf, s->value) : NULL;
	unsigned i;

	if (!sec || !sec->data || s->size % sizeof(struct eh_ftr_bits) ||
	    s->size > EH_ZFR0_FIELDS_MAX * sizeof(struct eh_ftr_bits) || s->value + s->size > sec->addr + sec->size)
		return eh_error_set(err, EH_EINPUT, "%s: no field table '%s' of at most %d entries", elf->path,
				    sym, EH_ZFR0_FIELDS_MAX);
	for (i = 0; i < s->size / sizeof(struct eh_ftr_bits); i++) {
		const uint8_t *b = sec->data + (s->value - sec->addr) + i * sizeof(struct eh_ftr_bits);

		out[i] = (struct eh_ftr_field){
			.shift = b[1], .width = b[2], .hidden = b[0] == EH_FTR_HIDDEN,
			.visible_if = b[0] == EH_FTR_VISIBLE_IF_SVE ? "CONFIG_ARM64_SVE" : NULL,
		};
		if (!out[i].width)
			return 0;
		if (b[0] > EH_FTR_VISIBLE_IF_SVE || out[i].shift + out[i].width > 64)
			return eh_error_set(err, EH_EINPUT, "%s: %s entry %u: visibility %u, bits %u+%u", elf->path,
					    sym, i, b[0], out[i].shift, out[i].width);
	}
	return eh_error_set(err, EH_EINPUT, "%s: field table '%s' has no end entry", elf->path, sym);
}

static bool field_visible(const struct eh_ftr_field *f, const struct eh_kconfig *config)
{
	return !f->hidden && (!f->visible_if || eh_kconfig_enabled(config, f->visible_if));
}

/*
 * emulate_id_reg(): user_val | (sys_val & user_mask), where user_mask holds the
 * visible fields and user_val is 0 for every ZFR0 field. The boot CPU's value
 * is the system value on a one-CPU system (FTR_LOWER_SAFE across CPUs).
 */
uint64_t eh_zfr0_user_value(const struct eh_ftr_field *table, uint64_t hw, const struct eh_kconfig *config)
{
	const struct eh_ftr_field *f;
	uint64_t mask = 0;

	for (f = table; f->width; f++)
		if (field_visible(f, config))
			mask |= (f->width == 64 ? ~0ull : (1ull << f->width) - 1) << f->shift;
	return hw & mask;
}

uint64_t eh_zfr0_required(uint64_t hw, const struct eh_kconfig *config)
{
	return eh_kconfig_enabled(config, "CONFIG_ARM64_SVE") ? hw & EH_ZFR0_KNOWN_FIELDS : 0;
}

/* The run's state, reached by the hook through the case run. */
struct zfr0_run {
	struct eh_ftr_field table[EH_ZFR0_FIELDS_MAX];
	struct eh_kconfig *config;
	struct eh_kconfig *sve_off;  /* the same kernel with CONFIG_ARM64_SVE off, for the judge */
	uint64_t hw;
	uint64_t read;            /* what the emulated MRS put in its register */
	uint64_t trap_pc;
	bool trapped;
};

/* The kernel's undefined-instruction handler for EL0 MRS (emulate_mrs), on ID_AA64ZFR0_EL1. */
static bool emulate_mrs(struct eh_machine *m, unsigned thread, const struct eh_insn *insn, void *ctx)
{
	struct eh_case_run *r = ctx;
	struct zfr0_run *st = r->priv;

	if (!(insn->flags & EH_INSN_MRS) || insn->sysreg != EH_ID_AA64ZFR0_EL1)
		return false;
	if (eh_model_id_reg(r->model, EH_ID_AA64ZFR0_EL1, &st->hw))
		st->hw = 0;  /* a CPU without SVE: the register reads as zero */
	st->read = eh_zfr0_user_value(st->table, st->hw, st->config);
	st->trapped = true;
	st->trap_pc = insn->addr;
	if (insn->rt != 31)
		eh_machine_set_xreg(m, thread, insn->rt, st->read);
	return true;
}

/*
 * From what the MRS read and what the architecture requires, for every variant
 * alike: a wrong value is the bug; a right one is benign when the kernel's table
 * would still show fields to EL0 on an SVE CPU with the kernel's SVE support off
 * (the hazard is there, this run does not meet it), fixed when it would not.
 */
static void judge(struct eh_case_run *r, const struct zfr0_run *st)
{
	struct eh_outcome *out = &r->outcome;
	uint64_t required = eh_zfr0_required(st->hw, st->config);
	uint64_t leak = eh_zfr0_user_value(st->table, EH_ZFR0_KNOWN_FIELDS, st->sve_off);
	bool sve = eh_kconfig_enabled(st->config, "CONFIG_ARM64_SVE");
	char where[256];

	if (!st->trapped) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "the EL0 read never reached the kernel's emulation");
		return;
	}
	if (st->read != required)
		out->verdict = EH_VERDICT_BUG;
	else
		out->verdict = leak ? EH_VERDICT_BENIGN : EH_VERDICT_FIXED;
	eh_outcome_append(out, "EL0 %s trapped as UNDEFINED; hardware ID_AA64ZFR0_EL1 0x%016" PRIx64
			  ", CONFIG_ARM64_SVE %s; EL0 read 0x%016" PRIx64 "%s 0x%016" PRIx64 "%s; the "
			  "kernel's table shows 0x%016" PRIx64 " of the known fields with SVE off",
			  eh_machine_where(r->machine, st->trap_pc, where, sizeof(where)), st->hw,
			  sve ? "on" : "off", st->read,
			  st->read == required ? ", as required:" : " where the architecture requires",
			  required, st->read == required ? "" : " (RAZ: SVE is not enabled)", leak);
}

static int run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	const struct zfr0_build *build;
	struct zfr0_run st = { 0 };
	int rc;

	(void)opts;
	for (build = builds; build->variant && strcmp(build->variant, r->v->name); build++)
		;
	if (!build->variant)
		return eh_error_set(err, EH_ENOENT, "zfr0-raz: no kernel build for variant %s", r->v->name);
	rc = eh_zfr0_read_table(r->elf, build->table, st.table, err);
	if (!rc)
		rc = eh_kconfig_parse(&st.config, r->v->name, build->config, strlen(build->config), err);
	if (!rc)
		rc = eh_kconfig_parse(&st.sve_off, "SVE off", SVE_OFF, strlen(SVE_OFF), err);
	if (!rc) {
		r->priv = &st;
		rc = eh_case_call(r, r->v->entry, NULL, 0, NULL, err);
		r->priv = NULL;
	}
	if (!rc)
		judge(r, &st);
	eh_kconfig_free(st.config);
	eh_kconfig_free(st.sve_off);
	return rc;
}

static const struct eh_machine_hooks hooks = {
	.undef = emulate_mrs,
};

const struct eh_case eh_case_zfr0_raz = {
	.id = "zfr0-raz",
	.commits = commits,
	.shows = "an EL0 read of ID_AA64ZFR0_EL1 on an SVE2 CPU with the kernel's SVE support off "
		 "returns the SVE2 fields before the fix and zero after it",
	.object = "zfr0-raz.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.hooks = &hooks,
	.run = run,
};

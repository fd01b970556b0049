/* Case zfr0-raz: EL0 reads ID_AA64ZFR0_EL1 with the kernel's SVE support off, before and after ec52c7134b1f. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/case.h"
#include "eh/kconfig.h"
#include "eh/sysreg.h"
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
	{ "before", "sve2-capable", EH_VERDICT_BUG },
	{ "before", "cortex-a72", EH_VERDICT_BENIGN },     /* no SVE: the register is zero anyway */
	{ "after", "sve2-capable", EH_VERDICT_FIXED },
	{ "after", "cortex-a72", EH_VERDICT_FIXED },
	{ "before-sve", "sve2-capable", EH_VERDICT_BENIGN }, /* the old table is right when SVE is on */
	{ "after-sve", "sve2-capable", EH_VERDICT_FIXED },
	{ 0 },
};

/* ftr_id_aa64zfr0[] in arch/arm64/kernel/cpufeature.c, highest field first as the kernel lists them. */
const struct eh_ftr_field eh_zfr0_fields_before[] = {
	{ .name = "SM4", .shift = 40, .width = 4 },
	{ .name = "SHA3", .shift = 32, .width = 4 },
	{ .name = "BitPerm", .shift = 16, .width = 4 },
	{ .name = "AES", .shift = 4, .width = 4 },
	{ .name = "SVEver", .shift = 0, .width = 4 },
	{ 0 },
};

const struct eh_ftr_field eh_zfr0_fields_after[] = {
	{ .name = "SM4", .shift = 40, .width = 4, .visible_if = "CONFIG_ARM64_SVE" },
	{ .name = "SHA3", .shift = 32, .width = 4, .visible_if = "CONFIG_ARM64_SVE" },
	{ .name = "BitPerm", .shift = 16, .width = 4, .visible_if = "CONFIG_ARM64_SVE" },
	{ .name = "AES", .shift = 4, .width = 4, .visible_if = "CONFIG_ARM64_SVE" },
	{ .name = "SVEver", .shift = 0, .width = 4, .visible_if = "CONFIG_ARM64_SVE" },
	{ 0 },
};

/* Each variant's kernel: its table and its .config. */
static const struct zfr0_build {
	const char *variant;
	const struct eh_ftr_field *fields;
	const char *config;
	bool fixed;
} builds[] = {
	{ "before", eh_zfr0_fields_before, "# CONFIG_ARM64_SVE is not set\n", false },
	{ "after", eh_zfr0_fields_after, "# CONFIG_ARM64_SVE is not set\n", true },
	{ "before-sve", eh_zfr0_fields_before, "CONFIG_ARM64_SVE=y\n", false },
	{ "after-sve", eh_zfr0_fields_after, "CONFIG_ARM64_SVE=y\n", true },
	{ 0 },
};

static bool field_visible(const struct eh_ftr_field *f, const struct eh_kconfig *config)
{
	return !f->visible_if || eh_kconfig_enabled(config, f->visible_if);
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

	for (f = table; f->name; f++)
		if (field_visible(f, config))
			mask |= ((1ull << f->width) - 1) << f->shift;
	return hw & mask;
}

uint64_t eh_zfr0_required(uint64_t hw, const struct eh_kconfig *config)
{
	return eh_kconfig_enabled(config, "CONFIG_ARM64_SVE") ? hw & EH_ZFR0_KNOWN_FIELDS : 0;
}

/* The run's state, reached by the hook through the case run. */
struct zfr0_run {
	const struct zfr0_build *build;
	struct eh_kconfig *config;
	uint64_t hw, user;
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
	st->user = eh_zfr0_user_value(st->build->fields, st->hw, st->config);
	st->trapped = true;
	st->trap_pc = insn->addr;
	if (insn->rt != 31)
		eh_machine_set_xreg(m, thread, insn->rt, st->user);
	return true;
}

static void judge(struct eh_case_run *r, const struct zfr0_run *st)
{
	const struct eh_thread_result *res = eh_machine_result(r->machine, 0);
	struct eh_outcome *out = &r->outcome;
	uint64_t required = eh_zfr0_required(st->hw, st->config);
	bool sve = eh_kconfig_enabled(st->config, "CONFIG_ARM64_SVE");
	char where[256];

	if (!st->trapped || res->stop != EH_STOP_RETURNED) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "the EL0 read never reached the kernel's emulation (%s at %s)",
				  eh_stop_name(res->stop),
				  eh_machine_where(r->machine, res->pc, where, sizeof(where)));
		return;
	}
	if (res->x[0] != required)
		out->verdict = EH_VERDICT_BUG;
	else
		out->verdict = st->build->fixed ? EH_VERDICT_FIXED : EH_VERDICT_BENIGN;
	eh_outcome_append(out, "EL0 %s trapped as UNDEFINED; hardware ID_AA64ZFR0_EL1 0x%016" PRIx64
			  ", CONFIG_ARM64_SVE %s, fields %s; EL0 read 0x%016" PRIx64 "%s 0x%016" PRIx64 "%s",
			  eh_machine_where(r->machine, st->trap_pc, where, sizeof(where)), st->hw,
			  sve ? "on" : "off", st->build->fixed ? "visible if CONFIG_ARM64_SVE" : "always visible",
			  res->x[0], res->x[0] == required ? ", as required:" : " where the architecture requires",
			  required, res->x[0] == required ? "" : " (RAZ: SVE is not enabled)");
}

static int run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct zfr0_run st = { 0 };
	int rc;

	(void)opts;
	for (st.build = builds; st.build->variant && strcmp(st.build->variant, r->v->name); st.build++)
		;
	if (!st.build->variant)
		return eh_error_set(err, EH_ENOENT, "zfr0-raz: no kernel build for variant %s", r->v->name);
	rc = eh_kconfig_parse(&st.config, r->v->name, st.build->config, strlen(st.build->config), err);
	if (rc)
		return rc;
	r->priv = &st;
	rc = eh_case_call(r, r->v->entry, NULL, 0, NULL, err);
	if (!rc)
		judge(r, &st);
	r->priv = NULL;
	eh_kconfig_free(st.config);
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
	.hooks = &hooks,
	.run = run,
};

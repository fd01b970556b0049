/* Capability detection: boot modes, the rule engine over hand-worked register values, and the rule tables themselves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

struct boot_row {
	const char *name;
	const char *model;
	enum eh_boot boot;
	bool hyp_mode;  /* the kernel was entered at EL2 */
	bool vhe;       /* and its EL1 code runs at EL2 with E2H */
};

static const struct boot_row boot_rows[] = {
	{ "thunderx2 el2: a VHE host", "thunderx2", EH_BOOT_EL2, true, true },
	{ "thunderx2 nvhe: hyp code at EL2, kernel at EL1", "thunderx2", EH_BOOT_NVHE, true, false },
	{ "thunderx2 el1: a guest", "thunderx2", EH_BOOT_EL1, false, false },
	{ "vulcan el2: a VHE host", "vulcan", EH_BOOT_EL2, true, true },
	{ "cortex-a72 el2: Armv8.0, no VHE", "cortex-a72", EH_BOOT_EL2, true, false },
	{ "cortex-a72 el1: a guest", "cortex-a72", EH_BOOT_EL1, false, false },
	{ "sve2-capable el2: a VHE host", "sve2-capable", EH_BOOT_EL2, true, true },
};

static void run_boot_row(void **state)
{
	const struct boot_row *r = *state;
	const struct eh_target t = { .model = eh_model_find(r->model), .boot = r->boot };
	bool hyp, vhe;

	assert_non_null(t.model);
	hyp = eh_target_hyp_mode(&t);
	vhe = eh_target_vhe(&t);
	if (hyp != r->hyp_mode || vhe != r->vhe)
		fail_msg("%s: hyp mode %d, VHE %d; expected %d, %d", r->name, hyp, vhe, r->hyp_mode, r->vhe);
}

struct parse_row {
	const char *name;
	const char *text;
	int rc;
	enum eh_boot boot;
};

static const struct parse_row parse_rows[] = {
	{ "parse el2", "el2", 0, EH_BOOT_EL2 },
	{ "parse nvhe", "nvhe", 0, EH_BOOT_NVHE },
	{ "parse el1", "el1", 0, EH_BOOT_EL1 },
	{ "parse EL2 (case matters)", "EL2", EH_EINVAL, 0 },
	{ "parse vhe (not a mode)", "vhe", EH_EINVAL, 0 },
	{ "parse empty", "", EH_EINVAL, 0 },
};

static void run_parse_row(void **state)
{
	const struct parse_row *r = *state;
	enum eh_boot boot = EH_BOOT_EL1;
	int rc = eh_boot_parse(r->text, &boot);

	if (rc != r->rc || (!rc && boot != r->boot))
		fail_msg("%s: '%s' gave %d (mode %d); expected %d (mode %d)", r->name, r->text, rc, boot, r->rc,
			 r->boot);
	if (!rc && strcmp(eh_boot_names[boot], r->text))
		fail_msg("%s: the name of mode %d is '%s'", r->name, boot, eh_boot_names[boot]);
}

/*
 * A CPU described by the few registers a row's rule reads (the others read as zero), a kernel
 * version, a boot mode and a .config (NULL: every option on), and what the kernel decides.
 */
struct rule_row {
	const char *name;
	const char *kernel;
	uint32_t midr, revidr;
	unsigned threads;
	struct eh_id_reg regs[3];
	enum eh_boot boot;
	const char *config;
	const char *cap;
	enum eh_cap_state state;
};

#define A53(rev) EH_MIDR(0x41, 0, 0xd03, rev)
#define A57(var, rev) EH_MIDR(0x41, var, 0xd07, rev)
#define A72 EH_MIDR(0x41, 0, 0xd08, 3)
#define A76(var, rev) EH_MIDR(0x41, var, 0xd0b, rev)
#define TX2 EH_MIDR(0x43, 1, 0x0af, 1)
#define THUNDERX(var, rev) EH_MIDR(0x43, var, 0x0a1, rev)
#define T83 EH_MIDR(0x43, 0, 0x0a3, 0)
#define B53 EH_MIDR(0x42, 0, 0x100, 0)
#define KRYO_2XX EH_MIDR(0x51, 0xa, 0x201, 1)   /* a Kryo part 0x201: is_kryo_midr() matches 0x2XX */
#define OTHER EH_MIDR(0x61, 0, 0x022, 0)        /* a part no rule names (Apple M1 Icestorm) */

/* The least config under which the KPTI rule runs: the entry is always built in 6.1. */
#define KPTI_ON "CONFIG_UNMAP_KERNEL_AT_EL0=y\n"

static const struct rule_row rule_rows[] = {
	/* ID register fields: has_cpuid_feature(), unsigned, >= min. */
	{ "LSE: Atomic 2 (LSE) detects", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR0_EL1, 0x0000000000200000 } },
	  EH_BOOT_EL2, NULL, "ARM64_HAS_LSE_ATOMICS", EH_CAP_DETECTED },
	{ "LSE: Atomic 1 is not enough", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR0_EL1, 0x0000000000100000 } },
	  EH_BOOT_EL2, NULL, "ARM64_HAS_LSE_ATOMICS", EH_CAP_NOT_DETECTED },
	{ "LSE: the field next door does not count", "6.1", OTHER, 0, 1,
	  { { EH_ID_AA64ISAR0_EL1, 0x0000000002010000 } }, EH_BOOT_EL2, NULL, "ARM64_HAS_LSE_ATOMICS",
	  EH_CAP_NOT_DETECTED },
	{ "LSE: configured out", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR0_EL1, 0x0000000000200000 } }, EH_BOOT_EL2,
	  "CONFIG_ARM64_PAN=y\n", "ARM64_HAS_LSE_ATOMICS", EH_CAP_CONFIGURED_OUT },
	{ "PAN 1: PAN", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x0000000000100000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_PAN", EH_CAP_DETECTED },
	{ "PAN 1: no EPAN", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x0000000000100000 } }, EH_BOOT_EL2,
	  NULL, "ARM64_HAS_EPAN", EH_CAP_NOT_DETECTED },
	{ "PAN 3: EPAN", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x0000000000300000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_EPAN", EH_CAP_DETECTED },
	{ "a register the model does not list reads as zero", "6.1", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_PAN", EH_CAP_NOT_DETECTED },
	{ "TLB range needs TLB 2", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR0_EL1, 0x0100000000000000 } },
	  EH_BOOT_EL2, NULL, "ARM64_HAS_TLB_RANGE", EH_CAP_NOT_DETECTED },
	{ "FA64 is one bit, bit 63", "6.1", OTHER, 0, 1, { { EH_ID_AA64SMFR0_EL1, 0x8000000000000000 } },
	  EH_BOOT_EL2, NULL, "ARM64_SME_FA64", EH_CAP_DETECTED },
	{ "DIC is CTR_EL0 bit 29", "6.1", OTHER, 0, 1, { { EH_CTR_EL0, 0x20000000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_CACHE_DIC", EH_CAP_DETECTED },
	{ "IDC is CTR_EL0 bit 28, not 29", "6.1", OTHER, 0, 1, { { EH_CTR_EL0, 0x20000000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_CACHE_IDC", EH_CAP_NOT_DETECTED },
	/* Signed fields: FP = 0xf is -1, not implemented. */
	{ "FP 0xf (signed -1): no FP/SIMD", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x00000000000f0000 } },
	  EH_BOOT_EL2, NULL, "ARM64_HAS_NO_FPSIMD", EH_CAP_DETECTED },
	{ "FP 1 (FP16): FP/SIMD", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x0000000000010000 } }, EH_BOOT_EL2,
	  NULL, "ARM64_HAS_NO_FPSIMD", EH_CAP_NOT_DETECTED },
	{ "EL0 2: 32-bit EL0", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x2 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_32BIT_EL0_DO_NOT_USE", EH_CAP_DETECTED },
	{ "EL0 1: AArch64 only", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x1 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_32BIT_EL0_DO_NOT_USE", EH_CAP_NOT_DETECTED },
	/* Boot mode: runs_at_el2(). */
	{ "VHE CPU booted at EL2: VHE", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_VIRT_HOST_EXTN", EH_CAP_DETECTED },
	{ "VHE CPU with kvm-arm.mode=nvhe: no VHE", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } },
	  EH_BOOT_NVHE, NULL, "ARM64_HAS_VIRT_HOST_EXTN", EH_CAP_NOT_DETECTED },
	{ "VHE CPU as a guest: no VHE", "6.1", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } }, EH_BOOT_EL1, NULL,
	  "ARM64_HAS_VIRT_HOST_EXTN", EH_CAP_NOT_DETECTED },
	{ "Armv8.0 CPU at EL2: no VHE", "6.1", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_VIRT_HOST_EXTN", EH_CAP_NOT_DETECTED },
	{ "5.4 without CONFIG_ARM64_VHE: no VHE", "5.4", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } },
	  EH_BOOT_EL2, "CONFIG_ARM64_PAN=y\n", "ARM64_HAS_VIRT_HOST_EXTN", EH_CAP_NOT_DETECTED },
	{ "A76 r3p1 erratum 1463225 needs VHE", "6.1", A76(3, 1), 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } },
	  EH_BOOT_NVHE, NULL, "ARM64_WORKAROUND_1463225", EH_CAP_NOT_DETECTED },
	{ "A76 r3p1 erratum 1463225 under VHE", "6.1", A76(3, 1), 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100 } },
	  EH_BOOT_EL2, NULL, "ARM64_WORKAROUND_1463225", EH_CAP_DETECTED },
	/* MIDR ranges: variant and revision inclusive, REVIDR fixes. */
	{ "A57 r1p2 has 834220", "6.1", A57(1, 2), 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_WORKAROUND_834220",
	  EH_CAP_DETECTED },
	{ "A57 r1p3 does not", "6.1", A57(1, 3), 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_WORKAROUND_834220",
	  EH_CAP_NOT_DETECTED },
	{ "A57 r0p0 has 834220", "6.1", A57(0, 0), 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_WORKAROUND_834220",
	  EH_CAP_DETECTED },
	{ "A53 r0p4 has 843419", "6.1", A53(4), 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_WORKAROUND_843419",
	  EH_CAP_DETECTED },
	{ "A53 r0p4 with REVIDR bit 8 is fixed", "6.1", A53(4), 0x100, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_843419", EH_CAP_NOT_DETECTED },
	{ "A53 r0p3 with REVIDR bit 8 is not", "6.1", A53(3), 0x100, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_843419", EH_CAP_DETECTED },
	{ "Brahma-B53 r0p0 has 843419 (second list entry)", "6.1", B53, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_843419", EH_CAP_DETECTED },
	{ "5.4: A53 r0p4 with REVIDR bit 8 is fixed", "5.4", A53(4), 0x100, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_843419", EH_CAP_NOT_DETECTED },
	{ "5.4: T83 r0p0 by the third 30115 entry", "5.4", T83, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_CAVIUM_30115", EH_CAP_DETECTED },
	{ "Kryo 0x201 has Falkor E1003 (is_kryo_midr)", "6.1", KRYO_2XX, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_WORKAROUND_QCOM_FALKOR_E1003", EH_CAP_DETECTED },
	/* Config lines inside a list. */
	{ "A72 speculative AT with 1319367 on", "6.1", A72, 0, 1, { { 0 } }, EH_BOOT_EL2,
	  "CONFIG_ARM64_WORKAROUND_SPECULATIVE_AT=y\nCONFIG_ARM64_ERRATUM_1319367=y\n",
	  "ARM64_WORKAROUND_SPECULATIVE_AT", EH_CAP_DETECTED },
	{ "A72 speculative AT with only 1165522 on", "6.1", A72, 0, 1, { { 0 } }, EH_BOOT_EL2,
	  "CONFIG_ARM64_WORKAROUND_SPECULATIVE_AT=y\nCONFIG_ARM64_ERRATUM_1165522=y\n",
	  "ARM64_WORKAROUND_SPECULATIVE_AT", EH_CAP_NOT_DETECTED },
	{ "A53 r0p2 clean cache with only 824069 of three", "6.1", A53(2), 0, 1, { { 0 } }, EH_BOOT_EL2,
	  "CONFIG_ARM64_WORKAROUND_CLEAN_CACHE=y\nCONFIG_ARM64_ERRATUM_824069=y\n", "ARM64_WORKAROUND_CLEAN_CACHE",
	  EH_CAP_DETECTED },
	{ "A53 r0p2 clean cache with only 819472 (r0p0-r0p1)", "6.1", A53(2), 0, 1, { { 0 } }, EH_BOOT_EL2,
	  "CONFIG_ARM64_WORKAROUND_CLEAN_CACHE=y\nCONFIG_ARM64_ERRATUM_819472=y\n", "ARM64_WORKAROUND_CLEAN_CACHE",
	  EH_CAP_NOT_DETECTED },
	/* KPTI: unmap_kernel_at_el0(). */
	{ "KPTI: A72 is Meltdown-safe", "6.1", A72, 0, 1, { { 0 } }, EH_BOOT_EL2, KPTI_ON,
	  "ARM64_UNMAP_KERNEL_AT_EL0", EH_CAP_NOT_DETECTED },
	{ "KPTI: KASLR forces it on A72", "6.1", A72, 0, 1, { { 0 } }, EH_BOOT_EL2,
	  KPTI_ON "CONFIG_RANDOMIZE_BASE=y\n", "ARM64_UNMAP_KERNEL_AT_EL0", EH_CAP_DETECTED },
	{ "KPTI: E0PD stands in for it under KASLR", "6.1", A72, 0, 1,
	  { { EH_ID_AA64MMFR2_EL1, 0x1000000000000000 } }, EH_BOOT_EL2,
	  KPTI_ON "CONFIG_RANDOMIZE_BASE=y\nCONFIG_ARM64_E0PD=y\n", "ARM64_UNMAP_KERNEL_AT_EL0",
	  EH_CAP_NOT_DETECTED },
	{ "KPTI: an unlisted CPU without CSV3 needs it", "6.1", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, KPTI_ON,
	  "ARM64_UNMAP_KERNEL_AT_EL0", EH_CAP_DETECTED },
	{ "KPTI: CSV3 makes it safe", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x1000000000000000 } },
	  EH_BOOT_EL2, KPTI_ON, "ARM64_UNMAP_KERNEL_AT_EL0", EH_CAP_NOT_DETECTED },
	{ "KPTI: erratum 27456 forces it off under KASLR", "6.1", THUNDERX(1, 1), 0, 1, { { 0 } }, EH_BOOT_EL2,
	  KPTI_ON "CONFIG_RANDOMIZE_BASE=y\nCONFIG_CAVIUM_ERRATUM_27456=y\n", "ARM64_UNMAP_KERNEL_AT_EL0",
	  EH_CAP_NOT_DETECTED },
	{ "KPTI: configured out", "6.1", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, "CONFIG_RANDOMIZE_BASE=y\n",
	  "ARM64_UNMAP_KERNEL_AT_EL0", EH_CAP_NOT_DETECTED },
	/* Predicates over other capabilities. */
	{ "5.4: PAN without UAO", "5.4", OTHER, 0, 1, { { EH_ID_AA64MMFR1_EL1, 0x100000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_ALT_PAN_NOT_UAO", EH_CAP_DETECTED },
	{ "5.4: PAN with UAO", "5.4", OTHER, 0, 1,
	  { { EH_ID_AA64MMFR1_EL1, 0x100000 }, { EH_ID_AA64MMFR2_EL1, 0x10 } }, EH_BOOT_EL2, NULL,
	  "ARM64_ALT_PAN_NOT_UAO", EH_CAP_NOT_DETECTED },
	{ "address auth from the IMP DEF algorithm", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR1_EL1, 0x100 } },
	  EH_BOOT_EL2, NULL, "ARM64_HAS_ADDRESS_AUTH", EH_CAP_DETECTED },
	{ "no address auth", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR1_EL1, 0x1000000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_ADDRESS_AUTH", EH_CAP_NOT_DETECTED },
	{ "generic auth from GPA", "6.1", OTHER, 0, 1, { { EH_ID_AA64ISAR1_EL1, 0x1000000 } }, EH_BOOT_EL2, NULL,
	  "ARM64_HAS_GENERIC_AUTH", EH_CAP_DETECTED },
	{ "Spectre-BHB: CSV2 3 is unaffected", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x0300000000000000 } },
	  EH_BOOT_EL2, NULL, "ARM64_SPECTRE_BHB", EH_CAP_NOT_DETECTED },
	{ "Spectre-BHB: CSV2 1 is affected", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x0100000000000000 } },
	  EH_BOOT_EL2, NULL, "ARM64_SPECTRE_BHB", EH_CAP_DETECTED },
	{ "Spectre-v2: CSV2 1 is unaffected", "6.1", OTHER, 0, 1, { { EH_ID_AA64PFR0_EL1, 0x0100000000000000 } },
	  EH_BOOT_EL2, NULL, "ARM64_SPECTRE_V2", EH_CAP_NOT_DETECTED },
	{ "Spectre-v2: A53 is on the safe list", "6.1", A53(4), 0, 1, { { 0 } }, EH_BOOT_EL2, NULL,
	  "ARM64_SPECTRE_V2", EH_CAP_NOT_DETECTED },
	/* Names a kernel version does not have. */
	{ "6.1 has no UAO capability", "6.1", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_HAS_UAO",
	  EH_CAP_UNKNOWN },
	{ "5.4 has no EPAN capability", "5.4", OTHER, 0, 1, { { 0 } }, EH_BOOT_EL2, NULL, "ARM64_HAS_EPAN",
	  EH_CAP_UNKNOWN },
};

static void run_rule_row(void **state)
{
	const struct rule_row *r = *state;
	const struct eh_model model = {
		.name = r->name, .midr = r->midr, .revidr = r->revidr, .threads_per_core = r->threads, .id_regs = r->regs,
	};
	struct eh_target t = { .model = &model, .boot = r->boot };
	const struct eh_cap_rules *rules = eh_cap_rules_find(r->kernel);
	struct eh_kconfig *cfg = NULL;
	const struct eh_capability *rule = NULL;
	enum eh_cap_state got;

	assert_non_null(rules);
	if (r->config && eh_kconfig_parse(&cfg, r->name, r->config, strlen(r->config), NULL))
		fail_msg("%s: bad config in the row", r->name);
	t.config = cfg;
	got = eh_cap_decide(rules, &t, r->cap, &rule);
	eh_kconfig_free(cfg);
	if (got != r->state)
		fail_msg("%s: Linux %s decides %s %d on MIDR 0x%08x REVIDR 0x%x, expected %d", r->name, r->kernel,
			 r->cap, got, r->midr, r->revidr, r->state);
	if ((got == EH_CAP_UNKNOWN) != !rule || (rule && strcmp(rule->name, r->cap)))
		fail_msg("%s: the deciding rule is %s", r->name, rule ? rule->name : "none");
}

/* What `models` prints for a field rule, with the value read. */
static void test_explain_field(void **state)
{
	const struct eh_id_reg regs[] = { { EH_ID_AA64ISAR0_EL1, 0x0000000000200000 }, { 0 } };
	const struct eh_model model = { .name = "lse", .midr = OTHER, .threads_per_core = 1, .id_regs = regs };
	const struct eh_target t = { .model = &model };
	const struct eh_capability *rule;
	char buf[256];

	(void)state;
	assert_int_equal(eh_cap_decide(eh_cap_rules_find("6.1"), &t, "ARM64_HAS_LSE_ATOMICS", &rule),
			 EH_CAP_DETECTED);
	assert_string_equal(eh_cap_explain(rule, &t, buf, sizeof(buf)), "ID_AA64ISAR0_EL1.Atomic [23:20] >= 2 (is 2)");
}

/*
 * Each built-in numbering has rules for every capability it numbers and no rule for a name it
 * lacks, and an image's entries can be named: descs are unique, and entries without one differ
 * by the kernel's predicate and type, or by the ID register field they read (6.12's
 * ARM64_HAS_FPSIMD and ARM64_HAS_TCR2 are both has_cpuid_feature() system features without a desc).
 */
static void test_tables_agree(void **state)
{
	const char *const *v;

	(void)state;
	for (v = eh_cpucaps_builtin_versions; *v; v++) {
		const struct eh_cpucaps *caps = eh_cpucaps_builtin(*v);
		const struct eh_cap_rules *rules = eh_cap_rules_find(caps->kernel);
		const struct eh_capability *c, *d;
		size_t i;
		unsigned n;

		assert_non_null(rules);
		for (i = 0; i < caps->ncap_entries; i++) {
			const struct eh_capability *rule = NULL;

			eh_cap_decide(rules, &(struct eh_target){ .model = eh_models[0] }, caps->caps[i].name, &rule);
			if (!rule)
				fail_msg("Linux %s numbers %s but has no rule for it", *v, caps->caps[i].name);
		}
		for (c = rules->caps; c->name; c++) {
			if (eh_cpucaps_number(caps, c->name, &n))
				fail_msg("Linux %s has a rule for %s, which its numbering lacks", *v, c->name);
			if (!c->kernel_matches || !c->matches)
				fail_msg("Linux %s: %s names no predicate", *v, c->name);
			for (d = rules->caps; d != c; d++) {
				if (c->desc && d->desc && !strcmp(c->desc, d->desc) && strcmp(c->name, d->name))
					fail_msg("Linux %s: '%s' names both %s and %s", *v, c->desc, d->name, c->name);
				if (!c->desc && !d->desc && !strcmp(c->kernel_matches, d->kernel_matches) &&
				    c->type == d->type && c->field.reg == d->field.reg && c->field.shift == d->field.shift)
					fail_msg("Linux %s: %s and %s cannot be told apart", *v, d->name, c->name);
			}
		}
	}
}

/* Every model carries every ID register the kernel reads. */
static void test_models_complete(void **state)
{
	static const uint32_t read_by_kernel[] = {
		EH_ID_AA64PFR0_EL1, EH_ID_AA64PFR1_EL1, EH_ID_AA64ISAR0_EL1, EH_ID_AA64ISAR1_EL1, EH_ID_AA64ISAR2_EL1,
		EH_ID_AA64MMFR0_EL1, EH_ID_AA64MMFR1_EL1, EH_ID_AA64MMFR2_EL1, EH_ID_AA64ZFR0_EL1, EH_ID_AA64DFR0_EL1,
		EH_CTR_EL0, EH_DCZID_EL0,
	};
	const struct eh_model *const *m;
	size_t i;

	(void)state;
	for (m = eh_models; *m; m++) {
		uint64_t v;
		char name[32];

		if (!(*m)->id_source)
			fail_msg("%s does not say where its ID register values come from", (*m)->name);
		for (i = 0; i < sizeof(read_by_kernel) / sizeof(read_by_kernel[0]); i++)
			if (eh_model_id_reg(*m, read_by_kernel[i], &v))
				fail_msg("%s lacks %s", (*m)->name, eh_sysreg_name(read_by_kernel[i], name, sizeof(name)));
	}
}

/* The models' capabilities the scenarios and the audit rely on. */
struct model_row {
	const char *name;
	const char *model;
	enum eh_boot boot;
	const char *cap;
	bool detected;
};

static const struct model_row model_rows[] = {
	{ "thunderx2 el2: VHE", "thunderx2", EH_BOOT_EL2, "ARM64_HAS_VIRT_HOST_EXTN", true },
	{ "thunderx2 nvhe: no VHE", "thunderx2", EH_BOOT_NVHE, "ARM64_HAS_VIRT_HOST_EXTN", false },
	{ "thunderx2: LSE atomics", "thunderx2", EH_BOOT_EL2, "ARM64_HAS_LSE_ATOMICS", true },
	{ "thunderx2: PAN", "thunderx2", EH_BOOT_EL2, "ARM64_HAS_PAN", true },
	{ "vulcan el2: VHE", "vulcan", EH_BOOT_EL2, "ARM64_HAS_VIRT_HOST_EXTN", true },
	{ "cortex-a72: no PAN", "cortex-a72", EH_BOOT_EL2, "ARM64_HAS_PAN", false },
	{ "cortex-a72: no LSE", "cortex-a72", EH_BOOT_EL2, "ARM64_HAS_LSE_ATOMICS", false },
	{ "cortex-a72: speculative AT (1319367)", "cortex-a72", EH_BOOT_EL2, "ARM64_WORKAROUND_SPECULATIVE_AT", true },
	{ "sve2-capable: SVE", "sve2-capable", EH_BOOT_EL2, "ARM64_SVE", true },
	{ "sve2-capable: PAN", "sve2-capable", EH_BOOT_EL2, "ARM64_HAS_PAN", true },
};

static void run_model_row(void **state)
{
	const struct model_row *r = *state;
	const struct eh_target t = { .model = eh_model_find(r->model), .boot = r->boot };

	assert_non_null(t.model);
	if (eh_cap_detected(eh_cap_rules_find("6.1"), &t, r->cap) != r->detected)
		fail_msg("%s: %s %s", r->name, r->cap, r->detected ? "not detected" : "detected");
}

#define NBOOT (sizeof(boot_rows) / sizeof(boot_rows[0]))
#define NPARSE (sizeof(parse_rows) / sizeof(parse_rows[0]))
#define NRULE (sizeof(rule_rows) / sizeof(rule_rows[0]))
#define NMODEL (sizeof(model_rows) / sizeof(model_rows[0]))

int main(void)
{
	struct CMUnitTest tests[NBOOT + NPARSE + NRULE + NMODEL + 3];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, boot_rows, run_boot_row);
	EH_ADD_ROWS(tests, n, parse_rows, run_parse_row);
	EH_ADD_ROWS(tests, n, rule_rows, run_rule_row);
	EH_ADD_ROWS(tests, n, model_rows, run_model_row);
	EH_ADD_TEST(tests, n, test_explain_field);
	EH_ADD_TEST(tests, n, test_tables_agree);
	EH_ADD_TEST(tests, n, test_models_complete);
	return EH_RUN_TESTS("capabilities", tests, n);
}

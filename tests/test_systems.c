/*
 * Systems of cores (big.LITTLE): ID registers sanitised as Linux 6.1's cpufeature.c combines
 * them, capabilities decided at each entry's scope, errata of any core, and each hardware thread
 * answering MRS with its own core's identity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <unicorn/unicorn.h>

#include "eh/cap.h"
#include "eh/case.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/machine.h"
#include "eh/model.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

/* Two made-up cores: one register each, values from the rows below. */
struct sanitise_row {
	const char *name;
	uint32_t reg;
	uint64_t boot, other;   /* the two cores' values */
	uint64_t expected;      /* worked out by hand from ftr_*[] of cpufeature.c */
};

static const struct sanitise_row sanitise_rows[] = {
	/* ftr_id_aa64mmfr0[]: PARANGE is FTR_LOWER_SAFE; the TGRAN fields are 0 on both. */
	{ "PARange lower safe: 40-bit and 44-bit PA give 40", EH_ID_AA64MMFR0_EL1, 0x1122, 0x1124, 0x1122 },
	/* ftr_id_aa64pfr0[]: FP is signed (S_ARM64_FTR_BITS): 0xf (not implemented) is -1, the lower. */
	{ "FP signed: a core without FP makes the system's 0xf", EH_ID_AA64PFR0_EL1, 0x00011, 0xf0011, 0xf0011 },
	/* ftr_ctr[]: L1Ip FTR_EXACT, safe value VIPT (2): AIVIVT (1) and PIPT (3) differ. */
	{ "L1Ip exact: AIVIVT and PIPT give VIPT", EH_CTR_EL0, 0x84444004, 0x8444c004, 0x84448004 },
	/* ftr_ctr[]: CWG FTR_HIGHER_OR_ZERO_SAFE: 0 (unknown) wins. */
	{ "CWG higher or zero: 4 and 0 give 0", EH_CTR_EL0, 0x84448004, 0x80448004, 0x80448004 },
	/* ftr_ctr[]: ERG FTR_HIGHER_OR_ZERO_SAFE: neither is 0, the higher wins. */
	{ "ERG higher or zero: 4 and 3 give 4", EH_CTR_EL0, 0x84448004, 0x84348004, 0x84448004 },
	/* ftr_ctr[]: DIC (29) and IDC (28) are one-bit fields, each lower safe. */
	{ "DIC and IDC one bit each: DIC alone and IDC alone give neither", EH_CTR_EL0, 0xa4448004, 0x94448004,
	  0x84448004 },
	/* ftr_id_aa64mmfr1[]: SpecSEI FTR_HIGHER_SAFE. */
	{ "SpecSEI higher safe", EH_ID_AA64MMFR1_EL1, 0x1000000, 0, 0x1000000 },
	/* ftr_id_aa64isar0[] describes no field in bits 3:0 (RES0): the sanitised register has 0 there. */
	{ "bits no field describes read 0", EH_ID_AA64ISAR0_EL1, 0x10021, 0x10021, 0x10020 },
	/* ftr_id_aa64isar1[]: APA FTR_EXACT, safe 0: two kinds of address authentication give none. */
	{ "APA exact: 1 and 2 give 0", EH_ID_AA64ISAR1_EL1, 0x10, 0x20, 0 },
};

static void run_sanitise_row(void **state)
{
	const struct sanitise_row *r = *state;
	const struct eh_id_reg boot_regs[] = { { r->reg, r->boot }, { 0 } };
	const struct eh_id_reg other_regs[] = { { r->reg, r->other }, { 0 } };
	const struct eh_model boot = { .name = "boot", .midr = 0x410fd034, .threads_per_core = 1, .id_regs = boot_regs };
	const struct eh_model other = { .name = "other", .midr = 0x410fd083, .threads_per_core = 1,
					.id_regs = other_regs };
	const struct eh_model *const cores[] = { &boot, &other, NULL };
	const struct eh_model sys = { .name = "sys", .cores = cores };
	uint64_t v = 0;

	if (eh_model_id_reg(&sys, r->reg, &v) || v != r->expected)
		fail_msg("%s: 0x%llx and 0x%llx gave 0x%llx, expected 0x%llx", r->name, (unsigned long long)r->boot,
			 (unsigned long long)r->other, (unsigned long long)v, (unsigned long long)r->expected);
}

/* A register one core lists and the other does not: the other reads it as 0; one neither lists: none. */
static void test_unlisted_registers(void **state)
{
	const struct eh_id_reg wfxt[] = { { EH_ID_AA64ISAR2_EL1, 0x1 }, { 0 } };
	const struct eh_model boot = { .name = "boot", .midr = 0x410fd034, .revidr = 0x100, .threads_per_core = 1,
				       .id_regs = wfxt };
	const struct eh_model other = { .name = "other", .midr = 0x410fd083, .threads_per_core = 2 };
	const struct eh_model *const cores[] = { &boot, &other, NULL };
	const struct eh_model sys = { .name = "sys", .cores = cores };
	unsigned local = 9, core = 9;
	uint64_t v = 7;

	(void)state;
	assert_int_equal(eh_model_id_reg(&sys, EH_ID_AA64ISAR2_EL1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(eh_model_id_reg(&sys, EH_ID_AA64ZFR0_EL1, &v), EH_ENOENT);
	/* MIDR_EL1 and REVIDR_EL1 system-wide: the boot CPU's. */
	assert_int_equal(eh_model_id_reg(&sys, EH_MIDR_EL1, &v), 0);
	assert_int_equal(v, 0x410fd034);
	assert_int_equal(eh_model_id_reg(&sys, EH_REVIDR_EL1, &v), 0);
	assert_int_equal(v, 0x100);
	/* Threads: the boot core's first, then the other's two; MPIDR Aff1 numbers the core. */
	assert_int_equal(eh_model_threads(&sys), 3);
	assert_ptr_equal(eh_model_thread_core(&sys, 0, &local, &core), &boot);
	assert_int_equal(local, 0);
	assert_ptr_equal(eh_model_thread_core(&sys, 2, &local, &core), &other);
	assert_int_equal(local, 1);
	assert_int_equal(core, 1);
	assert_null(eh_model_thread_core(&sys, 3, NULL, NULL));
	assert_int_equal(eh_model_mpidr(&sys, 0), 0x80000000);
	assert_int_equal(eh_model_mpidr(&sys, 2), 0x81000101);  /* RES1, MT (an SMT core), Aff1 1, Aff0 1 */
	assert_ptr_equal(eh_model_boot_core(&sys), &boot);
	assert_ptr_equal(eh_model_boot_core(&boot), &boot);
}

/* Scope rows on made-up cores: which core decides. */
struct scope_row {
	const char *name;
	const char *cap;
	uint32_t reg;
	uint64_t boot, other;  /* the register on the boot core and on the other */
	bool detected;
};

#define VH (1u << 8)       /* ID_AA64MMFR1_EL1.VH */
#define LSE (2u << 20)     /* ID_AA64ISAR0_EL1.Atomic = 2 */

static const struct scope_row scope_rows[] = {
	/* ARM64_HAS_VIRT_HOST_EXTN is ARM64_CPUCAP_STRICT_BOOT_CPU_FEATURE: the boot CPU decides. */
	{ "boot CPU scope: VHE on the boot core alone", "ARM64_HAS_VIRT_HOST_EXTN", EH_ID_AA64MMFR1_EL1, VH, 0, true },
	{ "boot CPU scope: VHE on the other core alone", "ARM64_HAS_VIRT_HOST_EXTN", EH_ID_AA64MMFR1_EL1, 0, VH, false },
	/* ARM64_HAS_LSE_ATOMICS is ARM64_CPUCAP_SYSTEM_FEATURE: every CPU must have it. */
	{ "system scope: LSE on one core only", "ARM64_HAS_LSE_ATOMICS", EH_ID_AA64ISAR0_EL1, LSE, 0, false },
	{ "system scope: LSE on the other only", "ARM64_HAS_LSE_ATOMICS", EH_ID_AA64ISAR0_EL1, 0, LSE, false },
	{ "system scope: LSE on both", "ARM64_HAS_LSE_ATOMICS", EH_ID_AA64ISAR0_EL1, LSE, LSE, true },
};

static void run_scope_row(void **state)
{
	const struct scope_row *r = *state;
	const struct eh_id_reg boot_regs[] = { { r->reg, r->boot }, { 0 } };
	const struct eh_id_reg other_regs[] = { { r->reg, r->other }, { 0 } };
	const struct eh_model boot = { .name = "boot", .midr = 0x411fd070, .threads_per_core = 1, .id_regs = boot_regs };
	const struct eh_model other = { .name = "other", .midr = 0x411fd070, .threads_per_core = 1,
					.id_regs = other_regs };
	const struct eh_model *const cores[] = { &boot, &other, NULL };
	const struct eh_model sys = { .name = "sys", .cores = cores };
	const struct eh_target t = { .model = &sys };

	if (eh_cap_detected(eh_cap_rules_find("6.1"), &t, r->cap) != r->detected)
		fail_msg("%s: %s %s, expected %s", r->name, r->cap, r->detected ? "not detected" : "detected",
			 r->detected ? "detected" : "not");
}

/*
 * Every capability of Linux 6.1 on every system, booted each way, against what the kernel's
 * rules make of its cores' own decisions: a local-CPU entry when any core detects it, a
 * boot-CPU entry when the boot CPU does, a system entry when every core does (each field the
 * rules read is lower safe, so the sanitised minimum passes exactly when every core's value
 * does). The system's answer comes from its sanitised registers; these from each core alone.
 */
static void test_every_system_by_scope(void **state)
{
	const struct eh_cap_rules *rules = eh_cap_rules_find("6.1");
	const struct eh_model *const *m, *const *c;
	const struct eh_capability *cap;
	unsigned nsystems = 0, boot;

	(void)state;
	for (m = eh_models; *m; m++) {
		if (!(*m)->cores)
			continue;
		nsystems++;
		for (boot = 0; eh_boot_names[boot]; boot++)
			for (cap = rules->caps; cap->name; cap++) {
				struct eh_target t = { .model = *m, .boot = (enum eh_boot)boot }, ct = t;
				bool any = false, all = true, expected;

				for (c = (*m)->cores; *c; c++) {
					ct.model = *c;
					any |= eh_cap_detected(rules, &ct, cap->name);
					all &= eh_cap_detected(rules, &ct, cap->name);
				}
				ct.model = (*m)->cores[0];
				expected = (cap->type & 7) == 1 ? any :
					   (cap->type & 7) == 4 ? eh_cap_detected(rules, &ct, cap->name) : all;
				if (eh_cap_detected(rules, &t, cap->name) != expected)
					fail_msg("%s booted at %s: %s (%s scope) %s, its cores say %s", (*m)->name,
						 eh_boot_names[boot], cap->name, eh_cap_scope_name(cap->type),
						 expected ? "not detected" : "detected",
						 expected ? "detected" : "not detected");
			}
	}
	assert_int_equal(nsystems, 3);
}

/* A capability on a real system, and on one of its cores alone, with the kernel's reason. */
struct system_row {
	const char *name;
	const char *system, *cap;
	bool on_system;
	const char *core;   /* a core of the system that decides the other way alone, or the same */
	bool on_core;
};

static const struct system_row system_rows[] = {
	/* ID_AA64PFR1_EL1.SSBS: 1 on Cortex-A76 (TRM B2), 0 on Cortex-A55; SYSTEM_FEATURE. */
	{ "system-a55-a76: ARM64_SSBS off, the A55 lacks it", "system-a55-a76", "ARM64_SSBS", false,
	  "cortex-a76-r4p0", true },
	/* ID_AA64PFR0_EL1.EL0: 1 (AArch64 only) on Cortex-A510, 2 on A710; SYSTEM_FEATURE. */
	{ "system-a510-a710: no 32-bit EL0, the A510 is AArch64 only", "system-a510-a710",
	  "ARM64_HAS_32BIT_EL0_DO_NOT_USE", false, "cortex-a710-r0p0", true },
	/* ID_AA64PFR0_EL1.RAS: 1 on A55 and A76: on for the system. */
	{ "system-a55-a76: RAS on, both cores have it", "system-a55-a76", "ARM64_HAS_RAS_EXTN", true, "cortex-a55-r2p0",
	  true },
	/* Local-CPU errata of one core (cpu_errata.c MIDR lists): on system-wide. */
	{ "system-a53-a72: 843419 of the A53 r0p4", "system-a53-a72", "ARM64_WORKAROUND_843419", true, "cortex-a72",
	  false },
	{ "system-a53-a72: 1319367 of the A72 (SPECULATIVE_AT)", "system-a53-a72", "ARM64_WORKAROUND_SPECULATIVE_AT", true,
	  "cortex-a53-r0p4", false },
	{ "system-a55-a76: 3194386 of the A76 (SPECULATIVE_SSBS)", "system-a55-a76",
	  "ARM64_WORKAROUND_SPECULATIVE_SSBS", true, "cortex-a55-r2p0", false },
	{ "system-a55-a76: 1530923 of the A55 r2p0 (SPECULATIVE_AT)", "system-a55-a76",
	  "ARM64_WORKAROUND_SPECULATIVE_AT", true, "cortex-a76-r4p0", false },
	{ "system-a510-a710: 2054223 of the A710 (TSB_FLUSH_FAILURE)", "system-a510-a710",
	  "ARM64_WORKAROUND_TSB_FLUSH_FAILURE", true, "cortex-a510-r1p1", false },
	/* A weak local CPU feature: 2457168 of the A510 r1p1 (ARM64_CPUCAP_WEAK_LOCAL_CPU_FEATURE). */
	{ "system-a510-a710: 2457168 of the A510 (BROKEN_AMU_CONSTCNT)", "system-a510-a710",
	  "ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT", true, "cortex-a710-r0p0", false },
};

static void run_system_row(void **state)
{
	const struct system_row *r = *state;
	const struct eh_cap_rules *rules = eh_cap_rules_find("6.1");
	const struct eh_target sys = { .model = eh_model_find(r->system) };
	const struct eh_target core = { .model = eh_model_find(r->core) };

	if (!sys.model || !core.model)
		fail_msg("%s: no model %s or %s", r->name, r->system, r->core);
	if (eh_cap_detected(rules, &core, r->cap) != r->on_core)
		fail_msg("%s: %s alone: %s %s", r->name, r->core, r->cap, r->on_core ? "not detected" : "detected");
	if (eh_cap_detected(rules, &sys, r->cap) != r->on_system)
		fail_msg("%s: %s %s", r->name, r->cap, r->on_system ? "not detected" : "detected");
}

/* Errata by system: affected when a core is (the cores' rows of tests/test_model_errata.c). */
struct erratum_row {
	const char *name;
	const char *system, *erratum;
	bool affected;
};

static const struct erratum_row erratum_rows[] = {
	{ "system-a53-a72: a53-843419 (A53 r0p4)", "system-a53-a72", "a53-843419", true },
	{ "system-a53-a72: a53-835769 (A53 r0p4)", "system-a53-a72", "a53-835769", true },
	{ "system-a53-a72: no clean-cache (A53 past r0p2)", "system-a53-a72", "clean-cache", false },
	{ "system-a53-a72: no repeat-tlbi", "system-a53-a72", "repeat-tlbi", false },
	{ "system-a55-a76: repeat-tlbi (both cores)", "system-a55-a76", "repeat-tlbi", true },
	{ "system-a55-a76: no a53-843419", "system-a55-a76", "a53-843419", false },
	{ "system-a510-a710: repeat-tlbi (A510 r1p1, A710)", "system-a510-a710", "repeat-tlbi", true },
	{ "system-a510-a710: no a520-2966298", "system-a510-a710", "a520-2966298", false },
	{ "system-a510-a710: no tx2-219", "system-a510-a710", "tx2-219", false },
};

static void run_erratum_row(void **state)
{
	const struct erratum_row *r = *state;
	const struct eh_model *m = eh_model_find(r->system);
	const struct eh_erratum *e = eh_erratum_find(r->erratum);

	if (!m || !e)
		fail_msg("%s: no model %s or erratum %s", r->name, r->system, r->erratum);
	if (eh_erratum_affects(e, m) != r->affected || eh_erratum_shows(e, m) != r->affected)
		fail_msg("%s: %s %s", r->name, r->erratum, r->affected ? "does not affect it" : "affects it");
}

/* Each thread reads its own core's MIDR_EL1, MPIDR_EL1, REVIDR_EL1 and ID_AA64PFR1_EL1. */
struct identity_row {
	const char *name;
	const char *cores[2];                 /* the boot core, the other */
	unsigned first_core;                  /* eh_machine_opts.first_core: the core thread 0 is pinned to */
	uint64_t midr[2], mpidr[2], pfr1[2];  /* thread 0, thread 1; from the cores' TRMs */
};

static const struct identity_row identity_rows[] = {
	{ "A55 r2p0 then A76 r4p0 (SSBS)", { "cortex-a55-r2p0", "cortex-a76-r4p0" }, 0, { 0x412fd050, 0x414fd0b0 },
	  { 0x80000000, 0x80000100 }, { 0, 0x10 } },
	{ "A76 r4p0 then A55 r2p0", { "cortex-a76-r4p0", "cortex-a55-r2p0" }, 0, { 0x414fd0b0, 0x412fd050 },
	  { 0x80000000, 0x80000100 }, { 0x10, 0 } },
	{ "A55 r2p0 then A76 r4p0, pinned to the A76: thread 0 is core 1", { "cortex-a55-r2p0", "cortex-a76-r4p0" }, 1,
	  { 0x414fd0b0, 0x412fd050 }, { 0x80000100, 0x80000000 }, { 0x10, 0 } },
	{ "A53 r0p4 then A72 r0p3", { "cortex-a53-r0p4", "cortex-a72" }, 0, { 0x410fd034, 0x410fd083 },
	  { 0x80000000, 0x80000100 }, { 0, 0 } },
	{ "A510 r1p1 then A710 r0p0", { "cortex-a510-r1p1", "cortex-a710-r0p0" }, 0, { 0x411fd461, 0x410fd470 },
	  { 0x80000000, 0x80000100 }, { 0x221, 0x221 } },
};

static void run_identity_row(void **state)
{
	const struct identity_row *r = *state;
	const struct eh_model *cores[] = { eh_model_find(r->cores[0]), eh_model_find(r->cores[1]), NULL };
	const struct eh_model sys = { .name = "sys", .uc_cpu = UC_CPU_ARM64_MAX, .cores = cores };
	const struct eh_model *model = &sys;
	struct eh_elf *elf = NULL;
	struct eh_image *img = NULL;
	struct eh_machine *m = NULL;
	struct eh_error err = { 0 };
	uint64_t entry, arg = 0;
	unsigned t;

	if (!cores[0] || !cores[1])
		fail_msg("%s: no model %s or %s", r->name, r->cores[0], r->cores[1]);
	if (eh_elf_open(&elf, EH_TEST_ELF_DIR "/engine-tests.elf", &err) ||
	    eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"), &(struct eh_target){ .model = model }, &err) ||
	    eh_elf_resolve(elf, "read_ids", &entry, &err) ||
	    eh_machine_new(&m, model, img, &(struct eh_machine_opts){ .first_core = r->first_core }, &err))
		fail_msg("%s: %s", r->name, err.msg);
	assert_int_equal(eh_machine_threads(m), 2);
	for (t = 0; t < 2; t++)
		if (eh_machine_start(m, t, entry, &arg, 1, &err))
			fail_msg("%s: thread %u: %s", r->name, t, err.msg);
	if (eh_machine_run(m, &err))
		fail_msg("%s: %s", r->name, err.msg);
	for (t = 0; t < 2; t++) {
		uint64_t x[4] = { eh_machine_xreg(m, t, 0), eh_machine_xreg(m, t, 1), eh_machine_xreg(m, t, 2),
				  eh_machine_xreg(m, t, 3) };

		if (x[0] != r->midr[t] || x[1] != r->mpidr[t] || x[2] != 0 || x[3] != r->pfr1[t])
			fail_msg("%s: thread %u read MIDR 0x%llx MPIDR 0x%llx REVIDR 0x%llx PFR1 0x%llx", r->name, t,
				 (unsigned long long)x[0], (unsigned long long)x[1], (unsigned long long)x[2],
				 (unsigned long long)x[3]);
		assert_ptr_equal(eh_machine_thread_core(m, t), cores[(t + r->first_core) % 2]);
	}
	eh_machine_free(m);
	eh_image_free(img);
	eh_elf_free(elf);
}

/*
 * A hazard is a bug only on a thread whose core has the erratum: repeat-tlbi's `before` (a store
 * after one broadcast TLBI;DSB) on a made-up system of a Cortex-A53 r0p4 (no REPEAT_TLBI) and an
 * A55 r2p0 (2441007), pinned to one core or the other.
 */
struct hazard_row {
	const char *name;
	unsigned first_core;
	enum eh_verdict verdict;
};

static const struct hazard_row hazard_rows[] = {
	{ "repeat-tlbi's hazard on the A53 of an A53 + A55 system: benign", 0, EH_VERDICT_BENIGN },
	{ "repeat-tlbi's hazard on the A55 of an A53 + A55 system: bug", 1, EH_VERDICT_BUG },
};

static void run_hazard_row(void **state)
{
	const struct hazard_row *r = *state;
	const struct eh_model *cores[] = { eh_model_find("cortex-a53-r0p4"), eh_model_find("cortex-a55-r2p0"), NULL };
	const struct eh_model sys = { .name = "sys", .uc_cpu = UC_CPU_ARM64_MAX, .cores = cores };
	const struct eh_case *c = eh_case_find("repeat-tlbi");
	struct eh_outcome out = { 0 };
	struct eh_elf *elf = NULL;
	struct eh_image *img = NULL;
	struct eh_machine *m = NULL;
	struct eh_error err = { 0 };
	uint64_t entry;

	if (!c || !cores[0] || !cores[1])
		fail_msg("%s: no case repeat-tlbi or no model", r->name);
	if (eh_elf_open(&elf, EH_CASES_DIR "/repeat-tlbi.elf", &err) ||
	    eh_image_new(&img, elf, eh_cpucaps_builtin("6.1"), &(struct eh_target){ .model = &sys }, &err) ||
	    eh_elf_resolve(elf, eh_case_variant(c, "before")->entry, &entry, &err) ||
	    eh_machine_new(&m, &sys, img, &(struct eh_machine_opts){ .first_core = r->first_core }, &err) ||
	    eh_machine_start(m, 0, entry, NULL, 0, &err) || eh_machine_run(m, &err))
		fail_msg("%s: %s", r->name, err.msg);
	eh_case_judge_hazards(m, "repeat-tlbi", &out);
	if (out.verdict != r->verdict)
		fail_msg("%s: %s (%s)", r->name, eh_verdict_name(out.verdict), out.evidence);
	eh_machine_free(m);
	eh_image_free(img);
	eh_elf_free(elf);
}

/*
 * A case on a system runs where its expectation row selects a core (a row by erratum: the first
 * core that has it), and the bug shows there.
 */
struct case_row {
	const char *name;
	const char *case_id, *variant, *system;
	const char *core;        /* thread 0's */
	enum eh_verdict verdict;
};

static const struct case_row case_rows[] = {
	{ "tsb-flush-failure before on system-a510-a710: on the A710, bug", "tsb-flush-failure", "before",
	  "system-a510-a710", "cortex-a710-r0p0", EH_VERDICT_BUG },
	{ "tsb-flush-failure after on system-a510-a710: on the A710, fixed", "tsb-flush-failure", "after",
	  "system-a510-a710", "cortex-a710-r0p0", EH_VERDICT_FIXED },
	{ "a53-843419 before on system-a53-a72: on the A53, bug", "a53-843419", "before", "system-a53-a72",
	  "cortex-a53-r0p4", EH_VERDICT_BUG },
	{ "repeat-tlbi before on system-a55-a76: on the boot A55, bug", "repeat-tlbi", "before", "system-a55-a76",
	  "cortex-a55-r2p0", EH_VERDICT_BUG },
	{ "a53-843419 after on system-a53-a72: on the A53, fixed", "a53-843419", "after", "system-a53-a72",
	  "cortex-a53-r0p4", EH_VERDICT_FIXED },
};

static void run_case_row(void **state)
{
	const struct case_row *r = *state;
	const struct eh_case *c = eh_case_find(r->case_id);
	const struct eh_model *model = eh_model_find(r->system);
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_case_run *run = NULL;
	struct eh_error err = { 0 };

	if (!c || !model || !eh_case_variant(c, r->variant))
		fail_msg("%s: no case %s, variant %s or model %s", r->name, r->case_id, r->variant, r->system);
	if (eh_case_run(&run, c, eh_case_variant(c, r->variant), model, &opts, &err))
		fail_msg("%s: %s", r->name, err.msg);
	if (strcmp(eh_machine_thread_core(run->machine, 0)->name, r->core) || run->outcome.verdict != r->verdict)
		fail_msg("%s: ran on %s, %s (%s)", r->name, eh_machine_thread_core(run->machine, 0)->name,
			 eh_verdict_name(run->outcome.verdict), run->outcome.evidence);
	eh_case_run_free(run);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(sanitise_rows) + EH_COUNT(scope_rows) + EH_COUNT(system_rows) +
				EH_COUNT(erratum_rows) + EH_COUNT(identity_rows) + EH_COUNT(hazard_rows) +
				EH_COUNT(case_rows) + 2];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, sanitise_rows, run_sanitise_row);
	EH_ADD_ROWS(tests, n, scope_rows, run_scope_row);
	EH_ADD_ROWS(tests, n, system_rows, run_system_row);
	EH_ADD_ROWS(tests, n, erratum_rows, run_erratum_row);
	EH_ADD_ROWS(tests, n, identity_rows, run_identity_row);
	EH_ADD_ROWS(tests, n, hazard_rows, run_hazard_row);
	EH_ADD_ROWS(tests, n, case_rows, run_case_row);
	EH_ADD(tests, n, "unlisted registers, threads and MPIDR of a system", test_unlisted_registers, NULL);
	EH_ADD(tests, n, "every capability on every system, by scope", test_every_system_by_scope, NULL);
	return EH_RUN_TESTS("systems", tests, n);
}

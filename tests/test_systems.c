/*
 * Systems of cores (big.LITTLE): ID registers sanitised as Linux 6.1's cpufeature.c combines
 * them, capabilities decided at each entry's scope, and each hardware thread answering MRS with
 * its own core's identity.
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
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/machine.h"
#include "eh/model.h"
#include "eh/sysreg.h"

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

/* Each thread reads its own core's MIDR_EL1, MPIDR_EL1, REVIDR_EL1 and ID_AA64PFR1_EL1. */
struct identity_row {
	const char *name;
	const char *cores[2];                 /* the boot core, the other */
	uint64_t midr[2], mpidr[2], pfr1[2];  /* thread 0 (the boot core), thread 1; from the cores' TRMs */
};

static const struct identity_row identity_rows[] = {
	{ "A55 r2p0 then A76 r4p0 (SSBS)", { "cortex-a55-r2p0", "cortex-a76-r4p0" }, { 0x412fd050, 0x414fd0b0 },
	  { 0x80000000, 0x80000100 }, { 0, 0x10 } },
	{ "A76 r4p0 then A55 r2p0", { "cortex-a76-r4p0", "cortex-a55-r2p0" }, { 0x414fd0b0, 0x412fd050 },
	  { 0x80000000, 0x80000100 }, { 0x10, 0 } },
	{ "A53 r0p4 then A72 r0p3", { "cortex-a53-r0p4", "cortex-a72" }, { 0x410fd034, 0x410fd083 },
	  { 0x80000000, 0x80000100 }, { 0, 0 } },
	{ "A510 r1p1 then A710 r0p0", { "cortex-a510-r1p1", "cortex-a710-r0p0" }, { 0x411fd461, 0x410fd470 },
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
	    eh_elf_resolve(elf, "read_ids", &entry, &err) || eh_machine_new(&m, model, img, NULL, &err))
		fail_msg("%s: %s", r->name, err.msg);
	assert_int_equal(eh_machine_threads(m), 2);
	for (t = 0; t < 2; t++)
		if (eh_machine_start(m, t, entry, &arg, 1, &err))
			fail_msg("%s: thread %u: %s", r->name, t, err.msg);
	if (eh_machine_run(m, &err))
		fail_msg("%s: %s", r->name, err.msg);
	for (t = 0; t < 2; t++) {
		const struct eh_thread_result *res = eh_machine_result(m, t);

		if (res->x[0] != r->midr[t] || res->x[1] != r->mpidr[t] || res->x[2] != 0 || res->x[3] != r->pfr1[t])
			fail_msg("%s: thread %u read MIDR 0x%llx MPIDR 0x%llx REVIDR 0x%llx PFR1 0x%llx", r->name, t,
				 (unsigned long long)res->x[0], (unsigned long long)res->x[1],
				 (unsigned long long)res->x[2], (unsigned long long)res->x[3]);
		assert_ptr_equal(eh_machine_thread_core(m, t), cores[t]);
	}
	eh_machine_free(m);
	eh_image_free(img);
	eh_elf_free(elf);
}

#define ROWS(rows, fn) \
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) \
		tests[n++] = (struct CMUnitTest){ .name = rows[i].name, .test_func = (fn), \
						  .initial_state = (void *)&rows[i] }

int main(void)
{
	struct CMUnitTest tests[64];
	size_t i, n = 0;

	ROWS(sanitise_rows, run_sanitise_row);
	ROWS(scope_rows, run_scope_row);
	ROWS(identity_rows, run_identity_row);
	tests[n++] = (struct CMUnitTest){ .name = "unlisted registers, threads and MPIDR of a system",
					  .test_func = test_unlisted_registers };
	return _cmocka_run_group_tests("systems", tests, n, NULL, NULL);
}

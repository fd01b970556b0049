/*
 * Systems of cores (big.LITTLE): ID registers sanitised as Linux 6.1's cpufeature.c combines
 * them, and capabilities decided at each entry's scope.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eh/cap.h"
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
	tests[n++] = (struct CMUnitTest){ .name = "unlisted registers, threads and MPIDR of a system",
					  .test_func = test_unlisted_registers };
	return _cmocka_run_group_tests("systems", tests, n, NULL, NULL);
}

/*
 * Models read from a machine (eh/model_from.h): each input form, the known model a core's
 * unlisted registers come from, systems of cores, and every bad input named by file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../harness/src/util/alloc_fail.h"
#include "eh/model.h"
#include "eh/model_from.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

/*
 * MIDR_EL1 values from arch/arm64/include/asm/cputype.h (implementer 0x41 Arm: Cortex-A53
 * part 0xd03, A72 0xd08, A76 0xd0b), with the variant and revision in bits 23:20 and 3:0.
 */
#define A53_R0P4 0x410fd034u
#define A72_R0P3 0x410fd083u
#define A76_R3P2 0x413fd0b2u

struct from_row {
	const char *name;
	const char *text;
	int rc;                  /* 0, or the error code */
	const char *msg;         /* the error message holds this */
	uint32_t midr, revidr;   /* of the boot CPU */
	unsigned cores;          /* 1: one core, else a system of that many */
	const char *base;        /* the known model the boot CPU's other registers come from, or NULL */
	uint32_t reg;            /* and this register reads value system-wide (0: not checked) */
	uint64_t value;
};

static const struct from_row rows[] = {
	{ "dump: MIDR_EL1 alone takes the A72's registers", "MIDR_EL1=0x410fd083\n", 0, NULL, A72_R0P3, 0, 1,
	  "cortex-a72", EH_ID_AA64MMFR0_EL1, 0x1124 },
	{ "dump: a register given replaces the known model's",
	  "# probe output\nMIDR_EL1=0x410fd083\nREVIDR_EL1=0x0\nID_AA64ISAR0_EL1=0x0000000000000010\n", 0, NULL,
	  A72_R0P3, 0, 1, "cortex-a72", EH_ID_AA64ISAR0_EL1, 0x10 },
	{ "dump: any case, no 0x, blanks around =", "  midr_el1 = 410fd034\r\n", 0, NULL, A53_R0P4, 0, 1,
	  "cortex-a53-r0p4", 0, 0 },
	{ "dump: REVIDR_EL1 bit 8 picks the 843419-fixed A53", "MIDR_EL1=0x410fd034\nREVIDR_EL1=0x100\n", 0, NULL,
	  A53_R0P4, 0x100, 1, "cortex-a53-r0p4-fixed", 0, 0 },
	{ "dump: the nearest revision of the part (r3p1 for r3p2)", "MIDR_EL1=0x413fd0b2\n", 0, NULL, A76_R3P2, 0, 1,
	  "cortex-a76-r3p1", 0, 0 },
	{ "dump: an unknown part keeps only the file's registers", "MIDR_EL1=0x4100d990\nID_AA64PFR0_EL1=0x11\n", 0,
	  NULL, 0x4100d990, 0, 1, NULL, EH_ID_AA64PFR0_EL1, 0x11 },
	{ "dump: the generic spelling of an ID register", "MIDR_EL1=0x410fd083\nS3_0_C0_C4_4=0x1\n", 0, NULL, A72_R0P3,
	  0, 1, "cortex-a72", EH_ID_AA64ZFR0_EL1, 0x1 },
	{ "dump: MPIDR_EL1 is read and left to the model", "MPIDR_EL1=0x80000000\nMIDR_EL1=0x410fd083\n", 0, NULL,
	  A72_R0P3, 0, 1, "cortex-a72", 0, 0 },
	{ "listing: one CPU",
	  "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1:0x00000000410fd083\n"
	  "/sys/devices/system/cpu/cpu0/regs/identification/revidr_el1:0x0000000000000000\n",
	  0, NULL, A72_R0P3, 0, 1, "cortex-a72", 0, 0 },
	{ "listing: four A53s and two A72s make a system, cpu0's core first",
	  "/sys/devices/system/cpu/cpu4/regs/identification/midr_el1:0x00000000410fd083\n"
	  "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1:0x00000000410fd034\n"
	  "/sys/devices/system/cpu/cpu1/regs/identification/midr_el1:0x00000000410fd034\n"
	  "/sys/devices/system/cpu/cpu2/regs/identification/midr_el1:0x00000000410fd034\n"
	  "/sys/devices/system/cpu/cpu3/regs/identification/midr_el1:0x00000000410fd034\n"
	  "/sys/devices/system/cpu/cpu5/regs/identification/midr_el1:0x00000000410fd083\n"
	  "/sys/devices/system/cpu/cpu5/regs/identification/smidr_el1:0x0\n",
	  /* ftr_id_aa64mmfr0[]: PARANGE lower safe; the A53 has 40 bits (2), the A72 44 (4). */
	  0, NULL, A53_R0P4, 0, 2, "cortex-a53-r0p4", EH_ID_AA64MMFR0_EL1, 0x1122 },
	{ "boot log: the boot CPU among other lines",
	  "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]\n"
	  "[    0.000000] Linux version 6.1.0-28-cloud-arm64 (debian-kernel@lists.debian.org)\n"
	  "[    0.000000] Machine model: linux,dummy-virt\n",
	  0, NULL, A72_R0P3, 0, 1, "cortex-a72", 0, 0 },
	{ "boot log: secondaries of another part make a system",
	  "Booting Linux on physical CPU 0x0000000000 [0x410fd034]\n"
	  "[    0.031000] CPU1: Booted secondary processor 0x0000000100 [0x410fd083]\n",
	  0, NULL, A53_R0P4, 0, 2, "cortex-a53-r0p4", 0, 0 },
	{ "bad: a line of no form", "MIDR_EL1=0x410fd083\nhello\n", -3, "f:2: 'hello' is none of", 0, 0, 0, NULL, 0, 0 },
	{ "bad: a value not hexadecimal", "MIDR_EL1=0xzz\n", -3, "f:1: MIDR_EL1: '0xzz' is not a hexadecimal value", 0,
	  0, 0, NULL, 0, 0 },
	{ "bad: 0x alone", "MIDR_EL1=0x\n", -3, "f:1: MIDR_EL1: '0x' is not a hexadecimal value", 0, 0, 0, NULL, 0, 0 },
	{ "bad: not an identification register", "MIDR_EL1=0x410fd083\nTTBR0_EL1=0x1\n", -3,
	  "f:2: 'TTBR0_EL1' is not an identification register", 0, 0, 0, NULL, 0, 0 },
	{ "bad: MIDR_EL1 wider than 32 bits", "MIDR_EL1=0x1410fd083\n", -3,
	  "f:1: MIDR_EL1 0x1410fd083 does not fit its 32 bits", 0, 0, 0, NULL, 0, 0 },
	{ "bad: a register twice with two values", "MIDR_EL1=0x410fd083\nCTR_EL0=1\nctr_el0=2\n", -3,
	  "f:3: CTR_EL0 given twice", 0, 0, 0, NULL, 0, 0 },
	{ "bad: two MIDR_EL1 for one CPU", "MIDR_EL1=0x410fd083\nMIDR_EL1=0x410fd034\n", -3,
	  "f:2: a second MIDR_EL1 for CPU 0", 0, 0, 0, NULL, 0, 0 },
	{ "bad: nothing at all", "# empty\n\n", -3, "f: no MIDR_EL1", 0, 0, 0, NULL, 0, 0 },
	{ "bad: REVIDR_EL1 without MIDR_EL1", "REVIDR_EL1=0x1\n", -3, "f: CPU 0 has no MIDR_EL1", 0, 0, 0, NULL, 0, 0 },
	{ "bad: a boot line without its values", "x\nBooting Linux on physical CPU here\n", -3,
	  "f:2: expected '0x<MPIDR> [0x<MIDR>]' after 'Booting Linux on physical CPU'", 0, 0, 0, NULL, 0, 0 },
	{ "bad: a listing line of another file",
	  "/sys/devices/system/cpu/cpu0/regs/identification/midr:0x410fd083\n", -3,
	  "f:1: 'midr' is neither midr_el1 nor revidr_el1", 0, 0, 0, NULL, 0, 0 },
	{ "bad: a listing line without a CPU number", "/x/regs/identification/midr_el1:0x410fd083\n", -3,
	  "f:1: no cpuN before", 0, 0, 0, NULL, 0, 0 },
};

static void check(const struct from_row *r, struct eh_model_from *f, int rc, const struct eh_error *err)
{
	const struct eh_model *m, *boot;
	uint64_t v = 0;
	unsigned n = 1;

	if (rc != r->rc)
		fail_msg("%s: returned %d, expected %d (%s)", r->name, rc, r->rc, err->msg);
	if (rc) {
		if (!strstr(err->msg, r->msg))
			fail_msg("%s: message '%s' lacks '%s'", r->name, err->msg, r->msg);
		assert_null(f);
		return;
	}
	m = eh_model_from_model(f);
	boot = eh_model_boot_core(m);
	if (m->cores)
		for (n = 0; m->cores[n]; n++)
			;
	if (n != r->cores || boot->midr != r->midr || boot->revidr != r->revidr)
		fail_msg("%s: %u cores, boot CPU MIDR 0x%08x REVIDR 0x%x; expected %u, 0x%08x, 0x%x", r->name, n,
			 boot->midr, boot->revidr, r->cores, r->midr, r->revidr);
	if (r->base ? !eh_model_from_base(f, 0) || strcmp(eh_model_from_base(f, 0)->name, r->base)
		    : eh_model_from_base(f, 0) != NULL)
		fail_msg("%s: base %s, expected %s", r->name,
			 eh_model_from_base(f, 0) ? eh_model_from_base(f, 0)->name : "none", r->base ? r->base : "none");
	if (r->reg && (eh_model_id_reg(m, r->reg, &v) || v != r->value))
		fail_msg("%s: register 0x%x reads 0x%llx, expected 0x%llx", r->name, r->reg, (unsigned long long)v,
			 (unsigned long long)r->value);
}

static void run_row(void **state)
{
	const struct from_row *r = *state;
	struct eh_model_from *f = NULL;
	struct eh_error err = { 0 };
	int rc = eh_model_from_text(&f, "f", r->text, strlen(r->text), &err);

	check(r, f, rc, &err);
	eh_model_from_free(f);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* A copy of /sys/devices/system/cpu: cpu0 and cpu1 alike make one core; cpufreq and the like are skipped. */
static void test_directory(void **state)
{
	static const struct from_row sysfs = { "directory", NULL, 0, NULL, A53_R0P4, 0x100, 1, "cortex-a53-r0p4-fixed",
					       0, 0 };
	static const struct from_row bad = { "directory with a bad file", NULL, -3, "cpu1/regs/identification/midr_el1: "
					     "'banana' is not a hexadecimal value", 0, 0, 0, NULL, 0, 0 };
	static const struct from_row one = { "one identification directory", NULL, 0, NULL, A53_R0P4, 0x100, 1,
					     "cortex-a53-r0p4-fixed", 0, 0 };
	char dir[] = "/tmp/eh-model-from-XXXXXX", p[256];
	struct eh_model_from *f = NULL;
	struct eh_error err = { 0 };
	int cpu, rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(p, sizeof(p), "%s/cpu%d", dir, cpu);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/cpu%d/regs", dir, cpu);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/cpu%d/regs/identification", dir, cpu);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/cpu%d/regs/identification/midr_el1", dir, cpu);
		write_file(p, "0x00000000410fd034\n");
		snprintf(p, sizeof(p), "%s/cpu%d/regs/identification/revidr_el1", dir, cpu);
		write_file(p, "0x0000000000000100\n");
	}
	snprintf(p, sizeof(p), "%s/cpufreq", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	rc = eh_model_from_path(&f, dir, &err);
	check(&sysfs, f, rc, &err);
	eh_model_from_free(f);
	snprintf(p, sizeof(p), "%s/cpu0/regs/identification", dir);
	rc = eh_model_from_path(&f, p, &err);
	check(&one, f, rc, &err);
	eh_model_from_free(f);
	snprintf(p, sizeof(p), "%s/cpu1/regs/identification/midr_el1", dir);
	write_file(p, "banana\n");
	rc = eh_model_from_path(&f, dir, &err);
	check(&bad, f, rc, &err);
	snprintf(p, sizeof(p), "rm -r '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* Every allocation of a system's construction failing in turn: EH_ENOMEM, nothing returned, nothing leaked (valgrind). */
static void test_allocation_failures(void **state)
{
	static const char text[] = "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1:0x410fd034\n"
				   "/sys/devices/system/cpu/cpu1/regs/identification/midr_el1:0x410fd083\n";
	struct eh_model_from *f = NULL;
	struct eh_error err = { 0 };
	unsigned long n;
	int rc;

	(void)state;
	for (n = 1;; n++) {
		eh_alloc_fail_at(n);
		rc = eh_model_from_text(&f, "f", text, strlen(text), &err);
		eh_alloc_fail_at(0);
		if (!rc)
			break;
		if (rc != -1 || f)
			fail_msg("allocation %lu failing: returned %d (%s)", n, rc, err.msg);
	}
	assert_true(n > 3);  /* the model, its CPUs, its cores and their registers */
	assert_int_equal(eh_model_from_model(f)->cores[1]->midr, A72_R0P3);
	eh_model_from_free(f);
}

static void test_missing_path(void **state)
{
	struct eh_model_from *f = NULL;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_model_from_path(&f, "/nonexistent/regs", &err), -6);
	assert_non_null(strstr(err.msg, "/nonexistent/regs"));
	assert_null(f);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 3];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_directory);
	EH_ADD_TEST(tests, n, test_missing_path);
	EH_ADD_TEST(tests, n, test_allocation_failures);
	return EH_RUN_TESTS("model_from", tests, n);
}

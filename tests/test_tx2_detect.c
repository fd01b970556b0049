/* The erratum 219 detection rules (93916beb7014) over a matrix of parts, boot modes and threads per core. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/cap.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "reports/rows.h"

#define TX2 EH_MIDR(0x43, 1, 0x0af, 1)       /* Cavium ThunderX2 r1p1 */
#define TX2_R0 EH_MIDR(0x43, 0, 0x0af, 0)    /* an earlier revision: the kernel matches all */
#define VULCAN EH_MIDR(0x42, 0, 0x516, 0)    /* Broadcom Vulcan */
#define A72 EH_MIDR(0x41, 0, 0xd08, 3)       /* Arm Cortex-A72 */
#define THUNDERX EH_MIDR(0x43, 1, 0x0a1, 0)  /* Cavium ThunderX: same implementer, other part */

struct row {
	const char *name;
	uint32_t midr;
	enum eh_boot boot;
	unsigned threads;
	bool tvm;   /* TX2 family, booted at EL2 (hyp mode available), and some CPU with MPIDR.Aff0 != 0 */
	bool prfm;  /* TX2 family, whatever else */
};

static const struct row rows[] = {
	{ "tx2, el2, 1 thread", TX2, EH_BOOT_EL2, 1, false, true },
	{ "tx2, el2, 2 threads", TX2, EH_BOOT_EL2, 2, true, true },
	{ "tx2, el2, 4 threads", TX2, EH_BOOT_EL2, 4, true, true },
	{ "tx2, el1, 1 thread", TX2, EH_BOOT_EL1, 1, false, true },
	{ "tx2, el1, 2 threads", TX2, EH_BOOT_EL1, 2, false, true },
	{ "tx2, el1, 4 threads", TX2, EH_BOOT_EL1, 4, false, true },
	{ "vulcan, el2, 1 thread", VULCAN, EH_BOOT_EL2, 1, false, true },
	{ "vulcan, el2, 2 threads", VULCAN, EH_BOOT_EL2, 2, true, true },
	{ "vulcan, el2, 4 threads", VULCAN, EH_BOOT_EL2, 4, true, true },
	{ "vulcan, el1, 1 thread", VULCAN, EH_BOOT_EL1, 1, false, true },
	{ "vulcan, el1, 2 threads", VULCAN, EH_BOOT_EL1, 2, false, true },
	{ "vulcan, el1, 4 threads", VULCAN, EH_BOOT_EL1, 4, false, true },
	{ "a72, el2, 1 thread", A72, EH_BOOT_EL2, 1, false, false },
	{ "a72, el2, 2 threads", A72, EH_BOOT_EL2, 2, false, false },
	{ "a72, el2, 4 threads", A72, EH_BOOT_EL2, 4, false, false },
	{ "a72, el1, 1 thread", A72, EH_BOOT_EL1, 1, false, false },
	{ "a72, el1, 2 threads", A72, EH_BOOT_EL1, 2, false, false },
	{ "a72, el1, 4 threads", A72, EH_BOOT_EL1, 4, false, false },
	{ "tx2, nvhe, 1 thread", TX2, EH_BOOT_NVHE, 1, false, true },
	{ "tx2, nvhe, 4 threads", TX2, EH_BOOT_NVHE, 4, true, true },
	{ "vulcan, nvhe, 2 threads", VULCAN, EH_BOOT_NVHE, 2, true, true },
	{ "tx2 r0p0, el2, 4 threads", TX2_R0, EH_BOOT_EL2, 4, true, true },
	{ "thunderx, el2, 4 threads", THUNDERX, EH_BOOT_EL2, 4, false, false },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_model model = { .name = r->name, .midr = r->midr, .threads_per_core = r->threads };
	const struct eh_target target = { .model = &model, .boot = r->boot };
	const struct eh_cap_rules *const *rules;

	/* 5.4 and 6.1 state the same rule. */
	for (rules = eh_cap_rules_all; *rules; rules++) {
		bool tvm = eh_cap_detected(*rules, &target, "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM");
		bool prfm = eh_cap_detected(*rules, &target, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM");

		if (tvm != r->tvm || prfm != r->prfm)
			fail_msg("%s (MIDR 0x%08x, boot %s, Linux %s): TVM %d PRFM %d, expected TVM %d PRFM %d",
				 r->name, r->midr, eh_boot_names[r->boot], (*rules)->kernel, tvm, prfm, r->tvm,
				 r->prfm);
	}
}

/* With CONFIG_CAVIUM_TX2_ERRATUM_219 off neither capability is built in, even where it would match. */
static void test_configured_out(void **state)
{
	static const char text[] = "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n";
	const struct eh_model model = { .name = "tx2", .midr = TX2, .threads_per_core = 4 };
	struct eh_target target = { .model = &model };
	struct eh_kconfig *cfg;

	(void)state;
	assert_int_equal(eh_kconfig_parse(&cfg, "test", text, strlen(text), NULL), 0);
	target.config = cfg;
	assert_int_equal(eh_cap_decide(eh_cap_rules_find("6.1"), &target, "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", NULL),
			 EH_CAP_CONFIGURED_OUT);
	assert_int_equal(eh_cap_decide(eh_cap_rules_find("6.1"), &target, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", NULL),
			 EH_CAP_CONFIGURED_OUT);
	eh_kconfig_free(cfg);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_configured_out);
	return EH_RUN_TESTS("tx2-219 detection", tests, n);
}

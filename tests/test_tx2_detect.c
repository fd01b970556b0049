/* The erratum 219 detection rules (93916beb7014) over a matrix of parts, hyp mode and threads per core. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/kconfig.h"
#include "eh/model.h"

#define TX2 EH_MIDR(0x43, 1, 0x0af, 1)       /* Cavium ThunderX2 r1p1 */
#define TX2_R0 EH_MIDR(0x43, 0, 0x0af, 0)    /* an earlier revision: the kernel matches all */
#define VULCAN EH_MIDR(0x42, 0, 0x516, 0)    /* Broadcom Vulcan */
#define A72 EH_MIDR(0x41, 0, 0xd08, 3)       /* Arm Cortex-A72 */
#define THUNDERX EH_MIDR(0x43, 1, 0x0a1, 0)  /* Cavium ThunderX: same implementer, other part */

struct row {
	const char *name;
	uint32_t midr;
	bool hyp;
	unsigned threads;
	bool tvm;   /* TX2 family, hyp mode available, and some CPU with MPIDR.Aff0 != 0 */
	bool prfm;  /* TX2 family, whatever else */
};

static const struct row rows[] = {
	{ "tx2, hyp, 1 thread", TX2, true, 1, false, true },
	{ "tx2, hyp, 2 threads", TX2, true, 2, true, true },
	{ "tx2, hyp, 4 threads", TX2, true, 4, true, true },
	{ "tx2, no hyp, 1 thread", TX2, false, 1, false, true },
	{ "tx2, no hyp, 2 threads", TX2, false, 2, false, true },
	{ "tx2, no hyp, 4 threads", TX2, false, 4, false, true },
	{ "vulcan, hyp, 1 thread", VULCAN, true, 1, false, true },
	{ "vulcan, hyp, 2 threads", VULCAN, true, 2, true, true },
	{ "vulcan, hyp, 4 threads", VULCAN, true, 4, true, true },
	{ "vulcan, no hyp, 1 thread", VULCAN, false, 1, false, true },
	{ "vulcan, no hyp, 2 threads", VULCAN, false, 2, false, true },
	{ "vulcan, no hyp, 4 threads", VULCAN, false, 4, false, true },
	{ "a72, hyp, 1 thread", A72, true, 1, false, false },
	{ "a72, hyp, 2 threads", A72, true, 2, false, false },
	{ "a72, hyp, 4 threads", A72, true, 4, false, false },
	{ "a72, no hyp, 1 thread", A72, false, 1, false, false },
	{ "a72, no hyp, 2 threads", A72, false, 2, false, false },
	{ "a72, no hyp, 4 threads", A72, false, 4, false, false },
	{ "tx2 r0p0, hyp, 4 threads", TX2_R0, true, 4, true, true },
	{ "thunderx, hyp, 4 threads", THUNDERX, true, 4, false, false },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_model model = {
		.name = r->name, .midr = r->midr, .threads_per_core = r->threads, .hyp_mode = r->hyp,
	};
	bool tvm = eh_model_has_cap(&model, "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", NULL);
	bool prfm = eh_model_has_cap(&model, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", NULL);

	if (tvm != r->tvm || prfm != r->prfm)
		fail_msg("%s (MIDR 0x%08x): TVM %d PRFM %d, expected TVM %d PRFM %d", r->name, r->midr, tvm,
			 prfm, r->tvm, r->prfm);
}

/* With CONFIG_CAVIUM_TX2_ERRATUM_219 off neither capability is built in, even where it would match. */
static void test_configured_out(void **state)
{
	static const char text[] = "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n";
	const struct eh_model model = { .name = "tx2", .midr = TX2, .threads_per_core = 4, .hyp_mode = true };
	struct eh_kconfig *cfg;

	(void)state;
	assert_int_equal(eh_kconfig_parse(&cfg, "test", text, strlen(text), NULL), 0);
	assert_false(eh_model_has_cap(&model, "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", cfg));
	assert_false(eh_model_has_cap(&model, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", cfg));
	eh_kconfig_free(cfg);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(rows) / sizeof(rows[0]) + 1];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tests[i] = (struct CMUnitTest){
			.name = rows[i].name, .test_func = run_row, .initial_state = (void *)&rows[i],
		};
	tests[i++] = (struct CMUnitTest)cmocka_unit_test(test_configured_out);
	return _cmocka_run_group_tests("tx2-219 detection", tests, i, NULL, NULL);
}

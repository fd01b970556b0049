/* Whether a .config leaves a model without an erratum's workaround, per model and for a set of models. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/audit_matrix.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "reports/rows.h"

/*
 * Linux 6.1.192's arch/arm64/kernel/cpu_errata.c builds arm64_repeat_tlbi_list[] under
 * CONFIG_ARM64_WORKAROUND_REPEAT_TLBI: its Falkor line under CONFIG_QCOM_FALKOR_ERRATUM_1009, its
 * Cortex-A76 r0p0-r3p0 line under CONFIG_ARM64_ERRATUM_1286807 and its every-A76 line under
 * CONFIG_ARM64_ERRATUM_4118414 (absent here, so off, as in a .config); erratum 219's capabilities are
 * under CONFIG_CAVIUM_TX2_ERRATUM_219.
 */
static const char config[] = "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI=y\n"
			     "CONFIG_QCOM_FALKOR_ERRATUM_1009=y\n"
			     "# CONFIG_ARM64_ERRATUM_1286807 is not set\n"
			     "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n";

struct row {
	const char *name;
	const char *erratum;
	const char *models[3];   /* NULL-terminated */
	bool each[2];            /* eh_audit_configured_out of each model */
	bool all;                /* eh_audit_configured_out_of the set */
	const char *symbol;      /* the set's *symbol */
};

static const struct row rows[] = {
	{ "repeat-tlbi: both lines of the A76 r2p0 are off", "repeat-tlbi", { "cortex-a76-r2p0" }, { true }, true, NULL },
	{ "repeat-tlbi: the one line of the A76 r4p0 is off", "repeat-tlbi", { "cortex-a76-r4p0" }, { true }, true,
	  NULL },
	{ "repeat-tlbi: Falkor's line is on", "repeat-tlbi", { "falkor-v1-r0p0" }, { false }, false, NULL },
	{ "repeat-tlbi: no line for the A72, which it does not affect", "repeat-tlbi", { "cortex-a72" }, { false },
	  false, NULL },
	{ "repeat-tlbi: the cells differ, so the erratum is not configured out", "repeat-tlbi",
	  { "cortex-a76-r2p0", "falkor-v1-r0p0" }, { true, false }, false, NULL },
	{ "repeat-tlbi: an unaffected model does not count", "repeat-tlbi", { "cortex-a76-r2p0", "cortex-a72" },
	  { true, false }, true, NULL },
	{ "tx2-219: its own symbol is off", "tx2-219", { "thunderx2", "cortex-a72" }, { true, true }, true,
	  "CONFIG_CAVIUM_TX2_ERRATUM_219" },
	{ "tx2-219: off even where no model is affected", "tx2-219", { "cortex-a72" }, { true }, true,
	  "CONFIG_CAVIUM_TX2_ERRATUM_219" },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_erratum *e = eh_erratum_find(r->erratum);
	const struct eh_model *models[3] = { NULL };
	struct eh_kconfig *cfg;
	const char *symbol = "unset";
	size_t n;

	assert_non_null(e);
	assert_int_equal(eh_kconfig_parse(&cfg, "test.config", config, strlen(config), NULL), 0);
	{
		const struct eh_audit_matrix_opts o = { .caps = eh_cpucaps_builtin("6.1"), .config = cfg,
							.boot = EH_BOOT_EL2 };

		for (n = 0; r->models[n]; n++) {
			bool out;

			models[n] = eh_model_find(r->models[n]);
			assert_non_null(models[n]);
			out = eh_audit_configured_out(&o, e, models[n], NULL);
			if (out != r->each[n])
				fail_msg("%s: %s on %s: configured out %d, expected %d", r->name, r->erratum, r->models[n],
					 out, r->each[n]);
		}
		if (eh_audit_configured_out_of(&o, e, models, n, &symbol) != r->all)
			fail_msg("%s: the set's answer is not %d", r->name, r->all);
		if (r->all && (r->symbol ? !symbol || strcmp(symbol, r->symbol) : symbol != NULL))
			fail_msg("%s: symbol %s, expected %s", r->name, symbol ? symbol : "NULL",
				 r->symbol ? r->symbol : "NULL");
	}
	eh_kconfig_free(cfg);
}

/* Without a .config every option is on: nothing is configured out. */
static void test_no_config(void **state)
{
	const struct eh_audit_matrix_opts o = { .caps = eh_cpucaps_builtin("6.1"), .boot = EH_BOOT_EL2 };
	const struct eh_model *a76 = eh_model_find("cortex-a76-r2p0");

	(void)state;
	assert_false(eh_audit_configured_out(&o, eh_erratum_find("repeat-tlbi"), a76, NULL));
	assert_false(eh_audit_configured_out_of(&o, eh_erratum_find("repeat-tlbi"), &a76, 1, NULL));
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_no_config);
	return EH_RUN_TESTS("configured out", tests, n);
}

/*
 * The errata modules against the kernel's own decision: an erratum whose workaround is a
 * capability affects exactly the models on which Linux 6.1 detects that capability (booted
 * at EL2, every option on), so a module's parts cannot drift from cpu_errata.c's, whose
 * detection tests/test_model_errata.c pins model by model; and every rule and behaviour says what
 * it does, for the errata table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "eh/cap.h"
#include "eh/erratum.h"
#include "eh/machine.h"
#include "eh/model.h"
#include "eh/rule.h"

static void run_erratum(void **state)
{
	const struct eh_erratum *e = *state;
	const struct eh_model *const *m;
	unsigned affected = 0;

	for (m = eh_models; *m; m++) {
		struct eh_target t = { .model = *m };
		bool detected = eh_cap_detected(eh_cap_rules_find("6.1"), &t, e->capability);

		if (eh_erratum_affects(e, *m) != detected)
			fail_msg("%s on %s (MIDR_EL1 0x%08x, REVIDR_EL1 0x%x): the module says %s, Linux 6.1 %s %s",
				 e->id, (*m)->name, (*m)->midr, (*m)->revidr,
				 eh_erratum_affects(e, *m) ? "affected" : "not affected",
				 detected ? "detects" : "does not detect", e->capability);
		affected += detected;
	}
	if (!affected)
		fail_msg("%s: no model has it, so no case can show it", e->id);
	if ((e->rule && !e->rule->summary) || (e->behaviour && !e->behaviour->summary))
		fail_msg("%s: its rule or behaviour does not say what it does (summary)", e->id);
	if (!e->also_affects != !e->also_affects_cpus)
		fail_msg("%s: also_affects and also_affects_cpus go together", e->id);
}

int main(void)
{
	struct CMUnitTest tests[64];
	const struct eh_erratum *const *e;
	size_t n = 0;

	for (e = eh_errata; *e && n < sizeof(tests) / sizeof(tests[0]); e++)
		if ((*e)->capability)
			tests[n++] = (struct CMUnitTest){
				.name = (*e)->id, .test_func = run_erratum, .initial_state = (void *)*e,
			};
	return _cmocka_run_group_tests("errata", tests, n, NULL, NULL);
}

/*
 * The errata modules against the kernel's own decision: an erratum whose workaround is a
 * capability affects exactly the models on which Linux 6.1 detects that capability (booted
 * at EL2, every option on), so a module's parts cannot drift from cpu_errata.c's, whose
 * detection tests/test_model_errata.c pins model by model; and every rule and behaviour says what
 * it does, for the errata table; and an erratum's kernel versions (.since) are those whose built-in
 * numbering has its capability.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/machine.h"
#include "eh/model.h"
#include "eh/rule.h"
#include "reports/rows.h"

static void run_erratum(void **state)
{
	const struct eh_erratum *e = *state;
	/* 6.1 decides, or the first version with the workaround when that is later. */
	const char *kernel = eh_erratum_in_kernel(e, "6.1") ? "6.1" : e->since[0].kernel;
	const char *const *v;
	const struct eh_model *const *m;
	unsigned affected = 0, n;

	for (v = eh_cpucaps_builtin_versions; *v; v++) {
		const char *name = eh_erratum_capability(e, *v);
		bool numbered = !eh_cpucaps_number(eh_cpucaps_builtin(*v), name ? name : e->capability, &n);

		if (!!name != numbered)
			fail_msg("%s: Linux %s %s %s, but the module says it %s", e->id, *v,
				 numbered ? "numbers" : "does not number", name ? name : e->capability,
				 name ? "has it" : "came later");
	}
	for (m = eh_models; *m; m++) {
		struct eh_target t = { .model = *m };
		bool detected = eh_cap_detected(eh_cap_rules_find(kernel), &t, eh_erratum_capability(e, kernel));

		if (eh_erratum_affects(e, *m) != detected)
			fail_msg("%s on %s (MIDR_EL1 0x%08x, REVIDR_EL1 0x%x): the module says %s, Linux %s %s %s",
				 e->id, (*m)->name, (*m)->midr, (*m)->revidr,
				 eh_erratum_affects(e, *m) ? "affected" : "not affected", kernel,
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
	const struct eh_erratum *const *e;
	size_t n = 0, ncap = 0;

	for (e = eh_errata; *e; e++)
		ncap += (*e)->capability != NULL;
	{
		/* Sized at run time by the registry, so that every slot is filled. */
		struct CMUnitTest tests[ncap];

		for (e = eh_errata; *e; e++)
			if ((*e)->capability)
				EH_ADD(tests, n, (*e)->id, run_erratum, *e);
		return EH_RUN_TESTS("errata", tests, n);
	}
}

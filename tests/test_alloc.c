/* Allocation failure at every allocation of the constructors: each unwinds and says out of memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../harness/src/util/alloc_fail.h"
#include "eh/case.h"
#include "eh/image.h"
#include "eh/machine.h"

/* Run fn with the n-th allocation failing, for n = 1, 2, ... until it succeeds untouched. */
static void sweep(const char *name, int (*fn)(void))
{
	unsigned long n;

	for (n = 1; n < 100000; n++) {
		int rc;

		eh_alloc_fail_at(n);
		rc = fn();
		if (eh_alloc_count() < n) {  /* finished before the failure point: all paths covered */
			eh_alloc_fail_at(0);
			if (rc)
				fail_msg("%s: fails (%d) even with no allocation failing", name, rc);
			return;
		}
		if (rc != EH_ENOMEM)
			fail_msg("%s: allocation %lu failed but the result was %d", name, n, rc);
	}
	eh_alloc_fail_at(0);
	fail_msg("%s: did not finish", name);
}

static int open_elf(void)
{
	struct eh_elf *elf;
	int rc = eh_elf_open(&elf, EH_CASES_DIR "/tx2-219-prfm.elf", NULL);

	eh_elf_free(elf);
	return rc;
}

static const struct eh_case *swept;

/*
 * The case's first expectation row: its own run function or the default one, end to end.
 * Out of memory before the run starts is an error; once it runs, the outcome is incomplete
 * and says so. Either way it is EH_ENOMEM here; a verdict reached without the memory the
 * run needed would be a lie, and is what the sweep looks for.
 */
static int whole_case_run(void)
{
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	const struct eh_model *const *m;
	struct eh_case_run *r;
	enum eh_verdict expected;
	int rc;

	for (m = eh_models; eh_case_expected(swept, swept->expect[0].variant, *m, &expected); m++)
		;
	rc = eh_case_run(&r, swept, eh_case_variant(swept, swept->expect[0].variant), *m, &opts, NULL);

	if (!rc && r->outcome.verdict == EH_VERDICT_INCOMPLETE)
		rc = strstr(r->outcome.evidence, "out of memory") ? EH_ENOMEM : EH_EINCOMPLETE;
	eh_case_run_free(r);
	return rc;
}

static void test_elf_open(void **state)
{
	(void)state;
	sweep("eh_elf_open", open_elf);
}

/* ELF, image, decoder, machine, the case's own run: every step unwinds, for every case. */
static void test_case_run(void **state)
{
	const struct eh_case *const *c;

	(void)state;
	for (c = eh_cases; *c; c++) {
		swept = *c;
		sweep((*c)->id, whole_case_run);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_open),
		cmocka_unit_test(test_case_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

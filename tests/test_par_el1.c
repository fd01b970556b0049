/* par-el1's reference rule for spurious EL1 translation faults, against aborts and PAR_EL1 values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../cases/par-el1/par_el1.h"
#include "eh/case.h"
#include "reports/rows.h"

struct row {
	const char *name;
	uint64_t esr;
	uint64_t par;
	bool spurious;
};

/* ESR: EC 0x25 (Data Abort, same EL) << 26 | IL << 25 | DFSC. */
#define ESR_TRANSLATION_L3 0x96000007ull
#define ESR_TRANSLATION_L0 0x96000004ull
#define ESR_PERMISSION_L3 0x9600000full
/* EC 0x24: Data Abort from EL0. */
#define ESR_EL0_TRANSLATION_L3 0x92000007ull

static const struct row rows[] = {
	/* F = 0: PA 0x80345000 | RES1 | SH inner | ATTR 0xff. */
	{ "walk succeeds: spurious", ESR_TRANSLATION_L3, 0xff00000080345980ull, true },
	{ "walk succeeds, level-0 abort: spurious", ESR_TRANSLATION_L0, 0xff00000080345980ull, true },
	/* F = 1, FST = 0x06: 0x800 | 0x06 << 1 | 1. */
	{ "translation fault L2: real", ESR_TRANSLATION_L3, 0x80dull, false },
	{ "translation fault L3: real", ESR_TRANSLATION_L3, 0x80full, false },
	{ "translation fault L0: real", ESR_TRANSLATION_L3, 0x809ull, false },
	/* Another type of fault from AT: the translation fault was spurious. */
	{ "access flag fault L3: spurious", ESR_TRANSLATION_L3, 0x817ull, true },
	{ "permission fault L3: spurious", ESR_TRANSLATION_L3, 0x81full, true },
	/* Only EL1 translation faults are candidates at all. */
	{ "permission abort: not a candidate", ESR_PERMISSION_L3, 0xff00000080345980ull, false },
	{ "EL0 abort: not a candidate", ESR_EL0_TRANSLATION_L3, 0xff00000080345980ull, false },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	bool got = eh_par_el1_spurious(r->esr, r->par);

	if (got != r->spurious)
		fail_msg("%s: ESR 0x%08llx PAR 0x%016llx: %s, expected %s", r->name, (unsigned long long)r->esr,
			 (unsigned long long)r->par, got ? "spurious" : "real", r->spurious ? "spurious" : "real");
}

/*
 * The probes hand the check EH_ESR_DABT_CUR aborts: the engine's own Data Abort at EL1 (the
 * spurious one erratum 219 injects, taken by thread 0 with seed 6) must be the same ESR, and
 * one the check treats as a candidate.
 */
static void test_engine_abort_is_a_candidate(void **state)
{
	const struct eh_case *c = eh_case_find("tx2-219-prfm");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 6 };
	const struct eh_trace *tr;
	struct eh_case_run *r;
	size_t i;

	(void)state;
	assert_int_equal(eh_case_run(&r, c, eh_case_variant(c, "before"), eh_model_find("thunderx2"), &opts,
				     NULL), 0);
	tr = eh_machine_trace(r->machine);
	for (i = 0; i < tr->n && tr->events[i].kind != EH_EV_EXCEPTION; i++)
		;
	if (i == tr->n)
		fail_msg("seed 6: thread 0 took no exception: %s", r->outcome.evidence);
	assert_int_equal(tr->events[i].esr, EH_ESR_DABT_CUR(0x07));
	assert_true(eh_par_el1_spurious(tr->events[i].esr, 0xff00000080345980ull));
	eh_case_run_free(r);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_engine_abort_is_a_candidate);
	return EH_RUN_TESTS("par-el1", tests, n);
}

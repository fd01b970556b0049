/* par-el1's reference rule for spurious EL1 translation faults, against aborts and PAR_EL1 values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../cases/par-el1/par_el1.h"

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

static void test_esr_macro(void **state)
{
	(void)state;
	assert_int_equal(EH_ESR_DABT_CUR(0x07), ESR_TRANSLATION_L3);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(rows) / sizeof(rows[0]) + 1];
	size_t i, n = 0;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tests[n++] = (struct CMUnitTest){ .name = rows[i].name, .test_func = run_row,
						  .initial_state = (void *)&rows[i] };
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_esr_macro);
	return _cmocka_run_group_tests("par-el1", tests, n, NULL, NULL);
}

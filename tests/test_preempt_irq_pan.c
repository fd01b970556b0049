/* preempt-irq-pan's reference computations: the user page's permissions under PAN, and the verdict rule, worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eh/case.h"
#include "eh/walk.h"
#include "../cases/preempt-irq-pan/preempt_irq_pan.h"
#include "reports/rows.h"

/*
 * The snippet's user mapping (entry.S), by hand: 0x400000 -> L0[0] -> L1[0] ->
 * L2[2] -> L3[0], the page descriptor PAGE_USER_RW = UXN | PXN | nG | AF | SH
 * inner | AP[2:1] = 01 | AttrIndx 4 | page, at PA 0x40020000.
 */
#define USER_VA 0x400000ull
static const uint64_t tables[4][512] = {
	[0] = { [0] = 0x40001003ull },
	[1] = { [0] = 0x40002003ull },
	[2] = { [2] = 0x40003003ull },
	[3] = { [0] = 0x0060000040020f53ull },
};

static bool read_tables(void *ctx, uint64_t pa, uint64_t *desc)
{
	(void)ctx;
	if (pa < 0x40000000ull || pa >= 0x40000000ull + sizeof(tables))
		return false;
	*desc = tables[(pa - 0x40000000ull) / 4096][(pa % 4096) / 8];
	return true;
}

struct access_row {
	const char *name;
	struct eh_walk_access acc;
	bool fault;
	unsigned fsc;
};

static const struct access_row access_rows[] = {
	{ "EL1 read, PAN clear: allowed", { .el = 1 }, false, 0 },
	/* PAN: an EL1 data access to a page EL0 can access; permission fault at level 3 = 0x0f. */
	{ "EL1 read, PAN set: permission fault", { .el = 1, .pan = true }, true, 0x0f },
	{ "EL1 write, PAN set: permission fault", { .el = 1, .write = true, .pan = true }, true, 0x0f },
	{ "EL0 read: allowed", { .el = 0 }, false, 0 },
};

static void run_access_row(void **state)
{
	const struct access_row *r = *state;
	/* T0SZ 16, TG0 4K, T1SZ 16 with EPD1, TG1 4K (the snippet's TCR_EL1). */
	struct eh_walk_regs regs = { .ttbr0 = 0x40000000ull, .tcr = 0x0000000580900010ull,
				     .mair = 0x000000bbff440c0400ull };
	struct eh_walk w;

	assert_int_equal(eh_walk_translate(&w, &regs, USER_VA, &r->acc, read_tables, NULL, NULL), 0);
	if (w.fault != r->fault || (r->fault && w.fsc != r->fsc) || (!r->fault && w.pa != 0x40020000ull))
		fail_msg("%s: fault %d fsc 0x%02x pa 0x%llx", r->name, w.fault, w.fsc, (unsigned long long)w.pa);
}

struct verdict_row {
	const char *name;
	bool faulted, must_fault;
	unsigned early;
	enum eh_verdict verdict;
};

static const struct verdict_row verdict_rows[] = {
	{ "stale PAN: read allowed where it must fault", false, true, 1, EH_VERDICT_BUG },
	{ "PAN CPU, not preempted early, read faults", true, true, 0, EH_VERDICT_FIXED },
	{ "no PAN, preempted early, read allowed", false, false, 1, EH_VERDICT_BENIGN },
	{ "no PAN, not preempted, read allowed", false, false, 0, EH_VERDICT_FIXED },
	{ "read faults where it must not", true, false, 0, EH_VERDICT_BUG },
};

static void run_verdict_row(void **state)
{
	const struct verdict_row *r = *state;
	enum eh_verdict v = eh_preempt_pan_verdict(r->faulted, r->must_fault, r->early);

	if (v != r->verdict)
		fail_msg("%s: %s, expected %s", r->name, eh_verdict_name(v), eh_verdict_name(r->verdict));
}

/*
 * On a PAN CPU the worker's read of the user page runs with the PSTATE.PAN it resumed with:
 * before the fix the one saved before PAN was enabled (clear: the read is allowed), after it
 * the one the enable step left (set: a permission fault at level 3).
 */
struct pan_row {
	const char *name, *variant;
	const char *says;
};

static const struct pan_row pan_rows[] = {
	{ "before: resumed with PAN clear, the read is allowed", "before",
	  "with PSTATE.PAN=0: allowed, read 0x" },
	{ "after: PAN set as enabled, the read faults", "after",
	  "with PSTATE.PAN=1: permission fault, level 3" },
};

static void run_pan_row(void **state)
{
	const struct pan_row *row = *state;
	const struct eh_case *c = eh_case_find("preempt-irq-pan");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_case_run *r;

	assert_int_equal(eh_case_run(&r, c, eh_case_variant(c, row->variant), eh_model_find("thunderx2"),
				     &opts, NULL), 0);
	if (!strstr(r->outcome.evidence, row->says))
		fail_msg("%s: the evidence lacks '%s': %s", row->name, row->says, r->outcome.evidence);
	eh_case_run_free(r);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(access_rows) + EH_COUNT(verdict_rows) + EH_COUNT(pan_rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, access_rows, run_access_row);
	EH_ADD_ROWS(tests, n, verdict_rows, run_verdict_row);
	EH_ADD_ROWS(tests, n, pan_rows, run_pan_row);
	return EH_RUN_TESTS("preempt-irq-pan", tests, n);
}

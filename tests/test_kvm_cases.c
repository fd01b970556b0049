/* The matrices of the KVM cases of d3ec3a08fa70 (tx2-219-tvm, kvm-hcr-vse): verdicts and who handled each trap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "eh/case.h"
#include "eh/run.h"
#include "reports/rows.h"

struct row {
	const char *name;
	const char *c, *variant, *model;
	unsigned traps, fast, slow;   /* guest accesses trapped to EL2, and where they were handled */
	unsigned vserrors;
	unsigned injected;            /* spurious aborts (erratum 219) */
};

/*
 * Worked from the kernel: the host sets TVM only where the capability is detected
 * (TX2 family with SMT and hyp mode: thunderx2, vulcan), or where the vcpu asked for
 * it; the fast path declines when the vcpu's copy has TVM; the old VSE hand-back
 * copies the live TVM into that copy. A guest write that does not trap opens a
 * window around its load, which draws an abort only where erratum 219 shows.
 */
static const struct row rows[] = {
	{ "tvm before a72", "tx2-219-tvm", "before", "cortex-a72", 0, 0, 0, 0, 0 },
	{ "tvm before tx2", "tx2-219-tvm", "before", "thunderx2", 0, 0, 0, 0, 1 },
	{ "tvm before tx2-nosmt", "tx2-219-tvm", "before", "thunderx2-nosmt", 0, 0, 0, 0, 0 },
	{ "tvm before vulcan", "tx2-219-tvm", "before", "vulcan", 0, 0, 0, 0, 1 },
	{ "tvm after a72", "tx2-219-tvm", "after", "cortex-a72", 0, 0, 0, 0, 0 },
	{ "tvm after tx2", "tx2-219-tvm", "after", "thunderx2", 1, 1, 0, 0, 0 },
	{ "tvm after tx2-nosmt", "tx2-219-tvm", "after", "thunderx2-nosmt", 0, 0, 0, 0, 0 },
	{ "tvm after vulcan", "tx2-219-tvm", "after", "vulcan", 1, 1, 0, 0, 0 },
	{ "tvm vcpu-tvm a72", "tx2-219-tvm", "vcpu-tvm", "cortex-a72", 1, 0, 1, 0, 0 },
	{ "tvm vcpu-tvm tx2", "tx2-219-tvm", "vcpu-tvm", "thunderx2", 1, 0, 1, 0, 0 },
	{ "tvm vcpu-tvm tx2-nosmt", "tx2-219-tvm", "vcpu-tvm", "thunderx2-nosmt", 1, 0, 1, 0, 0 },
	{ "tvm vcpu-tvm vulcan", "tx2-219-tvm", "vcpu-tvm", "vulcan", 1, 0, 1, 0, 0 },
	{ "vse before a72", "kvm-hcr-vse", "before", "cortex-a72", 0, 0, 0, 1, 0 },
	{ "vse before tx2", "kvm-hcr-vse", "before", "thunderx2", 1, 0, 1, 1, 0 },
	{ "vse before tx2-nosmt", "kvm-hcr-vse", "before", "thunderx2-nosmt", 0, 0, 0, 1, 0 },
	{ "vse before vulcan", "kvm-hcr-vse", "before", "vulcan", 1, 0, 1, 1, 0 },
	{ "vse after a72", "kvm-hcr-vse", "after", "cortex-a72", 0, 0, 0, 1, 0 },
	{ "vse after tx2", "kvm-hcr-vse", "after", "thunderx2", 1, 1, 0, 1, 0 },
	{ "vse after tx2-nosmt", "kvm-hcr-vse", "after", "thunderx2-nosmt", 0, 0, 0, 1, 0 },
	{ "vse after vulcan", "kvm-hcr-vse", "after", "vulcan", 1, 1, 0, 1, 0 },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_case *c = eh_case_find(r->c);
	const struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_error err = { 0 };
	struct eh_case_run *run;
	struct eh_window_summary w;
	struct eh_hyp_summary h;

	assert_non_null(c);
	if (eh_case_run(&run, c, eh_case_variant(c, r->variant), eh_model_find(r->model), &opts, &err))
		fail_msg("%s: %s", r->name, err.msg);
	eh_trace_summarise(eh_machine_trace(run->machine), &w);
	eh_trace_summarise_hyp(eh_machine_trace(run->machine), &h);
	if (!run->pass || h.traps != r->traps || h.fast != r->fast || h.slow != r->slow ||
	    h.vserrors != r->vserrors || w.injected != r->injected)
		fail_msg("%s: verdict %s (expected %s), traps %u fast %u slow %u vSErrors %u injected %u; "
			 "expected %u %u %u %u %u; %s", r->name, eh_verdict_name(run->outcome.verdict),
			 eh_verdict_name(run->expected), h.traps, h.fast, h.slow, h.vserrors, w.injected,
			 r->traps, r->fast, r->slow, r->vserrors, r->injected, run->outcome.evidence);
	eh_case_run_free(run);
}

/* Every (variant, model) pair the two cases declare has a row above, and no more. */
static void test_rows_cover_the_tables(void **state)
{
	struct eh_selection sel = { 0 };
	struct eh_scenario *s;
	size_t n;

	(void)state;
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, "tx2-219-tvm", NULL), 0);
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, "kvm-hcr-vse", NULL), 0);
	assert_int_equal(eh_matrix_select(&s, &n, &sel, NULL), 0);
	eh_free(s);
	assert_int_equal(n, sizeof(rows) / sizeof(rows[0]));
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_rows_cover_the_tables);
	return EH_RUN_TESTS("kvm cases", tests, n);
}

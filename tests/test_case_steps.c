/* A case's steps and ends: symbols run one after the other before the entry, and a run that does not end as declared is incomplete. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/case.h"
#include "reports/rows.h"

static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)m;
	(void)v;
	out->verdict = EH_VERDICT_FIXED;
}

static const char *const returns_then_returns[] = { "read_ids", "el2_roundtrip", NULL };
static const char *const stops_early[] = { "read_ids", "svc_no_vectors", "el2_roundtrip", NULL };

static const struct eh_steps steps[] = {
	{ "in-order", returns_then_returns },
	{ "stops", stops_early },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "in-order", "two steps that return, then the entry", "read_ids" },
	{ "stops", "the second step stops with an exception", "read_ids" },
	{ "none", "no steps: the entry alone", "read_ids" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "in-order", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "stops", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "none", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_case stepped = {
	.id = "stepped", .object = "engine-tests.elf", .variants = variants, .expect = expect,
	.steps = steps, .ends = EH_END_RETURN, .judge = judge,
};

/* A case whose entry ends at a symbol it reaches, not by returning. */
static const struct eh_variant ending_variants[] = {
	{ "reaches", "falls through into reached_end", "to_the_end" },
	{ "returns", "returns without passing reached_end: not its declared end", "read_ids" },
	{ "spins", "never gets there", "spin" },
	{ 0 },
};

static const struct eh_expect ending_expect[] = {
	{ "reaches", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "returns", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "spins", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_case ending = {
	.id = "ending", .object = "engine-tests.elf", .variants = ending_variants, .expect = ending_expect,
	.ends = EH_END_SYMBOL, .end_symbol = "reached_end", .judge = judge,
};

struct row {
	const struct eh_case *c;
	const char *variant;
	const char *const started[4];  /* the symbols started, in order */
	enum eh_verdict outcome;
	const char *why;               /* incomplete: what the evidence says */
};

static const struct row rows[] = {
	{ &stepped, "in-order", { "read_ids", "el2_roundtrip", "read_ids" }, EH_VERDICT_FIXED },
	{ &stepped, "stops", { "read_ids", "svc_no_vectors" }, EH_VERDICT_INCOMPLETE,
	  "set-up step: svc_no_vectors did not complete: exception not taken to a vector at svc_no_vectors+0x4" },
	{ &stepped, "none", { "read_ids" }, EH_VERDICT_FIXED },
	{ &ending, "reaches", { "to_the_end" }, EH_VERDICT_FIXED },
	{ &ending, "returns", { "read_ids" }, EH_VERDICT_INCOMPLETE,
	  "read_ids did not complete: it returned to the harness" },
	{ &ending, "spins", { "spin" }, EH_VERDICT_INCOMPLETE,
	  "spin did not complete: instruction budget exhausted at spin+0x0" },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_run_opts opts = { .cases_dir = EH_TEST_ELF_DIR, .seed = 1 };
	struct eh_error err = { 0 };
	struct eh_case_run *run;
	const struct eh_trace *tr;
	unsigned n = 0;
	size_t i;

	if (eh_case_run(&run, r->c, eh_case_variant(r->c, r->variant), eh_model_find("cortex-a72"), &opts, &err))
		fail_msg("%s: %s", r->variant, err.msg);
	if (run->outcome.verdict != r->outcome || (r->why && !strstr(run->outcome.evidence, r->why)) ||
	    run->pass != (r->outcome == EH_VERDICT_FIXED))
		fail_msg("%s: %s (pass %d): %s", r->variant, eh_verdict_name(run->outcome.verdict), run->pass,
			 run->outcome.evidence);
	tr = eh_machine_trace(run->machine);
	for (i = 0; i < tr->n; i++) {
		uint64_t want = 0;

		if (tr->events[i].kind != EH_EV_START)
			continue;
		if (n >= 4 || !r->started[n] || eh_elf_resolve(run->elf, r->started[n], &want, NULL) ||
		    tr->events[i].pc != want)
			fail_msg("%s: start number %u at 0x%llx is not %s", r->variant, n,
				 (unsigned long long)tr->events[i].pc,
				 n < 4 && r->started[n] ? r->started[n] : "expected");
		n++;
	}
	if (n < 4 && r->started[n])
		fail_msg("%s: %s never started", r->variant, r->started[n]);
	eh_case_run_free(run);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows)];
	size_t n = 0;

	EH_ADD_ROWS_BY(tests, n, rows, variant, run_row);
	return EH_RUN_TESTS("case steps", tests, n);
}

/* The case registry checked against itself, and every (case, variant, model) row run to its verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/case.h"

/* Ids unique, kebab-case; every case has `before` and `after`; rows name real variants and models. */
static void test_registry_consistent(void **state)
{
	const struct eh_case *const *c, *const *d;

	(void)state;
	for (c = eh_cases; *c; c++) {
		const struct eh_expect *e, *f;
		const char *p;

		for (d = c + 1; *d; d++)
			if (!strcmp((*c)->id, (*d)->id))
				fail_msg("case id %s appears twice", (*c)->id);
		for (p = (*c)->id; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
				fail_msg("case id %s is not kebab-case", (*c)->id);
		if (!(*c)->commits[0].hash || strlen((*c)->commits[0].hash) != 12)
			fail_msg("%s: needs the 12-digit short hash of the commit it verifies", (*c)->id);
		if (!eh_case_variant(*c, "before") || !eh_case_variant(*c, "after"))
			fail_msg("%s: needs a before and an after variant", (*c)->id);
		if (!(*c)->judge && !(*c)->run)
			fail_msg("%s: has neither a judge nor a run function", (*c)->id);
		for (e = (*c)->expect; e->variant; e++) {
			if (!eh_case_variant(*c, e->variant))
				fail_msg("%s: expectation for unknown variant %s", (*c)->id, e->variant);
			if (!eh_model_find(e->model))
				fail_msg("%s: expectation for unknown model %s", (*c)->id, e->model);
			for (f = e + 1; f->variant; f++)
				if (!strcmp(e->variant, f->variant) && !strcmp(e->model, f->model))
					fail_msg("%s: two expectations for %s on %s", (*c)->id, e->variant, e->model);
		}
	}
}

/*
 * A case verifies its fix only if `before` shows the bug on some model where `after`
 * does not: a `before` that cannot fail would not catch a regression.
 */
static void test_before_shows_what_after_fixes(void **state)
{
	const struct eh_case *const *c;

	(void)state;
	for (c = eh_cases; *c; c++) {
		const struct eh_expect *e;
		int shown = 0;

		for (e = (*c)->expect; e->variant; e++) {
			enum eh_verdict after;

			if (!strcmp(e->variant, "before") && e->verdict == EH_VERDICT_BUG &&
			    !eh_case_expected(*c, "after", e->model, &after) && after != EH_VERDICT_BUG)
				shown = 1;
			if (!strcmp(e->variant, "after") && e->verdict == EH_VERDICT_BUG)
				fail_msg("%s: after is expected to show the bug on %s", (*c)->id, e->model);
		}
		if (!shown)
			fail_msg("%s: no model where before shows the bug and after does not", (*c)->id);
	}
}

/* Every expectation row, run for real: the verdict the case table states must come out. */
static void test_every_row(void **state)
{
	const struct eh_case *const *c;
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	unsigned rows = 0;

	(void)state;
	for (c = eh_cases; *c; c++) {
		const struct eh_expect *e;

		for (e = (*c)->expect; e->variant; e++) {
			struct eh_case_run *r;
			struct eh_error err = { 0 };

			if (eh_case_run(&r, *c, eh_case_variant(*c, e->variant), eh_model_find(e->model),
					&opts, &err))
				fail_msg("%s/%s on %s: %s", (*c)->id, e->variant, e->model, err.msg);
			if (r->outcome.verdict != e->verdict)
				fail_msg("%s/%s on %s: %s, expected %s: %s", (*c)->id, e->variant, e->model,
					 eh_verdict_name(r->outcome.verdict), eh_verdict_name(e->verdict),
					 r->outcome.evidence);
			eh_case_run_free(r);
			rows++;
		}
	}
	assert_true(rows >= 12);
}

/* 9405447ef79b's scenario in words: what the report must name, not only the verdict. */
struct evidence_row {
	const char *variant, *model;
	const char *must[3];
	const char *must_not;
};

static const struct evidence_row evidence_rows[] = {
	{ "before", "thunderx2", { "msr ttbr1_el1", "ldr x30", "prfm plil1strm" }, NULL },
	{ "after", "thunderx2", { "msr ttbr1_el1", "ldr x30", "spurious Data Abort" }, "prfm" },
	{ "after-kaslr", "thunderx2", { "closed with nothing inside" }, "Data Abort" },
	{ "before", "cortex-a72", { "prfm plil1strm", "does not expose erratum 219" }, "Data Abort" },
};

static void test_tx2_219_prfm_evidence(void **state)
{
	const struct eh_case *c = eh_case_find("tx2-219-prfm");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	size_t i, j;

	(void)state;
	assert_non_null(c);
	for (i = 0; i < sizeof(evidence_rows) / sizeof(evidence_rows[0]); i++) {
		const struct evidence_row *r = &evidence_rows[i];
		struct eh_case_run *run;

		assert_int_equal(eh_case_run(&run, c, eh_case_variant(c, r->variant), eh_model_find(r->model),
					     &opts, NULL), 0);
		for (j = 0; j < 3 && r->must[j]; j++)
			if (!strstr(run->outcome.evidence, r->must[j]))
				fail_msg("%s on %s: evidence lacks '%s': %s", r->variant, r->model, r->must[j],
					 run->outcome.evidence);
		if (r->must_not && strstr(run->outcome.evidence, r->must_not))
			fail_msg("%s on %s: evidence has '%s': %s", r->variant, r->model, r->must_not,
				 run->outcome.evidence);
		eh_case_run_free(run);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_consistent),
		cmocka_unit_test(test_before_shows_what_after_fixes),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_tx2_219_prfm_evidence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

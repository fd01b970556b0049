/* The case registry checked against itself, and every (case, variant, model) row run to its verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <unistd.h>

#include "eh/cap.h"
#include "eh/case.h"
#include "eh/cpucaps.h"
#include "eh/run.h"

/* Ids unique, kebab-case; every case has `before` and `after`; rows name real variants and models. */
static void test_registry_consistent(void **state)
{
	const struct eh_case *const *c, *const *d;

	(void)state;
	for (c = eh_cases; *c; c++) {
		const struct eh_expect *e;
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
		if (!eh_cpucaps_builtin(eh_case_kernel(*c)) || !eh_cap_rules_find(eh_case_kernel(*c)))
			fail_msg("%s: the harness has no numbering or rules of kernel %s", (*c)->id, eh_case_kernel(*c));
		if (!(*c)->judge && !(*c)->run)
			fail_msg("%s: has neither a judge nor a run function", (*c)->id);
		if (!(*c)->ends || (*c)->ends & ~(unsigned)(EH_END_RETURN | EH_END_SYMBOL | EH_END_FAULT))
			fail_msg("%s: declares no way (or an unknown way) its entry ends", (*c)->id);
		if (!((*c)->ends & EH_END_SYMBOL) != !(*c)->end_symbol)
			fail_msg("%s: an end symbol goes with EH_END_SYMBOL, and only with it", (*c)->id);
		for (e = (*c)->expect; e->variant; e++) {
			const struct eh_model *const *m;
			char who[160];
			bool applies = false;

			eh_models_describe(&e->who, who, sizeof(who));
			if (e->verdict >= EH_VERDICT_INCOMPLETE)
				fail_msg("%s: %s on %s expects %s, which is not a verdict", (*c)->id, e->variant, who,
					 eh_verdict_name(e->verdict));
			if (!eh_case_variant(*c, e->variant))
				fail_msg("%s: expectation for unknown variant %s", (*c)->id, e->variant);
			if (e->who.model && !eh_model_find(e->who.model))
				fail_msg("%s: expectation for unknown model %s", (*c)->id, e->who.model);
			if (e->who.capability &&
			    eh_cap_decide(eh_cap_rules_find(eh_case_kernel(*c)), &(struct eh_target){ .model = eh_models[0] },
					  e->who.capability, NULL) == EH_CAP_UNKNOWN)
				fail_msg("%s: expectation for unknown capability %s", (*c)->id, e->who.capability);
			/* A row no model takes its verdict from (an earlier row took them all) is dead. */
			for (m = eh_models; *m && !applies; m++) {
				const struct eh_expect *first;

				for (first = (*c)->expect; first < e; first++)
					if (!strcmp(first->variant, e->variant) && eh_models_match(*c, &first->who, *m))
						break;
				applies = first == e && eh_models_match(*c, &e->who, *m);
			}
			if (!applies)
				fail_msg("%s: the row for %s on %s applies to no model", (*c)->id, e->variant, who);
		}
	}
}

/* The generated case registry names every folder of cases/ that holds a case.c, and nothing else. */
static void test_registry_names_every_folder(void **state)
{
	char folders[] = EH_CASE_FOLDERS, *id, *save = NULL;
	const struct eh_case *const *c;
	size_t n = 0, registered = 0;

	(void)state;
	for (id = strtok_r(folders, " ", &save); id; id = strtok_r(NULL, " ", &save), n++)
		if (!eh_case_find(id))
			fail_msg("cases/%s/case.c is built but the case registry does not list it", id);
	for (c = eh_cases; *c; c++)
		registered++;
	assert_int_equal(registered, n);
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
		const struct eh_model *const *m;
		int shown = 0;

		for (m = eh_models; *m; m++) {
			enum eh_verdict before, after;

			if (!eh_case_expected(*c, "after", *m, &after) && after == EH_VERDICT_BUG)
				fail_msg("%s: after is expected to show the bug on %s", (*c)->id, (*m)->name);
			if (!eh_case_expected(*c, "before", *m, &before) && before == EH_VERDICT_BUG &&
			    !eh_case_expected(*c, "after", *m, &after))
				shown = 1;
		}
		if (!shown)
			fail_msg("%s: no model where before shows the bug and after does not", (*c)->id);
	}
}

/*
 * Every case proves its judge can see its bug: mutants with unique kebab-case names, an
 * EH_MUTANT_ define whose snippet the build made (for the object of every variant), some that
 * must flip rows, and a neutral one (an extra NOP) that must not.
 */
static void test_mutants_declared(void **state)
{
	const struct eh_case *const *c;

	(void)state;
	for (c = eh_cases; *c; c++) {
		const struct eh_mutant *mu, *other;
		const struct eh_variant *v;
		unsigned neutral = 0, flipping = 0;

		for (mu = (*c)->mutants; mu && mu->name; mu++) {
			struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .mutant = mu };
			char path[4096];
			const char *p;

			for (other = mu + 1; other->name; other++)
				if (!strcmp(mu->name, other->name))
					fail_msg("%s: mutant %s appears twice", (*c)->id, mu->name);
			for (p = mu->name; *p; p++)
				if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
					fail_msg("%s: mutant %s is not kebab-case", (*c)->id, mu->name);
			if (strncmp(mu->define, "EH_MUTANT_", 10) || !mu->why || !*mu->why)
				fail_msg("%s: mutant %s needs an EH_MUTANT_ define and a reason", (*c)->id, mu->name);
			for (v = (*c)->variants; v->name; v++)
				if (access(eh_case_object_path(*c, v, &opts, path, sizeof(path)), R_OK))
					fail_msg("%s: mutant %s: no snippet %s for %s (no source tests %s?)", (*c)->id,
						 mu->name, path, v->name, mu->define);
			if (mu->flips && mu->flips->variant)
				flipping++;
			else
				neutral++;
		}
		if (!flipping || !neutral)
			fail_msg("%s: %u mutants its judge must catch and %u neutral ones; it needs both",
				 (*c)->id, flipping, neutral);
	}
}

/* Every scenario of the matrix, run for real: the verdict the case table states must come out. */
static void test_every_row(void **state)
{
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_selection all = { 0 };
	struct eh_scenario *s;
	size_t n, i;

	(void)state;
	assert_int_equal(eh_matrix_select(&s, &n, &all, NULL), 0);
	for (i = 0; i < n; i++) {
		struct eh_case_run *r;
		struct eh_error err = { 0 };

		if (eh_case_run(&r, s[i].c, s[i].v, s[i].model, &opts, &err))
			fail_msg("%s/%s on %s: %s", s[i].c->id, s[i].v->name, s[i].model->name, err.msg);
		if (r->outcome.verdict != s[i].expected || !r->pass)
			fail_msg("%s/%s on %s: %s, expected %s: %s", s[i].c->id, s[i].v->name, s[i].model->name,
				 eh_verdict_name(r->outcome.verdict), eh_verdict_name(s[i].expected),
				 r->outcome.evidence);
		eh_case_run_free(r);
	}
	eh_free(s);
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

/*
 * eh_case_run_on: the models of a variant run on one object opened once (as eh_run_matrix runs
 * them), each with the outcome of a run that opens it, and the object outlives them.
 */
static void test_shared_object(void **state)
{
	static const char *const models[] = { "thunderx2", "cortex-a72", "thunderx2" };
	const struct eh_case *c = eh_case_find("tx2-219-prfm");
	const struct eh_variant *v = eh_case_variant(c, "before");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_elf *elf;
	char path[4096];
	uint64_t entry;
	size_t i;

	(void)state;
	assert_int_equal(eh_elf_open(&elf, eh_case_object_path(c, v, &opts, path, sizeof(path)), NULL), 0);
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct eh_case_run *shared, *own;

		assert_int_equal(eh_case_run_on(&shared, c, v, eh_model_find(models[i]), &opts, elf, NULL), 0);
		assert_int_equal(eh_case_run(&own, c, v, eh_model_find(models[i]), &opts, NULL), 0);
		assert_ptr_equal(shared->elf, elf);
		assert_ptr_not_equal(own->elf, elf);
		assert_int_equal(shared->outcome.verdict, own->outcome.verdict);
		assert_string_equal(shared->outcome.evidence, own->outcome.evidence);
		eh_case_run_free(shared);
		eh_case_run_free(own);
	}
	assert_int_equal(eh_elf_resolve(elf, "tramp_entry_before", &entry, NULL), 0);
	eh_elf_free(elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_consistent),
		cmocka_unit_test(test_registry_names_every_folder),
		cmocka_unit_test(test_before_shows_what_after_fixes),
		cmocka_unit_test(test_mutants_declared),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_tx2_219_prfm_evidence),
		cmocka_unit_test(test_shared_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

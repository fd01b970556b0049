/* Runs each case's mutants over the case's matrix and tells which the judge saw (killed) and which it missed. */
#include "eh/mutant.h"

#include <string.h>

static bool row_declared(const struct eh_case *c, const struct eh_mutant *mu, const struct eh_variant *v,
			 const struct eh_model *model)
{
	const struct eh_row *row;

	for (row = mu->flips; row && row->variant; row++)
		if (!strcmp(row->variant, v->name) && eh_models_match(c, &row->who, model))
			return true;
	return false;
}

/* Every (variant, model) of the case's matrix, run with the mutant's snippet. */
static int run_mutant(struct eh_mutant_result *mr, const struct eh_run_opts *base, struct eh_error *err)
{
	struct eh_run_opts opts = *base;
	const struct eh_variant *v;
	const struct eh_model *const *m;
	bool all_declared = true;
	unsigned flipped = 0, nvariants = 0, nmodels = 0;
	int rc;

	opts.mutant = mr->mutant;
	opts.trace_insns = false;
	mr->neutral = !mr->mutant->flips || !mr->mutant->flips->variant;
	for (v = mr->c->variants; v->name; v++)
		nvariants++;
	for (m = eh_models; *m; m++)
		nmodels++;
	mr->rows = eh_alloc(nvariants * nmodels * sizeof(*mr->rows));
	if (!mr->rows)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the rows of %s", mr->c->id);
	for (v = mr->c->variants; v->name; v++)
		for (m = eh_models; *m; m++) {
			struct eh_mutant_row *row = &mr->rows[mr->nrows];
			struct eh_case_run *run;

			if (eh_case_expected(mr->c, v->name, *m, &row->expected))
				continue;
			rc = eh_case_run(&run, mr->c, v, *m, &opts, err);
			if (rc)
				return eh_error_prefix(err, "mutant %s: ", mr->mutant->name);
			row->v = v;
			row->model = *m;
			row->outcome = run->outcome;
			row->flipped = !run->pass;
			row->declared = row_declared(mr->c, mr->mutant, v, *m);
			eh_case_run_free(run);
			flipped += row->flipped;
			if (row->declared && !row->flipped)
				all_declared = false;
			mr->nrows++;
		}
	mr->killed = mr->neutral ? flipped != 0 : all_declared;
	mr->ok = mr->neutral ? !mr->killed : mr->killed;
	return 0;
}

/* A row a mutant declares must hold scenarios of the case: a typo would make it unkillable or vacuous. */
static int check_declared(const struct eh_case *c, const struct eh_mutant *mu, struct eh_error *err)
{
	const struct eh_row *row;
	char who[160];

	for (row = mu->flips; row && row->variant; row++) {
		const struct eh_model *const *m;
		enum eh_verdict v;
		bool found = false;

		for (m = eh_models; *m && !found; m++)
			found = eh_models_match(c, &row->who, *m) && !eh_case_expected(c, row->variant, *m, &v);
		if (!found)
			return eh_error_set(err, EH_EINPUT, "case %s, mutant %s: no scenario of variant %s on %s",
					    c->id, mu->name, row->variant,
					    eh_models_describe(&row->who, who, sizeof(who)));
	}
	return 0;
}

static bool case_listed(const struct eh_selection *sel, const struct eh_case *c)
{
	unsigned i;

	if (!sel->n[EH_SELECT_CASE])
		return true;
	for (i = 0; i < sel->n[EH_SELECT_CASE]; i++)
		if (!strcmp(sel->names[EH_SELECT_CASE][i], c->id))
			return true;
	return false;
}

int eh_mutants_run(struct eh_mutant_results **out, const struct eh_selection *sel,
		   const struct eh_run_opts *opts, struct eh_error *err)
{
	const struct eh_case *const *c;
	struct eh_mutant_results *res;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	res = eh_alloc(sizeof(*res));
	if (!res)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	for (c = eh_cases; *c && !rc; c++) {
		const struct eh_mutant *mu;

		if (!case_listed(sel, *c))
			continue;
		for (mu = (*c)->mutants; mu && mu->name && !rc; mu++) {
			struct eh_mutant_result *mr;

			rc = check_declared(*c, mu, err);
			if (rc)
				break;
			if (res->n == cap) {
				size_t ncap = cap ? cap * 2 : 32;
				void *p = eh_realloc(res->r, ncap * sizeof(*res->r));

				if (!p) {
					rc = eh_error_set(err, EH_ENOMEM, "out of memory for mutant results");
					break;
				}
				res->r = p;
				cap = ncap;
			}
			mr = &res->r[res->n++];
			*mr = (struct eh_mutant_result){ .c = *c, .mutant = mu };
			rc = run_mutant(mr, opts, err);
			res->ok += mr->ok;
			res->bad += !mr->ok;
		}
	}
	if (!rc && !res->n)
		rc = eh_error_set(err, EH_ENOENT, "the selected cases have no mutants");
	if (rc) {
		eh_mutant_results_free(res);
		return rc;
	}
	*out = res;
	return 0;
}

void eh_mutant_results_free(struct eh_mutant_results *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->n; i++)
		eh_free(res->r[i].rows);
	eh_free(res->r);
	eh_free(res);
}

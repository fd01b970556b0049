/* Mutation testing of the cases: every mutant of a case's snippet run over the case's matrix, and whether its judge saw it. */
#ifndef EH_MUTANT_H
#define EH_MUTANT_H

#include <stdbool.h>
#include <stddef.h>

#include "eh/case.h"
#include "eh/error.h"
#include "eh/run.h"

/* One (variant, model) row of a case run with a mutant. */
struct eh_mutant_row {
	const struct eh_variant *v;
	const struct eh_model *model;
	enum eh_verdict expected;
	struct eh_outcome outcome;
	bool flipped;        /* the outcome is not the expected one */
	bool declared;       /* the mutant says this row must flip */
};

struct eh_mutant_result {
	const struct eh_case *c;
	const struct eh_mutant *mutant;
	bool neutral;        /* declares no row: it must survive */
	bool killed;         /* every declared row flipped (neutral: some row flipped) */
	bool ok;             /* killed, or survived when neutral */
	struct eh_mutant_row *rows;  /* the case's matrix, in table order */
	size_t nrows;
};

struct eh_mutant_results {
	struct eh_mutant_result *r;
	size_t n;
	unsigned ok, bad;
};

/*
 * Run every mutant of the cases sel selects (only EH_SELECT_CASE counts; the
 * whole matrix of each case runs) from the snippets built beside opts->cases_dir.
 * A mutant whose snippet is missing is an error; a row that does not complete is
 * a flipped row, like any other outcome than the expected one.
 */
int eh_mutants_run(struct eh_mutant_results **out, const struct eh_selection *sel,
		   const struct eh_run_opts *opts, struct eh_error *err);
void eh_mutant_results_free(struct eh_mutant_results *res);

#endif

/* The kill table of run --mutants: a line per mutant, killed or survived, with its rows when it is not as it must be. */
#include <inttypes.h>
#include <stdio.h>

#include "eh/mutant.h"
#include "eh/report.h"

static bool row_in(const struct eh_mutant_row *row, bool flipped, bool declared)
{
	return row->flipped == flipped && row->declared == declared;
}

/*
 * The rows of mr that flipped (or not) and were declared (or not), into buf: a variant whose every
 * model is among them as "VARIANT/" and a star, the others as "after/thunderx2, after/vulcan".
 */
static const char *rows_text(const struct eh_mutant_result *mr, bool flipped, bool declared, char *buf,
			     size_t len)
{
	size_t i, j, n = 0;

	buf[0] = 0;
	for (i = 0; i < mr->nrows; i++) {
		const struct eh_mutant_row *row = &mr->rows[i];
		bool whole = true, first = true;

		if (!row_in(row, flipped, declared))
			continue;
		for (j = 0; j < mr->nrows; j++)
			if (mr->rows[j].v == row->v) {
				whole &= row_in(&mr->rows[j], flipped, declared);
				first &= j >= i;
			}
		if (whole && !first)
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s/%s", n ? ", " : "", row->v->name,
				      whole ? "*" : row->model->name);
	}
	return buf;
}

void eh_report_mutants(FILE *f, const struct eh_mutant_results *res, uint64_t seed, const struct eh_text_style *style)
{
	char rows[2048], also[2048];
	size_t i, j;

	fprintf(f, "errata-harness %s run --mutants, seed %" PRIu64 "\n", eh_version(), seed);
	for (i = 0; i < res->n; i++) {
		const struct eh_mutant_result *mr = &res->r[i];
		const char *what;

		if (mr->neutral && !mr->killed)
			what = "survived (neutral)";
		else if (mr->neutral)
			what = "KILLED, but neutral: flips";
		else if (mr->killed)
			what = "killed by";
		else
			what = "SURVIVED: as expected still";
		if (mr->neutral && !mr->killed)
			rows[0] = 0;
		else
			rows_text(mr, mr->killed, !mr->neutral, rows, sizeof(rows));
		rows_text(mr, true, false, also, sizeof(also));
		eh_text_linef(f, style, "%-4s %-15s %-16s %s%s%s%s%s", mr->ok ? "ok" : "FAIL",
			      mr->c->id, mr->mutant->name, what, rows[0] ? " " : "", rows,
			      mr->killed && !mr->neutral && also[0] ? "; also " : "",
			      mr->killed && !mr->neutral ? also : "");
		if (!style->verbose && mr->ok)
			continue;
		eh_text_wrap(f, style, 5, mr->mutant->why);
		for (j = 0; j < mr->nrows; j++) {
			const struct eh_mutant_row *row = &mr->rows[j];
			char line[1400];

			snprintf(line, sizeof(line), "%s/%s: %s (expected %s%s): %s", row->v->name, row->model->name,
				 eh_verdict_name(row->outcome.verdict), eh_verdict_name(row->expected),
				 row->declared ? ", must flip" : "", row->outcome.evidence);
			eh_text_wrap(f, style, 7, line);
		}
	}
	eh_text_linef(f, style, "%zu mutants: %u as they must be (killed, or neutral and survived), "
		      "%u not", res->n, res->ok, res->bad);
}

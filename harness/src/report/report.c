/* Report writers for people and TAP consumers, the per-commit report, and the choice of format. */
#include "eh/report.h"

#include <inttypes.h>
#include <string.h>

#include "eh/escape.h"
#include "eh/text.h"
#include "report/report_writers.h"

static const char *const format_names[EH_FORMAT_COUNT] = {
	[EH_FORMAT_TEXT] = "text",
	[EH_FORMAT_TAP] = "tap",
	[EH_FORMAT_JUNIT] = "junit",
	[EH_FORMAT_JSON] = "json",
};

int eh_format_parse(const char *name, enum eh_format *out, struct eh_error *err)
{
	unsigned i;

	for (i = 0; i < EH_FORMAT_COUNT; i++)
		if (!strcmp(name, format_names[i])) {
			*out = (enum eh_format)i;
			return 0;
		}
	return eh_error_set(err, EH_EINVAL, "unknown format '%s' (known: text tap junit json)", name);
}

const char *eh_format_name(enum eh_format fmt)
{
	return (unsigned)fmt < EH_FORMAT_COUNT ? format_names[fmt] : "?";
}

bool eh_format_prints_events(enum eh_format fmt)
{
	return fmt == EH_FORMAT_JUNIT || fmt == EH_FORMAT_JSON;
}

/* "errata-harness 0.1.0 run, seed 1, shard 2/3": the first line of the text reports. */
static void put_run_line(FILE *f, const char *what, const struct eh_results *res)
{
	fprintf(f, "errata-harness %s %s, seed %" PRIu64, eh_version(), what, res->seed);
	if (res->nshards)
		fprintf(f, ", shard %u/%u", res->shard, res->nshards);
	fputc('\n', f);
}

/* "64 passed, 0 failed": with the incomplete ones among the failed named, and a fatal error before. */
static void put_totals(FILE *f, const struct eh_text_style *style, const struct eh_results *res)
{
	if (res->error) {
		fputs("error: the run stopped:\n", f);
		eh_text_wrap(f, style, 2, res->error);
	}
	fprintf(f, "%u passed, %u failed", res->passed, res->failed);
	if (res->incomplete)
		fprintf(f, " (%u incomplete)", res->incomplete);
	fputc('\n', f);
}

/*
 * One line per scenario: PASS or FAIL, the outcome and the scenario; a failure
 * adds what was expected and as much of the evidence as the width leaves room for.
 * Verbose: the whole evidence of every scenario, wrapped under its line.
 */
static void write_text(FILE *f, const struct eh_results *res, const struct eh_text_style *style)
{
	size_t i;

	put_run_line(f, "run", res);
	for (i = 0; i < res->n; i++) {
		const struct eh_result *r = &res->r[i];

		if (r->pass || style->verbose)
			eh_text_linef(f, style, "%s %-10s %s/%s/%s%s%s", r->pass ? "PASS" : "FAIL",
				      eh_verdict_name(r->outcome.verdict), r->s.c->id, r->s.v->name,
				      r->s.model->name, r->pass ? "" : ", expected ",
				      r->pass ? "" : eh_verdict_name(r->s.expected));
		else
			eh_text_linef(f, style, "FAIL %-10s %s/%s/%s, expected %s: %s",
				      eh_verdict_name(r->outcome.verdict), r->s.c->id, r->s.v->name,
				      r->s.model->name, eh_verdict_name(r->s.expected), r->outcome.evidence);
		if (style->verbose)
			eh_text_wrap(f, style, 5, r->outcome.evidence);
	}
	put_totals(f, style, res);
}

/*
 * TAP version 13 as kselftest and KUnit print it: the plan first, one test
 * point per scenario, its diagnostics in an indented YAML block, comments
 * with '#'. Scenario names are kebab-case table ids joined by '/', so they
 * never hold the '#' that would start a directive.
 */
static void write_tap(FILE *f, const struct eh_results *res)
{
	size_t i;

	fputs("TAP version 13\n# ", f);
	put_run_line(f, "run", res);
	fprintf(f, "1..%zu\n", res->n);
	for (i = 0; i < res->n; i++) {
		const struct eh_result *r = &res->r[i];

		fprintf(f, "%s %zu %s/%s/%s\n", r->pass ? "ok" : "not ok", i + 1, r->s.c->id, r->s.v->name,
			r->s.model->name);
		fprintf(f, "  ---\n  outcome: %s\n  expected: %s\n  evidence: ",
			eh_verdict_name(r->outcome.verdict), eh_verdict_name(r->s.expected));
		eh_json_puts(f, r->outcome.evidence);
		if (r->outcome.where)
			fprintf(f, "\n  where: 0x%016" PRIx64, r->outcome.where);
		fprintf(f, "\n  seed: %" PRIu64 "\n  ...\n", res->seed);
	}
	if (res->error) {
		/* TAP's own way to say the run stopped: consumers fail it whatever the plan says. */
		fprintf(f, "Bail out! %s\n", res->error);
	}
	fprintf(f, "# Totals: pass:%u fail:%u\n", res->passed, res->failed);
}

int eh_report_write(FILE *f, const struct eh_results *res, enum eh_format fmt,
		    const struct eh_text_style *style, struct eh_error *err)
{
	switch (fmt) {
	case EH_FORMAT_TEXT: write_text(f, res, style); break;
	case EH_FORMAT_TAP: write_tap(f, res); break;
	case EH_FORMAT_JUNIT: eh_report__junit(f, res); break;
	case EH_FORMAT_JSON: eh_report__json(f, res); break;
	default: return eh_error_set(err, EH_EINVAL, "format %d does not exist", (int)fmt);
	}
	if (fflush(f) || ferror(f))
		return eh_error_set(err, EH_EIO, "writing the %s report failed", eh_format_name(fmt));
	return 0;
}

/* What its cases showed, as "tx2-219-prfm: bug shown before 2/2, absent after 10/10", into buf. */
static const char *commit_detail(const struct eh_commit_report *k, char *buf, size_t len)
{
	size_t n = 0;
	unsigned i;

#define PUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	buf[0] = 0;
	if (k->status == EH_COMMIT_NO_CASE)
		return "no case yet";
	for (i = 0; i < k->ncases; i++)
		PUT("%s%s", i ? ", " : "", k->cases[i]->id);
	if (!k->outcomes)
		PUT(": not selected");
	else if (!k->case_expects_bug)
		PUT(": no outcome is expected to show the bug, so none can catch a regression");
	else if (!k->before)
		PUT(": no outcome expected to show the bug was selected");
	else
		PUT(": bug shown before %u/%u", k->before_shown, k->before);
	if (k->outcomes && k->after)
		PUT(", absent after %u/%u", k->after_absent, k->after);
	if (k->unexpected)
		PUT(", %u unexpected outcome%s", k->unexpected, k->unexpected == 1 ? "" : "s");
#undef PUT
	return buf;
}

bool eh_report_commits_fail(const struct eh_results *res)
{
	size_t i;

	if (res->failed)
		return true;
	for (i = 0; eh_series[i].hash; i++) {
		struct eh_commit_report k;

		eh_results_commit(res, i, &k);
		if (eh_commit_status_fails(k.status))
			return true;
	}
	return false;
}

int eh_report_write_commits(FILE *f, const struct eh_results *res, const struct eh_text_style *style,
			    struct eh_error *err)
{
	unsigned counts[EH_COMMIT_STATUS_COUNT] = { 0 };
	char detail[1024];
	size_t i;

	put_run_line(f, "run --by-commit", res);
	for (i = 0; eh_series[i].hash; i++) {
		struct eh_commit_report k;

		eh_results_commit(res, i, &k);
		counts[k.status]++;
		eh_text_linef(f, style, "%03u %s %-14s %s", k.position, k.commit->hash,
			      eh_commit_status_name(k.status), k.commit->subject);
		eh_text_wrap(f, style, 4, commit_detail(&k, detail, sizeof(detail)));
	}
	eh_text_linef(f, style, "%zu commits: %u verified, %u without a case, %u not run, %u not reproduced, "
		      "%u unexpected", i, counts[EH_COMMIT_VERIFIED], counts[EH_COMMIT_NO_CASE],
		      counts[EH_COMMIT_NOT_RUN], counts[EH_COMMIT_NOT_REPRODUCED], counts[EH_COMMIT_UNEXPECTED]);
	put_totals(f, style, res);
	if (fflush(f) || ferror(f))
		return eh_error_set(err, EH_EIO, "writing the per-commit report failed");
	return 0;
}

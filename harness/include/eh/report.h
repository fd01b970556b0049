/* Report writers: the results of a run as text, TAP 13, JUnit XML or JSON, and the per-commit report. */
#ifndef EH_REPORT_H
#define EH_REPORT_H

#include <stdio.h>

#include "eh/error.h"
#include "eh/run.h"
#include "eh/text.h"

enum eh_format {
	EH_FORMAT_TEXT,    /* one line per scenario, for people */
	EH_FORMAT_TAP,     /* TAP version 13, as kselftest and KUnit print it */
	EH_FORMAT_JUNIT,   /* JUnit XML: a testsuite per case, a testcase per (variant, model) */
	EH_FORMAT_JSON,    /* everything, events included: harness/schema/run-v3.json */
	EH_FORMAT_COUNT,
};

/* The version of the JSON report's schema (harness/schema/run-v<N>.json). */
#define EH_JSON_SCHEMA_VERSION 3

int eh_format_parse(const char *name, enum eh_format *out, struct eh_error *err);
const char *eh_format_name(enum eh_format fmt);
/* Whether fmt prints each scenario's events and its snippet's SHA-256 (eh_run_opts.keep_events). */
bool eh_format_prints_events(enum eh_format fmt);

/*
 * Write res to f. Every format names the tool version and the seed; only
 * JUnit carries timings, so that the others are byte-identical for a seed.
 * style lays out the text format. A write error on f is EH_EIO.
 */
int eh_report_write(FILE *f, const struct eh_results *res, enum eh_format fmt,
		    const struct eh_text_style *style, struct eh_error *err);

/*
 * The per-commit report: a line per commit of the series, in order, with what
 * the cases that verify it showed wrapped under it, then the totals.
 */
int eh_report_write_commits(FILE *f, const struct eh_results *res, const struct eh_text_style *style,
			    struct eh_error *err);

struct eh_json;

/* "format", "schema_version" and "tool" (name and version): how every JSON report starts. */
void eh_report_json_header(struct eh_json *j, const char *format, int schema_version);
/*
 * An input file as every JSON report names it: {"path", "sha256"} under key, or
 * null when path is NULL (sha256 null when the file can no longer be read).
 */
void eh_report_json_file(struct eh_json *j, const char *key, const char *path);
/* One outcome with its events (an object under key), as run's report lists them and replay's holds it. */
void eh_report_json_result(struct eh_json *j, const char *key, const struct eh_result *r);
/* One event of a trace as the JSON reports write it (an object; text is eh_event_format's line). */
void eh_report_json_event(struct eh_json *j, const struct eh_event *ev, const char *text);
/* The same event's fields, into an object the caller opened (and may add to). */
void eh_report_json_event_fields(struct eh_json *j, const struct eh_event *ev, const char *text);

struct eh_mutant_results;
/*
 * run --mutants' kill table to f: a line per mutant (killed, survived, or not as it must
 * be, with the rows that flipped), its rows under it when verbose or not as it must
 * be, and the totals. A mutant is killed when every row it declares flipped; a
 * neutral one must survive.
 */
void eh_report_mutants(FILE *f, const struct eh_mutant_results *res, uint64_t seed, const struct eh_text_style *style);

/* Whether the per-commit report flags a failure (an outcome or a commit that should fail the run). */
bool eh_report_commits_fail(const struct eh_results *res);

#endif

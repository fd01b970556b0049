/* The JUnit XML report: a testsuite per case, a testcase per (variant, model), as GitLab, Jenkins and KernelCI read it. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "eh/escape.h"
#include "report/report_writers.h"

static void put_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	eh_xml_puts(f, value);
	fputc('"', f);
}

static void put_property(FILE *f, const char *name, const char *value)
{
	fputs("      <property", f);
	put_attr(f, "name", name);
	put_attr(f, "value", value);
	fputs("/>\n", f);
}

/* <failure> or <error> with its message, type and the evidence as text. */
static void put_result(FILE *f, const char *tag, const char *message, const char *type, const char *text)
{
	fprintf(f, "      <%s", tag);
	put_attr(f, "message", message);
	put_attr(f, "type", type);
	fputc('>', f);
	eh_xml_puts(f, text);
	fprintf(f, "</%s>\n", tag);
}

static void put_testcase(FILE *f, const struct eh_result *r)
{
	char name[256], message[128];
	size_t i;

	snprintf(name, sizeof(name), "%s/%s", r->s.v->name, r->s.model->name);
	fputs("    <testcase", f);
	put_attr(f, "name", name);
	put_attr(f, "classname", r->s.c->id);
	fprintf(f, " time=\"%.6f\">\n", r->seconds);
	if (r->outcome.verdict == EH_VERDICT_INCOMPLETE) {
		/* JUnit's <error>: the test did not run to the point where it could be judged. */
		snprintf(message, sizeof(message), "incomplete (expected %s)", eh_verdict_name(r->s.expected));
		put_result(f, "error", message, "incomplete", r->outcome.evidence);
	} else if (!r->pass) {
		snprintf(message, sizeof(message), "expected %s, got %s", eh_verdict_name(r->s.expected),
			 eh_verdict_name(r->outcome.verdict));
		put_result(f, "failure", message, "unexpected-verdict", r->outcome.evidence);
	}
	fputs("      <system-out>", f);
	fprintf(f, "outcome %s (expected %s): ", eh_verdict_name(r->outcome.verdict),
		eh_verdict_name(r->s.expected));
	eh_xml_puts(f, r->outcome.evidence);
	fputc('\n', f);
	for (i = 0; i < r->nevents; i++) {
		fprintf(f, "t%u ", r->events[i].ev.thread);
		eh_xml_puts(f, r->events[i].text);
		fputc('\n', f);
	}
	if (r->dropped)
		fprintf(f, "(%zu more events not kept)\n", r->dropped);
	fputs("</system-out>\n    </testcase>\n", f);
}

/* Results come in matrix order, so a case's scenarios are consecutive: [from, to). */
/* Whether two results loaded the same snippet (a case's variants may link their own). */
static bool same_snippet(const struct eh_result *a, const struct eh_result *b)
{
	return a->snippet && b->snippet && !strcmp(a->snippet, b->snippet);
}

static void put_testsuite(FILE *f, const struct eh_results *res, size_t from, size_t to)
{
	const struct eh_case *c = res->r[from].s.c;
	const struct eh_commit *k;
	unsigned failures = 0, errors = 0;
	double seconds = 0;
	char buf[512];
	size_t i;

	for (i = from; i < to; i++) {
		errors += res->r[i].outcome.verdict == EH_VERDICT_INCOMPLETE;
		failures += !res->r[i].pass && res->r[i].outcome.verdict != EH_VERDICT_INCOMPLETE;
		seconds += res->r[i].seconds;
	}
	fputs("  <testsuite", f);
	put_attr(f, "name", c->id);
	fprintf(f, " tests=\"%zu\" failures=\"%u\" errors=\"%u\" skipped=\"0\" time=\"%.6f\">\n",
		to - from, failures, errors, seconds);
	fputs("    <properties>\n", f);
	snprintf(buf, sizeof(buf), "%" PRIu64, res->seed);
	put_property(f, "seed", buf);
	put_property(f, "version", eh_version());
	if (res->nshards) {
		snprintf(buf, sizeof(buf), "%u/%u", res->shard, res->nshards);
		put_property(f, "shard", buf);
	}
	put_property(f, "shows", c->shows);
	for (i = from; i < to; i++) {
		size_t seen;

		for (seen = from; seen < i && !same_snippet(&res->r[seen], &res->r[i]); seen++)
			;
		if (seen == i && res->r[i].snippet) {
			snprintf(buf, sizeof(buf), "%s sha256:%s", res->r[i].snippet, res->r[i].snippet_sha256);
			put_property(f, "snippet", buf);
		}
	}
	for (k = c->commits; k->hash; k++) {
		snprintf(buf, sizeof(buf), "%s %s", k->hash, k->subject);
		put_property(f, "verifies", buf);
	}
	fputs("    </properties>\n", f);
	for (i = from; i < to; i++)
		put_testcase(f, &res->r[i]);
	fputs("  </testsuite>\n", f);
}

/* A fatal error that stopped the run: one suite with one errored test, so that consumers fail the job. */
static void put_run_error(FILE *f, const char *error)
{
	fputs("  <testsuite name=\"errata-harness\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
	      "time=\"0\">\n    <testcase name=\"run\" classname=\"errata-harness\" time=\"0\">\n"
	      "      <error type=\"run-error\"", f);
	put_attr(f, "message", error);
	fputs("/>\n    </testcase>\n  </testsuite>\n", f);
}

void eh_report__junit(FILE *f, const struct eh_results *res)
{
	double seconds = 0;
	size_t i, from;

	for (i = 0; i < res->n; i++)
		seconds += res->r[i].seconds;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	/* Also here, so that an empty shard still says which seed it ran with. */
	fprintf(f, "<!-- errata-harness %s run, seed %" PRIu64, eh_version(), res->seed);
	if (res->nshards)
		fprintf(f, ", shard %u/%u", res->shard, res->nshards);
	fputs(" -->\n", f);
	fprintf(f, "<testsuites name=\"errata-harness\" tests=\"%zu\" failures=\"%u\" errors=\"%u\" "
		"time=\"%.6f\">\n", res->n + !!res->error, res->failed - res->incomplete,
		res->incomplete + !!res->error, seconds);
	for (from = 0; from < res->n; from = i) {
		for (i = from + 1; i < res->n && res->r[i].s.c == res->r[from].s.c; i++)
			;
		put_testsuite(f, res, from, i);
	}
	if (res->error)
		put_run_error(f, res->error);
	fputs("</testsuites>\n", f);
}

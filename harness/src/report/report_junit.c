/* The JUnit XML reports, as GitLab, Jenkins and KernelCI read them: run's (a testsuite per case, a testcase per (variant, model)) and the errata report's (a testsuite per erratum, a testcase per model). */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "eh/audit_matrix.h"
#include "eh/escape.h"
#include "report/report_errata.h"
#include "report/report_writers.h"

static void put_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	eh_xml_puts(f, value ? value : "");
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

/* <testcase> with its name, class and time (as the report writes it), its content to follow. */
static void open_testcase(FILE *f, const char *name, const char *classname, const char *time)
{
	fputs("    <testcase", f);
	put_attr(f, "name", name);
	put_attr(f, "classname", classname);
	fprintf(f, " time=\"%s\">\n", time);
}

/* <testsuite> with its counts and time, and the <properties> that follow it opened. */
static void open_testsuite(FILE *f, const char *name, size_t tests, size_t failures, size_t errors, size_t skipped,
			   const char *time)
{
	fputs("  <testsuite", f);
	put_attr(f, "name", name);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%s\">\n"
		"    <properties>\n", tests, failures, errors, skipped, time);
}

static void put_testcase(FILE *f, const struct eh_result *r)
{
	char name[256], message[128], time[32];
	size_t i;

	snprintf(name, sizeof(name), "%s/%s", r->s.v->name, r->s.model->name);
	snprintf(time, sizeof(time), "%.6f", r->seconds);
	open_testcase(f, name, r->s.c->id, time);
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
	snprintf(buf, sizeof(buf), "%.6f", seconds);
	open_testsuite(f, c->id, to - from, failures, errors, 0, buf);
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

/* A cell that passes without being checked: the erratum does not show there, or its workaround is not built. */
static bool cell_skipped(const struct eh_audit_cell *c)
{
	return !c->failing && (c->status != EH_AUDIT_SHOWS || c->configured_out || c->not_in_kernel);
}

/* One erratum on one model: passed, failed (its findings, one a line), or skipped (why). */
static void junit_testcase(const struct eh_errata_out *r, size_t model, size_t e)
{
	struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, model, e);
	char text[96], what[512];
	size_t i;

	open_testcase(r->f, r->fd->models[model]->name, r->fd->errata[e]->id, "0");
	eh_audit_cell_text(&c, text, sizeof(text));
	if (c.failing) {
		fputs("      <failure", r->f);
		put_attr(r->f, "message", text);
		put_attr(r->f, "type", "findings");
		fputs(">", r->f);
		for (i = 0; i < c.t->res->nfindings; i++) {
			const struct eh_finding *f = &c.t->res->findings[i];

			if (c.t->sup[i])
				continue;
			eh_xml_puts(r->f, f->where);
			fputs(": ", r->f);
			eh_xml_puts(r->f, eh_report__finding_text(f, what, sizeof(what)));
			fputs("\n", r->f);
		}
		fputs("</failure>\n", r->f);
	} else if (cell_skipped(&c)) {
		fputs("      <skipped", r->f);
		put_attr(r->f, "message", text);
		fputs("/>\n", r->f);
	}
	fprintf(r->f, "      <system-out>image %zu: ", r->fd->mx->image_of[model] + 1);
	eh_xml_puts(r->f, text);
	if (c.status != EH_AUDIT_NOT_AFFECTED && c.t->suppressed)
		fprintf(r->f, ", %zu finding%s suppressed", c.t->suppressed, c.t->suppressed == 1 ? "" : "s");
	fputs("</system-out>\n    </testcase>\n", r->f);
}

void eh_report__errata_junit(const struct eh_errata_out *r)
{
	size_t e, i, total[3] = { 0 };

	for (e = 0; e < r->fd->nerrata; e++)
		for (i = 0; i < r->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);

			total[0]++;
			total[1] += c.failing;
			total[2] += cell_skipped(&c);
		}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", r->f);
	fprintf(r->f, "<testsuites name=\"errata-harness report\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"0\">\n", total[0], total[1], total[2]);
	for (e = 0; e < r->fd->nerrata; e++) {
		const struct eh_erratum *er = r->fd->errata[e];
		size_t n[2] = { 0 };

		for (i = 0; i < r->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);

			n[0] += c.failing;
			n[1] += cell_skipped(&c);
		}
		open_testsuite(r->f, er->id, r->fd->nmodels, n[0], 0, n[1], "0");
		put_property(r->f, "version", eh_version());
		put_property(r->f, "file", r->fd->elf->path);
		put_property(r->f, "cpucaps", r->fd->caps->source);
		put_property(r->f, "config", r->fd->config_source);
		put_property(r->f, "boot", eh_boot_names[r->fd->boot]);
		put_property(r->f, "suppress", r->in->suppress ? r->in->suppress : "none");
		put_property(r->f, "title", er->title);
		put_property(r->f, "workaround", er->capability);
		put_property(r->f, "kconfig", er->kconfig);
		fputs("    </properties>\n", r->f);
		for (i = 0; i < r->fd->nmodels; i++)
			junit_testcase(r, i, e);
		fputs("  </testsuite>\n", r->f);
	}
	fputs("</testsuites>\n", r->f);
}


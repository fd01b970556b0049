/* The report writers (text, TAP, JUnit, JSON, per commit), their escaping, and the SVG timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/src/util/alloc_fail.h"
#include "eh/cpucaps.h"
#include "eh/escape.h"
#include "eh/image.h"
#include "eh/json.h"
#include "eh/report.h"
#include "eh/svg.h"
#include "rows.h"

#define TX2 "tx2-219-prfm"

/* What fn wrote, as a string the caller frees. */
static char *capture_str(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, in);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* ---- escaping -------------------------------------------------------------------------------- */

struct escape_row {
	const char *name;
	const char *in;
	const char *xml;
	const char *json;
};

#define FFFD "\xef\xbf\xbd"

static const struct escape_row escape_rows[] = {
	{ "plain", "ldr x30, #0x10", "ldr x30, #0x10", "\"ldr x30, #0x10\"" },
	{ "empty", "", "", "\"\"" },
	{ "markup", "a<b>&c", "a&lt;b&gt;&amp;c", "\"a<b>&c\"" },
	{ "quotes", "\"q\" 'a'", "&quot;q&quot; &apos;a&apos;", "\"\\\"q\\\" 'a'\"" },
	{ "backslash and slash", "a\\b/c", "a\\b/c", "\"a\\\\b/c\"" },
	/* XML 1.0 2.11/3.3.3: raw newlines and tabs in attributes become spaces, so use references. */
	{ "tab, newline, return", "\t\n\r", "&#9;&#10;&#13;", "\"\\t\\n\\r\"" },
	/* XML 1.0 2.2: U+0001 and U+001F are not Chars at all; JSON escapes them (RFC 8259 7). */
	{ "C0 controls", "a\x01z\x1f", "a" FFFD "z" FFFD, "\"a\\u0001z\\u001f\"" },
	{ "DEL is a Char", "\x7f", "\x7f", "\"\x7f\"" },
	{ "two-byte UTF-8", "caf\xc3\xa9", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ "four-byte UTF-8", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
	{ "lone continuation byte", "\x80", FFFD, "\"\\ufffd\"" },
	{ "byte never in UTF-8", "a\xff" "b", "a" FFFD "b", "\"a\\ufffdb\"" },
	{ "overlong slash", "\xc0\xaf", FFFD FFFD, "\"\\ufffd\\ufffd\"" },
	{ "surrogate D800", "\xed\xa0\x80", FFFD FFFD FFFD, "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "past U+10FFFF", "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD,
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "truncated at the end", "\xe2\x82", FFFD, "\"\\ufffd\"" },
	/* Unicode 15 section 3.9, table 3-8: each maximal subpart is one U+FFFD. */
	{ "Unicode table 3-8", "a\xf1\x80\x80\xe1\x80\xc2" "b\x80" "c\x80\xbf" "d",
	  "a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d",
	  "\"a\\ufffd\\ufffd\\ufffdb\\ufffdc\\ufffd\\ufffdd\"" },
};

static void run_escape_row(void **state)
{
	const struct escape_row *row = *state;
	char *xml = capture_str(eh_xml_puts, row->in);
	char *json = capture_str(eh_json_puts, row->in);

	if (strcmp(xml, row->xml))
		fail_msg("%s: XML '%s', expected '%s'", row->name, xml, row->xml);
	if (strcmp(json, row->json))
		fail_msg("%s: JSON '%s', expected '%s'", row->name, json, row->json);
	free(xml);
	free(json);
}

/* ---- the JSON writer ------------------------------------------------------------------------- */

/* Layout and separators: members on lines of their own, inline containers on one, empty ones "{}". */
static void test_json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct eh_json j;

	(void)state;
	eh_json_begin(&j, f);
	eh_json_object(&j, NULL, false);
	eh_json_str(&j, "s", "a\"b");
	eh_json_str(&j, "none", NULL);
	eh_json_array(&j, "list", false);
	eh_json_object(&j, NULL, true);
	eh_json_hex(&j, "pc", 0xffff800008010000ull);
	eh_json_array(&j, "deep", false);  /* inside an inline object: inline too */
	eh_json_uint(&j, NULL, 1);
	eh_json_bool(&j, NULL, true);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_object(&j, NULL, false);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_array(&j, "empty", true);
	eh_json_end(&j);
	eh_json_end(&j);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "{\n  \"s\": \"a\\\"b\",\n  \"none\": null,\n  \"list\": [\n"
			    "    {\"pc\": \"0xffff800008010000\", \"deep\": [1, true]},\n    {}\n  ],\n"
			    "  \"empty\": []\n}\n");
	free(buf);
}

/* ---- writers on known results ---------------------------------------------------------------- */

/* Evidence with everything a writer must escape, and a '#' that TAP would read as a directive. */
#define NASTY "a <b> & \"c\" 'd' # e\nline2\x01"

static struct eh_result_event events[] = {
	{ .ev = { .seq = 0, .kind = EH_EV_SCREENED, .pc = 0xffff800008010000ull, .value = 0xd518c000 },
	  .text = "screened" },
	{ .ev = { .seq = 9, .kind = EH_EV_INJECT, .thread = 0, .victim = 1, .flags = EH_INSN_LOAD,
		  .pc = 0xffff80000801041cull, .addr = 0xffff800008010438ull },
	  .text = "INJECT \"quoted\" <culprit>" },
};

/*
 * Two scenarios of tx2-219-prfm, seed 42: before on thunderx2 shows the bug
 * as expected; after on vulcan shows it too, where the table expects residual.
 */
static void make_results(struct eh_results *res, struct eh_result r[2], double seconds)
{
	const struct eh_case *c = eh_case_find(TX2);

	assert_non_null(c);
	memset(r, 0, 2 * sizeof(*r));
	r[0].s = (struct eh_scenario){ c, eh_case_variant(c, "before"), eh_model_find("thunderx2"),
				       EH_VERDICT_BUG };
	r[0].outcome.verdict = EH_VERDICT_BUG;
	snprintf(r[0].outcome.evidence, sizeof(r[0].outcome.evidence), "shown");
	r[0].pass = true;
	r[0].seconds = seconds;
	r[0].events = events;
	r[0].nevents = sizeof(events) / sizeof(events[0]);
	r[1].s = (struct eh_scenario){ c, eh_case_variant(c, "after"), eh_model_find("vulcan"),
				       EH_VERDICT_RESIDUAL };
	r[1].outcome.verdict = EH_VERDICT_BUG;
	snprintf(r[1].outcome.evidence, sizeof(r[1].outcome.evidence), "%s", NASTY);
	r[1].seconds = 2 * seconds;
	*res = (struct eh_results){ .seed = 42, .r = r, .n = 2, .passed = 1, .failed = 1 };
}

/* The same two, the second one incomplete: its run stopped at 0xffff800008010420. */
static void make_incomplete(struct eh_results *res, struct eh_result r[2], double seconds)
{
	make_results(res, r, seconds);
	r[1].outcome.verdict = EH_VERDICT_INCOMPLETE;
	r[1].outcome.where = 0xffff800008010420ull;
	snprintf(r[1].outcome.evidence, sizeof(r[1].outcome.evidence), "tramp_entry_after did not complete");
	res->incomplete = 1;
}

/* A run that stopped with a fatal error after the first scenario. */
static void make_fatal(struct eh_results *res, struct eh_result r[2], double seconds)
{
	make_results(res, r, seconds);
	*res = (struct eh_results){ .seed = 42, .r = r, .n = 1, .passed = 1, .error = "out of <memory>" };
}

static const struct eh_text_style unlimited, width80 = { .width = 80 };

static char *write_report(const struct eh_results *res, enum eh_format fmt, const struct eh_text_style *style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct eh_error err = { 0 };

	assert_non_null(f);
	if (eh_report_write(f, res, fmt, style, &err))
		fail_msg("%s: %s", eh_format_name(fmt), err.msg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

struct writer_row {
	const char *name;
	enum eh_format fmt;
	const char *needle;     /* must appear verbatim */
	void (*make)(struct eh_results *res, struct eh_result r[2], double seconds);  /* NULL: make_results */
	struct eh_text_style style;  /* zero: no width limit */
};

static const struct writer_row writer_rows[] = {
	{ "text: seed in the header", EH_FORMAT_TEXT, "errata-harness " },
	{ "text: seed value", EH_FORMAT_TEXT, " run, seed 42\n" },
	{ "text: passing line", EH_FORMAT_TEXT, "\nPASS bug        tx2-219-prfm/before/thunderx2\n" },
	/* The evidence's newline and \x01 print as spaces: one scenario, one line. */
	{ "text: failure, expectation and evidence", EH_FORMAT_TEXT,
	  "\nFAIL bug        tx2-219-prfm/after/vulcan, expected residual: a <b> & \"c\" 'd' # e line2 \n" },
	{ "text: a failure cut to the width", EH_FORMAT_TEXT,
	  "\nFAIL bug        tx2-219-prfm/after/vulcan, expected residual: a <b>...\n", NULL, { .width = 70 } },
	{ "text: verbose, evidence wrapped under its line", EH_FORMAT_TEXT,
	  "\nFAIL bug        tx2-219...\n     a <b> & \"c\" 'd' #\n     e line2 \n", NULL,
	  { .width = 26, .verbose = true } },
	{ "text: verbose, passing evidence too", EH_FORMAT_TEXT,
	  "\nPASS bug        tx2-219-prfm/before/thunderx2\n     shown\n", NULL, { .verbose = true } },
	{ "text: totals", EH_FORMAT_TEXT, "1 passed, 1 failed\n" },
	{ "tap: version line first", EH_FORMAT_TAP, "TAP version 13\n# errata-harness " },
	{ "tap: plan", EH_FORMAT_TAP, "\n1..2\n" },
	{ "tap: passing point", EH_FORMAT_TAP, "\nok 1 tx2-219-prfm/before/thunderx2\n  ---\n" },
	{ "tap: failing point", EH_FORMAT_TAP, "\nnot ok 2 tx2-219-prfm/after/vulcan\n  ---\n" },
	{ "tap: YAML outcomes", EH_FORMAT_TAP, "  outcome: bug\n  expected: residual\n" },
	{ "tap: YAML evidence double-quoted",
	  EH_FORMAT_TAP, "  evidence: \"a <b> & \\\"c\\\" 'd' # e\\nline2\\u0001\"\n" },
	{ "tap: YAML seed and end", EH_FORMAT_TAP, "  seed: 42\n  ...\n" },
	{ "tap: totals comment", EH_FORMAT_TAP, "# Totals: pass:1 fail:1\n" },
	{ "junit: declaration", EH_FORMAT_JUNIT, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" },
	{ "junit: seed comment", EH_FORMAT_JUNIT, " run, seed 42 -->\n" },
	{ "junit: totals", EH_FORMAT_JUNIT, "<testsuites name=\"errata-harness\" tests=\"2\" failures=\"1\"" },
	{ "junit: one suite for the case",
	  EH_FORMAT_JUNIT, "<testsuite name=\"tx2-219-prfm\" tests=\"2\" failures=\"1\" errors=\"0\"" },
	{ "junit: seed property", EH_FORMAT_JUNIT, "<property name=\"seed\" value=\"42\"/>" },
	{ "junit: commit property", EH_FORMAT_JUNIT,
	  "<property name=\"verifies\" value=\"9405447ef79b arm64: Avoid Cavium TX2 erratum 219 when switching TTBR\"/>" },
	{ "junit: testcase", EH_FORMAT_JUNIT,
	  "<testcase name=\"after/vulcan\" classname=\"tx2-219-prfm\" time=\"0.500000\">" },
	{ "junit: failure with escaped evidence", EH_FORMAT_JUNIT,
	  "<failure message=\"expected residual, got bug\" type=\"unexpected-verdict\">"
	  "a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; # e&#10;line2" FFFD "</failure>" },
	{ "junit: events in system-out", EH_FORMAT_JUNIT,
	  "t0 INJECT &quot;quoted&quot; &lt;culprit&gt;\n</system-out>" },
	{ "json: format and version", EH_FORMAT_JSON,
	  "\"format\": \"errata-harness-run\",\n  \"schema_version\": 3,\n" },
	{ "json: seed", EH_FORMAT_JSON, "\n  \"seed\": 42,\n" },
	{ "json: unsharded is 1 of 1", EH_FORMAT_JSON, "\"shard\": {\"index\": 1, \"count\": 1}" },
	{ "json: summary", EH_FORMAT_JSON,
	  "\"summary\": {\"outcomes\": 2, \"passed\": 1, \"failed\": 1, \"incomplete\": 0},\n  \"error\": null," },
	{ "json: escaped evidence", EH_FORMAT_JSON,
	  "\"evidence\": \"a <b> & \\\"c\\\" 'd' # e\\nline2\\u0001\"" },
	{ "json: failing outcome", EH_FORMAT_JSON,
	  "\"expected\": \"residual\",\n      \"outcome\": \"bug\",\n      \"pass\": false,\n" },
	{ "json: event fields", EH_FORMAT_JSON,
	  "{\"seq\": 9, \"thread\": 0, \"kind\": \"inject\", \"text\": \"INJECT \\\"quoted\\\" <culprit>\", "
	  "\"pc\": \"0xffff80000801041c\", \"erratum\": null, \"culprit_access\": \"load\", "
	  "\"address\": \"0xffff800008010438\", "
	  "\"victim\": 1, \"taken\": false}" },
	{ "text: incomplete", EH_FORMAT_TEXT,
	  "FAIL incomplete tx2-219-prfm/after/vulcan, expected residual: tramp_entry_after did not complete\n"
	  "1 passed, 1 failed (1 incomplete)\n", make_incomplete },
	{ "tap: incomplete", EH_FORMAT_TAP,
	  "not ok 2 tx2-219-prfm/after/vulcan\n  ---\n  outcome: incomplete\n  expected: residual\n"
	  "  evidence: \"tramp_entry_after did not complete\"\n  where: 0xffff800008010420\n", make_incomplete },
	{ "junit: incomplete is an error", EH_FORMAT_JUNIT,
	  "<error message=\"incomplete (expected residual)\" type=\"incomplete\">tramp_entry_after did not "
	  "complete</error>", make_incomplete },
	{ "junit: errors counted apart", EH_FORMAT_JUNIT,
	  "<testsuites name=\"errata-harness\" tests=\"2\" failures=\"0\" errors=\"1\"", make_incomplete },
	{ "json: incomplete outcome", EH_FORMAT_JSON,
	  "\"expected\": \"residual\",\n      \"outcome\": \"incomplete\",\n      \"pass\": false,\n      "
	  "\"evidence\": \"tramp_entry_after did not complete\",\n      \"where\": \"0xffff800008010420\",\n",
	  make_incomplete },
	{ "json: incomplete counted", EH_FORMAT_JSON,
	  "\"summary\": {\"outcomes\": 2, \"passed\": 1, \"failed\": 1, \"incomplete\": 1}", make_incomplete },
	{ "text: fatal error", EH_FORMAT_TEXT, "error: the run stopped:\n  out of <memory>\n1 passed, 0 failed\n",
	  make_fatal },
	{ "tap: fatal error bails out", EH_FORMAT_TAP, "\n1..1\n", make_fatal },
	{ "tap: bail out line", EH_FORMAT_TAP, "\nBail out! out of <memory>\n", make_fatal },
	{ "junit: fatal error", EH_FORMAT_JUNIT,
	  "<error type=\"run-error\" message=\"out of &lt;memory&gt;\"/>", make_fatal },
	{ "junit: fatal error counted", EH_FORMAT_JUNIT,
	  "<testsuites name=\"errata-harness\" tests=\"2\" failures=\"0\" errors=\"1\"", make_fatal },
	{ "json: fatal error", EH_FORMAT_JSON, "\n  \"error\": \"out of <memory>\",\n", make_fatal },
	{ "json: screened word", EH_FORMAT_JSON,
	  "{\"seq\": 0, \"thread\": 0, \"kind\": \"screened\", \"text\": \"screened\", "
	  "\"pc\": \"0xffff800008010000\", \"value\": \"0x00000000d518c000\"}" },
	{ "json: commit with its counts", EH_FORMAT_JSON,
	  "{\"position\": 2, \"hash\": \"9405447ef79b\", \"subject\": \"arm64: Avoid Cavium TX2 erratum 219 when "
	  "switching TTBR\", \"status\": \"unexpected\", \"cases\": [\"tx2-219-prfm\"], \"outcomes\": 2, "
	  "\"before\": 1, \"before_shown\": 1, \"after\": 1, \"after_absent\": 0, \"unexpected\": 1}" },
};

static void run_writer_row(void **state)
{
	const struct writer_row *row = *state;
	struct eh_result r[2];
	struct eh_results res;
	char *out;

	(row->make ? row->make : make_results)(&res, r, 0.25);
	out = write_report(&res, row->fmt, &row->style);
	if (!strstr(out, row->needle))
		fail_msg("%s: no\n%s\nin\n%s", row->name, row->needle, out);
	free(out);
}

/* Timings are the only thing two runs with one seed may differ in: only JUnit carries them. */
static void test_timings_only_in_junit(void **state)
{
	struct eh_result a[2], b[2];
	struct eh_results ra, rb;
	unsigned fmt;

	(void)state;
	make_results(&ra, a, 0.25);
	make_results(&rb, b, 1.5);
	for (fmt = 0; fmt < EH_FORMAT_COUNT; fmt++) {
		char *x = write_report(&ra, (enum eh_format)fmt, &width80),
		     *y = write_report(&rb, (enum eh_format)fmt, &width80);
		bool equal = !strcmp(x, y);

		if (equal != (fmt != EH_FORMAT_JUNIT))
			fail_msg("%s: reports %s with other timings", eh_format_name((enum eh_format)fmt),
				 equal ? "identical" : "differ");
		free(x);
		free(y);
	}
}

static void test_write_error(void **state)
{
	struct eh_result r[2];
	struct eh_results res;
	struct eh_error err = { 0 };
	unsigned fmt;
	FILE *f;

	(void)state;
	make_results(&res, r, 0.25);
	for (fmt = 0; fmt < EH_FORMAT_COUNT; fmt++) {
		f = fopen("/dev/null", "r");
		assert_non_null(f);
		if (eh_report_write(f, &res, (enum eh_format)fmt, &unlimited, &err) != EH_EIO)
			fail_msg("%s: writing to a read-only stream is not EH_EIO", eh_format_name((enum eh_format)fmt));
		fclose(f);
	}
	f = fopen("/dev/null", "r");
	assert_int_equal(eh_report_write_commits(f, &res, &unlimited, &err), EH_EIO);
	fclose(f);
}

struct format_row {
	const char *name;
	int rc;
	enum eh_format fmt;
};

static const struct format_row format_rows[] = {
	{ "text", 0, EH_FORMAT_TEXT }, { "tap", 0, EH_FORMAT_TAP }, { "junit", 0, EH_FORMAT_JUNIT },
	{ "json", 0, EH_FORMAT_JSON }, { "TAP", EH_EINVAL, 0 }, { "xml", EH_EINVAL, 0 }, { "", EH_EINVAL, 0 },
};

static void run_format_row(void **state)
{
	const struct format_row *row = *state;
	enum eh_format fmt = EH_FORMAT_COUNT;
	int rc = eh_format_parse(row->name, &fmt, NULL);

	if (rc != row->rc || (!rc && fmt != row->fmt))
		fail_msg("'%s': rc %d format %d", row->name, rc, (int)fmt);
}

/* 002 is judged from the two results: before shown 1/1, after absent 0/1; the rest have no outcome here. */
static void test_commit_report(void **state)
{
	struct eh_result r[2];
	struct eh_results res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	make_results(&res, r, 0.25);
	assert_int_equal(eh_report_write_commits(f, &res, &width80, NULL), 0);
	fclose(f);
	if (!strstr(buf, " run --by-commit, seed 42\n") ||
	    !strstr(buf, "\n002 9405447ef79b unexpected     arm64: Avoid Cavium TX2 erratum 219 when swit...\n"
			 "    tx2-219-prfm: bug shown before 1/1, absent after 0/1, 1 unexpected outcome\n") ||
	    !strstr(buf, "\n11 commits: 0 verified"))
		fail_msg("per-commit report:\n%s", buf);
	assert_true(eh_report_commits_fail(&res));
	free(buf);
}

/* ---- the SVG timeline of a real replay -------------------------------------------------------- */

/* The timeline of a case's run on thunderx2; *starts (when not NULL) counts the run's START events. */
static char *case_timeline(const char *id, const char *variant, bool trace_insns, unsigned long fail_alloc,
			   int expect_rc, unsigned *starts)
{
	const struct eh_case *c = eh_case_find(id);
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1, .trace_insns = trace_insns };
	struct eh_case_run *r;
	struct eh_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (eh_case_run(&r, c, eh_case_variant(c, variant), eh_model_find("thunderx2"), &opts, &err))
		fail_msg("%s: %s", variant, err.msg);
	if (starts) {
		const struct eh_trace *tr = eh_machine_trace(r->machine);
		size_t i;

		for (*starts = 0, i = 0; i < tr->n; i++)
			*starts += tr->events[i].kind == EH_EV_START;
	}
	f = open_memstream(&buf, &len);
	eh_alloc_fail_at(fail_alloc);
	if (eh_svg_timeline(f, r, 1, &err) != expect_rc)
		fail_msg("%s: timeline rc %d (%s)", variant, err.code, err.msg);
	eh_alloc_fail_at(0);
	fclose(f);
	eh_case_run_free(r);
	return buf;
}

static char *timeline(const char *variant, bool trace_insns, unsigned long fail_alloc, int expect_rc)
{
	return case_timeline(TX2, variant, trace_insns, fail_alloc, expect_rc, NULL);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* The width of a timeline: it fits a screen (1920 pixels) whatever the run. */
static unsigned svg_width(const char *svg)
{
	const char *w = strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");

	assert_non_null(w);
	return (unsigned)strtoul(w + strlen("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""), NULL, 10);
}

/*
 * From tramp.S: msr tpidrro_el0, bl, mrs, add, bic, msr ttbr1_el1 (column 5),
 * ldr, prfm, msr vbar_el1, add, isb (column 10), ret, then el0_sync's mrs and
 * ret: 14 instructions, a window over columns 5..10. Columns are 18 wide from
 * x = 110, so the window is at x = 200, 6 x 18 = 108 wide; a lane is 84 high,
 * the window 6 less. ThunderX2 is SMT4: thread 0 runs, the abort's victim is
 * drawn idle, the other two threads not at all.
 */
static void test_svg_before(void **state)
{
	char *svg = timeline("before", true, 0, 0);
	char victim[64];
	const char *v;
	unsigned t;

	(void)state;
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(svg, "--variant before --model thunderx2 --seed 1"));
	assert_int_equal(count(svg, "class=\"cell\""), 14 + 8);   /* + the legend's keys */
	assert_non_null(strstr(svg, "<rect x=\"200\" y=\""));
	assert_non_null(strstr(svg, "width=\"108\" height=\"78\" class=\"window\"><title>window     closed by ISB"));
	assert_true(svg_width(svg) <= 1920);
	v = strstr(svg, "spurious Data Abort -&gt; thread ");
	assert_non_null(v);
	t = (unsigned)(v[strlen("spurious Data Abort -&gt; thread ")] - '0');
	assert_true(t >= 1 && t <= 3);
	assert_non_null(strstr(svg, "thread 0</text>"));
	snprintf(victim, sizeof(victim), "thread %u</text>", t);
	assert_non_null(strstr(svg, victim));
	assert_int_equal(count(svg, "class=\"small\">idle: a victim</text>"), 1);
	assert_int_equal(count(svg, "class=\"small\">runs</text>"), 1);
	assert_int_equal(count(svg, "<g class=\"inject"), 1);
	assert_non_null(strstr(svg, "spurious Data Abort -&gt; thread "));
	assert_int_equal(count(svg, "fill=\"#9467bd\""), 1 + 1);   /* the PRFM and its key */
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
}

/* After the fix the PRFM is a NOP on ThunderX2: no prefetch left, the literal load still draws an abort. */
static void test_svg_after(void **state)
{
	char *svg = timeline("after", true, 0, 0);

	(void)state;
	assert_int_equal(count(svg, "class=\"cell\""), 14 + 8);
	assert_int_equal(count(svg, "fill=\"#9467bd\""), 1);
	assert_int_equal(count(svg, "<g class=\"inject"), 1);
	assert_non_null(strstr(svg, ": nop</text>"));
	free(svg);
}

static void test_svg_needs_instructions(void **state)
{
	char *svg = timeline("before", false, 0, EH_EINVAL);

	(void)state;
	assert_int_equal(count(svg, "<svg"), 0);
	free(svg);
}

/* Its one allocation (the column of each event) failing writes nothing. */
static void test_svg_out_of_memory(void **state)
{
	char *svg = timeline("before", true, 1, EH_ENOMEM);

	(void)state;
	assert_string_equal(svg, "");
	free(svg);
}

/* ---- timelines of the engine's own snippets: marks, and runs too long to draw whole --------------- */

static const struct eh_variant engine_variant = { .name = "snippet", .desc = "an engine test snippet" };
static const struct eh_case engine_case = { .id = "engine-tests" };

/* One run of an engine test snippet, wrapped as a case run so that the timeline can draw it. */
static char *engine_timeline(const char *entry, uint64_t budget)
{
	const struct eh_model *model = eh_model_find("thunderx2");
	struct eh_machine_opts mopts = { .seed = 1, .budget = budget, .trace_insns = true };
	const uint64_t ttbr = 0x1000;
	struct eh_case_run *r = eh_alloc(sizeof(*r));
	struct eh_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	uint64_t addr;
	FILE *f;

	assert_non_null(r);
	*r = (struct eh_case_run){ .c = &engine_case, .v = &engine_variant, .model = model, .pass = true };
	snprintf(r->outcome.evidence, sizeof(r->outcome.evidence), "ran %s", entry);
	if (eh_elf_open(&r->elf, EH_TEST_ELF_DIR "/engine-tests.elf", &err) ||
	    eh_image_new(&r->img, r->elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = model }, &err) ||
	    eh_machine_new(&r->machine, model, r->img, &mopts, &err) ||
	    eh_elf_resolve(r->elf, entry, &addr, &err) ||
	    eh_machine_start(r->machine, 0, addr, &ttbr, 1, &err) || eh_machine_run(r->machine, &err))
		fail_msg("%s: %s", entry, err.msg);
	f = open_memstream(&buf, &len);
	if (eh_svg_timeline(f, r, 1, &err))
		fail_msg("%s: %s", entry, err.msg);
	fclose(f);
	eh_case_run_free(r);
	return buf;
}

struct mark_row {
	const char *name;
	const char *entry;
	const char *needle;
	unsigned count;
};

/* From tests/snippets/engine.S; marks carry the event's text as their title, the legend's do not. */
static const struct mark_row mark_rows[] = {
	{ "ERET closing a window", "win_eret", "class=\"small\">eret</text>", 1 },
	{ "ISB before the window of win_exception", "win_exception", "class=\"small\">isb</text>", 1 },
	{ "exception entry of an SVC", "win_exception", "class=\"exc\"><title>exception  SVC", 1 },
	{ "window closed by the exception entry", "win_exception",
	  "class=\"window\"><title>window     closed by exception entry, 1 access inside", 1 },
	{ "EL2's own MSR and MRS of HCR_EL2 are not traps", "el2_roundtrip", "class=\"trap\"><title>", 0 },
	{ "the run's stop", "el2_roundtrip", "class=\"stop\"><title>stop       returned", 1 },
	{ "no abort without erratum-prone accesses", "el2_roundtrip", "<g class=\"inject", 0 },
};

static void run_mark_row(void **state)
{
	const struct mark_row *row = *state;
	char *svg = engine_timeline(row->entry, 0);
	unsigned n = count(svg, row->needle);

	if (n != row->count)
		fail_msg("%s: '%s' %u times in the timeline of %s, expected %u", row->name, row->needle, n,
			 row->entry, row->count);
	free(svg);
}

/* A runaway loop stopped by a 3000-instruction budget: one column, and how often it ran. */
static void test_svg_runaway_folded(void **state)
{
	char *svg = engine_timeline("spin", 3000);

	(void)state;
	assert_int_equal(count(svg, "class=\"cell\""), 1 + 8);
	assert_int_equal(count(svg, "class=\"lbl\""), 1);
	assert_int_equal(count(svg, "class=\"small loopt\">x3000</text>"), 1);
	free(svg);
}

/*
 * tx2-219-tvm after: the guest's MSR TTBR0_EL1 traps (drawn as trapped, with a
 * mark and an arrow to the EL2 handler, and one back from its ERET), EL2 code is
 * shaded, each set-up call and the entry is a labelled step, and only thread 0,
 * which ran, has a lane.
 */
static void test_svg_trap(void **state)
{
	unsigned starts, s;
	char *svg = case_timeline("tx2-219-tvm", "after", true, 0, 0, &starts);
	char label[32];

	(void)state;
	assert_int_equal(count(svg, "class=\"cell trapped\"><title>"), 1);
	assert_non_null(strstr(svg, "msr ttbr0_el1, x0 (trapped to EL2, not performed here)"));
	assert_int_equal(count(svg, "class=\"trap\"><title>EL2 trap"), 1);
	assert_int_equal(count(svg, "marker-end=\"url(#arrow-trap)\"><title>EL2 trap"), 1);
	assert_int_equal(count(svg, "marker-end=\"url(#arrow-back)\"><title>EL2 return"), 1);
	assert_true(count(svg, "class=\"el2\"><title>") >= 1);
	assert_true(count(svg, "class=\"cell el2c\"><title>") >= 1);
	assert_true(starts >= 2);
	assert_int_equal(count(svg, "class=\"step\"/>"), starts - 1 + 1);   /* + the legend's */
	assert_int_equal(count(svg, "class=\"small step\"><title>step "), starts);
	for (s = 1; s <= starts; s++) {
		snprintf(label, sizeof(label), "<title>step %u of %u: ", s, starts);
		if (!strstr(svg, label))
			fail_msg("no label for step %u of %u", s, starts);
	}
	assert_null(strstr(svg, "thread 1</text>"));
	assert_true(svg_width(svg) <= 1920);
	free(svg);
}

/* kcore-offset: a loop over a table of addresses is drawn once, with its count; fewer columns than instructions. */
static void test_svg_loop_over_table(void **state)
{
	char *svg = case_timeline("kcore-offset", "before", true, 0, 0, NULL);
	const char *p;
	unsigned loops = 0;

	(void)state;
	for (p = svg; (p = strstr(p, "class=\"small loopt\">x")); p++) {
		unsigned long passes = strtoul(p + strlen("class=\"small loopt\">x"), NULL, 10);

		assert_true(passes >= 2);
		loops++;
	}
	assert_true(loops >= 1);
	assert_int_equal(count(svg, "class=\"loop\"><title>a loop"), loops);
	assert_true(svg_width(svg) <= 1920);
	free(svg);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(escape_rows) + EH_COUNT(writer_rows) + EH_COUNT(format_rows) +
				EH_COUNT(mark_rows) + 11];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, escape_rows, run_escape_row);
	EH_ADD_TEST(tests, n, test_json_writer);
	EH_ADD_ROWS(tests, n, writer_rows, run_writer_row);
	EH_ADD_TEST(tests, n, test_timings_only_in_junit);
	EH_ADD_TEST(tests, n, test_write_error);
	EH_ADD_ROWS(tests, n, format_rows, run_format_row);
	EH_ADD_TEST(tests, n, test_commit_report);
	EH_ADD_TEST(tests, n, test_svg_before);
	EH_ADD_TEST(tests, n, test_svg_after);
	EH_ADD_TEST(tests, n, test_svg_needs_instructions);
	EH_ADD_TEST(tests, n, test_svg_out_of_memory);
	EH_ADD_ROWS(tests, n, mark_rows, run_mark_row);
	EH_ADD_TEST(tests, n, test_svg_runaway_folded);
	EH_ADD_TEST(tests, n, test_svg_trap);
	EH_ADD_TEST(tests, n, test_svg_loop_over_table);
	return EH_RUN_TESTS("report", tests, n);
}

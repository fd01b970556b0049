/* The run matrix: selection by case, model, variant and commit, --shard partitions, and per-commit judgement. */
#include <string.h>

#include "../../harness/src/util/alloc_fail.h"
#include "eh/run.h"
#include "rows.h"

#define TX2 "tx2-219-prfm"
#define MAX_PICKS 3

/* ---- selection ------------------------------------------------------------------------------ */

struct pick {
	enum eh_select_kind kind;
	const char *name;
};

/*
 * Expected values worked from the tx2-219-prfm table: variants before, after,
 * after-kaslr; an expectation for each of the four models (cortex-a72,
 * thunderx2, thunderx2-nosmt, vulcan, in registry order): 3 x 4 = 12.
 */
struct select_row {
	const char *name;
	struct pick picks[MAX_PICKS];
	int rc;                 /* of the first failing step (eh_selection_add or eh_matrix_select) */
	size_t count;
	const char *first[2], *last[2];   /* variant, model */
};

static const struct select_row select_rows[] = {
	{ .name = "one case: every variant on every model", .picks = { { EH_SELECT_CASE, TX2 } },
	  .count = 12, .first = { "before", "cortex-a72" }, .last = { "after-kaslr", "vulcan" } },
	{ .name = "case and model: one per variant, table order",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_MODEL, "thunderx2" } },
	  .count = 3, .first = { "before", "thunderx2" }, .last = { "after-kaslr", "thunderx2" } },
	{ .name = "case and variant: one per model, registry order",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_VARIANT, "after" } },
	  .count = 4, .first = { "after", "cortex-a72" }, .last = { "after", "vulcan" } },
	{ .name = "two models given out of registry order come in registry order",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_MODEL, "vulcan" }, { EH_SELECT_MODEL, "cortex-a72" } },
	  .count = 6, .first = { "before", "cortex-a72" }, .last = { "after-kaslr", "vulcan" } },
	{ .name = "commit prefix of 7 digits",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_COMMIT, "9405447" } },
	  .count = 12, .first = { "before", "cortex-a72" }, .last = { "after-kaslr", "vulcan" } },
	{ .name = "commit prefix in upper case",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_COMMIT, "9405447EF79B" } }, .count = 12,
	  .first = { "before", "cortex-a72" }, .last = { "after-kaslr", "vulcan" } },
	{ .name = "full 40-digit hash of a 12-digit table hash",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_COMMIT, "9405447ef79bc93101373e130f72e9e6cbf17dbb" } },
	  .count = 12, .first = { "before", "cortex-a72" }, .last = { "after-kaslr", "vulcan" } },
	{ .name = "unknown case", .picks = { { EH_SELECT_CASE, "tx2-219" } }, .rc = EH_ENOENT },
	{ .name = "unknown model", .picks = { { EH_SELECT_MODEL, "thunderx3" } }, .rc = EH_ENOENT },
	{ .name = "unknown variant", .picks = { { EH_SELECT_VARIANT, "during" } }, .rc = EH_ENOENT },
	{ .name = "commit of 3 digits is too short", .picks = { { EH_SELECT_COMMIT, "940" } }, .rc = EH_EINVAL },
	{ .name = "commit with a non-hex digit", .picks = { { EH_SELECT_COMMIT, "9405g47" } }, .rc = EH_EINVAL },
	{ .name = "commit of 41 digits",
	  .picks = { { EH_SELECT_COMMIT, "9405447ef79bc93101373e130f72e9e6cbf17dbb0" } }, .rc = EH_EINVAL },
	{ .name = "commit neither in the series nor in a case", .picks = { { EH_SELECT_COMMIT, "deadbeef" } },
	  .rc = EH_ENOENT },
	/* d3ec3a08fa70 (KVM TVM) is not verified by tx2-219-prfm: without a case the commit is refused,
	 * with one the intersection is empty; both are "nothing to run". */
	{ .name = "case and commit that do not meet",
	  .picks = { { EH_SELECT_CASE, TX2 }, { EH_SELECT_COMMIT, "d3ec3a08fa70" } }, .rc = EH_ENOENT },
};

static void run_select_row(void **state)
{
	const struct select_row *row = *state;
	struct eh_selection sel = { 0 };
	struct eh_error err = { 0 };
	struct eh_scenario *s;
	size_t n;
	unsigned i;
	int rc = 0;

	for (i = 0; i < MAX_PICKS && row->picks[i].name && !rc; i++)
		rc = eh_selection_add(&sel, row->picks[i].kind, row->picks[i].name, &err);
	if (!rc)
		rc = eh_matrix_select(&s, &n, &sel, &err);
	if (rc != row->rc)
		fail_msg("%s: rc %d, expected %d (%s)", row->name, rc, row->rc, err.msg);
	if (rc) {
		if (!err.msg[0])
			fail_msg("%s: failed without a message", row->name);
		return;
	}
	if (n != row->count)
		fail_msg("%s: %zu scenarios, expected %zu", row->name, n, row->count);
	if (strcmp(s[0].v->name, row->first[0]) || strcmp(s[0].model->name, row->first[1]) ||
	    strcmp(s[n - 1].v->name, row->last[0]) || strcmp(s[n - 1].model->name, row->last[1]))
		fail_msg("%s: from %s/%s to %s/%s, expected %s/%s to %s/%s", row->name, s[0].v->name,
			 s[0].model->name, s[n - 1].v->name, s[n - 1].model->name, row->first[0], row->first[1],
			 row->last[0], row->last[1]);
	eh_free(s);
}

/* A commit selects exactly the scenarios of the cases whose tables name it, whatever cases exist. */
static void test_commit_selects_its_cases(void **state)
{
	struct eh_selection all = { 0 }, sel = { 0 };
	struct eh_scenario *s, *a;
	size_t n, na, i, expect = 0;

	(void)state;
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_COMMIT, "9405447ef79b", NULL), 0);
	assert_int_equal(eh_matrix_select(&s, &n, &sel, NULL), 0);
	assert_int_equal(eh_matrix_select(&a, &na, &all, NULL), 0);
	for (i = 0; i < na; i++) {
		const struct eh_commit *k;

		for (k = a[i].c->commits; k->hash; k++)
			if (!strcmp(k->hash, "9405447ef79b"))
				break;
		if (!k->hash)
			continue;
		if (expect >= n || a[i].c != s[expect].c || a[i].v != s[expect].v || a[i].model != s[expect].model)
			fail_msg("scenario %s/%s/%s of a case verifying 9405447ef79b is not selected in order",
				 a[i].c->id, a[i].v->name, a[i].model->name);
		expect++;
	}
	assert_int_equal(n, expect);
	eh_free(s);
	eh_free(a);
}

static void test_too_many_names(void **state)
{
	struct eh_selection sel = { 0 };
	struct eh_error err = { 0 };
	unsigned i;

	(void)state;
	for (i = 0; i < EH_SELECT_MAX; i++)
		assert_int_equal(eh_selection_add(&sel, EH_SELECT_MODEL, "thunderx2", &err), 0);
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_MODEL, "thunderx2", &err), EH_EINVAL);
	assert_non_null(strstr(err.msg, "at most"));
}

/* ---- --shard K/N parsing --------------------------------------------------------------------- */

struct shard_parse_row {
	const char *name;
	const char *arg;
	int rc;
	unsigned k, n;
};

static const struct shard_parse_row shard_parse_rows[] = {
	{ "1/1", "1/1", 0, 1, 1 },
	{ "last of three", "3/3", 0, 3, 3 },
	{ "largest count", "2/100000", 0, 2, 100000 },
	{ "leading zeros are decimal", "010/012", 0, 10, 12 },
	{ "K zero", "0/3", EH_EINVAL, 0, 0 },
	{ "K past N", "4/3", EH_EINVAL, 0, 0 },
	{ "N zero", "1/0", EH_EINVAL, 0, 0 },
	{ "empty", "", EH_EINVAL, 0, 0 },
	{ "no slash", "13", EH_EINVAL, 0, 0 },
	{ "slash only", "/", EH_EINVAL, 0, 0 },
	{ "no N", "1/", EH_EINVAL, 0, 0 },
	{ "no K", "/3", EH_EINVAL, 0, 0 },
	{ "letters", "a/b", EH_EINVAL, 0, 0 },
	{ "trailing garbage", "1/3x", EH_EINVAL, 0, 0 },
	{ "negative", "-1/3", EH_EINVAL, 0, 0 },
	{ "plus sign", "+1/3", EH_EINVAL, 0, 0 },
	{ "leading space", " 1/3", EH_EINVAL, 0, 0 },
	{ "two slashes", "1//3", EH_EINVAL, 0, 0 },
	{ "three parts", "1/2/3", EH_EINVAL, 0, 0 },
	{ "count too large", "1/100001", EH_EINVAL, 0, 0 },
	{ "overflowing digits", "1/99999999999999999999", EH_EINVAL, 0, 0 },
};

static void run_shard_parse_row(void **state)
{
	const struct shard_parse_row *row = *state;
	struct eh_selection sel = { 0 };
	struct eh_error err = { 0 };
	int rc = eh_selection_shard(&sel, row->arg, &err);

	if (rc != row->rc)
		fail_msg("%s: '%s' gave %d, expected %d (%s)", row->name, row->arg, rc, row->rc, err.msg);
	if (!rc && (sel.shard != row->k || sel.nshards != row->n))
		fail_msg("%s: '%s' gave %u/%u", row->name, row->arg, sel.shard, sel.nshards);
	if (rc && (sel.shard || sel.nshards || !strstr(err.msg, row->arg)))
		fail_msg("%s: a refused shard changed the selection or the message does not quote it: %s",
			 row->name, err.msg);
}

/* ---- shard partitions ------------------------------------------------------------------------ */

struct partition_row {
	const char *name;
	unsigned nshards;
};

static const struct partition_row partition_rows[] = {
	{ "N=1", 1 }, { "N=2", 2 }, { "N=3", 3 }, { "N=4", 4 }, { "N=5", 5 },
	{ "N=7", 7 }, { "N=12", 12 }, { "N=13", 13 }, { "N=100", 100 },
};

static bool same(const struct eh_scenario *a, const struct eh_scenario *b)
{
	return a->c == b->c && a->v == b->v && a->model == b->model;
}

/* The shards of the whole matrix are disjoint, cover it, keep its order and differ in size by at most one. */
static void run_partition_row(void **state)
{
	const struct partition_row *row = *state;
	struct eh_selection all = { 0 };
	struct eh_scenario *whole;
	size_t nwhole, i, min = SIZE_MAX, max = 0;
	unsigned k, *seen;

	assert_int_equal(eh_matrix_select(&whole, &nwhole, &all, NULL), 0);
	seen = test_calloc(nwhole, sizeof(*seen));
	for (k = 1; k <= row->nshards; k++) {
		struct eh_selection sel = { .shard = k, .nshards = row->nshards };
		struct eh_scenario *part;
		size_t npart, j, at = 0;

		assert_int_equal(eh_matrix_select(&part, &npart, &sel, NULL), 0);
		for (j = 0; j < npart; j++) {
			/* In order: each scenario is found after the previous one of this shard. */
			while (at < nwhole && !same(&whole[at], &part[j]))
				at++;
			if (at == nwhole)
				fail_msg("%s: shard %u holds %s/%s/%s out of matrix order or not in it", row->name, k,
					 part[j].c->id, part[j].v->name, part[j].model->name);
			if (seen[at]++)
				fail_msg("%s: %s/%s/%s is in two shards", row->name, whole[at].c->id,
					 whole[at].v->name, whole[at].model->name);
		}
		min = npart < min ? npart : min;
		max = npart > max ? npart : max;
		eh_free(part);
	}
	for (i = 0; i < nwhole; i++)
		if (!seen[i])
			fail_msg("%s: %s/%s/%s is in no shard", row->name, whole[i].c->id, whole[i].v->name,
				 whole[i].model->name);
	if (max - min > 1)
		fail_msg("%s: shard sizes range from %zu to %zu", row->name, min, max);
	test_free(seen);
	eh_free(whole);
}

/* Shard k of N takes every N-th scenario from position k-1: for the 12 of tx2-219-prfm and N=5, 3 3 2 2 2. */
static void test_shard_contents(void **state)
{
	static const unsigned sizes[5] = { 3, 3, 2, 2, 2 };
	struct eh_selection sel = { 0 };
	struct eh_scenario *s;
	size_t n;
	unsigned k;

	(void)state;
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, TX2, NULL), 0);
	sel.nshards = 5;
	for (k = 1; k <= 5; k++) {
		sel.shard = k;
		assert_int_equal(eh_matrix_select(&s, &n, &sel, NULL), 0);
		if (n != sizes[k - 1])
			fail_msg("shard %u/5 holds %zu, expected %u", k, n, sizes[k - 1]);
		if (k == 2) {
			/* positions 1, 6, 11 */
			assert_string_equal(s[0].v->name, "before");
			assert_string_equal(s[0].model->name, "thunderx2");
			assert_string_equal(s[1].v->name, "after");
			assert_string_equal(s[1].model->name, "thunderx2-nosmt");
			assert_string_equal(s[2].v->name, "after-kaslr");
			assert_string_equal(s[2].model->name, "vulcan");
		}
		eh_free(s);
	}
	/* More shards than scenarios: the last is empty, which is not an error. */
	sel.nshards = 13;
	sel.shard = 13;
	assert_int_equal(eh_matrix_select(&s, &n, &sel, NULL), 0);
	assert_int_equal(n, 0);
	eh_free(s);
}

/* ---- per-commit judgement -------------------------------------------------------------------- */

enum tweak { AS_EXPECTED, BEFORE_NOT_SHOWN, AFTER_STILL_BUGGY, ONLY_AFTER, NOTHING_RUN };

struct commit_row {
	const char *name;
	enum tweak tweak;
	enum eh_commit_status status;
	unsigned before, before_shown, after, after_absent, unexpected;
};

/* tx2-219-prfm expects the bug on before/thunderx2 and before/vulcan: 2 before, 10 after. */
static const struct commit_row commit_rows[] = {
	{ "every outcome as expected", AS_EXPECTED, EH_COMMIT_VERIFIED, 2, 2, 10, 10, 0 },
	{ "before does not reproduce on one model", BEFORE_NOT_SHOWN, EH_COMMIT_NOT_REPRODUCED, 2, 1, 10, 10, 1 },
	{ "after still shows the bug", AFTER_STILL_BUGGY, EH_COMMIT_UNEXPECTED, 2, 2, 10, 9, 1 },
	{ "only after variants selected", ONLY_AFTER, EH_COMMIT_NOT_RUN, 0, 0, 8, 8, 0 },
	{ "nothing of it run", NOTHING_RUN, EH_COMMIT_NOT_RUN, 0, 0, 0, 0, 0 },
};

static void run_commit_row(void **state)
{
	const struct commit_row *row = *state;
	struct eh_selection sel = { 0 };
	struct eh_result r[12] = { 0 };
	struct eh_results res = { .r = r };
	struct eh_commit_report k;
	struct eh_scenario *s;
	size_t n, i;

	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, TX2, NULL), 0);
	assert_int_equal(eh_matrix_select(&s, &n, &sel, NULL), 0);
	assert_int_equal(n, 12);
	for (i = 0; i < n && row->tweak != NOTHING_RUN; i++) {
		struct eh_result *x = &r[res.n];

		if (row->tweak == ONLY_AFTER && !strcmp(s[i].v->name, "before"))
			continue;
		x->s = s[i];
		x->outcome.verdict = s[i].expected;
		if (row->tweak == BEFORE_NOT_SHOWN && !strcmp(s[i].v->name, "before") &&
		    !strcmp(s[i].model->name, "vulcan"))
			x->outcome.verdict = EH_VERDICT_FIXED;
		if (row->tweak == AFTER_STILL_BUGGY && !strcmp(s[i].v->name, "after") &&
		    !strcmp(s[i].model->name, "thunderx2"))
			x->outcome.verdict = EH_VERDICT_BUG;
		x->pass = x->outcome.verdict == x->s.expected;
		res.n++;
	}
	eh_results_commit(&res, 1, &k);   /* 002 9405447ef79b */
	assert_string_equal(k.commit->hash, "9405447ef79b");
	assert_int_equal(k.position, 2);
	if (k.status != row->status || k.before != row->before || k.before_shown != row->before_shown ||
	    k.after != row->after || k.after_absent != row->after_absent || k.unexpected != row->unexpected)
		fail_msg("%s: %s before %u/%u after %u/%u unexpected %u; expected %s %u/%u %u/%u %u", row->name,
			 eh_commit_status_name(k.status), k.before_shown, k.before, k.after_absent, k.after,
			 k.unexpected, eh_commit_status_name(row->status), row->before_shown, row->before,
			 row->after_absent, row->after, row->unexpected);
	if (eh_commit_status_fails(k.status) != (row->status == EH_COMMIT_NOT_REPRODUCED ||
						  row->status == EH_COMMIT_UNEXPECTED))
		fail_msg("%s: %s should %s the run", row->name, eh_commit_status_name(k.status),
			 eh_commit_status_fails(k.status) ? "not fail" : "fail");
	eh_free(s);
}

/* The series is the eleven seed commits, 12-digit hashes, no two alike. */
static void test_series_table(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; eh_series[i].hash; i++) {
		assert_int_equal(strlen(eh_series[i].hash), 12);
		assert_int_equal(strspn(eh_series[i].hash, "0123456789abcdef"), 12);
		assert_non_null(eh_series[i].subject);
		for (j = 0; j < i; j++)
			assert_string_not_equal(eh_series[i].hash, eh_series[j].hash);
	}
	assert_int_equal(i, 11);
	assert_string_equal(eh_series[0].hash, "d3ec3a08fa70");
	assert_string_equal(eh_series[10].hash, "597399d0cb91");
}

/*
 * keep_events: the results of a matrix run with it hold each scenario's events, each with its
 * text, and the snippet's SHA-256 (the JSON and JUnit reports print them); without, the outcome
 * alone.
 */
static void test_keep_events(void **state)
{
	struct eh_selection sel = { 0 };
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_results *bare = NULL, *kept = NULL;
	size_t i;

	(void)state;
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, TX2, NULL), 0);
	assert_int_equal(eh_run_matrix(&bare, &sel, &opts, NULL, NULL, NULL), 0);
	opts.keep_events = true;
	assert_int_equal(eh_run_matrix(&kept, &sel, &opts, NULL, NULL, NULL), 0);
	assert_int_equal(bare->n, kept->n);
	for (i = 0; i < kept->n; i++) {
		assert_int_equal(bare->r[i].nevents, 0);
		assert_null(bare->r[i].events);
		assert_string_equal(bare->r[i].snippet_sha256, "");
		assert_int_equal(bare->r[i].outcome.verdict, kept->r[i].outcome.verdict);
		assert_string_equal(bare->r[i].outcome.evidence, kept->r[i].outcome.evidence);
		assert_true(kept->r[i].nevents > 0);
		assert_non_null(kept->r[i].events[0].text);
		assert_int_equal(strlen(kept->r[i].snippet_sha256), 64);
	}
	eh_results_free(bare);
	eh_results_free(kept);
}

/*
 * Every allocation of a run, failed in turn, either unwinds with EH_ENOMEM and
 * no results, or is one the engine may do without (a trace that cannot grow
 * drops events and counts them): then the run still completes.
 */
static void test_run_allocation_failures(void **state)
{
	struct eh_selection sel = { 0 };
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1, .keep_events = true };
	struct eh_results *res = NULL;
	struct eh_error err = { 0 };
	unsigned long n, total;
	unsigned failed = 0;
	int rc;

	(void)state;
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_CASE, TX2, NULL), 0);
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_VARIANT, "before", NULL), 0);
	assert_int_equal(eh_selection_add(&sel, EH_SELECT_MODEL, "thunderx2", NULL), 0);
	eh_alloc_fail_at(0);
	assert_int_equal(eh_run_matrix(&res, &sel, &opts, NULL, NULL, &err), 0);
	total = eh_alloc_count();
	eh_results_free(res);
	for (n = 1; n <= total; n++) {
		res = NULL;
		eh_alloc_fail_at(n);
		rc = eh_run_matrix(&res, &sel, &opts, NULL, NULL, &err);
		eh_alloc_fail_at(0);
		if (rc == EH_ENOMEM && !res && strstr(err.msg, "out of memory")) {
			failed++;
			continue;
		}
		if (rc || !res || res->n != 1)
			fail_msg("allocation %lu of %lu failed: rc %d, results %p (%s)", n, total, rc, (void *)res,
				 err.msg);
		eh_results_free(res);
	}
	/* The run's own allocations (scenarios, results, event texts) are among those that must fail it. */
	assert_true(failed >= 3);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(select_rows) + EH_COUNT(shard_parse_rows) + EH_COUNT(partition_rows) +
				EH_COUNT(commit_rows) + 6];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, select_rows, run_select_row);
	EH_ADD_TEST(tests, n, test_commit_selects_its_cases);
	EH_ADD_TEST(tests, n, test_too_many_names);
	EH_ADD_TEST(tests, n, test_keep_events);
	EH_ADD_ROWS(tests, n, shard_parse_rows, run_shard_parse_row);
	EH_ADD_ROWS(tests, n, partition_rows, run_partition_row);
	EH_ADD_TEST(tests, n, test_shard_contents);
	EH_ADD_ROWS(tests, n, commit_rows, run_commit_row);
	EH_ADD_TEST(tests, n, test_series_table);
	EH_ADD_TEST(tests, n, test_run_allocation_failures);
	return EH_RUN_TESTS("matrix", tests, n);
}

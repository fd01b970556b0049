/* The run matrix: selecting and sharding (case, variant, model) scenarios, running them, judging commits. */
#include "eh/run.h"
#include "eh/file.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifndef EH_VERSION
#define EH_VERSION "0.0.0"
#endif

/* git's shortest abbreviation: anything shorter is too likely to be ambiguous. */
#define COMMIT_PREFIX_MIN 4
#define COMMIT_HASH_MAX 40
#define SHARDS_MAX 100000

const char *eh_version(void)
{
	return EH_VERSION;
}

static const char *const kind_names[EH_SELECT_KINDS] = {
	[EH_SELECT_CASE] = "case",
	[EH_SELECT_MODEL] = "model",
	[EH_SELECT_VARIANT] = "variant",
	[EH_SELECT_COMMIT] = "commit",
};

/* Either hash abbreviates the other (a user may give the full 40 digits of a 12-digit table hash). */
static bool hash_matches(const char *hash, const char *prefix)
{
	size_t a = strlen(hash), b = strlen(prefix);

	return !strncasecmp(hash, prefix, a < b ? a : b);
}

static bool case_verifies(const struct eh_case *c, const char *prefix)
{
	const struct eh_commit *k;

	for (k = c->commits; k->hash; k++)
		if (hash_matches(k->hash, prefix))
			return true;
	return false;
}

static bool variant_exists(const char *name)
{
	const struct eh_case *const *c;

	for (c = eh_cases; *c; c++)
		if (eh_case_variant(*c, name))
			return true;
	return false;
}

static int unknown_name(enum eh_select_kind kind, const char *name, struct eh_error *err)
{
	char known[EH_ERROR_MSG_MAX / 2];
	size_t n = 0;

	known[0] = '\0';
	if (kind == EH_SELECT_CASE) {
		const struct eh_case *const *c;

		for (c = eh_cases; *c && n < sizeof(known); c++)
			n += (size_t)snprintf(known + n, sizeof(known) - n, " %s", (*c)->id);
	} else if (kind == EH_SELECT_MODEL) {
		const struct eh_model *const *m;

		for (m = eh_models; *m && n < sizeof(known); m++)
			n += (size_t)snprintf(known + n, sizeof(known) - n, " %s", (*m)->name);
	}
	if (!known[0])
		return eh_error_set(err, EH_ENOENT, "no case has a %s '%s'", kind_names[kind], name);
	return eh_error_set(err, EH_ENOENT, "unknown %s '%s' (known %ss:%s)", kind_names[kind], name,
			     kind_names[kind], known);
}

/*
 * A commit prefix must name exactly one commit, of the series or of a case,
 * and some case must verify it: selecting a commit nothing verifies would
 * give an empty run that looks like success.
 */
static int check_commit(const char *prefix, struct eh_error *err)
{
	const struct eh_commit *found = NULL, *k;
	const struct eh_case *const *c;
	size_t len = strlen(prefix), i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)prefix[i]))
			break;
	if (i < len || len < COMMIT_PREFIX_MIN || len > COMMIT_HASH_MAX)
		return eh_error_set(err, EH_EINVAL, "commit '%s': give %d to %d hexadecimal digits of its hash",
				    prefix, COMMIT_PREFIX_MIN, COMMIT_HASH_MAX);
	for (k = eh_series; k->hash; k++)
		if (hash_matches(k->hash, prefix)) {
			if (found)
				return eh_error_set(err, EH_EINVAL, "commit '%s' is ambiguous: %s and %s",
						    prefix, found->hash, k->hash);
			found = k;
		}
	for (c = eh_cases; *c; c++)
		if (case_verifies(*c, prefix))
			return 0;
	if (found)
		return eh_error_set(err, EH_ENOENT, "commit %s (%s) has no case yet", found->hash,
				    found->subject);
	return eh_error_set(err, EH_ENOENT, "commit '%s' is neither in the series nor verified by a case",
			    prefix);
}

int eh_selection_add(struct eh_selection *sel, enum eh_select_kind kind, const char *name,
		     struct eh_error *err)
{
	bool known;
	int rc;

	if ((unsigned)kind >= EH_SELECT_KINDS)
		return eh_error_set(err, EH_EINVAL, "selection kind %d does not exist", (int)kind);
	if (sel->n[kind] == EH_SELECT_MAX)
		return eh_error_set(err, EH_EINVAL, "too many %s selections (at most %d)", kind_names[kind],
				    EH_SELECT_MAX);
	switch (kind) {
	case EH_SELECT_CASE: known = eh_case_find(name) != NULL; break;
	case EH_SELECT_MODEL: known = eh_model_find(name) != NULL; break;
	case EH_SELECT_VARIANT: known = variant_exists(name); break;
	default:
		rc = check_commit(name, err);
		if (rc)
			return rc;
		known = true;
	}
	if (!known)
		return unknown_name(kind, name, err);
	sel->names[kind][sel->n[kind]++] = name;
	return 0;
}

static int parse_count(const char *s, const char *end, unsigned *out)
{
	unsigned long v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > SHARDS_MAX)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

int eh_selection_shard(struct eh_selection *sel, const char *arg, struct eh_error *err)
{
	const char *slash = strchr(arg, '/');
	unsigned k, n;

	if (!slash || parse_count(arg, slash, &k) || parse_count(slash + 1, slash + strlen(slash), &n))
		return eh_error_set(err, EH_EINVAL, "shard '%s': expected K/N, two decimal numbers up to %d",
				    arg, SHARDS_MAX);
	if (!n || !k || k > n)
		return eh_error_set(err, EH_EINVAL, "shard '%s': K/N needs 1 <= K <= N", arg);
	sel->shard = k;
	sel->nshards = n;
	return 0;
}

static bool listed(const struct eh_selection *sel, enum eh_select_kind kind, const char *name)
{
	unsigned i;

	if (!sel->n[kind])
		return true;
	for (i = 0; i < sel->n[kind]; i++)
		if (!strcmp(sel->names[kind][i], name))
			return true;
	return false;
}

static bool case_selected(const struct eh_selection *sel, const struct eh_case *c)
{
	unsigned i;

	if (!listed(sel, EH_SELECT_CASE, c->id))
		return false;
	if (!sel->n[EH_SELECT_COMMIT])
		return true;
	for (i = 0; i < sel->n[EH_SELECT_COMMIT]; i++)
		if (case_verifies(c, sel->names[EH_SELECT_COMMIT][i]))
			return true;
	return false;
}

/* Walk the selected matrix; store this shard's scenarios in out (if not NULL). Returns the selected count. */
static size_t walk(const struct eh_selection *sel, struct eh_scenario *out, size_t *nout)
{
	const struct eh_case *const *c;
	size_t pos = 0;

	*nout = 0;
	for (c = eh_cases; *c; c++) {
		const struct eh_variant *v;

		if (!case_selected(sel, *c))
			continue;
		for (v = (*c)->variants; v->name; v++) {
			const struct eh_model *const *m;

			if (!listed(sel, EH_SELECT_VARIANT, v->name))
				continue;
			for (m = eh_models; *m; m++) {
				struct eh_scenario s = { .c = *c, .v = v, .model = *m };

				if (!listed(sel, EH_SELECT_MODEL, (*m)->name) ||
				    eh_case_expected(*c, v->name, *m, &s.expected))
					continue;
				if (!sel->nshards || pos % sel->nshards == sel->shard - 1) {
					if (out)
						out[*nout] = s;
					(*nout)++;
				}
				pos++;
			}
		}
	}
	return pos;
}

int eh_matrix_select(struct eh_scenario **out, size_t *n, const struct eh_selection *sel,
		     struct eh_error *err)
{
	struct eh_scenario *s;
	size_t count;

	*out = NULL;
	*n = 0;
	if (sel->nshards && (!sel->shard || sel->shard > sel->nshards))
		return eh_error_set(err, EH_EINVAL, "shard %u/%u: K/N needs 1 <= K <= N", sel->shard,
				    sel->nshards);
	if (!walk(sel, NULL, &count))
		return eh_error_set(err, EH_ENOENT, "the selection matches no (case, variant, model) scenario");
	s = eh_alloc(count * sizeof(*s));
	if (!s)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu scenarios", count);
	walk(sel, s, &count);
	*out = s;
	*n = count;
	return 0;
}

/*
 * eh_result_keep, the snippet's SHA-256 taken from same (a result of the same file) when not
 * NULL; without events (eh_run_opts.keep_events), the outcome alone: no event and no hash.
 */
static int keep(struct eh_result *res, struct eh_case_run *run, const struct eh_result *same, bool events,
		struct eh_error *err)
{
	const struct eh_trace *tr = eh_machine_trace(run->machine);
	char line[1024];
	size_t i;

	res->s = (struct eh_scenario){ .c = run->c, .v = run->v, .model = run->model, .expected = run->expected };
	res->outcome = run->outcome;
	res->pass = run->pass;
	res->seconds = run->seconds;
	res->dropped = tr->dropped;
	res->snippet = eh_strdup(run->elf->path);
	if (!res->snippet)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	if (!events)
		return 0;
	if (same)
		memcpy(res->snippet_sha256, same->snippet_sha256, sizeof(res->snippet_sha256));
	else if (eh_file_sha256(run->elf->path, res->snippet_sha256, err))
		return err ? err->code : EH_EIO;
	if (!tr->n)
		return 0;
	res->events = eh_alloc(tr->n * sizeof(*res->events));
	if (!res->events)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu events", tr->n);
	for (i = 0; i < tr->n; i++) {
		res->events[i].ev = tr->events[i];
		res->events[i].text = eh_strdup(eh_event_format(run->machine, &tr->events[i], line,
								sizeof(line)));
		if (!res->events[i].text)
			return eh_error_set(err, EH_ENOMEM, "out of memory for event %zu", i);
		res->nevents++;
	}
	return 0;
}

int eh_result_keep(struct eh_result *res, struct eh_case_run *run, struct eh_error *err)
{
	return keep(res, run, NULL, true, err);
}

/*
 * The latest of the first n results that loaded path, or NULL: a matrix runs each snippet on many
 * models, and hashing it again for each was a tenth of a matrix's time. The scenarios of a case
 * come together, so the search back ends soon.
 */
static const struct eh_result *same_snippet(const struct eh_result *r, size_t n, const char *path)
{
	while (n--)
		if (r[n].snippet && !strcmp(r[n].snippet, path))
			return &r[n];
	return NULL;
}

void eh_result_release(struct eh_result *res)
{
	size_t i;

	for (i = 0; i < res->nevents; i++)
		eh_free(res->events[i].text);
	eh_free(res->events);
	eh_free(res->snippet);
	res->events = NULL;
	res->snippet = NULL;
	res->nevents = 0;
}

int eh_run_matrix(struct eh_results **out, const struct eh_selection *sel,
		  const struct eh_run_opts *opts, eh_progress_fn *progress, void *ctx,
		  struct eh_error *err)
{
	struct eh_results *res;
	struct eh_scenario *s = NULL;
	struct eh_elf *elf = NULL;  /* the last scenario's object: the models of a variant come together */
	size_t n, i;
	int rc;

	*out = NULL;
	rc = eh_matrix_select(&s, &n, sel, err);
	if (rc)
		return rc;
	res = eh_alloc(sizeof(*res));
	if (res)
		res->r = eh_alloc(n * sizeof(*res->r));
	if (!res || !res->r) {
		rc = eh_error_set(err, EH_ENOMEM, "out of memory for %zu results", n);
		goto fail;
	}
	res->seed = opts->seed;
	res->shard = sel->shard;
	res->nshards = sel->nshards;
	for (i = 0; i < n; i++) {
		struct eh_result *r = &res->r[i];
		struct eh_error run_err = { 0 };
		struct eh_case_run *run;
		char path[4096];

		if (progress)
			progress(&s[i], i, n, ctx);
		r->s = s[i];
		res->n++;
		eh_case_object_path(s[i].c, s[i].v, opts, path, sizeof(path));
		if (elf && strcmp(elf->path, path)) {
			eh_elf_free(elf);
			elf = NULL;
		}
		if (!elf && eh_elf_open(&elf, path, NULL))
			elf = NULL;  /* the run opens it again, and says why it cannot */
		/* A scenario that cannot even start is incomplete too: the others still run. */
		if (eh_case_run_on(&run, s[i].c, s[i].v, s[i].model, opts, elf, &run_err)) {
			r->outcome.verdict = EH_VERDICT_INCOMPLETE;
			snprintf(r->outcome.evidence, sizeof(r->outcome.evidence), "%s", run_err.msg);
		} else {
			rc = keep(r, run, same_snippet(res->r, i, run->elf->path), opts->keep_events, err);
			eh_case_run_free(run);
			if (rc)
				goto fail;
		}
		res->passed += r->pass;
		res->failed += !r->pass;
		res->incomplete += r->outcome.verdict == EH_VERDICT_INCOMPLETE;
	}
	if (progress)
		progress(NULL, n, n, ctx);
	eh_elf_free(elf);
	eh_free(s);
	*out = res;
	return 0;
fail:
	eh_elf_free(elf);
	eh_free(s);
	eh_results_free(res);
	return rc;
}

void eh_results_free(struct eh_results *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->n; i++)
		eh_result_release(&res->r[i]);
	eh_free(res->r);
	eh_free(res);
}

static bool case_expects_bug(const struct eh_case *c)
{
	const struct eh_expect *e;

	for (e = c->expect; e->variant; e++)
		if (e->verdict == EH_VERDICT_BUG)
			return true;
	return false;
}

/*
 * DESIGN.md: a commit is verified when its `before` shows the bug on the
 * affected models and its `after` does not. The expectation tables say which
 * outcomes are meant to show it, so that is what is counted, whatever the
 * variants are called.
 */
void eh_results_commit(const struct eh_results *res, size_t i, struct eh_commit_report *out)
{
	const struct eh_case *const *c;
	size_t j;
	unsigned k;

	*out = (struct eh_commit_report){ .commit = &eh_series[i], .position = (unsigned)i + 1 };
	for (c = eh_cases; *c && out->ncases < EH_COMMIT_CASES_MAX; c++)
		if (case_verifies(*c, out->commit->hash)) {
			out->cases[out->ncases++] = *c;
			out->case_expects_bug |= case_expects_bug(*c);
		}
	for (j = 0; res && j < res->n; j++) {
		const struct eh_result *r = &res->r[j];

		for (k = 0; k < out->ncases && out->cases[k] != r->s.c; k++)
			;
		if (k == out->ncases)
			continue;
		out->outcomes++;
		if (r->s.expected == EH_VERDICT_BUG) {
			out->before++;
			out->before_shown += r->outcome.verdict == EH_VERDICT_BUG;
		} else {
			out->after++;
			/* An incomplete run showed nothing either way. */
			out->after_absent += r->outcome.verdict != EH_VERDICT_BUG &&
					     r->outcome.verdict != EH_VERDICT_INCOMPLETE;
		}
		out->unexpected += !r->pass;
	}
	if (!out->ncases)
		out->status = EH_COMMIT_NO_CASE;
	else if (!out->outcomes)
		out->status = EH_COMMIT_NOT_RUN;
	else if (!out->case_expects_bug || out->before_shown < out->before)
		out->status = EH_COMMIT_NOT_REPRODUCED;
	else if (!out->before)
		out->status = EH_COMMIT_NOT_RUN;
	else if (out->unexpected)
		out->status = EH_COMMIT_UNEXPECTED;
	else
		out->status = EH_COMMIT_VERIFIED;
}

const char *eh_commit_status_name(enum eh_commit_status s)
{
	static const char *const names[EH_COMMIT_STATUS_COUNT] = {
		[EH_COMMIT_VERIFIED] = "verified",
		[EH_COMMIT_NO_CASE] = "no-case",
		[EH_COMMIT_NOT_RUN] = "not-run",
		[EH_COMMIT_NOT_REPRODUCED] = "not-reproduced",
		[EH_COMMIT_UNEXPECTED] = "unexpected",
	};

	return (unsigned)s < EH_COMMIT_STATUS_COUNT ? names[s] : "?";
}

bool eh_commit_status_fails(enum eh_commit_status s)
{
	return s == EH_COMMIT_NOT_REPRODUCED || s == EH_COMMIT_UNEXPECTED;
}

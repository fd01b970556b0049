/* The run matrix: which (case, variant, model) scenarios to run, sharding, and the results reports print. */
#ifndef EH_RUN_H
#define EH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/case.h"
#include "eh/error.h"
#include "eh/machine.h"

#define EH_SELECT_MAX 64
/* The most cases one commit of the series is verified by. */
#define EH_COMMIT_CASES_MAX 8

/* The version of the tool, printed in every report. */
const char *eh_version(void);

/* The seed series, the eleven arm64 fixes of Linux 5.4-rc in the order applied; ends with { 0 }. */
extern const struct eh_commit eh_series[];

enum eh_select_kind {
	EH_SELECT_CASE,
	EH_SELECT_MODEL,
	EH_SELECT_VARIANT,
	EH_SELECT_COMMIT,    /* a prefix of the hash of a commit some case verifies */
	EH_SELECT_KINDS,
};

/* What to run. Empty lists select everything; names are borrowed. */
struct eh_selection {
	const char *names[EH_SELECT_KINDS][EH_SELECT_MAX];
	unsigned n[EH_SELECT_KINDS];
	unsigned shard, nshards;   /* this is shard (1-based) of nshards; 0 of 0 when not sharded */
};

/* Add one name, checked against the tables: an unknown one is EH_ENOENT, a message listing the known ones. */
int eh_selection_add(struct eh_selection *sel, enum eh_select_kind kind, const char *name,
		     struct eh_error *err);
/* Take "K/N" (1 <= K <= N, decimal); anything else is EH_EINVAL. */
int eh_selection_shard(struct eh_selection *sel, const char *arg, struct eh_error *err);

/* One cell of the matrix. */
struct eh_scenario {
	const struct eh_case *c;
	const struct eh_variant *v;
	const struct eh_model *model;
	enum eh_verdict expected;
};

/*
 * The selected scenarios of the selection's shard, in matrix order: cases in
 * series order, then variants in table order, then models in registry order,
 * skipping pairs the case has no expectation for. Shard K of N holds the
 * selected scenarios whose position p (0-based) has p % N == K - 1, so shards
 * are disjoint, cover the selection, and differ in size by at most one.
 * A selection that matches nothing is EH_ENOENT; an empty shard is not an error.
 * *out is freed with eh_free.
 */
int eh_matrix_select(struct eh_scenario **out, size_t *n, const struct eh_selection *sel,
		     struct eh_error *err);

/* An event of a finished run, with its text (eh_event_format) kept after the machine is gone. */
struct eh_result_event {
	struct eh_event ev;
	char *text;
};

struct eh_result {
	struct eh_scenario s;
	struct eh_outcome outcome;
	bool pass;
	double seconds;                  /* wall clock: only JUnit reports it */
	struct eh_result_event *events;  /* (of a matrix: with eh_run_opts.keep_events) */
	size_t nevents;
	size_t dropped;                  /* events past the trace cap */
	char *snippet;                   /* the snippet the run loaded, or NULL if it did not start */
	char snippet_sha256[65];         /* ... the SHA-256 of its contents (kept with the events) */
};

/*
 * Fill res from a finished case run: its scenario, outcome and trace, each event
 * with its text (the run and its image may go afterwards). eh_result_release
 * frees what it holds.
 */
int eh_result_keep(struct eh_result *res, struct eh_case_run *run, struct eh_error *err);
void eh_result_release(struct eh_result *res);

struct eh_results {
	uint64_t seed;
	unsigned shard, nshards;
	struct eh_result *r;
	size_t n;
	unsigned passed, failed;
	unsigned incomplete;             /* of the failed: outcomes that are not verdicts */
	const char *error;               /* a fatal error that ended the run, or NULL (borrowed) */
};

/* Called before each scenario runs (next) and once at the end (next = NULL). */
typedef void eh_progress_fn(const struct eh_scenario *next, size_t done, size_t total, void *ctx);

/* Select and run; a scenario that cannot run (bad input) stops the run with its error. */
int eh_run_matrix(struct eh_results **out, const struct eh_selection *sel,
		  const struct eh_run_opts *opts, eh_progress_fn *progress, void *ctx,
		  struct eh_error *err);
void eh_results_free(struct eh_results *res);

/* What a run says about one commit of the series. */
enum eh_commit_status {
	EH_COMMIT_VERIFIED,        /* the bug showed where expected and every outcome was as expected */
	EH_COMMIT_NO_CASE,         /* no case verifies it yet */
	EH_COMMIT_NOT_RUN,         /* none of its outcomes expected to show the bug was selected */
	EH_COMMIT_NOT_REPRODUCED,  /* the bug did not show where expected, or no outcome expects it */
	EH_COMMIT_UNEXPECTED,      /* the bug showed, but another outcome differs from expectation */
	EH_COMMIT_STATUS_COUNT,
};

struct eh_commit_report {
	const struct eh_commit *commit;
	unsigned position;                /* 1-based, in the series */
	const struct eh_case *cases[EH_COMMIT_CASES_MAX];
	unsigned ncases;
	unsigned outcomes;                /* of those cases in the results */
	unsigned before, before_shown;    /* outcomes expected to show the bug, and those that did */
	unsigned after, after_absent;     /* outcomes expected not to, and those that did not */
	unsigned unexpected;              /* outcomes that differ from expectation */
	bool case_expects_bug;            /* some case table expects the bug somewhere */
	enum eh_commit_status status;
};

/* The report on commit eh_series[i]. */
void eh_results_commit(const struct eh_results *res, size_t i, struct eh_commit_report *out);
const char *eh_commit_status_name(enum eh_commit_status s);
/* Whether a status should fail a run. */
bool eh_commit_status_fails(enum eh_commit_status s);

#endif

/* Scenarios: the declarative case tables of cases/, and running one (variant, model) pair of a case. */
#ifndef EH_CASE_H
#define EH_CASE_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/error.h"
#include "eh/machine.h"
#include "eh/model.h"

/* What a run shows: a verdict of the case's judge, or that there was nothing to judge. */
enum eh_verdict {
	EH_VERDICT_BUG,       /* the bug the fix addresses shows */
	EH_VERDICT_FIXED,     /* it does not, and nothing hazardous remains */
	EH_VERDICT_RESIDUAL,  /* it does not, but a hazard the fix leaves alone remains (reported) */
	EH_VERDICT_BENIGN,    /* the hazard is there but this CPU is not affected */
	/*
	 * Not a verdict: the scenario did not reach an end its case declares (budget
	 * exhausted, a setup step that did not return, an exception it does not expect,
	 * a harness error), or did not do what its judge needs. No expectation names
	 * it, so it never passes.
	 */
	EH_VERDICT_INCOMPLETE,
	EH_VERDICT_COUNT,
};

/* The ways a scenario's entry may end (a set): any other end makes the run incomplete. */
enum eh_end {
	EH_END_RETURN = 1u << 0,  /* it returns to the harness (x30 on entry) */
	EH_END_SYMBOL = 1u << 1,  /* thread 0 reaches the case's end_symbol */
	EH_END_FAULT = 1u << 2,   /* thread 0 stops at an access to unmapped memory (a NULL dereference) */
};

struct eh_case_run;
struct eh_run_opts;

struct eh_commit {
	const char *hash;     /* 12-digit short hash */
	const char *subject;
};

struct eh_variant {
	const char *name;     /* "before", "after", ... */
	const char *desc;
	const char *entry;    /* the symbol thread 0 starts at */
	/* The kernel's .config, as text, when it matters: alternatives are patched for
	 * what that kernel detects. NULL stands for a kernel with every option on. */
	const char *kconfig;
	/* The snippet ELF it runs when not the case's .object: the same sources linked with other flags
	 * (a link:NAME line of the folder's snippet.flags gives <id>-NAME.elf). NULL: the case's. */
	const char *object;
};

/*
 * What runs on thread 0 before a variant's entry: symbols one after the other, each
 * until it returns (the host and hypervisor code that sets the scene). A step that
 * stops otherwise ends the run there.
 */
struct eh_steps {
	const char *variant;
	const char *const *symbols;  /* NULL-terminated */
};

/*
 * Which models an expectation (or a mutant's row) is for: models join cases by
 * what they have, so a new model runs every case it belongs to without an edit.
 * One field is set; none set means every model.
 */
struct eh_models {
	const char *model;       /* this model, by name */
	const char *erratum;     /* the models on which this erratum shows */
	const char *has;         /* the models that have this erratum, shown or not */
	const char *capability;  /* the models where the case's kernel (eh_case_kernel(), booted at EL2, every
	                            option on) detects it */
	bool without;            /* the other models instead */
};

/*
 * Expectations are read in order: a (variant, model) pair takes the verdict of
 * the first row of that variant whose models include it; a model no row of a
 * variant includes does not run it.
 */
struct eh_expect {
	const char *variant;
	struct eh_models who;
	enum eh_verdict verdict;
};

struct eh_outcome {
	enum eh_verdict verdict;
	uint64_t where;       /* incomplete: the address the run stopped at, 0 when none */
	char evidence[1024];  /* what was observed; for incomplete, why */
};

/* The models of a variant a mutant must flip. */
struct eh_row {
	const char *variant;
	struct eh_models who;    /* none set: every model the variant runs on */
};

/*
 * A source-level change to a case's snippet that its judge must see: the snippet
 * is also built with -D<define> (cases/<snippet>/ sources test it with #ifdef),
 * into <cases_dir>/mutants/<snippet>/<define>.elf. A mutant is killed when every
 * row of flips has an outcome other than the expected one. A neutral mutant
 * (flips empty) must survive: it shows the table does not fail for any change.
 */
struct eh_mutant {
	const char *name;              /* kebab-case */
	const char *define;            /* "EH_MUTANT_NO_ALTERNATIVE" */
	const char *why;               /* what the change does and what the judge must notice */
	const struct eh_row *flips;    /* ends with { 0 }; NULL or empty: neutral */
};

struct eh_case {
	const char *id;                       /* kebab-case, the folder under cases/ */
	const struct eh_commit *commits;      /* ends with { 0 } */
	const char *shows;                    /* one sentence */
	const char *object;                   /* the snippet ELF built from the folder */
	/*
	 * The kernel version the snippets follow: the capability numbers their
	 * alternatives name (cases/include/eh_cpucaps*.h) and the rules that decide them.
	 * NULL: 5.4.
	 */
	const char *kernel;
	const struct eh_variant *variants;    /* ends with { 0 } */
	const struct eh_expect *expect;       /* one row per (variant, model); ends with { 0 } */
	const struct eh_steps *steps;         /* optional, by variant (not with run); ends with { 0 } */
	unsigned ends;                        /* enum eh_end: how the entry may end; never 0 */
	const char *end_symbol;               /* with EH_END_SYMBOL */
	const struct eh_mutant *mutants;      /* ends with { 0 } */
	/* Judge a run that reached one of its ends, from what ran (trace, registers, memory). */
	void (*judge)(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out);
	/* Optional: what the case models in C (allocator calls, kernel emulation, AT walks).
	 * Their ctx is the struct eh_case_run. */
	const struct eh_machine_hooks *hooks;
	/*
	 * Optional: drive the machine itself (a sweep over inputs or injected failures)
	 * instead of one run from the variant's entry; it fills r->outcome. When set,
	 * judge is not called.
	 */
	int (*run)(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err);
};

/* Every case, NULL-terminated: generated by CMake from cases/<id>/ in the order of cases/ORDER. */
extern const struct eh_case *const eh_cases[];

struct eh_run_opts {
	const char *cases_dir;   /* where the snippet ELFs are */
	uint64_t seed;
	uint64_t budget;         /* 0: the engine's default */
	bool trace_insns;        /* record every instruction (replay) */
	const struct eh_mutant *mutant;  /* run the snippet built with this mutant of the case */
	bool keep_events;        /* eh_run_matrix: each result keeps its scenario's events, with their
	                            text, and its snippet's SHA-256, for the reports that print them
	                            (eh_format_prints_events); without, results hold the outcome alone */
};

/* One (case, variant, model) run: the machine stays for replay and reports. */
struct eh_case_run {
	const struct eh_case *c;
	const struct eh_variant *v;
	const struct eh_model *model;
	struct eh_outcome outcome;
	enum eh_verdict expected;
	bool pass;
	double seconds;
	struct eh_elf *elf;
	bool elf_borrowed;          /* elf is the caller's (eh_case_run_on), not freed with the run */
	struct eh_kconfig *config;  /* the variant's .config (NULL: every option on); the image borrows it */
	struct eh_image *img;
	struct eh_machine *machine;
	void *priv;              /* the case's own state during the run; freed by the case */
};

const struct eh_case *eh_case_find(const char *id);
const struct eh_variant *eh_case_variant(const struct eh_case *c, const char *name);
/* The kernel version case c's snippets follow (its .kernel, or 5.4). */
const char *eh_case_kernel(const struct eh_case *c);
/* Whether model is one of who, a row of case c. */
bool eh_models_match(const struct eh_case *c, const struct eh_models *who, const struct eh_model *model);
/* "models where tx2-219 shows", "thunderx2", ...: who in words, into buf. */
const char *eh_models_describe(const struct eh_models *who, char *buf, size_t len);
/* The expected verdict of (variant, model), or -ENOENT if the case does not run there. */
int eh_case_expected(const struct eh_case *c, const char *variant, const struct eh_model *model,
		     enum eh_verdict *out);
const char *eh_verdict_name(enum eh_verdict v);

/*
 * Run one (variant, model) pair. A run that could not start (its snippet cannot be
 * read, the pair is not in the case's matrix) is an error. Once it started, what
 * goes wrong (a step or the entry that does not end as declared, an error met while
 * running) makes its outcome EH_VERDICT_INCOMPLETE with the reason, and the call
 * still succeeds, so that the machine stays for replay and reports.
 */
int eh_case_run(struct eh_case_run **out, const struct eh_case *c, const struct eh_variant *v,
		const struct eh_model *model, const struct eh_run_opts *opts, struct eh_error *err);
/*
 * The same on the case's object opened before (eh_case_object_path's for c, v and opts), which
 * the run borrows: a matrix opens each object once for all the models that run it. NULL: open it.
 */
int eh_case_run_on(struct eh_case_run **out, const struct eh_case *c, const struct eh_variant *v,
		   const struct eh_model *model, const struct eh_run_opts *opts, struct eh_elf *elf,
		   struct eh_error *err);
void eh_case_run_free(struct eh_case_run *r);

/*
 * For a case's own run: start thread 0 at symbol sym with x0.. = args and run it
 * until it stops; *res (if res is not NULL) is how it stopped. An end the case
 * does not declare is EH_EINCOMPLETE, with the stop and where in err and
 * r->outcome.where. A sweep calls this once per input set.
 */
int eh_case_call(struct eh_case_run *r, const char *sym, const uint64_t *args, unsigned nargs,
		 const struct eh_thread_result **res, struct eh_error *err);
/*
 * The object file variant v of the case runs (v NULL: the case's own object) for opts, its
 * mutant's when opts->mutant is set, into buf.
 */
const char *eh_case_object_path(const struct eh_case *c, const struct eh_variant *v,
				const struct eh_run_opts *opts, char *buf, size_t len);
/*
 * The verdict of a case whose erratum's behaviour records its hazard
 * (eh_machine_hazard) rather than acting on the machine: bug when the trace holds
 * one and the erratum shows on the run's model, benign when it holds one and does
 * not, fixed when it holds none. The evidence counts them and names the first, with
 * the instruction the behaviour blamed it on besides (the hazard's value, when it is
 * an address of the snippet's code). A case judge checks first that its scenario
 * ran what the hazard is about.
 */
void eh_case_judge_hazards(struct eh_machine *m, const char *erratum, struct eh_outcome *out);
/*
 * The same, once the trace shows that the scenario ran what the hazard is about: an
 * event of kind whose instruction has any of flags. Without one the run is
 * incomplete, its evidence missing ("no TLBI ran").
 */
void eh_case_judge_hazards_after(struct eh_machine *m, const char *erratum, enum eh_event_kind kind, uint32_t flags,
				 const char *missing, struct eh_outcome *out);
/* Append to out->evidence, truncating at its size. */
void eh_outcome_append(struct eh_outcome *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Where a data symbol of the snippet lies (a buffer or pool the run uses), and its size. */
int eh_case_symbol(struct eh_case_run *r, const char *sym, uint64_t *addr, uint64_t *size,
		   struct eh_error *err);

#endif

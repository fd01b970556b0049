/* Every erratum on every model of one kernel ELF: one patched image per distinct capability set, each audited once, its findings matched against the suppressions. */
#ifndef EH_AUDIT_MATRIX_H
#define EH_AUDIT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "eh/audit.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/suppress.h"

/*
 * What one erratum's rule found in one image, matched against the
 * suppressions: sup holds, finding by finding, the suppression that covers it
 * or NULL.
 */
struct eh_audit_tally {
	const struct eh_audit_result *res;
	const struct eh_suppression **sup;
	bool shows;                       /* the erratum shows on one of the image's models */
	size_t flagged;                   /* findings not suppressed (instructions and open paths) */
	size_t inside;                    /* ... of them instructions */
	size_t open;                      /* windows with a path not followed to its close, not suppressed */
	size_t suppressed;
};

/* One patched image and its audit, shared by the models whose capabilities give the same image. */
struct eh_audit_image {
	struct eh_target target;          /* of its first model */
	struct eh_image *img;
	struct eh_audit *au;              /* NULL when the matrix only patches */
	const struct eh_model **models;
	size_t nmodels;
	struct eh_audit_tally *tallies;   /* by the audit's results, as the matrix's errata */
};

/* What the matrix is asked for; everything borrowed for the matrix's life. */
struct eh_audit_matrix_opts {
	const struct eh_elf *elf;
	const struct eh_cpucaps *caps;        /* the numbering (eh_cpucaps_for_elf) */
	const struct eh_kconfig *config;      /* NULL: every option on */
	enum eh_boot boot;
	const struct eh_model *const *models; /* nmodels of them, no repeats */
	size_t nmodels;
	const struct eh_erratum *const *errata;  /* NULL-terminated, each with a rule */
	struct eh_suppressions *sup;          /* NULL: none; ->matched counts what each covers */
	bool patch_only;                      /* patch and group, run no rule (audit --list-alternatives) */
	/*
	 * Run an erratum's rule only on the images of models it affects (report, whose cells of
	 * the others say "not affected" whatever the rule finds): the other tallies are empty.
	 */
	bool affected_only;
	/* NULL, or called with progress_ctx after the images of done of the total models are audited */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *progress_ctx;
};

struct eh_audit_matrix {
	struct eh_audit_matrix_opts o;
	size_t nerrata;
	struct eh_audit_image *images;    /* in the order of their first model */
	size_t nimages;
	size_t *image_of;                 /* by model: index in images */
	struct eh_alt_site *sites;        /* the ELF's alternatives, parsed once: every image's */
	size_t nsites;
	struct eh_image_plan *plan;       /* of the sites: every image's */
};

/* What an erratum is on a model: not one of its parts, one where it does not show (eh_erratum.shows), or one where it shows. */
enum eh_audit_status { EH_AUDIT_NOT_AFFECTED, EH_AUDIT_NOT_EXPOSED, EH_AUDIT_SHOWS };

/* One cell of the matrix: an erratum on a model. */
struct eh_audit_cell {
	const struct eh_audit_tally *t;   /* of the model's image; NULL when the matrix only patches */
	enum eh_audit_status status;
	bool configured_out;              /* affected, and the config leaves the model without the workaround */
	const char *not_in_kernel;        /* affected, and the image's kernel (this version) has no workaround */
	bool failing;                     /* findings not suppressed where the erratum shows, in a kernel with it */
};

/*
 * Patch o->elf for every model, one image for each distinct result (the same
 * code, alternatives and regime: a rule never sees the model), run the errata's
 * rules over each image once and match every finding against the suppressions.
 */
int eh_audit_matrix_new(struct eh_audit_matrix **out, const struct eh_audit_matrix_opts *o, struct eh_error *err);
void eh_audit_matrix_free(struct eh_audit_matrix *m);

enum eh_audit_status eh_audit_status_of(const struct eh_erratum *e, const struct eh_model *model);
/*
 * Whether o's config (NULL: every option on) leaves model without e's workaround: e's Kconfig symbol
 * is off (then *symbol is it), or the model's line of the capability's list is under an option that
 * is (*symbol NULL). symbol may be NULL.
 */
bool eh_audit_configured_out(const struct eh_audit_matrix_opts *o, const struct eh_erratum *e,
			     const struct eh_model *model, const char **symbol);
/* Whether it leaves every model of models[n] that e affects without it (every one, if e affects none). */
bool eh_audit_configured_out_of(const struct eh_audit_matrix_opts *o, const struct eh_erratum *e,
				const struct eh_model *const *models, size_t n, const char **symbol);

/* Erratum (an index in o.errata) on model (an index in o.models). */
struct eh_audit_cell eh_audit_matrix_cell(const struct eh_audit_matrix *m, size_t model, size_t erratum);
/*
 * "clean", "3 findings", "not affected", "not exposed", with ", workaround configured out", into buf;
 * "not in 6.1" where the kernel (6.1) predates the erratum's workaround.
 */
const char *eh_audit_cell_text(const struct eh_audit_cell *c, char *buf, size_t len);
/* The status word of a cell for machines: "findings", "clean", "not affected", "not exposed", "not in kernel". */
const char *eh_audit_cell_status(const struct eh_audit_cell *c);
/* Whether a cell fails: the exit status 1 of audit and report. */
bool eh_audit_matrix_failing(const struct eh_audit_matrix *m);

#endif

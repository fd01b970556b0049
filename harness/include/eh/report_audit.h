/* The audit's and the errata report's writers: one audited build's findings in every format, and two builds compared. */
#ifndef EH_REPORT_AUDIT_H
#define EH_REPORT_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "eh/audit.h"
#include "eh/audit_matrix.h"
#include "eh/cpucaps.h"
#include "eh/error.h"
#include "eh/image.h"
#include "eh/json.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/suppress.h"
#include "eh/text.h"

/*
 * One build's findings, the model every audit and report format reads: the ELF, how
 * it was patched (numbering, config, boot), the models and errata picked and the
 * audit's matrix over them, with the suppressions applied. Everything is borrowed.
 */
struct eh_findings {
	const struct eh_elf *elf;
	const struct eh_cpucaps *caps;          /* the numbering used */
	const struct eh_kconfig *config;        /* NULL: every option on */
	const char *config_source;              /* where config came from, in words */
	enum eh_boot boot;
	const struct eh_model *const *models;   /* in the order picked */
	size_t nmodels;
	const struct eh_erratum *const *errata; /* the matrix's errata, in its order */
	size_t nerrata;
	const struct eh_suppressions *sup;      /* NULL: none */
	const struct eh_audit_matrix *mx;
};

/* The input files as the user named them, for the JSON documents' "inputs" (NULL: not given). */
struct eh_findings_inputs {
	const char *file, *baseline, *cpucaps, *kernel, *config, *suppress;
};

/* How the audit report is written. */
struct eh_audit_report_opts {
	const struct eh_text_style *style;      /* text: width; verbose lists every anchor of a window rule */
	bool list;                              /* --list-alternatives: the sites instead of the rules' findings */
	const struct eh_findings_inputs *inputs;
};

/*
 * The audit of fd to f: text (each image, its rules' findings, then the (erratum, model)
 * matrix when there are several models, then the stale suppressions) or JSON
 * (harness/schema/audit-v1.json). 0, or an error when the decoder cannot be made.
 */
int eh_report_audit(FILE *f, const struct eh_findings *fd, bool json, const struct eh_audit_report_opts *o,
		    struct eh_error *err);
/* The comparison of old and new (one model each) as text or JSON (format errata-harness-audit-baseline). */
void eh_report_audit_diff(FILE *f, const struct eh_findings *old, const struct eh_findings *fd,
			  const struct eh_audit_diff *d, bool json, const struct eh_audit_report_opts *o);

/* The formats of the errata report (errata-harness report). */
enum eh_errata_format {
	EH_ERRATA_TEXT,     /* a summary line per erratum, the hazards by site, the counts */
	EH_ERRATA_JSON,     /* harness/schema/report-v1.json */
	EH_ERRATA_JUNIT,    /* a testsuite per erratum, a testcase per model */
	EH_ERRATA_SARIF,    /* SARIF 2.1.0: a rule per erratum, a result per finding */
	EH_ERRATA_FORMAT_COUNT,
};

/* How the errata report is written. */
struct eh_errata_report_opts {
	const struct eh_text_style *style;      /* text: the width */
	bool all;                               /* text: every row and finding, not only the summary */
	bool colour;                            /* text: SGR colours */
	const struct eh_findings_inputs *inputs;
};

/* Every erratum on every model of fd, in fmt, to f. */
void eh_report_errata(FILE *f, const struct eh_findings *fd, enum eh_errata_format fmt,
		      const struct eh_errata_report_opts *o);

/*
 * The suppressions of fd's errata that matched nothing (stale): as a "stale" array of j,
 * or (j NULL) a paragraph each on f within style's width. Returns how many.
 */
size_t eh_report_stale(const struct eh_findings *fd, struct eh_json *j, FILE *f, const struct eh_text_style *style);
/* Each capability img's alternatives test, once, with the rule that decided it on t, to f. */
void eh_report_cap_decisions(FILE *f, const struct eh_image *img, const struct eh_target *t);

#endif

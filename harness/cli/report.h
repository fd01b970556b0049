/* The report command's state and its writers: text and JSON (cli/cmd_report.c), JUnit and SARIF (cli/report_ci.c). */
#ifndef EH_CLI_REPORT_H
#define EH_CLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "eh/audit_matrix.h"
#include "eh/json.h"
#include "eh/model_from.h"
#include "eh/report_audit.h"
#include "eh/text.h"

/* How many times --model (and --erratum) may be given; each may be a comma list. */
#define REPORT_MAX_OPTIONS 32

struct report_opts {
	const char *file, *cpucaps, *kernel, *config, *boot, *suppress, *output, *model_from;
	const char *format;
	const char *models[REPORT_MAX_OPTIONS];   /* as given: names, comma lists, "all" */
	size_t nmodels;
	const char *errata[REPORT_MAX_OPTIONS];   /* ids, comma lists */
	size_t nerrata;
	struct eh_text_style style;               /* text: --width, else the terminal's or 80 columns */
	bool width_given;
	bool all;                                 /* text: every row and finding (--all, -v) */
};

/* One report: its inputs, the audit's matrix over them, and where it is written. */
struct report {
	const struct report_opts *o;
	struct cli_inputs in;
	struct eh_elf *elf;
	const struct eh_cpucaps *caps;    /* the numbering used (eh_cpucaps_for_elf) */
	struct eh_cpucaps *owned_caps;
	struct eh_suppressions *sup;
	struct cli_config cfg;            /* --config, else the image's own, else every option on */
	struct cli_pick pick;
	struct eh_model_from *from;       /* --model-from */
	struct eh_audit_matrix *mx;
	struct eh_findings fd;            /* what the formats read: the above, once the matrix is built */
	FILE *f;
	bool colour;                      /* text: SGR colours (stdout a terminal, NO_COLOR unset) */
};

/*
 * The models of image g that erratum e (an index in the matrix's errata)
 * affects, into out (room for every model): the models a finding of e in that
 * image applies to (none where the kernel predates e's workaround). *shows: e shows on one of them.
 */
size_t report_affected(const struct report *r, size_t g, size_t e, const struct eh_model **out, bool *shows);
/* The finding's symbol, without its offset ("tramp_map_kernel" of "tramp_map_kernel+0x1c"), into buf. */
const char *report_symbol(const struct eh_finding *f, char *buf, size_t len);
/* The offset of addr's bytes in the ELF file, when a section with contents holds it. */
bool report_file_offset(const struct report *r, uint64_t addr, uint64_t *off);
/* What a finding is, in one line: "ldr x30, [x1]  (load, anchor win+0x0)" or "open: indirect branch, br x1". */
const char *report_finding_text(const struct eh_finding *f, char *buf, size_t len);

/* The names of n models as a JSON array under key. */
void report_json_models(struct eh_json *j, const char *key, const struct eh_model *const *models, size_t n);

void report_write_junit(const struct report *r);
void report_write_sarif(const struct report *r);

#endif

/* What the writers of findings share: the errata report's (report_errata.c: text, JSON; report_sarif.c: SARIF; report_junit.c: JUnit) and the audit's (report_audit.c). */
#ifndef EH_REPORT_ERRATA_INTERNAL_H
#define EH_REPORT_ERRATA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eh/json.h"
#include "eh/report_audit.h"

/* One errata report being written: the findings, where to and how. */
struct eh_errata_out {
	const struct eh_findings *fd;
	FILE *f;
	const struct eh_text_style *style;
	bool all, colour;
	const struct eh_findings_inputs *in;
};

void eh_report__errata_text(const struct eh_errata_out *r);
void eh_report__errata_json(const struct eh_errata_out *r);
void eh_report__errata_junit(const struct eh_errata_out *r);
void eh_report__errata_sarif(const struct eh_errata_out *r);

/*
 * The models of image g that erratum e (an index in the matrix's errata)
 * affects, into out (room for every model): the models a finding of e in that
 * image applies to (none where the kernel predates e's workaround). *shows: e shows on one of them.
 */
size_t eh_report__affected(const struct eh_errata_out *r, size_t g, size_t e, const struct eh_model **out, bool *shows);
/* The finding's symbol, without its offset ("tramp_map_kernel" of "tramp_map_kernel+0x1c"), into buf. */
const char *eh_report__symbol(const struct eh_finding *f, char *buf, size_t len);
/* The offset of addr's bytes in the ELF file, when a section with contents holds it. */
bool eh_report__file_offset(const struct eh_errata_out *r, uint64_t addr, uint64_t *off);
/* What a finding is, in one line: "ldr x30, [x1]  (load, anchor win+0x0)" or "open: indirect branch, br x1". */
const char *eh_report__finding_text(const struct eh_finding *f, char *buf, size_t len);
/*
 * The "inputs" object of a JSON document: every input as the user named it, files with
 * their SHA-256, and the boot mode; the baseline only where there may be one (audit).
 */
void eh_report__json_inputs(struct eh_json *j, const struct eh_findings_inputs *in, enum eh_boot boot, bool baseline);
/* The names of n models as a JSON array under key. */
void eh_report__json_models(struct eh_json *j, const char *key, const struct eh_model *const *models, size_t n);

#endif

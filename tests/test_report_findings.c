/* Tests the report layer's writers of findings: each audit and errata-report format written from one struct eh_findings into a caller's stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/audit_matrix.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/model.h"
#include "eh/report_audit.h"
#include "reports/rows.h"

/*
 * tests/objects/report.o's findings of erratum 219, known by hand (tests/objects/report.S): the
 * load at ttbr_load+0x4 sits in a TTBR0 write's window on ThunderX2, and the PRFM at ttbr_prfm+0x4
 * is a NOP there (the alternative is applied), so it is no finding. Cortex-A72 is not affected: the
 * PRFM stays and both are benign there, which the audit lists and the errata report leaves out.
 */
struct row {
	const char *name;
	bool audit;                      /* eh_report_audit (text, or JSON for EH_ERRATA_JSON), else eh_report_errata */
	enum eh_errata_format fmt;
	const char *has[3];              /* what the document must hold (NULL-terminated) */
	const char *lacks;               /* and must not */
};

static const struct row rows[] = {
	{ "audit text", true, EH_ERRATA_TEXT,
	  { "HAZARD load ttbr_load+0x4", "benign prefetch ttbr_prfm+0x4", NULL }, "HAZARD prefetch" },
	{ "audit json", true, EH_ERRATA_JSON,
	  { "\"erratum\": \"tx2-219\", \"model\": \"thunderx2\", \"image\": 0, \"affected\": true",
	    "\"erratum\": \"tx2-219\", \"model\": \"cortex-a72\", \"image\": 1, \"affected\": false", NULL },
	  "\"hazards\": 2" },
	{ "report text", false, EH_ERRATA_TEXT, { "HAZARD", "ttbr_load+0x4: ldr x3, [x2, #8]", NULL }, "ttbr_prfm+0x4" },
	{ "report json", false, EH_ERRATA_JSON,
	  { "\"format\": \"errata-harness-report\"", "\"where\": \"ttbr_load+0x4\"", NULL }, "ttbr_prfm+0x4" },
	/* Two models: each erratum's testsuite has a testcase for each, and ThunderX2's of 219 fails. */
	{ "report junit", false, EH_ERRATA_JUNIT,
	  { "<testsuite name=\"tx2-219\" tests=\"2\" failures=\"1\"",
	    "<testcase name=\"thunderx2\" classname=\"tx2-219\" time=\"0\">\n      <failure", NULL }, "ttbr_prfm+0x4" },
	{ "report sarif", false, EH_ERRATA_SARIF,
	  { "\"version\": \"2.1.0\"", "\"fullyQualifiedName\": \"ttbr_load+0x4\"", NULL }, "ttbr_prfm+0x4" },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_model *models[] = { eh_model_find("thunderx2"), eh_model_find("cortex-a72") };
	const struct eh_erratum *errata[64];
	const struct eh_erratum *const *e;
	const struct eh_text_style style = { .width = 0 };
	const struct eh_findings_inputs inputs = { .file = EH_TEST_OBJ_DIR "/report.o", .kernel = "6.1" };
	struct eh_audit_matrix_opts mo = { .caps = eh_cpucaps_builtin("6.1"), .models = models, .nmodels = 2,
					   .errata = errata };
	struct eh_audit_matrix *mx = NULL;
	struct eh_error err = { 0 };
	struct eh_elf *elf = NULL;
	struct eh_findings fd;
	char *doc = NULL;
	size_t len = 0, n = 0, i;
	FILE *f;

	for (e = eh_errata; *e; e++)
		if ((*e)->rule && n < EH_COUNT(errata) - 1)
			errata[n++] = *e;
	errata[n] = NULL;
	if (eh_elf_open(&elf, inputs.file, &err))
		fail_msg("%s: %s", r->name, err.msg);
	mo.elf = elf;
	if (eh_audit_matrix_new(&mx, &mo, &err))
		fail_msg("%s: %s", r->name, err.msg);
	fd = (struct eh_findings){ .elf = elf, .caps = mo.caps, .config_source = "every option on",
				   .models = models, .nmodels = 2, .errata = errata, .nerrata = n, .mx = mx };
	f = open_memstream(&doc, &len);
	assert_non_null(f);
	if (r->audit) {
		const struct eh_audit_report_opts o = { .style = &style, .inputs = &inputs };

		if (eh_report_audit(f, &fd, r->fmt == EH_ERRATA_JSON, &o, &err))
			fail_msg("%s: %s", r->name, err.msg);
	} else {
		const struct eh_errata_report_opts o = { .style = &style, .inputs = &inputs };

		eh_report_errata(f, &fd, r->fmt, &o);
	}
	assert_int_equal(fclose(f), 0);
	for (i = 0; r->has[i]; i++)
		if (!strstr(doc, r->has[i]))
			fail_msg("%s: no '%s' in:\n%s", r->name, r->has[i], doc);
	if (strstr(doc, r->lacks))
		fail_msg("%s: '%s' in:\n%s", r->name, r->lacks, doc);
	free(doc);
	eh_audit_matrix_free(mx);
	eh_elf_free(elf);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	return EH_RUN_TESTS("report_findings", tests, n);
}

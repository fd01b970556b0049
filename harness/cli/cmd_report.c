/* errata-harness report: every erratum on every model of one kernel ELF, a view over the audit's matrix, as text, JSON, JUnit or SARIF. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "eh/audit_matrix.h"
#include "eh/json.h"
#include "eh/model_from.h"
#include "eh/report.h"
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
};

static const struct cli_option opt_model_from = { "model-from", 0, "FILE",
	"also (without --model: only) the model of the machine FILE describes, as "
	"models --from reads it" };
static const struct cli_option opt_all = { "all", 0, NULL, "text: every row, not only the summary" };

/* The rows of report's option table. */
enum report_opt {
	REPORT_MODEL = 1,
	REPORT_MODEL_FROM,
	REPORT_ERRATUM,
	REPORT_CPUCAPS,
	REPORT_KERNEL,
	REPORT_CONFIG,
	REPORT_BOOT,
	REPORT_SUPPRESS,
	REPORT_FORMAT,
	REPORT_OUTPUT,
	REPORT_WIDTH,
	REPORT_ALL,
	REPORT_VERBOSE,
};

static const struct cli_use report_uses[] = {
	{ &cli_opt_model, REPORT_MODEL, true,
	  "only these CPU models: NAME,NAME,... or the option repeated (default: all, every model)" },
	{ &opt_model_from, REPORT_MODEL_FROM },
	{ &cli_opt_erratum, REPORT_ERRATUM, true },
	{ &cli_opt_cpucaps, REPORT_CPUCAPS },
	{ &cli_opt_kernel, REPORT_KERNEL, false,
	  "or a built-in capability numbering instead of a header: 5.4, 6.1 or 6.12" },
	{ &cli_opt_config, REPORT_CONFIG, false,
	  "the tree's .config: a capability whose CONFIG_ option is off is never detected, and an "
	  "erratum whose workaround's option is off is reported 'workaround configured out' (default: "
	  "every option on)" },
	{ &cli_opt_boot, REPORT_BOOT },
	{ &cli_opt_suppress, REPORT_SUPPRESS, false,
	  "findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...' (docs/audit.md); a suppressed "
	  "finding is reported with its justification and fails nothing" },
	{ &cli_opt_format, REPORT_FORMAT, false,
	  "text (default), json (harness/schema/report-v1.json), junit (a testcase per erratum and "
	  "model) or sarif (SARIF 2.1.0: a rule per erratum, a result per finding)" },
	{ &cli_opt_output, REPORT_OUTPUT },
	{ &cli_opt_width, REPORT_WIDTH },
	{ &opt_all, REPORT_ALL, false,
	  "text: every (erratum, model) row, not affected ones included, and every finding (benign and "
	  "suppressed ones too), instead of the summary; json, junit and sarif always hold every row" },
	{ &cli_opt_verbose, REPORT_VERBOSE, false, "text: the same as --all" },
	{ &cli_opt_help },
	{ 0 },
};

const struct cli_usage cmd_report_usage = {
	.args = "FILE", .min_args = 1, .max_args = 1,
	.about = "Audits FILE (a vmlinux or kernel object, as audit takes it) for every erratum with a static "
		 "rule on every CPU model: the alternatives patched as the kernel would on each model, one "
		 "patched image shared by the models whose capabilities give the same code, every rule run "
		 "over each image once. Text is a summary: a line per erratum with the models it affects and "
		 "what it is there (hazards N, clean, not exposed: affected, but the erratum does not show "
		 "there; not in V: affected, but kernel version V predates the workaround, list --errata says "
		 "which versions carry each; 'workaround configured out' where --config turns its Kconfig "
		 "option off or leaves the model out of it); then the hazards, erratum by erratum and site by site, each under the models it is one on, by "
		 "symbol+offset with its disassembly (the first few sites of each erratum); then the counts. "
		 "--all adds every (erratum, model) row, not affected ones (not one of the parts the erratum "
		 "lists) included, and every finding. json, junit and sarif always hold every row.",
	.exit_status = "0 no finding on a model its erratum affects, 1 such a finding that no suppression "
		       "covers, 2 bad usage or bad input (the message names the file and the problem).",
	.uses = report_uses,
};

static int add_list(const char **lists, size_t *n, const char *opt, const char *value)
{
	if (*n == REPORT_MAX_OPTIONS)
		return usage_error("report: %s: at most %d of them (each may be a comma list)", opt,
				   REPORT_MAX_OPTIONS);
	lists[(*n)++] = value;
	return 0;
}

static int on_option(void *ctx, int id, const char *value)
{
	struct report_opts *o = ctx;

	switch ((enum report_opt)id) {
	case REPORT_MODEL: return add_list(o->models, &o->nmodels, "--model", value);
	case REPORT_ERRATUM: return add_list(o->errata, &o->nerrata, "--erratum", value);
	case REPORT_MODEL_FROM: o->model_from = value; return 0;
	case REPORT_CPUCAPS: o->cpucaps = value; return 0;
	case REPORT_KERNEL: o->kernel = value; return 0;
	case REPORT_CONFIG: o->config = value; return 0;
	case REPORT_BOOT: o->boot = value; return 0;
	case REPORT_SUPPRESS: o->suppress = value; return 0;
	case REPORT_OUTPUT: o->output = value; return 0;
	case REPORT_FORMAT: o->format = value; return 0;
	case REPORT_WIDTH: o->width_given = true; return cli_parse_width(value, &o->style.width);
	case REPORT_ALL:
	case REPORT_VERBOSE: o->all = true; return 0;
	}
	return 0;
}

/* ---- the command ------------------------------------------------------------------------------ */

/* --format's names, in enum eh_errata_format's order. */
static const char *const formats[EH_ERRATA_FORMAT_COUNT] = {
	[EH_ERRATA_TEXT] = "text", [EH_ERRATA_JSON] = "json", [EH_ERRATA_JUNIT] = "junit", [EH_ERRATA_SARIF] = "sarif",
};

/* How far the audit is, for a person watching stderr: shown once the report has taken a second. */
struct progress {
	struct timespec start;
	bool shown;
};

static void on_progress(void *ctx, size_t done, size_t total)
{
	struct progress *p = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!p->shown && now.tv_sec - p->start.tv_sec + (now.tv_nsec - p->start.tv_nsec) / 1e9 < 1.0)
		return;
	p->shown = true;
	fprintf(stderr, "\rreport: %zu/%zu models audited", done, total);
}

/* Load FILE, number its capabilities, and audit it for every model picked (progress on stderr when a terminal). */
static int report_audit(struct report *r, struct eh_error *err)
{
	struct progress p = { 0 };
	struct eh_audit_matrix_opts mo = {
		.boot = r->in.boot, .models = r->pick.models, .nmodels = r->pick.nmodels, .errata = r->pick.errata,
		.sup = r->sup, .affected_only = true, .progress_ctx = &p,
	};
	int rc;

	if (eh_elf_open(&r->elf, r->o->file, err) ||
	    eh_cpucaps_for_elf(&r->owned_caps, &r->caps, r->elf, r->in.caps, err) ||
	    cli_config_choose(&r->cfg, &r->in, r->o->config, r->elf, err))
		return EXIT_BAD_INPUT;
	mo.elf = r->elf;
	mo.caps = r->caps;
	mo.config = r->cfg.config;
	if (isatty(STDERR_FILENO)) {
		clock_gettime(CLOCK_MONOTONIC, &p.start);
		mo.progress = on_progress;
	}
	rc = eh_audit_matrix_new(&r->mx, &mo, err) ? EXIT_BAD_INPUT : 0;
	if (p.shown)
		fputs("\r\033[K", stderr);  /* the line cleared for what follows */
	return rc;
}

int cmd_report(const struct cli_command *cmd, int argc, char **argv)
{
	static const char *const all[] = { "all" };
	struct report_opts o = { .format = "text" };
	struct report r = { .o = &o };
	struct eh_findings_inputs inputs;
	struct eh_errata_report_opts ro = { .style = &o.style, .inputs = &inputs };
	struct cli_output out = { 0 };
	struct eh_error err = { 0 };
	const char *pos[1];
	unsigned npos;
	size_t fmt;
	int rc = cli_parse(cmd, argc, argv, on_option, &o, pos, &npos);

	if (rc)
		return rc < 0 ? 0 : rc;
	o.file = pos[0];
	inputs = (struct eh_findings_inputs){
		.file = o.file, .cpucaps = o.cpucaps, .kernel = o.kernel, .config = o.config, .suppress = o.suppress,
	};
	ro.all = o.all;
	for (fmt = 0; fmt < EH_ERRATA_FORMAT_COUNT && strcmp(formats[fmt], o.format); fmt++)
		;
	if (fmt == EH_ERRATA_FORMAT_COUNT)
		return usage_error("report: --format: '%s' is none of text, json, junit, sarif", o.format);
	/* --model-from alone audits for that machine only; with --model, for it too. */
	rc = cli_pick(&r.pick, "report", o.nmodels ? o.models : all, o.nmodels ? o.nmodels : !o.model_from, o.errata,
		      o.nerrata);
	if (!rc && o.model_from) {
		if (eh_model_from_path(&r.from, o.model_from, &err))
			rc = cli_error("report", "--model-from: %s", err.msg);
		else
			r.pick.models[r.pick.nmodels++] = eh_model_from_model(r.from);  /* cli_pick leaves room for one */
	}
	if (!rc)
		rc = cli_inputs_open(&r.in, "report", o.cpucaps, o.kernel, o.config, o.boot);
	if (!rc)
		rc = cli_suppress_open(&r.sup, "report", o.suppress);
	if (!rc && (rc = report_audit(&r, &err)))
		fprintf(stderr, "errata-harness report: %s\n", err.msg);
	if (!rc)
		r.fd = (struct eh_findings){
			.elf = r.elf, .caps = r.caps, .config = r.cfg.config, .config_source = r.cfg.source,
			.boot = r.in.boot, .models = r.pick.models, .nmodels = r.pick.nmodels, .errata = r.pick.errata,
			.nerrata = r.pick.nerrata, .sup = r.sup, .mx = r.mx,
		};
	if (!rc)
		rc = cli_open_output(&out, o.output);
	if (!rc) {
		r.f = out.f;
		cli_text_width(&o.style, o.width_given, r.f);
		/* Colour for a person at a terminal, unless NO_COLOR (https://no-color.org) is set and not empty. */
		ro.colour = !o.output && isatty(fileno(r.f)) && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
		eh_report_errata(r.f, &r.fd, (enum eh_errata_format)fmt, &ro);
		rc = cli_close_output(&out);
	}
	if (!rc)
		rc = eh_audit_matrix_failing(r.mx) ? EXIT_UNEXPECTED : 0;
	eh_audit_matrix_free(r.mx);
	eh_kconfig_free(r.cfg.embedded);
	eh_suppress_free(r.sup);
	eh_cpucaps_free(r.owned_caps);
	eh_elf_free(r.elf);
	cli_inputs_close(&r.in);
	cli_pick_free(&r.pick);
	eh_model_from_free(r.from);
	return rc;
}

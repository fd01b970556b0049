/* errata-harness audit: a user's kernel ELF patched for CPU models and every erratum's static rule run over it; harness/src/report/report_audit.c writes it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/audit.h"
#include "eh/audit_matrix.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/json.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/report.h"
#include "eh/report_audit.h"
#include "eh/suppress.h"

/* How many times --model (and --erratum) may be given; each may be a comma list, or all. */
#define AUDIT_MAX_OPTIONS 32

struct audit_opts {
	const char *file, *cpucaps, *kernel, *config, *boot, *baseline, *suppress;
	const char *models[AUDIT_MAX_OPTIONS];  /* as given: names, comma lists, "all" */
	size_t nmodels;
	const char *errata[AUDIT_MAX_OPTIONS];  /* --erratum as given: ids, comma lists */
	size_t nerrata;
	bool json, list;
	struct eh_text_style style;             /* text: --width, else the terminal's or 80 columns */
	bool width_given;
};

struct audit_ctx {
	const struct audit_opts *o;
	const struct cli_inputs *in;
	struct eh_elf *elf;
	const struct eh_cpucaps *caps;    /* the numbering used (eh_cpucaps_for_elf) */
	struct eh_cpucaps *owned_caps;    /* the ELF's own, when it is the one used */
	struct eh_suppressions *sup;
	struct cli_config cfg;            /* the .config the models are patched with */
	struct cli_pick pick;             /* the models and errata audited (borrowed by a baseline's) */
	struct eh_audit_matrix *mx;
};

static const struct cli_option opt_list_alternatives = { "list-alternatives", 0, NULL,
	"list every alternative site instead: symbol+offset, capability, applied "
	"or not and why; a callback with its function and what it did (emulated: "
	"alt_cb_patch_nops, KVM's, Spectre's)" };
static const struct cli_option opt_baseline = { "baseline", 0, "OLD",
	"compare (one model): audit OLD too (same numbering, config, boot) and report "
	"each finding as introduced, removed or unchanged, matched by erratum and "
	"symbol+offset of its anchor and of itself. OLD should be the upstream FILE's "
	"change goes into (docs/audit.md)" };

/* The rows of audit's option table. */
enum audit_opt {
	AUDIT_MODEL = 1,
	AUDIT_ERRATUM,
	AUDIT_CPUCAPS,
	AUDIT_KERNEL,
	AUDIT_CONFIG,
	AUDIT_BOOT,
	AUDIT_SUPPRESS,
	AUDIT_FORMAT,
	AUDIT_LIST_ALTERNATIVES,
	AUDIT_BASELINE,
	AUDIT_WIDTH,
	AUDIT_VERBOSE,
};

static const struct cli_use audit_uses[] = {
	{ &cli_opt_model, AUDIT_MODEL, true,
	  "the CPUs the kernel boots on: NAME,NAME,... or all, or the option repeated (required)" },
	{ &cli_opt_erratum, AUDIT_ERRATUM, true },
	{ &cli_opt_cpucaps, AUDIT_CPUCAPS },
	{ &cli_opt_kernel, AUDIT_KERNEL, false, "or a built-in capability numbering instead of a header "
	  "(the versions are listed below)" },
	{ &cli_opt_config, AUDIT_CONFIG, false, "the tree's .config: a capability whose CONFIG_ option is off "
	  "is never detected (default: every option on)" },
	{ &cli_opt_boot, AUDIT_BOOT },
	{ &cli_opt_suppress, AUDIT_SUPPRESS },
	{ &cli_opt_format, AUDIT_FORMAT, false, "text (default) or json (harness/schema/audit-v1.json)" },
	{ &opt_list_alternatives, AUDIT_LIST_ALTERNATIVES },
	{ &opt_baseline, AUDIT_BASELINE },
	{ &cli_opt_width, AUDIT_WIDTH, false, "text: N columns a line, each item wrapped under itself "
	  "(default: the terminal's, or 80; 0: no limit)" },
	{ &cli_opt_verbose, AUDIT_VERBOSE, false, "text: every anchor of a window rule (a TTBR write, say) with "
	  "the alternatives its window passes and where it closes; without it, only the anchors with a "
	  "finding or an open path, and how many closed cleanly" },
	{ &cli_opt_help },
	{ 0 },
};

/* The registry's lists and the input limits, after the options. */
static void audit_help_tail(FILE *f)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	const char *const *v;
	const struct eh_erratum *const *e;
	char names[4096], lead[64];

	cli_print_input_limits(f, "audit");
	fputs("\nbuilt-in capability numberings (--kernel):", f);
	for (v = eh_cpucaps_builtin_versions; *v; v++)
		fprintf(f, " %s", *v);
	fputs("\n\nerrata with a static rule (--erratum):\n", f);
	for (e = eh_errata; *e; e++)
		if ((*e)->rule) {
			snprintf(lead, sizeof(lead), "  %s", (*e)->id);
			eh_text_hang(f, &style, lead, 22, (*e)->title);
		}
	fputs("\n", f);
	eh_text_hang(f, &style, "models:", 9, cli_known_models(names, sizeof(names)));
}

const struct cli_usage cmd_audit_usage = {
	.args = "FILE", .min_args = 1, .max_args = 1,
	.about = "Applies the kernel's boot-time alternatives to FILE, an AArch64 vmlinux (ET_EXEC/ET_DYN) "
		 "or kernel object (ET_REL, e.g. arch/arm64/kernel/entry.o: its sections are placed at "
		 "kernel-like addresses and its relocations applied), as the kernel would on each CPU model "
		 "(callbacks included), then runs the static rule of every erratum over the patched code. A "
		 "window rule follows the code from each of its anchors (a write of some register) to what "
		 "closes the window (a context synchronisation, say) on every path: through branches (both "
		 "ways at conditional ones), calls (a return stack) and returns to the callers, and reports "
		 "what it finds inside, and every path it cannot follow to a close. A scan rule looks at each "
		 "instruction and its neighbours. A finding is a hazard on the models the erratum affects. "
		 "Models with the same capabilities share one patched image.",
	.exit_status = "0 no finding on a model its erratum affects, 1 a finding (an instruction the rule "
		       "flags, or a window that cannot be followed to its end, named with the reason) on such "
		       "a model, not suppressed (with --baseline: one that OLD does not have), 2 bad usage or "
		       "bad input (the message names the file and the problem)",
	.uses = audit_uses,
	.help_tail = audit_help_tail,
};

static int on_option(void *ctx, int id, const char *value)
{
	struct audit_opts *o = ctx;

	switch ((enum audit_opt)id) {
	case AUDIT_MODEL:
		if (o->nmodels == AUDIT_MAX_OPTIONS)
			return cli_error("audit", "--model: at most %d of them (each may be a comma list)", AUDIT_MAX_OPTIONS);
		o->models[o->nmodels++] = value;
		return 0;
	case AUDIT_ERRATUM:
		if (o->nerrata == AUDIT_MAX_OPTIONS)
			return cli_error("audit", "--erratum: at most %d of them (each may be a comma list)", AUDIT_MAX_OPTIONS);
		o->errata[o->nerrata++] = value;
		return 0;
	case AUDIT_CPUCAPS: o->cpucaps = value; return 0;
	case AUDIT_KERNEL: o->kernel = value; return 0;
	case AUDIT_CONFIG: o->config = value; return 0;
	case AUDIT_BOOT: o->boot = value; return 0;
	case AUDIT_SUPPRESS: o->suppress = value; return 0;
	case AUDIT_LIST_ALTERNATIVES: o->list = true; return 0;
	case AUDIT_BASELINE: o->baseline = value; return 0;
	case AUDIT_VERBOSE: o->style.verbose = true; return 0;
	case AUDIT_WIDTH:
		o->width_given = true;
		return cli_parse_width(value, &o->style.width);
	case AUDIT_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json"))
			return cli_error("audit", "--format: '%s' is neither text nor json", value);
		o->json = !strcmp(value, "json");
		return 0;
	}
	return 0;
}

static int parse_args(const struct cli_command *cmd, int argc, char **argv, struct audit_opts *o)
{
	const char *pos[1];
	unsigned npos;
	int rc = cli_parse(cmd, argc, argv, on_option, o, pos, &npos);

	if (rc)
		return rc;
	o->file = pos[0];
	if (!o->nmodels)
		return cli_error("audit", "--model is required (see errata-harness models)");
	if (o->baseline && o->list)
		return cli_error("audit", "--baseline compares findings; --list-alternatives lists one build's sites");
	if (o->baseline && o->suppress)
		return cli_error("audit", "--baseline compares two builds' findings; --suppress applies to one audit");
	if (o->nerrata && o->list)
		return cli_error("audit", "--list-alternatives runs no erratum's rule; --erratum selects rules");
	return 0;
}

/* Patch FILE for every model, one image per distinct capability set, and audit each. */
static int audit_models(struct audit_ctx *a, struct eh_error *err)
{
	const struct eh_audit_matrix_opts mo = {
		.elf = a->elf, .caps = a->caps, .config = a->cfg.config, .boot = a->in->boot,
		.models = a->pick.models, .nmodels = a->pick.nmodels, .errata = a->pick.errata, .sup = a->sup,
		.patch_only = a->o->list,
	};

	return eh_audit_matrix_new(&a->mx, &mo, err) ? EXIT_BAD_INPUT : 0;
}

static void audit_ctx_free(struct audit_ctx *a)
{
	eh_audit_matrix_free(a->mx);
	eh_kconfig_free(a->cfg.embedded);
	eh_cpucaps_free(a->owned_caps);
	eh_elf_free(a->elf);
}

/* One build: loaded, patched for the models, audited. */
static int open_build(struct audit_ctx *a, const char *path, struct eh_error *err)
{
	if (eh_elf_open(&a->elf, path, err) ||
	    eh_cpucaps_for_elf(&a->owned_caps, &a->caps, a->elf, a->in->caps, err) ||
	    cli_config_choose(&a->cfg, a->in, a->o->config, a->elf, err))
		return EXIT_BAD_INPUT;
	return audit_models(a, err);
}

/* What the report layer reads of a. */
static struct eh_findings findings_of(const struct audit_ctx *a)
{
	return (struct eh_findings){
		.elf = a->elf, .caps = a->caps, .config = a->cfg.config, .config_source = a->cfg.source,
		.boot = a->in->boot, .models = a->pick.models, .nmodels = a->pick.nmodels,
		.errata = a->pick.errata, .nerrata = a->pick.nerrata, .sup = a->sup, .mx = a->mx,
	};
}

static int run_baseline(struct audit_ctx *a, struct audit_ctx *old, const struct eh_audit_report_opts *ro,
			struct eh_error *err)
{
	struct eh_findings fn, fo;
	struct eh_audit_diff *d = NULL;
	size_t i, shared = 0;
	int rc;

	if (a->pick.nmodels != 1)
		return cli_error("audit", "--baseline compares one model at a time");
	old->pick = a->pick;
	rc = open_build(a, a->o->file, err);
	if (!rc)
		rc = open_build(old, a->o->baseline, err);
	if (!rc && eh_audit_diff(&d, old->mx->images[0].au, a->mx->images[0].au, err))
		rc = EXIT_BAD_INPUT;
	if (!rc && eh_elf_shared_functions(a->elf, old->elf, &shared, err))
		rc = EXIT_BAD_INPUT;
	if (rc)
		return rc;
	/* Findings are matched by symbol+offset: with no function in common, nothing can match. */
	if (!shared)
		fprintf(stderr, "errata-harness audit: warning: %s and %s define no function of the same name: "
			"every finding of one is reported missing from the other (OLD should be the build FILE's "
			"change goes into)\n", a->elf->path, old->elf->path);
	fn = findings_of(a);
	fo = findings_of(old);
	eh_report_audit_diff(stdout, &fo, &fn, d, a->o->json, ro);
	for (i = 0; i < d->n; i++)
		if (d->deltas[i].change == EH_AUDIT_INTRODUCED && eh_audit_status_of(d->deltas[i].erratum, a->pick.models[0]) == EH_AUDIT_SHOWS)
			rc = EXIT_UNEXPECTED;
	eh_audit_diff_free(d);
	return rc;
}

int cmd_audit(const struct cli_command *cmd, int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct cli_inputs in = { 0 };
	struct audit_ctx a = { .o = &o, .in = &in }, old = { .o = &o, .in = &in };
	struct eh_error err = { 0 };
	struct eh_findings_inputs inputs;
	struct eh_audit_report_opts ro = { .style = &o.style, .inputs = &inputs };
	struct eh_findings fd;
	int rc = parse_args(cmd, argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	inputs = (struct eh_findings_inputs){
		.file = o.file, .baseline = o.baseline, .cpucaps = o.cpucaps, .kernel = o.kernel, .config = o.config,
		.suppress = o.suppress,
	};
	ro.list = o.list;
	cli_text_width(&o.style, o.width_given, stdout);
	rc = cli_pick(&a.pick, "audit", o.models, o.nmodels, o.errata, o.nerrata);
	if (!rc)
		rc = cli_inputs_open(&in, "audit", o.cpucaps, o.kernel, o.config, o.boot);
	if (!rc)
		rc = cli_suppress_open(&a.sup, "audit", o.suppress);
	if (rc)
		goto out;
	if (o.baseline)
		rc = run_baseline(&a, &old, &ro, &err);
	else if (!(rc = open_build(&a, o.file, &err))) {
		fd = findings_of(&a);
		if (eh_report_audit(stdout, &fd, o.json, &ro, &err))
			rc = EXIT_BAD_INPUT;
		else
			rc = !o.list && eh_audit_matrix_failing(a.mx) ? EXIT_UNEXPECTED : 0;
	}
	if (err.code)
		fprintf(stderr, "errata-harness audit: %s\n", err.msg);
out:
	eh_suppress_free(a.sup);
	audit_ctx_free(&a);
	audit_ctx_free(&old);
	cli_pick_free(&a.pick);
	cli_inputs_close(&in);
	return rc;
}

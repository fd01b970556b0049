/* errata-harness audit: a user's kernel ELF patched for CPU models, every erratum's static rule run over it, as text or JSON. */
#include <inttypes.h>
#include <stdarg.h>
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
#include "eh/insn.h"
#include "eh/json.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/report.h"
#include "eh/rule.h"
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
	struct eh_decoder *dec;
	struct eh_suppressions *sup;
	struct cli_config cfg;            /* the .config the models are patched with */
	struct cli_pick pick;             /* the models and errata audited (borrowed by a baseline's) */
	struct eh_audit_matrix *mx;
};

static const struct cli_use audit_uses[] = {
	{ &cli_options[CLI_OPT_MODEL], true,
	  "the CPUs the kernel boots on: NAME,NAME,... or all, or the option repeated (required)" },
	{ &cli_options[CLI_OPT_ERRATUM], true },
	{ &cli_options[CLI_OPT_CPUCAPS] },
	{ &cli_options[CLI_OPT_KERNEL], false, "or a built-in capability numbering instead of a header "
	  "(the versions are listed below)" },
	{ &cli_options[CLI_OPT_CONFIG], false, "the tree's .config: a capability whose CONFIG_ option is off "
	  "is never detected (default: every option on)" },
	{ &cli_options[CLI_OPT_BOOT] },
	{ &cli_options[CLI_OPT_SUPPRESS] },
	{ &cli_options[CLI_OPT_FORMAT], false, "text (default) or json (harness/schema/audit-v1.json)" },
	{ &cli_options[CLI_OPT_LIST_ALTERNATIVES] },
	{ &cli_options[CLI_OPT_BASELINE] },
	{ &cli_options[CLI_OPT_WIDTH], false, "text: N columns a line, each item wrapped under itself "
	  "(default: the terminal's, or 80; 0: no limit)" },
	{ &cli_options[CLI_OPT_VERBOSE], false, "text: every anchor of a window rule (a TTBR write, say) with "
	  "the alternatives its window passes and where it closes; without it, only the anchors with a "
	  "finding or an open path, and how many closed cleanly" },
	{ &cli_options[CLI_OPT_HELP] },
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

const struct cli_command cli_audit_command = {
	.name = "audit", .args = "FILE", .min_args = 1, .max_args = 1,
	.summary = "the findings of every erratum's static rule in a kernel ELF patched for models",
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

static int on_option(void *ctx, const struct cli_option *opt, const char *value)
{
	struct audit_opts *o = ctx;

	switch (opt->id) {
	case CLI_OPT_MODEL:
		if (o->nmodels == AUDIT_MAX_OPTIONS)
			return cli_error("audit", "--model: at most %d of them (each may be a comma list)", AUDIT_MAX_OPTIONS);
		o->models[o->nmodels++] = value;
		return 0;
	case CLI_OPT_ERRATUM:
		if (o->nerrata == AUDIT_MAX_OPTIONS)
			return cli_error("audit", "--erratum: at most %d of them (each may be a comma list)", AUDIT_MAX_OPTIONS);
		o->errata[o->nerrata++] = value;
		return 0;
	case CLI_OPT_CPUCAPS: o->cpucaps = value; return 0;
	case CLI_OPT_KERNEL: o->kernel = value; return 0;
	case CLI_OPT_CONFIG: o->config = value; return 0;
	case CLI_OPT_BOOT: o->boot = value; return 0;
	case CLI_OPT_SUPPRESS: o->suppress = value; return 0;
	case CLI_OPT_LIST_ALTERNATIVES: o->list = true; return 0;
	case CLI_OPT_BASELINE: o->baseline = value; return 0;
	case CLI_OPT_VERBOSE: o->style.verbose = true; return 0;
	case CLI_OPT_WIDTH:
		o->width_given = true;
		return cli_parse_width(value, &o->style.width);
	case CLI_OPT_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json"))
			return cli_error("audit", "--format: '%s' is neither text nor json", value);
		o->json = !strcmp(value, "json");
		return 0;
	default: return usage_error("audit: --%s is not an option of audit", opt->name);
	}
}

static int parse_args(int argc, char **argv, struct audit_opts *o)
{
	const char *pos[1];
	unsigned npos;
	int rc = cli_parse(&cli_audit_command, argc, argv, on_option, o, pos, &npos);

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

static const char *where(const struct audit_ctx *a, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(a->elf, addr, buf, len);
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

/* "thunderx2" or "thunderx2, vulcan". */
static const char *model_names(const struct eh_audit_image *im, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = 0;
	for (i = 0; i < im->nmodels && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", im->models[i]->name);
	return buf;
}

/* Why a site is or is not patched on this model (o: what img made of s). */
static const char *site_state(const struct eh_alt_site *s, const struct eh_alt_outcome *o)
{
	switch (s->callback ? o->cb_result : EH_ALT_CB_NOT_RUN) {
	case EH_ALT_CB_PATCHED: return "applied by its callback";
	case EH_ALT_CB_KEPT: return "kept by its callback";
	case EH_ALT_CB_UNCERTAIN: return "uncertain: its callback";
	default: break;  /* not run: the capability says why */
	}
	if (o->applied)
		return "applied";
	switch (o->state) {
	case EH_CAP_NOT_DETECTED: return "not applied: not detected on this model";
	case EH_CAP_CONFIGURED_OUT: return "not applied: configured out";
	case EH_CAP_UNKNOWN: return "not applied: no model table detects it";
	default: return "not applied";
	}
}

static const char *cap_name(const struct eh_alt_site *s, char *buf, size_t len)
{
	if (s->cap_name)
		return s->cap_name;
	snprintf(buf, len, "capability %u", s->cap);
	return buf;
}

static const char *cb_name(const struct audit_ctx *a, const struct eh_alt_site *s, char *buf, size_t len)
{
	return s->cb_name ? eh_alt_cb_name(s) : where(a, s->repl, buf, len);
}

static void insn_at(const struct audit_ctx *a, const struct eh_image *img, uint64_t addr, bool patched,
		    struct eh_insn *out)
{
	uint32_t w = 0;
	int rc = patched ? eh_image_word(img, addr, &w) : eh_elf_word(a->elf, addr, &w);

	eh_decoder_decode(a->dec, addr, w, out);
	if (rc)
		snprintf(out->text, sizeof(out->text), "(no contents)");
}

/* A line of the text report built piece by piece, then printed as a paragraph within the width. */
struct line {
	char s[4096];
	size_t n;
};

static void __attribute__((format(printf, 2, 3))) add(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= sizeof(l->s) - 1)
		return;
	va_start(ap, fmt);
	l->n += (size_t)vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (l->n > sizeof(l->s) - 1)
		l->n = sizeof(l->s) - 1;
}

/* Print l at indent (its continuation lines 4 further) and empty it. */
static void put(const struct audit_ctx *a, unsigned indent, struct line *l)
{
	eh_text_para(stdout, &a->o->style, indent, l->s);
	l->n = 0;
	l->s[0] = 0;
}

/* A site: where, capability, what happened; prefix ("passes ") before it, at indent. */
static void print_site_text(const struct audit_ctx *a, const struct eh_image *img, const struct eh_alt_site *s,
			    unsigned indent, const char *prefix)
{
	struct eh_alt_outcome o = eh_image_outcome(img, s);
	char loc[160], cb[160], cn[32];
	struct eh_insn before, after;
	struct line l = { .n = 0 };

	insn_at(a, img, s->orig, false, &before);
	add(&l, "%s%s %s %s", prefix, where(a, s->orig, loc, sizeof(loc)), cap_name(s, cn, sizeof(cn)),
	    site_state(s, &o));
	if (s->callback)
		add(&l, " [callback %s%s%s]", cb_name(a, s, cb, sizeof(cb)), o.cb_why[0] ? ": " : "", o.cb_why);
	if (o.applied) {
		insn_at(a, img, s->orig, true, &after);
		add(&l, ": %s -> %s", before.text, after.text);
	} else {
		add(&l, ": keeps %s", before.text);
	}
	if (s->orig_len > 4)
		add(&l, " (+%u more)", s->orig_len / 4 - 1);
	if (o.state == EH_CAP_CONFIGURED_OUT)
		add(&l, " [%s off]", o.rule->config);
	put(a, indent, &l);
}

static void print_site_json(struct eh_json *j, const char *key, const struct audit_ctx *a,
			    const struct eh_image *img, const struct eh_alt_site *s)
{
	struct eh_alt_outcome o = eh_image_outcome(img, s);
	char loc[160], cn[32], why[1024];
	struct eh_insn before, after;

	insn_at(a, img, s->orig, false, &before);
	insn_at(a, img, s->orig, true, &after);
	eh_json_object(j, key, true);
	eh_json_hex(j, "address", s->orig);
	eh_json_str(j, "where", where(a, s->orig, loc, sizeof(loc)));
	eh_json_uint(j, "length", s->orig_len);
	eh_json_str(j, "capability", cap_name(s, cn, sizeof(cn)));
	eh_json_uint(j, "capability_number", s->cap);
	eh_json_str(j, "callback", s->callback ? cb_name(a, s, loc, sizeof(loc)) : NULL);
	if (s->callback)
		eh_json_str(j, "callback_why", o.cb_why);
	eh_json_bool(j, "applied", o.applied);
	eh_json_str(j, "state", site_state(s, &o));
	/* The capability rule that decided, with what it read on the image's target. */
	eh_json_str(j, "decided_by", o.rule ? eh_cap_explain(o.rule, &img->target, why, sizeof(why)) : NULL);
	eh_json_str(j, "original", before.text);
	eh_json_str(j, "patched", after.text);
	eh_json_end(j);
}

/* How a finding is tagged: suppressed, a hazard (or an open window) where the erratum shows, or neither. */
static const char *finding_tag(const struct eh_audit_tally *r, const struct eh_suppression *s, bool open)
{
	if (s)
		return "SUPPRESSED";
	if (open)
		return r->shows ? "OPEN" : "open";
	return r->shows ? "HAZARD" : "benign";
}

/* "affects thunderx2, vulcan", "does not affect cortex-a72", or "affects thunderx2, does not affect cortex-a72". */
static const char *shown_on(const struct eh_audit_image *im, const struct eh_erratum *e, char *buf, size_t len)
{
	size_t i, at = 0, pass;

	buf[0] = 0;
	for (pass = 0; pass < 2; pass++) {
		size_t n = 0;

		for (i = 0; i < im->nmodels && at < len; i++) {
			if ((eh_audit_status_of(e, im->models[i]) == EH_AUDIT_SHOWS) == pass)
				continue;
			at += (size_t)snprintf(buf + at, len - at, "%s%s", n++ ? ", " : !pass ? "affects " :
					       at ? ", does not affect " : "does not affect ", im->models[i]->name);
		}
	}
	return buf;
}

/* One finding: its tag, kind and place, what it is, its alternative and suppression; a new explanation after it. */
static void print_finding_text(const struct audit_ctx *a, const struct eh_image *img, const struct eh_audit_tally *r,
			       size_t i, const char **explained)
{
	const struct eh_finding *f = &r->res->findings[i];
	const struct eh_suppression *s = r->sup[i];
	struct line l = { .n = 0 };
	char cn[32];

	if (f->open)
		add(&l, "%s at %s: %s", finding_tag(r, s, true), f->where, f->text);
	else
		add(&l, "%s %s %s (0x%016" PRIx64 "): %s", finding_tag(r, s, false), f->kind, f->where, f->addr,
		    f->text);
	if (f->symbol)
		add(&l, " (to %s)", f->symbol);
	if (f->window == SIZE_MAX && f->anchor)
		add(&l, "  [anchor %s]", f->anchor_where);
	if (!f->open && f->site) {
		struct eh_alt_outcome o = eh_image_outcome(img, f->site);

		add(&l, "  [alternative on %s, %s]", cap_name(f->site, cn, sizeof(cn)), site_state(f->site, &o));
	}
	if (s)
		add(&l, "  [%s:%u: %s]", a->sup->path, s->line, s->justification);
	put(a, 4, &l);
	if (!f->open && (!*explained || strcmp(*explained, f->explain)))
		eh_text_paraf(stdout, &a->o->style, 6, "why: %s", *explained = f->explain);
}

/*
 * A window rule's anchors: each with its class, what its window runs through, finds and how it
 * ends; without -v only those with a finding (an open path is one), the others counted.
 */
static void print_windows_text(const struct audit_ctx *a, const struct eh_image *img, const struct eh_audit_tally *r)
{
	const struct eh_audit_result *res = r->res;
	const struct eh_window_rule *rule = res->erratum->rule->window;
	const char *explained = NULL;
	size_t i, j, quiet = 0;
	char loc[160];

	eh_text_paraf(stdout, &a->o->style, 0, "%s: %zu", rule->anchors, res->nwindows);
	for (i = 0; i < res->nwindows; i++) {
		const struct eh_audit_window *w = &res->windows[i];
		size_t k = w->first;

		if (!a->o->style.verbose && !w->nfindings) {
			quiet++;
			continue;
		}

		eh_text_paraf(stdout, &a->o->style, 2, "%s (0x%016" PRIx64 "): %s  [%s%s%s]",
			      where(a, w->anchor, loc, sizeof(loc)), w->anchor, w->text, rule->classes[w->cls].name,
			      w->why ? ": " : "", w->why ? w->why : "");
		for (j = 0; j < w->nsites; j++)
			print_site_text(a, img, w->sites[j], 4, "passes ");
		for (; k < w->first + w->nfindings && !res->findings[k].open; k++)
			print_finding_text(a, img, r, k, &explained);
		for (j = 0; j < w->nends; j++) {
			const struct eh_audit_end *e = &w->ends[j];

			if (e->kind == EH_AUDIT_CLOSED)
				eh_text_paraf(stdout, &a->o->style, 4, "closes at %s: %s", where(a, e->addr, loc, sizeof(loc)),
					      e->text);
			else
				print_finding_text(a, img, r, k++, &explained);
		}
	}
	if (quiet)
		eh_text_paraf(stdout, &a->o->style, 2, "%zu without a finding (-v lists them)",
			      quiet);
	eh_text_paraf(stdout, &a->o->style, 0, "%s by %s:", rule->anchors, rule->classified_by);
	for (i = 0; rule->classes[i].name; i++)
		if (res->nclass[i])
			eh_text_paraf(stdout, &a->o->style, 2, "%-22s %4zu  %s", rule->classes[i].name, res->nclass[i],
				      rule->classes[i].rule);
}

/* What one erratum's rule found in the image, and its summary line. */
static void print_rule_text(const struct audit_ctx *a, const struct eh_audit_image *im, const struct eh_audit_tally *r)
{
	const struct eh_erratum *e = r->res->erratum;
	const struct eh_window_rule *window = e->rule->window;
	const char *explained = NULL;
	struct line l = { .n = 0 };
	char names[512];
	const char *symbol;
	size_t i;

	eh_text_paraf(stdout, &a->o->style, 0, "erratum %s: %s", e->id, e->title);
	if (window)
		print_windows_text(a, im->img, r);
	else
		for (i = 0; i < r->res->nfindings; i++)
			print_finding_text(a, im->img, r, i, &explained);
	add(&l, "summary: ");
	if (window)
		add(&l, "%zu %s, ", r->res->nwindows, window->anchors);
	add(&l, "%zu hazards", r->shows ? r->inside : 0);
	if (!r->shows && r->inside)
		add(&l, " (%zu benign)", r->inside);
	if (window)
		add(&l, ", %zu windows not closed on every path", r->open);
	if (r->suppressed)
		add(&l, ", %zu findings suppressed", r->suppressed);
	add(&l, "; erratum %s %s", e->id, shown_on(im, e, names, sizeof(names)));
	if (eh_audit_configured_out_of(&a->mx->o, e, im->models, im->nmodels, &symbol))
		add(&l, " (workaround configured out: %s)", symbol ? symbol : "the config turns off the lines of the models it affects");
	put(a, 0, &l);
}

static void print_image_text(const struct audit_ctx *a, const struct eh_audit_image *im)
{
	const struct eh_image *img = im->img;
	size_t i;
	char names[512];

	if (im->nmodels == 1)
		eh_text_paraf(stdout, &a->o->style, 0, "audit of %s on %s (%s)", a->elf->path, im->models[0]->name,
			      im->models[0]->desc);
	else
		eh_text_paraf(stdout, &a->o->style, 0, "audit of %s on %s (one patched image)", a->elf->path,
			      model_names(im, names, sizeof(names)));
	eh_text_paraf(stdout, &a->o->style, 2, "capabilities numbered as in %s; config %s; booted at %s%s",
		      img->caps->source, a->cfg.source, eh_boot_names[im->target.boot],
		      eh_target_vhe(&im->target) ? " (VHE)" : "");
	eh_text_paraf(stdout, &a->o->style, 2, "alternatives: %zu sites, %zu applied", img->nsites, eh_image_applied(img));
	if (a->o->list) {
		for (i = 0; i < img->nsites; i++)
			print_site_text(a, img, &img->sites[i], 2, "");
		cli_print_cap_decisions(img, &im->target);
		return;
	}
	for (i = 0; i < im->au->nresults; i++)
		print_rule_text(a, im, &im->tallies[i]);
}

static void print_finding_json(struct eh_json *j, const struct audit_ctx *a, const struct eh_image *img,
			       const struct eh_audit_tally *r, size_t i)
{
	const struct eh_finding *f = &r->res->findings[i];

	eh_json_object(j, NULL, true);
	eh_json_str(j, "erratum", f->erratum->id);
	eh_json_str(j, "kind", f->kind);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "where", f->where);
	eh_json_str(j, "anchor", f->anchor ? f->anchor_where : NULL);
	if (f->anchor)
		eh_json_hex(j, "anchor_address", f->anchor);
	eh_json_str(j, "text", f->text);
	eh_json_str(j, "explanation", f->explain);
	eh_json_str(j, "end", f->open ? eh_audit_end_name(f->end) : NULL);
	eh_json_str(j, "symbol", f->symbol);
	eh_json_str(j, "suppressed", r->sup[i] ? r->sup[i]->justification : NULL);
	if (f->site && !f->open)
		print_site_json(j, "alternative", a, img, f->site);
	else
		eh_json_str(j, "alternative", NULL);
	eh_json_end(j);
}

static void print_windows_json(struct eh_json *j, const struct audit_ctx *a, const struct eh_image *img,
			       const struct eh_audit_result *res)
{
	const struct eh_window_rule *rule = res->erratum->rule->window;
	size_t i, n;
	char loc[160];

	eh_json_str(j, "anchors", rule->anchors);
	eh_json_array(j, "windows", true);
	for (i = 0; i < res->nwindows; i++) {
		const struct eh_audit_window *w = &res->windows[i];

		eh_json_object(j, NULL, true);
		eh_json_hex(j, "address", w->anchor);
		eh_json_str(j, "where", where(a, w->anchor, loc, sizeof(loc)));
		eh_json_str(j, "text", w->text);
		eh_json_str(j, "class", rule->classes[w->cls].name);
		eh_json_bool(j, "opens", rule->classes[w->cls].opens);
		eh_json_str(j, "why", w->why);
		eh_json_uint(j, "instructions", w->ninsns);
		eh_json_uint(j, "findings", w->nfindings);
		eh_json_array(j, "ends", true);
		for (n = 0; n < w->nends; n++) {
			const struct eh_audit_end *e = &w->ends[n];

			eh_json_object(j, NULL, true);
			eh_json_hex(j, "address", e->addr);
			eh_json_str(j, "where", where(a, e->addr, loc, sizeof(loc)));
			eh_json_str(j, "kind", eh_audit_end_name(e->kind));
			eh_json_str(j, "text", e->text);
			eh_json_str(j, "symbol", e->symbol);
			eh_json_end(j);
		}
		eh_json_end(j);
		eh_json_array(j, "alternatives", true);
		for (n = 0; n < w->nsites; n++)
			print_site_json(j, NULL, a, img, w->sites[n]);
		eh_json_end(j);
		eh_json_end(j);
	}
	eh_json_end(j);
	eh_json_array(j, "classes", true);
	for (i = 0; rule->classes[i].name; i++) {
		eh_json_object(j, NULL, true);
		eh_json_str(j, "class", rule->classes[i].name);
		eh_json_uint(j, "anchors", res->nclass[i]);
		eh_json_bool(j, "opens", rule->classes[i].opens);
		eh_json_str(j, "rule", rule->classes[i].rule);
		eh_json_end(j);
	}
	eh_json_end(j);
}

/* What one erratum's rule found in the image: its counts, findings and (a window rule) windows. */
static void print_rule_json(struct eh_json *j, const struct audit_ctx *a, const struct eh_audit_image *im,
			    const struct eh_audit_tally *r)
{
	const struct eh_erratum *e = r->res->erratum;
	size_t i;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "erratum", e->id);
	eh_json_str(j, "title", e->title);
	eh_json_str(j, "rule", e->rule->window ? "window" : "scan");
	eh_json_bool(j, "affected", r->shows);
	eh_json_bool(j, "configured_out", eh_audit_configured_out_of(&a->mx->o, e, im->models, im->nmodels, NULL));
	eh_json_uint(j, "flagged", r->flagged);
	eh_json_uint(j, "hazards", r->shows ? r->inside : 0);
	eh_json_uint(j, "open", r->open);
	eh_json_uint(j, "suppressed", r->suppressed);
	eh_json_array(j, "findings", true);
	for (i = 0; i < r->res->nfindings; i++)
		print_finding_json(j, a, im->img, r, i);
	eh_json_end(j);
	if (e->rule->window)
		print_windows_json(j, a, im->img, r->res);
	eh_json_end(j);
}

/*
 * What a document is (harness/schema/audit-v1.json), the tool that wrote it, its
 * suppression file and every input, files with their SHA-256.
 */
static void print_header_json(struct eh_json *j, const struct audit_ctx *a, const char *format)
{
	eh_report_json_header(j, format, 1);
	eh_json_str(j, "suppress", a->o->suppress);
	eh_json_object(j, "inputs", false);
	eh_report_json_file(j, "file", a->o->file);
	eh_report_json_file(j, "baseline", a->o->baseline);
	eh_report_json_file(j, "cpucaps", a->o->cpucaps);
	eh_json_str(j, "kernel", a->o->kernel);
	eh_report_json_file(j, "config", a->o->config);
	eh_report_json_file(j, "suppress", a->o->suppress);
	eh_json_str(j, "boot", eh_boot_names[a->in->boot]);
	eh_json_end(j);
}

/* The image's object (the document itself when header), left open for the caller to end. */
static void print_image_json(struct eh_json *j, const struct audit_ctx *a, const struct eh_audit_image *im,
			     bool header)
{
	const struct eh_image *img = im->img;
	size_t i, m;

	eh_json_object(j, NULL, true);
	if (header)
		print_header_json(j, a, "errata-harness-audit");
	eh_json_str(j, "file", a->elf->path);
	if (im->nmodels == 1 && a->pick.nmodels == 1) {
		eh_json_str(j, "model", im->models[0]->name);
	} else {
		eh_json_array(j, "models", true);
		for (m = 0; m < im->nmodels; m++)
			eh_json_str(j, NULL, im->models[m]->name);
		eh_json_end(j);
	}
	eh_json_str(j, "cpucaps", img->caps->source);
	eh_json_str(j, "config", a->cfg.config ? a->cfg.source : NULL);
	eh_json_str(j, "boot", eh_boot_names[im->target.boot]);
	eh_json_bool(j, "vhe", eh_target_vhe(&im->target));
	eh_json_uint(j, "alternatives", img->nsites);
	eh_json_uint(j, "applied", eh_image_applied(img));
	if (a->o->list) {
		eh_json_array(j, "sites", true);
		for (i = 0; i < img->nsites; i++)
			print_site_json(j, NULL, a, img, &img->sites[i]);
		eh_json_end(j);
		return;
	}
	eh_json_array(j, "errata", true);
	for (i = 0; i < im->au->nresults; i++)
		print_rule_json(j, a, im, &im->tallies[i]);
	eh_json_end(j);
}

/* The widest of the models' names (and of the errata's ids), at least what the heading needs. */
static int name_widths(const struct audit_ctx *a, int *erratum)
{
	size_t i, w = strlen("model");

	for (i = 0; i < a->pick.nmodels; i++)
		w = strlen(a->pick.models[i]->name) > w ? strlen(a->pick.models[i]->name) : w;
	*erratum = (int)strlen("erratum");
	for (i = 0; i < a->pick.nerrata; i++)
		*erratum = (int)strlen(a->pick.errata[i]->id) > *erratum ? (int)strlen(a->pick.errata[i]->id) : *erratum;
	return (int)w;
}

/* One line per (erratum, model): its image, what the erratum's rule found there and what that means. */
static void print_matrix_text(const struct audit_ctx *a)
{
	int we, wm = name_widths(a, &we);
	size_t i, e;
	char text[64];

	if (a->o->list) {
		printf("%-*s %5s\n", wm, "model", "image");
		for (i = 0; i < a->pick.nmodels; i++)
			printf("%-*s %5zu\n", wm, a->pick.models[i]->name, a->mx->image_of[i] + 1);
		return;
	}
	printf("%-*s  %-*s %5s %8s %10s  %s\n", we, "erratum", wm, "model", "image", "findings", "suppressed", "status");
	for (e = 0; e < a->pick.nerrata; e++)
		for (i = 0; i < a->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(a->mx, i, e);

			eh_text_paraf(stdout, &a->o->style, 0, "%-*s  %-*s %5zu %8zu %10zu  %s", we, c.t->res->erratum->id,
				      wm, a->pick.models[i]->name, a->mx->image_of[i] + 1, c.t->flagged, c.t->suppressed,
				      eh_audit_cell_text(&c, text, sizeof(text)));
		}
}

static void print_matrix_json(struct eh_json *j, const struct audit_ctx *a)
{
	size_t i, e;

	eh_json_array(j, "matrix", true);
	for (e = 0; e < (a->o->list ? 1 : a->pick.nerrata); e++)
		for (i = 0; i < a->pick.nmodels; i++) {
			eh_json_object(j, NULL, true);
			if (!a->o->list) {
				struct eh_audit_cell c = eh_audit_matrix_cell(a->mx, i, e);

				eh_json_str(j, "erratum", c.t->res->erratum->id);
				eh_json_str(j, "model", a->pick.models[i]->name);
				eh_json_uint(j, "image", a->mx->image_of[i]);
				eh_json_bool(j, "affected", c.status != EH_AUDIT_NOT_AFFECTED);
				eh_json_bool(j, "shows", c.status == EH_AUDIT_SHOWS);
				eh_json_bool(j, "configured_out", c.configured_out);
				eh_json_str(j, "status", eh_audit_cell_status(&c));
				eh_json_uint(j, "flagged", c.t->flagged);
				eh_json_uint(j, "hazards", c.status == EH_AUDIT_SHOWS ? c.t->inside : 0);
				eh_json_uint(j, "open", c.t->open);
				eh_json_uint(j, "suppressed", c.t->suppressed);
			} else {
				eh_json_str(j, "model", a->pick.models[i]->name);
				eh_json_uint(j, "image", a->mx->image_of[i]);
			}
			eh_json_end(j);
		}
	eh_json_end(j);
}

static void print_report(struct audit_ctx *a)
{
	struct eh_json j;
	size_t i;

	if (a->o->json) {
		eh_json_begin(&j, stdout);
		if (a->pick.nmodels == 1) {
			/* One model: the image's own object, with the stale suppressions. */
			print_image_json(&j, a, &a->mx->images[0], true);
			cli_print_stale(a->sup, &a->pick, &j, stdout, NULL);
			eh_json_end(&j);
			return;
		}
		eh_json_object(&j, NULL, true);
		print_header_json(&j, a, "errata-harness-audit");
		eh_json_str(&j, "file", a->elf->path);
		eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
		print_matrix_json(&j, a);
		eh_json_array(&j, "images", true);
		for (i = 0; i < a->mx->nimages; i++) {
			print_image_json(&j, a, &a->mx->images[i], false);
			eh_json_end(&j);
		}
		eh_json_end(&j);
		cli_print_stale(a->sup, &a->pick, &j, stdout, NULL);
		eh_json_end(&j);
		return;
	}
	for (i = 0; i < a->mx->nimages; i++) {
		if (a->mx->nimages > 1)
			printf("%s== image %zu ==\n", i ? "\n" : "", i + 1);
		print_image_text(a, &a->mx->images[i]);
	}
	if (a->pick.nmodels > 1) {
		printf("\n");
		print_matrix_text(a);
	}
	cli_print_stale(a->sup, &a->pick, NULL, stdout, &a->o->style);
}

static void audit_ctx_free(struct audit_ctx *a)
{
	eh_audit_matrix_free(a->mx);
	eh_kconfig_free(a->cfg.embedded);
	eh_decoder_free(a->dec);
	eh_cpucaps_free(a->owned_caps);
	eh_elf_free(a->elf);
}

/* One build: loaded, patched for the models, audited. */
static int open_build(struct audit_ctx *a, const char *path, struct eh_error *err)
{
	if (eh_elf_open(&a->elf, path, err) ||
	    eh_cpucaps_for_elf(&a->owned_caps, &a->caps, a->elf, a->in->caps, err) ||
	    cli_config_choose(&a->cfg, a->in, a->o->config, a->elf, err) ||
	    eh_decoder_new(&a->dec, err))
		return EXIT_BAD_INPUT;
	return audit_models(a, err);
}

/* Each audited erratum on the model: "erratum tx2-219 affects thunderx2", joined by "; ". */
static void add_errata_on(struct line *l, const struct audit_ctx *a)
{
	size_t e;

	for (e = 0; e < a->pick.nerrata; e++)
		add(l, "%serratum %s %s %s", e ? "; " : "", a->pick.errata[e]->id,
		    eh_audit_status_of(a->pick.errata[e], a->pick.models[0]) == EH_AUDIT_SHOWS ? "affects" : "does not affect",
		    a->pick.models[0]->name);
}

static void print_diff_text(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	static const char *const tags[] = {
		[EH_AUDIT_INTRODUCED] = "INTRODUCED", [EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};
	const struct eh_model *m = a->pick.models[0];
	struct line l = { .n = 0 };
	size_t i;

	eh_text_paraf(stdout, &a->o->style, 0, "audit of %s against the baseline %s on %s (%s)", a->elf->path,
		      old->elf->path, m->name, m->desc);
	eh_text_paraf(stdout, &a->o->style, 2, "capabilities numbered as in %s; config %s; booted at %s",
		      a->caps->source, a->cfg.source, eh_boot_names[a->in->boot]);
	for (i = 0; i < a->mx->images[0].au->nresults; i++) {
		const struct eh_audit_tally *ro = &old->mx->images[0].tallies[i], *rn = &a->mx->images[0].tallies[i];

		add(&l, "erratum %s: %zu findings in the baseline, %zu in the new build", rn->res->erratum->id,
		    ro->flagged, rn->flagged);
		if (rn->res->erratum->rule->window)
			add(&l, " (%zu and %zu windows not closed on every path)", ro->open, rn->open);
		put(a, 2, &l);
	}
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_delta *f = &d->deltas[i];

		add(&l, "%-10s %s %-8s %s", tags[f->change], f->erratum->id, f->open ? "OPEN" : f->kind, f->where);
		if (f->anchor[0])
			add(&l, " (anchor %s)", f->anchor);
		add(&l, ": %s", f->open ? f->kind : f->text);
		put(a, 2, &l);
	}
	add(&l, "summary: %zu introduced, %zu removed, %zu unchanged from %s to %s; ", d->count[EH_AUDIT_INTRODUCED],
	    d->count[EH_AUDIT_REMOVED], d->count[EH_AUDIT_UNCHANGED], old->elf->path, a->elf->path);
	add_errata_on(&l, a);
	put(a, 0, &l);
}

static void print_diff_json(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	struct eh_json j;
	size_t i;

	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, true);
	print_header_json(&j, a, "errata-harness-audit-baseline");
	eh_json_str(&j, "baseline", old->elf->path);
	eh_json_str(&j, "file", a->elf->path);
	eh_json_str(&j, "model", a->pick.models[0]->name);
	eh_json_str(&j, "cpucaps", a->caps->source);
	eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
	eh_json_array(&j, "errata", true);
	for (i = 0; i < a->pick.nerrata; i++) {
		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "erratum", a->pick.errata[i]->id);
		eh_json_bool(&j, "affected", eh_audit_status_of(a->pick.errata[i], a->pick.models[0]) == EH_AUDIT_SHOWS);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_uint(&j, "introduced", d->count[EH_AUDIT_INTRODUCED]);
	eh_json_uint(&j, "removed", d->count[EH_AUDIT_REMOVED]);
	eh_json_uint(&j, "unchanged", d->count[EH_AUDIT_UNCHANGED]);
	eh_json_array(&j, "findings", true);
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_delta *f = &d->deltas[i];

		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "change", eh_audit_change_name(f->change));
		eh_json_str(&j, "erratum", f->erratum->id);
		eh_json_str(&j, "kind", f->open ? "open" : f->kind);
		eh_json_str(&j, "anchor", f->anchor[0] ? f->anchor : NULL);
		eh_json_str(&j, "where", f->where);
		eh_json_str(&j, "text", f->open ? f->kind : f->text);
		if (f->old_addr)
			eh_json_hex(&j, "old_address", f->old_addr);
		if (f->new_addr)
			eh_json_hex(&j, "new_address", f->new_addr);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_end(&j);
}

static int run_baseline(struct audit_ctx *a, struct audit_ctx *old, struct eh_error *err)
{
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
	if (a->o->json)
		print_diff_json(old, a, d);
	else
		print_diff_text(old, a, d);
	for (i = 0; i < d->n; i++)
		if (d->deltas[i].change == EH_AUDIT_INTRODUCED && eh_audit_status_of(d->deltas[i].erratum, a->pick.models[0]) == EH_AUDIT_SHOWS)
			rc = EXIT_UNEXPECTED;
	eh_audit_diff_free(d);
	return rc;
}

int cli_audit(int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct cli_inputs in = { 0 };
	struct audit_ctx a = { .o = &o, .in = &in }, old = { .o = &o, .in = &in };
	struct eh_error err = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	cli_text_width(&o.style, o.width_given, stdout);
	rc = cli_pick(&a.pick, "audit", o.models, o.nmodels, o.errata, o.nerrata);
	if (!rc)
		rc = cli_inputs_open(&in, "audit", o.cpucaps, o.kernel, o.config, o.boot);
	if (!rc)
		rc = cli_suppress_open(&a.sup, "audit", o.suppress);
	if (rc)
		goto out;
	if (o.baseline)
		rc = run_baseline(&a, &old, &err);
	else if (!(rc = open_build(&a, o.file, &err))) {
		print_report(&a);
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

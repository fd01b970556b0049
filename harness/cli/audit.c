/* errata-harness audit: a user's kernel ELF patched for CPU models, every erratum's static rule run over it, as text or JSON. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/audit.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/json.h"
#include "eh/kconfig.h"
#include "eh/kimage.h"
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
};

/*
 * What one erratum's rule found in one image, matched against the
 * suppressions: sup holds, finding by finding, the suppression that covers it
 * or NULL.
 */
struct audit_rule {
	const struct eh_audit_result *res;
	const struct eh_suppression **sup;
	bool shows;                       /* the erratum shows on one of the image's models */
	size_t flagged;                   /* findings not suppressed (instructions and open paths) */
	size_t inside;                    /* ... of them instructions */
	size_t open;                      /* windows with a path not followed to its close, not suppressed */
	size_t suppressed;
};

/* One patched image and its audit, shared by the models whose capabilities give the same image. */
struct audit_image {
	struct eh_target target;          /* of its first model */
	struct eh_image *img;
	struct eh_audit *au;
	const struct eh_model **models;   /* as many as the registry has */
	size_t nmodels;
	struct audit_rule *rules;         /* by the audit's results */
};

struct audit_ctx {
	const struct audit_opts *o;
	const struct cli_inputs *in;
	struct eh_elf *elf;
	const struct eh_cpucaps *caps;    /* the numbering used (eh_cpucaps_for_elf) */
	struct eh_cpucaps *owned_caps;    /* the ELF's own, when it is the one used */
	struct eh_decoder *dec;
	struct eh_suppressions *sup;
	/* The .config the models are patched with: --config, else the one the image embeds, else NULL. */
	const struct eh_kconfig *config;
	struct eh_kconfig *embedded;      /* the image's own (CONFIG_IKCONFIG), when it is the one used */
	char config_source[600];          /* where it came from, in words */
	/* Sized by the registry (audit_ctx_init): every erratum, every model, an image for each. */
	const struct eh_erratum **errata; /* audited, NULL-terminated */
	size_t nerrata;
	bool *chosen;                     /* by index in eh_errata: named by --erratum */
	struct audit_image *images;
	size_t nimages;
	const struct eh_model **models;
	size_t *image_of;                 /* by model */
	size_t nmodels, max_models;
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

/*
 * Each name of a comma list (or of several) in turn: calls add with it, or
 * fails naming the option when one is empty or too long.
 */
static int each_name(const char *const *lists, size_t n, const char *opt, void *ctx,
		     int (*add)(void *ctx, const char *name))
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = lists[i];

		for (;;) {
			size_t len = strcspn(p, ",");
			char name[64];
			int rc;

			if (!len || len >= sizeof(name)) {
				fprintf(stderr, "errata-harness audit: %s: '%s' is not a list of names\n", opt, lists[i]);
				return EXIT_BAD_INPUT;
			}
			memcpy(name, p, len);
			name[len] = 0;
			rc = add(ctx, name);
			if (rc)
				return rc;
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	return 0;
}

/* Room for every model and erratum of the registry, and an image per model. */
static int audit_ctx_init(struct audit_ctx *a)
{
	const struct eh_model *const *m;
	const struct eh_erratum *const *e;
	size_t nerrata = 0;

	for (m = eh_models; *m; m++)
		a->max_models++;
	for (e = eh_errata; *e; e++)
		nerrata++;
	a->models = eh_alloc((a->max_models + 1) * sizeof(*a->models));
	a->image_of = eh_alloc((a->max_models + 1) * sizeof(*a->image_of));
	a->images = eh_alloc((a->max_models + 1) * sizeof(*a->images));
	a->errata = eh_alloc((nerrata + 1) * sizeof(*a->errata));
	a->chosen = eh_alloc((nerrata + 1) * sizeof(*a->chosen));
	if (!a->models || !a->image_of || !a->images || !a->errata || !a->chosen) {
		fputs("errata-harness audit: out of memory\n", stderr);
		return EXIT_BAD_INPUT;
	}
	return 0;
}

static void add_model(struct audit_ctx *a, const struct eh_model *m)
{
	size_t i;

	for (i = 0; i < a->nmodels; i++)
		if (a->models[i] == m)
			return;
	a->models[a->nmodels++] = m;
}

/* A --model value: a name, or all; duplicates count once. */
static int add_model_name(void *ctx, const char *name)
{
	struct audit_ctx *a = ctx;
	const struct eh_model *const *all;
	const struct eh_model *m;

	if (!strcmp(name, "all")) {
		for (all = eh_models; *all; all++)
			add_model(a, *all);
		return 0;
	}
	m = eh_model_find(name);
	if (!m)
		return cli_error("audit", "unknown model '%s' (see errata-harness models)", name);
	add_model(a, m);
	return 0;
}

/* An --erratum value: an erratum with a static rule. */
static int add_erratum_id(void *ctx, const char *id)
{
	struct audit_ctx *a = ctx;
	size_t i;

	for (i = 0; eh_errata[i] && strcmp(eh_errata[i]->id, id); i++)
		;
	if (!eh_errata[i])
		return cli_error("audit", "unknown erratum '%s' (see audit --help)", id);
	if (!eh_errata[i]->rule)
		return cli_error("audit", "erratum %s has no static rule to audit with (see audit --help)", id);
	a->chosen[i] = true;
	return 0;
}

/* The models and errata the options name; the errata in the table's order, every one with a rule by default. */
static int resolve_names(struct audit_ctx *a)
{
	size_t i;
	int rc = each_name(a->o->models, a->o->nmodels, "--model", a, add_model_name);

	if (!rc)
		rc = each_name(a->o->errata, a->o->nerrata, "--erratum", a, add_erratum_id);
	for (i = 0; !rc && eh_errata[i]; i++)
		if (eh_errata[i]->rule && (!a->o->nerrata || a->chosen[i]))
			a->errata[a->nerrata++] = eh_errata[i];
	a->errata[a->nerrata] = NULL;
	return rc;
}

/* Every erratum's id, NULL-terminated, for checking a suppression file; NULL when out of memory. */
static const char **known_errata(void)
{
	const struct eh_erratum *const *e;
	const char **ids;
	size_t n = 0;

	for (e = eh_errata; *e; e++)
		n++;
	ids = eh_alloc((n + 1) * sizeof(*ids));
	for (n = 0; ids && eh_errata[n]; n++)
		ids[n] = eh_errata[n]->id;
	return ids;
}

/* Two images are one when every section, every site's outcome and where the code runs agree. */
static bool same_image(const struct eh_image *x, const struct eh_image *y)
{
	const struct eh_elf *elf = x->elf;
	size_t i;

	if (eh_target_vhe(&x->target) != eh_target_vhe(&y->target))
		return false;
	for (i = 0; i < x->nsites; i++)
		if (x->sites[i].applied != y->sites[i].applied || x->sites[i].cb_result != y->sites[i].cb_result)
			return false;
	for (i = 0; i < elf->nsections; i++)
		if (x->data[i] && memcmp(x->data[i], y->data[i], elf->sections[i].size))
			return false;
	return true;
}

static const char *where(const struct audit_ctx *a, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(a->elf, addr, buf, len);
}

/* What an erratum is on a model: not affected, affected but not shown there (eh_erratum.shows), or shown. */
enum audit_status { NOT_AFFECTED, NOT_EXPOSED, SHOWS };

static enum audit_status status_of(const struct eh_erratum *e, const struct eh_model *m)
{
	if (!eh_erratum_affects(e, m))
		return NOT_AFFECTED;
	return eh_erratum_shows(e, m) ? SHOWS : NOT_EXPOSED;
}

static bool configured_out(const struct audit_ctx *a, const struct eh_erratum *e)
{
	return e->kconfig && !eh_kconfig_enabled(a->config, e->kconfig);
}

/* Every finding of one rule's result matched against the suppressions, and its counts. */
static int count_findings(struct audit_ctx *a, struct audit_rule *r)
{
	const struct eh_audit_result *res = r->res;
	size_t i, w, nopen = 0;

	r->sup = eh_alloc((res->nfindings ? res->nfindings : 1) * sizeof(*r->sup));
	if (!r->sup)
		return EH_ENOMEM;
	for (i = 0; i < res->nfindings; i++) {
		const struct eh_finding *f = &res->findings[i];

		r->sup[i] = eh_suppress_match(a->sup, f->erratum->id, f->anchor_where, f->where);
		if (r->sup[i]) {
			r->suppressed++;
			continue;
		}
		r->flagged++;
		r->inside += !f->open;
	}
	/* A window is open while one of its paths out is, unsuppressed. */
	for (w = 0; w < res->nwindows; w++) {
		const struct eh_audit_window *win = &res->windows[w];

		for (i = win->first; i < win->first + win->nfindings; i++)
			if (res->findings[i].open && !r->sup[i])
				break;
		nopen += i < win->first + win->nfindings;
	}
	r->open = nopen;
	return 0;
}

/* Patch FILE for every model, one image per distinct capability set, and audit each. */
static int audit_models(struct audit_ctx *a, struct eh_error *err)
{
	size_t i, g, r;

	for (i = 0; i < a->nmodels; i++) {
		struct audit_image *im = &a->images[a->nimages];

		im->target = (struct eh_target){ .model = a->models[i], .config = a->config,
						 .boot = a->in->boot };
		if (eh_image_new(&im->img, a->elf, a->caps, &im->target, err))
			return EXIT_BAD_INPUT;
		for (g = 0; g < a->nimages && !same_image(a->images[g].img, im->img); g++)
			;
		if (g < a->nimages) {
			eh_image_free(im->img);
			*im = (struct audit_image){ 0 };
		} else {
			a->nimages++;
			im->models = eh_alloc(a->nmodels * sizeof(*im->models));
			im->rules = eh_alloc((a->nerrata + 1) * sizeof(*im->rules));
			if (!im->models || !im->rules)
				return eh_error_set(err, EH_ENOMEM, "%s: out of memory", a->elf->path), EXIT_BAD_INPUT;
			if (!a->o->list && eh_audit_run(&im->au, im->img, a->errata, err))
				return EXIT_BAD_INPUT;
		}
		a->image_of[i] = g;
		a->images[g].models[a->images[g].nmodels++] = a->models[i];
	}
	for (g = 0; g < a->nimages && !a->o->list; g++) {
		struct audit_image *im = &a->images[g];

		for (r = 0; r < im->au->nresults; r++) {
			struct audit_rule *ar = &im->rules[r];

			ar->res = &im->au->results[r];
			for (i = 0; i < im->nmodels; i++)
				ar->shows |= status_of(ar->res->erratum, im->models[i]) == SHOWS;
			if (count_findings(a, ar))
				return eh_error_set(err, EH_ENOMEM, "%s: out of memory", a->elf->path), EXIT_BAD_INPUT;
		}
	}
	return 0;
}

/* "thunderx2" or "thunderx2, vulcan". */
static const char *model_names(const struct audit_image *im, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = 0;
	for (i = 0; i < im->nmodels && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", im->models[i]->name);
	return buf;
}

/* Why a site is or is not patched on this model. */
static const char *site_state(const struct eh_alt_site *s)
{
	switch (s->callback ? s->cb_result : EH_ALT_CB_NOT_RUN) {
	case EH_ALT_CB_PATCHED: return "applied by its callback";
	case EH_ALT_CB_KEPT: return "kept by its callback";
	case EH_ALT_CB_UNCERTAIN: return "uncertain: its callback";
	default: break;  /* not run: the capability says why */
	}
	if (s->applied)
		return "applied";
	switch (s->state) {
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

static void print_site_text(const struct audit_ctx *a, const struct eh_image *img, const struct eh_alt_site *s,
			    const char *indent)
{
	char loc[160], cb[160], cn[32];
	struct eh_insn before, after;

	insn_at(a, img, s->orig, false, &before);
	printf("%s%-40s %-40s %s", indent, where(a, s->orig, loc, sizeof(loc)), cap_name(s, cn, sizeof(cn)),
	       site_state(s));
	if (s->callback)
		printf(" [callback %s%s%s]", cb_name(a, s, cb, sizeof(cb)), s->cb_why[0] ? ": " : "", s->cb_why);
	if (s->applied) {
		insn_at(a, img, s->orig, true, &after);
		printf(": %s -> %s", before.text, after.text);
	} else {
		printf(": keeps %s", before.text);
	}
	if (s->orig_len > 4)
		printf(" (+%u more)", s->orig_len / 4 - 1);
	if (s->state == EH_CAP_CONFIGURED_OUT)
		printf(" [%s off]", s->rule->config);
	printf("\n");
}

static void print_site_json(struct eh_json *j, const char *key, const struct audit_ctx *a,
			    const struct eh_image *img, const struct eh_alt_site *s)
{
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
		eh_json_str(j, "callback_why", s->cb_why);
	eh_json_bool(j, "applied", s->applied);
	eh_json_str(j, "state", site_state(s));
	/* The capability rule that decided, with what it read on the image's target. */
	eh_json_str(j, "decided_by", s->rule ? eh_cap_explain(s->rule, &img->target, why, sizeof(why)) : NULL);
	eh_json_str(j, "original", before.text);
	eh_json_str(j, "patched", after.text);
	eh_json_end(j);
}

static size_t applied_count(const struct eh_image *img)
{
	size_t i, n = 0;

	for (i = 0; i < img->nsites; i++)
		n += img->sites[i].applied;
	return n;
}

/* How a finding is tagged: suppressed, a hazard (or an open window) where the erratum shows, or neither. */
static const char *finding_tag(const struct audit_rule *r, const struct eh_suppression *s, bool open)
{
	if (s)
		return "SUPPRESSED";
	if (open)
		return r->shows ? "OPEN" : "open";
	return r->shows ? "HAZARD" : "benign";
}

/* "affects thunderx2, vulcan", "does not affect cortex-a72", or "affects thunderx2, does not affect cortex-a72". */
static const char *shown_on(const struct audit_image *im, const struct eh_erratum *e, char *buf, size_t len)
{
	size_t i, at = 0, pass;

	buf[0] = 0;
	for (pass = 0; pass < 2; pass++) {
		size_t n = 0;

		for (i = 0; i < im->nmodels && at < len; i++) {
			if ((status_of(e, im->models[i]) == SHOWS) == pass)
				continue;
			at += (size_t)snprintf(buf + at, len - at, "%s%s", n++ ? ", " : !pass ? "affects " :
					       at ? ", does not affect " : "does not affect ", im->models[i]->name);
		}
	}
	return buf;
}

/* One finding: its tag, kind and place, what it is, its alternative and suppression; a new explanation after it. */
static void print_finding_text(const struct audit_ctx *a, const struct audit_rule *r, size_t i,
			       const char **explained)
{
	const struct eh_finding *f = &r->res->findings[i];
	const struct eh_suppression *s = r->sup[i];
	char cn[32];

	if (f->open)
		printf("    %s at %s: %s", finding_tag(r, s, true), f->where, f->text);
	else
		printf("    %s %-8s %s (0x%016" PRIx64 "): %s", finding_tag(r, s, false), f->kind, f->where, f->addr,
		       f->text);
	if (f->symbol)
		printf(" (to %s)", f->symbol);
	if (f->window == SIZE_MAX && f->anchor)
		printf("  [anchor %s]", f->anchor_where);
	if (!f->open && f->site)
		printf("  [alternative on %s, %s]", cap_name(f->site, cn, sizeof(cn)), site_state(f->site));
	if (s)
		printf("  [%s:%u: %s]", a->sup->path, s->line, s->justification);
	printf("\n");
	if (!f->open && (!*explained || strcmp(*explained, f->explain)))
		printf("      why: %s\n", *explained = f->explain);
}

/* A window rule's anchors: each with its class, what its window runs through, finds and how it ends. */
static void print_windows_text(const struct audit_ctx *a, const struct eh_image *img, const struct audit_rule *r)
{
	const struct eh_audit_result *res = r->res;
	const struct eh_window_rule *rule = res->erratum->rule->window;
	const char *explained = NULL;
	size_t i, j;
	char loc[160];

	printf("%s: %zu\n", rule->anchors, res->nwindows);
	for (i = 0; i < res->nwindows; i++) {
		const struct eh_audit_window *w = &res->windows[i];
		size_t k = w->first;

		printf("  %s (0x%016" PRIx64 "): %s  [%s%s%s]\n", where(a, w->anchor, loc, sizeof(loc)), w->anchor,
		       w->text, rule->classes[w->cls].name, w->why ? ": " : "", w->why ? w->why : "");
		for (j = 0; j < w->nsites; j++)
			print_site_text(a, img, w->sites[j], "    passes ");
		for (; k < w->first + w->nfindings && !res->findings[k].open; k++)
			print_finding_text(a, r, k, &explained);
		for (j = 0; j < w->nends; j++) {
			const struct eh_audit_end *e = &w->ends[j];

			if (e->kind == EH_AUDIT_CLOSED)
				printf("    closes at %s: %s\n", where(a, e->addr, loc, sizeof(loc)), e->text);
			else
				print_finding_text(a, r, k++, &explained);
		}
	}
	printf("%s by %s:\n", rule->anchors, rule->classified_by);
	for (i = 0; rule->classes[i].name; i++)
		if (res->nclass[i])
			printf("  %-22s %4zu  %s\n", rule->classes[i].name, res->nclass[i], rule->classes[i].rule);
}

/* What one erratum's rule found in the image, and its summary line. */
static void print_rule_text(const struct audit_ctx *a, const struct audit_image *im, const struct audit_rule *r)
{
	const struct eh_erratum *e = r->res->erratum;
	const struct eh_window_rule *window = e->rule->window;
	const char *explained = NULL;
	char names[512];
	size_t i;

	printf("erratum %s: %s\n", e->id, e->title);
	if (window)
		print_windows_text(a, im->img, r);
	else
		for (i = 0; i < r->res->nfindings; i++)
			print_finding_text(a, r, i, &explained);
	printf("summary: ");
	if (window)
		printf("%zu %s, ", r->res->nwindows, window->anchors);
	printf("%zu hazards", r->shows ? r->inside : 0);
	if (!r->shows && r->inside)
		printf(" (%zu benign)", r->inside);
	if (window)
		printf(", %zu windows not closed on every path", r->open);
	if (r->suppressed)
		printf(", %zu findings suppressed", r->suppressed);
	printf("; erratum %s %s", e->id, shown_on(im, e, names, sizeof(names)));
	if (configured_out(a, e))
		printf(" (workaround configured out: %s)", e->kconfig);
	printf("\n");
}

static void print_image_text(const struct audit_ctx *a, const struct audit_image *im)
{
	const struct eh_image *img = im->img;
	size_t i;
	char names[512];

	if (im->nmodels == 1)
		printf("audit of %s on %s (%s)\n", a->elf->path, im->models[0]->name, im->models[0]->desc);
	else
		printf("audit of %s on %s (one patched image)\n", a->elf->path, model_names(im, names, sizeof(names)));
	printf("  capabilities numbered as in %s; config %s; booted at %s%s\n", img->caps->source,
	       a->config_source, eh_boot_names[im->target.boot], eh_target_vhe(&im->target) ? " (VHE)" : "");
	printf("  alternatives: %zu sites, %zu applied\n", img->nsites, applied_count(img));
	if (a->o->list) {
		for (i = 0; i < img->nsites; i++)
			print_site_text(a, img, &img->sites[i], "  ");
		cli_print_cap_decisions(img, &im->target);
		return;
	}
	for (i = 0; i < im->au->nresults; i++)
		print_rule_text(a, im, &im->rules[i]);
}

static void print_finding_json(struct eh_json *j, const struct audit_ctx *a, const struct eh_image *img,
			       const struct audit_rule *r, size_t i)
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
static void print_rule_json(struct eh_json *j, const struct audit_ctx *a, const struct audit_image *im,
			    const struct audit_rule *r)
{
	const struct eh_erratum *e = r->res->erratum;
	size_t i;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "erratum", e->id);
	eh_json_str(j, "title", e->title);
	eh_json_str(j, "rule", e->rule->window ? "window" : "scan");
	eh_json_bool(j, "affected", r->shows);
	eh_json_bool(j, "configured_out", configured_out(a, e));
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
static void print_image_json(struct eh_json *j, const struct audit_ctx *a, const struct audit_image *im,
			     bool header)
{
	const struct eh_image *img = im->img;
	size_t i, m;

	eh_json_object(j, NULL, true);
	if (header)
		print_header_json(j, a, "errata-harness-audit");
	eh_json_str(j, "file", a->elf->path);
	if (im->nmodels == 1 && a->nmodels == 1) {
		eh_json_str(j, "model", im->models[0]->name);
	} else {
		eh_json_array(j, "models", true);
		for (m = 0; m < im->nmodels; m++)
			eh_json_str(j, NULL, im->models[m]->name);
		eh_json_end(j);
	}
	eh_json_str(j, "cpucaps", img->caps->source);
	eh_json_str(j, "config", a->config ? a->config_source : NULL);
	eh_json_str(j, "boot", eh_boot_names[im->target.boot]);
	eh_json_bool(j, "vhe", eh_target_vhe(&im->target));
	eh_json_uint(j, "alternatives", img->nsites);
	eh_json_uint(j, "applied", applied_count(img));
	if (a->o->list) {
		eh_json_array(j, "sites", true);
		for (i = 0; i < img->nsites; i++)
			print_site_json(j, NULL, a, img, &img->sites[i]);
		eh_json_end(j);
		return;
	}
	eh_json_array(j, "errata", true);
	for (i = 0; i < im->au->nresults; i++)
		print_rule_json(j, a, im, &im->rules[i]);
	eh_json_end(j);
}

/* Whether suppression e names an erratum this call audits: only those can go stale. */
static bool audited(const struct audit_ctx *a, const char *id)
{
	size_t i;

	for (i = 0; i < a->nerrata; i++)
		if (!strcmp(a->errata[i]->id, id))
			return true;
	return false;
}

/* The suppressions of audited errata that matched nothing on any model. */
static size_t print_stale(const struct audit_ctx *a, struct eh_json *j)
{
	size_t i, n = 0;

	if (j)
		eh_json_array(j, "stale", true);
	for (i = 0; a->sup && i < a->sup->n; i++) {
		const struct eh_suppression *e = &a->sup->v[i];
		char place[160];

		if (e->matched || !audited(a, e->erratum))
			continue;
		n++;
		snprintf(place, sizeof(place), e->has_offset ? "%s+0x%llx" : "%s", e->symbol, e->offset);
		if (j) {
			eh_json_object(j, NULL, true);
			eh_json_uint(j, "line", e->line);
			eh_json_str(j, "erratum", e->erratum);
			eh_json_str(j, "where", place);
			eh_json_str(j, "justification", e->justification);
			eh_json_end(j);
		} else {
			printf("stale suppression %s:%u: %s %s matches no finding\n", a->sup->path, e->line, e->erratum,
			       place);
		}
	}
	if (j)
		eh_json_end(j);
	return n;
}

/* One cell of the matrix: erratum r of model m's image. */
struct audit_cell {
	const struct audit_rule *r;
	enum audit_status status;
	bool configured_out;
	bool failing;                     /* findings not suppressed where the erratum shows */
};

static struct audit_cell cell_of(const struct audit_ctx *a, size_t model, size_t erratum)
{
	const struct audit_image *im = &a->images[a->image_of[model]];
	struct audit_cell c = { .r = &im->rules[erratum] };
	const struct eh_erratum *e = c.r->res->erratum;

	c.status = status_of(e, a->models[model]);
	c.configured_out = c.status != NOT_AFFECTED && configured_out(a, e);
	c.failing = c.status == SHOWS && c.r->flagged;
	return c;
}

/* "clean", "3 findings", "not affected", "not exposed", with ", workaround configured out". */
static const char *cell_text(const struct audit_cell *c, char *buf, size_t len)
{
	static const char *const names[] = { [NOT_AFFECTED] = "not affected", [NOT_EXPOSED] = "not exposed" };
	size_t at;

	if (c->status != SHOWS)
		at = (size_t)snprintf(buf, len, "%s", names[c->status]);
	else if (c->r->flagged)
		at = (size_t)snprintf(buf, len, "%zu finding%s", c->r->flagged, c->r->flagged == 1 ? "" : "s");
	else
		at = (size_t)snprintf(buf, len, "clean");
	if (c->configured_out && at < len)
		snprintf(buf + at, len - at, ", workaround configured out");
	return buf;
}

static const char *const cell_json_status[] = {
	[NOT_AFFECTED] = "not affected", [NOT_EXPOSED] = "not exposed", [SHOWS] = "clean",
};

/* The widest of the models' names (and of the errata's ids), at least what the heading needs. */
static int name_widths(const struct audit_ctx *a, int *erratum)
{
	size_t i, w = strlen("model");

	for (i = 0; i < a->nmodels; i++)
		w = strlen(a->models[i]->name) > w ? strlen(a->models[i]->name) : w;
	*erratum = (int)strlen("erratum");
	for (i = 0; i < a->nerrata; i++)
		*erratum = (int)strlen(a->errata[i]->id) > *erratum ? (int)strlen(a->errata[i]->id) : *erratum;
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
		for (i = 0; i < a->nmodels; i++)
			printf("%-*s %5zu\n", wm, a->models[i]->name, a->image_of[i] + 1);
		return;
	}
	printf("%-*s  %-*s %5s %8s %10s  %s\n", we, "erratum", wm, "model", "image", "findings", "suppressed", "status");
	for (e = 0; e < a->nerrata; e++)
		for (i = 0; i < a->nmodels; i++) {
			struct audit_cell c = cell_of(a, i, e);

			printf("%-*s  %-*s %5zu %8zu %10zu  %s\n", we, c.r->res->erratum->id, wm, a->models[i]->name,
			       a->image_of[i] + 1, c.r->flagged, c.r->suppressed, cell_text(&c, text, sizeof(text)));
		}
}

static void print_matrix_json(struct eh_json *j, const struct audit_ctx *a)
{
	size_t i, e;

	eh_json_array(j, "matrix", true);
	for (e = 0; e < (a->o->list ? 1 : a->nerrata); e++)
		for (i = 0; i < a->nmodels; i++) {
			eh_json_object(j, NULL, true);
			if (!a->o->list) {
				struct audit_cell c = cell_of(a, i, e);

				eh_json_str(j, "erratum", c.r->res->erratum->id);
				eh_json_str(j, "model", a->models[i]->name);
				eh_json_uint(j, "image", a->image_of[i]);
				eh_json_bool(j, "affected", c.status != NOT_AFFECTED);
				eh_json_bool(j, "shows", c.status == SHOWS);
				eh_json_bool(j, "configured_out", c.configured_out);
				eh_json_str(j, "status", c.failing ? "findings" : cell_json_status[c.status]);
				eh_json_uint(j, "flagged", c.r->flagged);
				eh_json_uint(j, "hazards", c.status == SHOWS ? c.r->inside : 0);
				eh_json_uint(j, "open", c.r->open);
				eh_json_uint(j, "suppressed", c.r->suppressed);
			} else {
				eh_json_str(j, "model", a->models[i]->name);
				eh_json_uint(j, "image", a->image_of[i]);
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
		if (a->nmodels == 1) {
			/* One model: the image's own object, with the stale suppressions. */
			print_image_json(&j, a, &a->images[0], true);
			print_stale(a, &j);
			eh_json_end(&j);
			return;
		}
		eh_json_object(&j, NULL, true);
		print_header_json(&j, a, "errata-harness-audit");
		eh_json_str(&j, "file", a->elf->path);
		eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
		print_matrix_json(&j, a);
		eh_json_array(&j, "images", true);
		for (i = 0; i < a->nimages; i++) {
			print_image_json(&j, a, &a->images[i], false);
			eh_json_end(&j);
		}
		eh_json_end(&j);
		print_stale(a, &j);
		eh_json_end(&j);
		return;
	}
	for (i = 0; i < a->nimages; i++) {
		if (a->nimages > 1)
			printf("%s== image %zu ==\n", i ? "\n" : "", i + 1);
		print_image_text(a, &a->images[i]);
	}
	if (a->nmodels > 1) {
		printf("\n");
		print_matrix_text(a);
	}
	print_stale(a, NULL);
}

/* Exit status 1: a finding not suppressed on a model where its erratum shows. */
static int verdict(const struct audit_ctx *a)
{
	size_t i, e;

	for (i = 0; i < a->nmodels && !a->o->list; i++)
		for (e = 0; e < a->images[a->image_of[i]].au->nresults; e++)
			if (cell_of(a, i, e).failing)
				return EXIT_UNEXPECTED;
	return 0;
}

static void audit_ctx_free(struct audit_ctx *a)
{
	size_t i, r;

	for (i = 0; i < a->nimages; i++) {
		for (r = 0; a->images[i].rules && r < a->nerrata; r++)
			eh_free(a->images[i].rules[r].sup);
		eh_free(a->images[i].rules);
		eh_free(a->images[i].models);
		eh_audit_free(a->images[i].au);
		eh_image_free(a->images[i].img);
	}
	eh_free(a->images);
	eh_free(a->models);
	eh_free(a->image_of);
	eh_free(a->errata);
	eh_free(a->chosen);
	eh_decoder_free(a->dec);
	eh_cpucaps_free(a->owned_caps);
	eh_kconfig_free(a->embedded);
	eh_elf_free(a->elf);
}

/* One build: loaded, patched for the models, audited. */
/*
 * The .config of the build: --config, else the one a kernel built with
 * CONFIG_IKCONFIG embeds, else every option on; an embedded one that cannot be
 * read is an input error naming the file.
 */
static int choose_config(struct audit_ctx *a, struct eh_error *err)
{
	struct eh_error none = { 0 };
	int rc;

	if (a->in->config) {
		a->config = a->in->config;
		snprintf(a->config_source, sizeof(a->config_source), "%s", a->o->config);
		return 0;
	}
	rc = eh_kimage_config(&a->embedded, a->elf, &none);
	if (rc == EH_ENOENT) {
		snprintf(a->config_source, sizeof(a->config_source), "with every option on");
		return 0;
	}
	if (rc) {
		*err = none;
		return rc;
	}
	a->config = a->embedded;
	snprintf(a->config_source, sizeof(a->config_source), "%s's own (CONFIG_IKCONFIG)", a->elf->path);
	return 0;
}

static int open_build(struct audit_ctx *a, const char *path, struct eh_error *err)
{
	if (eh_elf_open(&a->elf, path, err) ||
	    eh_cpucaps_for_elf(&a->owned_caps, &a->caps, a->elf, a->in->caps, err) ||
	    choose_config(a, err) ||
	    eh_decoder_new(&a->dec, err))
		return EXIT_BAD_INPUT;
	return audit_models(a, err);
}

/* Each audited erratum on the model: "erratum tx2-219 affects thunderx2", joined by "; ". */
static void print_errata_on(const struct audit_ctx *a)
{
	size_t e;

	for (e = 0; e < a->nerrata; e++)
		printf("%serratum %s %s %s", e ? "; " : "", a->errata[e]->id,
		       status_of(a->errata[e], a->models[0]) == SHOWS ? "affects" : "does not affect",
		       a->models[0]->name);
}

static void print_diff_text(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	static const char *const tags[] = {
		[EH_AUDIT_INTRODUCED] = "INTRODUCED", [EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};
	const struct eh_model *m = a->models[0];
	size_t i;

	printf("audit of %s against the baseline %s on %s (%s)\n", a->elf->path, old->elf->path, m->name, m->desc);
	printf("  capabilities numbered as in %s; config %s; booted at %s\n", a->caps->source,
	       a->config_source, eh_boot_names[a->in->boot]);
	for (i = 0; i < a->images[0].au->nresults; i++) {
		const struct audit_rule *ro = &old->images[0].rules[i], *rn = &a->images[0].rules[i];

		printf("  erratum %s: %zu findings in the baseline, %zu in the new build", rn->res->erratum->id,
		       ro->flagged, rn->flagged);
		if (rn->res->erratum->rule->window)
			printf(" (%zu and %zu windows not closed on every path)", ro->open, rn->open);
		printf("\n");
	}
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_delta *f = &d->deltas[i];

		printf("  %-10s %s %-8s %s", tags[f->change], f->erratum->id, f->open ? "OPEN" : f->kind, f->where);
		if (f->anchor[0])
			printf(" (anchor %s)", f->anchor);
		printf(": %s\n", f->open ? f->kind : f->text);
	}
	printf("summary: %zu introduced, %zu removed, %zu unchanged from %s to %s; ", d->count[EH_AUDIT_INTRODUCED],
	       d->count[EH_AUDIT_REMOVED], d->count[EH_AUDIT_UNCHANGED], old->elf->path, a->elf->path);
	print_errata_on(a);
	printf("\n");
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
	eh_json_str(&j, "model", a->models[0]->name);
	eh_json_str(&j, "cpucaps", a->caps->source);
	eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
	eh_json_array(&j, "errata", true);
	for (i = 0; i < a->nerrata; i++) {
		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "erratum", a->errata[i]->id);
		eh_json_bool(&j, "affected", status_of(a->errata[i], a->models[0]) == SHOWS);
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

	if (a->nmodels != 1)
		return cli_error("audit", "--baseline compares one model at a time");
	old->nmodels = 1;
	old->models[0] = a->models[0];
	memcpy(old->errata, a->errata, (a->nerrata + 1) * sizeof(*a->errata));
	old->nerrata = a->nerrata;
	rc = open_build(a, a->o->file, err);
	if (!rc)
		rc = open_build(old, a->o->baseline, err);
	if (!rc && eh_audit_diff(&d, old->images[0].au, a->images[0].au, err))
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
		if (d->deltas[i].change == EH_AUDIT_INTRODUCED && status_of(d->deltas[i].erratum, a->models[0]) == SHOWS)
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
	const char **errata = NULL;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	rc = audit_ctx_init(&a);
	if (!rc)
		rc = audit_ctx_init(&old);
	if (!rc)
		rc = resolve_names(&a);
	if (!rc)
		rc = cli_inputs_open(&in, "audit", o.cpucaps, o.kernel, o.config, o.boot);
	if (rc)
		goto out;
	if (o.suppress && !(errata = known_errata()))
		rc = (eh_error_set(&err, EH_ENOMEM, "out of memory"), EXIT_BAD_INPUT);
	else if (o.suppress && eh_suppress_open(&a.sup, o.suppress, errata, &err))
		rc = EXIT_BAD_INPUT;
	else if (o.baseline)
		rc = run_baseline(&a, &old, &err);
	else if (!(rc = open_build(&a, o.file, &err))) {
		print_report(&a);
		rc = verdict(&a);
	}
	if (err.code)
		fprintf(stderr, "errata-harness audit: %s\n", err.msg);
out:
	eh_free(errata);
	eh_suppress_free(a.sup);
	audit_ctx_free(&a);
	audit_ctx_free(&old);
	cli_inputs_close(&in);
	return rc;
}


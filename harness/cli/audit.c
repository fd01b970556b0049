/* errata-harness audit: a user's kernel ELF patched for CPU models, its TTBR windows and alternatives, as text or JSON. */
#include <getopt.h>
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
#include "eh/model.h"
#include "eh/regime.h"
#include "eh/suppress.h"

/* The erratum whose hazard the audit looks for (models/erratum_tx2_219.c). */
#define AUDIT_ERRATUM "tx2-219"

/* Models one call audits at most (--model all is every model of the registry). */
#define AUDIT_MAX_MODELS 32

struct audit_opts {
	const char *file, *cpucaps, *kernel, *config, *boot, *baseline, *suppress;
	const char *models[AUDIT_MAX_MODELS];  /* as given: names, comma lists, "all" */
	size_t nmodels;
	bool json, list;
};

/*
 * One patched image and its audit, shared by the models whose capabilities
 * give the same image. sup holds, finding by finding (window by window, its
 * accesses and then its ends that do not close it), the suppression that
 * covers it or NULL.
 */
struct audit_image {
	struct eh_target target;          /* of its first model */
	struct eh_image *img;
	struct eh_audit *au;
	const struct eh_model *models[AUDIT_MAX_MODELS];
	size_t nmodels;
	bool affected;                    /* erratum 219 shows on one of its models */
	const struct eh_suppression **sup;
	size_t accesses, hazards, open, suppressed;
};

struct audit_ctx {
	const struct audit_opts *o;
	const struct cli_inputs *in;
	struct eh_elf *elf;
	const struct eh_cpucaps *caps;    /* the numbering used (eh_cpucaps_for_elf) */
	struct eh_cpucaps *owned_caps;    /* the ELF's own, when it is the one used */
	struct eh_decoder *dec;
	struct eh_suppressions *sup;
	struct audit_image images[AUDIT_MAX_MODELS];
	size_t nimages;
	const struct eh_model *models[AUDIT_MAX_MODELS];
	size_t image_of[AUDIT_MAX_MODELS];  /* by model */
	size_t nmodels;
};

static void audit_help(FILE *f)
{
	const char *const *v;
	const struct eh_model *const *m;

	fprintf(f,
		"usage: errata-harness audit FILE --model M[,M...]|all [--cpucaps H | --kernel V]\n"
		"                            [--config .config] [--boot el2|nvhe|el1] [--suppress FILE]\n"
		"                            [--format text|json] [--list-alternatives] [--baseline OLD]\n"
		"\n"
		"Applies the kernel's boot-time alternatives to FILE as the kernel would on each CPU model\n"
		"(callbacks included), then finds every MSR TTBR0/1_EL1 (and _EL12) in its executable\n"
		"sections, classifies it by the translation regime it changes, and from each write to\n"
		"the regime the code runs in follows the patched code to the next context\n"
		"synchronisation (ISB, ERET, SVC/HVC/SMC/BRK): through branches (both ways at\n"
		"conditional ones), calls (a return stack) and returns to the callers. Every load,\n"
		"store, prefetch, cache maintenance by VA or AT on the way is a hazard on CPUs with\n"
		"ThunderX2 erratum 219. Models with the same capabilities share one patched image.\n"
		"\n"
		"inputs:\n"
		"  FILE                an AArch64 vmlinux (ET_EXEC/ET_DYN) or kernel object (ET_REL, e.g.\n"
		"                      arch/arm64/kernel/entry.o: its sections are placed at kernel-like\n"
		"                      addresses and its relocations applied, .rela.altinstructions included)\n"
		"  --model M           the CPUs the kernel boots on (a comma list, repeatable, or all)\n"
		"  --cpucaps H         capability numbers of the tree FILE was built from: 5.x\n"
		"                      arch/arm64/include/asm/cpucaps.h or 6.x\n"
		"                      arch/arm64/include/generated/asm/cpucaps.h. Without it (or\n"
		"                      --kernel) the numbering is read from FILE's own arm64_features[]\n"
		"                      and arm64_errata[] (a vmlinux; an object needs one); with it, it\n"
		"                      is checked against them and refused if they differ\n"
		"  --kernel V          or a built-in numbering instead of a header:");
	for (v = eh_cpucaps_builtin_versions; *v; v++)
		fprintf(f, " %s", *v);
	fprintf(f, "\n"
		"  --config FILE       the tree's .config: a capability whose CONFIG_ option is off is\n"
		"                      never detected (default: every option on)\n"
		"%s"
		"  --suppress FILE     findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...'\n"
		"                      (README); a suppressed finding is listed with its justification\n"
		"                      and counted, an entry that matches nothing is reported stale\n"
		"  --format text|json  output (default text)\n"
		"  --list-alternatives list every alternative site instead: symbol+offset, capability,\n"
		"                      applied or not and why; a callback with its function and what it\n"
		"                      did (emulated: alt_cb_patch_nops, KVM's, Spectre's)\n"
		"  --baseline OLD      compare (one model): audit OLD too (same numbering, config, boot)\n"
		"                      and report each hazard or unclosed path as introduced, removed or\n"
		"                      unchanged, matched by symbol+offset of the TTBR write and of the\n"
		"                      access. OLD should be the upstream FILE's change goes into (README)\n"
		"\n"
		"exit status: 0 no hazard on any model erratum %s affects, 1 a hazard or a window that\n"
		"cannot be followed to its end (named with the reason) on such a model, not suppressed\n"
		"(with --baseline: one that OLD does not have), 2 bad usage or bad input (the message\n"
		"names the file and the problem)\n"
		"\nmodels:", cli_boot_help, AUDIT_ERRATUM);
	for (m = eh_models; *m; m++)
		fprintf(f, " %s", (*m)->name);
	fputs("\n", f);
}

static int bad(const char *fmt, const char *arg)
{
	fputs("errata-harness audit: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct audit_opts *o)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "cpucaps", required_argument, NULL, 'c' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "config", required_argument, NULL, 'C' },
		{ "boot", required_argument, NULL, 'b' },
		{ "suppress", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "list-alternatives", no_argument, NULL, 'l' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (o->nmodels == AUDIT_MAX_MODELS)
				return bad("--model: at most %s of them", "32");
			o->models[o->nmodels++] = optarg;
			break;
		case 'c': o->cpucaps = optarg; break;
		case 'k': o->kernel = optarg; break;
		case 'C': o->config = optarg; break;
		case 'b': o->boot = optarg; break;
		case 's': o->suppress = optarg; break;
		case 'l': o->list = true; break;
		case 'B': o->baseline = optarg; break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return bad("--format: '%s' is neither text nor json", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case 'h': audit_help(stdout); return -1;
		default:
			return bad("%s: unknown option or missing argument (see audit --help)",
				   argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return bad("%s", optind >= argc ? "which file? (see audit --help)"
						: "exactly one FILE, please (see audit --help)");
	o->file = argv[optind];
	if (!o->nmodels)
		return bad("%s", "--model is required (see errata-harness models)");
	if (o->baseline && o->list)
		return bad("%s", "--baseline compares hazards; --list-alternatives lists one build's sites");
	if (o->baseline && o->suppress)
		return bad("%s", "--baseline compares two builds' findings; --suppress applies to one audit");
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

/* --model values: names, comma lists of them, or all; duplicates count once. */
static int resolve_models(struct audit_ctx *a)
{
	size_t i;

	for (i = 0; i < a->o->nmodels; i++) {
		const char *p = a->o->models[i];

		while (*p) {
			size_t n = strcspn(p, ",");
			char name[64];
			const struct eh_model *const *all;
			const struct eh_model *m;

			if (!n || n >= sizeof(name))
				return bad("--model: '%s' is not a list of model names", a->o->models[i]);
			memcpy(name, p, n);
			name[n] = 0;
			p += n + (p[n] == ',');
			if (!strcmp(name, "all")) {
				for (all = eh_models; *all; all++)
					if (a->nmodels < AUDIT_MAX_MODELS)
						add_model(a, *all);
				continue;
			}
			m = eh_model_find(name);
			if (!m)
				return bad("unknown model '%s' (see errata-harness models)", name);
			add_model(a, m);
		}
	}
	return 0;
}

static bool erratum_shows(const struct eh_model *m)
{
	const struct eh_erratum *e = eh_erratum_find(AUDIT_ERRATUM);

	return e && eh_erratum_shows(e, m);
}

/* Every erratum's id, for checking a suppression file. */
static void known_errata(const char **ids, size_t max)
{
	const struct eh_erratum *const *e;
	size_t n = 0;

	for (e = eh_errata; *e && n + 1 < max; e++)
		ids[n++] = (*e)->id;
	ids[n] = NULL;
}

/* Two images are one when every section, every site's outcome and the regime rule agree. */
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

/* Every finding of an image matched against the suppressions, and the image's counts. */
static int count_findings(struct audit_ctx *a, struct audit_image *im)
{
	const struct eh_audit *au = im->au;
	size_t i, j, k = 0, n = 0;

	for (i = 0; i < au->nwindows; i++)
		n += au->windows[i].naccesses + au->windows[i].nends;
	im->sup = eh_alloc((n ? n : 1) * sizeof(*im->sup));
	if (!im->sup)
		return EH_ENOMEM;
	for (i = 0; i < au->nwindows; i++) {
		const struct eh_audit_window *w = &au->windows[i];
		char win[160], loc[160];
		bool open = false;

		where(a, w->msr, win, sizeof(win));
		for (j = 0; j < w->naccesses + w->nends; j++, k++) {
			bool end = j >= w->naccesses;
			const struct eh_audit_end *e = end ? &w->ends[j - w->naccesses] : NULL;

			if (end && e->kind == EH_AUDIT_CLOSED)
				continue;
			where(a, end ? e->addr : w->accesses[j].addr, loc, sizeof(loc));
			im->sup[k] = eh_suppress_match(a->sup, AUDIT_ERRATUM, win, loc);
			if (im->sup[k])
				im->suppressed++;
			else if (end)
				open = true;
			else
				im->accesses++;
		}
		im->open += open;
	}
	im->hazards = im->affected ? im->accesses : 0;
	return 0;
}

/* Patch FILE for every model, one image per distinct capability set, and audit each. */
static int audit_models(struct audit_ctx *a, struct eh_error *err)
{
	size_t i, g;

	for (i = 0; i < a->nmodels; i++) {
		struct audit_image *im = &a->images[a->nimages];

		im->target = (struct eh_target){ .model = a->models[i], .config = a->in->config,
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
			if (!a->o->list && eh_audit_run(&im->au, im->img, err))
				return EXIT_BAD_INPUT;
		}
		a->image_of[i] = g;
		a->images[g].models[a->images[g].nmodels++] = a->models[i];
		a->images[g].affected |= erratum_shows(a->models[i]);
	}
	for (g = 0; g < a->nimages && !a->o->list; g++)
		if (count_findings(a, &a->images[g]))
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory", a->elf->path), EXIT_BAD_INPUT;
	return 0;
}

/* "thunderx2" or "thunderx2, vulcan": the image's models, or (shows 0/1) those where the erratum does / does not show. */
static const char *model_names(const struct audit_image *im, int shows, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = 0;
	for (i = 0; i < im->nmodels && at < len; i++)
		if (shows < 0 || erratum_shows(im->models[i]) == shows)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", im->models[i]->name);
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
static const char *finding_tag(const struct audit_image *im, const struct eh_suppression *s, bool end)
{
	if (s)
		return "SUPPRESSED";
	if (end)
		return im->affected ? "OPEN" : "open";
	return im->affected ? "HAZARD" : "access";
}

static void print_image_text(const struct audit_ctx *a, const struct audit_image *im)
{
	const struct eh_image *img = im->img;
	const struct eh_audit *au = im->au;
	size_t i, j, k = 0;
	char loc[160], cn[32], names[512];

	if (im->nmodels == 1)
		printf("audit of %s on %s (%s)\n", a->elf->path, im->models[0]->name, im->models[0]->desc);
	else
		printf("audit of %s on %s (one patched image)\n", a->elf->path, model_names(im, -1, names, sizeof(names)));
	printf("  capabilities numbered as in %s; config %s; booted at %s%s\n", img->caps->source,
	       a->o->config ? a->o->config : "with every option on", eh_boot_names[im->target.boot],
	       eh_target_vhe(&im->target) ? " (VHE)" : "");
	printf("  alternatives: %zu sites, %zu applied\n", img->nsites, applied_count(img));
	if (a->o->list) {
		for (i = 0; i < img->nsites; i++)
			print_site_text(a, img, &img->sites[i], "  ");
		cli_print_cap_decisions(img, &im->target);
		return;
	}
	printf("TTBR writes: %zu\n", au->nwindows);
	for (i = 0; i < au->nwindows; i++) {
		const struct eh_audit_window *w = &au->windows[i];

		printf("  %s (0x%016" PRIx64 "): %s  [%s: %s]\n", where(a, w->msr, loc, sizeof(loc)), w->msr,
		       w->text, eh_regime_name(w->regime), w->run_why);
		for (j = 0; j < w->nsites; j++)
			print_site_text(a, img, w->sites[j], "    passes ");
		for (j = 0; j < w->naccesses; j++, k++) {
			const struct eh_audit_access *x = &w->accesses[j];

			printf("    %s %-8s %s (0x%016" PRIx64 "): %s", finding_tag(im, im->sup[k], false),
			       eh_insn_access_name(x->flags), where(a, x->addr, loc, sizeof(loc)), x->addr, x->text);
			if (x->site)
				printf("  [alternative on %s, %s]", cap_name(x->site, cn, sizeof(cn)), site_state(x->site));
			if (im->sup[k])
				printf("  [%s:%u: %s]", a->sup->path, im->sup[k]->line, im->sup[k]->justification);
			printf("\n");
		}
		for (j = 0; j < w->nends; j++, k++) {
			const struct eh_audit_end *e = &w->ends[j];

			if (e->kind == EH_AUDIT_CLOSED) {
				printf("    closes at %s: %s\n", where(a, e->addr, loc, sizeof(loc)), e->text);
				continue;
			}
			printf("    %s at %s: %s%s%s", finding_tag(im, im->sup[k], true),
			       where(a, e->addr, loc, sizeof(loc)), eh_audit_end_name(e->kind), e->text[0] ? ", " : "",
			       e->text);
			if (e->symbol)
				printf(" (to %s)", e->symbol);
			if (im->sup[k])
				printf("  [%s:%u: %s]", a->sup->path, im->sup[k]->line, im->sup[k]->justification);
			printf("\n");
		}
	}
	printf("TTBR writes by the regime they change:\n");
	for (i = 0; i < sizeof(au->nregime) / sizeof(au->nregime[0]); i++)
		if (au->nregime[i])
			printf("  %-22s %4zu  %s\n", eh_regime_name((enum eh_regime)i), au->nregime[i],
			       eh_regime_rule((enum eh_regime)i));
	printf("summary: %zu TTBR writes, %zu hazards", au->nwindows, im->hazards);
	if (!im->affected && im->accesses)
		printf(" (%zu accesses in windows)", im->accesses);
	printf(", %zu windows not closed on every path", im->open);
	if (im->suppressed)
		printf(", %zu findings suppressed", im->suppressed);
	printf("; erratum %s ", AUDIT_ERRATUM);
	if (im->affected)
		printf("affects %s", model_names(im, 1, names, sizeof(names)));
	if (model_names(im, 0, names, sizeof(names))[0])
		printf("%sdoes not affect %s", im->affected ? ", " : "", names);
	printf("\n");
}

/* The image's object, left open for the caller to end. */
static void print_image_json(struct eh_json *j, const char *key, const struct audit_ctx *a,
			     const struct audit_image *im)
{
	const struct eh_image *img = im->img;
	const struct eh_audit *au = im->au;
	size_t i, m, k = 0;
	char loc[160];

	eh_json_object(j, key, true);
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
	eh_json_str(j, "config", a->o->config);
	eh_json_str(j, "boot", eh_boot_names[im->target.boot]);
	eh_json_bool(j, "vhe", eh_target_vhe(&im->target));
	eh_json_str(j, "erratum", AUDIT_ERRATUM);
	eh_json_bool(j, "affected", im->affected);
	eh_json_uint(j, "alternatives", img->nsites);
	eh_json_uint(j, "applied", applied_count(img));
	if (a->o->list) {
		eh_json_array(j, "sites", true);
		for (i = 0; i < img->nsites; i++)
			print_site_json(j, NULL, a, img, &img->sites[i]);
		eh_json_end(j);
		return;
	}
	eh_json_uint(j, "hazards", im->hazards);
	eh_json_uint(j, "open", im->open);
	eh_json_uint(j, "accesses", im->accesses);
	eh_json_uint(j, "suppressed", im->suppressed);
	eh_json_array(j, "windows", true);
	for (i = 0; i < au->nwindows; i++) {
		const struct eh_audit_window *w = &au->windows[i];
		size_t n;

		eh_json_object(j, NULL, true);
		eh_json_hex(j, "address", w->msr);
		eh_json_str(j, "where", where(a, w->msr, loc, sizeof(loc)));
		eh_json_str(j, "text", w->text);
		eh_json_str(j, "regime", eh_regime_name(w->regime));
		eh_json_bool(j, "live", eh_regime_live(w->regime));
		eh_json_str(j, "runs", w->run_why);
		eh_json_uint(j, "instructions", w->ninsns);
		eh_json_array(j, "accesses", true);
		for (n = 0; n < w->naccesses; n++, k++) {
			const struct eh_audit_access *x = &w->accesses[n];

			eh_json_object(j, NULL, true);
			eh_json_hex(j, "address", x->addr);
			eh_json_str(j, "where", where(a, x->addr, loc, sizeof(loc)));
			eh_json_str(j, "kind", eh_insn_access_name(x->flags));
			eh_json_str(j, "text", x->text);
			eh_json_str(j, "suppressed", im->sup[k] ? im->sup[k]->justification : NULL);
			if (x->site)
				print_site_json(j, "alternative", a, img, x->site);
			else
				eh_json_str(j, "alternative", NULL);
			eh_json_end(j);
		}
		eh_json_end(j);
		eh_json_array(j, "ends", true);
		for (n = 0; n < w->nends; n++, k++) {
			const struct eh_audit_end *e = &w->ends[n];

			eh_json_object(j, NULL, true);
			eh_json_hex(j, "address", e->addr);
			eh_json_str(j, "where", where(a, e->addr, loc, sizeof(loc)));
			eh_json_str(j, "kind", eh_audit_end_name(e->kind));
			eh_json_str(j, "text", e->text);
			eh_json_str(j, "symbol", e->symbol);
			eh_json_str(j, "suppressed", e->kind != EH_AUDIT_CLOSED && im->sup[k] ? im->sup[k]->justification
											    : NULL);
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
	eh_json_array(j, "regimes", true);
	for (i = 0; i < sizeof(au->nregime) / sizeof(au->nregime[0]); i++) {
		eh_json_object(j, NULL, true);
		eh_json_str(j, "regime", eh_regime_name((enum eh_regime)i));
		eh_json_uint(j, "writes", au->nregime[i]);
		eh_json_str(j, "rule", eh_regime_rule((enum eh_regime)i));
		eh_json_end(j);
	}
	eh_json_end(j);
}

/* The suppressions that matched nothing on any model. */
static size_t print_stale(const struct audit_ctx *a, struct eh_json *j)
{
	size_t i, n = 0;

	if (j)
		eh_json_array(j, "stale", true);
	for (i = 0; a->sup && i < a->sup->n; i++) {
		const struct eh_suppression *e = &a->sup->v[i];
		char place[160];

		if (e->matched)
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

/* One line per model: which image, the counts, and whether the erratum shows there. */
static void print_matrix_text(const struct audit_ctx *a)
{
	size_t i;

	printf("%-16s %-7s %5s %6s %5s %7s %5s %10s\n", "model", AUDIT_ERRATUM, "image", "writes", "live",
	       "hazards", "open", "suppressed");
	for (i = 0; i < a->nmodels; i++) {
		const struct audit_image *im = &a->images[a->image_of[i]];
		bool shows = erratum_shows(a->models[i]);

		printf("%-16s %-7s %5zu", a->models[i]->name, shows ? "shows" : "-", a->image_of[i] + 1);
		if (a->o->list)
			printf("\n");
		else
			printf(" %6zu %5zu %7zu %5zu %10zu\n", im->au->nwindows,
			       im->au->nregime[EH_REGIME_EL10_LIVE] + im->au->nregime[EH_REGIME_EL20_LIVE],
			       shows ? im->accesses : 0, im->open, im->suppressed);
	}
}

static void print_matrix_json(struct eh_json *j, const struct audit_ctx *a)
{
	size_t i;

	eh_json_array(j, "matrix", true);
	for (i = 0; i < a->nmodels; i++) {
		const struct audit_image *im = &a->images[a->image_of[i]];
		bool shows = erratum_shows(a->models[i]);

		eh_json_object(j, NULL, true);
		eh_json_str(j, "model", a->models[i]->name);
		eh_json_bool(j, "affected", shows);
		eh_json_uint(j, "image", a->image_of[i]);
		if (!a->o->list) {
			eh_json_uint(j, "hazards", shows ? im->accesses : 0);
			eh_json_uint(j, "open", im->open);
			eh_json_uint(j, "suppressed", im->suppressed);
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
			print_image_json(&j, NULL, a, &a->images[0]);
			print_stale(a, &j);
			eh_json_end(&j);
			return;
		}
		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "file", a->elf->path);
		eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
		print_matrix_json(&j, a);
		eh_json_array(&j, "images", true);
		for (i = 0; i < a->nimages; i++) {
			print_image_json(&j, NULL, a, &a->images[i]);
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

/* Exit status 1: a hazard or an unclosed window, not suppressed, on a model the erratum affects. */
static int verdict(const struct audit_ctx *a)
{
	size_t i;

	for (i = 0; i < a->nmodels && !a->o->list; i++) {
		const struct audit_image *im = &a->images[a->image_of[i]];

		if (erratum_shows(a->models[i]) && (im->accesses || im->open))
			return EXIT_UNEXPECTED;
	}
	return 0;
}

static void audit_ctx_free(struct audit_ctx *a)
{
	size_t i;

	for (i = 0; i < a->nimages; i++) {
		eh_free(a->images[i].sup);
		eh_audit_free(a->images[i].au);
		eh_image_free(a->images[i].img);
	}
	eh_decoder_free(a->dec);
	eh_cpucaps_free(a->owned_caps);
	eh_elf_free(a->elf);
}

/* One build for --baseline: loaded, patched for the one model, audited. */
static int open_build(struct audit_ctx *a, const char *path, struct eh_error *err)
{
	if (eh_elf_open(&a->elf, path, err) ||
	    eh_cpucaps_for_elf(&a->owned_caps, &a->caps, a->elf, a->in->caps, err) ||
	    eh_decoder_new(&a->dec, err))
		return EXIT_BAD_INPUT;
	return audit_models(a, err);
}

static void print_diff_text(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	static const char *const tags[] = {
		[EH_AUDIT_INTRODUCED] = "INTRODUCED", [EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};
	const struct eh_audit *oa = old->images[0].au, *au = a->images[0].au;
	const struct eh_model *m = a->models[0];
	size_t i;

	printf("audit of %s against the baseline %s on %s (%s)\n", a->elf->path, old->elf->path, m->name, m->desc);
	printf("  capabilities numbered as in %s; config %s; booted at %s\n", a->caps->source,
	       a->o->config ? a->o->config : "with every option on", eh_boot_names[a->in->boot]);
	printf("  baseline %s: %zu TTBR writes, %zu hazards, %zu windows not closed on every path\n",
	       old->elf->path, oa->nwindows, oa->naccesses, oa->nopen);
	printf("  new      %s: %zu TTBR writes, %zu hazards, %zu windows not closed on every path\n",
	       a->elf->path, au->nwindows, au->naccesses, au->nopen);
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_finding *f = &d->findings[i];

		printf("  %-10s %-8s %s in the window of %s: %s\n", tags[f->change],
		       f->open ? "OPEN" : eh_insn_access_name(f->flags), f->where, f->window,
		       f->open ? eh_audit_end_name((enum eh_audit_end_kind)f->flags) : f->text);
	}
	printf("summary: %zu introduced, %zu removed, %zu unchanged from %s to %s; erratum %s %s %s\n",
	       d->count[EH_AUDIT_INTRODUCED], d->count[EH_AUDIT_REMOVED], d->count[EH_AUDIT_UNCHANGED],
	       old->elf->path, a->elf->path, AUDIT_ERRATUM, erratum_shows(m) ? "affects" : "does not affect",
	       m->name);
}

static void print_diff_json(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	struct eh_json j;
	size_t i;

	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, true);
	eh_json_str(&j, "baseline", old->elf->path);
	eh_json_str(&j, "file", a->elf->path);
	eh_json_str(&j, "model", a->models[0]->name);
	eh_json_str(&j, "cpucaps", a->caps->source);
	eh_json_str(&j, "boot", eh_boot_names[a->in->boot]);
	eh_json_str(&j, "erratum", AUDIT_ERRATUM);
	eh_json_bool(&j, "affected", erratum_shows(a->models[0]));
	eh_json_uint(&j, "introduced", d->count[EH_AUDIT_INTRODUCED]);
	eh_json_uint(&j, "removed", d->count[EH_AUDIT_REMOVED]);
	eh_json_uint(&j, "unchanged", d->count[EH_AUDIT_UNCHANGED]);
	eh_json_array(&j, "findings", true);
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_finding *f = &d->findings[i];

		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "change", eh_audit_change_name(f->change));
		eh_json_str(&j, "kind", f->open ? "open" : eh_insn_access_name(f->flags));
		eh_json_str(&j, "window", f->window);
		eh_json_str(&j, "where", f->where);
		eh_json_str(&j, "text", f->open ? eh_audit_end_name((enum eh_audit_end_kind)f->flags) : f->text);
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
	int rc;

	if (a->nmodels != 1)
		return bad("%s", "--baseline compares one model at a time");
	old->nmodels = 1;
	old->models[0] = a->models[0];
	rc = open_build(a, a->o->file, err);
	if (!rc)
		rc = open_build(old, a->o->baseline, err);
	if (!rc && eh_audit_diff(&d, old->images[0].au, a->images[0].au, err))
		rc = EXIT_BAD_INPUT;
	if (rc)
		return rc;
	if (a->o->json)
		print_diff_json(old, a, d);
	else
		print_diff_text(old, a, d);
	rc = d->count[EH_AUDIT_INTRODUCED] && erratum_shows(a->models[0]) ? EXIT_UNEXPECTED : 0;
	eh_audit_diff_free(d);
	return rc;
}

int cli_audit(int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct cli_inputs in = { 0 };
	struct audit_ctx a = { .o = &o, .in = &in }, old = { .o = &o, .in = &in };
	struct eh_error err = { 0 };
	const char *errata[16];
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	rc = resolve_models(&a);
	if (!rc)
		rc = cli_inputs_open(&in, "audit", o.cpucaps, o.kernel, o.config, o.boot);
	if (rc)
		return rc;
	known_errata(errata, sizeof(errata) / sizeof(errata[0]));
	if (o.suppress && eh_suppress_open(&a.sup, o.suppress, errata, &err))
		rc = EXIT_BAD_INPUT;
	else if (o.baseline)
		rc = run_baseline(&a, &old, &err);
	else if (!(rc = open_build(&a, o.file, &err))) {
		print_report(&a);
		rc = verdict(&a);
	}
	if (err.code)
		fprintf(stderr, "errata-harness audit: %s\n", err.msg);
	eh_suppress_free(a.sup);
	audit_ctx_free(&a);
	audit_ctx_free(&old);
	cli_inputs_close(&in);
	return rc;
}

/* Its options are parsed by cli_audit itself; the table gives the global help its line. */
const struct cli_command cli_audit_command = {
	.name = "audit", .args = "FILE",
	.summary = "the hazards a kernel ELF keeps after its alternatives are applied for a model (audit --help)",
};

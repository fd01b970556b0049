/* errata-harness audit: a user's kernel ELF patched for a CPU model, its TTBR windows and alternatives, as text or JSON. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/audit.h"
#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/kconfig.h"
#include "eh/model.h"

/* The erratum whose hazard the audit looks for (models/erratum_tx2_219.c). */
#define AUDIT_ERRATUM "tx2-219"

struct audit_opts {
	const char *file, *model, *cpucaps, *kernel, *config, *baseline;
	bool json, list;
};

struct audit_ctx {
	const struct audit_opts *o;
	const struct eh_model *model;
	const struct eh_cpucaps *caps;
	struct eh_cpucaps *owned_caps;  /* the ELF's own numbering, when it is the one used */
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_decoder *dec;
	struct eh_target target;
	bool affected;          /* the model has erratum 219 and it shows there */
};

static void audit_help(FILE *f)
{
	const char *const *v;
	const struct eh_model *const *m;

	fprintf(f,
		"usage: errata-harness audit FILE --model M [--cpucaps H | --kernel V] [--config .config]\n"
		"                            [--format text|json] [--list-alternatives] [--baseline OLD]\n"
		"\n"
		"Applies the kernel's boot-time alternatives to FILE as the kernel would on CPU model M,\n"
		"then finds every MSR TTBR0_EL1/TTBR1_EL1 in its executable sections and follows the\n"
		"patched code to the next context synchronisation (ISB, ERET, SVC/HVC/SMC/BRK), through\n"
		"branches (both ways at conditional ones) and calls. Every load, store or prefetch on the\n"
		"way is a hazard on CPUs with ThunderX2 erratum 219.\n"
		"\n"
		"inputs:\n"
		"  FILE                an AArch64 vmlinux (ET_EXEC/ET_DYN) or kernel object (ET_REL, e.g.\n"
		"                      arch/arm64/kernel/entry.o: its sections are placed at kernel-like\n"
		"                      addresses and its relocations applied, .rela.altinstructions included)\n"
		"  --model M           the CPU the kernel boots on: which capabilities it detects\n"
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
		"  --format text|json  output (default text)\n"
		"  --list-alternatives list every alternative site instead: symbol+offset, capability,\n"
		"                      applied or not on M and why, callbacks with their function\n"
		"  --baseline OLD      compare: audit OLD too (same model, numbering and config) and report\n"
		"                      each hazard or unclosed path as introduced, removed or unchanged,\n"
		"                      matched by symbol+offset of the TTBR write and of the access. OLD\n"
		"                      should be the upstream FILE's change will be merged into (README)\n"
		"\n"
		"exit status: 0 no hazard (or the model is not affected by erratum %s), 1 a hazard or a\n"
		"window that cannot be followed to its end (an indirect branch, a branch out of the object)\n"
		"on a model that has it (with --baseline: one that OLD does not have), 2 bad usage or bad\n"
		"input (the message names the file and the problem)\n"
		"\nmodels:", AUDIT_ERRATUM);
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
		case 'm': o->model = optarg; break;
		case 'c': o->cpucaps = optarg; break;
		case 'k': o->kernel = optarg; break;
		case 'C': o->config = optarg; break;
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
	if (!o->model)
		return bad("%s", "--model is required (see errata-harness models)");
	if (o->baseline && o->list)
		return bad("%s", "--baseline compares hazards; --list-alternatives lists one build's sites");
	return 0;
}

/* JSON string: the text with quotes, backslashes and control characters escaped. */
static void json_str(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static const char *where(const struct audit_ctx *a, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(a->elf, addr, buf, len);
}

/* Why a site is or is not patched on this model. */
static const char *site_state(const struct eh_alt_site *s)
{
	if (s->callback)
		return "callback";
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

static void insn_at(const struct audit_ctx *a, uint64_t addr, bool patched, struct eh_insn *out)
{
	uint32_t w = 0;
	int rc = patched ? eh_image_word(a->img, addr, &w) : eh_elf_word(a->elf, addr, &w);

	eh_decoder_decode(a->dec, addr, w, out);
	if (rc)
		snprintf(out->text, sizeof(out->text), "(no contents)");
}

static void print_site_text(const struct audit_ctx *a, const struct eh_alt_site *s, const char *indent)
{
	char loc[160], cb[160], cn[32];
	struct eh_insn before, after;

	insn_at(a, s->orig, false, &before);
	printf("%s%-40s %-40s %s", indent, where(a, s->orig, loc, sizeof(loc)),
	       cap_name(s, cn, sizeof(cn)), site_state(s));
	if (s->callback) {
		printf(" %s (not emulated)", s->cb_name ? s->cb_name : where(a, s->repl, cb, sizeof(cb)));
	} else if (s->applied) {
		insn_at(a, s->orig, true, &after);
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

static void print_site_json(const struct audit_ctx *a, const struct eh_alt_site *s)
{
	char loc[160], cn[32];
	struct eh_insn before, after;

	insn_at(a, s->orig, false, &before);
	insn_at(a, s->orig, true, &after);
	printf("{\"address\":\"0x%016" PRIx64 "\",\"where\":", s->orig);
	json_str(where(a, s->orig, loc, sizeof(loc)));
	printf(",\"length\":%u,\"capability\":", s->orig_len);
	json_str(cap_name(s, cn, sizeof(cn)));
	printf(",\"capability_number\":%u,\"callback\":", s->cap);
	if (s->callback) {
		if (s->cb_name)
			json_str(s->cb_name);
		else
			json_str(where(a, s->repl, loc, sizeof(loc)));
	} else {
		printf("null");
	}
	printf(",\"applied\":%s,\"state\":", s->applied ? "true" : "false");
	json_str(site_state(s));
	printf(",\"original\":");
	json_str(before.text);
	printf(",\"patched\":");
	json_str(after.text);
	printf("}");
}

static size_t applied_count(const struct eh_image *img)
{
	size_t i, n = 0;

	for (i = 0; i < img->nsites; i++)
		n += img->sites[i].applied;
	return n;
}

static void print_text(const struct audit_ctx *a, const struct eh_audit *au)
{
	size_t i, j;
	char loc[160], cn[32];

	printf("audit of %s on %s (%s)\n", a->elf->path, a->model->name, a->model->desc);
	printf("  capabilities numbered as in %s; config %s\n", a->caps->source,
	       a->o->config ? a->o->config : "with every option on");
	printf("  alternatives: %zu sites, %zu applied on this model\n", a->img->nsites,
	       applied_count(a->img));
	if (a->o->list) {
		for (i = 0; i < a->img->nsites; i++)
			print_site_text(a, &a->img->sites[i], "  ");
		cli_print_cap_decisions(a->img, &a->target);
		return;
	}
	printf("TTBR writes: %zu\n", au->nwindows);
	for (i = 0; i < au->nwindows; i++) {
		const struct eh_audit_window *w = &au->windows[i];

		printf("  %s (0x%016" PRIx64 "): %s\n", where(a, w->msr, loc, sizeof(loc)), w->msr, w->text);
		for (j = 0; j < w->nsites; j++)
			print_site_text(a, w->sites[j], "    passes ");
		for (j = 0; j < w->naccesses; j++) {
			const struct eh_audit_access *x = &w->accesses[j];

			printf("    HAZARD %-8s %s (0x%016" PRIx64 "): %s", eh_insn_access_name(x->flags),
			       where(a, x->addr, loc, sizeof(loc)), x->addr, x->text);
			if (x->site)
				printf("  [alternative on %s, %s]", cap_name(x->site, cn, sizeof(cn)),
				       site_state(x->site));
			printf("\n");
		}
		for (j = 0; j < w->nends; j++) {
			const struct eh_audit_end *e = &w->ends[j];

			printf("    %s at %s: %s%s%s\n",
			       e->kind == EH_AUDIT_CLOSED ? "closes" : "OPEN", where(a, e->addr, loc, sizeof(loc)),
			       e->kind == EH_AUDIT_CLOSED ? "" : eh_audit_end_name(e->kind),
			       e->kind == EH_AUDIT_CLOSED || !e->text[0] ? "" : ", ", e->text);
			if (e->symbol)
				printf("      (to %s)\n", e->symbol);
		}
	}
	printf("summary: %zu TTBR writes, %zu hazards, %zu windows not closed on every path; "
	       "erratum %s %s %s\n", au->nwindows, au->naccesses, au->nopen, AUDIT_ERRATUM,
	       a->affected ? "affects" : "does not affect", a->model->name);
}

static void print_json(const struct audit_ctx *a, const struct eh_audit *au)
{
	size_t i, j;
	char loc[160];

	printf("{\"file\":");
	json_str(a->elf->path);
	printf(",\"model\":");
	json_str(a->model->name);
	printf(",\"cpucaps\":");
	json_str(a->caps->source);
	printf(",\"config\":");
	if (a->o->config)
		json_str(a->o->config);
	else
		printf("null");
	printf(",\"erratum\":\"%s\",\"affected\":%s", AUDIT_ERRATUM, a->affected ? "true" : "false");
	printf(",\"alternatives\":%zu,\"applied\":%zu", a->img->nsites, applied_count(a->img));
	if (a->o->list) {
		printf(",\"sites\":[");
		for (i = 0; i < a->img->nsites; i++) {
			printf(i ? "," : "");
			print_site_json(a, &a->img->sites[i]);
		}
		printf("]}\n");
		return;
	}
	printf(",\"hazards\":%zu,\"open\":%zu,\"windows\":[", au->naccesses, au->nopen);
	for (i = 0; i < au->nwindows; i++) {
		const struct eh_audit_window *w = &au->windows[i];

		printf("%s{\"address\":\"0x%016" PRIx64 "\",\"where\":", i ? "," : "", w->msr);
		json_str(where(a, w->msr, loc, sizeof(loc)));
		printf(",\"text\":");
		json_str(w->text);
		printf(",\"instructions\":%zu,\"accesses\":[", w->ninsns);
		for (j = 0; j < w->naccesses; j++) {
			const struct eh_audit_access *x = &w->accesses[j];

			printf("%s{\"address\":\"0x%016" PRIx64 "\",\"where\":", j ? "," : "", x->addr);
			json_str(where(a, x->addr, loc, sizeof(loc)));
			printf(",\"kind\":\"%s\",\"text\":", eh_insn_access_name(x->flags));
			json_str(x->text);
			printf(",\"alternative\":");
			if (x->site)
				print_site_json(a, x->site);
			else
				printf("null");
			printf("}");
		}
		printf("],\"ends\":[");
		for (j = 0; j < w->nends; j++) {
			const struct eh_audit_end *e = &w->ends[j];

			printf("%s{\"address\":\"0x%016" PRIx64 "\",\"where\":", j ? "," : "", e->addr);
			json_str(where(a, e->addr, loc, sizeof(loc)));
			printf(",\"kind\":");
			json_str(eh_audit_end_name(e->kind));
			printf(",\"text\":");
			json_str(e->text);
			printf(",\"symbol\":");
			if (e->symbol)
				json_str(e->symbol);
			else
				printf("null");
			printf("}");
		}
		printf("],\"alternatives\":[");
		for (j = 0; j < w->nsites; j++) {
			printf(j ? "," : "");
			print_site_json(a, w->sites[j]);
		}
		printf("]}");
	}
	printf("]}\n");
}

static bool erratum_shows(const struct eh_model *m)
{
	const struct eh_erratum *const *e;

	for (e = m->errata; e && *e; e++)
		if (!strcmp((*e)->id, AUDIT_ERRATUM))
			return !(*e)->manifests || (*e)->manifests(m);
	return false;
}

/* One build: loaded, patched for the model, audited (unless only its sites are listed). */
static int audit_build(struct audit_ctx *a, const char *path, const struct cli_inputs *in,
		       struct eh_audit **au, struct eh_error *err)
{
	a->target = (struct eh_target){ .model = a->model, .config = in->config };
	if (eh_elf_open(&a->elf, path, err) ||
	    eh_cpucaps_for_elf(&a->owned_caps, &a->caps, a->elf, in->caps, err) ||
	    eh_image_new(&a->img, a->elf, a->caps, &a->target, err) ||
	    (!a->dec && eh_decoder_new(&a->dec, err)) ||
	    (!a->o->list && eh_audit_run(au, a->img, err)))
		return EXIT_BAD_INPUT;
	return 0;
}

static void audit_ctx_free(struct audit_ctx *a)
{
	eh_decoder_free(a->dec);
	eh_image_free(a->img);
	eh_cpucaps_free(a->owned_caps);
	eh_elf_free(a->elf);
}

static void print_diff_text(const struct audit_ctx *old, const struct eh_audit *oa, const struct audit_ctx *a,
			    const struct eh_audit *au, const struct eh_audit_diff *d)
{
	static const char *const tags[] = {
		[EH_AUDIT_INTRODUCED] = "INTRODUCED", [EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};
	size_t i;

	printf("audit of %s against the baseline %s on %s (%s)\n", a->elf->path, old->elf->path,
	       a->model->name, a->model->desc);
	printf("  capabilities numbered as in %s; config %s\n", a->caps->source,
	       a->o->config ? a->o->config : "with every option on");
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
	       old->elf->path, a->elf->path, AUDIT_ERRATUM, a->affected ? "affects" : "does not affect",
	       a->model->name);
}

static void print_diff_json(const struct audit_ctx *old, const struct audit_ctx *a, const struct eh_audit_diff *d)
{
	size_t i;

	printf("{\"baseline\":");
	json_str(old->elf->path);
	printf(",\"file\":");
	json_str(a->elf->path);
	printf(",\"model\":");
	json_str(a->model->name);
	printf(",\"cpucaps\":");
	json_str(a->caps->source);
	printf(",\"erratum\":\"%s\",\"affected\":%s,\"introduced\":%zu,\"removed\":%zu,\"unchanged\":%zu"
	       ",\"findings\":[", AUDIT_ERRATUM, a->affected ? "true" : "false", d->count[EH_AUDIT_INTRODUCED],
	       d->count[EH_AUDIT_REMOVED], d->count[EH_AUDIT_UNCHANGED]);
	for (i = 0; i < d->n; i++) {
		const struct eh_audit_finding *f = &d->findings[i];

		printf("%s{\"change\":\"%s\",\"kind\":", i ? "," : "", eh_audit_change_name(f->change));
		json_str(f->open ? "open" : eh_insn_access_name(f->flags));
		printf(",\"window\":");
		json_str(f->window);
		printf(",\"where\":");
		json_str(f->where);
		printf(",\"text\":");
		json_str(f->open ? eh_audit_end_name((enum eh_audit_end_kind)f->flags) : f->text);
		if (f->old_addr)
			printf(",\"old_address\":\"0x%016" PRIx64 "\"", f->old_addr);
		if (f->new_addr)
			printf(",\"new_address\":\"0x%016" PRIx64 "\"", f->new_addr);
		printf("}");
	}
	printf("]}\n");
}

int cli_audit(int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct audit_ctx a = { .o = &o }, old = { .o = &o };
	struct cli_inputs in = { 0 };
	struct eh_audit *au = NULL, *oa = NULL;
	struct eh_audit_diff *diff = NULL;
	struct eh_error err = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	a.model = old.model = eh_model_find(o.model);
	if (!a.model)
		return bad("unknown model '%s' (see errata-harness models)", o.model);
	a.affected = old.affected = erratum_shows(a.model);
	rc = cli_inputs_open(&in, "audit", o.cpucaps, o.kernel, o.config);
	if (rc)
		return rc;
	rc = audit_build(&a, o.file, &in, &au, &err);
	if (!rc && o.baseline)
		rc = audit_build(&old, o.baseline, &in, &oa, &err);
	if (!rc && o.baseline && eh_audit_diff(&diff, oa, au, &err))
		rc = EXIT_BAD_INPUT;
	if (rc)
		goto out;
	if (diff && o.json)
		print_diff_json(&old, &a, diff);
	else if (diff)
		print_diff_text(&old, oa, &a, au, diff);
	else if (o.json)
		print_json(&a, au);
	else
		print_text(&a, au);
	/* A window not followed to its close may hold accesses elsewhere: not clean either. */
	if (diff)
		rc = diff->count[EH_AUDIT_INTRODUCED] && a.affected ? EXIT_UNEXPECTED : 0;
	else
		rc = au && (au->naccesses || au->nopen) && a.affected ? EXIT_UNEXPECTED : 0;
out:
	if (err.code)
		fprintf(stderr, "errata-harness audit: %s\n", err.msg);
	eh_audit_diff_free(diff);
	eh_audit_free(au);
	eh_audit_free(oa);
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

/* errata-harness report: every erratum on every model of one kernel ELF, a view over the audit's matrix, as text, JSON, JUnit or SARIF. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "eh/json.h"
#include "eh/report.h"
#include "eh/text.h"

static const struct cli_use report_uses[] = {
	{ &cli_options[CLI_OPT_MODEL], true,
	  "only these CPU models: NAME,NAME,... or the option repeated (default: all, every model)" },
	{ &cli_options[CLI_OPT_MODEL_FROM] },
	{ &cli_options[CLI_OPT_ERRATUM], true },
	{ &cli_options[CLI_OPT_CPUCAPS] },
	{ &cli_options[CLI_OPT_KERNEL], false,
	  "or a built-in capability numbering instead of a header: 5.4, 6.1 or 6.12" },
	{ &cli_options[CLI_OPT_CONFIG], false,
	  "the tree's .config: a capability whose CONFIG_ option is off is never detected, and an "
	  "erratum whose workaround's option is off is reported 'workaround configured out' (default: "
	  "every option on)" },
	{ &cli_options[CLI_OPT_BOOT] },
	{ &cli_options[CLI_OPT_SUPPRESS], false,
	  "findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...' (README); a suppressed "
	  "finding is reported with its justification and fails nothing" },
	{ &cli_options[CLI_OPT_FORMAT], false,
	  "text (default), json (harness/schema/report-v1.json), junit (a testcase per erratum and "
	  "model) or sarif (SARIF 2.1.0: a rule per erratum, a result per finding)" },
	{ &cli_options[CLI_OPT_OUTPUT] },
	{ &cli_options[CLI_OPT_WIDTH] },
	{ &cli_options[CLI_OPT_ALL], false,
	  "text: every (erratum, model) row, not affected ones included, and every finding (benign and "
	  "suppressed ones too), instead of the summary; json, junit and sarif always hold every row" },
	{ &cli_options[CLI_OPT_VERBOSE], false, "text: the same as --all" },
	{ &cli_options[CLI_OPT_HELP] },
	{ 0 },
};

const struct cli_command cli_report_command = {
	.name = "report", .args = "FILE", .min_args = 1, .max_args = 1,
	.summary = "every erratum on every model of a kernel ELF: the kernel-wide errata report",
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

static int on_option(void *ctx, const struct cli_option *opt, const char *value)
{
	struct report_opts *o = ctx;

	switch (opt->id) {
	case CLI_OPT_MODEL: return add_list(o->models, &o->nmodels, "--model", value);
	case CLI_OPT_ERRATUM: return add_list(o->errata, &o->nerrata, "--erratum", value);
	case CLI_OPT_MODEL_FROM: o->model_from = value; return 0;
	case CLI_OPT_CPUCAPS: o->cpucaps = value; return 0;
	case CLI_OPT_KERNEL: o->kernel = value; return 0;
	case CLI_OPT_CONFIG: o->config = value; return 0;
	case CLI_OPT_BOOT: o->boot = value; return 0;
	case CLI_OPT_SUPPRESS: o->suppress = value; return 0;
	case CLI_OPT_OUTPUT: o->output = value; return 0;
	case CLI_OPT_FORMAT: o->format = value; return 0;
	case CLI_OPT_WIDTH: o->width_given = true; return cli_parse_width(value, &o->style.width);
	case CLI_OPT_ALL:
	case CLI_OPT_VERBOSE: o->all = true; return 0;
	default: return usage_error("report: --%s is not an option of report", opt->name);
	}
}

size_t report_affected(const struct report *r, size_t g, size_t e, const struct eh_model **out, bool *shows)
{
	const struct eh_audit_image *im = &r->mx->images[g];
	size_t i, n = 0;

	*shows = false;
	/* A kernel older than the erratum's workaround has no finding of it that matters. */
	if (!eh_erratum_in_kernel(r->pick.errata[e], r->caps->kernel))
		return 0;
	for (i = 0; i < im->nmodels; i++) {
		enum eh_audit_status s = eh_audit_status_of(r->pick.errata[e], im->models[i]);

		if (s == EH_AUDIT_NOT_AFFECTED)
			continue;
		*shows |= s == EH_AUDIT_SHOWS;
		out[n++] = im->models[i];
	}
	return n;
}

const char *report_symbol(const struct eh_finding *f, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(f->where, "+"), f->where);
	return buf;
}

bool report_file_offset(const struct report *r, uint64_t addr, uint64_t *off)
{
	const struct eh_elf_section *s = eh_elf_section_at(r->elf, addr);

	if (!s || !s->data)
		return false;
	*off = s->offset + (addr - s->addr);
	return true;
}

const char *report_finding_text(const struct eh_finding *f, char *buf, size_t len)
{
	if (f->open)
		snprintf(buf, len, "open: %s%s%s", f->text, f->symbol ? " to " : "", f->symbol ? f->symbol : "");
	else if (f->anchor_where[0])
		snprintf(buf, len, "%s  (%s, anchor %s)", f->text, f->kind, f->anchor_where);
	else
		snprintf(buf, len, "%s  (%s)", f->text, f->kind);
	return buf;
}

/* ---- text --------------------------------------------------------------------------------- */

static int widest(const struct report *r, bool errata)
{
	size_t i, w = strlen(errata ? "erratum" : "model");
	size_t n = errata ? r->pick.nerrata : r->pick.nmodels;

	for (i = 0; i < n; i++) {
		size_t l = strlen(errata ? r->pick.errata[i]->id : r->pick.models[i]->name);

		w = l > w ? l : w;
	}
	return (int)w;
}

/* Terminal colours (SGR), used only when r->colour. */
#define SGR_HAZARD "\033[1;31m"
#define SGR_CLEAN "\033[32m"
#define SGR_QUIET "\033[2m"
#define SGR_RESET "\033[0m"

/* How many hazard sites of one erratum the summary shows; --all shows every one. */
#define REPORT_SITES_SHOWN 3

/* Print lead (in colour sgr when the report has colour), then text hung at column indent. */
static void hang_painted(const struct report *r, const char *sgr, const char *lead, unsigned indent, const char *text)
{
	fprintf(r->f, "%s%s%s", r->colour ? sgr : "", lead, r->colour ? SGR_RESET : "");
	eh_text_hang_at(r->f, &r->o->style, (unsigned)strlen(lead), indent, text);
}

/*
 * What erratum e is on model i, as the summary line groups the models: "hazards 3", "clean",
 * "not in 6.1" or "not exposed", with ", 2 suppressed" and ", workaround configured out"; NULL where not affected.
 */
static const char *cell_word(const struct report *r, size_t i, size_t e, char *buf, size_t len)
{
	struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);
	size_t at;

	if (c.status == EH_AUDIT_NOT_AFFECTED)
		return NULL;
	if (c.failing)
		at = (size_t)snprintf(buf, len, "hazards %zu", c.t->flagged);
	else if (c.not_in_kernel)
		at = (size_t)snprintf(buf, len, "not in %s", c.not_in_kernel);
	else
		at = (size_t)snprintf(buf, len, "%s", c.status == EH_AUDIT_SHOWS ? "clean" : "not exposed");
	if (c.t->suppressed && at < len)
		at += (size_t)snprintf(buf + at, len - at, ", %zu suppressed", c.t->suppressed);
	if (c.configured_out && at < len)
		snprintf(buf + at, len - at, ", workaround configured out");
	return buf;
}

/*
 * One line of the summary for erratum e: its id, then the models it affects grouped by what it is
 * on them ("hazards 1 on thunderx2, vulcan; not exposed on thunderx2-nosmt"), hazards first.
 */
static void summary_line(const struct report *r, size_t e, unsigned we)
{
	char word[128], other[128], text[8192];
	size_t i, j, at = 0, pass;
	bool hazard = false, any = false, *done = eh_alloc(r->pick.nmodels + 1);

	text[0] = 0;
	for (pass = 0; done && pass < 2; pass++)
		for (i = 0; i < r->pick.nmodels; i++) {
			if (done[i] || !cell_word(r, i, e, word, sizeof(word)) ||
			    (pass == 0) != !strncmp(word, "hazards", 7))
				continue;
			hazard |= pass == 0;
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s on %s", any ? "; " : "", word,
					       r->pick.models[i]->name);
			any = done[i] = true;
			for (j = i + 1; j < r->pick.nmodels && at < sizeof(text); j++)
				if (!done[j] && cell_word(r, j, e, other, sizeof(other)) && !strcmp(word, other)) {
					at += (size_t)snprintf(text + at, sizeof(text) - at, ", %s", r->pick.models[j]->name);
					done[j] = true;
				}
			if (at >= sizeof(text))
				at = sizeof(text) - 1;
		}
	eh_free(done);
	if (!any)
		snprintf(text, sizeof(text), "affects none of these models");
	snprintf(word, sizeof(word), "%-*s", (int)we, r->pick.errata[e]->id);
	hang_painted(r, hazard ? SGR_HAZARD : any ? SGR_CLEAN : SGR_QUIET, word, we + 2, text);
}

/* A place one erratum's rule flagged, and the models where it is that: a line of the findings. */
struct site {
	const struct eh_finding *f;
	const struct eh_suppression *sup;   /* the suppression covering it, or NULL */
	bool hazard;                        /* the erratum shows on these models (else benign there) */
	bool *on;                           /* by model, as r->pick */
};

static bool same_finding(const struct eh_finding *x, const struct eh_finding *y)
{
	return x->addr == y->addr && x->open == y->open && !strcmp(x->where, y->where) && !strcmp(x->text, y->text) &&
	       !strcmp(x->anchor_where, y->anchor_where);
}

/*
 * The findings of erratum e on the models it affects, one site per place (the same finding in
 * several images is one site on all their models), in the order of the images: into sites
 * (room for every finding twice), their count returned. Without --all only the hazards.
 */
static size_t collect_sites(const struct report *r, size_t e, struct site *sites, bool *on)
{
	size_t g, i, k, s, n = 0, nm = r->pick.nmodels;

	for (g = 0; g < r->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->mx->images[g].tallies[e];

		for (i = 0; i < nm; i++) {
			enum eh_audit_status st = eh_audit_status_of(r->pick.errata[e], r->pick.models[i]);

			if (r->mx->image_of[i] != g || st == EH_AUDIT_NOT_AFFECTED)
				continue;
			for (k = 0; k < t->res->nfindings; k++) {
				const struct eh_finding *f = &t->res->findings[k];
				bool hazard = st == EH_AUDIT_SHOWS && !t->sup[k];

				if (!r->o->all && !hazard)
					continue;
				for (s = 0; s < n && !(sites[s].hazard == hazard && sites[s].sup == t->sup[k] &&
						       same_finding(sites[s].f, f)); s++)
					;
				if (s == n)
					sites[n++] = (struct site){ f, t->sup[k], hazard, on + s * nm };
				sites[s].on[i] = true;
			}
		}
	}
	return n;
}

/* The rules that decided r's capabilities: the image's own, else its numbering's kernel version's. */
static const struct eh_cap_rules *report_rules(const struct report *r)
{
	return r->caps->rules ? r->caps->rules : eh_cap_rules_find(r->caps->kernel);
}

/* Whether c is the first rule of its capability in rules (a capability may have several entries). */
static bool first_of_name(const struct eh_cap_rules *rules, const struct eh_capability *c)
{
	const struct eh_capability *p;

	for (p = rules->caps; p != c; p++)
		if (!strcmp(p->name, c->name))
			return false;
	return true;
}

/*
 * First of all, what could not be decided: each entry of the image whose .matches the harness
 * has no rule for (treated as not detected), and which kernel's hand rules decided the rest.
 */
static void text_uncertain(const struct report *r)
{
	const struct eh_cap_rules *rules = report_rules(r);
	const struct eh_text_style *st = &r->o->style;
	const struct eh_capability *c;
	char why[512];
	size_t n = 0;

	if (!rules)
		return;
	for (c = rules->caps; c->name; c++)
		n += c->source == EH_CAP_UNCERTAIN;
	if (r->caps->release || n)
		eh_text_paraf(r->f, st, 2, "kernel %s; hand rules of Linux %s where an entry's test is code",
			      r->caps->release ? r->caps->release : "not named by the image", rules->kernel);
	if (!n)
		return;
	eh_text_paraf(r->f, st, 2, "%zu capabilit%s uncertain (treated as not detected):", n, n == 1 ? "y" : "ies");
	for (c = rules->caps; c->name; c++)
		if (c->source == EH_CAP_UNCERTAIN) {
			snprintf(why, sizeof(why), "%s: %s", c->name, c->rule ? c->rule : "?");
			eh_text_paraf(r->f, st, 4, "%s", why);
		}
}

/*
 * The sites of erratum e under its title: each run of sites on the same models under one line
 * naming them, each site by symbol+offset with its disassembly, tagged HAZARD, benign or
 * SUPPRESSED, and what the rule says of it (without --all: the first site's, and the first few sites).
 */
static void text_sites(const struct report *r, size_t e)
{
	const struct eh_erratum *er = r->pick.errata[e];
	const struct eh_text_style *st = &r->o->style;
	size_t g, total = 0, n, s, i, at, shown = 0, nm = r->pick.nmodels;
	struct site *sites;
	bool *on;
	char line[2048], what[512];
	const char *explained = NULL;

	for (g = 0; g < r->mx->nimages; g++)
		total += r->mx->images[g].tallies[e].res->nfindings;
	if (!total)
		return;
	sites = eh_alloc(2 * total * sizeof(*sites));
	on = eh_alloc(2 * total * (nm + 1));
	n = sites && on ? collect_sites(r, e, sites, on) : 0;
	if (n) {
		fputs("\n", r->f);
		eh_text_paraf(r->f, st, 0, "erratum %s: %s", er->id, er->title);
	}
	for (s = 0; s < n && (r->o->all || shown < REPORT_SITES_SHOWN); s++) {
		const struct site *x = &sites[s];

		if (!s || memcmp(x->on, sites[s - 1].on, nm) || x->hazard != sites[s - 1].hazard) {
			at = (size_t)snprintf(line, sizeof(line), "on");
			for (i = 0; i < nm && at < sizeof(line); i++)
				if (x->on[i])
					at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s", at > 2 ? "," : "",
							       r->pick.models[i]->name);
			if (at < sizeof(line))
				snprintf(line + at, sizeof(line) - at, ":");
			eh_text_para(r->f, st, 2, line);
		}
		snprintf(line, sizeof(line), "%s: %s", x->f->where, report_finding_text(x->f, what, sizeof(what)));
		hang_painted(r, x->sup ? SGR_QUIET : x->hazard ? SGR_HAZARD : SGR_QUIET,
			     x->sup ? "    SUPPRESSED" : x->hazard ? "    HAZARD" : "    benign", 16, line);
		shown += x->hazard;
		if (x->sup) {
			snprintf(line, sizeof(line), "suppressed by %s:%u: %s", r->sup->path, x->sup->line,
				 x->sup->justification);
			eh_text_wrap(r->f, st, 6, line);
		}
		if (!x->f->open && (r->o->all ? !explained || strcmp(explained, x->f->explain) : !explained)) {
			snprintf(line, sizeof(line), "why: %s", explained = x->f->explain);
			eh_text_wrap(r->f, st, 6, line);
		}
	}
	if (s < n)
		eh_text_paraf(r->f, st, 2, "... and %zu more site%s (--all lists every one)", n - s, n - s == 1 ? "" : "s");
	eh_free(on);
	eh_free(sites);
}

/* Every (erratum, model) cell, one a line (--all): clean, N findings, not affected, not exposed. */
static void text_rows(const struct report *r, unsigned we, unsigned wm)
{
	const struct eh_text_style *st = &r->o->style;
	char text[96], lead[160];
	size_t e, i;

	fputs("\n", r->f);
	eh_text_linef(r->f, st, "%-*s %-*s %5s  %s", (int)we, "erratum", (int)wm, "model", "image", "status");
	for (e = 0; e < r->pick.nerrata; e++)
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			eh_audit_cell_text(&c, text, sizeof(text));
			if (c.status != EH_AUDIT_NOT_AFFECTED && c.t->suppressed)
				snprintf(text + strlen(text), sizeof(text) - strlen(text), ", %zu suppressed",
					 c.t->suppressed);
			snprintf(lead, sizeof(lead), "%-*s %-*s %5zu", (int)we, r->pick.errata[e]->id, (int)wm,
				 r->pick.models[i]->name, r->mx->image_of[i] + 1);
			eh_text_hang(r->f, st, lead, we + wm + 9, text);
		}
}

/*
 * The text report: its inputs; a line per erratum with what it is on the models it affects; the
 * hazards by erratum and site; with --all every (erratum, model) row and every finding; the
 * counts and what the exit status means.
 */
static void write_text(const struct report *r)
{
	size_t count[4] = { 0 }, out = 0, older = 0, i, e;
	const struct eh_text_style *st = &r->o->style;
	unsigned we = (unsigned)widest(r, true), wm = (unsigned)widest(r, false);
	bool failing = eh_audit_matrix_failing(r->mx);

	eh_text_paraf(r->f, st, 0, "errata-harness %s report of %s", eh_version(), r->elf->path);
	text_uncertain(r);
	eh_text_paraf(r->f, st, 2, "capabilities numbered as in %s", r->caps->source);
	eh_text_paraf(r->f, st, 2, "config %s; booted at %s; suppressions %s", r->cfg.source, eh_boot_names[r->in.boot],
		      r->o->suppress ? r->o->suppress : "none");
	eh_text_paraf(r->f, st, 2, "%zu errata x %zu models, %zu patched images", r->pick.nerrata, r->pick.nmodels,
		      r->mx->nimages);
	fputs("\n", r->f);
	eh_text_linef(r->f, st, "%-*s  %s", (int)we, "erratum", "on the models it affects");
	for (e = 0; e < r->pick.nerrata; e++) {
		summary_line(r, e, we);
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			count[c.failing ? 3 : c.status] += !c.not_in_kernel;
			out += c.configured_out;
			older += c.not_in_kernel != NULL;
		}
	}
	if (r->o->all)
		text_rows(r, we, wm);
	for (e = 0; e < r->pick.nerrata; e++)
		text_sites(r, e);
	fputs("\n", r->f);
	cli_print_stale(r->sup, &r->pick, NULL, r->f, st);
	eh_text_paraf(r->f, st, 0, "summary: %zu clean, %zu with findings, %zu not affected, %zu not exposed",
		      count[EH_AUDIT_SHOWS], count[3], count[EH_AUDIT_NOT_AFFECTED], count[EH_AUDIT_NOT_EXPOSED]);
	eh_text_paraf(r->f, st, 2, "of %zu errata x %zu models; %zu with the workaround configured out",
		      r->pick.nerrata, r->pick.nmodels, out);
	if (older)
		eh_text_paraf(r->f, st, 2, "%zu affected where Linux %s has no workaround yet", older, r->caps->kernel);
	if (!r->o->all)
		eh_text_para(r->f, st, 2, "--all lists every row, the not affected ones too, and every finding");
	hang_painted(r, failing ? SGR_HAZARD : SGR_CLEAN, failing ? "exit status 1:" : "exit status 0:", 16,
		     failing ? "a finding on a model its erratum affects that no suppression covers (0: none; "
			       "2: bad usage or input)"
			     : "no finding on a model its erratum affects that no suppression covers (1: one; "
			       "2: bad usage or input)");
}

/* ---- JSON (harness/schema/report-v1.json) ------------------------------------------------------ */

void report_json_models(struct eh_json *j, const char *key, const struct eh_model *const *models, size_t n)
{
	size_t i;

	eh_json_array(j, key, true);
	for (i = 0; i < n; i++)
		eh_json_str(j, NULL, models[i]->name);
	eh_json_end(j);
}

static void json_finding(struct eh_json *j, const struct report *r, const struct eh_audit_tally *t, size_t i)
{
	const struct eh_finding *f = &t->res->findings[i];
	uint64_t off;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "kind", f->open ? "open" : f->kind);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "where", f->where);
	if (report_file_offset(r, f->addr, &off))
		eh_json_uint(j, "file_offset", off);
	eh_json_str(j, "text", f->text);
	eh_json_str(j, "anchor", f->anchor_where[0] ? f->anchor_where : NULL);
	eh_json_str(j, "end", f->open ? eh_audit_end_name(f->end) : NULL);
	eh_json_str(j, "symbol", f->symbol);
	eh_json_str(j, "explanation", f->explain);
	eh_json_str(j, "suppressed", t->sup[i] ? t->sup[i]->justification : NULL);
	eh_json_end(j);
}

/* Erratum e: what it is and, image by image where it affects a model, its findings. */
static void json_erratum(struct eh_json *j, const struct report *r, size_t e, const struct eh_model **models)
{
	const struct eh_erratum *er = r->pick.errata[e];
	size_t g, i, n;
	bool shows;

	eh_json_object(j, NULL, false);
	eh_json_str(j, "erratum", er->id);
	eh_json_str(j, "title", er->title);
	eh_json_str(j, "capability", er->capability);
	eh_json_str(j, "kconfig", er->kconfig);
	eh_json_str(j, "rule", er->rule->window ? "window" : "scan");
	eh_json_str(j, "summary", er->rule->summary);
	eh_json_bool(j, "configured_out", eh_audit_configured_out_of(&r->mx->o, er, r->pick.models, r->pick.nmodels, NULL));
	eh_json_array(j, "images", false);
	for (g = 0; g < r->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->mx->images[g].tallies[e];

		n = report_affected(r, g, e, models, &shows);
		if (!n)
			continue;
		eh_json_object(j, NULL, false);
		eh_json_uint(j, "image", g);
		report_json_models(j, "models", models, n);
		eh_json_bool(j, "shows", shows);
		eh_json_uint(j, "flagged", t->flagged);
		eh_json_uint(j, "suppressed", t->suppressed);
		eh_json_array(j, "findings", false);
		for (i = 0; i < t->res->nfindings; i++)
			json_finding(j, r, t, i);
		eh_json_end(j);
		eh_json_end(j);
	}
	eh_json_end(j);
	eh_json_end(j);
}

/* Where each capability's decision came from: the image's data, a hand rule (of which kernel), or uncertain. */
static void json_capabilities(struct eh_json *j, const struct report *r)
{
	const struct eh_cap_rules *rules = report_rules(r);
	const struct eh_capability *c;
	char why[512];
	unsigned number;

	eh_json_object(j, "kernel", true);
	eh_json_str(j, "release", r->caps->release);
	eh_json_str(j, "rules", rules ? rules->kernel : NULL);
	eh_json_end(j);
	eh_json_array(j, "capabilities", false);
	for (c = rules ? rules->caps : NULL; c && c->name; c++) {
		if (!first_of_name(rules, c))
			continue;
		eh_json_object(j, NULL, true);
		eh_json_str(j, "capability", c->name);
		if (!eh_cpucaps_number(r->caps, c->name, &number))
			eh_json_uint(j, "number", number);
		else
			eh_json_str(j, "number", NULL);
		eh_json_str(j, "source", eh_cap_source_name(c->source));
		/* A hand rule was checked against its table's kernel; image data is the image's own kernel's. */
		eh_json_str(j, "kernel", c->source == EH_CAP_FROM_HAND ? rules->kernel : r->caps->release);
		eh_json_str(j, "matches", c->kernel_matches);
		eh_json_str(j, "rule", eh_cap_explain(c, NULL, why, sizeof(why)));
		eh_json_end(j);
	}
	eh_json_end(j);
}

static void write_json(const struct report *r)
{
	const struct eh_model **models = eh_alloc((r->pick.nmodels + 1) * sizeof(*models));
	struct eh_json j;
	size_t i, e;
	char text[96];

	eh_json_begin(&j, r->f);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-report", 1);
	eh_json_object(&j, "inputs", false);
	eh_report_json_file(&j, "file", r->o->file);
	eh_report_json_file(&j, "cpucaps", r->o->cpucaps);
	eh_json_str(&j, "kernel", r->o->kernel);
	eh_report_json_file(&j, "config", r->o->config);
	eh_report_json_file(&j, "suppress", r->o->suppress);
	eh_json_str(&j, "boot", eh_boot_names[r->in.boot]);
	eh_json_end(&j);
	eh_json_str(&j, "file", r->elf->path);
	eh_json_str(&j, "cpucaps", r->caps->source);
	eh_json_str(&j, "config", r->cfg.config ? r->cfg.source : NULL);
	eh_json_str(&j, "boot", eh_boot_names[r->in.boot]);
	eh_json_str(&j, "suppress", r->o->suppress);
	eh_json_bool(&j, "failing", eh_audit_matrix_failing(r->mx));
	json_capabilities(&j, r);
	eh_json_array(&j, "images", false);
	for (i = 0; i < r->mx->nimages; i++) {
		const struct eh_audit_image *im = &r->mx->images[i];

		eh_json_object(&j, NULL, true);
		eh_json_uint(&j, "image", i);
		eh_json_bool(&j, "vhe", eh_target_vhe(&im->target));
		report_json_models(&j, "models", im->models, im->nmodels);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_array(&j, "matrix", false);
	for (e = 0; e < r->pick.nerrata; e++)
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			eh_json_object(&j, NULL, true);
			eh_json_str(&j, "erratum", r->pick.errata[e]->id);
			eh_json_str(&j, "model", r->pick.models[i]->name);
			eh_json_uint(&j, "image", r->mx->image_of[i]);
			eh_json_str(&j, "status", eh_audit_cell_status(&c));
			eh_json_bool(&j, "configured_out", c.configured_out);
			eh_json_str(&j, "text", eh_audit_cell_text(&c, text, sizeof(text)));
			eh_json_uint(&j, "flagged", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->flagged);
			eh_json_uint(&j, "suppressed", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->suppressed);
			eh_json_end(&j);
		}
	eh_json_end(&j);
	eh_json_array(&j, "errata", false);
	for (e = 0; models && e < r->pick.nerrata; e++)
		json_erratum(&j, r, e, models);
	eh_json_end(&j);
	cli_print_stale(r->sup, &r->pick, &j, NULL, NULL);
	eh_json_end(&j);
	eh_free(models);
}

/* ---- the command ------------------------------------------------------------------------------ */

static const struct {
	const char *name;
	void (*write)(const struct report *r);
} formats[] = {
	{ "text", write_text }, { "json", write_json }, { "junit", report_write_junit }, { "sarif", report_write_sarif },
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
		.sup = r->sup, .progress_ctx = &p,
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

int cli_report(int argc, char **argv)
{
	static const char *const all[] = { "all" };
	struct report_opts o = { .format = "text" };
	struct report r = { .o = &o };
	struct cli_output out = { 0 };
	struct eh_error err = { 0 };
	const char *pos[1];
	unsigned npos;
	size_t fmt;
	int rc = cli_parse(&cli_report_command, argc, argv, on_option, &o, pos, &npos);

	if (rc)
		return rc < 0 ? 0 : rc;
	o.file = pos[0];
	for (fmt = 0; fmt < sizeof(formats) / sizeof(formats[0]) && strcmp(formats[fmt].name, o.format); fmt++)
		;
	if (fmt == sizeof(formats) / sizeof(formats[0]))
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
		rc = cli_open_output(&out, o.output);
	if (!rc) {
		r.f = out.f;
		cli_text_width(&o.style, o.width_given, r.f);
		/* Colour for a person at a terminal, unless NO_COLOR (https://no-color.org) is set and not empty. */
		r.colour = !o.output && isatty(fileno(r.f)) && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
		formats[fmt].write(&r);
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

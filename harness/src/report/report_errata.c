/* The errata report (every erratum on every model of one image) as text and JSON, read from struct eh_findings. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/error.h"
#include "eh/cap.h"
#include "eh/report.h"
#include "eh/rule.h"
#include "report/report_errata.h"

size_t eh_report__affected(const struct eh_errata_out *r, size_t g, size_t e, const struct eh_model **out, bool *shows)
{
	const struct eh_audit_image *im = &r->fd->mx->images[g];
	size_t i, n = 0;

	*shows = false;
	/* A kernel older than the erratum's workaround has no finding of it that matters. */
	if (!eh_erratum_in_kernel(r->fd->errata[e], r->fd->caps->kernel))
		return 0;
	for (i = 0; i < im->nmodels; i++) {
		enum eh_audit_status s = eh_audit_status_of(r->fd->errata[e], im->models[i]);

		if (s == EH_AUDIT_NOT_AFFECTED)
			continue;
		*shows |= s == EH_AUDIT_SHOWS;
		out[n++] = im->models[i];
	}
	return n;
}

const char *eh_report__symbol(const struct eh_finding *f, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(f->where, "+"), f->where);
	return buf;
}

bool eh_report__file_offset(const struct eh_errata_out *r, uint64_t addr, uint64_t *off)
{
	const struct eh_elf_section *s = eh_elf_section_at(r->fd->elf, addr);

	if (!s || !s->data)
		return false;
	*off = s->offset + (addr - s->addr);
	return true;
}

const char *eh_report__finding_text(const struct eh_finding *f, char *buf, size_t len)
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

static int widest(const struct eh_errata_out *r, bool errata)
{
	size_t i, w = strlen(errata ? "erratum" : "model");
	size_t n = errata ? r->fd->nerrata : r->fd->nmodels;

	for (i = 0; i < n; i++) {
		size_t l = strlen(errata ? r->fd->errata[i]->id : r->fd->models[i]->name);

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
static void hang_painted(const struct eh_errata_out *r, const char *sgr, const char *lead, unsigned indent, const char *text)
{
	fprintf(r->f, "%s%s%s", r->colour ? sgr : "", lead, r->colour ? SGR_RESET : "");
	eh_text_hang_at(r->f, r->style, (unsigned)strlen(lead), indent, text);
}

/*
 * What erratum e is on model i, as the summary line groups the models: "hazards 3", "clean",
 * "not in 6.1" or "not exposed", with ", 2 suppressed" and ", workaround configured out"; NULL where not affected.
 */
static const char *cell_word(const struct eh_errata_out *r, size_t i, size_t e, char *buf, size_t len)
{
	struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);
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
static void summary_line(const struct eh_errata_out *r, size_t e, unsigned we)
{
	char word[128], other[128], text[8192];
	size_t i, j, at = 0, pass;
	bool hazard = false, any = false, *done = eh_alloc(r->fd->nmodels + 1);

	text[0] = 0;
	for (pass = 0; done && pass < 2; pass++)
		for (i = 0; i < r->fd->nmodels; i++) {
			if (done[i] || !cell_word(r, i, e, word, sizeof(word)) ||
			    (pass == 0) != !strncmp(word, "hazards", 7))
				continue;
			hazard |= pass == 0;
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s on %s", any ? "; " : "", word,
					       r->fd->models[i]->name);
			any = done[i] = true;
			for (j = i + 1; j < r->fd->nmodels && at < sizeof(text); j++)
				if (!done[j] && cell_word(r, j, e, other, sizeof(other)) && !strcmp(word, other)) {
					at += (size_t)snprintf(text + at, sizeof(text) - at, ", %s", r->fd->models[j]->name);
					done[j] = true;
				}
			if (at >= sizeof(text))
				at = sizeof(text) - 1;
		}
	eh_free(done);
	if (!any)
		snprintf(text, sizeof(text), "affects none of these models");
	snprintf(word, sizeof(word), "%-*s", (int)we, r->fd->errata[e]->id);
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
static size_t collect_sites(const struct eh_errata_out *r, size_t e, struct site *sites, bool *on)
{
	size_t g, i, k, s, n = 0, nm = r->fd->nmodels;

	for (g = 0; g < r->fd->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->fd->mx->images[g].tallies[e];

		for (i = 0; i < nm; i++) {
			enum eh_audit_status st = eh_audit_status_of(r->fd->errata[e], r->fd->models[i]);

			if (r->fd->mx->image_of[i] != g || st == EH_AUDIT_NOT_AFFECTED)
				continue;
			for (k = 0; k < t->res->nfindings; k++) {
				const struct eh_finding *f = &t->res->findings[k];
				bool hazard = st == EH_AUDIT_SHOWS && !t->sup[k];

				if (!r->all && !hazard)
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
static const struct eh_cap_rules *report_rules(const struct eh_errata_out *r)
{
	return r->fd->caps->rules ? r->fd->caps->rules : eh_cap_rules_find(r->fd->caps->kernel);
}

/*
 * First of all, what could not be decided: each entry of the image whose .matches the harness
 * has no rule for (treated as not detected), and which kernel's hand rules decided the rest.
 */
static void text_uncertain(const struct eh_errata_out *r)
{
	const struct eh_cap_rules *rules = report_rules(r);
	const struct eh_text_style *st = r->style;
	const struct eh_capability *c;
	char why[512];
	size_t n = 0;

	if (!rules)
		return;
	for (c = rules->caps; c->name; c++)
		n += c->source == EH_CAP_UNCERTAIN;
	if (r->fd->caps->release || n)
		eh_text_paraf(r->f, st, 2, "kernel %s; hand rules of Linux %s where an entry's test is code",
			      r->fd->caps->release ? r->fd->caps->release : "not named by the image", rules->kernel);
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
static void text_sites(const struct eh_errata_out *r, size_t e)
{
	const struct eh_erratum *er = r->fd->errata[e];
	const struct eh_text_style *st = r->style;
	size_t g, total = 0, n, s, i, at, shown = 0, nm = r->fd->nmodels;
	struct site *sites;
	bool *on;
	char line[2048], what[512];
	const char *explained = NULL;

	for (g = 0; g < r->fd->mx->nimages; g++)
		total += r->fd->mx->images[g].tallies[e].res->nfindings;
	if (!total)
		return;
	sites = eh_alloc(2 * total * sizeof(*sites));
	on = eh_alloc(2 * total * (nm + 1));
	n = sites && on ? collect_sites(r, e, sites, on) : 0;
	if (n) {
		fputs("\n", r->f);
		eh_text_paraf(r->f, st, 0, "erratum %s: %s", er->id, er->title);
	}
	for (s = 0; s < n && (r->all || shown < REPORT_SITES_SHOWN); s++) {
		const struct site *x = &sites[s];

		if (!s || memcmp(x->on, sites[s - 1].on, nm) || x->hazard != sites[s - 1].hazard) {
			at = (size_t)snprintf(line, sizeof(line), "on");
			for (i = 0; i < nm && at < sizeof(line); i++)
				if (x->on[i])
					at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s", at > 2 ? "," : "",
							       r->fd->models[i]->name);
			if (at < sizeof(line))
				snprintf(line + at, sizeof(line) - at, ":");
			eh_text_para(r->f, st, 2, line);
		}
		snprintf(line, sizeof(line), "%s: %s", x->f->where, eh_report__finding_text(x->f, what, sizeof(what)));
		hang_painted(r, x->sup ? SGR_QUIET : x->hazard ? SGR_HAZARD : SGR_QUIET,
			     x->sup ? "    SUPPRESSED" : x->hazard ? "    HAZARD" : "    benign", 16, line);
		shown += x->hazard;
		if (x->sup) {
			snprintf(line, sizeof(line), "suppressed by %s:%u: %s", r->fd->sup->path, x->sup->line,
				 x->sup->justification);
			eh_text_wrap(r->f, st, 6, line);
		}
		if (!x->f->open && (r->all ? !explained || strcmp(explained, x->f->explain) : !explained)) {
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
static void text_rows(const struct eh_errata_out *r, unsigned we, unsigned wm)
{
	const struct eh_text_style *st = r->style;
	char text[96], lead[160];
	size_t e, i;

	fputs("\n", r->f);
	eh_text_linef(r->f, st, "%-*s %-*s %5s  %s", (int)we, "erratum", (int)wm, "model", "image", "status");
	for (e = 0; e < r->fd->nerrata; e++)
		for (i = 0; i < r->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);

			eh_audit_cell_text(&c, text, sizeof(text));
			if (c.status != EH_AUDIT_NOT_AFFECTED && c.t->suppressed)
				snprintf(text + strlen(text), sizeof(text) - strlen(text), ", %zu suppressed",
					 c.t->suppressed);
			snprintf(lead, sizeof(lead), "%-*s %-*s %5zu", (int)we, r->fd->errata[e]->id, (int)wm,
				 r->fd->models[i]->name, r->fd->mx->image_of[i] + 1);
			eh_text_hang(r->f, st, lead, we + wm + 9, text);
		}
}

/*
 * The text report: its inputs; a line per erratum with what it is on the models it affects; the
 * hazards by erratum and site; with --all every (erratum, model) row and every finding; the
 * counts and what the exit status means.
 */
void eh_report__errata_text(const struct eh_errata_out *r)
{
	size_t count[4] = { 0 }, out = 0, older = 0, i, e;
	const struct eh_text_style *st = r->style;
	unsigned we = (unsigned)widest(r, true), wm = (unsigned)widest(r, false);
	bool failing = eh_audit_matrix_failing(r->fd->mx);

	eh_text_paraf(r->f, st, 0, "errata-harness %s report of %s", eh_version(), r->fd->elf->path);
	text_uncertain(r);
	eh_text_paraf(r->f, st, 2, "capabilities numbered as in %s", r->fd->caps->source);
	eh_text_paraf(r->f, st, 2, "config %s; booted at %s; suppressions %s", r->fd->config_source, eh_boot_names[r->fd->boot],
		      r->in->suppress ? r->in->suppress : "none");
	eh_text_paraf(r->f, st, 2, "%zu errata x %zu models, %zu patched images", r->fd->nerrata, r->fd->nmodels,
		      r->fd->mx->nimages);
	fputs("\n", r->f);
	eh_text_linef(r->f, st, "%-*s  %s", (int)we, "erratum", "on the models it affects");
	for (e = 0; e < r->fd->nerrata; e++) {
		summary_line(r, e, we);
		for (i = 0; i < r->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);

			count[c.failing ? 3 : c.status] += !c.not_in_kernel;
			out += c.configured_out;
			older += c.not_in_kernel != NULL;
		}
	}
	if (r->all)
		text_rows(r, we, wm);
	for (e = 0; e < r->fd->nerrata; e++)
		text_sites(r, e);
	fputs("\n", r->f);
	eh_report_stale(r->fd, NULL, r->f, st);
	eh_text_paraf(r->f, st, 0, "summary: %zu clean, %zu with findings, %zu not affected, %zu not exposed",
		      count[EH_AUDIT_SHOWS], count[3], count[EH_AUDIT_NOT_AFFECTED], count[EH_AUDIT_NOT_EXPOSED]);
	eh_text_paraf(r->f, st, 2, "of %zu errata x %zu models; %zu with the workaround configured out",
		      r->fd->nerrata, r->fd->nmodels, out);
	if (older)
		eh_text_paraf(r->f, st, 2, "%zu affected where Linux %s has no workaround yet", older, r->fd->caps->kernel);
	if (!r->all)
		eh_text_para(r->f, st, 2, "--all lists every row, the not affected ones too, and every finding");
	hang_painted(r, failing ? SGR_HAZARD : SGR_CLEAN, failing ? "exit status 1:" : "exit status 0:", 16,
		     failing ? "a finding on a model its erratum affects that no suppression covers (0: none; "
			       "2: bad usage or input)"
			     : "no finding on a model its erratum affects that no suppression covers (1: one; "
			       "2: bad usage or input)");
}

/* ---- JSON (harness/schema/report-v1.json) ------------------------------------------------------ */

void eh_report__json_models(struct eh_json *j, const char *key, const struct eh_model *const *models, size_t n)
{
	size_t i;

	eh_json_array(j, key, true);
	for (i = 0; i < n; i++)
		eh_json_str(j, NULL, models[i]->name);
	eh_json_end(j);
}

static void json_finding(struct eh_json *j, const struct eh_errata_out *r, const struct eh_audit_tally *t, size_t i)
{
	const struct eh_finding *f = &t->res->findings[i];
	uint64_t off;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "kind", f->open ? "open" : f->kind);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "where", f->where);
	if (eh_report__file_offset(r, f->addr, &off))
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
static void json_erratum(struct eh_json *j, const struct eh_errata_out *r, size_t e, const struct eh_model **models)
{
	const struct eh_erratum *er = r->fd->errata[e];
	size_t g, i, n;
	bool shows;

	eh_json_object(j, NULL, false);
	eh_json_str(j, "erratum", er->id);
	eh_json_str(j, "title", er->title);
	eh_json_str(j, "capability", er->capability);
	eh_json_str(j, "kconfig", er->kconfig);
	eh_json_str(j, "rule", er->rule->window ? "window" : "scan");
	eh_json_str(j, "summary", er->rule->summary);
	eh_json_bool(j, "configured_out", eh_audit_configured_out_of(&r->fd->mx->o, er, r->fd->models, r->fd->nmodels, NULL));
	eh_json_array(j, "images", false);
	for (g = 0; g < r->fd->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->fd->mx->images[g].tallies[e];

		n = eh_report__affected(r, g, e, models, &shows);
		if (!n)
			continue;
		eh_json_object(j, NULL, false);
		eh_json_uint(j, "image", g);
		eh_report__json_models(j, "models", models, n);
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
static void json_capabilities(struct eh_json *j, const struct eh_errata_out *r)
{
	const struct eh_cap_rules *rules = report_rules(r);
	const struct eh_capability *c;
	char why[512];
	unsigned number;

	eh_json_object(j, "kernel", true);
	eh_json_str(j, "release", r->fd->caps->release);
	eh_json_str(j, "rules", rules ? rules->kernel : NULL);
	eh_json_end(j);
	eh_json_array(j, "capabilities", false);
	for (c = rules ? rules->caps : NULL; c && c->name; c++) {
		if (!eh_cap_rules_first(rules, c))
			continue;
		eh_json_object(j, NULL, true);
		eh_json_str(j, "capability", c->name);
		if (!eh_cpucaps_number(r->fd->caps, c->name, &number))
			eh_json_uint(j, "number", number);
		else
			eh_json_str(j, "number", NULL);
		eh_json_str(j, "source", eh_cap_source_name(c->source));
		/* A hand rule was checked against its table's kernel; image data is the image's own kernel's. */
		eh_json_str(j, "kernel", c->source == EH_CAP_FROM_HAND ? rules->kernel : r->fd->caps->release);
		eh_json_str(j, "matches", c->kernel_matches);
		eh_json_str(j, "rule", eh_cap_explain(c, NULL, why, sizeof(why)));
		eh_json_end(j);
	}
	eh_json_end(j);
}

void eh_report__errata_json(const struct eh_errata_out *r)
{
	const struct eh_model **models = eh_alloc((r->fd->nmodels + 1) * sizeof(*models));
	struct eh_json j;
	size_t i, e;
	char text[96];

	eh_json_begin(&j, r->f);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-report", 1);
	eh_report__json_inputs(&j, r->in, r->fd->boot, false);
	eh_json_str(&j, "file", r->fd->elf->path);
	eh_json_str(&j, "cpucaps", r->fd->caps->source);
	eh_json_str(&j, "config", r->fd->config ? r->fd->config_source : NULL);
	eh_json_str(&j, "boot", eh_boot_names[r->fd->boot]);
	eh_json_str(&j, "suppress", r->in->suppress);
	eh_json_bool(&j, "failing", eh_audit_matrix_failing(r->fd->mx));
	json_capabilities(&j, r);
	eh_json_array(&j, "images", false);
	for (i = 0; i < r->fd->mx->nimages; i++) {
		const struct eh_audit_image *im = &r->fd->mx->images[i];

		eh_json_object(&j, NULL, true);
		eh_json_uint(&j, "image", i);
		eh_json_bool(&j, "vhe", eh_target_vhe(&im->target));
		eh_report__json_models(&j, "models", im->models, im->nmodels);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_array(&j, "matrix", false);
	for (e = 0; e < r->fd->nerrata; e++)
		for (i = 0; i < r->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->fd->mx, i, e);

			eh_json_object(&j, NULL, true);
			eh_json_str(&j, "erratum", r->fd->errata[e]->id);
			eh_json_str(&j, "model", r->fd->models[i]->name);
			eh_json_uint(&j, "image", r->fd->mx->image_of[i]);
			eh_json_str(&j, "status", eh_audit_cell_status(&c));
			eh_json_bool(&j, "configured_out", c.configured_out);
			eh_json_str(&j, "text", eh_audit_cell_text(&c, text, sizeof(text)));
			eh_json_uint(&j, "flagged", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->flagged);
			eh_json_uint(&j, "suppressed", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->suppressed);
			eh_json_end(&j);
		}
	eh_json_end(&j);
	eh_json_array(&j, "errata", false);
	for (e = 0; models && e < r->fd->nerrata; e++)
		json_erratum(&j, r, e, models);
	eh_json_end(&j);
	eh_report_stale(r->fd, &j, NULL, NULL);
	eh_json_end(&j);
	eh_free(models);
}

void eh_report_errata(FILE *f, const struct eh_findings *fd, enum eh_errata_format fmt,
		      const struct eh_errata_report_opts *o)
{
	static void (*const write[EH_ERRATA_FORMAT_COUNT])(const struct eh_errata_out *r) = {
		[EH_ERRATA_TEXT] = eh_report__errata_text, [EH_ERRATA_JSON] = eh_report__errata_json,
		[EH_ERRATA_JUNIT] = eh_report__errata_junit, [EH_ERRATA_SARIF] = eh_report__errata_sarif,
	};
	const struct eh_errata_out r = {
		.fd = fd, .f = f, .style = o->style, .all = o->all, .colour = o->colour, .in = o->inputs,
	};

	write[fmt](&r);
}

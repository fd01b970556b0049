/* The audit's reports, text and JSON, read from one build's findings (struct eh_findings); the comparison of two builds. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "eh/alt.h"
#include "eh/cap.h"
#include "eh/disasm.h"
#include "eh/insn.h"
#include "eh/report.h"
#include "eh/report_audit.h"
#include "eh/rule.h"
#include "report/report_errata.h"

/* What every writer reads: the findings, where they go and how. */
struct out {
	const struct eh_findings *fd;
	FILE *f;
	const struct eh_text_style *style;
	bool list;
	const struct eh_findings_inputs *in;
	struct eh_decoder *dec;
};

static const char *where(const struct out *a, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(a->fd->elf, addr, buf, len);
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

/* Why a site is or is not patched on this model (o: what the image made of s). */
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

static const char *cb_name(const struct out *a, const struct eh_alt_site *s, char *buf, size_t len)
{
	return s->cb_name ? eh_alt_cb_name(s) : where(a, s->repl, buf, len);
}

static void insn_at(const struct out *a, const struct eh_image *img, uint64_t addr, bool patched,
		    struct eh_insn *out)
{
	uint32_t w = 0;
	int rc = patched ? eh_image_word(img, addr, &w) : eh_elf_word(a->fd->elf, addr, &w);

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
static void put(const struct out *a, unsigned indent, struct line *l)
{
	eh_text_para(a->f, a->style, indent, l->s);
	l->n = 0;
	l->s[0] = 0;
}

/* A site: where, capability, what happened; prefix ("passes ") before it, at indent. */
static void print_site_text(const struct out *a, const struct eh_image *img, const struct eh_alt_site *s,
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

static void print_site_json(struct eh_json *j, const char *key, const struct out *a,
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
static void print_finding_text(const struct out *a, const struct eh_image *img, const struct eh_audit_tally *r,
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
		add(&l, "  [%s:%u: %s]", a->fd->sup->path, s->line, s->justification);
	put(a, 4, &l);
	if (!f->open && (!*explained || strcmp(*explained, f->explain)))
		eh_text_paraf(a->f, a->style, 6, "why: %s", *explained = f->explain);
}

/*
 * A window rule's anchors: each with its class, what its window runs through, finds and how it
 * ends; without -v only those with a finding (an open path is one), the others counted.
 */
static void print_windows_text(const struct out *a, const struct eh_image *img, const struct eh_audit_tally *r)
{
	const struct eh_audit_result *res = r->res;
	const struct eh_window_rule *rule = res->erratum->rule->window;
	const char *explained = NULL;
	size_t i, j, quiet = 0;
	char loc[160];

	eh_text_paraf(a->f, a->style, 0, "%s: %zu", rule->anchors, res->nwindows);
	for (i = 0; i < res->nwindows; i++) {
		const struct eh_audit_window *w = &res->windows[i];
		size_t k = w->first;

		if (!a->style->verbose && !w->nfindings) {
			quiet++;
			continue;
		}

		eh_text_paraf(a->f, a->style, 2, "%s (0x%016" PRIx64 "): %s  [%s%s%s]",
			      where(a, w->anchor, loc, sizeof(loc)), w->anchor, w->text, rule->classes[w->cls].name,
			      w->why ? ": " : "", w->why ? w->why : "");
		for (j = 0; j < w->nsites; j++)
			print_site_text(a, img, w->sites[j], 4, "passes ");
		for (; k < w->first + w->nfindings && !res->findings[k].open; k++)
			print_finding_text(a, img, r, k, &explained);
		for (j = 0; j < w->nends; j++) {
			const struct eh_audit_end *e = &w->ends[j];

			if (e->kind == EH_AUDIT_CLOSED)
				eh_text_paraf(a->f, a->style, 4, "closes at %s: %s", where(a, e->addr, loc, sizeof(loc)),
					      e->text);
			else
				print_finding_text(a, img, r, k++, &explained);
		}
	}
	if (quiet)
		eh_text_paraf(a->f, a->style, 2, "%zu without a finding (-v lists them)",
			      quiet);
	eh_text_paraf(a->f, a->style, 0, "%s by %s:", rule->anchors, rule->classified_by);
	for (i = 0; rule->classes[i].name; i++)
		if (res->nclass[i])
			eh_text_paraf(a->f, a->style, 2, "%-22s %4zu  %s", rule->classes[i].name, res->nclass[i],
				      rule->classes[i].rule);
}

/* What one erratum's rule found in the image, and its summary line. */
static void print_rule_text(const struct out *a, const struct eh_audit_image *im, const struct eh_audit_tally *r)
{
	const struct eh_erratum *e = r->res->erratum;
	const struct eh_window_rule *window = e->rule->window;
	const char *explained = NULL;
	struct line l = { .n = 0 };
	char names[512];
	const char *symbol;
	size_t i;

	eh_text_paraf(a->f, a->style, 0, "erratum %s: %s", e->id, e->title);
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
	if (eh_audit_configured_out_of(&a->fd->mx->o, e, im->models, im->nmodels, &symbol))
		add(&l, " (workaround configured out: %s)", symbol ? symbol : "the config turns off the lines of the models it affects");
	put(a, 0, &l);
}

static void print_image_text(const struct out *a, const struct eh_audit_image *im)
{
	const struct eh_image *img = im->img;
	size_t i;
	char names[512];

	if (im->nmodels == 1)
		eh_text_paraf(a->f, a->style, 0, "audit of %s on %s (%s)", a->fd->elf->path, im->models[0]->name,
			      im->models[0]->desc);
	else
		eh_text_paraf(a->f, a->style, 0, "audit of %s on %s (one patched image)", a->fd->elf->path,
			      model_names(im, names, sizeof(names)));
	eh_text_paraf(a->f, a->style, 2, "capabilities numbered as in %s; config %s; booted at %s%s",
		      img->caps->source, a->fd->config_source, eh_boot_names[im->target.boot],
		      eh_target_vhe(&im->target) ? " (VHE)" : "");
	eh_text_paraf(a->f, a->style, 2, "alternatives: %zu sites, %zu applied", img->nsites, eh_image_napplied(img));
	if (a->list) {
		for (i = 0; i < img->nsites; i++)
			print_site_text(a, img, &img->sites[i], 2, "");
		eh_report_cap_decisions(a->f, img, &im->target);
		return;
	}
	for (i = 0; i < im->au->nresults; i++)
		print_rule_text(a, im, &im->tallies[i]);
}

static void print_finding_json(struct eh_json *j, const struct out *a, const struct eh_image *img,
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

static void print_windows_json(struct eh_json *j, const struct out *a, const struct eh_image *img,
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
static void print_rule_json(struct eh_json *j, const struct out *a, const struct eh_audit_image *im,
			    const struct eh_audit_tally *r)
{
	const struct eh_erratum *e = r->res->erratum;
	size_t i;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "erratum", e->id);
	eh_json_str(j, "title", e->title);
	eh_json_str(j, "rule", e->rule->window ? "window" : "scan");
	eh_json_bool(j, "affected", r->shows);
	eh_json_bool(j, "configured_out", eh_audit_configured_out_of(&a->fd->mx->o, e, im->models, im->nmodels, NULL));
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
static void print_header_json(struct eh_json *j, const struct out *a, const char *format)
{
	eh_report_json_header(j, format, 1);
	eh_json_str(j, "suppress", a->in->suppress);
	eh_report__json_inputs(j, a->in, a->fd->boot, true);
}

void eh_report__json_inputs(struct eh_json *j, const struct eh_findings_inputs *in, enum eh_boot boot, bool baseline)
{
	eh_json_object(j, "inputs", false);
	eh_report_json_file(j, "file", in->file);
	if (baseline)
		eh_report_json_file(j, "baseline", in->baseline);
	eh_report_json_file(j, "cpucaps", in->cpucaps);
	eh_json_str(j, "kernel", in->kernel);
	eh_report_json_file(j, "config", in->config);
	eh_report_json_file(j, "suppress", in->suppress);
	eh_json_str(j, "boot", eh_boot_names[boot]);
	eh_json_end(j);
}

/* The image's object (the document itself when header), left open for the caller to end. */
static void print_image_json(struct eh_json *j, const struct out *a, const struct eh_audit_image *im,
			     bool header)
{
	const struct eh_image *img = im->img;
	size_t i, m;

	eh_json_object(j, NULL, true);
	if (header)
		print_header_json(j, a, "errata-harness-audit");
	eh_json_str(j, "file", a->fd->elf->path);
	if (im->nmodels == 1 && a->fd->nmodels == 1) {
		eh_json_str(j, "model", im->models[0]->name);
	} else {
		eh_json_array(j, "models", true);
		for (m = 0; m < im->nmodels; m++)
			eh_json_str(j, NULL, im->models[m]->name);
		eh_json_end(j);
	}
	eh_json_str(j, "cpucaps", img->caps->source);
	eh_json_str(j, "config", a->fd->config ? a->fd->config_source : NULL);
	eh_json_str(j, "boot", eh_boot_names[im->target.boot]);
	eh_json_bool(j, "vhe", eh_target_vhe(&im->target));
	eh_json_uint(j, "alternatives", img->nsites);
	eh_json_uint(j, "applied", eh_image_napplied(img));
	if (a->list) {
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
static int name_widths(const struct out *a, int *erratum)
{
	size_t i, w = strlen("model");

	for (i = 0; i < a->fd->nmodels; i++)
		w = strlen(a->fd->models[i]->name) > w ? strlen(a->fd->models[i]->name) : w;
	*erratum = (int)strlen("erratum");
	for (i = 0; i < a->fd->nerrata; i++)
		*erratum = (int)strlen(a->fd->errata[i]->id) > *erratum ? (int)strlen(a->fd->errata[i]->id) : *erratum;
	return (int)w;
}

/* One line per (erratum, model): its image, what the erratum's rule found there and what that means. */
static void print_matrix_text(const struct out *a)
{
	int we, wm = name_widths(a, &we);
	size_t i, e;
	char text[64];

	if (a->list) {
		fprintf(a->f, "%-*s %5s\n", wm, "model", "image");
		for (i = 0; i < a->fd->nmodels; i++)
			fprintf(a->f, "%-*s %5zu\n", wm, a->fd->models[i]->name, a->fd->mx->image_of[i] + 1);
		return;
	}
	fprintf(a->f, "%-*s  %-*s %5s %8s %10s  %s\n", we, "erratum", wm, "model", "image", "findings", "suppressed", "status");
	for (e = 0; e < a->fd->nerrata; e++)
		for (i = 0; i < a->fd->nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(a->fd->mx, i, e);

			eh_text_paraf(a->f, a->style, 0, "%-*s  %-*s %5zu %8zu %10zu  %s", we, c.t->res->erratum->id,
				      wm, a->fd->models[i]->name, a->fd->mx->image_of[i] + 1, c.t->flagged, c.t->suppressed,
				      eh_audit_cell_text(&c, text, sizeof(text)));
		}
}

static void print_matrix_json(struct eh_json *j, const struct out *a)
{
	size_t i, e;

	eh_json_array(j, "matrix", true);
	for (e = 0; e < (a->list ? 1 : a->fd->nerrata); e++)
		for (i = 0; i < a->fd->nmodels; i++) {
			eh_json_object(j, NULL, true);
			if (!a->list) {
				struct eh_audit_cell c = eh_audit_matrix_cell(a->fd->mx, i, e);

				eh_json_str(j, "erratum", c.t->res->erratum->id);
				eh_json_str(j, "model", a->fd->models[i]->name);
				eh_json_uint(j, "image", a->fd->mx->image_of[i]);
				eh_json_bool(j, "affected", c.status != EH_AUDIT_NOT_AFFECTED);
				eh_json_bool(j, "shows", c.status == EH_AUDIT_SHOWS);
				eh_json_bool(j, "configured_out", c.configured_out);
				eh_json_str(j, "status", eh_audit_cell_status(&c));
				eh_json_uint(j, "flagged", c.t->flagged);
				eh_json_uint(j, "hazards", c.status == EH_AUDIT_SHOWS ? c.t->inside : 0);
				eh_json_uint(j, "open", c.t->open);
				eh_json_uint(j, "suppressed", c.t->suppressed);
			} else {
				eh_json_str(j, "model", a->fd->models[i]->name);
				eh_json_uint(j, "image", a->fd->mx->image_of[i]);
			}
			eh_json_end(j);
		}
	eh_json_end(j);
}

static void print_report(const struct out *a, bool json)
{
	struct eh_json j;
	size_t i;

	if (json) {
		eh_json_begin(&j, a->f);
		if (a->fd->nmodels == 1) {
			/* One model: the image's own object, with the stale suppressions. */
			print_image_json(&j, a, &a->fd->mx->images[0], true);
			eh_report_stale(a->fd, &j, a->f, NULL);
			eh_json_end(&j);
			return;
		}
		eh_json_object(&j, NULL, true);
		print_header_json(&j, a, "errata-harness-audit");
		eh_json_str(&j, "file", a->fd->elf->path);
		eh_json_str(&j, "boot", eh_boot_names[a->fd->boot]);
		print_matrix_json(&j, a);
		eh_json_array(&j, "images", true);
		for (i = 0; i < a->fd->mx->nimages; i++) {
			print_image_json(&j, a, &a->fd->mx->images[i], false);
			eh_json_end(&j);
		}
		eh_json_end(&j);
		eh_report_stale(a->fd, &j, a->f, NULL);
		eh_json_end(&j);
		return;
	}
	for (i = 0; i < a->fd->mx->nimages; i++) {
		if (a->fd->mx->nimages > 1)
			fprintf(a->f, "%s== image %zu ==\n", i ? "\n" : "", i + 1);
		print_image_text(a, &a->fd->mx->images[i]);
	}
	if (a->fd->nmodels > 1) {
		fprintf(a->f, "\n");
		print_matrix_text(a);
	}
	eh_report_stale(a->fd, NULL, a->f, a->style);
}

/* Each audited erratum on the model: "erratum tx2-219 affects thunderx2", joined by "; ". */
static void add_errata_on(struct line *l, const struct out *a)
{
	size_t e;

	for (e = 0; e < a->fd->nerrata; e++)
		add(l, "%serratum %s %s %s", e ? "; " : "", a->fd->errata[e]->id,
		    eh_audit_status_of(a->fd->errata[e], a->fd->models[0]) == EH_AUDIT_SHOWS ? "affects" : "does not affect",
		    a->fd->models[0]->name);
}

static void print_diff_text(const struct out *old, const struct out *a, const struct eh_audit_diff *d)
{
	static const char *const tags[] = {
		[EH_AUDIT_INTRODUCED] = "INTRODUCED", [EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};
	const struct eh_model *m = a->fd->models[0];
	struct line l = { .n = 0 };
	size_t i;

	eh_text_paraf(a->f, a->style, 0, "audit of %s against the baseline %s on %s (%s)", a->fd->elf->path,
		      old->fd->elf->path, m->name, m->desc);
	eh_text_paraf(a->f, a->style, 2, "capabilities numbered as in %s; config %s; booted at %s",
		      a->fd->caps->source, a->fd->config_source, eh_boot_names[a->fd->boot]);
	for (i = 0; i < a->fd->mx->images[0].au->nresults; i++) {
		const struct eh_audit_tally *ro = &old->fd->mx->images[0].tallies[i], *rn = &a->fd->mx->images[0].tallies[i];

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
	    d->count[EH_AUDIT_REMOVED], d->count[EH_AUDIT_UNCHANGED], old->fd->elf->path, a->fd->elf->path);
	add_errata_on(&l, a);
	put(a, 0, &l);
}

static void print_diff_json(const struct out *old, const struct out *a, const struct eh_audit_diff *d)
{
	struct eh_json j;
	size_t i;

	eh_json_begin(&j, a->f);
	eh_json_object(&j, NULL, true);
	print_header_json(&j, a, "errata-harness-audit-baseline");
	eh_json_str(&j, "baseline", old->fd->elf->path);
	eh_json_str(&j, "file", a->fd->elf->path);
	eh_json_str(&j, "model", a->fd->models[0]->name);
	eh_json_str(&j, "cpucaps", a->fd->caps->source);
	eh_json_str(&j, "boot", eh_boot_names[a->fd->boot]);
	eh_json_array(&j, "errata", true);
	for (i = 0; i < a->fd->nerrata; i++) {
		eh_json_object(&j, NULL, true);
		eh_json_str(&j, "erratum", a->fd->errata[i]->id);
		eh_json_bool(&j, "affected", eh_audit_status_of(a->fd->errata[i], a->fd->models[0]) == EH_AUDIT_SHOWS);
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

int eh_report_audit(FILE *f, const struct eh_findings *fd, bool json, const struct eh_audit_report_opts *o,
		    struct eh_error *err)
{
	struct out a = { .fd = fd, .f = f, .style = o->style, .list = o->list, .in = o->inputs };
	int rc = eh_decoder_new(&a.dec, err);

	if (rc)
		return rc;
	print_report(&a, json);
	eh_decoder_free(a.dec);
	return 0;
}

void eh_report_audit_diff(FILE *f, const struct eh_findings *old, const struct eh_findings *fd,
			  const struct eh_audit_diff *d, bool json, const struct eh_audit_report_opts *o)
{
	const struct out a = { .fd = fd, .f = f, .style = o->style, .in = o->inputs };
	const struct out b = { .fd = old, .f = f, .style = o->style, .in = o->inputs };

	if (json)
		print_diff_json(&b, &a, d);
	else
		print_diff_text(&b, &a, d);
}

/* Whether the pick audits erratum id: only its suppressions can go stale. */
static bool picked(const struct eh_findings *fd, const char *id)
{
	size_t i;

	for (i = 0; i < fd->nerrata; i++)
		if (!strcmp(fd->errata[i]->id, id))
			return true;
	return false;
}

size_t eh_report_stale(const struct eh_findings *fd, struct eh_json *j, FILE *f, const struct eh_text_style *style)
{
	size_t i, n = 0;

	if (j)
		eh_json_array(j, "stale", true);
	for (i = 0; fd->sup && i < fd->sup->n; i++) {
		const struct eh_suppression *e = &fd->sup->v[i];
		char place[160];

		if (e->matched || !picked(fd, e->erratum))
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
			eh_text_paraf(f, style, 0, "stale suppression %s:%u: %s %s matches no finding", fd->sup->path, e->line,
				      e->erratum, place);
		}
	}
	if (j)
		eh_json_end(j);
	return n;
}

static const struct eh_text_style wrap = { .width = EH_TEXT_WIDTH };

void eh_report_cap_decisions(FILE *f, const struct eh_image *img, const struct eh_target *t)
{
	size_t i, j;
	char why[1024], line[160];

	fprintf(f, "  capabilities tested, as Linux %s decides them on %s booted at %s:\n",
	       img->rules->kernel, t->model->name, eh_boot_names[t->boot]);
	for (i = 0; i < img->nsites; i++) {
		const struct eh_alt_site *s = &img->sites[i];
		struct eh_alt_outcome o = eh_image_outcome(img, s);
		size_t n = 0;

		for (j = 0; j < i && img->sites[j].cap != s->cap; j++)
			;
		if (j < i)
			continue;  /* listed with its first site */
		for (j = i; j < img->nsites; j++)
			n += img->sites[j].cap == s->cap;
		if (s->cap_name)
			snprintf(line, sizeof(line), "%s", s->cap_name);
		else
			snprintf(line, sizeof(line), "capability %u", s->cap);
		fprintf(f, "    %s: %zu site%s, %s%s%s%s\n", line, n, n == 1 ? "" : "s",
		       o.state == EH_CAP_DETECTED ? "detected" :
		       o.state == EH_CAP_CONFIGURED_OUT ? "configured out" : "not detected",
		       o.rule ? " (" : "", o.rule ? eh_cap_source_name(o.rule->source) : "", o.rule ? ")" : "");
		if (!s->cap_name)
			snprintf(why, sizeof(why), "the numbering does not name it: treated as not detected");
		else if (!o.rule)
			snprintf(why, sizeof(why), "no rule in Linux %s: treated as not detected", img->rules->kernel);
		else
			eh_cap_explain(o.rule, t, why, sizeof(why));
		eh_text_wrap(f, &wrap, 6, why);
	}
}

/* The audit of many models at once: images shared between models with the same capabilities, findings matched against suppressions, a cell per (erratum, model). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "eh/audit_matrix.h"

enum eh_audit_status eh_audit_status_of(const struct eh_erratum *e, const struct eh_model *model)
{
	if (!eh_erratum_affects(e, model))
		return EH_AUDIT_NOT_AFFECTED;
	return eh_erratum_shows(e, model) ? EH_AUDIT_SHOWS : EH_AUDIT_NOT_EXPOSED;
}

/* Two images are one when their patched words, every site's outcome and where the code runs agree. */
static bool same_image(const struct eh_image *x, const struct eh_image *y)
{
	/* The words first, at once: images that differ mostly differ there. */
	if (eh_target_vhe(&x->target) != eh_target_vhe(&y->target) || x->npatches != y->npatches ||
	    (x->npatches && (x->patch_base != y->patch_base ||
			     memcmp(x->patches, y->patches, x->npatches * sizeof(*x->patches)))))
		return false;
	return eh_image_same_outcomes(x, y);
}

/* Every finding of one rule's result matched against the suppressions, and its counts. */
static int tally(struct eh_suppressions *sup, struct eh_audit_tally *t)
{
	const struct eh_audit_result *res = t->res;
	size_t i, w;

	t->sup = eh_alloc((res->nfindings ? res->nfindings : 1) * sizeof(*t->sup));
	if (!t->sup)
		return EH_ENOMEM;
	for (i = 0; i < res->nfindings; i++) {
		const struct eh_finding *f = &res->findings[i];

		t->sup[i] = eh_suppress_match(sup, f->erratum->id, f->anchor_where, f->where);
		if (t->sup[i]) {
			t->suppressed++;
			continue;
		}
		t->flagged++;
		t->inside += !f->open;
	}
	/* A window is open while one of its paths out is, unsuppressed. */
	for (w = 0; w < res->nwindows; w++) {
		const struct eh_audit_window *win = &res->windows[w];

		for (i = win->first; i < win->first + win->nfindings; i++)
			if (res->findings[i].open && !t->sup[i])
				break;
		t->open += i < win->first + win->nfindings;
	}
	return 0;
}

/* The image of model i: a new one, or (freed again) the first one equal to it. */
static int place_model(struct eh_audit_matrix *m, size_t i, struct eh_error *err)
{
	const struct eh_audit_matrix_opts *o = &m->o;
	struct eh_audit_image *im = &m->images[m->nimages];
	size_t g;
	int rc;

	im->target = (struct eh_target){ .model = o->models[i], .config = o->config, .boot = o->boot };
	rc = eh_image_new_planned(&im->img, o->elf, m->plan, &im->target, err);
	if (rc)
		return rc;
	for (g = 0; g < m->nimages && !same_image(m->images[g].img, im->img); g++)
		;
	if (g < m->nimages) {
		eh_image_free(im->img);
		*im = (struct eh_audit_image){ 0 };
	} else {
		m->nimages++;
		im->models = eh_alloc(o->nmodels * sizeof(*im->models));
		im->tallies = eh_alloc((m->nerrata + 1) * sizeof(*im->tallies));
		if (!im->models || !im->tallies)
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory", o->elf->path);
	}
	m->image_of[i] = g;
	m->images[g].models[m->images[g].nmodels++] = o->models[i];
	return 0;
}

/*
 * Run the rules on image g: every erratum's, or (affected_only) those of the errata that
 * affect one of its models, into run (nerrata of them).
 */
static int audit_image(struct eh_audit_matrix *m, size_t g, struct eh_audit_scan *scan, bool *run,
		       struct eh_error *err)
{
	struct eh_audit_image *im = &m->images[g];
	size_t e, i;

	for (e = 0; e < m->nerrata; e++) {
		run[e] = !m->o.affected_only;
		for (i = 0; i < im->nmodels && !run[e]; i++)
			run[e] = eh_audit_status_of(m->o.errata[e], im->models[i]) != EH_AUDIT_NOT_AFFECTED;
	}
	return eh_audit_run_scan(&im->au, im->img, scan, run, err);
}

int eh_audit_matrix_new(struct eh_audit_matrix **out, const struct eh_audit_matrix_opts *o, struct eh_error *err)
{
	struct eh_audit_matrix *m;
	struct eh_audit_scan *scan = NULL;
	bool *run = NULL;
	size_t i, g, r, done = 0;
	int rc = 0;

	*out = NULL;
	m = eh_alloc(sizeof(*m));
	if (!m)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	m->o = *o;
	while (o->errata[m->nerrata])
		m->nerrata++;
	m->images = eh_alloc((o->nmodels + 1) * sizeof(*m->images));
	m->image_of = eh_alloc((o->nmodels + 1) * sizeof(*m->image_of));
	run = eh_alloc(m->nerrata + 1);
	if (!m->images || !m->image_of || !run)
		rc = eh_error_set(err, EH_ENOMEM, "out of memory");
	if (!rc && !o->patch_only)
		rc = eh_audit_scan_new(&scan, o->elf, o->errata, err);
	/* The sites are the same for every model: parsed and planned once and shared, each image keeps its outcomes. */
	if (!rc && eh_cap_rules_find(o->caps->kernel))  /* without rules the first image says so */
		rc = eh_alt_parse(&m->sites, &m->nsites, o->elf, o->caps, err);
	if (!rc)
		rc = eh_image_plan_new(&m->plan, o->elf, o->caps, m->sites, m->nsites, err);
	for (i = 0; !rc && i < o->nmodels; i++)
		rc = place_model(m, i, err);
	/* Once every model has its image: an image's models decide which rules run on it. */
	for (g = 0; !rc && g < m->nimages; g++) {
		rc = o->patch_only ? 0 : audit_image(m, g, scan, run, err);
		done += m->images[g].nmodels;
		if (!rc && o->progress)
			o->progress(o->progress_ctx, done, o->nmodels);
	}
	eh_free(run);
	eh_audit_scan_free(scan);
	for (g = 0; !rc && !o->patch_only && g < m->nimages; g++) {
		struct eh_audit_image *im = &m->images[g];

		for (r = 0; !rc && r < im->au->nresults; r++) {
			struct eh_audit_tally *t = &im->tallies[r];

			t->res = &im->au->results[r];
			for (i = 0; i < im->nmodels; i++)
				t->shows |= eh_audit_status_of(t->res->erratum, im->models[i]) == EH_AUDIT_SHOWS;
			if (tally(o->sup, t))
				rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", o->elf->path);
		}
	}
	if (rc) {
		eh_audit_matrix_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void eh_audit_matrix_free(struct eh_audit_matrix *m)
{
	size_t i, r;

	if (!m)
		return;
	for (i = 0; m->images && i < m->nimages; i++) {
		for (r = 0; m->images[i].tallies && r < m->nerrata; r++)
			eh_free(m->images[i].tallies[r].sup);
		eh_free(m->images[i].tallies);
		eh_free(m->images[i].models);
		eh_audit_free(m->images[i].au);
		eh_image_free(m->images[i].img);
	}
	eh_free(m->images);
	eh_free(m->image_of);
	eh_image_plan_free(m->plan);
	eh_free(m->sites);
	eh_free(m);
}

/*
 * Two ways for the config to leave a model without e's workaround: e's own Kconfig symbol is off, or
 * the workaround is built but the capability's line for the model is under an option the config turns
 * off (6.12's ARM64_ERRATUM_2441007 for the Cortex-A55 in arm64_repeat_tlbi_list[], "If unsure, say N"),
 * so every option on would detect the capability there and the config does not.
 */
bool eh_audit_configured_out(const struct eh_audit_matrix_opts *o, const struct eh_erratum *e,
			     const struct eh_model *model, const char **symbol)
{
	const char *kernel = o->caps->kernel, *name = eh_erratum_capability(e, kernel);
	const struct eh_cap_rules *hand = kernel ? eh_cap_rules_find(kernel) : NULL;
	struct eh_target t = { .model = model, .config = o->config, .boot = o->boot };

	if (symbol)
		*symbol = NULL;
	if (e->kconfig && !eh_kconfig_enabled(o->config, e->kconfig)) {
		if (symbol)
			*symbol = e->kconfig;
		return true;
	}
	if (!o->config || !hand || !name || eh_cap_detected(hand, &t, name))
		return false;
	t.config = NULL;
	return eh_cap_detected(hand, &t, name);
}

/*
 * The erratum-level answer, from the models' own: configured out when every model of the set that e
 * affects is (every model of it, when e affects none). When they differ, the workaround is built and
 * reaches some of the affected models: not configured out, and the cells say which it leaves out.
 */
bool eh_audit_configured_out_of(const struct eh_audit_matrix_opts *o, const struct eh_erratum *e,
				const struct eh_model *const *models, size_t n, const char **symbol)
{
	bool any = false;
	size_t i, counted = 0;

	for (i = 0; i < n && !any; i++)
		any = eh_audit_status_of(e, models[i]) != EH_AUDIT_NOT_AFFECTED;
	for (i = 0; i < n; i++) {
		if (any && eh_audit_status_of(e, models[i]) == EH_AUDIT_NOT_AFFECTED)
			continue;
		if (!eh_audit_configured_out(o, e, models[i], symbol))
			return false;
		counted++;
	}
	if (!counted && symbol)
		*symbol = NULL;
	return counted > 0;
}

struct eh_audit_cell eh_audit_matrix_cell(const struct eh_audit_matrix *m, size_t model, size_t erratum)
{
	const struct eh_audit_image *im = &m->images[m->image_of[model]];
	const struct eh_erratum *e = m->o.errata[erratum];
	struct eh_audit_cell c = { .t = im->au ? &im->tallies[erratum] : NULL };

	c.status = eh_audit_status_of(e, m->o.models[model]);
	c.configured_out = c.status != EH_AUDIT_NOT_AFFECTED && eh_audit_configured_out(&m->o, e, m->o.models[model], NULL);
	/* A kernel older than the workaround has none to find: what the rule sees there is no regression. */
	if (c.status != EH_AUDIT_NOT_AFFECTED && !eh_erratum_in_kernel(e, m->o.caps->kernel))
		c.not_in_kernel = m->o.caps->kernel;
	c.failing = c.t && c.status == EH_AUDIT_SHOWS && c.t->flagged && !c.not_in_kernel;
	return c;
}

static const char *const status_words[] = {
	[EH_AUDIT_NOT_AFFECTED] = "not affected", [EH_AUDIT_NOT_EXPOSED] = "not exposed", [EH_AUDIT_SHOWS] = "clean",
};

const char *eh_audit_cell_status(const struct eh_audit_cell *c)
{
	return c->failing ? "findings" : c->not_in_kernel ? "not in kernel" : status_words[c->status];
}

const char *eh_audit_cell_text(const struct eh_audit_cell *c, char *buf, size_t len)
{
	size_t at;

	if (c->failing)
		at = (size_t)snprintf(buf, len, "%zu finding%s", c->t->flagged, c->t->flagged == 1 ? "" : "s");
	else if (c->not_in_kernel)
		at = (size_t)snprintf(buf, len, "not in %s", c->not_in_kernel);
	else
		at = (size_t)snprintf(buf, len, "%s", status_words[c->status]);
	if (c->configured_out && at < len)
		snprintf(buf + at, len - at, ", workaround configured out");
	return buf;
}

bool eh_audit_matrix_failing(const struct eh_audit_matrix *m)
{
	size_t i, e;

	for (i = 0; i < m->o.nmodels; i++)
		for (e = 0; e < m->nerrata; e++)
			if (eh_audit_matrix_cell(m, i, e).failing)
				return true;
	return false;
}

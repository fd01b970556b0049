/* Runs one (case, variant, model) pair: load the snippet, patch it for the model, run, judge. */
#include "eh/case.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/kconfig.h"

/* Unless a case says otherwise, snippets follow Linux 5.4's capability numbers (cases/include/eh_cpucaps.h). */
#define EH_SNIPPET_KERNEL "5.4"

const struct eh_case *eh_case_find(const char *id)
{
	const struct eh_case *const *c;

	for (c = eh_cases; *c; c++)
		if (!strcmp((*c)->id, id))
			return *c;
	return NULL;
}

const struct eh_variant *eh_case_variant(const struct eh_case *c, const char *name)
{
	const struct eh_variant *v;

	for (v = c->variants; v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

const char *eh_case_kernel(const struct eh_case *c)
{
	return c->kernel ? c->kernel : EH_SNIPPET_KERNEL;
}

bool eh_models_match(const struct eh_case *c, const struct eh_models *who, const struct eh_model *model)
{
	const struct eh_target target = { .model = model };
	bool in;

	if (who->model)
		in = !strcmp(who->model, model->name);
	else if (who->erratum)
		in = eh_erratum_find(who->erratum) && eh_erratum_shows(eh_erratum_find(who->erratum), model);
	else if (who->has)
		in = eh_model_has_erratum(model, who->has);
	else if (who->capability)
		in = eh_cap_detected(eh_cap_rules_find(eh_case_kernel(c)), &target, who->capability);
	else
		in = true;
	return in != who->without;
}

const char *eh_models_describe(const struct eh_models *who, char *buf, size_t len)
{
	const char *not = who->without ? "not " : "";

	if (who->model)
		snprintf(buf, len, "%s%s", not, who->model);
	else if (who->erratum)
		snprintf(buf, len, "models where %s %sshows", who->erratum, not);
	else if (who->has)
		snprintf(buf, len, "models %swith %s", not, who->has);
	else if (who->capability)
		snprintf(buf, len, "models %sdetecting %s", not, who->capability);
	else
		snprintf(buf, len, "%s", who->without ? "no model" : "every model");
	return buf;
}

/*
 * Where a scenario runs on a system of cores: the first core that the expectation row selecting
 * the system selects on its own (a row by erratum: a core that has it), so that a `before` shows
 * its bug on a core that has the bug, as the kernel's code would meet it there; else the boot CPU.
 */
static unsigned pinned_core(const struct eh_case *c, const char *variant, const struct eh_model *model)
{
	const struct eh_expect *e;
	unsigned i;

	if (!model->cores)
		return 0;
	for (e = c->expect; e->variant; e++)
		if (!strcmp(e->variant, variant) && eh_models_match(c, &e->who, model))
			break;
	for (i = 0; e->variant && model->cores[i]; i++)
		if (eh_models_match(c, &e->who, model->cores[i]))
			return i;
	return 0;
}

int eh_case_expected(const struct eh_case *c, const char *variant, const struct eh_model *model,
		     enum eh_verdict *out)
{
	const struct eh_expect *e;

	for (e = c->expect; e->variant; e++)
		if (!strcmp(e->variant, variant) && eh_models_match(c, &e->who, model)) {
			*out = e->verdict;
			return 0;
		}
	return EH_ENOENT;
}

const char *eh_verdict_name(enum eh_verdict v)
{
	static const char *const names[EH_VERDICT_COUNT] = {
		[EH_VERDICT_BUG] = "bug",
		[EH_VERDICT_FIXED] = "fixed",
		[EH_VERDICT_RESIDUAL] = "residual",
		[EH_VERDICT_BENIGN] = "benign",
		[EH_VERDICT_INCOMPLETE] = "incomplete",
	};

	return (unsigned)v < EH_VERDICT_COUNT ? names[v] : "?";
}

const char *eh_case_object_path(const struct eh_case *c, const struct eh_variant *v,
				const struct eh_run_opts *opts, char *buf, size_t len)
{
	const char *object = v && v->object ? v->object : c->object;
	size_t stem = strlen(object);

	if (stem > 4 && !strcmp(object + stem - 4, ".elf"))
		stem -= 4;
	if (opts->mutant)
		snprintf(buf, len, "%s/mutants/%.*s/%s.elf", opts->cases_dir, (int)stem, object,
			 opts->mutant->define);
	else
		snprintf(buf, len, "%s/%s", opts->cases_dir, object);
	return buf;
}

/* The scene-setting steps of variant v, NULL-terminated, or NULL when it has none. */
static const char *const *variant_steps(const struct eh_case *c, const struct eh_variant *v)
{
	const struct eh_steps *st;

	for (st = c->steps; st && st->variant; st++)
		if (!strcmp(st->variant, v->name))
			return st->symbols;
	return NULL;
}

/* Run sym on thread 0 and check that it ended in one of ends (enum eh_end). */
static int call_until_end(struct eh_case_run *r, const char *sym, const uint64_t *args, unsigned nargs,
			  unsigned ends, const struct eh_thread_result **out, struct eh_error *err)
{
	const struct eh_thread_result *res;
	char where[256];
	uint64_t entry;
	int rc;

	rc = eh_elf_resolve(r->elf, sym, &entry, err);
	if (!rc)
		rc = eh_machine_start(r->machine, 0, entry, args, nargs, err);
	if (!rc)
		rc = eh_machine_run(r->machine, err);
	if (rc)
		return rc;
	res = eh_machine_result(r->machine, 0);
	if (out)
		*out = res;
	if ((ends & EH_END_RETURN && res->stop == EH_STOP_RETURNED) ||
	    (ends & EH_END_SYMBOL && res->stop == EH_STOP_UNTIL) ||
	    (ends & EH_END_FAULT && res->stop == EH_STOP_FAULT))
		return 0;
	if (res->stop == EH_STOP_RETURNED)
		return eh_error_set(err, EH_EINCOMPLETE, "%s did not complete: it returned to the harness, "
				    "which is not an end its case declares", sym);
	r->outcome.where = res->pc;
	eh_machine_where(r->machine, res->pc, where, sizeof(where));
	if (res->stop == EH_STOP_FAULT)
		return eh_error_set(err, EH_EINCOMPLETE, "%s did not complete: it touched unmapped 0x%016" PRIx64
				    " at %s", sym, res->addr, where);
	return eh_error_set(err, EH_EINCOMPLETE, "%s did not complete: %s at %s", sym,
			    eh_stop_name(res->stop), where);
}

int eh_case_call(struct eh_case_run *r, const char *sym, const uint64_t *args, unsigned nargs,
		 const struct eh_thread_result **res, struct eh_error *err)
{
	return call_until_end(r, sym, args, nargs, r->c->ends, res, err);
}

/* Set-up steps return; then the entry, which must end as declared; then the judge. */
static int run_steps_and_entry(struct eh_case_run *r, struct eh_error *err)
{
	const char *const *step = variant_steps(r->c, r->v);
	int rc = 0;

	for (; step && *step && !rc; step++) {
		rc = call_until_end(r, *step, NULL, 0, EH_END_RETURN, NULL, err);
		if (rc == EH_EINCOMPLETE)
			eh_error_prefix(err, "set-up step: ");
	}
	if (!rc)
		rc = eh_case_call(r, r->v->entry, NULL, 0, NULL, err);
	if (!rc && eh_machine_trace(r->machine)->dropped)
		rc = eh_error_set(err, EH_EINCOMPLETE, "the trace kept %zu events and dropped %zu: the judge "
				  "cannot read everything that ran", eh_machine_trace(r->machine)->n,
				  eh_machine_trace(r->machine)->dropped);
	if (!rc)
		r->c->judge(r->machine, r->v, &r->outcome);
	return rc;
}

int eh_case_run(struct eh_case_run **out, const struct eh_case *c, const struct eh_variant *v,
		const struct eh_model *model, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct eh_case_run *r;
	struct eh_machine_opts mopts = {
		.seed = opts->seed, .budget = opts->budget, .trace_insns = opts->trace_insns,
		.hooks = c->hooks,
	};
	struct eh_target target = { .model = model };  /* a host booted at EL2, the kernel's default */
	struct eh_error run_err = { 0 };
	struct timespec t0, t1;
	char path[4096];
	int rc;

	*out = NULL;
	r = eh_alloc(sizeof(*r));
	if (!r)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	r->c = c;
	r->v = v;
	r->model = model;
	rc = eh_case_expected(c, v->name, model, &r->expected);
	if (rc) {
		rc = eh_error_set(err, EH_ENOENT, "case %s does not run variant %s on model %s",
				  c->id, v->name, model->name);
		goto fail;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = eh_elf_open(&r->elf, eh_case_object_path(c, v, opts, path, sizeof(path)), err);
	if (rc)
		goto fail;
	if (v->kconfig) {
		rc = eh_kconfig_parse(&r->config, v->name, v->kconfig, strlen(v->kconfig), err);
		if (rc)
			goto fail;
	}
	target.config = r->config;
	rc = eh_image_new(&r->img, r->elf, eh_cpucaps_builtin(eh_case_kernel(c)), &target, err);
	if (!rc && c->ends & EH_END_SYMBOL)
		rc = eh_elf_resolve(r->elf, c->end_symbol, &mopts.until, err);
	if (rc)
		goto fail;
	mopts.hooks_ctx = r;
	mopts.first_core = pinned_core(c, v->name, model);
	rc = eh_machine_new(&r->machine, model, r->img, &mopts, err);
	if (rc)
		goto fail;
	rc = c->run ? c->run(r, opts, &run_err) : run_steps_and_entry(r, &run_err);
	if (rc) {
		/* Whatever the judge or the case's own run wrote stands for nothing now. */
		r->outcome.verdict = EH_VERDICT_INCOMPLETE;
		snprintf(r->outcome.evidence, sizeof(r->outcome.evidence), "%s", run_err.msg);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->pass = r->outcome.verdict == r->expected && r->expected != EH_VERDICT_INCOMPLETE;
	*out = r;
	return 0;
fail:
	eh_error_prefix(err, "%s/%s on %s: ", c->id, v->name, model->name);
	eh_case_run_free(r);
	return rc;
}

void eh_case_run_free(struct eh_case_run *r)
{
	if (!r)
		return;
	eh_machine_free(r->machine);
	eh_image_free(r->img);
	eh_kconfig_free(r->config);
	eh_elf_free(r->elf);
	eh_free(r);
}

int eh_case_symbol(struct eh_case_run *r, const char *sym, uint64_t *addr, uint64_t *size,
		   struct eh_error *err)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(r->elf, sym);

	if (!s || !s->size)
		return eh_error_set(err, EH_ENOENT, "%s: no data symbol '%s' with a size", r->elf->path, sym);
	*addr = s->value;
	*size = s->size;
	return 0;
}

void eh_case_judge_hazards(struct eh_machine *m, const char *erratum, struct eh_outcome *out)
{
	const struct eh_erratum *e = eh_erratum_find(erratum);
	const struct eh_trace *tr = eh_machine_trace(m);
	const struct eh_event *first, *shown = NULL;
	const struct eh_model *core;
	size_t i, n = eh_trace_hazards(tr, e, &first);
	char where[256];

	if (!first) {
		out->verdict = EH_VERDICT_FIXED;
		eh_outcome_append(out, "no hazard of erratum %s", erratum);
		return;
	}
	/* A bug where a hazard ran on a core the erratum shows on (on a system, not every core has it). */
	for (i = 0; i < tr->n && !shown; i++)
		if (tr->events[i].kind == EH_EV_HAZARD && eh_event_erratum(&tr->events[i]) == e &&
		    eh_machine_thread_core(m, tr->events[i].thread) &&
		    eh_erratum_shows(e, eh_machine_thread_core(m, tr->events[i].thread)))
			shown = &tr->events[i];
	out->verdict = shown ? EH_VERDICT_BUG : EH_VERDICT_BENIGN;
	eh_outcome_append(out, "%zu hazard%s of erratum %s, the first at %s", n, n == 1 ? "" : "s", erratum,
			  eh_machine_where(m, first->pc, where, sizeof(where)));
	if (first->value && eh_machine_insn(m, first->value))
		eh_outcome_append(out, " (with %s)", eh_machine_where(m, first->value, where, sizeof(where)));
	core = eh_machine_thread_core(m, (shown ? shown : first)->thread);
	if (core == eh_machine_model(m))
		eh_outcome_append(out, shown ? "; the erratum shows on %s" :
				  "; %s does not have the erratum, or it does not show there", core->name);
	else
		eh_outcome_append(out, shown ? "; the erratum shows on %s's %s" :
				  "; %s's %s does not have the erratum, or it does not show there",
				  eh_machine_model(m)->name, core ? core->name : "?");
}

void eh_case_judge_hazards_after(struct eh_machine *m, const char *erratum, enum eh_event_kind kind, uint32_t flags,
				 const char *missing, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	size_t i;

	for (i = 0; i < tr->n && !(tr->events[i].kind == kind && tr->events[i].flags & flags); i++)
		;
	if (i == tr->n) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "%s: nothing to judge", missing);
		return;
	}
	eh_case_judge_hazards(m, erratum, out);
}

void eh_outcome_append(struct eh_outcome *out, const char *fmt, ...)
{
	size_t n = strlen(out->evidence);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->evidence + n, sizeof(out->evidence) - n, fmt, ap);
	va_end(ap);
}

/* Runs one (case, variant, model) pair: load the snippet, patch it for the model, run, judge. */
#include "eh/case.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/kconfig.h"

/* Snippets are assembled against the Linux 5.4 capability numbers (cases/include/eh_cpucaps.h). */
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

int eh_case_expected(const struct eh_case *c, const char *variant, const char *model,
		     enum eh_verdict *out)
{
	const struct eh_expect *e;

	for (e = c->expect; e->variant; e++)
		if (!strcmp(e->variant, variant) && !strcmp(e->model, model)) {
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
	};

	return (unsigned)v < EH_VERDICT_COUNT ? names[v] : "?";
}

int eh_case_run(struct eh_case_run **out, const struct eh_case *c, const struct eh_variant *v,
		const struct eh_model *model, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct eh_case_run *r;
	struct eh_machine_opts mopts = {
		.seed = opts->seed, .budget = opts->budget, .trace_insns = opts->trace_insns,
		.hooks = c->hooks,
	};
	struct eh_kconfig *config = NULL;
	struct eh_target target = { .model = model };  /* a host booted at EL2, the kernel's default */
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
	rc = eh_case_expected(c, v->name, model->name, &r->expected);
	if (rc) {
		rc = eh_error_set(err, EH_ENOENT, "case %s does not run variant %s on model %s",
				  c->id, v->name, model->name);
		goto fail;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	snprintf(path, sizeof(path), "%s/%s", opts->cases_dir, c->object);
	rc = eh_elf_open(&r->elf, path, err);
	if (rc)
		goto fail;
	if (v->kconfig) {
		rc = eh_kconfig_parse(&config, v->name, v->kconfig, strlen(v->kconfig), err);
		if (rc)
			goto fail;
	}
	target.config = config;
	rc = eh_image_new(&r->img, r->elf, eh_cpucaps_builtin(EH_SNIPPET_KERNEL), &target, err);
	eh_kconfig_free(config);
	if (rc)
		goto fail;
	mopts.hooks_ctx = r;
	rc = eh_machine_new(&r->machine, model, r->img, &mopts, err);
	if (rc)
		goto fail;
	if (c->run) {
		rc = c->run(r, opts, err);
		if (rc)
			goto fail;
	} else {
		const struct eh_steps *st;
		const char *const *step = NULL;
		bool returned = true;

		for (st = c->steps; st && st->variant && !step; st++)
			if (!strcmp(st->variant, v->name))
				step = st->symbols;
		for (; step && *step && returned && !rc; step++) {
			rc = eh_case_call(r, *step, NULL, 0, NULL, err);
			returned = eh_machine_result(r->machine, 0)->stop == EH_STOP_RETURNED;
		}
		if (!rc && returned)
			rc = eh_case_call(r, v->entry, NULL, 0, NULL, err);
		if (rc)
			goto fail;
		c->judge(r->machine, v, &r->outcome);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->pass = r->outcome.verdict == r->expected;
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
	eh_elf_free(r->elf);
	eh_free(r);
}

int eh_case_call(struct eh_case_run *r, const char *sym, const uint64_t *args, unsigned nargs,
		 const struct eh_thread_result **res, struct eh_error *err)
{
	uint64_t entry;
	int rc;

	rc = eh_elf_resolve(r->elf, sym, &entry, err);
	if (!rc)
		rc = eh_machine_start(r->machine, 0, entry, args, nargs, err);
	if (!rc)
		rc = eh_machine_run(r->machine, err);
	if (!rc && res)
		*res = eh_machine_result(r->machine, 0);
	return rc;
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

void eh_outcome_append(struct eh_outcome *out, const char *fmt, ...)
{
	size_t n = strlen(out->evidence);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->evidence + n, sizeof(out->evidence) - n, fmt, ap);
	va_end(ap);
}

/* Which models an erratum affects and where it shows, from its module's table. */
#include "eh/erratum.h"
#include "eh/kversion.h"

#include <string.h>

const struct eh_erratum *eh_erratum_find(const char *id)
{
	const struct eh_erratum *const *e;

	for (e = eh_errata; *e; e++)
		if (!strcmp((*e)->id, id))
			return *e;
	return NULL;
}

bool eh_erratum_affects(const struct eh_erratum *e, const struct eh_model *model)
{
	const struct eh_target target = { .model = model };
	const struct eh_model *const *c;

	/* A system is affected when one of its cores is: the kernel patches its workaround in for all. */
	if (model->cores) {
		for (c = model->cores; *c; c++)
			if (eh_erratum_affects(e, *c))
				return true;
		return false;
	}
	return eh_midr_affected(e->cpus, e->fixed, &target) || (e->also_affects && e->also_affects(model));
}

const char *eh_erratum_capability(const struct eh_erratum *e, const char *kernel)
{
	const struct eh_erratum_since *s, *in = NULL;

	if (!e->since)
		return e->capability;
	for (s = e->since; s->kernel; s++)
		if (!kernel || eh_kversion_cmp(s->kernel, kernel) <= 0)
			in = s;
	return in ? in->capability : NULL;
}

bool eh_erratum_in_kernel(const struct eh_erratum *e, const char *kernel)
{
	return !e->since || !kernel || eh_kversion_cmp(e->since[0].kernel, kernel) <= 0;
}

bool eh_erratum_shows(const struct eh_erratum *e, const struct eh_model *model)
{
	const struct eh_model *const *c;

	if (model->cores) {
		for (c = model->cores; *c; c++)
			if (eh_erratum_shows(e, *c))
				return true;
		return false;
	}
	return eh_erratum_affects(e, model) && (!e->shows || e->shows(model));
}

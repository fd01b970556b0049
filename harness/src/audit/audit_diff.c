/* Compares the findings of two builds' audits, matched by erratum and symbol+offset rather than by address. */
#include "eh/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_ctx.h"

const char *eh_audit_change_name(enum eh_audit_change c)
{
	static const char *const names[] = {
		[EH_AUDIT_INTRODUCED] = "introduced",
		[EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};

	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* The findings of one audit; change says which side they come from. */
static int collect(struct eh_audit_delta **v, size_t *n, const struct eh_audit *a, enum eh_audit_change side)
{
	size_t r, i, cap = 0;

	*v = NULL;
	*n = 0;
	for (r = 0; r < a->nresults; r++) {
		const struct eh_audit_result *res = &a->results[r];

		for (i = 0; i < res->nfindings; i++) {
			const struct eh_finding *f = &res->findings[i];
			struct eh_audit_delta *d;

			if (eh_audit__grow(v, &cap, *n, sizeof(**v)))
				return EH_ENOMEM;
			d = &(*v)[(*n)++];
			memset(d, 0, sizeof(*d));
			d->change = side;
			d->erratum = f->erratum;
			d->open = f->open;
			snprintf(d->kind, sizeof(d->kind), "%s", f->open ? eh_audit_end_name(f->end) : f->kind);
			snprintf(d->anchor, sizeof(d->anchor), "%s", f->anchor_where);
			snprintf(d->where, sizeof(d->where), "%s", f->where);
			snprintf(d->text, sizeof(d->text), "%s", f->text);
			if (side == EH_AUDIT_REMOVED)
				d->old_addr = f->addr;
			else
				d->new_addr = f->addr;
		}
	}
	return 0;
}

/* "sym+0x1c" before "sym+0x100": by symbol, then by offset as a number. */
static int cmp_where(const char *a, const char *b)
{
	const char *pa = strrchr(a, '+'), *pb = strrchr(b, '+');
	size_t la = pa ? (size_t)(pa - a) : strlen(a), lb = pb ? (size_t)(pb - b) : strlen(b);
	int c = strncmp(a, b, la < lb ? la : lb);
	uint64_t oa, ob;

	if (c || la != lb)
		return c ? c : la < lb ? -1 : 1;
	oa = pa ? strtoull(pa + 1, NULL, 16) : 0;
	ob = pb ? strtoull(pb + 1, NULL, 16) : 0;
	return oa != ob ? (oa < ob ? -1 : 1) : strcmp(a, b);
}

static int cmp_delta(const void *a, const void *b)
{
	const struct eh_audit_delta *x = a, *y = b;
	int c = strcmp(x->erratum->id, y->erratum->id);

	if (!c)
		c = cmp_where(x->anchor, y->anchor);
	if (!c)
		c = cmp_where(x->where, y->where);
	if (!c)
		c = (x->open > y->open) - (x->open < y->open);
	if (!c)
		c = strcmp(x->kind, y->kind);
	return c;
}

/* Sort and drop repeats. */
static void sort_unique(struct eh_audit_delta *v, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), cmp_delta);
	for (i = 1; i < *n; i++)
		if (cmp_delta(&v[k], &v[i]))
			v[++k] = v[i];
	*n = k + 1;
}

int eh_audit_diff(struct eh_audit_diff **out, const struct eh_audit *old, const struct eh_audit *new,
		  struct eh_error *err)
{
	struct eh_audit_delta *o = NULL, *nw = NULL;
	struct eh_audit_diff *d;
	size_t no, nn, i = 0, j = 0;
	int rc;

	*out = NULL;
	d = eh_alloc(sizeof(*d));
	rc = d ? collect(&o, &no, old, EH_AUDIT_REMOVED) : EH_ENOMEM;
	if (!rc)
		rc = collect(&nw, &nn, new, EH_AUDIT_INTRODUCED);
	if (!rc && no + nn)
		rc = (d->deltas = eh_alloc((no + nn) * sizeof(*d->deltas))) ? 0 : EH_ENOMEM;
	if (rc) {
		rc = eh_error_set(err, EH_ENOMEM, "out of memory comparing %s with %s", old->img->elf->path,
				  new->img->elf->path);
		goto out;
	}
	sort_unique(o, &no);
	sort_unique(nw, &nn);
	/* A merge of the two sorted lists: equal keys are the same finding in both builds. */
	while (i < no || j < nn) {
		int c = i == no ? 1 : j == nn ? -1 : cmp_delta(&o[i], &nw[j]);
		struct eh_audit_delta *f = &d->deltas[d->n++];

		if (c < 0) {
			*f = o[i++];
		} else if (c > 0) {
			*f = nw[j++];
		} else {
			*f = nw[j++];
			f->change = EH_AUDIT_UNCHANGED;
			f->old_addr = o[i++].old_addr;
		}
		d->count[f->change]++;
	}
	*out = d;
	d = NULL;
out:
	eh_free(o);
	eh_free(nw);
	eh_audit_diff_free(d);
	return rc;
}

void eh_audit_diff_free(struct eh_audit_diff *d)
{
	if (!d)
		return;
	eh_free(d->deltas);
	eh_free(d);
}

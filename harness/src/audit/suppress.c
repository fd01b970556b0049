/* Reads suppression files and matches audit findings against them by erratum and symbol+offset. */
#include "eh/suppress.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "eh/file.h"

static int fail(struct eh_suppressions *s, struct eh_error *err, const char *name, unsigned line,
		const char *what)
{
	eh_suppress_free(s);
	return eh_error_set(err, EH_EINPUT, "%s:%u: %s (expected ERRATUM SYMBOL[+OFFSET] JUSTIFICATION)",
			    name, line, what);
}

/* The next word of l (cut in place); NULL at the end of the line. */
static char *word(char **l)
{
	char *w;

	while (**l == ' ' || **l == '\t')
		(*l)++;
	if (!**l)
		return NULL;
	w = *l;
	while (**l && **l != ' ' && **l != '\t')
		(*l)++;
	if (**l)
		*(*l)++ = 0;
	return w;
}

int eh_suppress_parse(struct eh_suppressions **out, const char *name, const char *text, size_t len,
		      const char *const *errata, struct eh_error *err)
{
	struct eh_suppressions *s;
	char *l, *next;
	unsigned line = 0;
	size_t cap = 0;

	*out = NULL;
	s = eh_alloc(sizeof(*s));
	if (!s || !(s->text = eh_alloc(len + 1))) {
		eh_free(s);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
	}
	s->path = name;
	memcpy(s->text, text, len);
	for (l = s->text; l; l = next) {
		struct eh_suppression e = { 0 };
		const char *const *id;
		char *plus, *end, *p;

		next = memchr(l, '\n', (size_t)(s->text + len - l));
		if (next)
			*next++ = 0;
		line++;
		for (p = l + strlen(l); p > l && isspace((unsigned char)p[-1]); p--)
			p[-1] = 0;
		e.erratum = word(&l);
		if (!e.erratum || e.erratum[0] == '#')
			continue;
		for (id = errata; *id && strcmp(*id, e.erratum); id++)
			;
		if (!*id)
			return fail(s, err, name, line, "unknown erratum");
		e.symbol = word(&l);
		if (!e.symbol)
			return fail(s, err, name, line, "no place");
		plus = strchr(e.symbol, '+');
		if (plus) {
			*plus = 0;
			e.has_offset = 1;
			e.offset = strtoull(plus + 1, &end, 0);
			if (!plus[1] || *end || plus[1] == '-')
				return fail(s, err, name, line, "bad offset");
		}
		if (!e.symbol[0])
			return fail(s, err, name, line, "no symbol");
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l)
			return fail(s, err, name, line, "no justification");
		e.justification = l;
		e.line = line;
		if (s->n == cap) {
			struct eh_suppression *v = eh_realloc(s->v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!v) {
				eh_suppress_free(s);
				return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
			}
			s->v = v;
		}
		s->v[s->n++] = e;
	}
	*out = s;
	return 0;
}

int eh_suppress_open(struct eh_suppressions **out, const char *path, const char *const *errata,
		     struct eh_error *err)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	rc = eh_file_read(path, EH_FILE_MAX_SUPPRESS, "suppression file", &buf, &len, err);
	if (rc)
		return rc;
	rc = eh_suppress_parse(out, path, buf, len, errata, err);
	eh_free(buf);
	return rc;
}

void eh_suppress_free(struct eh_suppressions *s)
{
	if (!s)
		return;
	eh_free(s->v);
	eh_free(s->text);
	eh_free(s);
}

/* Whether place ("sym+0x1c", as eh_elf_describe writes it) is in e's symbol, at its offset if it has one. */
static int covers(const struct eh_suppression *e, const char *place)
{
	const char *plus = strrchr(place, '+');
	size_t n = plus ? (size_t)(plus - place) : strlen(place);

	if (strlen(e->symbol) != n || strncmp(e->symbol, place, n))
		return 0;
	return !e->has_offset || (plus && strtoull(plus + 1, NULL, 16) == e->offset);
}

const struct eh_suppression *eh_suppress_match(struct eh_suppressions *s, const char *erratum,
					       const char *anchor, const char *where)
{
	size_t i;

	for (i = 0; s && i < s->n; i++) {
		struct eh_suppression *e = &s->v[i];

		if (!strcmp(e->erratum, erratum) && (covers(e, anchor) || covers(e, where))) {
			e->matched++;
			return e;
		}
	}
	return NULL;
}

/* Writes JSON documents for the reports: the separators, keys and layout of every value, in one place. */
#include "eh/json.h"

#include <inttypes.h>

#include "eh/escape.h"

void eh_json_begin(struct eh_json *j, FILE *f)
{
	*j = (struct eh_json){ .f = f };
}

/* Before a value: the comma after the previous member, its line and indentation, and its key. */
static void member(struct eh_json *j, const char *key)
{
	if (j->depth) {
		unsigned d = j->depth - 1;

		if (j->items[d])
			fputc(',', j->f);
		if (!j->inlined[d])
			fprintf(j->f, "\n%*s", 2 * (int)j->depth, "");
		else if (j->items[d])
			fputc(' ', j->f);
		j->items[d] = true;
	}
	if (key) {
		eh_json_puts(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_container(struct eh_json *j, const char *key, bool inlined, char open, char close)
{
	member(j, key);
	fputc(open, j->f);
	if (j->depth == EH_JSON_DEPTH)
		return;
	j->inlined[j->depth] = inlined || (j->depth && j->inlined[j->depth - 1]);
	j->items[j->depth] = false;
	j->close[j->depth] = close;
	j->depth++;
}

void eh_json_object(struct eh_json *j, const char *key, bool inlined)
{
	open_container(j, key, inlined, '{', '}');
}

void eh_json_array(struct eh_json *j, const char *key, bool inlined)
{
	open_container(j, key, inlined, '[', ']');
}

void eh_json_end(struct eh_json *j)
{
	unsigned d;

	if (!j->depth)
		return;
	d = --j->depth;
	if (!j->inlined[d] && j->items[d])
		fprintf(j->f, "\n%*s", 2 * (int)d, "");
	fputc(j->close[d], j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void eh_json_str(struct eh_json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		eh_json_puts(j->f, s);
	else
		fputs("null", j->f);
}

void eh_json_hex(struct eh_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "\"0x%016" PRIx64 "\"", v);
}

void eh_json_uint(struct eh_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void eh_json_bool(struct eh_json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

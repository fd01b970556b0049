/* The one JSON writer of every report: objects and arrays written as they go, commas, quoting and layout done here. */
#ifndef EH_JSON_H
#define EH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define EH_JSON_DEPTH 16

/*
 * A document being written to f. Every value is written under a key inside an
 * object, or with key NULL inside an array or as the document itself. A
 * container opened "inline" is written on one line with everything in it;
 * otherwise each member goes on a line of its own, indented. 64-bit addresses
 * and register values are hex strings ("0x" and 16 digits): JSON numbers past
 * 2^53 lose precision in most readers. Strings are escaped by eh_json_puts.
 * Nesting past EH_JSON_DEPTH is a bug of the caller; the writer stops nesting
 * (and the document is cut) rather than overrun.
 */
struct eh_json {
	FILE *f;
	unsigned depth;
	bool items[EH_JSON_DEPTH];     /* the container at this depth has a member already */
	bool inlined[EH_JSON_DEPTH];   /* ... and is written on one line */
	char close[EH_JSON_DEPTH];     /* ... and ends with this bracket */
};

void eh_json_begin(struct eh_json *j, FILE *f);
void eh_json_object(struct eh_json *j, const char *key, bool inlined);
void eh_json_array(struct eh_json *j, const char *key, bool inlined);
/* Close the innermost container; closing the document ends it with a newline. */
void eh_json_end(struct eh_json *j);

void eh_json_str(struct eh_json *j, const char *key, const char *s);  /* NULL: null */
void eh_json_hex(struct eh_json *j, const char *key, uint64_t v);
void eh_json_uint(struct eh_json *j, const char *key, uint64_t v);
void eh_json_bool(struct eh_json *j, const char *key, bool v);

#endif

/* Suppressions of audit findings: each names an erratum and a place, and says why it is safe. */
#ifndef EH_SUPPRESS_H
#define EH_SUPPRESS_H

#include <stddef.h>

#include "eh/error.h"

/*
 * One line of a suppression file: "ERRATUM WHERE JUSTIFICATION...". WHERE is
 * SYMBOL (anywhere in it) or SYMBOL+OFFSET (one instruction); the
 * justification is the rest of the line and may not be empty.
 */
struct eh_suppression {
	const char *erratum;        /* "tx2-219" */
	const char *symbol;
	unsigned long long offset;
	int has_offset;
	const char *justification;
	unsigned line;              /* in the file, for messages */
	size_t matched;             /* findings it suppressed; 0 after a run: stale */
};

struct eh_suppressions {
	const char *path;
	struct eh_suppression *v;
	size_t n;
	char *text;                 /* owned storage behind the strings */
};

/*
 * Parse suppression text; name is for messages. Blank lines and lines starting
 * with # are comments. errata lists the erratum ids that exist (NULL-ended):
 * an unknown one, a missing place or justification, or a bad offset is
 * EH_EINPUT naming the file and line.
 */
int eh_suppress_parse(struct eh_suppressions **out, const char *name, const char *text, size_t len,
		      const char *const *errata, struct eh_error *err);
int eh_suppress_open(struct eh_suppressions **out, const char *path, const char *const *errata,
		     struct eh_error *err);
void eh_suppress_free(struct eh_suppressions *s);

/*
 * The first suppression of erratum that covers a finding: its anchor at anchor
 * ("sym+0x10", as eh_elf_describe names it; a window rule's is the instruction
 * that opened the window, "" for none), or the finding itself at where. NULL
 * when none; a match counts in ->matched.
 */
const struct eh_suppression *eh_suppress_match(struct eh_suppressions *s, const char *erratum,
					       const char *anchor, const char *where);

#endif

/* Kernel capability numbers (arch/arm64 cpucaps.h) for a kernel version: built in, or read from a header. */
#ifndef EH_CPUCAPS_H
#define EH_CPUCAPS_H

#include <stddef.h>

#include "eh/error.h"

/* How `struct alt_instr` marks a callback entry. */
enum eh_alt_cb_style {
	EH_ALT_CB_NCAPS,   /* 5.x: the capability field equals ARM64_NCAPS */
	EH_ALT_CB_BIT15,   /* 6.x: bit 15 (ARM64_CB_BIT) set, low bits the capability */
};

struct eh_cpucap {
	const char *name;  /* "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM" */
	unsigned number;
};

struct eh_cpucaps {
	const char *source;            /* "linux-5.4" or the header's path */
	const char *kernel;            /* whose capability rules decide them (eh_cap_rules_find): "5.4", "6.1" */
	const struct eh_cpucap *caps;
	size_t ncap_entries;
	unsigned ncaps;                /* ARM64_NCAPS */
	enum eh_alt_cb_style cb_style;
};

/* The built-in table for a kernel version ("5.4"); NULL when there is none. */
const struct eh_cpucaps *eh_cpucaps_builtin(const char *version);
extern const char *const eh_cpucaps_builtin_versions[];  /* NULL-terminated */

/*
 * Read a tree's capability numbers: the hand-written arch/arm64/include/asm/cpucaps.h
 * of 5.x or the generated include/generated/asm/cpucaps.h of 6.x (lines
 * `#define ARM64_NAME N` and `#define ARM64_NCAPS N`). Duplicate names or numbers,
 * numbers out of range and lines that are not preprocessor lines or comments are
 * input errors naming the file and line. Free the result with eh_cpucaps_free.
 */
int eh_cpucaps_parse(struct eh_cpucaps **out, const char *name, const char *text, size_t len,
		     struct eh_error *err);
int eh_cpucaps_open(struct eh_cpucaps **out, const char *path, struct eh_error *err);
/* Only for tables from eh_cpucaps_parse/open; NULL is fine. */
void eh_cpucaps_free(struct eh_cpucaps *t);

/* The name of capability number n, or NULL if the table has none. */
const char *eh_cpucaps_name(const struct eh_cpucaps *t, unsigned n);
int eh_cpucaps_number(const struct eh_cpucaps *t, const char *name, unsigned *n);

#endif

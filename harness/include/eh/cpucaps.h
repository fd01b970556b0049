/* Kernel capability numbers (arch/arm64 cpucaps.h) for a kernel version: built in, or read from a header. */
#ifndef EH_CPUCAPS_H
#define EH_CPUCAPS_H

#include <stddef.h>

#include "eh/elf.h"
#include "eh/error.h"

struct eh_cap_rules;

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
	const char *kernel;            /* whose capability rules decide them (eh_cap_rules_find): "5.4", "6.1", "6.12" */
	const struct eh_cpucap *caps;
	size_t ncap_entries;
	unsigned ncaps;                /* ARM64_NCAPS */
	enum eh_alt_cb_style cb_style;
	/*
	 * Read from the image (eh_cpucaps_from_image, eh_cpucaps_for_elf): the rules its own
	 * entries state (eh_cap_rules_from_image), which decide instead of those of kernel;
	 * NULL for a header or a built-in table.
	 */
	const struct eh_cap_rules *rules;
	const char *release;           /* the release the image's linux_banner names, or NULL */
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

/*
 * The numbering a linked image (or an object holding cpufeature.o and cpu_errata.o)
 * carries: its arm64_features[] and arm64_errata[] (struct arm64_cpu_capabilities,
 * 64 bytes an entry in 5.4 and 6.1: desc at 0, capability at 8, type at 10, matches
 * at 16), each entry named by its desc, or without one by its .matches function and
 * type, as the rules of the kernel version that names most of them state it (that
 * version's rules then decide). An entry no rule names keeps its number under its desc
 * in quotes. ARM64_NCAPS is the size of cpu_hwcaps_ptrs[] where the image has it.
 * EH_ENOENT when the image has no such tables; EH_EINPUT when they cannot be read or
 * contradict themselves, naming the file and the entry.
 */
int eh_cpucaps_from_image(struct eh_cpucaps **out, const struct eh_elf *elf, struct eh_error *err);

/*
 * EH_EINPUT, naming the first capability (in the image's numbering order) that given
 * numbers otherwise than image, or lacks.
 */
int eh_cpucaps_check(const struct eh_cpucaps *given, const struct eh_cpucaps *image, struct eh_error *err);

/*
 * The numbering for elf: its own tables, checked against given when there is one (given's
 * numbering is then used, with the image's rules: it also names capabilities the build
 * configured out); given alone when elf has
 * no tables; EH_EINVAL naming elf when it has none and nothing is given. *owned (freed with
 * eh_cpucaps_free) holds what this allocated; *out is the numbering to use.
 */
int eh_cpucaps_for_elf(struct eh_cpucaps **owned, const struct eh_cpucaps **out, const struct eh_elf *elf,
		       const struct eh_cpucaps *given, struct eh_error *err);

/* The name of capability number n, or NULL if the table has none. */
const char *eh_cpucaps_name(const struct eh_cpucaps *t, unsigned n);
int eh_cpucaps_number(const struct eh_cpucaps *t, const char *name, unsigned *n);

#endif

/* Kernel alternatives: `struct alt_instr` entries of .altinstructions, and patching them in as at boot. */
#ifndef EH_ALT_H
#define EH_ALT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"

/* struct alt_instr (arch/arm64/include/asm/alternative.h, 5.x and 6.x): 12 bytes. */
#define EH_ALT_ENTRY_SIZE 12

/* What became of a callback site when the image was patched (image.c, alt_cb.c). */
enum eh_alt_cb_result {
	EH_ALT_CB_NOT_RUN,      /* not a callback, or its capability is not detected: the kernel never calls it */
	EH_ALT_CB_PATCHED,      /* emulated: the original rewritten, as the kernel's function rewrites it */
	EH_ALT_CB_KEPT,         /* emulated: the function leaves the original as it is */
	EH_ALT_CB_UNCERTAIN,    /* the original kept, but the kernel may rewrite it: the harness does not
	                           emulate the function, or its outcome turns on what no model says */
};

/*
 * One alt_instr entry as parsed: the same for every image of one ELF and numbering,
 * which share one array of them (what each image made of a site is its eh_alt_outcome).
 */
struct eh_alt_site {
	uint64_t entry;         /* address of the alt_instr entry */
	uint64_t orig;          /* original instructions */
	uint64_t repl;          /* replacement instructions, or the callback (0 if outside the ELF) */
	unsigned cap;           /* capability number (without the callback bit) */
	unsigned cb_index;      /* a callback's number among the parse's callbacks, in entry order */
	unsigned rank_site;     /* the index of the parse's site that is k-th by original address, k this one's index */
	const char *cap_name;   /* from the cpucaps table; NULL if it has none */
	const char *cb_name;    /* callback: its symbol, when the ELF names it */
	/*
	 * The original's orig_len / 4 words, then (not a callback) the replacement's as
	 * they land on the site (eh_alt_fixup), or (a callback that reads nothing of the
	 * target, cb_fixed) what the callback writes: read once for every image patched
	 * from the parse; NULL when the original has no contents. unfixed: 0, or one more
	 * than the index of the replacement word that has none or cannot be moved (the
	 * image that applies the site says why).
	 */
	const uint32_t *words;
	uint8_t orig_len, repl_len, unfixed;
	uint8_t cb_kind;        /* callback: which the harness emulates (image/alt_cb.c), 0 for none */
	/*
	 * A callback whose outcome turns on nothing of the target (alt_cb_patch_nops): its
	 * cb_result and cb_why once the kernel calls it; EH_ALT_CB_NOT_RUN for the others.
	 */
	uint8_t cb_fixed;
	const char *cb_fixed_why;
	bool callback;
};

/* What one patched image made of a site (eh_image_outcome): the part of a site that differs between images. */
struct eh_alt_outcome {
	bool applied;
	enum eh_cap_state state;           /* why it is applied or not */
	const struct eh_capability *rule;  /* the rule that decided, NULL if unknown */
	enum eh_alt_cb_result cb_result;   /* a callback's; EH_ALT_CB_NOT_RUN for the others */
	const char *cb_why;                /* what decided cb_result, for the reader (static text; "" if nothing) */
};

/* The callback's kernel name: KVM's nVHE alias __kvm_nvhe_X (image-vars.h) is X itself. */
const char *eh_alt_cb_name(const struct eh_alt_site *s);

/*
 * Read and check every entry of .altinstructions (none is fine). In a
 * relocatable object the entries were relocated when it was placed (see
 * eh_elf_place); a callback may name a function another object defines.
 */
int eh_alt_parse(struct eh_alt_site **out, size_t *nout, const struct eh_elf *elf,
		 const struct eh_cpucaps *caps, struct eh_error *err);

/*
 * The kernel's instruction fix-up (get_alt_insn in arch/arm64/kernel/alternative.c):
 * rewrite replacement word insn, read at repl_pc, for execution at orig_pc.
 */
int eh_alt_fixup(uint32_t insn, uint64_t repl_pc, uint64_t orig_pc, uint64_t repl_start,
		 uint64_t repl_end, uint32_t *out, struct eh_error *err);

#endif

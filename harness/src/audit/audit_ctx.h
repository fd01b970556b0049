/* The audit's state as its rules see it: shared by the audit engine (audit.c) and the helpers rules call (rule.c). */
#ifndef EH_AUDIT_CTX_H
#define EH_AUDIT_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/audit.h"
#include "eh/image.h"
#include "eh/insn.h"

/* Following one window (audit.c). */
struct eh_audit__walk;

/* What the audit keeps for each rule it runs, beside its result. */
struct eh_audit__rule_state {
	size_t cap_windows, cap_findings;
	size_t nclasses;          /* a window rule's */
};

/*
 * A bit for each word of each audited section (by its index in the ELF's sections;
 * NULL for the others): whether the word lies in some alternative's original range
 * (orig), and in some non-callback replacement (repl). A read of one of the many
 * words outside every alternative then costs no search.
 */
struct eh_audit__site_bits {
	uint64_t **orig, **repl;
	size_t n;
};

void eh_audit__free_site_bits(struct eh_audit__site_bits *b);

/* Bit of addr (in s, eh_elf_section_at's) in bits; -1 when they do not say: a search must. */
static inline int eh_audit__bit(uint64_t *const *bits, const struct eh_elf *elf, const struct eh_elf_section *s,
				uint64_t addr)
{
	const uint64_t *b = bits ? bits[s - elf->sections] : NULL;
	uint64_t k = (addr - s->addr) / 4;

	if (!b || (addr - s->addr) % 4 || addr - s->addr >= s->size)
		return -1;
	return (int)(b[k / 64] >> (k % 64) & 1);
}

struct eh_rule_ctx {
	const struct eh_image *img;
	struct eh_decoder *dec;
	/* The rule running and the result it fills. */
	struct eh_audit_result *res;
	struct eh_audit__rule_state *state;
	struct eh_audit__walk *walk;
	struct eh_audit_scan *scan;   /* what the audits of one ELF's images share */
	/* The image's sites sorted by original address, and the non-callback ones by replacement. */
	const struct eh_alt_site **by_orig, **by_repl;
	size_t nrepl;
	const struct eh_audit__site_bits *bits;
	unsigned vhe;                 /* eh_target_vhe of the image's target */
	uint64_t ran;                 /* the results whose rules run, by result bit (past the 63rd: bit 63) */
	/*
	 * While a scan rule visits a word whose verdict the scan's other images may
	 * share (tracking): the addresses its reads reached (lo..hi), whether it asked
	 * what images differ in (an alternative's outcome, where the code runs:
	 * varies), or only whether the target runs the kernel with VHE (vhe_dep).
	 */
	bool tracking, varies, vhe_dep;
	bool site_asked;          /* ... it asked eh_rule_site: its verdict holds where the sites agree */
	uint64_t lo, hi;
	/*
	 * The windows the visits read the file's code through (eh_elf_windows_at: none of its pages
	 * mapped, which costs a virtual machine more than reading them), and the first read that
	 * failed (EH_EIO or EH_ENOMEM, errno then), which fails the audit: a word that could not be
	 * read is not one that is not there.
	 */
	struct eh_elf_windows code;
	int read_rc, read_errno;
};

/*
 * The word at addr of section s (NULL: none) through ctx->code: the image's (patched: a site's
 * patch or the file's) or the file's; eh_image_word_in's returns, a failed read kept in ctx.
 */
int eh_audit__word_in(struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr, bool patched,
		      uint32_t *word);

/* The alternative whose original range holds addr in the image (eh_rule_site, untracked). */
const struct eh_alt_site *eh_audit__site(const struct eh_rule_ctx *ctx, uint64_t addr);

/* Whether the sites of img whose original range meets [lo, hi) had the outcomes they have in ctx's image. */
bool eh_audit__sites_agree(const struct eh_rule_ctx *ctx, const struct eh_image *img, uint64_t lo, uint64_t hi);

/* Whether some alternative's original range meets [lo, hi). */
bool eh_audit__touches_site(const struct eh_rule_ctx *ctx, uint64_t lo, uint64_t hi);

/* Whether addr is replacement code, which only runs once copied over its site. */
bool eh_audit__is_replacement(const struct eh_rule_ctx *ctx, uint64_t addr);
/* The same for addr in s (eh_elf_section_at's, or NULL): by its bit where the bits say, else a search. */
bool eh_audit__replacement_in(const struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr);

/* Make room for one more element of size elem in *p (holding n of *cap): 0 or EH_ENOMEM. */
int eh_audit__grow(void *p, size_t *cap, size_t n, size_t elem);

/*
 * A new finding of the running rule at addr, appended to its result: its
 * erratum, places (symbol+offset) and alternative filled in, the rest zero
 * (window SIZE_MAX). NULL when out of memory.
 */
struct eh_finding *eh_audit__add_finding(struct eh_rule_ctx *ctx, uint64_t addr, uint64_t anchor);

#endif

/* A loaded ELF with the alternatives patched in for one CPU model and kernel configuration. */
#ifndef EH_IMAGE_H
#define EH_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/alt.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/kconfig.h"
#include "eh/model.h"

/* One word of the image that is not the ELF's: at its address less the image's patch_base. */
struct eh_image_patch {
	uint32_t at;
	uint32_t word;
};

struct eh_image {
	const struct eh_elf *elf;       /* borrowed */
	const struct eh_cpucaps *caps;  /* borrowed */
	const struct eh_cap_rules *rules;  /* caps->rules (the image's own), else the kernel version's */
	struct eh_target target;        /* the model and .config borrowed */
	/*
	 * The image's bytes are the ELF's but for these words, which the alternatives it applies
	 * rewrote (each differs from the ELF's), sorted by address: an image costs what its
	 * alternatives patch, not a copy of the sections they patch.
	 */
	struct eh_image_patch *patches;
	size_t npatches;
	uint64_t patch_base;  /* the lowest alternative's address: every patch lies within 4 GiB of it */
	/*
	 * The ELF's alternatives as parsed: shared by the images made from one parse
	 * (eh_image_new_planned), owned by an image that parsed them (owned). What the
	 * image made of each (eh_image_outcome) is all it keeps of its own: the decision
	 * on each capability number (decided, by number) and the outcome of each callback
	 * that is not its capability's decision alone (callbacks, by cb_index: an index in
	 * outcomes, which holds each distinct one once). Of the 14,000 callback sites of
	 * Debian's 6.1 vmlinux, the 13,900 of alt_cb_patch_nops follow their decision.
	 */
	const struct eh_alt_site *sites;
	size_t nsites;
	struct eh_alt_site *owned;
	struct eh_alt_outcome *decided, *outcomes;
	uint32_t *callbacks;
	size_t noutcomes;
	/* The sites it applied (indices in sites), by original address: what an audit visits of them. */
	uint32_t *applied;
	size_t napplied;
};

/*
 * Patch every alternative whose capability the kernel of target detects (caps
 * numbers them), and run the callbacks of those that are callbacks (alt_cb.c):
 * an emulated one rewrites its site as the kernel's function does, any other
 * keeps the original and is marked EH_ALT_CB_UNCERTAIN.
 */
int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err);
/*
 * What patching does the same for every target, made once from the sites eh_alt_parse(elf,
 * caps) returned, borrowed (they must outlive the plan and its images): the sites by original
 * address, and the words each that is no callback writes where it differs from the file. The
 * images of many targets parse .altinstructions once and share the plan; an image then costs
 * its capabilities' decisions, its callbacks and a copy of the words it patches.
 */
struct eh_image_plan;
int eh_image_plan_new(struct eh_image_plan **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		      const struct eh_alt_site *sites, size_t nsites, struct eh_error *err);
void eh_image_plan_free(struct eh_image_plan *plan);
/* eh_image_new from plan (borrowed: it, and the sites it borrows, must outlive the image). */
int eh_image_new_planned(struct eh_image **out, const struct eh_elf *elf, const struct eh_image_plan *plan,
			 const struct eh_target *target, struct eh_error *err);
void eh_image_free(struct eh_image *img);

/* What the image's patching made of s, one of img->sites. */
struct eh_alt_outcome eh_image_outcome(const struct eh_image *img, const struct eh_alt_site *s);

/*
 * Whether every site of x and y (made from one parse) has the same outcome in both, as far as
 * whether it applied and what its callback did.
 */
bool eh_image_same_outcomes(const struct eh_image *x, const struct eh_image *y);

/* Whether the image applied s, one of img->sites: eh_image_outcome(img, s).applied. */
bool eh_image_applied(const struct eh_image *img, const struct eh_alt_site *s);

/* How many of the image's sites it applied. */
size_t eh_image_napplied(const struct eh_image *img);
/* The index in img->applied of the first site it applied at or above addr (napplied if none). */
size_t eh_image_applied_from(const struct eh_image *img, uint64_t addr);

/* Whether the kernel of the image's target detects capability name. */
bool eh_image_has_cap(const struct eh_image *img, const char *name);

/* The 32-bit word at addr in the patched image; -ENOENT outside every section. */
int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word);
/*
 * The same in s, the section eh_elf_section_at gives for addr, for a caller that has it already,
 * the file's word read through ws (a reader's windows, eh_elf_windows_at) or, with ws NULL,
 * through the mapping: EH_ENOMEM or EH_EIO when ws cannot read it (errno says why).
 */
int eh_image_word_in(const struct eh_image *img, const struct eh_elf_section *s, uint64_t addr,
		     struct eh_elf_windows *ws, uint32_t *word);

/*
 * Copy section s of the image's ELF as patched into dst (s->size bytes); false,
 * copying nothing, when s holds no loadable contents (not SHF_ALLOC, or SHT_NOBITS).
 */
bool eh_image_copy_section(const struct eh_image *img, const struct eh_elf_section *s, uint8_t *dst);

/* The address of the image's patch i. */
static inline uint64_t eh_image_patch_addr(const struct eh_image *img, size_t i)
{
	return img->patch_base + img->patches[i].at;
}

/* The index of the first patch at or above addr (npatches when none). */
size_t eh_image_patch_from(const struct eh_image *img, uint64_t addr);

#endif

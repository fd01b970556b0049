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

struct eh_image {
	const struct eh_elf *elf;       /* borrowed */
	const struct eh_cpucaps *caps;  /* borrowed */
	const struct eh_cap_rules *rules;  /* caps->rules (the image's own), else the kernel version's */
	struct eh_target target;        /* the model and .config borrowed */
	/*
	 * Per section: its bytes as the target's kernel patched them (NULL where the ELF has none):
	 * a copy of the image's own where an alternative patched it (own), else the ELF's.
	 */
	uint8_t **data;
	bool *own;
	struct eh_alt_site *sites;
	size_t nsites;
};

/*
 * Patch every alternative whose capability the kernel of target detects (caps
 * numbers them), and run the callbacks of those that are callbacks (alt_cb.c):
 * an emulated one rewrites its site as the kernel's function does, any other
 * keeps the original and is marked EH_ALT_CB_UNCERTAIN.
 */
int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err);
void eh_image_free(struct eh_image *img);

/* Whether the kernel of the image's target detects capability name. */
bool eh_image_has_cap(const struct eh_image *img, const char *name);

/* The 32-bit word at addr in the patched image; -ENOENT outside every section. */
int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word);

#endif

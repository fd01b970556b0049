/* A loaded ELF with the alternatives patched in for one CPU model and kernel configuration. */
#ifndef EH_IMAGE_H
#define EH_IMAGE_H

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
	const struct eh_cap_rules *rules;  /* the kernel version's, from caps->kernel */
	uint8_t **data;                 /* per section: patched copy (NULL where the ELF has none) */
	struct eh_alt_site *sites;
	size_t nsites;
};

/* Patch every alternative whose capability the kernel of target detects (caps numbers them). */
int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err);
void eh_image_free(struct eh_image *img);

/* The 32-bit word at addr in the patched image; -ENOENT outside every section. */
int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word);

#endif

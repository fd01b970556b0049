/* The look-up indexes of a parsed ELF (by address, by name, by page), built by elf.c through elf_index.c. */
#ifndef EH_ELF_INDEX_H
#define EH_ELF_INDEX_H

#include "eh/elf.h"

/* Build elf's symbol and section indexes once its sections and symbols are final. */
int eh_elf__index(struct eh_elf *elf, struct eh_error *err);

/*
 * The runs of the allocated SHT_RELA section s whose relocations are in r_offset order: run
 * k holds relocations (*runs)[k] to (*runs)[k + 1] - 1. 0 when it has too many to say.
 */
size_t eh_elf__rela_runs(const struct eh_elf *elf, const struct eh_elf_section *s, const uint32_t **runs);

/* The first relocation of s from lo to hi (a run) whose offset is at or past addr, or hi. */
size_t eh_elf__rela_from(const struct eh_elf_section *s, size_t lo, size_t hi, uint64_t addr);

/* Free what eh_elf__index allocated. */
void eh_elf__index_free(struct eh_elf *elf);

#endif

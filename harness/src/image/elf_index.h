/* The look-up indexes of a parsed ELF (by address, by name, by page), built by elf.c through elf_index.c. */
#ifndef EH_ELF_INDEX_H
#define EH_ELF_INDEX_H

#include "eh/elf.h"

/* Build elf's symbol and section indexes once its sections and symbols are final. */
int eh_elf__index(struct eh_elf *elf, struct eh_error *err);

/* Whether the allocated SHT_RELA section s has its relocations in r_offset order (a linked arm64 vmlinux's do). */
bool eh_elf__rela_sorted(const struct eh_elf *elf, const struct eh_elf_section *s);

/* The offset in s of its first relocation at or past addr when they are sorted, else 0. */
size_t eh_elf__rela_from(const struct eh_elf *elf, const struct eh_elf_section *s, uint64_t addr);

/* Free what eh_elf__index allocated. */
void eh_elf__index_free(struct eh_elf *elf);

#endif

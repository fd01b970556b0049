/* The look-up indexes of a parsed ELF (by address, by name, by page), built by elf.c through elf_index.c. */
#ifndef EH_ELF_INDEX_H
#define EH_ELF_INDEX_H

#include "eh/elf.h"

/* Build elf's symbol and section indexes once its sections and symbols are final. */
int eh_elf__index(struct eh_elf *elf, struct eh_error *err);

/* Free what eh_elf__index allocated. */
void eh_elf__index_free(struct eh_elf *elf);

#endif

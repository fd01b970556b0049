/* The loader's placement step for relocatable objects, shared by elf.c and layout.c only. */
#ifndef EH_LAYOUT_H
#define EH_LAYOUT_H

#include "eh/elf.h"

/*
 * Give every allocated section of a freshly parsed ET_REL its address, make
 * symbol values absolute and apply the relocations of allocated sections
 * (see EH_ELF_PLACE_BASE in eh/elf.h).
 */
int eh_elf_place(struct eh_elf *elf, struct eh_error *err);

#endif

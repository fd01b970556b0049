/*
 * Where snippet memory sits in the physical address space that the harness's
 * walker models (harness/include/eh/walk.h): PA = VA - EH_PHYS_VOFFSET, so the
 * image linked at 0xffff800008010000 is RAM at 0x40010000, the way a kernel
 * image lies in RAM below its virtual address. For snippets and case tables.
 */
#ifndef EH_PHYS_H
#define EH_PHYS_H

#define EH_PHYS_VOFFSET 0xffff7fffc8000000

#endif

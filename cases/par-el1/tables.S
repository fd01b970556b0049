/*
 * Kernel page tables for par-el1 (4K granule, 48-bit VA, TTBR1) and the
 * register set-up that points the walker at them, as __cpu_setup would.
 */
#include "eh_phys.h"

#define PA(sym)		((sym) - EH_PHYS_VOFFSET)
#define PMD_TYPE_TABLE	3
/* PAGE_KERNEL: UXN, PXN, AF, inner shareable, AttrIndx MT_NORMAL (4), page. */
#define PAGE_KERNEL	0x0060000000000713
/* T0SZ 16 with EPD0 (no user tables here), T1SZ 16, TG1 4K, IPS 48 bits. */
#define TCR_VALUE	0x0000000580100090
/* Linux 5.4 MAIR_EL1: nGnRnE, nGnRE, GRE, Normal-NC, Normal (index 4), Normal-WT. */
#define MAIR_VALUE	0x000000bbff440c0400

	.text
	.globl	setup_translation
setup_translation:
	ldr	x0, =TCR_VALUE
	msr	tcr_el1, x0
	ldr	x0, =MAIR_VALUE
	msr	mair_el1, x0
	adrp	x0, swapper_pg_dir
	ldr	x1, =EH_PHYS_VOFFSET
	sub	x0, x0, x1
	msr	ttbr1_el1, x0
	isb
	ret
	.ltorg

	/*
	 * One path: 0xffff000012345000 -> L0[0] -> L1[0] -> L2[0x91] -> L3[0x145].
	 * Its neighbours are left invalid: 0xffff000012400000 (L2[0x92]) faults at
	 * level 2, 0xffff000012346000 (L3[0x146]) at level 3.
	 */
	.data
	.balign	4096
swapper_pg_dir:
	.quad	PA(pud_table) + PMD_TYPE_TABLE
	.fill	511, 8, 0
pud_table:
	.quad	PA(pmd_table) + PMD_TYPE_TABLE
	.fill	511, 8, 0
pmd_table:
	.fill	0x91, 8, 0
	.quad	PA(pte_table) + PMD_TYPE_TABLE
	.fill	511 - 0x91, 8, 0
pte_table:
	.fill	0x145, 8, 0
	.quad	0x80345000 + PAGE_KERNEL	// installed by another CPU after this one faulted
	.fill	511 - 0x145, 8, 0

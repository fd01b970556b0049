/*
 * The Linux 6.1 KPTI trampoline vector entry (tramp_ventry with kpti, entry.S) on its way into the
 * kernel, in two builds: without the Falkor E1003 workaround, and with it as 6.1 has it (after the
 * write of TTBR1_EL1 in tramp_map_kernel, isb; tlbi vae1; dsb nsh on the 2MB of the trampoline's
 * alias, then an ISB before the vectors address is loaded, alternatives on
 * ARM64_WORKAROUND_QCOM_FALKOR_E1003). The trampoline sits in .entry.tramp.text, as the kernel's does.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

#define PAGE_SIZE		4096
#define TRAMP_SWAPPER_OFFSET	(2 * PAGE_SIZE)		/* tramp_pg_dir to swapper_pg_dir */
#define USER_ASID_FLAG		(1 << 48)
#define TRAMP_VALIAS		0xfffffbfffe000000	/* the trampoline's alias: any kernel VA will do */
#define TRAMP_VA_PAGE		((TRAMP_VALIAS & ~(0x200000 - 1)) >> 12)
#define TRAMP_TTBR1		0x40000000		/* tramp_pg_dir's address, with ASID 3 (user) */
#define TRAMP_ASID		3

	/* Move from tramp_pg_dir to swapper_pg_dir (\fix: with the E1003 workaround). */
	.macro tramp_map_kernel, tmp, fix
	mrs	\tmp, ttbr1_el1
	add	\tmp, \tmp, #TRAMP_SWAPPER_OFFSET
#ifndef EH_MUTANT_SAME_ASID
	bic	\tmp, \tmp, #USER_ASID_FLAG
#endif
#ifdef EH_MUTANT_NO_TTBR_WRITE
	nop					// mutant: the trampoline never switches
#else
	msr	ttbr1_el1, \tmp
#endif
	.if	\fix
alternative_if ARM64_WORKAROUND_QCOM_FALKOR_E1003
	/* ASID already in \tmp[63:48] */
	movk	\tmp, #((TRAMP_VA_PAGE >> 32) & 0xffff), lsl #32
	movk	\tmp, #((TRAMP_VA_PAGE >> 16) & 0xffff), lsl #16
	movk	\tmp, #(TRAMP_VA_PAGE & 0xffff)
	isb
#ifdef EH_MUTANT_LOAD_BEFORE_TLBI
	ldr	xzr, [sp]			// mutant: a load before the walk cache is invalidated
#endif
#ifdef EH_MUTANT_NO_TLBI
	nop					// mutant: nothing invalidates the walk cache
#else
	tlbi	vae1, \tmp
#endif
	dsb	nsh
alternative_else_nop_endif
	.endif
	.endm

	/* One lower-EL 64-bit vector entry of \table (offset 0x400), into the kernel's vectors. */
	.macro tramp_ventry, name, table, fix
	.globl	\name
\name:
1:	msr	tpidrro_el0, x30		// restored in kernel_ventry
	bl	2f
	b	.
2:	tramp_map_kernel x30, \fix
	.if	\fix
alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003
	.endif
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	ldr	x30, tramp_data_vectors		// tramp_data_read_var (CONFIG_RELOCATABLE)
	msr	vbar_el1, x30
	isb
	add	x30, x30, #(1b - \table)
	ret
	.endm

	.macro tramp_vectors, table, entry, fix
	.align	11
\table:
	.space	0x400
	tramp_ventry \entry, \table, \fix
	.align	11
	.endm

	.pushsection ".entry.tramp.text", "ax"
	tramp_vectors tramp_vectors_unfixed, tramp_entry_unfixed, 0
	tramp_vectors tramp_vectors_e1003, tramp_entry_e1003, 1
	.popsection

	.pushsection ".entry.tramp.rodata", "a"
	.align	3
tramp_data_vectors:
	.quad	vectors
	.popsection

	.text
	/*
	 * An exception from EL0 as the trampoline sees it: TTBR1_EL1 holds tramp_pg_dir with the
	 * task's (user) ASID, then the vector entry runs (x30 is the harness's return address).
	 */
	.macro from_el0, name, entry
	.globl	\name
\name:
	mov	x0, #TRAMP_TTBR1
	movk	x0, #TRAMP_ASID, lsl #48
	msr	ttbr1_el1, x0
	isb
	b	\entry
	.endm

	from_el0 el0_sync_unfixed, tramp_entry_unfixed
	from_el0 el0_sync_e1003, tramp_entry_e1003

	/* The kernel's vectors: its lower-EL entry ends the run as the kernel's entry code begins. */
	.align	11
	.globl	vectors
vectors:
	.space	0x400
	.globl	el0_sync
el0_sync:
	mrs	x30, tpidrro_el0
	ret
	.align	11

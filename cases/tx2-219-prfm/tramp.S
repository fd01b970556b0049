/*
 * The Linux 5.4 KPTI trampoline vector entry (tramp_ventry in entry.S), around
 * the hunk of 9405447ef79b, in three builds: before the fix, after it, and
 * after it with CONFIG_RANDOMIZE_BASE.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_5_4.h"

#define PAGE_SIZE		4096
#define RESERVED_TTBR0_SIZE	PAGE_SIZE		/* CONFIG_ARM64_SW_TTBR0_PAN */
#define USER_ASID_FLAG		(1 << 48)

	/* Switch TTBR1_EL1 from the trampoline page tables to the kernel's. */
	.macro tramp_map_kernel, tmp
	mrs	\tmp, ttbr1_el1
	add	\tmp, \tmp, #(PAGE_SIZE + RESERVED_TTBR0_SIZE)
	bic	\tmp, \tmp, #USER_ASID_FLAG
#ifdef EH_MUTANT_BRK_BEFORE_TTBR
	brk	#1				// mutant: the trampoline stops before its TTBR write
#endif
	msr	ttbr1_el1, \tmp
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral, the judge must not care
#endif
	.endm

	/* One 64-bit vector entry; \table is the vector table it sits in. */
	.macro tramp_ventry, name, table, kaslr, prfm_alt
	.globl	\name
\name:
1:	msr	tpidrro_el0, x30		// restored by the kernel's vector entry
	bl	2f
	b	.
2:	tramp_map_kernel x30
	.if \kaslr
	adr	x30, tramp_data			// tramp_vectors + PAGE_SIZE in the kernel
#ifdef EH_MUTANT_STORE_IN_WINDOW
	str	x30, [x30, #8]			// mutant: a store before the ISB, inside the window
#endif
alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003
	ldr	x30, [x30]
	.else
	ldr	x30, =vectors
	.endif
	.if \prfm_alt
#ifdef EH_MUTANT_NO_ALTERNATIVE
	prfm	plil1strm, [x30, #(1b - \table)]	// mutant: the fix without its alternative
#else
alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM
	prfm	plil1strm, [x30, #(1b - \table)]
alternative_else_nop_endif
#endif
	.else
	prfm	plil1strm, [x30, #(1b - \table)]
	.endif
	msr	vbar_el1, x30
	add	x30, x30, #(1b - \table)
	isb
	ret
	.ltorg
	.endm

	/* A trampoline vector table with its lower-EL synchronous entry (offset 0x400). */
	.macro tramp_vectors, table, entry, kaslr, prfm_alt
	.align	11
\table:
	.space	0x400
	tramp_ventry \entry, \table, \kaslr, \prfm_alt
	.align	11
	.endm

	.text
	tramp_vectors tramp_vectors_before, tramp_entry_before, 0, 0
	tramp_vectors tramp_vectors_after, tramp_entry_after, 0, 1
	tramp_vectors tramp_vectors_kaslr, tramp_entry_after_kaslr, 1, 1

	/*
	 * The kernel's own vectors. Both entries a run can reach end it as the
	 * kernel's entry code begins: x30 comes back from TPIDRRO_EL0.
	 */
	.align	11
	.globl	vectors
vectors:
	.space	0x200
	.globl	el1_sync
el1_sync:				// current EL, SP_ELx: the injected abort lands here
	mrs	x30, tpidrro_el0
	ret
	.align	10
	.globl	el0_sync
el0_sync:				// lower EL, AArch64: where the trampoline returns
	mrs	x30, tpidrro_el0
	ret
	.align	11

	.section .rodata, "a"
	.align	3
tramp_data:
	.quad	vectors

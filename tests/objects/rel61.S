/*
 * A relocatable object laid out like a Linux 6.1 entry.o: alternatives numbered
 * as in 6.1 (ARM64_CB_BIT callbacks), replacements both in .altinstr_replacement
 * and in subsection 1 of .text, branches across sections and out of the object.
 * tests/test_audit.c and tests/test_layout.c know what each TTBR window holds.
 */
#include "eh_alternative.h"

#define ARM64_ALWAYS_SYSTEM			1
#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	74
#define ARM64_WORKAROUND_QCOM_FALKOR_E1003	79
#define ARM64_CB_BIT				(1 << 15)

	.text
	/* Closed straight away: nothing but arithmetic before the ISB. */
	.globl	win_isb
win_isb:
	msr	ttbr0_el1, x0
	add	x1, x1, #1
	isb
	ret

	/* The 6.1 trampoline shape: a literal load, then a PRFM that TX2 NOPs, then the ISB. */
	.globl	win_prfm
win_prfm:
	msr	ttbr1_el1, x30
	ldr	x30, =vectors_ptr
alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM
	.globl	prfm_site
prfm_site:
	prfm	plil1strm, [x30, #0x400]
alternative_else_nop_endif
	isb
	ret

	/* Both ways at a conditional branch: a load closed by ISB, a store closed by ERET. */
	.globl	win_cond
win_cond:
	msr	ttbr0_el1, x0
	cbz	x1, 1f
	ldr	x2, [x3]
	isb
	ret
1:	str	x4, [x5]
	eret

	/* A branch to another section, resolved by the object's own JUMP26 relocation. */
	.globl	win_cross
win_cross:
	msr	ttbr0_el1, x0
	b	far_away

	/* A call: the callee's load is in the window, RET comes back, then the ISB. */
	.globl	win_call
win_call:
	msr	ttbr0_el1, x0
	bl	helper
	isb
	ret
helper:
	ldr	x9, [x10]
	ret

	/* Out of the object: the window's end is not known here. */
	.globl	win_extern
win_extern:
	msr	ttbr0_el1, x0
	b	external_fn

	.globl	win_indirect
win_indirect:
	msr	ttbr0_el1, x0
	br	x1

	/* A TTBR write that only exists once the PRFM capability patches it in (6.x subsection style). */
	.globl	win_patched_in
win_patched_in:
661:	nop
662:	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661b, 663f, ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM, 662b-661b, 664f-663f
	.popsection
	.subsection 1
663:	msr	ttbr0_el1, x3
664:	.previous
	isb
	ret

	/* A callback defined by another object, as entry.S's alternative_cb sites are. */
	.globl	cb_site
cb_site:
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661f, my_patch_cb, ARM64_ALWAYS_SYSTEM | ARM64_CB_BIT, 662f-661f, 0
	.popsection
661:	mov	x0, #0
662:	ret

	.ltorg

	.section .text.other, "ax"
	.globl	far_away
far_away:
	stp	x0, x1, [sp, #-16]!
	isb
	ret

	/* One of each code relocation a kernel object uses, all resolved by placement. */
	.globl	relocs
relocs:
	adrp	x0, vectors_ptr				// R_AARCH64_ADR_PREL_PG_HI21
	add	x0, x0, :lo12:vectors_ptr		// R_AARCH64_ADD_ABS_LO12_NC
	ldr	x1, [x0, :lo12:vectors_ptr]		// R_AARCH64_LDST64_ABS_LO12_NC
	movz	x2, #:abs_g3:vectors_ptr		// R_AARCH64_MOVW_UABS_G3
	movk	x2, #:abs_g2_nc:vectors_ptr		// R_AARCH64_MOVW_UABS_G2_NC
	movk	x2, #:abs_g1_nc:vectors_ptr		// R_AARCH64_MOVW_UABS_G1_NC
	movk	x2, #:abs_g0_nc:vectors_ptr		// R_AARCH64_MOVW_UABS_G0_NC
	adr	x3, win_isb				// R_AARCH64_ADR_PREL_LO21
	tbz	x0, #0, win_isb				// R_AARCH64_TSTBR14
	b.eq	win_isb					// R_AARCH64_CONDBR19
	bl	win_isb					// R_AARCH64_CALL26
	ldr	x4, vectors_ptr				// R_AARCH64_LD_PREL_LO19
	ret

	.section .rodata, "a"
	.align	3
	.globl	vectors_ptr
vectors_ptr:
	.quad	win_isb

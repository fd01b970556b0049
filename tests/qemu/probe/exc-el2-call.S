/*
 * probe_el1_call(fn) for probe/exc-bare.c built for EL2: from EL2, runs fn at EL1 (EL1h, DAIF masked) and
 * returns when fn does. fn returns to an HVC #0xfff0, which this file's vectors take as the way
 * back; every other exception to EL2 goes to probe/vectors.S's, which record it.
 */
	.text
	.global	probe_el1_call
probe_el1_call:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	mov	x9, sp
	adrp	x10, saved_sp
	str	x9, [x10, :lo12:saved_sp]
	adr	x9, call_vectors
	msr	vbar_el2, x9
	msr	elr_el2, x0
	mov	x9, #0x3c5		/* M[3:0] 0b0101: EL1h; D, A, I, F masked */
	msr	spsr_el2, x9
	adrp	x9, el1_stack_top
	add	x9, x9, :lo12:el1_stack_top
	msr	sp_el1, x9
	adr	x30, el1_back
	isb
	eret
el1_back:
	hvc	#0xfff0

	.balign	0x800
call_vectors:
	.rept	16
	.balign	0x80
	b	dispatch
	.endr

dispatch:
	stp	x9, x10, [sp, #-16]!
	mrs	x9, esr_el2
	movz	x10, #0x5a00, lsl #16	/* EC 0x16 (HVC from AArch64), IL 1 */
	movk	x10, #0xfff0		/* ISS: the immediate */
	cmp	x9, x10
	b.eq	back
	ldp	x9, x10, [sp], #16
	b	probe_vectors		/* each of its entries branches to the recording handler */
back:
	adrp	x10, saved_sp
	ldr	x9, [x10, :lo12:saved_sp]
	mov	sp, x9
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

	.bss
	.balign	16
saved_sp:
	.quad	0, 0
	.space	4096
el1_stack_top:

/* Snippets for the virtual EL2 tests: two hypervisor vectors, and guests that trap to them. */

	.section .hyp.text, "ax"

	/* Handles a trapped MSR: writes TTBR0_EL1 from the saved Rt, skips it, returns. */
	.align	11
	.globl	hyp_vectors_fast
hyp_vectors_fast:
	.space	0x400
	mrs	x1, esr_el2
	ubfx	x2, x1, #5, #5		// Rt
	ldr	x3, [x0, x2, lsl #3]	// the guest's Rt, from the frame
	msr	ttbr0_el1, x3
	ldr	x6, [x0]		// an EL2 load while the window is open: no hazard
	mov	x5, #0x5555		// clobbered here, restored by the ERET
	mrs	x4, elr_el2
	add	x4, x4, #4
	msr	elr_el2, x4
	eret
	.align	11

	/* Declines every trap: back to the host through x30. */
	.globl	hyp_vectors_decline
hyp_vectors_decline:
	.space	0x400
	ret
	.align	11

	/* Returns to EL0, which the engine does not model. */
	.globl	hyp_vectors_bad_spsr
hyp_vectors_bad_spsr:
	.space	0x400
	msr	spsr_el2, xzr
	eret
	.align	11

	/* Exits to the host with a syndrome that is no trapped access. */
	.globl	hyp_vectors_bad_exit
hyp_vectors_bad_exit:
	.space	0x400
	msr	esr_el2, xzr
	ret
	.align	11

	/* Started here, a thread runs at virtual EL2: x0 = its stack pointer. */
	.globl	hyp_report_sp
hyp_report_sp:
	mov	x0, sp
	ret

	.text

	/* x1: the new TTBR0_EL1, x2: an address to load before the ISB. */
	.globl	guest_write_ttbr0
guest_write_ttbr0:
	mov	x5, #0x77
	msr	ttbr0_el1, x1
	ldr	x3, [x2]
	isb
	ret

	/* A read of a VM register (trapped by TRVM) into x4. */
	.globl	guest_read_ttbr0
guest_read_ttbr0:
	mrs	x4, ttbr0_el1
	ret

	/* Writes of registers TVM does not trap. */
	.globl	guest_write_other
guest_write_other:
	msr	tpidr_el1, x1
	msr	vbar_el1, x1
	ret

	/* Unmasks SErrors; the handler at VBAR_EL1 + 0x380 sets x7. */
	.globl	guest_unmask_serror
guest_unmask_serror:
	adr	x1, guest_serror_vectors
	msr	vbar_el1, x1
	isb
	msr	daifclr, #4
	nop
	ret

	.align	11
	.globl	guest_serror_vectors
guest_serror_vectors:
	.space	0x380
	mov	x7, #0x5e		// current EL with SP_ELx, SError
	eret
	.align	11

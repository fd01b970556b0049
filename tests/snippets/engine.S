/* Small snippets that exercise the engine: TTBR windows, stop conditions, served registers. */
	.text

	/* A TTBR0_EL1 write with a load and a store inside, closed by ISB. */
	.globl	win_isb
win_isb:
	msr	ttbr0_el1, x0
	ldr	x1, [sp, #-16]
	str	x1, [sp, #-8]
	isb
	ldr	x2, [sp, #-16]		// after the window
	ret

	/* A TTBR0_EL1 write with a store first inside, closed by ISB. */
	.globl	win_store
win_store:
	msr	ttbr0_el1, x0
	str	x0, [sp, #-8]
	ldr	x1, [sp, #-16]
	isb
	ret

	/* A TTBR1_EL1 write with a load inside, closed by ERET (to EL1h). */
	.globl	win_eret
win_eret:
	adr	x1, 1f
	msr	elr_el1, x1
	mov	x1, #0x3c5		// EL1h, DAIF masked
	msr	spsr_el1, x1
	msr	ttbr1_el1, x0
	ldr	x2, [sp, #-16]
	eret
1:	ldr	x3, [sp, #-16]
	ret

	/* A TTBR0_EL1 write with a load inside, closed by the exception entry of an SVC. */
	.globl	win_exception
win_exception:
	mov	x19, x30
	adr	x1, vectors
	msr	vbar_el1, x1
	isb
	msr	ttbr0_el1, x0
	ldr	x2, [sp, #-16]
	svc	#0x42
	b	.			// not reached: the vector returns to the harness

	/* An SVC with no vectors installed. */
	.globl	svc_no_vectors
svc_no_vectors:
	svc	#1
	ret

	/* System register writes and SYS operations, from a register and from XZR. */
	.globl	sys_values
sys_values:
	msr	tpidrro_el0, x0
	msr	contextidr_el1, xzr
	tlbi	vae1, x0
	sub	x1, sp, #64
	dc	civac, x1
	tlbi	vmalle1
	ret

	/* Falls through into reached_end, then spins: only reaching that symbol ends it. */
	.globl	to_the_end
to_the_end:
	mov	x0, #1
	.globl	reached_end
reached_end:
	mov	x0, #2
	b	.

	/* Runaway code: only the instruction budget stops it. */
	.globl	spin
spin:
	b	spin

	/* A jump far outside the image. */
	.globl	wild_jump
wild_jump:
	mov	x1, #0xdead0000
	br	x1

	/* A load from memory nobody mapped. */
	.globl	wild_load
wild_load:
	mov	x1, #0x1000
	ldr	x0, [x1]
	ret

	/* Identity registers come from the model. */
	.globl	read_ids
read_ids:
	mrs	x0, midr_el1
	mrs	x1, mpidr_el1
	mrs	x2, revidr_el1
	mrs	x3, id_aa64pfr1_el1
	ret

	/* EL2 registers live in the virtual EL2 register file. */
	.globl	el2_roundtrip
el2_roundtrip:
	msr	hcr_el2, x0
	mrs	x1, hcr_el2
	ret

	.align	11
vectors:
	.space	0x200
	br	x19			// current EL with SP_ELx, synchronous
	.align	11

	.text
	/* Recursion without end: the stack runs out of its mapping. */
	.globl	recurse
recurse:
	stp	x29, x30, [sp, #-16]!
	bl	recurse

	/* A PAR_EL1 read, then a load (a77-1508412's pair), or the read alone, or the load alone. */
	.globl	par_load
par_load:
	mrs	x1, par_el1
	ldr	x2, [sp, #-16]
	ret

	.globl	par_only
par_only:
	mrs	x1, par_el1
	ret

	.globl	load_only
load_only:
	ldr	x2, [sp, #-16]
	ret

	/* Self-modifying code: overwrite the next instruction with a RET, then run it. */
	.globl	self_modify
self_modify:
	adr	x1, 1f
	ldr	w2, =0xd65f03c0		// ret
	str	w2, [x1]
	ic	ivau, x1
	isb
1:	b	.			// replaced before it runs
	.ltorg

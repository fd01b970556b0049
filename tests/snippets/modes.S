/* Snippets for the engine's exception levels: ERET within EL1, EL0 reads of ID registers, SVC hooks. */
	.text

	/* Set PAN and the flags, then ERET to EL1h with SPSR = x0; report PAN and Z after it. */
	.globl	eret_el1_pstate
eret_el1_pstate:
	msr	pan, #1
	mov	x2, #0
	cmp	x2, #1			// Z clear, so the Z that comes back is SPSR's
	msr	spsr_el1, x0
	adr	x1, 1f
	msr	elr_el1, x1
	eret
1:	mrs	x0, pan
	cset	x1, eq
	ret

	/* Drop to EL0 and read MIDR_EL1 there: UNDEFINED at EL0. */
	.globl	el0_midr
el0_midr:
	adr	x1, 1f
	msr	elr_el1, x1
	msr	spsr_el1, xzr
	eret
1:	mrs	x0, midr_el1
	ret

	/* Two harness calls: x0 = the first one's number, x1 = the second's. */
	.globl	svc_calls
svc_calls:
	svc	#7
	svc	#8
	ret

/*
 * EL2 exception vectors of the bare-metal probes: every entry records ESR_EL2 in probe_esr,
 * counts the exception in probe_exceptions and returns past the instruction that took it.
 */
	.macro	entry
	.balign	0x80
	b	take
	.endm

	.text
	.balign	0x800
	.global	probe_vectors
probe_vectors:
	.rept	16
	entry
	.endr

take:
	stp	x9, x10, [sp, #-16]!
	mrs	x9, esr_el2
	adrp	x10, probe_esr
	str	x9, [x10, :lo12:probe_esr]
	adrp	x10, probe_exceptions
	ldr	x9, [x10, :lo12:probe_exceptions]
	add	x9, x9, #1
	str	x9, [x10, :lo12:probe_exceptions]
	mrs	x9, elr_el2
	add	x9, x9, #4
	msr	elr_el2, x9
	ldp	x9, x10, [sp], #16
	eret

	.bss
	.balign	8
	.global	probe_esr, probe_exceptions
probe_esr:
	.quad	0
probe_exceptions:
	.quad	0

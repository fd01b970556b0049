/*
 * The entries of case a53-835769: the C of mac_plain.c and mac_fixed.c called on the operands
 * table, and the same computation in assembly, with and without the NOP between the last load
 * and the multiply-accumulate.
 */
#include "a53_835769.h"

	.text
/* call_mac FUNCTION: x0 = FUNCTION(&p0, a, b, c) on the operands table. */
.macro call_mac function
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adr	x4, operands
	ldp	x1, x2, [x4]
	ldr	x3, [x4, #16]
	add	x0, x4, #24
#ifdef EH_MUTANT_NOP
	nop
#endif
	bl	\function
	ldp	x29, x30, [sp], #16
	ret
.endm

	.globl	a53_835769_before, a53_835769_after, a53_835769_asm_before, a53_835769_asm_after
a53_835769_before:
	call_mac a53_835769_mac_plain
a53_835769_after:
	call_mac a53_835769_mac_fixed

/* x0 = a * b + c + p[0], the last load (of p[0]) directly before the MADD, which does not read it. */
a53_835769_asm_before:
	adr	x4, operands
	ldp	x1, x2, [x4]
#ifdef EH_MUTANT_DEPENDENT
	ldr	x5, [x4, #24]
	ldr	x3, [x4, #16]	// c, the accumulator: the MADD waits for this load
#else
	ldr	x3, [x4, #16]
	ldr	x5, [x4, #24]
#endif
	madd	x0, x1, x2, x3
	add	x0, x0, x5
	ret

/* The same with the NOP -mfix-cortex-a53-835769 would put there. */
a53_835769_asm_after:
	adr	x4, operands
	ldp	x1, x2, [x4]
	ldr	x3, [x4, #16]
	ldr	x5, [x4, #24]
#ifndef EH_MUTANT_NO_NOP
	nop
#endif
	madd	x0, x1, x2, x3
	add	x0, x0, x5
	ret

	.data
	.balign	8
operands:
	.quad	EH_A53_835769_A, EH_A53_835769_B, EH_A53_835769_C, EH_A53_835769_P0, 0

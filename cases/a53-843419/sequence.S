/*
 * Cortex-A53 erratum 843419's sequence at the end of a page, as a compiler emits a load of a
 * global (ADRP, then the low 12 bits in the load), with a store between them; and the ADR the
 * kernel's module loader puts in place of an ADRP at such an offset (a257e02579e4).
 */
#include "a53_843419.h"

	.section .text.a53_843419, "ax"
/*
 * a53_843419_before: returns `expected`, read through an ADRP at page offset 0xff8. Instruction 2
 * stores a pair at buffer + 8, across a 128-bit boundary, as the errata notice requires of a store.
 * Linked with ld.lld --fix-cortex-a53-843419 (snippet.flags) the load goes to a veneer.
 */
	.balign	4096
#ifdef EH_MUTANT_ADRP_AT_FF4
	.space	4096 - 20
#else
	.space	4096 - 16
#endif
	.globl	a53_843419_before
	.type	a53_843419_before, %function
a53_843419_before:
	adr	x5, buffer
#ifdef EH_MUTANT_NOP
	nop
#endif
	mov	x3, #1
	adrp	x0, expected
#ifdef EH_MUTANT_ALIGNED_PAIR
	stp	x3, x4, [x5]
#else
	stp	x3, x4, [x5, #8]
#endif
	ldr	x0, [x0, :lo12:expected]
	ret
	.size	a53_843419_before, . - a53_843419_before

/* a53_843419_after: the same with the ADRP patched to an ADR of the page, as module.c does. */
	.balign	4096
	.space	4096 - 16
	.globl	a53_843419_after
	.type	a53_843419_after, %function
a53_843419_after:
	adr	x5, buffer
	mov	x3, #1
#ifdef EH_MUTANT_ADRP_IN_AFTER
	adrp	x0, expected
#else
	adr	x0, expected_page
#endif
	stp	x3, x4, [x5, #8]
	ldr	x0, [x0, :lo12:expected]
	ret
	.size	a53_843419_after, . - a53_843419_after

	.data
	.balign	4096
expected_page:
	.space	0x10
expected:
	.quad	EH_A53_843419_EXPECTED
	.space	4096 - 8
/* One page on from `expected`: what a load that missed its page by one reads. */
decoy:
	.quad	EH_A53_843419_DECOY
	.balign	16
buffer:
	.space	32

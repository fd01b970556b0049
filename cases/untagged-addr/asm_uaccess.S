/*
 * The assembly side of untagged_addr (597399d0cb91): the 5.4 clear_address_tag macro of
 * asm-uaccess.h before the fix and its untagged_addr replacement, each run over a buffer.
 */

	/* Before: clear the top byte only when bit 55 is clear (a user address). */
	.macro	clear_address_tag, dst, addr
	tst	\addr, #(1 << 55)
	bic	\dst, \addr, #(0xff << 56)
	csel	\dst, \dst, \addr, eq
	.endm

	/* After: AND with the address sign-extended from bit 55, the sequence the C macro uses too. */
	.macro	untagged_addr, dst, addr
	sbfx	\dst, \addr, #0, #56
#ifndef EH_MUTANT_NO_AND			/* mutant: the sign extension alone */
	and	\dst, \dst, \addr
#endif
	.endm

	/* \name(in x0, out x1, count x2): out[i] = \macro(in[i]), one load and one store per address. */
	.macro	untag_batch, name, macro
	.globl	\name
	.type	\name, %function
\name:
	cbz	x2, 2f
1:	ldr	x3, [x0], #8
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	\macro	x4, x3
	str	x4, [x1], #8
	subs	x2, x2, #1
	b.ne	1b
2:	ret
	.size	\name, . - \name
	.endm

	.text
	untag_batch untagged_before_asm, clear_address_tag
	untag_batch untagged_after_asm, untagged_addr

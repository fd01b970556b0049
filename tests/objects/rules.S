/*
 * A relocatable object for the rules tests/test_rules.c defines: reads of PAR_EL1 with and without
 * a DMB SY on each side (a scan rule), and writes of CONTEXTIDR_EL1 followed by stores before the
 * next ISB (a window rule); one PAR_EL1 read is patched in by an alternative, and its replacement,
 * like every replacement, is not code of its own.
 */
#include "eh_alternative.h"

#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	74

	.text
	/* At the very start of its section: nothing comes before it. */
	.globl	par_first
par_first:
	mrs	x0, par_el1
	dmb	sy
	ret

	/* Bracketed as the scan rule asks. */
	.globl	par_bracketed
par_bracketed:
	dmb	sy
	mrs	x1, par_el1
	dmb	sy
	ret

	.globl	par_no_before
par_no_before:
	mrs	x2, par_el1
	dmb	sy
	ret

	/* DMB ISH is not DMB SY. */
	.globl	par_no_after
par_no_after:
	dmb	sy
	mrs	x3, par_el1
	dmb	ish
	ret

	/* A NOP where capability 74 is not detected, a read of PAR_EL1 where it is. */
	.globl	par_patched_in
par_patched_in:
661:	nop
662:	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661b, 663f, ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM, 662b-661b, 664f-663f
	.popsection
	ret

	/*
	 * A store before the ISB is what the window rule finds; a load is not. Nor is a write of
	 * a system register, but one of TPIDR_EL1, which the rule's found picks.
	 */
	.globl	ctx_store
ctx_store:
	msr	contextidr_el1, x0
	ldr	x1, [x2]
	str	x1, [x3]
	msr	tpidrro_el0, x6
	msr	tpidr_el1, x5
	isb
	ret

	/* A write of XZR is an anchor of a class that opens no window. */
	.globl	ctx_cleared
ctx_cleared:
	msr	contextidr_el1, xzr
	str	x1, [x3]
	isb
	ret

	/* Both ways at CBZ: a call whose callee stores, and an ERET, which does not close this rule's window. */
	.globl	ctx_branches
ctx_branches:
	msr	contextidr_el1, x0
	cbz	x1, 1f
	bl	ctx_helper
	isb
	ret
1:	stp	x1, x2, [sp, #-16]!
	eret
ctx_helper:
	str	x4, [x5]
	ret

	/* The last instruction before the replacement code: nothing follows it. */
	.globl	par_last
par_last:
	dmb	sy
	mrs	x5, par_el1
	.subsection 1
663:	mrs	x6, par_el1
664:	.previous

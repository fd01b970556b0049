/*
 * Accesses an audit must not miss, each in the window of a TTBR0_EL1 write:
 * instructions Capstone 4 cannot decode (an LSE atomic, LDAPR, CASP), DC ZVA,
 * a load behind a branch that boot turns into a NOP (alt_cb_patch_nops), a
 * load two calls deep, a window whose function returns before its caller's
 * ISB, and a site a callback the harness does not emulate may rewrite.
 * tests/test_audit.c and tests/audit-cli.sh say where each access is.
 */
#include "eh_alternative.h"

#define ARM64_ALWAYS_SYSTEM	1
#define ARM64_CB_BIT		(1 << 15)

	.arch	armv8.4-a+rcpc
	.text
	.globl	lse_in_window
lse_in_window:
	msr	ttbr0_el1, x0
	ldadd	x1, x2, [x3]
	ldr	x4, [x5]
	isb
	ret

	.globl	ldapr_in_window
ldapr_in_window:
	msr	ttbr0_el1, x0
	ldapr	x1, [x2]
	casp	x4, x5, x6, x7, [x8]
	isb
	ret

	.globl	dc_zva_in_window
dc_zva_in_window:
	msr	ttbr0_el1, x0
	dc	zva, x1
	isb
	ret

	/* alternative_has_feature_likely(): every booted kernel NOPs the branch over the load. */
	.globl	behind_nops
behind_nops:
	msr	ttbr0_el1, x0
alternative_cb ARM64_CB_BIT | ARM64_ALWAYS_SYSTEM, alt_cb_patch_nops
	b	1f
alternative_cb_end
	ldr	x1, [x2]
1:	isb
	ret

	/* msr; bl; isb, where the callee calls again: the load two calls deep. */
	.globl	two_deep
two_deep:
	msr	ttbr0_el1, x0
	bl	level1
	isb
	ret
level1:
	stp	x29, x30, [sp, #-16]!
	bl	level2
	ldp	x29, x30, [sp], #16
	ret
level2:
	ldr	x9, [x10]
	ret

	/* The window's function returns before the ISB: its caller closes the window. */
	.globl	caller
caller:
	stp	x29, x30, [sp, #-16]!
	bl	switch_then_return
	isb
	ldp	x29, x30, [sp], #16
	ret
switch_then_return:
	msr	ttbr0_el1, x0
	str	x1, [x2]
	ret

	/* Behind a callback the harness does not emulate: the window cannot be called closed. */
	.globl	behind_unknown_cb
behind_unknown_cb:
	msr	ttbr0_el1, x0
alternative_cb ARM64_CB_BIT | ARM64_ALWAYS_SYSTEM, some_boot_patcher
	nop
alternative_cb_end
	isb
	ret

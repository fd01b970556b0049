/*
 * A relocatable object for tests/test_errata_rules.c: the shapes the static rule of cavium-27456 must tell
 * apart, with Linux 6.1's capability numbers, each in a function of its own (each finding is at +0x8, the
 * write of TTBR0_EL1, which anchors it).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.text
	/* The workaround inline, where ARM64_WORKAROUND_CAVIUM_27456 is detected. */
	.globl	switch_alternative
switch_alternative:
	msr	ttbr1_el1, x1
	isb
	msr	ttbr0_el1, x0
	isb
alternative_if ARM64_WORKAROUND_CAVIUM_27456
	ic	iallu
	dsb	nsh
	isb
alternative_else_nop_endif
	ret

	/* cpu_do_switch_mm(): the workaround in a function it calls; clean everywhere. */
	.globl	switch_call
switch_call:
	stp	x29, x30, [sp, #-16]!
	msr	ttbr1_el1, x1
	isb
	msr	ttbr0_el1, x0
	isb
	bl	post_workaround
	ldp	x29, x30, [sp], #16
	ret

	/* __swpan_exit_el0: a tail call to it; clean everywhere. */
	.globl	switch_tail
switch_tail:
	msr	ttbr1_el1, x1
	isb
	msr	ttbr0_el1, x0
	isb
	b	post_workaround

	/* No workaround: a finding everywhere. */
	.globl	switch_plain
switch_plain:
	msr	ttbr1_el1, x1
	isb
	msr	ttbr0_el1, x0
	isb
	ret

	/* The invalidation never completed by a DSB: a finding everywhere. */
	.globl	switch_no_dsb
switch_no_dsb:
	msr	ttbr1_el1, x1
	isb
	msr	ttbr0_el1, x0
	ic	iallu
	isb
	ret

	/* cpu_set_reserved_ttbr0(): TTBR0_EL1 alone, no switch of the user's space. */
	.globl	reserved_ttbr0
reserved_ttbr0:
	msr	ttbr0_el1, x0
	isb
	ret

	/* KVM's nVHE code loading a guest's registers: the guest's regime, not checked. */
	.globl	__kvm_nvhe_guest_ttbrs
__kvm_nvhe_guest_ttbrs:
	msr	ttbr1_el1, x1
	msr	ttbr0_el1, x0
	ret

	.globl	post_workaround
post_workaround:
	ic	iallu
	dsb	nsh
	isb
	ret

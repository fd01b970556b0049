/*
 * A relocatable object for tests/test_errata_rules.c: the shapes the static rule of a53-845719 must tell
 * apart, with Linux 6.1's capability numbers, each in a function of its own (offsets in the comments are
 * the branch the rule reports and the SPSR_EL1 write it anchors to).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.text
	/* kernel_exit 0 (+0x4, +0xc): CONTEXTIDR_EL1 written where ARM64_WORKAROUND_845719 is detected. */
	.globl	exit_alternative
exit_alternative:
	tst	x22, #0x10
	b.eq	1f
alternative_if ARM64_WORKAROUND_845719
	msr	contextidr_el1, xzr
alternative_else_nop_endif
1:	msr	spsr_el1, x22
	eret

	/* No workaround at all (+0x4, +0xc): a finding everywhere. */
	.globl	exit_plain
exit_plain:
	tst	x22, #0x10
	b.eq	1f
	mov	x0, xzr
1:	msr	spsr_el1, x22
	eret

	/* TBNZ to the AArch32 side, which writes the register and comes back: clean everywhere. */
	.globl	exit_tbnz
exit_tbnz:
	tbnz	w22, #4, 2f
1:	msr	spsr_el1, x22
	eret
2:	mrs	x29, contextidr_el1
	msr	contextidr_el1, x29
	b	1b

	/* The AArch32 side forks before any write (+0x4, +0x10): reported, the write cannot be shown. */
	.globl	exit_fork
exit_fork:
	tst	x22, #0x10
	b.eq	1f
	cbz	x0, 1f
	msr	contextidr_el1, xzr
1:	msr	spsr_el1, x22
	eret

	/* Bit 4 of a register that is not the one written to SPSR_EL1: not a check of the return. */
	.globl	exit_other_register
exit_other_register:
	tst	x21, #0x10
	b.eq	1f
	mov	x0, xzr
1:	msr	spsr_el1, x22
	eret

	/* KVM-like C: a guest's SPSR tested and written back, then a return to the caller, no ERET. */
	.globl	guest_spsr
guest_spsr:
	tbnz	w1, #4, 1f
	add	x0, x0, #4
1:	msr	spsr_el1, x1
	ret

	/* KVM's nVHE code returning into a guest: never checked (the guest's kernel writes CONTEXTIDR_EL1). */
	.globl	__kvm_nvhe_guest_exit
__kvm_nvhe_guest_exit:
	tst	x22, #0x10
	b.eq	1f
	mov	x0, xzr
1:	msr	spsr_el1, x22
	eret

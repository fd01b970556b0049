/*
 * TTBR writes of every regime class (harness/include/eh/regime.h), each
 * followed by a load: kernel code, a VHE path's EL12 write, KVM's
 * write_sysreg_el1() alternative, EL2 code (section .hyp.text) after an
 * HCR_EL2 write with and without E2H or with none, and nVHE hyp code by its
 * __kvm_nvhe_ prefix. tests/test_audit.c says what each write changes.
 */
#include "eh_alternative.h"

#define ARM64_HAS_VIRT_HOST_EXTN	37

	.text
	/* Kernel code: the regime it runs in (EL1&0 at EL1, EL2&0 under VHE). */
	.globl	kernel_switch
kernel_switch:
	msr	ttbr0_el1, x0
	ldr	x1, [x2]
	isb
	ret

	/* A VHE-only path that writes the guest's register through its EL12 alias. */
	.globl	vhe_guest_write
vhe_guest_write:
	msr	s3_5_c2_c0_0, x0		// ttbr0_el12
	ldr	x1, [x2]
	isb
	ret

	/* KVM's write_sysreg_el1(): the EL1 encoding, the EL12 one under VHE. */
	.globl	write_el1
write_el1:
	alternative_insn "msr ttbr0_el1, x0", "msr s3_5_c2_c0_0, x0", ARM64_HAS_VIRT_HOST_EXTN
	ldr	x1, [x2]
	eret

	.section .hyp.text, "ax"
	/* The hyp stub's switch to VHE: E2H set, then the EL1 encodings reach EL2's registers. */
	.globl	finalise
finalise:
	movz	x0, #0x8800, lsl #16		// HCR_HOST_VHE_FLAGS: RW | TGE | E2H
	movk	x0, #0x4, lsl #32
	msr	hcr_el2, x0
	isb
	msr	ttbr1_el1, x1
	ldr	x3, [x4]
	isb
	ret

	/* The same with E2H clear: EL1's regime, written from EL2. */
	.globl	stub_nvhe
stub_nvhe:
	movz	x0, #0x8000, lsl #16		// RW
	msr	hcr_el2, x0
	isb
	msr	ttbr1_el1, x1
	ldr	x3, [x4]
	isb
	ret

	/* EL2 code that does not say what HCR_EL2 holds: taken as live. */
	.globl	stub_unknown
stub_unknown:
	msr	ttbr0_el1, x1
	ldr	x3, [x4]
	isb
	ret

	/* KVM's nVHE hyp code, by its symbol prefix. */
	.globl	__kvm_nvhe_restore
__kvm_nvhe_restore:
	msr	ttbr0_el1, x0
	ldr	x1, [x2]
	eret

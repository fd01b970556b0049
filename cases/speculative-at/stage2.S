/*
 * KVM's switch to a guest's VMID for TLB maintenance under VHE (kvm/hyp/vhe/tlb.c __tlb_switch_to_guest()
 * and __kvm_tlb_flush_vmid()): the guest's stage 2 loaded (__load_stage2(), asm/kvm_mmu.h: VTCR_EL2, then
 * VTTBR_EL2), HCR_EL2.TGE cleared so that the guest's EL1&0 regime is the one in context, an ISB, then
 * the invalidation. Before a457b0f7f50d no CPU detected erratum 1165522 and nothing came between the
 * VTTBR_EL2 write and the HCR_EL2 write; Linux 6.1's __load_stage2() ends with an ISB where
 * ARM64_WORKAROUND_SPECULATIVE_AT is detected. The EPD and SCTLR.M writes the 6.1 function makes first
 * are left out: they protect the host's stage 1, which the engine does not walk here. Runs at the
 * virtual EL2 (.hyp.text), where the EL2 registers are the engine's.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

#define HCR_TGE_BIT	27

	.macro	tlb_flush_vmid name, fixed
	.globl	\name
\name:
	adr	x0, guest_mmu
	ldp	x1, x2, [x0]			// the guest's VTCR_EL2 and VTTBR_EL2
	msr	vtcr_el2, x1
#ifndef EH_MUTANT_NO_VTTBR
	msr	vttbr_el2, x2
#endif
	.if	\fixed
#if defined(EH_MUTANT_WRONG_CAP)
	alternative_insn nop, isb, ARM64_WORKAROUND_1508412	// mutant: keyed on a capability these CPUs lack
#elif defined(EH_MUTANT_NO_ISB)
	alternative_insn nop, nop, ARM64_WORKAROUND_SPECULATIVE_AT	// mutant: the replacement lost its ISB
#else
	alternative_insn nop, isb, ARM64_WORKAROUND_SPECULATIVE_AT
#endif
	.endif
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	mrs	x3, hcr_el2
	bic	x3, x3, #(1 << HCR_TGE_BIT)	// the guest's EL1&0 regime in context
	msr	hcr_el2, x3
	isb
	tlbi	vmalle1is
	dsb	ish
	isb
	ret
	.endm

	.section .hyp.text, "ax"
	tlb_flush_vmid tlb_flush_vmid_before, 0
	tlb_flush_vmid tlb_flush_vmid_6_1, 1

	.data
	.align	3
guest_mmu:
	.quad	0x0000000080023558		// VTCR_EL2: 40-bit IPA, 4K granule, start at level 1
	.quad	0x0001000081234000		// VTTBR_EL2: VMID 1, the guest's stage-2 tables

/*
 * A relocatable object for tests/test_errata_rules.c: the shapes the static rules of repeat-tlbi,
 * a520-2966298 and a77-1508412 must tell apart, with Linux 6.1's capability numbers, each in a
 * function of its own (offsets in the comments are the instructions the rules report).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.text
	/* Broadcast TLBI; DSB ISH and nothing after: the DSB (+0x8) wants the repeat everywhere. */
	.globl	tlbi_unrepeated
tlbi_unrepeated:
	dsb	ishst
	tlbi	vale1is, x0
	dsb	ish
	str	xzr, [x1]
	ret

	/* a8f78680ee6b's shape: the DSB (+0x8) is followed by the repeat where the branch is patched in. */
	.globl	tlbi_repeated
tlbi_repeated:
	dsb	ishst
	tlbi	vale1is, x0
	dsb	ish
	alternative_insn nop, "b 1f", ARM64_WORKAROUND_REPEAT_TLBI
2:	ret
1:	tlbi	vale1is, xzr
	dsb	ish
	b	2b

	/* A loop of TLBIs before the DSB (+0x10), reached through the conditional branch. */
	.globl	tlbi_loop
tlbi_loop:
	tlbi	vaale1is, x0
	add	x0, x0, #1
	cmp	x0, x1
	b.ne	tlbi_loop
	dsb	ish
	alternative_insn nop, "b 1f", ARM64_WORKAROUND_REPEAT_TLBI
2:	ret
1:	tlbi	vale1is, xzr
	dsb	ish
	b	2b

	/*
	 * KVM's flush of an IPA: the stage-2 TLBI's DSB (+0x4) is repeated by TLBI VMALLE1IS; DSB,
	 * which invalidates more and wants a repeat of its own after its DSB (+0xc).
	 */
	.globl	tlbi_ipa
tlbi_ipa:
	tlbi	ipas2e1is, x1
	dsb	ish
	tlbi	vmalle1is
	dsb	ish
	alternative_insn nop, "b 1f", ARM64_WORKAROUND_REPEAT_TLBI
2:	ret
1:	tlbi	vale2is, xzr
	dsb	ish
	b	2b

	/* d9ff80f83ecb's repeat, the same TLBI again after its DSB: complete everywhere. */
	.globl	tlbi_same_again
tlbi_same_again:
	tlbi	vae1is, x0
	dsb	ish
	tlbi	vae1is, x0
	dsb	ish
	ret

	/* A TLBI for this PE alone is not broadcast, and no return to EL0 follows it. */
	.globl	tlbi_local
tlbi_local:
	tlbi	vmalle1
	dsb	nsh
	isb
	ldr	x0, [x1]
	ret

	/* 832dd634bd1b's return to EL0: the workaround after the last access. */
	.globl	eret_fixed
eret_fixed:
	ldr	x30, [sp, #240]
	add	sp, sp, #336
alternative_if ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD
	tlbi	vale1, xzr
	dsb	nsh
alternative_else_nop_endif
	eret

	/* 471470bc7052's: the load of LR (+0x8) after the workaround (CVE-2024-26670). */
	.globl	eret_cve
eret_cve:
alternative_if ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD
	tlbi	vale1, xzr
	dsb	nsh
alternative_else_nop_endif
	ldr	x30, [sp, #240]
	add	sp, sp, #336
	eret

	/* A local TLBI with no DSB before the ERET (+0x8), through an unconditional branch. */
	.globl	eret_no_dsb
eret_no_dsb:
	tlbi	vale1, xzr
	b	1f
1:	eret

	/* read_sysreg_par(): DMB SY on each side where ARM64_WORKAROUND_1508412 is detected. */
	.globl	par_bracketed
par_bracketed:
	alternative_insn nop, "dmb sy", ARM64_WORKAROUND_1508412
	mrs	x0, par_el1
	alternative_insn nop, "dmb sy", ARM64_WORKAROUND_1508412
	ret

	/* A plain read (+0x4): a finding everywhere. */
	.globl	par_plain
par_plain:
	isb
	mrs	x0, par_el1
	ret

	/* KVM's nVHE panic vector reads PAR_EL1 (+0x8) with no barrier: only where nVHE code runs. */
	.globl	__kvm_nvhe_par_vector
__kvm_nvhe_par_vector:
	mrs	x1, spsr_el2
	mrs	x2, elr_el2
	mrs	x3, par_el1
	b	tlbi_local

	/* Broadcast TLBI; DSB in nVHE hyp code: the DSB (+0x4) wants the repeat where that code runs. */
	.globl	__kvm_nvhe_tlbi
__kvm_nvhe_tlbi:
	tlbi	alle1is
	dsb	ish
	ret

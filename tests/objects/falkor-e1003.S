/*
 * A relocatable object for tests/test_errata_rules.c: the shapes the static rule of falkor-e1003 must tell
 * apart, with Linux 6.1's capability numbers, each in a function of its own (each finding is at +0x0,
 * the write of TTBR1_EL1, which anchors it).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.pushsection ".entry.tramp.text", "ax"
	/* tramp_map_kernel: the invalidation where ARM64_WORKAROUND_QCOM_FALKOR_E1003 is detected. */
	.globl	tramp_alternative
tramp_alternative:
	msr	ttbr1_el1, x30
alternative_if ARM64_WORKAROUND_QCOM_FALKOR_E1003
	isb
	tlbi	vae1, x30
	dsb	nsh
alternative_else_nop_endif
	ret

	/* No invalidation at all: a finding everywhere. */
	.globl	tramp_plain
tramp_plain:
	msr	ttbr1_el1, x30
	isb
	ret

	/* The TLBI before the ISB: the ISB does not come first, a finding everywhere. */
	.globl	tramp_order
tramp_order:
	msr	ttbr1_el1, x30
	tlbi	vae1, x30
	isb
	dsb	nsh
	ret

	/* TLBI VALE1 leaves the walk cache alone: a finding everywhere. */
	.globl	tramp_last_level
tramp_last_level:
	msr	ttbr1_el1, x30
	isb
	tlbi	vale1, x30
	dsb	nsh
	ret

	/* Through an unconditional branch, with a stronger DSB: clean everywhere. */
	.globl	tramp_branch
tramp_branch:
	msr	ttbr1_el1, x30
	isb
	b	1f
1:	tlbi	vae1, x30
	dsb	ish
	ret

	/* tramp_unmap_kernel, the way out to EL0: left alone. */
	.globl	tramp_exit
tramp_exit:
	msr	ttbr1_el1, x29
	add	sp, sp, #16
	eret
	.popsection

	.text
	/* A TTBR1_EL1 write outside the trampoline (idmap_cpu_replace_ttbr1): not the rule's. */
	.globl	replace_ttbr1
replace_ttbr1:
	msr	ttbr1_el1, x0
	isb
	ret

	.pushsection ".entry.tramp.text", "ax"
	/* __sdei_asm_exit_trampoline: back to the user ASID, then a call to firmware; left alone. */
	.globl	tramp_sdei_exit
tramp_sdei_exit:
	mrs	x4, ttbr1_el1
	orr	x4, x4, #0x1000000000000
	msr	ttbr1_el1, x4
	cmp	x2, #0
	b.ne	1f
	smc	#0
1:	hvc	#0
	.popsection

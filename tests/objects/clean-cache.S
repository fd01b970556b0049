/*
 * A relocatable object for tests/test_errata_rules.c: the shapes the static rule of clean-cache must tell
 * apart, with Linux 6.1's capability numbers, each in a function of its own (offsets in the comments are
 * the instructions the rule reports).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.text
	/* dcache_clean_pou's clean (+0x0): DC CIVAC where CLEAN_CACHE is detected, DC CVAU elsewhere. */
	.globl	clean_pou
clean_pou:
	alternative_insn "dc cvau, x0", "dc civac, x0", ARM64_WORKAROUND_CLEAN_CACHE
	dsb	ish
	ret

	/* dcache_clean_poc's (+0x4), after the line size. */
	.globl	clean_poc
clean_poc:
	mrs	x3, ctr_el0
	alternative_insn "dc cvac, x0", "dc civac, x0", ARM64_WORKAROUND_CLEAN_CACHE
	dsb	sy
	ret

	/* A clean outside any alternative (+0x4): a finding everywhere. */
	.globl	clean_plain
clean_plain:
	dsb	ishst
	dc	cvac, x0
	ret

	/*
	 * Clean and invalidate, clean to the PoP (no part CLEAN_CACHE lists has it), invalidate,
	 * zero: none is a clean the erratum names.
	 */
	.globl	clean_others
clean_others:
	dc	civac, x0
	sys	#3, c7, c12, #1, x0		// dc cvap
	dc	ivac, x0
	dc	zva, x0
	ret

	/* KVM's nVHE code cleaning to the PoU (+0x0): only where that code runs. */
	.globl	__kvm_nvhe_clean
__kvm_nvhe_clean:
	dc	cvau, x1
	ret

/*
 * Capability tables laid out as Linux 6.1 lays out arm64_features[] and arm64_errata[]
 * (64-byte struct arm64_cpu_capabilities: desc, capability, type, matches), numbered as
 * a stable release with a backport would number them: an erratum the harness has no rule
 * for ("Frobnicator erratum 42") takes 74 and moves ThunderX2's two capabilities up by one.
 * tests/test_cpucaps.c reads it as an object and linked as a vmlinux is linked.
 */
#include "eh_alternative.h"

#define ARM64_ALWAYS_SYSTEM			1
#define ARM64_WORKAROUND_FROBNICATOR_42	74
#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	75

	.macro	cap desc, number, type, matches
	.quad	\desc
	.hword	\number, \type
	.balign	8
	.quad	\matches
	.quad	0, 0, 0, 0, 0
	.endm

	.text
	.globl	has_always, has_cpuid_feature, runs_at_el2, is_affected_midr_range_list, needs_tx2_tvm_workaround
	.type	has_always, %function
has_always:
	ret
	.type	has_cpuid_feature, %function
has_cpuid_feature:
	ret
	.type	runs_at_el2, %function
runs_at_el2:
	ret
	.type	is_affected_midr_range_list, %function
is_affected_midr_range_list:
	ret
	.type	needs_tx2_tvm_workaround, %function
needs_tx2_tvm_workaround:
	ret

	/* A PRFM alternative on the renumbered capability. */
	.globl	prfm_site
	.type	prfm_site, %function
prfm_site:
	msr	ttbr1_el1, x30
alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM
	prfm	plil1strm, [x30, #0x400]
alternative_else_nop_endif
	isb
	ret
	.size	prfm_site, . - prfm_site

	/* An alternative on the capability no rule knows: kept, and listed as not modelled. */
	.globl	frob_site
	.type	frob_site, %function
frob_site:
	alternative_insn "nop", "dsb sy", ARM64_WORKAROUND_FROBNICATOR_42
	ret
	.size	frob_site, . - frob_site

	.section .rodata.str, "aMS", %progbits, 1
lse:	.asciz	"LSE atomic instructions"
vhe:	.asciz	"Virtualization Host Extensions"
frob:	.asciz	"Frobnicator erratum 42"
tvm:	.asciz	"Cavium ThunderX2 erratum 219 (KVM guest sysreg trapping)"
prfm:	.asciz	"Cavium ThunderX2 erratum 219 (PRFM removal)"

	.section .rodata, "a"
	.balign	8
	.type	arm64_features, %object
arm64_features:
	cap	0, 0, 0x14, has_always		/* ARM64_ALWAYS_BOOT */
	cap	0, 1, 0x12, has_always		/* ARM64_ALWAYS_SYSTEM */
	cap	lse, 26, 0x12, has_cpuid_feature
	cap	vhe, 37, 0x44, runs_at_el2
	cap	0, 0, 0, 0
	.size	arm64_features, . - arm64_features

	.globl	arm64_errata
	.type	arm64_errata, %object
arm64_errata:
	cap	frob, 74, 0x21, is_affected_midr_range_list
	cap	tvm, 76, 0x21, needs_tx2_tvm_workaround
	cap	prfm, 75, 0x21, is_affected_midr_range_list
	cap	0, 0, 0, 0
	.size	arm64_errata, . - arm64_errata

	.type	cpu_hwcaps_ptrs, %object
cpu_hwcaps_ptrs:
	.fill	90, 8, 0
	.size	cpu_hwcaps_ptrs, . - cpu_hwcaps_ptrs

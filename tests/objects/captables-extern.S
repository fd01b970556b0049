/*
 * An arm64_errata[] as an object such as arch/arm64/kernel/cpu_errata.o holds it: the
 * Spectre-v2 entry's .matches is a relocation against has_spectre_v2, which the object
 * does not define (proton-pack.c does), so the field is zero in the object and the name
 * is the relocation's. tests/test_cpucaps.c reads it.
 */
#define ARM64_SPECTRE_V2	46

	.macro	cap desc, number, type, matches
	.quad	\desc
	.hword	\number, \type
	.balign	8
	.quad	\matches
	.quad	0, 0, 0, 0, 0
	.endm

	.section .rodata.str, "aMS", %progbits, 1
v2:	.asciz	"Spectre-v2"

	.section .rodata, "a"
	.balign	8
	.globl	arm64_errata
	.type	arm64_errata, %object
arm64_errata:
	cap	v2, ARM64_SPECTRE_V2, 0x21, has_spectre_v2
	cap	0, 0, 0, 0
	.size	arm64_errata, . - arm64_errata

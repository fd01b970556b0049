/* A capability table whose size is not a whole number of 64-byte entries: refused, naming it. */
	.section .rodata, "a"
	.balign	8
	.globl	arm64_errata
	.type	arm64_errata, %object
arm64_errata:
	.fill	100, 1, 0
	.size	arm64_errata, . - arm64_errata

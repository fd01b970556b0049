/*
 * A linked image whose arm64_errata[] decides ThunderX2 erratum 219's PRFM removal from a MIDR
 * list that names Broadcom Vulcan alone (as a kernel that predates a part's addition would):
 * on ThunderX2 the PRFM stays in the TTBR1 window. The list is followed by a spare empty entry,
 * so tests/image-midr-list.sh can add ThunderX2 to it in a copy by rewriting bytes, with no
 * change to the harness's tables. Its banner names a kernel no rule table knows, so with no
 * type information it is read with the newest fixed layout, 6.12's 72-byte struct
 * arm64_cpu_capabilities: desc 0, capability 8, type 10, matches 16, midr_range_list 32, cpus
 * 64; struct midr_range: model, rv_min, rv_max (asm/cputype.h MIDR_CPU_MODEL and
 * MIDR_CPU_VAR_REV). One entry's .matches is code the harness has no rule for: uncertain.
 */
#include "eh_alternative.h"

#define ARM64_ALWAYS_BOOT			0
#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	74
#define ARM64_WORKAROUND_FROBNICATOR_42		85

	.macro	cap desc, number, type, matches, list
	.quad	\desc
	.hword	\number, \type
	.balign	8
	.quad	\matches
	.quad	0		/* cpu_enable */
	.quad	\list		/* midr_range_list */
	.quad	0, 0
	.quad	0		/* match_list */
	.quad	0		/* cpus */
	.endm

	.text
	.globl	has_always, is_affected_midr_range_list, has_frobnicator_42
	.type	has_always, %function
has_always:
	ret
	.type	is_affected_midr_range_list, %function
is_affected_midr_range_list:
	ret
	.type	has_frobnicator_42, %function
has_frobnicator_42:
	ret

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

	.section .rodata.str, "aMS", %progbits, 1
prfm:	.asciz	"Cavium ThunderX2 erratum 219 (PRFM removal)"
frob:	.asciz	"Frobnicator erratum 42"

	.section .rodata, "a"
	.globl	linux_banner
linux_banner:
	.asciz	"Linux version 6.99.0-test (eh@test) (clang) #1 SMP\n"

	.balign	8
	.type	tx2_219_cpus, %object
tx2_219_cpus:
	.word	0x420f5160, 0x000000, 0xf0000f	/* MIDR_ALL_VERSIONS(MIDR_BRCM_VULCAN) */
	.word	0, 0, 0				/* the list's end */
	.word	0, 0, 0				/* spare */
	.size	tx2_219_cpus, . - tx2_219_cpus

	.balign	8
	.type	arm64_features, %object
arm64_features:
	cap	0, ARM64_ALWAYS_BOOT, 0x14, has_always, 0
	cap	0, 0, 0, 0, 0
	.size	arm64_features, . - arm64_features

	.type	arm64_errata, %object
arm64_errata:
	cap	prfm, ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM, 0x21, is_affected_midr_range_list, tx2_219_cpus
	cap	frob, ARM64_WORKAROUND_FROBNICATOR_42, 0x21, has_frobnicator_42, 0
	cap	0, 0, 0, 0, 0
	.size	arm64_errata, . - arm64_errata

	.type	cpu_hwcaps_ptrs, %object
cpu_hwcaps_ptrs:
	.fill	86, 8, 0
	.size	cpu_hwcaps_ptrs, . - cpu_hwcaps_ptrs

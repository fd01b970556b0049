/*
 * Erratum 843419 sequences, each with its ADRP at the end of a page of its own, for the
 * cross-check of the a53-843419 rule with ld.lld's scanner (tests/a53-843419-lld.sh): linked
 * with and without ld.lld --fix-cortex-a53-843419 (tests/CMakeLists.txt). A label hit_* starts a
 * sequence the errata notice describes, miss_* one it does not; lld_only_* one lld patches that
 * the notice rules out, rule_only_* one it describes that lld leaves (tests/a53-843419-lld.sh
 * says why), alt_* one that only an alternative applied at boot puts there. Each label is the ADRP.
 */
#include "eh_alternative.h"

/* Linux 6.1's number (generated asm/cpucaps.h): detected on every Cortex-A53 r0p0-r0p4. */
#define ARM64_WORKAROUND_845719 55

	/* The snippet flags build general-register code; the notice's instruction 2 may be SIMD&FP. */
	.arch_extension fp
	.arch_extension simd

/* at_page_end LABEL [OFFSET]: what follows starts at page offset OFFSET (0xff8 unless given). */
.macro at_page_end label, offset=0xff8
	.balign	4096
	.space	\offset
	.globl	\label
	.type	\label, %function
\label:
.endm

	.text
	at_page_end hit_ldr
	adrp	x0, target
	ldr	x1, [x1]
	ldr	x0, [x0, :lo12:target]
	ret

	at_page_end hit_ffc, 0xffc
	adrp	x0, target
	ldr	x1, [x1]
	ldr	x0, [x0, :lo12:target]
	ret

	at_page_end hit_simd_load
	adrp	x0, target
	ldr	s1, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end rule_only_q0_load
	adrp	x0, target
	ldr	q0, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_post_index_store
	adrp	x0, target
	str	x1, [x2], #8
	ldr	x0, [x0, :lo12:target]
	ret

	at_page_end hit_stp
	adrp	x0, target
	stp	x1, x2, [x3]
	str	x4, [x0, :lo12:target]
	ret

	at_page_end hit_stnp
	adrp	x0, target
	stnp	x1, x2, [x3]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_st1
	adrp	x0, target
	st1	{v0.16b}, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_st1_lane_post
	adrp	x0, target
	st1	{v0.s}[1], [x1], #4
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_ldxr
	adrp	x0, target
	ldxr	x1, [x2]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_literal
	adrp	x0, target
	ldr	x1, literal
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_prfm_second
	adrp	x0, target
	prfm	pldl1keep, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_prfm_last
	adrp	x0, target
	ldr	x1, [x1]
	prfm	pldl1keep, [x0, :lo12:target]
	ret

	at_page_end hit_strb
	adrp	x0, target
	strb	w1, [x2]
	strb	w3, [x0, :lo12:target]
	ret

	at_page_end hit_four
	adrp	x0, target
	ldr	x1, [x1]
	add	x3, x3, #1
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end hit_four_third_writes_rn
	adrp	x0, target
	ldr	x1, [x1]
	add	x0, x0, #8
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end miss_at_ff4, 0xff4
	adrp	x0, target
	ldr	x1, [x1]
	ldr	x0, [x0, :lo12:target]
	ret

	at_page_end miss_second_loads_rn
	adrp	x0, target
	ldr	x0, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end miss_second_writes_rn_back
	adrp	x0, target
	ldr	x1, [x0, #8]!
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end miss_ldp
	adrp	x0, target
	ldp	x1, x2, [x3]
	ldr	x4, [x0, :lo12:target]
	ret

	at_page_end miss_st2
	adrp	x0, target
	st2	{v0.4s, v1.4s}, [x1]
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end miss_no_access
	adrp	x0, target
	add	x1, x1, #1
	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end miss_register_offset
	adrp	x0, target
	ldr	x1, [x1]
	ldr	x2, [x0, x3]
	ret

	at_page_end miss_unscaled
	adrp	x0, target
	ldr	x1, [x1]
	ldur	x2, [x0, #8]
	ret

	at_page_end miss_other_base
	adrp	x0, target
	ldr	x1, [x1]
	ldr	x2, [x3, :lo12:target]
	ret

	at_page_end miss_branch_third
	adrp	x0, target
	ldr	x1, [x1]
	b	1f
1:	ldr	x2, [x0, :lo12:target]
	ret

	at_page_end lld_only_stxr_status_in_rn
	adrp	x0, target
	stxr	w0, x1, [x2]
	ldr	x3, [x0, :lo12:target]
	ret

/*
 * NOPs at page offset 0xff8 that become the sequence when the alternative is applied: the linker
 * scans the NOPs and, elsewhere, the replacement; only the image as patched has the sequence.
 */
	at_page_end alt_patched_in
661:	nop
	nop
	nop
662:	ret
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661b, 663f, ARM64_WORKAROUND_845719, 662b - 661b, 664f - 663f
	.popsection
	.pushsection .altinstr_replacement, "ax"
663:	adrp	x0, target
	ldr	x1, [x1]
	ldr	x0, [x0, :lo12:target]
664:	.popsection

	.section .rodata, "a"
	.balign	8
literal:
	.quad	0
	.data
	.balign	8
target:
	.quad	0

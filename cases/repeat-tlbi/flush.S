/*
 * Break-before-make on one page, as flush_tlb_page() invalidates it and its caller then reuses the
 * page (a store), in three builds of the invalidation: before d9ff80f83ecb (TLBI; DSB ISH), with
 * d9ff80f83ecb's repeat (every TLBI followed by DSB ISH; TLBI again), and with a8f78680ee6b's
 * __tlbi_sync_s1ish() of 6.1.192 (DSB ISH, then a branch that alternative_has_feature_unlikely()
 * patches in, to TLBI VALE1IS, XZR; DSB ISH).
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	/* \name: invalidate the page's last-level entry (ASID 1), then store to the page. */
	.macro flush_page name, shape
	.globl	\name
\name:
	adr	x1, page
	lsr	x0, x1, #12
	and	x0, x0, #0xfffffffffff		// __TLBI_VADDR(addr, asid): VA[55:12] ...
	orr	x0, x0, #(1 << 48)		// ... and the ASID in 63:48
	dsb	ishst				// the cleared PTE is visible to the walkers
	tlbi	vale1is, x0
	.if	\shape == 1
alternative_if ARM64_WORKAROUND_REPEAT_TLBI
#ifdef EH_MUTANT_REPEAT_DSB_ISHST
	dsb	ishst				// mutant: a barrier that completes no TLBI
#else
	dsb	ish
#endif
	tlbi	vale1is, x0
alternative_else_nop_endif
	.endif
	dsb	ish
	.if	\shape == 2
#ifdef EH_MUTANT_STORE_BEFORE_REPEAT
	str	xzr, [x1, #8]			// mutant: an access before the repeat
#endif
	alternative_insn nop, "b 1f", ARM64_WORKAROUND_REPEAT_TLBI
	.endif
2:
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	str	xzr, [x1]			// the page reused
	ret
	.if	\shape == 2
1:
#ifdef EH_MUTANT_LOCAL_REPEAT
	tlbi	vale1, xzr			// mutant: a repeat that is not broadcast
#else
	tlbi	vale1is, xzr
#endif
#ifndef EH_MUTANT_NO_REPEAT_DSB
	dsb	ish
#endif
	b	2b
	.endif
	.endm

	.text
	flush_page flush_page_unrepeated, 0
	flush_page flush_page_d9ff80f83ecb, 1
	flush_page flush_page_a8f78680ee6b, 2

	.data
	.align	12
page:
	.space	4096

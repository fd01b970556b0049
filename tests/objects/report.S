/*
 * A relocatable object for tests/report-cli.sh: one hazard of erratum 219 the PRFM alternative
 * does not remove, one the alternative removes on ThunderX2, and one broadcast TLBI left
 * unrepeated; Linux 6.1's capability numbers. The findings each erratum must have, by hand:
 * tx2-219 the load at ttbr_load+0x4 (on every ThunderX2-family model; ttbr_prfm's PRFM is a NOP
 * there), repeat-tlbi the DSB at tlbi_once+0x8 (on every model it affects), nothing else. The
 * functions are five words each, so tlbi_once is at .text+0x28.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

/* As rel61.S numbers it (eh_cpucaps_5_4.h holds 5.4's number under the same name). */
#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	74

	.text
	/* A load between the TTBR0 write and the ISB: no alternative takes it out. */
	.globl	ttbr_load
ttbr_load:
	msr	ttbr0_el1, x0
	ldr	x3, [x2, #8]
	isb
	mov	x0, x3
	ret

	/* The trampoline's PRFM, a NOP where ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM is detected. */
	.globl	ttbr_prfm
ttbr_prfm:
	msr	ttbr1_el1, x30
alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM
	prfm	plil1strm, [x30, #0x400]
alternative_else_nop_endif
	isb
	mov	x0, xzr
	ret

	/* A broadcast TLBI completed by the DSB at +0x8 and never repeated. */
	.globl	tlbi_once
tlbi_once:
	dsb	ishst
	tlbi	vale1is, x0
	dsb	ish
	ret

/*
 * The exception differential test's snippets (tests/qemu/exc-diff.sh): each global symbol takes one
 * synchronous exception at EL1 and returns, run both by probe/exc-bare.c under QEMU and by
 * errata-harness exec on the engine. exc_table lists them for the probe, NULL-terminated.
 */
#include "exc-snippet.h"
	.text

snippet exc_svc
	svc	#0x12
	ret
snippet exc_svc_max
	svc	#0xffff
	ret
snippet exc_brk
	brk	#0x34
	ret
snippet exc_udf
	udf	#7
	ret
snippet exc_hvc_no_el2
	hvc	#0x56		/* UNDEFINED at EL1 without EL2 (-M virt without virtualization=on; exec --boot el1) */
	ret
snippet exc_smc_no_el3
	smc	#0		/* UNDEFINED without EL3 */
	ret
snippet exc_mrs_el2_reg
	mrs	x0, s3_4_c1_c1_0	/* HCR_EL2 from EL1: UNDEFINED */
	ret
snippet exc_msr_el2_reg
	msr	s3_4_c12_c0_0, x0	/* VBAR_EL2 from EL1: UNDEFINED */
	ret
snippet exc_ldxr_unaligned
	adr	x1, exc_data
	add	x1, x1, #1
	ldxr	x0, [x1]	/* exclusives need alignment even with the MMU off: an Alignment fault */
	ret
snippet exc_stp_ok
	sub	sp, sp, #16	/* no exception: the end of the list is reached */
	stp	x0, x1, [sp]
	add	sp, sp, #16
	ret

	.data
	.balign	16
exc_data:
	.quad	0, 0
	.global	exc_table
exc_table:
	.quad	exc_svc, exc_svc_max, exc_brk, exc_udf, exc_hvc_no_el2, exc_smc_no_el3, exc_mrs_el2_reg
	.quad	exc_msr_el2_reg, exc_ldxr_unaligned, exc_stp_ok, 0

/*
 * The exception differential test's EL2 snippets (tests/qemu/exc-diff.sh): each global exc_el2_*
 * symbol runs at EL1 under a hypervisor whose HCR_EL2 has RW and TVM set, takes one synchronous
 * exception to EL2 and returns. Under QEMU probe/exc-bare.c (built for EL2) sets HCR_EL2 at EL2
 * and enters each at EL1; on the engine (exec --boot nvhe) the matching engine_* symbol writes HCR_EL2 into the
 * virtual EL2 register file first and falls into the snippet. exc_el2_table lists them for the
 * probe, NULL-terminated.
 */
#include "exc-snippet.h"
	.text

	/* The engine's prologue: HCR_EL2.RW (bit 31) and TVM (bit 26), then the snippet. */
	.macro	engine name
	.global	engine_\name
	.type	engine_\name, %function
	.balign	16
engine_\name:
	movz	x9, #0x8400, lsl #16
	msr	hcr_el2, x9
	b	\name
	.endm

	engine	exc_el2_hvc
	engine	exc_el2_tvm_sctlr
	engine	exc_el2_tvm_ttbr0
	engine	exc_el2_trvm_off

snippet exc_el2_hvc
	hvc	#0x56		/* taken to EL2: EC 0x16, ISS the immediate, ELR past it */
	ret
snippet exc_el2_tvm_sctlr
	mrs	x1, sctlr_el1	/* a read: TRVM is clear, not trapped */
	msr	sctlr_el1, x1	/* a write: HCR_EL2.TVM traps it, EC 0x18, ELR at it */
	ret
snippet exc_el2_tvm_ttbr0
	mrs	x2, ttbr0_el1
	msr	ttbr0_el1, x2
	ret
snippet exc_el2_trvm_off
	mrs	x3, mair_el1	/* no exception: TVM traps writes only */
	ret

	.data
	.balign	8
	.global	exc_el2_table
exc_el2_table:
	.quad	exc_el2_hvc, exc_el2_tvm_sctlr, exc_el2_tvm_ttbr0, exc_el2_trvm_off, 0

/*
 * A PAR_EL1 read between Device loads, with an interrupt taken just before the read, as Linux reads
 * PAR_EL1 after an AT (mm/fault.c is_spurious_el1_translation_fault()): before 96d389ca1011, a plain
 * MRS and an exception return with no barrier; after it, read_sysreg_par() (asm/sysreg.h) with a
 * DMB SY on each side and the DMB SY kernel_exit puts before an ERET to EL1 (entry.S).
 * The loads of mmio_status stand for reads of a Device register: the engine knows no memory types.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	/* The barrier 96d389ca1011 places, a NOP where the erratum is not detected. */
	.macro par_barrier
#ifdef EH_MUTANT_DMB_ISH
	alternative_insn nop, "dmb ish", ARM64_WORKAROUND_1508412	// mutant: too narrow a barrier
#else
	alternative_insn nop, "dmb sy", ARM64_WORKAROUND_1508412
#endif
	.endm

	/*
	 * \name: a Device load, AT S1E1R and ISB, then the read, during which an interrupt
	 * is taken (the SVC stands for it: its handler makes a Device load of its own and
	 * returns), then another Device load. Returns PAR_EL1 in x0.
	 */
	.macro translate_and_read name, fixed
	.globl	\name
\name:
	adr	x9, vectors_\name
	msr	vbar_el1, x9
	isb
	adr	x1, mmio_status
	ldr	w2, [x1]			// a Device read
	at	s1e1r, x1
	isb
	mov	x0, xzr
	.if	\fixed
	par_barrier
	.endif
	svc	#0				// an interrupt arrives here
	mrs	x0, par_el1
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	.if	\fixed
#ifndef EH_MUTANT_NO_TRAILING_DMB
	par_barrier
#endif
	.endif
	ldr	w2, [x1]			// the next Device read
	ret

	/* The interrupt: current EL with SP_ELx, synchronous (the SVC), at +0x200. */
	.align	11
vectors_\name:
	.space	0x200
	ldr	w3, [x1]			// the handler reads a Device register
	.if	\fixed
#ifndef EH_MUTANT_NO_ERET_DMB
	/* Ensure any device/NC reads complete (kernel_exit 1) */
	par_barrier
#endif
	.endif
	eret
	.align	11
	.endm

	.text
	translate_and_read par_read_before, 0
	translate_and_read par_read_after, 1

	.data
	.align	3
mmio_status:
	.quad	0

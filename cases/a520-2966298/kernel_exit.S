/*
 * The Linux 6.1 return to EL0 (kernel_exit 0 in entry.S), from the restore of ELR/SPSR to the ERET,
 * in three builds: without the Cortex-A520 2966298 workaround, with it as 471470bc7052 placed it (the
 * TLBI before the load of LR) and as 832dd634bd1b moved it (after the last explicit memory access).
 * Cortex-A520 needs no KPTI (its CSV3 and E0PD), so the trampoline exit is left out.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

#define S_LR		240		/* struct pt_regs: regs[30] */
#define S_SP		248
#define S_PC		256		/* pc, then pstate */
#define PT_REGS_SIZE	336

	/* The workaround: a non-shareable TLBI, completed by a DSB NSH. */
	.macro unpriv_load_workaround
alternative_if ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD
	tlbi	vale1, xzr
#ifndef EH_MUTANT_NO_DSB
	dsb	nsh
#else
	nop				// mutant: the TLBI is never completed
#endif
alternative_else_nop_endif
	.endm

	/*
	 * \name: build a pt_regs frame whose saved state returns to el0_task (EL0t, nothing
	 * masked) with LR = the harness's return address, then kernel_exit 0. \where says
	 * where the workaround sits: 0 nowhere, 1 before the load of LR, 2 after it.
	 */
	.macro ret_to_user name, where
	.globl	\name
\name:
	sub	sp, sp, #PT_REGS_SIZE
	str	x30, [sp, #S_LR]
	adr	x21, el0_task
#ifdef EH_MUTANT_RETURN_TO_EL1
	mov	x22, #5				// mutant: SPSR EL1h, the ERET stays at EL1
#else
	mov	x22, xzr			// EL0t, nothing masked
#endif
	stp	x21, x22, [sp, #S_PC]
	mov	x23, sp
	str	x23, [sp, #S_SP]

	ldp	x21, x22, [sp, #S_PC]		// load ELR, SPSR
	ldr	x23, [sp, #S_SP]		// load return stack pointer
	msr	sp_el0, x23
	msr	elr_el1, x21			// set up the return data
	msr	spsr_el1, x22
	ldp	x0, x1, [sp, #16 * 0]
	ldp	x2, x3, [sp, #16 * 1]
	ldp	x28, x29, [sp, #16 * 14]
	.if	\where == 1
	unpriv_load_workaround
	.endif
	ldr	lr, [sp, #S_LR]
	add	sp, sp, #PT_REGS_SIZE		// restore sp
	.if	\where == 2
	/* This must be after the last explicit memory access */
	unpriv_load_workaround
#ifdef EH_MUTANT_STORE_AFTER
	str	xzr, [sp, #-8]			// mutant: an access after the workaround
#endif
	.endif
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral, no access
#endif
	eret
	.endm

	.text
	ret_to_user ret_to_user_unfixed, 0
	ret_to_user ret_to_user_471470bc7052, 1
	ret_to_user ret_to_user_832dd634bd1b, 2

	/* The user task: back to the harness (LR came from the frame). */
el0_task:
	ret

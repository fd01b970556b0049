/*
 * A Linux 6.1 switch of the user address space and the return to the task: cpu_do_switch_mm()
 * (mm/context.c: the ASID into TTBR1_EL1, the tables into TTBR0_EL1, then
 * post_ttbr_update_workaround()) as the compiler lays it out, then kernel_exit 0's ERET, in two
 * builds: post_ttbr_update_workaround() before Cavium erratum 27456 had one (nothing), and as 6.1 has
 * it (ic iallu; dsb nsh; isb, an alternative on ARM64_WORKAROUND_CAVIUM_27456). These parts run
 * without KPTI (the erratum turns it off), so the return is a plain ERET.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

#define USER_PGD	0x40000000	/* the task's page tables (physical), with CnP clear */
#define USER_ASID	5

	/* post_ttbr_update_workaround(): \fix says whether it has the 27456 workaround. */
	.macro post_ttbr_update_workaround name, fix
\name:
	.if	\fix
alternative_if ARM64_WORKAROUND_CAVIUM_27456
#ifdef EH_MUTANT_NO_IC
	nop					// mutant: the instruction cache is never invalidated
#else
	ic	iallu
#endif
	dsb	nsh
	isb
alternative_else_nop_endif
	.endif
	ret
	.endm

	/* cpu_do_switch_mm(pgd_phys = x0, asid = x1), calling \post after the switch. */
	.macro cpu_do_switch_mm name, post
\name:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mrs	x2, ttbr1_el1
	bfi	x2, x1, #48, #16		// set ASID in TTBR1 since TCR.A1 is set
	msr	ttbr1_el1, x2
	isb
#ifdef EH_MUTANT_SWITCH_AFTER
	bl	\post				// mutant: the workaround runs before the switch
	msr	ttbr0_el1, x0
	isb
#else
	msr	ttbr0_el1, x0
	isb
	bl	\post
#endif
	ldp	x29, x30, [sp], #16
	ret
	.endm

	/*
	 * \name: switch to the task's address space, then return to it at EL0 (EL0t, nothing
	 * masked) through an ERET, with LR = the harness's return address.
	 */
	.macro switch_to_user name, switch
	.globl	\name
\name:
	mov	x19, x30
	mov	x0, #USER_PGD
	mov	x1, #USER_ASID
	bl	\switch
	adr	x21, el0_task
#ifdef EH_MUTANT_RETURN_TO_EL1
	mov	x22, #5				// mutant: SPSR EL1h, the ERET stays at EL1
#else
	mov	x22, xzr			// EL0t, nothing masked
#endif
	msr	elr_el1, x21
	msr	spsr_el1, x22
	mov	x30, x19
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	eret
	.endm

	.text
	post_ttbr_update_workaround post_ttbr_update_unfixed, 0
	post_ttbr_update_workaround post_ttbr_update_27456, 1
	cpu_do_switch_mm cpu_do_switch_mm_unfixed, post_ttbr_update_unfixed
	cpu_do_switch_mm cpu_do_switch_mm_27456, post_ttbr_update_27456
	switch_to_user switch_to_user_unfixed, cpu_do_switch_mm_unfixed
	switch_to_user switch_to_user_27456, cpu_do_switch_mm_27456

	/* The user task: back to the harness (LR was restored before the ERET). */
el0_task:
	ret

/*
 * The Linux 6.1 return to EL0 (kernel_exit 0 in entry.S), from the restore of ELR/SPSR to the ERET,
 * for a task whose saved SPSR says AArch32 User mode, in three builds: without the Cortex-A53 845719
 * workaround, with it (msr contextidr_el1, xzr on the AArch32 side, an alternative on
 * ARM64_WORKAROUND_845719), and with it as CONFIG_PID_IN_CONTEXTIDR builds it (the register written
 * back with its own value). Cortex-A53 needs no KPTI here (the kernel test's .config, KASLR aside,
 * is not the point): the trampoline exit is left out.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

#define S_LR		240		/* struct pt_regs: regs[30] */
#define S_SP		248
#define S_PC		256		/* pc, then pstate */
#define PT_REGS_SIZE	336
#define PSR_MODE32_BIT	0x10

	/* \pid: 0 no workaround, 1 msr contextidr_el1, xzr, 2 the CONFIG_PID_IN_CONTEXTIDR form. */
	.macro contextidr_workaround pid
	.if	\pid == 1
alternative_if ARM64_WORKAROUND_845719
	msr	contextidr_el1, xzr
alternative_else_nop_endif
	.elseif	\pid == 2
alternative_if ARM64_WORKAROUND_845719
	mrs	x29, contextidr_el1
#ifndef EH_MUTANT_NO_WRITE
	msr	contextidr_el1, x29
#else
	nop				// mutant: read, never written
#endif
alternative_else_nop_endif
	.endif
	.endm

	/*
	 * \name: build a pt_regs frame whose saved state returns to user_task in AArch32 User
	 * mode with LR = the harness's return address, then kernel_exit 0 with workaround \pid.
	 */
	.macro ret_to_user name, pid
	.globl	\name
\name:
	sub	sp, sp, #PT_REGS_SIZE
	str	x30, [sp, #S_LR]
	adr	x21, user_task
#ifdef EH_MUTANT_RETURN_TO_AARCH64
	mov	x22, xzr			// mutant: EL0t, an AArch64 task
#else
	mov	x22, #PSR_MODE32_BIT		// AArch32 User, nothing masked
#endif
	stp	x21, x22, [sp, #S_PC]
	mov	x23, sp
	str	x23, [sp, #S_SP]

	ldp	x21, x22, [sp, #S_PC]		// load ELR, SPSR
	ldr	x23, [sp, #S_SP]		// load return stack pointer
	msr	sp_el0, x23
	tst	x22, #PSR_MODE32_BIT		// native task?
#ifndef EH_MUTANT_WRONG_BRANCH
	b.eq	3f
#else
	b.ne	3f				// mutant: the AArch32 task skips the workaround
#endif
	contextidr_workaround \pid
3:
	msr	elr_el1, x21			// set up the return data
	msr	spsr_el1, x22
	ldp	x0, x1, [sp, #16 * 0]
	ldp	x2, x3, [sp, #16 * 1]
	ldr	lr, [sp, #S_LR]
	add	sp, sp, #PT_REGS_SIZE		// restore sp
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	eret
	.endm

	.text
	ret_to_user ret_to_user_unfixed, 0
	ret_to_user ret_to_user_845719, 1
	ret_to_user ret_to_user_845719_pid, 2

	/*
	 * The user task, A32 code (snippet.flags links the snippet at a 32-bit address, which the
	 * PC reaches from ELR_EL1[31:0]): the run ends as it is reached (the case's end symbol).
	 */
	.globl	user_task
user_task:
	.inst	0xe12fff1e			// A32: bx lr

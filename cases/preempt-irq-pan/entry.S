/*
 * The arm64 entry code around 19c95f261c65, cut down to one CPU: vectors, the
 * EL1 IRQ path that may preempt on its way out, cpu_switch_to, the PAN enable
 * step, and the user page tables the harness's walker reads.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_5_4.h"
#include "eh_phys.h"

#define S_LR		240		/* struct pt_regs: x0-x29, lr, pc (ELR), pstate (SPSR) */
#define S_PSTATE	256
#define S_FRAME_SIZE	272
#define TSK_TI_PREEMPT	0		/* struct task, sched.c */
#define THREAD_CPU_CONTEXT 8
#define ESR_ELx_EC_SVC64 0x15

#define PA(sym)		((sym) - EH_PHYS_VOFFSET)
#define PMD_TYPE_TABLE	3
/* A user data page: UXN, PXN, nG, AF, inner shareable, AP = 01 (EL0 read/write), MT_NORMAL. */
#define PAGE_USER_RW	0x0060000000000f53
/* T0SZ 16, TG0 4K, T1SZ 16 with EPD1 (no kernel tables are walked), TG1 4K, IPS 48 bits. */
#define TCR_VALUE	0x0000000580900010
#define MAIR_VALUE	0x000000bbff440c0400

	.macro	kernel_entry
	sub	sp, sp, #S_FRAME_SIZE
	stp	x0, x1, [sp, #16 * 0]
	stp	x2, x3, [sp, #16 * 1]
	stp	x4, x5, [sp, #16 * 2]
	stp	x6, x7, [sp, #16 * 3]
	stp	x8, x9, [sp, #16 * 4]
	stp	x10, x11, [sp, #16 * 5]
	stp	x12, x13, [sp, #16 * 6]
	stp	x14, x15, [sp, #16 * 7]
	stp	x16, x17, [sp, #16 * 8]
	stp	x18, x19, [sp, #16 * 9]
	stp	x20, x21, [sp, #16 * 10]
	stp	x22, x23, [sp, #16 * 11]
	stp	x24, x25, [sp, #16 * 12]
	stp	x26, x27, [sp, #16 * 13]
	stp	x28, x29, [sp, #16 * 14]
	mrs	x21, elr_el1
	mrs	x22, spsr_el1			// PSTATE as the interrupted task had it
	stp	x30, x21, [sp, #S_LR]
	str	x22, [sp, #S_PSTATE]
	.endm

	.macro	kernel_exit
	ldr	x22, [sp, #S_PSTATE]
	ldp	x30, x21, [sp, #S_LR]
	msr	elr_el1, x21
	msr	spsr_el1, x22			// ... and that PSTATE comes back with ERET
	ldp	x0, x1, [sp, #16 * 0]
	ldp	x2, x3, [sp, #16 * 1]
	ldp	x4, x5, [sp, #16 * 2]
	ldp	x6, x7, [sp, #16 * 3]
	ldp	x8, x9, [sp, #16 * 4]
	ldp	x10, x11, [sp, #16 * 5]
	ldp	x12, x13, [sp, #16 * 6]
	ldp	x14, x15, [sp, #16 * 7]
	ldp	x16, x17, [sp, #16 * 8]
	ldp	x18, x19, [sp, #16 * 9]
	ldp	x20, x21, [sp, #16 * 10]
	ldp	x22, x23, [sp, #16 * 11]
	ldp	x24, x25, [sp, #16 * 12]
	ldp	x26, x27, [sp, #16 * 13]
	ldp	x28, x29, [sp, #16 * 14]
	add	sp, sp, #S_FRAME_SIZE
	eret
	.endm

	/*
	 * A vector table whose EL1 synchronous entry stands for el1_irq. The engine
	 * takes exceptions, not interrupts, so the timer interrupt is an SVC #0: its
	 * entry does what an IRQ entry does (PSTATE to SPSR_EL1, the return address
	 * to ELR_EL1, DAIF masked, EL1h). \preempt is the function el1_irq calls on
	 * its way out: the only line 19c95f261c65 changes in entry.S.
	 */
	.macro	irq_vectors, table, preempt
	.balign	2048
\table:
	.space	0x200
	mrs	x16, esr_el1			// current EL with SP_ELx, synchronous
	lsr	x16, x16, #26
	cmp	x16, #ESR_ELx_EC_SVC64
	b.ne	.				// nothing else is expected here
	kernel_entry
	bl	handle_tick
	adrp	x0, current
	ldr	x0, [x0, :lo12:current]
	ldr	x24, [x0, #TSK_TI_PREEMPT]	// preempt count, need_resched folded in inverted
	cbnz	x24, 1f				// preempt count != 0 || no resched needed
	bl	\preempt			// irq en/disable is done inside
1:	kernel_exit
	.balign	2048
	.endm

	.text
	irq_vectors vectors_before, preempt_schedule_irq
	irq_vectors vectors_after, arm64_preempt_schedule_irq

	/* cpu_switch_to(prev, next): callee-saved registers, sp and lr; PSTATE is left as it is. */
	.globl	cpu_switch_to
cpu_switch_to:
	add	x8, x0, #THREAD_CPU_CONTEXT
	mov	x9, sp
	stp	x19, x20, [x8], #16
	stp	x21, x22, [x8], #16
	stp	x23, x24, [x8], #16
	stp	x25, x26, [x8], #16
	stp	x27, x28, [x8], #16
	stp	x29, x9, [x8], #16
	str	x30, [x8]
	add	x8, x1, #THREAD_CPU_CONTEXT
	ldp	x19, x20, [x8], #16
	ldp	x21, x22, [x8], #16
	ldp	x23, x24, [x8], #16
	ldp	x25, x26, [x8], #16
	ldp	x27, x28, [x8], #16
	ldp	x29, x9, [x8], #16
	ldr	x30, [x8]
	mov	sp, x9
	ret

	/*
	 * enable_cpu_capabilities() for ARM64_HAS_PAN: cpu_enable_pan() runs where
	 * PAN was detected, which the alternative stands for. SCTLR_EL1.SPAN is
	 * left alone: no exception is taken after this step in the scenario.
	 */
	.globl	cpu_enable_pan
cpu_enable_pan:
	alternative_insn nop, "msr pan, #1", ARM64_HAS_PAN
	ret

	/* Boot on the harness's stack: vectors, the user tables, then boot_main() in sched.c. */
	.macro	boot_entry, name, table
	.globl	\name
\name:
	adrp	x1, harness_return
	str	x30, [x1, :lo12:harness_return]
	adrp	x1, \table
	add	x1, x1, :lo12:\table
	msr	vbar_el1, x1
	ldr	x1, =TCR_VALUE
	msr	tcr_el1, x1
	ldr	x1, =MAIR_VALUE
	msr	mair_el1, x1
	adrp	x1, user_pg_dir
	ldr	x2, =EH_PHYS_VOFFSET
	sub	x1, x1, x2
	msr	ttbr0_el1, x1
	isb
	b	boot_main
	.ltorg
	.endm

	boot_entry boot_before, vectors_before
	boot_entry boot_after, vectors_after

	/* A user mapping: 0x400000 -> L0[0] -> L1[0] -> L2[2] -> L3[0] -> user_page (AP = 01). */
	.data
	.balign	4096
user_pg_dir:
	.quad	PA(user_pud) + PMD_TYPE_TABLE
	.fill	511, 8, 0
user_pud:
	.quad	PA(user_pmd) + PMD_TYPE_TABLE
	.fill	511, 8, 0
user_pmd:
	.fill	2, 8, 0
	.quad	PA(user_pte) + PMD_TYPE_TABLE
	.fill	509, 8, 0
user_pte:
	.quad	PA(user_page) + PAGE_USER_RW
	.fill	511, 8, 0
user_page:
	.quad	0x7573657264617461		// the user's data
	.fill	511, 8, 0

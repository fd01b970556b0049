/*
 * mprotect(PROT_READ) of one user page mapped read-only and executable, as change_pte_range() makes
 * it: ptep_modify_prot_start(), the new PTE through ptep_modify_prot_commit(), then the mmu_gather's
 * flush of the page. Two builds of ptep_modify_prot_start(): Linux 6.1's generic one
 * (ptep_get_and_clear() alone), and Linux 6.12's arch/arm64/mm/mmu.c one, which breaks before make
 * (ptep_clear_flush()) for a user-executable PTE where ARM64_WORKAROUND_2645198 is patched in.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_12.h"

#define USER_VA		0x400000	/* the page's user address */
#define PTE_UXN_BIT	54		/* arch/arm64/include/asm/pgtable-hwdef.h: PTE_UXN */

	.text
	/*
	 * \name: change_pte_range()'s loop body for the PTE of user_pte, mapping USER_VA, then the
	 * flush that tlb_finish_mmu() makes of the range once the loop is done.
	 */
	.macro change_pte name, start
	.globl	\name
\name:
	stp	x29, x30, [sp, #-32]!
	stp	x19, x20, [sp, #16]
	adr	x19, user_pte
	mov	x20, #USER_VA
	mov	x0, x19
	mov	x1, x20
	bl	\start				// oldpte = ptep_modify_prot_start(vma, addr, pte)
	orr	x1, x0, #(1 << PTE_UXN_BIT)	// pte_modify(oldpte, PAGE_READONLY): UXN set
	mov	x0, x19
	bl	ptep_modify_prot_commit
	mov	x0, x20
	bl	flush_tlb_page			// the range's flush: one page
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.endm

	change_pte change_pte_6_1, ptep_get_and_clear
	change_pte change_pte_6_12, ptep_modify_prot_start

	/*
	 * Linux 6.12 ptep_modify_prot_start(ptep = x0, addr = x1): alternative_has_cap_unlikely()
	 * is a NOP that the kernel patches into the branch on an affected CPU.
	 */
ptep_modify_prot_start:
	ldr	x2, [x0]			// ptep_get(ptep)
#ifndef EH_MUTANT_NO_ALTERNATIVE
	alternative_insn nop, "b 1f", ARM64_WORKAROUND_2645198
#endif
	b	ptep_get_and_clear
1:	tbnz	x2, #PTE_UXN_BIT, ptep_get_and_clear	// !pte_user_exec(): no break needed
	/* ptep_clear_flush(): ptep_get_and_clear(), then flush_tlb_page() of the live entry. */
	stp	x29, x30, [sp, #-32]!
	stp	x19, x20, [sp, #16]
	mov	x20, x1
#ifdef EH_MUTANT_FLUSH_FIRST
	mov	x19, x0				// mutant: the TLB flushed before the PTE is cleared
	mov	x0, x20
	bl	flush_tlb_page
	mov	x0, x19
	bl	ptep_get_and_clear
#else
	bl	ptep_get_and_clear
	mov	x19, x0
	mov	x0, x20
#ifndef EH_MUTANT_NO_FLUSH
	bl	flush_tlb_page
#endif
	mov	x0, x19
#endif
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret

	/*
	 * ptep_get_and_clear(ptep = x0): xchg_relaxed(ptep, 0) in its LL/SC form (the LSE SWP
	 * stores the same zero); returns the old PTE.
	 */
ptep_get_and_clear:
1:	ldxr	x2, [x0]
	stxr	w3, xzr, [x0]
	cbnz	w3, 1b
	mov	x0, x2
	ret

	/* ptep_modify_prot_commit(ptep = x0, pte = x1): set_pte_at() of a user PTE, a plain store. */
ptep_modify_prot_commit:
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	str	x1, [x0]
	ret

	/*
	 * flush_tlb_page(uaddr = x0), ASID 0: __flush_tlb_page_nosync() then __tlbi_sync_s1ish().
	 * __tlbi_user() is left out: Cortex-A715 needs no KPTI (CSV3).
	 */
flush_tlb_page:
	dsb	ishst				// the cleared PTE is visible to the walkers
	lsr	x0, x0, #12			// __TLBI_VADDR(uaddr, 0)
	tlbi	vale1is, x0
#ifdef EH_MUTANT_DSB_ISHST
	dsb	ishst				// mutant: a barrier that completes no TLBI
#elif !defined(EH_MUTANT_NO_DSB)
	dsb	ish
#endif
	ret

	.data
	.balign	8
	/*
	 * The PTE of a user page mapped PROT_READ|PROT_EXEC (PAGE_READONLY_EXEC): valid page,
	 * Normal memory, AP[1] user, AP[2] read-only, SH inner, AF, nG, PXN; UXN clear.
	 */
	.globl	user_pte
user_pte:
	.quad	0x0020000040000fc3

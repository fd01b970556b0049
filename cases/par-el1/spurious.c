/*
 * is_spurious_el1_translation_fault() of arch/arm64/mm/fault.c (Linux 5.4) in the
 * four builds around 29a0f5ad87e6 (PAR_EL1.F is bit 0, not bit 1) and
 * 3813733595c0 (F == 0, a walk that now succeeds, means the fault was spurious).
 */
#include <stdbool.h>

#define BIT(n)			(1UL << (n))
#define ESR_ELx_EC(esr)		(((esr) >> 26) & 0x3f)
#define ESR_ELx_EC_DABT_CUR	0x25
#define ESR_ELx_FSC_TYPE	0x3c
#define ESR_ELx_FSC_FAULT	0x04
#define SYS_PAR_EL1_F_BIT1	BIT(1)		/* e8620cff9994's definition */
#ifdef EH_MUTANT_WRONG_F_MASK
#define SYS_PAR_EL1_F_BIT0	BIT(1)		/* mutant: 29a0f5ad87e6 undone */
#else
#define SYS_PAR_EL1_F_BIT0	BIT(0)		/* 29a0f5ad87e6 */
#endif
#define SYS_PAR_EL1_FST_SHIFT	1		/* FIELD_GET(GENMASK(6, 1), par) */
#define SYS_PAR_EL1_FST_MASK	0x3f

static inline unsigned long local_irq_save(void)
{
	unsigned long flags;

	asm volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(flags) : : "memory");
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	asm volatile("msr daif, %0" : : "r"(flags) : "memory");
}

static inline __attribute__((always_inline)) bool
is_spurious_el1_translation_fault(unsigned long addr, unsigned int esr, unsigned long par_f,
				  bool valid_means_spurious)
{
	unsigned long flags, par, dfsc;

	if (ESR_ELx_EC(esr) != ESR_ELx_EC_DABT_CUR ||
	    (esr & ESR_ELx_FSC_TYPE) != ESR_ELx_FSC_FAULT)
		return false;

	flags = local_irq_save();
	asm volatile("at s1e1r, %0" : : "r"(addr));
#ifndef EH_MUTANT_NO_ISB			/* mutant: PAR_EL1 read before AT's result is visible */
	asm volatile("isb" : : : "memory");
#endif
#ifdef EH_MUTANT_NOP
	asm volatile("nop");			/* mutant: neutral */
#endif
	asm volatile("mrs %0, par_el1" : "=r"(par));
	local_irq_restore(flags);

	if (!(par & par_f))
		return valid_means_spurious;

	/* A different type of fault from the AT instruction: treat the fault as spurious. */
	dfsc = (par >> SYS_PAR_EL1_FST_SHIFT) & SYS_PAR_EL1_FST_MASK;
	return (dfsc & ESR_ELx_FSC_TYPE) != ESR_ELx_FSC_FAULT;
}

bool spurious_before(unsigned long addr, unsigned int esr)
{
	return is_spurious_el1_translation_fault(addr, esr, SYS_PAR_EL1_F_BIT1, false);
}

bool spurious_bit_fix(unsigned long addr, unsigned int esr)
{
	return is_spurious_el1_translation_fault(addr, esr, SYS_PAR_EL1_F_BIT0, false);
}

bool spurious_invert_fix(unsigned long addr, unsigned int esr)
{
	return is_spurious_el1_translation_fault(addr, esr, SYS_PAR_EL1_F_BIT1, true);
}

bool spurious_after(unsigned long addr, unsigned int esr)
{
#ifdef EH_MUTANT_INVERT_FIX_ALONE			/* mutant: 3813733595c0 without 29a0f5ad87e6 */
	return is_spurious_el1_translation_fault(addr, esr, SYS_PAR_EL1_F_BIT1, true);
#else
	return is_spurious_el1_translation_fault(addr, esr, SYS_PAR_EL1_F_BIT0, true);
#endif
}

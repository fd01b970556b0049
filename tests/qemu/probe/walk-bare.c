/*
 * The walker differential test's QEMU side (tests/qemu/walk-diff.sh): entered at EL2
 * (-M virt,virtualization=on, -cpu max), with EL2's MMU off, it lays out each case's tables
 * (walk_cases.h) in RAM, points the EL1&0 regime at them with SCTLR_EL1.M set, runs the case's
 * AT instruction from EL2 and prints "INDEX PAR_EL1=VALUE", or "INDEX exception ESR_EL2=VALUE" when the AT took an
 * exception (probe/vectors.S returns past it), one line a case. HCR_EL2 is RW alone: EL1
 * is AArch64, no stage 2 (VM 0), no E2H or TGE, so AT S1E1* and S1E0* give the stage-1 result.
 * PSTATE.PAN is set, so that AT S1E1RP/WP make the PAN check (FEAT_PAN2) and S1E1R/W show they do not.
 */
#include "semihost.h"
#include "walk_cases.h"

#define TABLES 0x40400000ull   /* four pages of RAM, clear of the image (0x40080000) */

/* probe/vectors.S: what the last exception to EL2 was, and how many there were. */
extern char probe_vectors[];
extern volatile uint64_t probe_esr, probe_exceptions;

static uint64_t at(unsigned op, uint64_t va)
{
	uint64_t par;

	switch (op) {
	case OP_S1E1R: __asm__ volatile("at s1e1r, %0" : : "r"(va)); break;
	case OP_S1E1W: __asm__ volatile("at s1e1w, %0" : : "r"(va)); break;
	case OP_S1E0R: __asm__ volatile("at s1e0r, %0" : : "r"(va)); break;
	case OP_S1E0W: __asm__ volatile("at s1e0w, %0" : : "r"(va)); break;
	case OP_S1E1RP: __asm__ volatile("at s1e1rp, %0" : : "r"(va)); break;
	default: __asm__ volatile("at s1e1wp, %0" : : "r"(va)); break;
	}
	__asm__ volatile("isb; mrs %0, par_el1" : "=r"(par));
	return par;
}

static void put_dec(unsigned v)
{
	char buf[12], *p = buf + sizeof(buf) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	put(p);
}

int probe_main(void)
{
	struct walk_case c;
	uint64_t el, pan;
	unsigned i;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	if ((el >> 2) != 2) {
		put("walk-bare: not entered at EL2 (run with -M virt,virtualization=on)\n");
		return 1;
	}
	__asm__ volatile("msr vbar_el2, %2; msr hcr_el2, %1; msr pan, #1; isb; mrs %0, pan"
			 : "=r"(pan) : "r"(1ull << 31), "r"(probe_vectors));
	put(pan ? "# PSTATE.PAN=1\n" : "# PSTATE.PAN=0\n");
	/* The CPU's PA size caps TCR_EL1.IPS: walk_diff gives it to the walker. */
	__asm__ volatile("mrs %0, s3_0_c0_c7_0" : "=r"(el));
	put_reg("# ID_AA64MMFR0_EL1", el);
	for (i = 0; walk_case_get(i, &c); i++) {
		struct walk_case_regs r = walk_case_build(&c, (uint64_t *)TABLES, TABLES);
		/* SCTLR_EL1: M, and the bits RES1 in Armv8.0 (29, 28, 23, 22, 20, 11). */
		uint64_t sctlr = 0x30d00800ull | 1;

		__asm__ volatile("dsb sy; msr ttbr0_el1, %0; msr ttbr1_el1, %1; msr tcr_el1, %2; msr mair_el1, %3; "
				 "msr sctlr_el1, %4; isb; tlbi vmalle1; dsb sy; isb"
				 : : "r"(r.ttbr0), "r"(r.ttbr1), "r"(r.tcr), "r"(r.mair), "r"(sctlr) : "memory");
		uint64_t taken = probe_exceptions, par;

		par = at(c.op, c.va);
		put_dec(i);
		/* An AT whose walk took an exception (a synchronous External abort) leaves PAR_EL1 as it was. */
		if (probe_exceptions != taken)
			put_reg(" exception ESR_EL2", probe_esr);
		else
			put_reg(" PAR_EL1", par);
	}
	return 0;
}

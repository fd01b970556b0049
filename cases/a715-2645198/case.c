/* Case a715-2645198: mprotect() making a user page non-executable on Cortex-A715, with Linux 6.1's ptep_modify_prot_start() and 6.12's. */
#include <inttypes.h>

#include "eh/case.h"
#include "eh/elf.h"

/* Merged for 6.2; its first posting, 44ecda71fd8a, was reverted (c0cd1d541704) before 6.2-rc1. */
static const struct eh_commit commits[] = {
	{ "5db568e748f6", "arm64: errata: Workaround possible Cortex-A715 [ESR|FAR]_ELx corruption" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "Linux 6.1: the generic ptep_modify_prot_start() clears the PTE, the new one is written, and "
		    "the TLB is flushed only after it", "change_pte_6_1" },
	{ "after", "Linux 6.12 arch/arm64/mm/mmu.c: ptep_clear_flush() for a user-executable PTE (the patched "
		   "ARM64_WORKAROUND_2645198 branch), so the TLBI;DSB ISH comes before the new PTE", "change_pte_6_12" },
	{ 0 },
};

/* Cortex-A710 stands for the CPUs 2645198 does not affect: the alternative stays a NOP there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a715-2645198" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a710-r0p0" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a715-2645198" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a710-r0p0" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_row after_a715[] = { { "after", { .erratum = "a715-2645198" } }, { 0 } };

static const struct eh_mutant mutants[] = {
	{ "no-alternative", "EH_MUTANT_NO_ALTERNATIVE",
	  "ptep_modify_prot_start() without the ARM64_WORKAROUND_2645198 branch (tests/kernel/mutants' patch): "
	  "6.1's sequence on every CPU", after_a715 },
	{ "no-flush", "EH_MUTANT_NO_FLUSH",
	  "ptep_clear_flush() without its flush_tlb_page(): the PTE is cleared but the TLB keeps the executable "
	  "entry when the new one is written", after_a715 },
	{ "no-dsb", "EH_MUTANT_NO_DSB", "flush_tlb_page() without the DSB ISH: nothing completes the TLBI before "
					"the new PTE", after_a715 },
	{ "dsb-ishst", "EH_MUTANT_DSB_ISHST",
	  "flush_tlb_page()'s DSB ISH as DSB ISHST, which completes no TLBI", after_a715 },
	{ "flush-first", "EH_MUTANT_FLUSH_FIRST",
	  "ptep_clear_flush() with the order swapped: the TLB flushed before the PTE is cleared, so an entry "
	  "walked in between stays executable", after_a715 },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the new PTE is written: nothing changes" },
	{ 0 },
};

/* PTE_UXN (arch/arm64/include/asm/pgtable-hwdef.h) and the valid bit. */
#define PTE_UXN (1ull << 54)
#define PTE_VALID (1ull << 0)

/* The permission change must have been made: user_pte ends valid and non-executable, else there is nothing to judge. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	uint64_t addr = 0, pte = 0;
	size_t i, stores = 0;

	(void)v;
	if (eh_elf_resolve(eh_machine_image(m)->elf, "user_pte", &addr, NULL) ||
	    eh_machine_read(m, addr, &pte, sizeof(pte), NULL)) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "user_pte cannot be read");
		return;
	}
	for (i = 0; i < tr->n; i++)
		stores += tr->events[i].kind == EH_EV_ACCESS && tr->events[i].flags & EH_INSN_STORE &&
			  tr->events[i].addr == addr;
	if (stores < 2 || !(pte & PTE_VALID) || !(pte & PTE_UXN)) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "user_pte is 0x%016" PRIx64 " after %zu stores: the PTE was not cleared and "
				       "made non-executable", pte, stores);
		return;
	}
	eh_case_judge_hazards(m, "a715-2645198", out);
}

const struct eh_case eh_case_a715_2645198 = {
	.id = "a715-2645198",
	.commits = commits,
	.shows = "Cortex-A715 erratum 2645198: mprotect() making a user page non-executable; 6.1 writes the new "
		 "PTE while the TLB may hold the executable one, 6.12 breaks before make with a TLBI;DSB ISH first",
	.object = "a715-2645198.elf",
	.kernel = "6.12",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

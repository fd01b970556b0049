/* Case cavium-27456: a switch of the user address space on ThunderX, with and without the instruction cache invalidation of erratum 27456. */
#include "eh/case.h"
#include "eh/sysreg.h"

static const struct eh_commit commits[] = {
	{ "104a0c02e8b1", "arm64: Add workaround for Cavium erratum 27456" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "no workaround: cpu_do_switch_mm() switches TTBR1_EL1 and TTBR0_EL1, then the task runs",
	  "switch_to_user_unfixed" },
	{ "after", "Linux 6.1: post_ttbr_update_workaround()'s ic iallu; dsb nsh; isb after the switch, an "
		   "alternative on ARM64_WORKAROUND_CAVIUM_27456", "switch_to_user_27456" },
	{ 0 },
};

/* ThunderX T88 pass 2.2 (r1p2) and T81 pass 1.1 (r0p1) are past the erratum: the alternative stays NOPs. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "cavium-27456" }, EH_VERDICT_BUG },
	{ "before", { .model = "thunderx-t88-r1p2" }, EH_VERDICT_BENIGN },
	{ "before", { .model = "thunderx-t81-r0p1" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "cavium-27456" }, EH_VERDICT_FIXED },
	{ "after", { .model = "thunderx-t88-r1p2" }, EH_VERDICT_BENIGN },
	{ "after", { .model = "thunderx-t81-r0p1" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-ic", "EH_MUTANT_NO_IC", "the IC IALLU left out: the DSB and ISB invalidate nothing",
	  (const struct eh_row[]){ { "after", { .erratum = "cavium-27456" } }, { 0 } } },
	{ "switch-after", "EH_MUTANT_SWITCH_AFTER",
	  "post_ttbr_update_workaround() called before the write of TTBR0_EL1 instead of after it",
	  (const struct eh_row[]){ { "after", { .erratum = "cavium-27456" } }, { 0 } } },
	{ "return-to-el1", "EH_MUTANT_RETURN_TO_EL1",
	  "the SPSR says EL1h: the ERET does not return to the task, so there is nothing to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the ERET: nothing changes" },
	{ 0 },
};

/* The run must have switched TTBR0_EL1 and returned to EL0, as SPSR_EL1 still says after it. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	bool ttbr0 = false, eret = false;
	uint64_t spsr;
	size_t i;

	(void)v;
	for (i = 0; i < tr->n; i++) {
		ttbr0 |= tr->events[i].kind == EH_EV_SYSREG_WRITE && tr->events[i].sysreg == EH_TTBR0_EL1;
		eret |= ttbr0 && tr->events[i].kind == EH_EV_CTX_SYNC && tr->events[i].flags & EH_INSN_ERET;
	}
	if (!eret || eh_machine_sysreg(m, 0, EH_SPSR_EL1, &spsr) || (spsr >> 2) & 3) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "no switch of TTBR0_EL1 followed by a return to EL0 ran: nothing to judge");
		return;
	}
	eh_case_judge_hazards(m, "cavium-27456", out);
}

const struct eh_case eh_case_cavium_27456 = {
	.id = "cavium-27456",
	.commits = commits,
	.shows = "Cavium ThunderX erratum 27456: after a switch of the user address space the kernel must "
		 "invalidate the instruction cache (IC IALLU; DSB NSH; ISB) before the task runs",
	.object = "cavium-27456.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

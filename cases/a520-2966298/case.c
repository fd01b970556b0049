/* Case a520-2966298: the return to EL0 on Cortex-A520, before and after 832dd634bd1b moved the workaround of erratum 2966298. */
#include <inttypes.h>

#include "eh/case.h"
#include "eh/sysreg.h"

static const struct eh_commit commits[] = {
	{ "832dd634bd1b", "arm64: entry: fix ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD" },
	{ "471470bc7052", "arm64: errata: Add Cortex-A520 speculative unprivileged load workaround" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "as 471470bc7052 shipped it (CVE-2024-26670): the TLBI and DSB NSH, then the load of LR",
	  "ret_to_user_471470bc7052" },
	{ "after", "832dd634bd1b: the TLBI and DSB NSH after the last explicit memory access, right before the "
		   "ERET", "ret_to_user_832dd634bd1b" },
	{ "no-workaround", "before 471470bc7052: no TLBI at all", "ret_to_user_unfixed" },
	{ 0 },
};

/* Cortex-A520 r0p2 is the revision past the erratum: the alternatives stay NOPs there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a520-2966298" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a520-r0p2" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a520-2966298" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a520-r0p2" }, EH_VERDICT_BENIGN },
	{ "no-workaround", { .erratum = "a520-2966298" }, EH_VERDICT_BUG },
	{ "no-workaround", { .model = "cortex-a520-r0p2" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "store-after", "EH_MUTANT_STORE_AFTER",
	  "a store between 832dd634bd1b's TLBI;DSB NSH and the ERET: the last access is after the workaround",
	  (const struct eh_row[]){ { "after", { .erratum = "a520-2966298" } }, { 0 } } },
	{ "no-dsb", "EH_MUTANT_NO_DSB", "the TLBI without its DSB NSH: nothing completes it before the ERET",
	  (const struct eh_row[]){ { "after", { .erratum = "a520-2966298" } }, { 0 } } },
	{ "return-to-el1", "EH_MUTANT_RETURN_TO_EL1",
	  "the frame's SPSR says EL1h: the ERET does not return to EL0, so there is nothing to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { "no-workaround" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the ERET: no access, nothing changes" },
	{ 0 },
};

/* The erratum is about returns to EL0: the run must have made one, which SPSR_EL1 still says after it. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	uint64_t spsr;
	size_t i;

	(void)v;
	for (i = 0; i < tr->n && !(tr->events[i].kind == EH_EV_CTX_SYNC && tr->events[i].flags & EH_INSN_ERET); i++)
		;
	if (i == tr->n || eh_machine_sysreg(m, 0, EH_SPSR_EL1, &spsr) || (spsr >> 2) & 3) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "no exception return to EL0 ran: nothing to judge");
		return;
	}
	eh_case_judge_hazards(m, "a520-2966298", out);
}

const struct eh_case eh_case_a520_2966298 = {
	.id = "a520-2966298",
	.commits = commits,
	.shows = "Cortex-A520 erratum 2966298: the return to EL0 needs a local TLBI and DSB NSH after its last "
		 "explicit memory access; 471470bc7052 put them before the load of LR, 832dd634bd1b after it",
	.object = "a520-2966298.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

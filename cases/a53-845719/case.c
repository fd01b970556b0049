/* Case a53-845719: the return to an AArch32 task on Cortex-A53, with and without the CONTEXTIDR_EL1 write of erratum 845719. */
#include "eh/case.h"
#include "eh/sysreg.h"

static const struct eh_commit commits[] = {
	{ "905e8c5dcaa1", "arm64: errata: Add workaround for Cortex-A53 erratum #845719" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "no workaround: the AArch32 task is returned to with CONTEXTIDR_EL1 untouched",
	  "ret_to_user_unfixed" },
	{ "after", "Linux 6.1: msr contextidr_el1, xzr on the AArch32 side, an alternative on "
		   "ARM64_WORKAROUND_845719", "ret_to_user_845719" },
	{ "after-pid", "the same built with CONFIG_PID_IN_CONTEXTIDR: the register written back with its own value",
	  "ret_to_user_845719_pid" },
	{ 0 },
};

/* Cortex-A72 is not affected: the alternatives stay NOPs there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a53-845719" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a53-845719" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after-pid", { .erratum = "a53-845719" }, EH_VERDICT_FIXED },
	{ "after-pid", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "wrong-branch", "EH_MUTANT_WRONG_BRANCH",
	  "the check branches past the workaround when the task is AArch32: nothing writes CONTEXTIDR_EL1",
	  (const struct eh_row[]){ { "after", { .erratum = "a53-845719" } },
				   { "after-pid", { .erratum = "a53-845719" } }, { 0 } } },
	{ "no-write", "EH_MUTANT_NO_WRITE", "CONFIG_PID_IN_CONTEXTIDR's form reads CONTEXTIDR_EL1 and never writes it",
	  (const struct eh_row[]){ { "after-pid", { .erratum = "a53-845719" } }, { 0 } } },
	{ "return-to-aarch64", "EH_MUTANT_RETURN_TO_AARCH64",
	  "the frame's SPSR says AArch64 EL0t: the ERET does not return to AArch32, so there is nothing to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { "after-pid" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the ERET: nothing changes" },
	{ 0 },
};

/* The erratum is about returns to AArch32 EL0: the run must have made one, as SPSR_EL1 still says after it. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	uint64_t spsr;
	size_t i;

	(void)v;
	for (i = 0; i < tr->n && !(tr->events[i].kind == EH_EV_CTX_SYNC && tr->events[i].flags & EH_INSN_ERET); i++)
		;
	if (i == tr->n || eh_machine_sysreg(m, 0, EH_SPSR_EL1, &spsr) || (spsr & 0x1f) != 0x10) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "no exception return to AArch32 EL0 ran: nothing to judge");
		return;
	}
	eh_case_judge_hazards(m, "a53-845719", out);
}

const struct eh_case eh_case_a53_845719 = {
	.id = "a53-845719",
	.commits = commits,
	.shows = "Cortex-A53 erratum 845719: the return to an AArch32 task must write CONTEXTIDR_EL1 first, as "
		 "kernel_exit does on the parts the kernel detects",
	.object = "a53-845719-aarch32.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN | EH_END_SYMBOL | EH_END_FAULT,
	.end_symbol = "user_task",
	.mutants = mutants,
	.judge = judge,
};

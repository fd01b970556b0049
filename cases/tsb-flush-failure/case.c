/* Case tsb-flush-failure: KVM's trace buffer drain on Cortex-A710 and Neoverse N2, before and after fa82d0b4b833 doubled its TSB CSYNC. */
#include "eh/case.h"
#include "eh/insn.h"

static const struct eh_commit commits[] = {
	{ "fa82d0b4b833", "arm64: errata: Add workaround for TSB flush failures" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "before fa82d0b4b833: one TSB CSYNC before the DSB", "save_trace_before" },
	{ "after", "Linux 6.1's tsb_csync(): a second TSB CSYNC behind cpus_have_final_cap()", "save_trace_6_1" },
	{ 0 },
};

/* Every revision of Cortex-A710 and Neoverse N2 is affected: Cortex-A72 stands for the others. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "tsb-flush-failure" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "tsb-flush-failure" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "wrong-cap", "EH_MUTANT_WRONG_CAP",
	  "the branch to the second TSB CSYNC keyed on ARM64_WORKAROUND_1508412, which these CPUs do not detect",
	  (const struct eh_row[]){ { "after", { .erratum = "tsb-flush-failure" } }, { 0 } } },
	{ "no-branch", "EH_MUTANT_NO_BRANCH", "the alternative patches a NOP: the second TSB CSYNC is never reached",
	  (const struct eh_row[]){ { "after", { .erratum = "tsb-flush-failure" } }, { 0 } } },
	{ "no-tsb", "EH_MUTANT_NO_TSB", "no TSB CSYNC in line: nothing drains the trace before the DSB in `before`",
	  (const struct eh_row[]){ { "before" }, { 0 } } },
	{ "no-dsb", "EH_MUTANT_NO_DSB", "no DSB after the drain: nothing to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the TSB CSYNC: nothing changes" },
	{ 0 },
};

/* A run whose drain was never completed by a DSB exercised nothing. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)v;
	eh_case_judge_hazards_after(m, "tsb-flush-failure", EH_EV_BARRIER, EH_INSN_DSB, "no DSB ran", out);
}

const struct eh_case eh_case_tsb_flush_failure = {
	.id = "tsb-flush-failure",
	.commits = commits,
	.shows = "Cortex-A710 erratum 2054223 and Neoverse N2 erratum 2067961 (TSB_FLUSH_FAILURE): the trace buffer "
		 "drained with one TSB CSYNC before the DSB that completes it; fa82d0b4b833 issues two where the CPU "
		 "needs them",
	.object = "tsb-flush-failure.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

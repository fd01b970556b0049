/* Case speculative-at: KVM's switch to a guest's VMID under VHE, before and after a457b0f7f50d made the kernel detect 1165522, whose ISB then synchronises the stage-2 load before TGE is cleared. */
#include "eh/case.h"
#include "eh/insn.h"

static const struct eh_commit commits[] = {
	{ "a457b0f7f50d", "arm64: Add configuration/documentation for Cortex-A76 erratum 1165522" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "before a457b0f7f50d, when no CPU detected the erratum: HCR_EL2.TGE cleared straight after the VTTBR_EL2 write", "tlb_flush_vmid_before" },
	{ "after", "Linux 6.1's __load_stage2(): an ISB after VTTBR_EL2 where the CPU needs it", "tlb_flush_vmid_6_1" },
	{ 0 },
};

/* Cortex-A76 r3p0 is the revision past 1165522: the alternative leaves its NOP there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "speculative-at" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a76-r3p0" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "speculative-at" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a76-r3p0" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "wrong-cap", "EH_MUTANT_WRONG_CAP", "the ISB keyed on ARM64_WORKAROUND_1508412, which these CPUs do not detect",
	  (const struct eh_row[]){ { "after", { .erratum = "speculative-at" } }, { 0 } } },
	{ "no-isb", "EH_MUTANT_NO_ISB", "the alternative patches a NOP: nothing synchronises the stage-2 load",
	  (const struct eh_row[]){ { "after", { .erratum = "speculative-at" } }, { 0 } } },
	{ "no-vttbr", "EH_MUTANT_NO_VTTBR", "no stage 2 loaded: nothing is left to synchronise",
	  (const struct eh_row[]){ { "before" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the read of HCR_EL2: nothing changes" },
	{ 0 },
};

/* A run that wrote no EL2 register exercised nothing. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)v;
	eh_case_judge_hazards_after(m, "speculative-at", EH_EV_EL2_ACCESS, EH_INSN_MSR, "no EL2 register was written",
				    out);
}

const struct eh_case eh_case_speculative_at = {
	.id = "speculative-at",
	.commits = commits,
	.shows = "Cortex-A76 1165522, A57/A72 1319367 and A55 1530923 (SPECULATIVE_AT): KVM loads a guest's stage 2 "
		 "and clears HCR_EL2.TGE to invalidate its TLB entries; since a457b0f7f50d the CPUs that need it "
		 "detect the erratum and an ISB comes between them",
	.object = "speculative-at.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

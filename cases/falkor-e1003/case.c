/* Case falkor-e1003: the KPTI trampoline's switch of TTBR1_EL1 into the kernel on Falkor v1, with and without the E1003 invalidation. */
#include "eh/case.h"
#include "eh/sysreg.h"

static const struct eh_commit commits[] = {
	{ "38fd94b0275c", "arm64: Work around Falkor erratum 1003" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "no workaround: the trampoline loads the vectors address right after its write of TTBR1_EL1",
	  "el0_sync_unfixed" },
	{ "after", "Linux 6.1's tramp_map_kernel: isb; tlbi vae1; dsb nsh after the write, then an ISB, "
		   "alternatives on ARM64_WORKAROUND_QCOM_FALKOR_E1003", "el0_sync_e1003" },
	{ 0 },
};

/* Kryo 2XX Gold (part 0x800, variant 0xa) is not Falkor v1 r0p0: the alternatives stay NOPs there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "falkor-e1003" }, EH_VERDICT_BUG },
	{ "before", { .model = "kryo2xx-gold-rap1" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "falkor-e1003" }, EH_VERDICT_FIXED },
	{ "after", { .model = "kryo2xx-gold-rap1" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-tlbi", "EH_MUTANT_NO_TLBI", "the TLBI VAE1 left out: the DSB completes nothing and the load follows",
	  (const struct eh_row[]){ { "after", { .erratum = "falkor-e1003" } }, { 0 } } },
	{ "load-before-tlbi", "EH_MUTANT_LOAD_BEFORE_TLBI", "a load between the ISB and the TLBI VAE1",
	  (const struct eh_row[]){ { "after", { .erratum = "falkor-e1003" } }, { 0 } } },
	{ "same-asid", "EH_MUTANT_SAME_ASID",
	  "the user ASID flag kept: the write changes the table base only, which the erratum needs both of",
	  (const struct eh_row[]){ { "before", { .erratum = "falkor-e1003" } }, { 0 } } },
	{ "no-ttbr-write", "EH_MUTANT_NO_TTBR_WRITE",
	  "the trampoline never writes TTBR1_EL1: there is no switch into the kernel to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the load of the vectors address: nothing changes" },
	{ 0 },
};

/* The run must have switched TTBR1_EL1 from the user ASID (USER_ASID_FLAG, bit 48, set) to the kernel's. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	bool user = false, switched = false;
	size_t i;

	(void)v;
	for (i = 0; i < tr->n && !switched; i++) {
		const struct eh_event *ev = &tr->events[i];

		if (ev->kind != EH_EV_SYSREG_WRITE || ev->sysreg != EH_TTBR1_EL1)
			continue;
		switched = user && !(ev->value >> 48 & 1);
		user = ev->value >> 48 & 1;
	}
	if (!switched) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "no write of TTBR1_EL1 from the user ASID to the kernel's ran: nothing to judge");
		return;
	}
	eh_case_judge_hazards(m, "falkor-e1003", out);
}

const struct eh_case eh_case_falkor_e1003 = {
	.id = "falkor-e1003",
	.commits = commits,
	.shows = "Qualcomm Falkor erratum E1003: the KPTI trampoline must invalidate its own page's walk-cache "
		 "entries by VA after switching TTBR1_EL1 to the kernel's tables and ASID, before its next access",
	.object = "falkor-e1003.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

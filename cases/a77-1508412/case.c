/* Case a77-1508412: PAR_EL1 reads between Device loads on Cortex-A77, before and after 96d389ca1011. */
#include <inttypes.h>

#include "eh/case.h"

static const struct eh_commit commits[] = {
	{ "96d389ca1011", "arm64: Add workaround for Arm Cortex-A77 erratum 1508412" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "a plain MRS of PAR_EL1, an exception return with no barrier", "par_read_before" },
	{ "after", "read_sysreg_par(): DMB SY on each side, and DMB SY before the ERET to EL1",
	  "par_read_after" },
	{ 0 },
};

/* Cortex-A77 r1p1 is the revision past the erratum: the alternatives stay NOPs there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a77-1508412" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a77-r1p1" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a77-1508412" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a77-r1p1" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-eret-dmb", "EH_MUTANT_NO_ERET_DMB",
	  "the interrupt returns with no DMB SY: its Device load meets the PAR_EL1 read after the first DMB",
	  (const struct eh_row[]){ { "after", { .erratum = "a77-1508412" } }, { 0 } } },
	{ "no-trailing-dmb", "EH_MUTANT_NO_TRAILING_DMB",
	  "read_sysreg_par() without its second DMB SY: the next Device load follows the read directly",
	  (const struct eh_row[]){ { "after", { .erratum = "a77-1508412" } }, { 0 } } },
	{ "dmb-ish", "EH_MUTANT_DMB_ISH", "every barrier DMB ISH: it does not order the Device accesses",
	  (const struct eh_row[]){ { "after", { .erratum = "a77-1508412" } }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the read: nothing changes" },
	{ 0 },
};

/* The scenario reads PAR_EL1 after an AT into a cleared x0: a run that returns no translation read nothing. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	uint64_t par = eh_machine_xreg(m, 0, 0);

	(void)v;
	if (!par || par & 1) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "x0 = 0x%016" PRIx64 ": no translation was read from PAR_EL1", par);
		return;
	}
	eh_case_judge_hazards(m, "a77-1508412", out);
}

const struct eh_case eh_case_a77_1508412 = {
	.id = "a77-1508412",
	.commits = commits,
	.shows = "Cortex-A77 erratum 1508412: a PAR_EL1 read and a Device load with no DMB SY between them, "
		 "also across an interrupt's return; 96d389ca1011 brackets the read and fences the ERET",
	.object = "a77-1508412.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

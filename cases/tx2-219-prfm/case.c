/* Case tx2-219-prfm: the KPTI trampoline's PRFM after the TTBR1_EL1 write, before and after 9405447ef79b. */
#include "prfm_judge.h"

static const struct eh_commit commits[] = {
	{ "9405447ef79b", "arm64: Avoid Cavium TX2 erratum 219 when switching TTBR" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "5.4 trampoline, RANDOMIZE_BASE off, plain PRFM", "tramp_entry_before" },
	{ "after", "PRFM inside alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM",
	  "tramp_entry_after" },
	{ "after-kaslr", "the same with RANDOMIZE_BASE on: ADR, ISB, then the load",
	  "tramp_entry_after_kaslr" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "tx2-219" }, EH_VERDICT_BUG },
	{ "before", { .has = "tx2-219" }, EH_VERDICT_BENIGN }, /* SMT off: the erratum does not show */
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN }, /* no erratum */
	{ "after", { .erratum = "tx2-219" }, EH_VERDICT_RESIDUAL },
	{ "after", { .has = "tx2-219" }, EH_VERDICT_BENIGN },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after-kaslr", { .has = "tx2-219" }, EH_VERDICT_FIXED },
	{ "after-kaslr", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-alternative", "EH_MUTANT_NO_ALTERNATIVE",
	  "`after` keeps its PRFM without the alternative: it stays in the window and draws the abort",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "store-in-window", "EH_MUTANT_STORE_IN_WINDOW",
	  "a store between the TTBR1_EL1 write and the ISB of `after-kaslr`: an access in the window",
	  (const struct eh_row[]){ { "after-kaslr" }, { 0 } } },
	{ "brk-before-ttbr", "EH_MUTANT_BRK_BEFORE_TTBR",
	  "a BRK before the TTBR1_EL1 write: the trampoline never reaches its window",
	  (const struct eh_row[]){ { "before" }, { "after" }, { "after-kaslr" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the TTBR1_EL1 write: no access, nothing changes" },
	{ 0 },
};

/*
 * The bug is a PRFM inside the TTBR window on a core where erratum 219 shows.
 * A load or store left in the window is residual: the erratum text covers
 * every access, and the fix does not move the literal load, so it is reported,
 * not hidden. A run that never wrote TTBR1_EL1 exercised nothing.
 */
void eh_tx2_219_prfm_judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	struct eh_window_summary s;
	char where[256];
	unsigned i;

	(void)v;
	eh_trace_summarise(eh_machine_trace(m), &s);
	if (!s.windows) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "the trampoline wrote no TTBR1_EL1: there is no window to judge");
		return;
	}
	if (!s.loads && !s.stores && !s.prefetches)
		out->verdict = EH_VERDICT_FIXED;
	else if (!s.injected)
		out->verdict = EH_VERDICT_BENIGN;
	else
		out->verdict = s.prefetches ? EH_VERDICT_BUG : EH_VERDICT_RESIDUAL;

	eh_outcome_append(out, "window opened at %s",
			  eh_machine_where(m, s.first_open_pc, where, sizeof(where)));
	if (!s.nfirst)
		eh_outcome_append(out, "; closed with nothing inside");
	else
		eh_outcome_append(out, "; inside: %u load%s, %u store%s, %u prefetch%s", s.loads,
				  s.loads == 1 ? "" : "s", s.stores, s.stores == 1 ? "" : "s", s.prefetches,
				  s.prefetches == 1 ? "" : "es");
	for (i = 0; i < s.nfirst; i++)
		eh_outcome_append(out, "; %s", eh_machine_where(m, s.first_access_pc[i], where, sizeof(where)));
	if (s.injected)
		eh_outcome_append(out, "; spurious Data Abort injected on thread %d (%s)", s.victim,
				  s.victim == s.culprit_thread ? "the culprit itself" : "a sibling thread");
	else if (s.nfirst)
		eh_outcome_append(out, "; %s does not expose erratum 219: nothing injected",
				  eh_machine_model(m)->name);
}

const struct eh_case eh_case_tx2_219_prfm = {
	.id = "tx2-219-prfm",
	.commits = commits,
	.shows = "ThunderX2 erratum 219: the trampoline's PRFM in the TTBR1_EL1 window draws a spurious "
		 "abort; the alternative NOPs it, the literal load stays as a residual hazard",
	.object = "tx2-219-prfm.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = eh_tx2_219_prfm_judge,
};

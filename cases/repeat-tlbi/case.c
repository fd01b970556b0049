/* Case repeat-tlbi: a broadcast TLBI;DSB before a page is reused, before d9ff80f83ecb, with its repeat, and with a8f78680ee6b's. */
#include "eh/case.h"
#include "eh/insn.h"

static const struct eh_commit commits[] = {
	{ "a8f78680ee6b", "arm64: tlb: Optimize ARM64_WORKAROUND_REPEAT_TLBI" },
	{ "d9ff80f83ecb", "arm64: Work around Falkor erratum 1009" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "before d9ff80f83ecb: TLBI VALE1IS; DSB ISH, then the store", "flush_page_unrepeated" },
	{ "after", "a8f78680ee6b (6.1.192): DSB ISH, then the patched branch to TLBI VALE1IS, XZR; DSB ISH",
	  "flush_page_a8f78680ee6b" },
	{ "after-1009", "d9ff80f83ecb: each TLBI followed by DSB ISH; TLBI again", "flush_page_d9ff80f83ecb" },
	{ 0 },
};

/*
 * Cortex-A510 r1p2 is past 2441009 and Kryo 4XX Gold rfpf past 1286807, and neither is in
 * the 4118414 list: the alternatives stay NOPs there.
 */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "repeat-tlbi" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a510-r1p2" }, EH_VERDICT_BENIGN },
	{ "before", { .model = "kryo4xx-gold-rfpf" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "repeat-tlbi" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a510-r1p2" }, EH_VERDICT_BENIGN },
	{ "after", { .model = "kryo4xx-gold-rfpf" }, EH_VERDICT_BENIGN },
	{ "after-1009", { .erratum = "repeat-tlbi" }, EH_VERDICT_FIXED },
	{ "after-1009", { .model = "cortex-a510-r1p2" }, EH_VERDICT_BENIGN },
	{ "after-1009", { .model = "kryo4xx-gold-rfpf" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-repeat-dsb", "EH_MUTANT_NO_REPEAT_DSB",
	  "a8f78680ee6b's repeat without its DSB: the repeated TLBI is never completed before the store",
	  (const struct eh_row[]){ { "after", { .erratum = "repeat-tlbi" } }, { 0 } } },
	{ "local-repeat", "EH_MUTANT_LOCAL_REPEAT",
	  "the repeat as TLBI VALE1, XZR: not broadcast, so it completes nothing the other PEs hold",
	  (const struct eh_row[]){ { "after", { .erratum = "repeat-tlbi" } }, { 0 } } },
	{ "store-before-repeat", "EH_MUTANT_STORE_BEFORE_REPEAT",
	  "a store between the completing DSB and the repeat: it relies on the first completion",
	  (const struct eh_row[]){ { "after", { .erratum = "repeat-tlbi" } }, { 0 } } },
	{ "repeat-dsb-ishst", "EH_MUTANT_REPEAT_DSB_ISHST",
	  "d9ff80f83ecb's repeat after DSB ISHST, which completes no TLBI: the second TLBI;DSB is the only one",
	  (const struct eh_row[]){ { "after-1009", { .erratum = "repeat-tlbi" } }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the store: nothing changes" },
	{ 0 },
};

/* A run that issued no broadcast TLBI exercised nothing. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)v;
	eh_case_judge_hazards_after(m, "repeat-tlbi", EH_EV_SYS, EH_INSN_TLBI, "no TLBI ran", out);
}

const struct eh_case eh_case_repeat_tlbi = {
	.id = "repeat-tlbi",
	.commits = commits,
	.shows = "REPEAT_TLBI (Falkor E1009, Cortex-A76 1286807, A55 2441007, A510 2441009, 4118414): a store "
		 "to a page after a single broadcast TLBI;DSB; the repeated TLBI;DSB of d9ff80f83ecb and "
		 "a8f78680ee6b comes before it",
	.object = "repeat-tlbi.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

/* Case clean-cache: a buffer cleaned by cache line on Cortex-A53, before and after 301bcfac4289 promoted the cleans to DC CIVAC. */
#include "eh/case.h"
#include "eh/insn.h"

static const struct eh_commit commits[] = {
	{ "301bcfac4289", "arm64: add Cortex-A53 cache errata workaround" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "before 301bcfac4289: DC CVAU on every line", "clean_pou_unpatched" },
	{ "after", "Linux 6.1's dcache_clean_pou: DC CVAU, an alternative to DC CIVAC", "clean_pou_6_1" },
	{ "after-poc", "Linux 6.1's dcache_clean_poc: DC CVAC, an alternative to DC CIVAC", "clean_poc_6_1" },
	{ 0 },
};

/* Cortex-A53 r0p3 is the revision past the errata: the cleans stay as they are there. */
static const struct eh_expect expect[] = {
	{ "before", { .erratum = "clean-cache" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a53-r0p3" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "clean-cache" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a53-r0p3" }, EH_VERDICT_BENIGN },
	{ "after-poc", { .erratum = "clean-cache" }, EH_VERDICT_FIXED },
	{ "after-poc", { .model = "cortex-a53-r0p3" }, EH_VERDICT_BENIGN },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "plain-cvau", "EH_MUTANT_PLAIN_CVAU", "dcache_clean_pou's DC CVAU outside its alternative: it runs as it is",
	  (const struct eh_row[]){ { "after", { .erratum = "clean-cache" } }, { 0 } } },
	{ "plain-cvac", "EH_MUTANT_PLAIN_CVAC", "dcache_clean_poc's DC CVAC outside its alternative: it runs as it is",
	  (const struct eh_row[]){ { "after-poc", { .erratum = "clean-cache" } }, { 0 } } },
	{ "wrong-cap", "EH_MUTANT_WRONG_CAP",
	  "the alternatives keyed on ARM64_WORKAROUND_1508412, which Cortex-A53 does not detect: no DC CIVAC",
	  (const struct eh_row[]){ { "after", { .erratum = "clean-cache" } },
				   { "after-poc", { .erratum = "clean-cache" } }, { 0 } } },
	{ "no-clean", "EH_MUTANT_NO_CLEAN", "a NOP where each clean was: nothing by VA ran, so there is nothing to judge",
	  (const struct eh_row[]){ { "before" }, { "after" }, { "after-poc" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after each clean: nothing changes" },
	{ 0 },
};

/* A run that cleaned nothing by VA exercised nothing. */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)v;
	eh_case_judge_hazards_after(m, "clean-cache", EH_EV_SYS, EH_INSN_MAINT, "no cache maintenance by VA ran", out);
}

const struct eh_case eh_case_clean_cache = {
	.id = "clean-cache",
	.commits = commits,
	.shows = "Cortex-A53 errata 826319, 827319, 824069 and 819472 (CLEAN_CACHE): a buffer cleaned by cache line "
		 "with DC CVAU or CVAC; 301bcfac4289 makes each clean a DC CIVAC where the CPU needs it",
	.object = "clean-cache.elf",
	.kernel = "6.1",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

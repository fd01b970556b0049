/*
 * Case tx2-219-kconfig: the trampoline's PRFM workaround is only as good as the kernel
 * configuration that builds it in (603afdc9438a makes CAVIUM_TX2_ERRATUM_219 selectable).
 */
#include "../tx2-219-prfm/prfm_judge.h"

static const struct eh_commit commits[] = {
	{ "603afdc9438a", "arm64: Allow CAVIUM_TX2_ERRATUM_219 to be selected" },
	{ 0 },
};

/*
 * Before the commit the option had no prompt and nothing selected it, so no kernel
 * built the erratum 219 detection in; after it, it is user-visible and on by default.
 * Both variants run the 5.4 trampoline that carries the PRFM alternative.
 */
static const struct eh_variant variants[] = {
	{ "before", "CAVIUM_TX2_ERRATUM_219 cannot be selected: the workaround is never built",
	  "tramp_entry_after", "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\nCONFIG_UNMAP_KERNEL_AT_EL0=y\n" },
	{ "after", "CONFIG_CAVIUM_TX2_ERRATUM_219=y (the new default)",
	  "tramp_entry_after", "CONFIG_CAVIUM_TX2_ERRATUM_219=y\nCONFIG_UNMAP_KERNEL_AT_EL0=y\n" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "tx2-219" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "tx2-219" }, EH_VERDICT_RESIDUAL },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ 0 },
};

/* The trampoline's own mutants (cases/tx2-219-prfm/tramp.S), seen through this case's configurations. */
static const struct eh_mutant mutants[] = {
	{ "no-alternative", "EH_MUTANT_NO_ALTERNATIVE",
	  "the PRFM without its alternative: configured in or not, it stays in the window",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "brk-before-ttbr", "EH_MUTANT_BRK_BEFORE_TTBR",
	  "a BRK before the TTBR1_EL1 write: the trampoline never reaches its window",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the TTBR1_EL1 write: no access, nothing changes" },
	{ 0 },
};

const struct eh_case eh_case_tx2_219_kconfig = {
	.id = "tx2-219-kconfig",
	.commits = commits,
	.shows = "with CAVIUM_TX2_ERRATUM_219 configured out the PRFM alternative is never applied and "
		 "the PRFM stays in the TTBR1_EL1 window on ThunderX2; configured in, it is NOPed",
	.object = "tx2-219-prfm.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = eh_tx2_219_prfm_judge,
};

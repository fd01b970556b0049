/* Case a53-835769: a 64-bit multiply-accumulate right after a load on Cortex-A53, compiled with and without clang's workaround, and in assembly with and without its NOP. */
#include <inttypes.h>

#include "a53_835769.h"
#include "eh/case.h"
#include "eh/erratum.h"

/* The same C as the snippet's, compiled for the host: what a right multiply-accumulate returns. */
static EH_A53_835769_MAC(host_mac)

/*
 * Linux has no workaround of its own (no capability, no Kconfig symbol, and the 6.1
 * Makefiles do not pass -mfix-cortex-a53-835769): the fix is the compiler's, added to LLVM
 * in llvm-svn 219603 (the pass) and 219604 (clang's option).
 */
static const struct eh_commit commits[] = {
	{ "f48de1cb7b1c", "LLVM: AArch64A53Fix835769, a NOP between a memory op and a 64-bit "
			  "multiply-accumulate (llvm-svn 219603)" },
	{ "0c3f8135be93", "LLVM: clang -mfix-cortex-a53-835769 (llvm-svn 219604)" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "C as Linux 6.1 builds it (clang 14 -O2): the load of p[0] directly before the MADD",
	  "a53_835769_before" },
	{ "after", "the same C with -mfix-cortex-a53-835769: a NOP between them", "a53_835769_after" },
	{ "before-asm", "assembly (a .S file, which no compiler flag reaches): LDR then MADD",
	  "a53_835769_asm_before" },
	{ "after-asm", "the same with a NOP between them", "a53_835769_asm_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a53-835769" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a53-835769" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "before-asm", { .erratum = "a53-835769" }, EH_VERDICT_BUG },
	{ "before-asm", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after-asm", { .erratum = "a53-835769" }, EH_VERDICT_FIXED },
	{ "after-asm", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-nop", "EH_MUTANT_NO_NOP",
	  "`after-asm` without its NOP: the MADD directly after the load loses its accumulate",
	  (const struct eh_row[]){ { "after-asm", { .erratum = "a53-835769" } }, { 0 } } },
	{ "dependent", "EH_MUTANT_DEPENDENT",
	  "`before-asm` loads the accumulator last: the MADD reads what the load wrote, which the "
	  "erratum's conditions exclude",
	  (const struct eh_row[]){ { "before-asm" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before the call to the C: nothing changes" },
	{ 0 },
};

/*
 * The bug is a result other than a right multiply-accumulate's (the C above,
 * run on the host). A multiply-accumulate that ran in the erratum's pair (a
 * hazard the behaviour records on every model) with the right result is
 * benign; no such pair and the right result is fixed.
 */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_erratum *e = eh_erratum_find("a53-835769");
	const struct eh_trace *tr = eh_machine_trace(m);
	long p[2] = { EH_A53_835769_P0, 0 };
	uint64_t x0 = eh_machine_xreg(m, 0, 0);
	uint64_t right = (uint64_t)host_mac(p, EH_A53_835769_A, EH_A53_835769_B, EH_A53_835769_C);
	const struct eh_event *hazard;
	size_t hazards = eh_trace_hazards(tr, e, &hazard);
	char first[128], mac[128];

	(void)v;
	if (hazard)
		eh_outcome_append(out, "%s directly after %s; ", eh_machine_where(m, hazard->pc, mac, sizeof(mac)),
				  eh_machine_where(m, hazard->value, first, sizeof(first)));
	if (x0 != right) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "the result is 0x%" PRIx64 ", not 0x%" PRIx64, x0, right);
	} else if (hazards) {
		out->verdict = EH_VERDICT_BENIGN;
		eh_outcome_append(out, "the result is right: %s does not show erratum 835769",
				  eh_machine_model(m)->name);
	} else {
		out->verdict = EH_VERDICT_FIXED;
		eh_outcome_append(out, "no multiply-accumulate directly after a load, store or prefetch; "
				  "the result is right");
	}
}

const struct eh_case eh_case_a53_835769 = {
	.id = "a53-835769",
	.commits = commits,
	.shows = "Cortex-A53 erratum 835769: a 64-bit multiply-accumulate directly after a load loses its "
		 "accumulate on affected A53s; the compiler's NOP (or one written in assembly) removes the pair",
	.object = "a53-835769.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

/* Case a53-843419: a load through an ADRP at page offset 0xff8 on Cortex-A53, as compiled, as the module loader patches it, and as ld.lld's workaround links it. */
#include <inttypes.h>

#include "a53_843419.h"
#include "eh/case.h"
#include "eh/erratum.h"

static const struct eh_commit commits[] = {
	{ "a257e02579e4", "arm64/kernel: don't ban ADRP to work around Cortex-A53 erratum #843419" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "ADRP at 0xff8, a store pair across a 128-bit boundary, the load from the ADRP's page",
	  "a53_843419_before" },
	{ "after", "the ADRP patched to an ADR of the page, as arch/arm64/kernel/module.c does for a module",
	  "a53_843419_after" },
	{ "after-lld", "the same objects linked with ld.lld --fix-cortex-a53-843419 (arch/arm64/Makefile): "
	  "the load moved to a veneer", "a53_843419_before", .object = "a53-843419-lld-fix.elf" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "a53-843419" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a53-r0p4-fixed" }, EH_VERDICT_BENIGN }, /* REVIDR_EL1 bit 8 */
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "a53-843419" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a53-r0p4-fixed" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "after-lld", { .erratum = "a53-843419" }, EH_VERDICT_FIXED },
	{ "after-lld", { .model = "cortex-a53-r0p4-fixed" }, EH_VERDICT_FIXED },
	{ "after-lld", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "adrp-in-after", "EH_MUTANT_ADRP_IN_AFTER",
	  "`after` keeps its ADRP at 0xff8: the load misses its page where the erratum shows",
	  (const struct eh_row[]){ { "after", { .erratum = "a53-843419" } }, { 0 } } },
	{ "adrp-at-ff4", "EH_MUTANT_ADRP_AT_FF4",
	  "`before` one word earlier, its ADRP at 0xff4: outside the erratum's page offsets, nothing happens",
	  (const struct eh_row[]){ { "before" }, { 0 } } },
	{ "aligned-pair", "EH_MUTANT_ALIGNED_PAIR",
	  "`before` stores its pair within 16 bytes: the notice needs a store across a 128-bit boundary",
	  (const struct eh_row[]){ { "before" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP",
	  "a NOP before the ADRP moves it to 0xffc, which the erratum covers too: nothing changes" },
	{ 0 },
};

/*
 * The bug is the load reading something other than what lies at `expected`:
 * the erratum's wrong address. An erratum sequence that ran (a hazard the
 * behaviour records on every model) with the right value read is benign; no
 * sequence and the right value is fixed.
 */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_erratum *e = eh_erratum_find("a53-843419");
	const struct eh_trace *tr = eh_machine_trace(m);
	uint64_t x0 = eh_machine_xreg(m, 0, 0);
	const struct eh_event *hazard;
	size_t hazards = eh_trace_hazards(tr, e, &hazard);
	char from[128], to[128];

	(void)v;
	if (hazard)
		eh_outcome_append(out, "erratum sequence from %s to %s; ",
				  eh_machine_where(m, hazard->value, from, sizeof(from)),
				  eh_machine_where(m, hazard->pc, to, sizeof(to)));
	if (x0 != EH_A53_843419_EXPECTED) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "the load read 0x%016" PRIx64 "%s, not 0x%016" PRIx64, x0,
				  x0 == EH_A53_843419_DECOY ? " (what lies one page on)" : "",
				  (uint64_t)EH_A53_843419_EXPECTED);
	} else if (hazards) {
		out->verdict = EH_VERDICT_BENIGN;
		eh_outcome_append(out, "the load read the right value: %s does not show erratum 843419",
				  eh_machine_model(m)->name);
	} else {
		out->verdict = EH_VERDICT_FIXED;
		eh_outcome_append(out, "no erratum sequence ran; the load read the right value");
	}
}

const struct eh_case eh_case_a53_843419 = {
	.id = "a53-843419",
	.commits = commits,
	.shows = "Cortex-A53 erratum 843419: a load through an ADRP at page offset 0xff8 reads the wrong "
		 "address on affected A53s; an ADR (modules) or ld.lld's veneer (vmlinux) removes the sequence",
	.object = "a53-843419.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

/* Case kvm-hcr-vse: the HCR_EL2.VSE hand-back of d3ec3a08fa70, which must not copy TVM into the vcpu. */
#include <inttypes.h>

#include "eh/case.h"
#include "eh/sysreg.h"
#include "../tx2-219-tvm/guest_check.h"

static const struct eh_commit commits[] = {
	{ "d3ec3a08fa70", "arm64: KVM: Trap VM ops when ARM64_WORKAROUND_CAVIUM_TX2_219_TVM is set" },
	{ 0 },
};

/*
 * A vcpu run loop, step by step: a virtual SError pended for the guest, a run in
 * which the guest takes it, the traps deactivated (old or new hand-back of VSE),
 * then a second run in which the guest writes TTBR0_EL1 (the variant's entry).
 */
static const char *const steps_before[] = {
	"kvm_hyp_init", "kvm_reset_vcpu", "kvm_inject_vabt", "kvm_activate_traps", "guest_take_serror",
	"kvm_deactivate_traps_before", "kvm_activate_traps", NULL,
};
static const char *const steps_after[] = {
	"kvm_hyp_init", "kvm_reset_vcpu", "kvm_inject_vabt", "kvm_activate_traps", "guest_take_serror",
	"kvm_deactivate_traps", "kvm_activate_traps", NULL,
};

static const struct eh_steps steps[] = {
	{ "before", steps_before },
	{ "after", steps_after },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "__deactivate_traps copies the whole live HCR_EL2 (TVM included) into the vcpu's copy",
	  "guest_switch_ttbr0" },
	{ "after", "__deactivate_traps carries back only HCR_EL2.VSE", "guest_switch_ttbr0" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "tx2-219" }, EH_VERDICT_BUG },
	{ "before", { .has = "tx2-219" }, EH_VERDICT_BENIGN },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "tx2-219" }, EH_VERDICT_FIXED },
	{ "after", { .has = "tx2-219" }, EH_VERDICT_BENIGN },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ 0 },
};

/* The KVM code's own mutants (cases/tx2-219-tvm/), seen through this run loop. */
static const struct eh_mutant mutants[] = {
	{ "vse-copies-hcr", "EH_MUTANT_VSE_COPIES_HCR",
	  "__deactivate_traps of `after` copies the whole live HCR_EL2 back, as before the fix",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "brk-in-setup", "EH_MUTANT_BRK_IN_SETUP",
	  "a BRK in has_tx2_219_tvm: trap activation never returns, the guest never runs",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "no-ttbr-write", "EH_MUTANT_NO_TTBR_WRITE",
	  "the fast path skips the MSR without performing it: the guest's TTBR0_EL1 is never written",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the guest's TTBR0_EL1 write: no access, nothing changes" },
	{ 0 },
};

/*
 * The vcpu never asks for TVM here, so a trap that reaches the slow path shows
 * the fast path disabled by a TVM bit the host put in the vcpu's copy. Where
 * the kernel does not set TVM at all there is no fast path to lose.
 */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_elf *elf = eh_machine_image(m)->elf;
	struct eh_hyp_summary h;
	uint64_t addr, vcpu_hcr = 0;
	char where[256];

	(void)v;
	eh_trace_summarise_hyp(eh_machine_trace(m), &h);
	if (!eh_elf_resolve(elf, "vcpu", &addr, NULL))
		eh_machine_read(m, addr, &vcpu_hcr, sizeof(vcpu_hcr), NULL);
	if (h.vserrors)
		eh_outcome_append(out, "the guest took the virtual SError at %s; ",
				  eh_machine_where(m, h.first_vserror_pc, where, sizeof(where)));
	else
		eh_outcome_append(out, "the guest took no virtual SError; ");
	eh_outcome_append(out, "the vcpu's HCR_EL2 copy is then 0x%" PRIx64 " (TVM %s)", vcpu_hcr,
			  vcpu_hcr & EH_HCR_TVM ? "set" : "clear");

	eh_outcome_append(out, "; ");
	if (!eh_tvm_guest_switched(m, out)) {
		out->verdict = EH_VERDICT_BUG;
	} else if (h.slow) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "; the next trap, of %s, reached the slow path (%u fast, %u slow)",
				  eh_machine_where(m, h.first_slow_pc, where, sizeof(where)), h.fast, h.slow);
	} else if (h.fast) {
		out->verdict = EH_VERDICT_FIXED;
		eh_outcome_append(out, "; the next trap, of %s, stayed in the fast path (%u fast, %u slow)",
				  eh_machine_where(m, h.first_trap_pc, where, sizeof(where)), h.fast, h.slow);
	} else {
		out->verdict = EH_VERDICT_BENIGN;
		eh_outcome_append(out, "; %s: the kernel sets no TVM, nothing traps",
				  eh_machine_model(m)->name);
	}
}

const struct eh_case eh_case_kvm_hcr_vse = {
	.id = "kvm-hcr-vse",
	.commits = commits,
	.shows = "after a guest takes a virtual SError, __deactivate_traps must hand back only HCR_EL2.VSE: "
		 "copying the live HCR_EL2 puts TVM in the vcpu's copy and sends every later trap to the slow path",
	/* The same KVM code as tx2-219-tvm: both hunks of one commit, built once. */
	.object = "tx2-219-tvm.elf",
	.variants = variants,
	.expect = expect,
	.steps = steps,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

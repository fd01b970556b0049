/* Case tx2-219-tvm: a KVM guest's TTBR0_EL1 write on ThunderX2, before and after d3ec3a08fa70 traps it. */
#include <inttypes.h>

#include "eh/case.h"
#include "eh/sysreg.h"
#include "guest_check.h"

static const struct eh_commit commits[] = {
	{ "d3ec3a08fa70", "arm64: KVM: Trap VM ops when ARM64_WORKAROUND_CAVIUM_TX2_219_TVM is set" },
	{ "93916beb7014", "arm64: Enable workaround for Cavium TX2 erratum 219 when running SMT" },
	{ 0 },
};

/* Each variant's vcpu run up to the guest: hyp init, vcpu reset, (host work), trap activation. */
static const char *const steps_before[] = {
	"kvm_hyp_init", "kvm_reset_vcpu", "kvm_activate_traps_before", NULL,
};
static const char *const steps_after[] = {
	"kvm_hyp_init", "kvm_reset_vcpu", "kvm_activate_traps", NULL,
};
static const char *const steps_vcpu_tvm[] = {
	"kvm_hyp_init", "kvm_reset_vcpu", "kvm_set_way_flush", "kvm_activate_traps", NULL,
};

static const struct eh_steps steps[] = {
	{ "before", steps_before },
	{ "after", steps_after },
	{ "vcpu-tvm", steps_vcpu_tvm },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "5.4 before the commit: HCR_EL2.TVM never set, the guest writes TTBR0_EL1 itself",
	  "guest_switch_ttbr0" },
	{ "after", "TVM set on guest entry when the kernel detects ARM64_WORKAROUND_CAVIUM_TX2_219_TVM; "
	  "the EL2 fast path performs the write", "guest_switch_ttbr0" },
	{ "vcpu-tvm", "the same, but the vcpu itself asked for TVM (set/way emulation): the fast "
	  "path must decline and the host's slow path see the trap", "guest_switch_ttbr0" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "tx2-219" }, EH_VERDICT_BUG },
	{ "before", { .has = "tx2-219" }, EH_VERDICT_BENIGN }, /* SMT off: the kernel rightly leaves TVM off */
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "tx2-219" }, EH_VERDICT_FIXED },
	{ "after", { .has = "tx2-219" }, EH_VERDICT_BENIGN },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "vcpu-tvm", { .has = "tx2-219" }, EH_VERDICT_FIXED },
	{ "vcpu-tvm", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "brk-in-setup", "EH_MUTANT_BRK_IN_SETUP",
	  "a BRK in has_tx2_219_tvm: trap activation never returns, the guest never runs",
	  (const struct eh_row[]){ { "after" }, { "vcpu-tvm" }, { 0 } } },
	{ "no-elr-advance", "EH_MUTANT_NO_ELR_ADVANCE",
	  "the fast path returns without ELR_EL2 += 4: the guest traps on its MSR forever",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "no-ttbr-write", "EH_MUTANT_NO_TTBR_WRITE",
	  "the fast path skips the MSR without performing it: the guest's TTBR0_EL1 is never written",
	  (const struct eh_row[]){ { "after", { .erratum = "tx2-219" } }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the guest's TTBR0_EL1 write: no access, nothing changes" },
	{ 0 },
};

bool eh_tvm_guest_switched(struct eh_machine *m, struct eh_outcome *out)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	uint64_t addr, wrote = 0, now = 0;
	unsigned passes = 0;
	size_t i;

	/* The guest's own writes (not EL2's, which perform a trapped one), and its trapped ones. */
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];

		passes += ev->sysreg == EH_TTBR0_EL1 && ev->thread == 0 &&
			  ((ev->kind == EH_EV_SYSREG_WRITE && !ev->el2) || ev->kind == EH_EV_EL2_ENTRY);
	}
	if (eh_elf_resolve(eh_machine_image(m)->elf, "guest_ttbr0", &addr, NULL) ||
	    eh_machine_read(m, addr, &wrote, sizeof(wrote), NULL) ||
	    eh_machine_sysreg(m, 0, EH_TTBR0_EL1, &now)) {
		eh_outcome_append(out, "cannot read guest_ttbr0 or TTBR0_EL1");
		return false;
	}
	eh_outcome_append(out, "the guest's MSR TTBR0_EL1 passed %u time%s; TTBR0_EL1 holds 0x%016" PRIx64
			  "%s", passes, passes == 1 ? "" : "s", now,
			  now == wrote ? ", the value the guest wrote" : "");
	if (now != wrote)
		eh_outcome_append(out, ", not 0x%016" PRIx64 ", the value the guest wrote: its write was lost",
				  wrote);
	return passes == 1 && now == wrote;
}

/*
 * The bug is a spurious abort drawn by the guest's load in the TTBR window, or
 * a trap the vcpu asked for that the fast path swallowed (or that never came),
 * or a guest write that was not performed exactly once.
 * A window with accesses and nothing injected is benign: this core does not
 * expose the erratum, and the kernel rightly leaves TVM off.
 */
static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	const struct eh_elf *elf = eh_machine_image(m)->elf;
	struct eh_window_summary w;
	struct eh_hyp_summary h;
	uint64_t addr, vcpu_hcr = 0;
	bool vcpu_tvm;
	char where[256];

	(void)v;
	eh_trace_summarise(eh_machine_trace(m), &w);
	eh_trace_summarise_hyp(eh_machine_trace(m), &h);
	if (!eh_elf_resolve(elf, "vcpu", &addr, NULL))
		eh_machine_read(m, addr, &vcpu_hcr, sizeof(vcpu_hcr), NULL);
	vcpu_tvm = vcpu_hcr & EH_HCR_TVM;

	if (h.traps) {
		eh_outcome_append(out, "%s trapped to EL2 (ESR_EL2 0x%08" PRIx64 "); ",
				  eh_machine_where(m, h.first_trap_pc, where, sizeof(where)), h.first_trap_esr);
		if (vcpu_tvm)
			eh_outcome_append(out, "the vcpu asked for TVM (its HCR_EL2 0x%" PRIx64 "): ", vcpu_hcr);
		eh_outcome_append(out, "%u in the fast path (its write at EL2 opens no window), %u in the host's "
				  "slow path", h.fast, h.slow);
	} else {
		eh_outcome_append(out, "no trap: %s writes TTBR0_EL1 itself",
				  eh_machine_where(m, w.first_open_pc, where, sizeof(where)));
	}
	if (w.nfirst)
		eh_outcome_append(out, "; inside the window: %s",
				  eh_machine_where(m, w.first_access_pc[0], where, sizeof(where)));

	eh_outcome_append(out, "; ");
	if (!eh_tvm_guest_switched(m, out)) {
		out->verdict = EH_VERDICT_BUG;
	} else if (w.injected) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "; spurious Data Abort injected on thread %d (%s, %s)", w.victim,
				  w.victim == w.culprit_thread ? "the guest's own thread" : "a sibling thread",
				  w.taken ? "taken" : "idle: recorded");
	} else if (vcpu_tvm && (!h.traps || h.fast)) {
		out->verdict = EH_VERDICT_BUG;
		eh_outcome_append(out, "; the traps the vcpu asked for did not reach its own handling");
	} else if (w.loads || w.stores || w.prefetches) {
		out->verdict = EH_VERDICT_BENIGN;
		eh_outcome_append(out, "; %s does not expose erratum 219: nothing injected",
				  eh_machine_model(m)->name);
	} else {
		out->verdict = EH_VERDICT_FIXED;
		eh_outcome_append(out, "; no guest access in a TTBR window: nothing injected");
	}
}

const struct eh_case eh_case_tx2_219_tvm = {
	.id = "tx2-219-tvm",
	.commits = commits,
	.shows = "ThunderX2 erratum 219 in a KVM guest: with HCR_EL2.TVM set on SMT parts the guest's "
		 "TTBR0_EL1 write traps and EL2 performs it, opening no window; without it the "
		 "guest's load draws a spurious abort",
	.object = "tx2-219-tvm.elf",
	.variants = variants,
	.expect = expect,
	.steps = steps,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};

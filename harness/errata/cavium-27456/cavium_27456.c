/*
 * Cavium ThunderX erratum 27456 (T88 pass 1.x-2.1, T81 pass 1.0): broadcast TLBI instructions may corrupt
 * the instruction cache, so the kernel invalidates it (IC IALLU; DSB NSH; ISB) after each switch of the
 * user address space (post_ttbr_update_workaround, after cpu_do_switch_mm's write of TTBR0_EL1).
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_cavium_27456;

/* IC IALLU and IC IALLUIS (SYS #0, C7, C5 / C1, #0): the whole instruction cache invalidated, this PE's included. */
#define EH_IC_IALLU EH_SYSREG(1, 0, 7, 5, 0)
#define EH_IC_IALLUIS EH_SYSREG(1, 0, 7, 1, 0)

static bool ic_iallu(uint32_t op)
{
	return op == EH_IC_IALLU || op == EH_IC_IALLUIS;
}

/*
 * post_ttbr_update_workaround(): IC IALLU, a DSB completing it, an ISB, in that order. A
 * second IC IALLU needs a DSB of its own, so it starts the sequence over.
 */
static const struct eh_seq workaround = {
	.steps = (const struct eh_seq_step[]){
		{ EH_SEQ_SYS, ic_iallu, "IC IALLU" },
		{ EH_SEQ_DSB, eh_insn_dsb_full, "a DSB after the IC IALLU" },
		{ EH_SEQ_ISB, NULL, "an ISB after the DSB" },
		{ 0 },
	},
	.restart = true,
};

/*
 * Per thread: a write of TTBR0_EL1 at EL1 makes the workaround due. An ERET to EL0
 * while it is due is the hazard: the task may run instructions from a corrupted
 * cache, which the harness does not model, so it is recorded, blamed on the ERET,
 * its value the PC of the write.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct eh_seq_state *s = state;
	uint64_t spsr;

	if (eh_seq_event(&workaround, s, ev))
		return;
	if (ev->kind == EH_EV_SYSREG_WRITE && ev->sysreg == EH_TTBR0_EL1 && !ev->el2) {
		eh_seq_open(s, ev->pc);
		return;
	}
	/* SPSR_EL1.M[3:2] is the exception level the ERET returns to: 0b00 is EL0. */
	if (ev->kind != EH_EV_CTX_SYNC || !(ev->flags & EH_INSN_ERET) || ev->el2 ||
	    eh_machine_sysreg(m, ev->thread, EH_SPSR_EL1, &spsr) || (spsr >> 2) & 3)
		return;
	if (s->due)
		eh_machine_hazard(m, &eh_erratum_cavium_27456, ev, s->anchor);
	s->due = false;
}

static bool writes_ttbr0(uint32_t sysreg)
{
	return sysreg == EH_TTBR0_EL1;
}

static const struct eh_behaviour behaviour = {
	.summary = "an ERET to EL0 after a write of TTBR0_EL1 with no IC IALLU, DSB and ISB since; recorded as a "
		   "hazard: the corrupted instruction cache is not modelled",
	.thread_state = sizeof(struct eh_seq_state),
	.events = EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_SYS) | EH_EV_BIT(EH_EV_BARRIER) |
		  EH_EV_BIT(EH_EV_CTX_SYNC),
	.writes = writes_ttbr0,
	.on_event = on_event,
};

/* How far back the switch's TTBR1_EL1 write may be, and how the path from it is followed. */
#define TTBR1_MAX_WORDS 4
static const struct eh_seq_path path = { .max_insns = 64, .call_depth = 4 };

/*
 * A switch of the user address space: a write of TTBR0_EL1 of the live regime
 * that a write of TTBR1_EL1 (the ASID, TCR_EL1.A1) shortly precedes, as in
 * cpu_do_switch_mm() and, with CONFIG_ARM64_SW_TTBR0_PAN, __uaccess_ttbr0_enable
 * on the way to EL0. From it, the path (eh_rule_next, into direct calls and back
 * from their returns) must run IC IALLU, a DSB and an ISB, in that order, before
 * the function that wrote returns or the path ends. The reserved TTBR0 that
 * cpu_set_reserved_ttbr0() installs, KVM's guest registers and the idmap's
 * early switches are no switch of the user's space and are not checked; so is
 * not SW PAN's uaccess_ttbr0_enable() in C, which 6.1 leaves without the
 * workaround (the return to EL0 runs it): with that option on, the rule reports it.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn last, prev;
	const char *why;
	unsigned stage;
	bool switch_mm = false;
	long d;

	if (!(in->flags & EH_INSN_TTBR_WRITE) || in->sysreg != EH_TTBR0_EL1 || !eh_rule_runs(ctx, in, &why) ||
	    !eh_regime_live(eh_regime_of_ttbr_write(in->sysreg, eh_rule_run_el(ctx, in, &why))))
		return 0;
	for (d = 1; d <= TTBR1_MAX_WORDS && !switch_mm && !eh_rule_neighbour(ctx, in, -d, &prev); d++)
		switch_mm = prev.flags & EH_INSN_MSR && prev.sysreg == EH_TTBR1_EL1;
	if (!switch_mm || !eh_seq_follow(ctx, &workaround, &path, in, &last, &stage))
		return 0;
	return eh_rule_report(ctx, in, in->addr, "msr ttbr0_el1",
			      "a switch of the user address space with no IC IALLU; DSB; ISB after it before %s (%s "
			      "missing): the task may run from an instruction cache a broadcast TLBI corrupted",
			      last.text, workaround.steps[stage].missing);
}

static const struct eh_rule rule = {
	.summary = "each switch of the user address space (a TTBR0_EL1 write shortly after one of TTBR1_EL1, as in "
		   "cpu_do_switch_mm) followed by IC IALLU, DSB and ISB before its function returns, calls followed",
	.triggers = eh_seq_ttbr0_write_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, CAVIUM_ERRATUM_27456",
	"Linux arch/arm64/kernel/cpu_errata.c, cavium_erratum_27456_cpus[]",
	"Linux arch/arm64/mm/context.c, post_ttbr_update_workaround(): ic iallu; dsb nsh; isb (alternative on "
	"ARM64_WORKAROUND_CAVIUM_27456), called by cpu_do_switch_mm() and, with ARM64_SW_TTBR0_PAN, "
	"__swpan_exit_el0 in kernel/entry.S",
	"Linux arch/arm64/kernel/cpufeature.c, unmap_kernel_at_el0(): KPTI off on these parts, so the trampoline "
	"never switches TTBR0",
	"Linux 104a0c02e8b1 (arm64: Add workaround for Cavium erratum 27456)",
	NULL,
};

const struct eh_erratum eh_erratum_cavium_27456 = {
	.id = "cavium-27456",
	.title = "Cavium ThunderX erratum 27456: broadcast TLBI may corrupt the instruction cache, which must be "
		 "invalidated after each switch of the user address space",
	.cpus = eh_cavium_27456_cpus,
	.capability = "ARM64_WORKAROUND_CAVIUM_27456",
	.kconfig = "CONFIG_CAVIUM_ERRATUM_27456",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

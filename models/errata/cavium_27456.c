/*
 * Cavium ThunderX erratum 27456 (T88 pass 1.x-2.1, T81 pass 1.0): broadcast TLBI instructions may corrupt
 * the instruction cache, so the kernel invalidates it (IC IALLU; DSB NSH; ISB) after each switch of the
 * user address space (post_ttbr_update_workaround, after cpu_do_switch_mm's write of TTBR0_EL1).
 */
#include "eh/erratum.h"
#include "eh/insn.h"
#include "eh/machine.h"
#include "eh/regime.h"
#include "eh/rule.h"
#include "eh/sysreg.h"
#include "caps.h"

extern const struct eh_erratum eh_erratum_cavium_27456;

/* IC IALLU and IC IALLUIS (SYS #0, C7, C5 / C1, #0): the whole instruction cache invalidated, this PE's included. */
#define EH_IC_IALLU EH_SYSREG(1, 0, 7, 5, 0)
#define EH_IC_IALLUIS EH_SYSREG(1, 0, 7, 1, 0)

static bool ic_iallu(uint32_t op)
{
	return op == EH_IC_IALLU || op == EH_IC_IALLUIS;
}

/* IC IALLU or IC IALLUIS (they take no register: Rt is XZR). */
static bool ic_iallu_word(uint32_t word)
{
	return word == 0xd508751f || word == 0xd508711f;
}

/* How far the workaround is after a switch: none of it, IC IALLU, then the DSB; the ISB ends it. */
enum stage { STAGE_NONE, STAGE_IC, STAGE_DSB };

struct thread_state {
	bool due;           /* TTBR0_EL1 written at EL1 and the instruction cache not invalidated since */
	enum stage stage;
	uint64_t write_pc;
};

/*
 * Per thread: a write of TTBR0_EL1 at EL1 makes the invalidation due: IC IALLU,
 * a DSB completing it, an ISB, in that order. An ERET to EL0 while it is due is
 * the hazard: the task may run instructions from a corrupted cache, which the
 * harness does not model, so it is recorded, blamed on the ERET, its value the PC
 * of the write.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	uint64_t spsr;

	switch (ev->kind) {
	case EH_EV_SYSREG_WRITE:
		if (ev->sysreg == EH_TTBR0_EL1 && !ev->el2)
			*s = (struct thread_state){ .due = true, .stage = STAGE_NONE, .write_pc = ev->pc };
		break;
	case EH_EV_SYS:
		if (s->due && ic_iallu(ev->sysreg))
			s->stage = STAGE_IC;
		break;
	case EH_EV_BARRIER:
		if (s->due && s->stage == STAGE_IC && ev->flags & EH_INSN_DSB && eh_insn_dsb_full((unsigned)ev->value))
			s->stage = STAGE_DSB;
		break;
	case EH_EV_CTX_SYNC:
		if (ev->flags & EH_INSN_ISB) {
			if (s->due && s->stage == STAGE_DSB)
				s->due = false;
			break;
		}
		/* SPSR_EL1.M[3:2] is the exception level the ERET returns to: 0b00 is EL0. */
		if (!(ev->flags & EH_INSN_ERET) || ev->el2 || eh_machine_sysreg(m, ev->thread, EH_SPSR_EL1, &spsr) ||
		    (spsr >> 2) & 3)
			break;
		if (s->due)
			eh_machine_hazard(m, &eh_erratum_cavium_27456, ev, s->write_pc);
		s->due = false;
		break;
	default:
		break;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "an ERET to EL0 after a write of TTBR0_EL1 with no IC IALLU, DSB and ISB since; recorded as a "
		   "hazard: the corrupted instruction cache is not modelled",
	.thread_state = sizeof(struct thread_state),
	.on_event = on_event,
};

/* MSR TTBR0_EL1, Xt: every bit but Rt (4:0), that is op0 3, op1 0, CRn 2, CRm 0, op2 0. */
static const struct eh_rule_trigger ttbr0_write_words[] = { { 0xffffffe0, 0xd5182000 }, { 0 } };

/* RET Xn: the return a call's stack pops; every bit but Rn (9:5). */
static bool is_ret(uint32_t word)
{
	return (word & 0xfffffc1f) == 0xd65f0000;
}

/* How far back the switch's TTBR1_EL1 write may be, how far the path may run, and how deep its calls. */
#define TTBR1_MAX_WORDS 4
#define PATH_MAX_INSNS 64
#define CALL_DEPTH 4

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
	static const char *const missing[] = { "IC IALLU", "a DSB after the IC IALLU", "an ISB after the DSB" };
	uint64_t stack[CALL_DEPTH];
	struct eh_insn cur = *in, next;
	enum stage stage = STAGE_NONE;
	const char *why;
	size_t n, depth = 0;
	bool switch_mm = false;
	long d;

	if (!(in->flags & EH_INSN_TTBR_WRITE) || in->sysreg != EH_TTBR0_EL1 || !eh_rule_runs(ctx, in, &why) ||
	    !eh_regime_live(eh_regime_of_ttbr_write(in->sysreg, eh_rule_run_el(ctx, in, &why))))
		return 0;
	for (d = 1; d <= TTBR1_MAX_WORDS && !switch_mm && !eh_rule_neighbour(ctx, in, -d, &next); d++)
		switch_mm = next.flags & EH_INSN_MSR && next.sysreg == EH_TTBR1_EL1;
	if (!switch_mm)
		return 0;
	for (n = 0; n < PATH_MAX_INSNS; n++) {
		if (cur.flags & EH_INSN_CALL && !(cur.flags & EH_INSN_INDIRECT) && depth < CALL_DEPTH) {
			stack[depth++] = cur.addr + 4;
			if (eh_rule_insn_at(ctx, cur.target, &next))
				break;
		} else if (is_ret(cur.word) && depth) {
			if (eh_rule_insn_at(ctx, stack[--depth], &next))
				break;
		} else if (eh_rule_next(ctx, &cur, &next)) {
			break;
		}
		cur = next;
		if (stage == STAGE_NONE && ic_iallu_word(cur.word))
			stage = STAGE_IC;
		else if (stage == STAGE_IC && cur.flags & EH_INSN_DSB && eh_insn_dsb_full(EH_BARRIER_OPTION(cur.word)))
			stage = STAGE_DSB;
		else if (stage == STAGE_DSB && cur.flags & EH_INSN_ISB)
			return 0;
	}
	return eh_rule_report(ctx, in, in->addr, "msr ttbr0_el1",
			      "a switch of the user address space with no IC IALLU; DSB; ISB after it before %s (%s "
			      "missing): the task may run from an instruction cache a broadcast TLBI corrupted",
			      cur.text, missing[stage]);
}

static const struct eh_rule rule = {
	.summary = "each switch of the user address space (a TTBR0_EL1 write shortly after one of TTBR1_EL1, as in "
		   "cpu_do_switch_mm) followed by IC IALLU, DSB and ISB before its function returns, calls followed",
	.triggers = ttbr0_write_words,
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

/*
 * Arm Cortex-A710 erratum 2054223 and Neoverse N2 erratum 2067961: one TSB CSYNC may not flush the trace
 * buffer; the kernel issues a second one (asm/barrier.h tsb_csync()) where the CPU needs it.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"

extern const struct eh_erratum eh_erratum_tsb_flush_failure;

/* TSB CSYNC is HINT #18 (Arm ARM C6.2: HINT with CRm 0b0010, op2 0b010); it is a NOP where FEAT_TRF is not. */
#define TSB_CSYNC_WORD 0xd503225fu

static const struct eh_rule_trigger tsb_csync_words[] = { { 0xffffffff, TSB_CSYNC_WORD }, { 0 } };

static bool tsb_csync(uint32_t word)
{
	return word == TSB_CSYNC_WORD;
}

struct thread_state {
	unsigned tsbs;      /* TSB CSYNCs since the last DSB */
	uint64_t tsb_pc;    /* the last of them */
};

/*
 * Per thread, the TSB CSYNCs since the last DSB: the DSB that follows a trace flush
 * (__debug_save_trace()'s dsb(nsh)) is where the trace must be in memory, so a DSB
 * after exactly one TSB CSYNC is the hazard, blamed on the DSB, its value the PC of
 * the TSB CSYNC. The engine models no trace unit, so there is no lost trace to show:
 * the hazard is recorded on every model.
 */
/* The instructions it follows: TSB CSYNC. */
static bool wants_tsb(uint64_t pc, uint32_t word)
{
	(void)pc;
	return tsb_csync(word);
}

static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;

	if (ev->kind == EH_EV_INSN && tsb_csync((uint32_t)ev->addr)) {
		s->tsbs++;
		s->tsb_pc = ev->pc;
	} else if (ev->kind == EH_EV_BARRIER && ev->flags & EH_INSN_DSB) {
		if (s->tsbs == 1)
			eh_machine_hazard(m, &eh_erratum_tsb_flush_failure, ev, s->tsb_pc);
		s->tsbs = 0;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a DSB after a single TSB CSYNC (since the last DSB); recorded as a hazard: the trace unit "
		   "is not modelled",
	.thread_state = sizeof(struct thread_state),
	.insns = true,      /* a TSB CSYNC is a hint: no event of its own */
	.events = EH_EV_BIT(EH_EV_INSN) | EH_EV_BIT(EH_EV_BARRIER),
	.wants = wants_tsb,
	.on_event = on_event,
};

/* An unconditional direct branch (B): the word after it is reached only by branches to it. */
static bool plain_branch(const struct eh_insn *in)
{
	return (in->flags & EH_INSN_BRANCH) &&
	       !(in->flags & (EH_INSN_COND | EH_INSN_CALL | EH_INSN_INDIRECT | EH_INSN_ERET | EH_INSN_EXC_GEN));
}

/* How far a straight path is followed: tsb_csync() compiles to a pair at most a branch or two apart. */
#define STRAIGHT_STEPS 4

/* The next instruction on in's straight path that is not a B (eh_rule_next, through B): 0, or EH_ENOENT. */
static int straight_next(struct eh_rule_ctx *ctx, const struct eh_insn *in, struct eh_insn *out)
{
	struct eh_insn at = *in;
	int steps;

	for (steps = 0; steps < STRAIGHT_STEPS; steps++) {
		if (eh_rule_next(ctx, &at, out))
			return EH_ENOENT;
		if (!plain_branch(out))
			return 0;
		at = *out;
	}
	return EH_ENOENT;
}

/*
 * Whether in is the second TSB CSYNC of a pair: the word before it is a TSB CSYNC
 * (which falls through to it), or a B (patched from tsb_csync()'s NOP by the
 * alternative of cpus_have_final_cap()) whose straight path runs through a TSB
 * CSYNC that goes on to in: the shape the compiler gives the macro, the first TSB
 * CSYNC out of line, branching back.
 */
static bool second_of_pair(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn prev, q, next;
	int steps;

	if (eh_rule_neighbour(ctx, in, -1, &prev))
		return false;
	if (tsb_csync(prev.word))
		return true;
	if (!plain_branch(&prev) || eh_rule_insn_at(ctx, prev.target, &q))
		return false;
	for (steps = 0; steps < STRAIGHT_STEPS; steps++) {
		if (tsb_csync(q.word))
			return !straight_next(ctx, &q, &next) && next.addr == in->addr;
		if (eh_rule_next(ctx, &q, &next))
			return false;
		q = next;
	}
	return false;
}

/*
 * Whether in never runs: the word before it is an alternative's B (the patched NOP of
 * cpus_have_final_cap()) whose straight path runs into a pair of TSB CSYNCs. That is
 * the shape gcc gives tsb_csync() in Linux 6.12 (kvm/hyp/nvhe/debug-sr.c): the path of
 * a CPU without the erratum inline, NOP then one TSB CSYNC, and the pair out of line.
 */
static bool bypassed(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn prev, q, next;
	int steps;

	if (eh_rule_neighbour(ctx, in, -1, &prev) || !plain_branch(&prev) || !eh_rule_site(ctx, prev.addr) ||
	    eh_rule_insn_at(ctx, prev.target, &q))
		return false;
	for (steps = 0; steps < STRAIGHT_STEPS; steps++) {
		if (tsb_csync(q.word))
			return !straight_next(ctx, &q, &next) && tsb_csync(next.word);
		if (eh_rule_next(ctx, &q, &next))
			return false;
		q = next;
	}
	return false;
}

/*
 * On the image as patched, every TSB CSYNC that runs on the target is one of a pair:
 * the next instruction on its straight path (through B) is another, or it is
 * that other (second_of_pair), or an alternative branches over it to a pair (bypassed). Where the capability is not detected, the alternative
 * leaves a NOP and the out-of-line TSB CSYNC is never reached: the lone one is
 * reported (on a model the erratum does not affect, the audit calls it not affected).
 * A branch into the second from elsewhere is not seen: the rule knows the shapes
 * tsb_csync() compiles to, not every path.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn next;
	const char *why;

	if (!eh_rule_runs(ctx, in, &why))
		return 0;
	if (!straight_next(ctx, in, &next) && tsb_csync(next.word))
		return 0;
	if (second_of_pair(ctx, in) || bypassed(ctx, in))
		return 0;
	return eh_rule_report(ctx, in, 0, "tsb csync",
			      "a single TSB CSYNC (no second one next to it on its straight path): on Cortex-A710 and "
			      "Neoverse N2 one may leave trace data unflushed");
}

static const struct eh_rule rule = {
	.summary = "every TSB CSYNC that runs on the target is one of a pair on its straight path (tsb_csync()), "
		   "in host and hyp code",
	.triggers = tsb_csync_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_2054223, ARM64_ERRATUM_2067961, "
	"ARM64_WORKAROUND_TSB_FLUSH_FAILURE",
	"Linux fa82d0b4b833 (arm64: errata: Add workaround for TSB flush failures): tsb_csync() in "
	"asm/barrier.h, used by kvm/hyp/nvhe/debug-sr.c __debug_save_trace()",
	"Arm Cortex-A710 Software Developer Errata Notice, erratum 2054223; Arm Neoverse N2 Software Developer "
	"Errata Notice, erratum 2067961",
	NULL,
};

const struct eh_erratum eh_erratum_tsb_flush_failure = {
	.id = "tsb-flush-failure",
	.title = "Cortex-A710 erratum 2054223, Neoverse N2 erratum 2067961: one TSB CSYNC may not flush the "
		 "trace buffer",
	.cpus = eh_tsb_flush_fail_cpus,
	.capability = "ARM64_WORKAROUND_TSB_FLUSH_FAILURE",
	/* Not in the 5.4 numbering (harness/src/image/cpucaps.c): the workaround came after 5.4. */
	.since = (const struct eh_erratum_since[]){ { "6.1", "ARM64_WORKAROUND_TSB_FLUSH_FAILURE" }, { 0 } },
	.kconfig = "CONFIG_ARM64_WORKAROUND_TSB_FLUSH_FAILURE",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

/*
 * Arm Cortex-A77 erratum 1508412 (r0p0, r1p0): a read of PAR_EL1 close to a load with Device or
 * Non-cacheable attributes can deadlock the core; the kernel brackets every read with DMB SY.
 */
#include <stddef.h>

#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_a77_1508412;

/* MRS Xt, PAR_EL1 (op0 3, op1 0, CRn 7, CRm 4, op2 0). */
static const struct eh_rule_trigger par_read_words[] = { { 0xffffffe0, 0xd5387400 }, { 0 } };

static bool par_read(uint32_t word)
{
	return eh_rule_triggered(par_read_words, word);
}

struct thread_state {
	bool par;           /* a PAR_EL1 read since the last DMB SY, and no load since: first (.gated) */
	uint64_t loads;     /* the thread's loads at the last DMB SY or PAR_EL1 read (eh_machine_accessed) */
	uint64_t par_pc;
};

_Static_assert(offsetof(struct thread_state, par) == 0, ".gated: the thread state starts with its bool");

/*
 * Per thread, a PAR_EL1 read and a load with no DMB SY between them, in either
 * order (96d389ca1011 puts one before and one after each read, and one before the
 * exception returns that may land between them: an interrupt taken between the
 * first DMB and the read makes loads of its own). The engine does not know memory
 * types, so every load stands for one that may be Device or Non-cacheable; and a
 * deadlock has no architectural trace, so the hazard is recorded on every model,
 * blamed on the second of the pair, its value the PC of the first. A load before
 * the read is known by the thread's count of loads; a load after it is heard, and
 * only while a read waits for one (.gated).
 */
/* The instructions it follows: MRS of PAR_EL1. */
static bool wants_par(uint64_t pc, uint32_t word)
{
	(void)pc;
	return par_read(word);
}

static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	const struct eh_accessed *a = eh_machine_accessed(m, ev->thread);

	/* The barrier the workaround uses: DMB SY, or DSB SY, which orders at least as much. */
	if (eh_seq_event_barrier_sy(ev)) {
		s->par = false;
		s->loads = a->loads;
	} else if (ev->kind == EH_EV_INSN && par_read((uint32_t)ev->addr)) {
		if (a->loads != s->loads)
			eh_machine_hazard(m, &eh_erratum_a77_1508412, ev, a->load_pc);
		s->loads = a->loads;
		s->par = true;
		s->par_pc = ev->pc;
	} else if (ev->kind == EH_EV_ACCESS) {  /* a load (.accesses) while par (.gated) */
		s->par = false;
		eh_machine_hazard(m, &eh_erratum_a77_1508412, ev, s->par_pc);
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a PAR_EL1 read and a load with no DMB SY between them, in either order, across exceptions; "
		   "recorded as a hazard: a deadlock has no trace, and memory types are not modelled",
	.thread_state = sizeof(struct thread_state),
	.insns = true,      /* an MRS of PAR_EL1 is no event of its own: the model serves no such register */
	.events = EH_EV_BIT(EH_EV_INSN) | EH_EV_BIT(EH_EV_BARRIER) | EH_EV_BIT(EH_EV_ACCESS),
	.wants = wants_par,
	.accesses = EH_INSN_LOAD,
	.gated = true,      /* a load matters here only while a read waits for one */
	.on_event = on_event,
};

/*
 * Every PAR_EL1 read with DMB SY as the instructions right before and after it, as
 * read_sysreg_par() places them, in code that runs on the image's target (KVM's nVHE
 * hyp code does not under VHE). The finding is anchored at the neighbour that should
 * have been the barrier.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn before = { 0 }, after = { 0 };
	bool ok_before, ok_after;
	const char *why;

	if (!eh_rule_runs(ctx, in, &why))
		return 0;
	ok_before = !eh_rule_neighbour(ctx, in, -1, &before) && eh_seq_insn_barrier_sy(&before);
	ok_after = !eh_rule_neighbour(ctx, in, 1, &after) && eh_seq_insn_barrier_sy(&after);
	if (ok_before && ok_after)
		return 0;
	return eh_rule_report(ctx, in, ok_before ? after.addr : before.addr, "mrs par_el1",
			      "a read of PAR_EL1 without DMB SY %s it (before: %s; after: %s): next to a Device or "
			      "Non-cacheable load it can deadlock the core",
			      ok_before ? "after" : ok_after ? "before" : "around",
			      before.addr ? before.text : "nothing", after.addr ? after.text : "nothing");
}

static const struct eh_rule rule = {
	.summary = "every MRS of PAR_EL1 with DMB SY right before and after it (read_sysreg_par()), in code that "
		   "runs on the target",
	.triggers = par_read_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_1508412",
	"Linux 96d389ca1011 (arm64: Add workaround for Arm Cortex-A77 erratum 1508412): read_sysreg_par() "
	"in asm/sysreg.h, the DMB SY before the EL1 ERET in entry.S and before guest entry in "
	"kvm/hyp/include/hyp/switch.h",
	"Arm Cortex-A77 Software Developer Errata Notice SDEN-1152370",
	NULL,
};

const struct eh_erratum eh_erratum_a77_1508412 = {
	.id = "a77-1508412",
	.title = "Cortex-A77 erratum 1508412: a PAR_EL1 read and a Device or Non-cacheable load with no "
		 "DMB SY between them can deadlock",
	.cpus = eh_erratum_1508412_cpus,
	.capability = "ARM64_WORKAROUND_1508412",
	/* Not in the 5.4 numbering (harness/src/image/cpucaps.c): the workaround came after 5.4. */
	.since = (const struct eh_erratum_since[]){ { "6.1", "ARM64_WORKAROUND_1508412" }, { 0 } },
	.kconfig = "CONFIG_ARM64_ERRATUM_1508412",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

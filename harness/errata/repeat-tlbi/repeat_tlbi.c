/*
 * REPEAT_TLBI (Qualcomm Falkor E1009, Cortex-A76 1286807, A55 2441007, A510 2441009, the 4118414
 * list): a broadcast TLBI;DSB can complete before the memory accesses that used the invalidated
 * entries are globally observed, so the kernel follows it with a second broadcast TLBI;DSB.
 */
#include <stddef.h>

#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_repeat_tlbi;

/*
 * Whether TLBI operation op (bits 20:5 of the word, Arm ARM C5.5) is broadcast to
 * the other PEs of the shareability domain: the Inner and Outer Shareable forms.
 * By CRm: 3 Inner Shareable, 1 Outer Shareable, 2 and 5 their range forms, 6 and 7
 * this PE only; at EL2 (op1 4) CRm 0 holds IPAS2(L)E1IS and RIPAS2(L)E1IS, and
 * CRm 4 the IPA forms, Outer Shareable for op2 0, 3, 4 and 7.
 */
static bool tlbi_broadcast(uint32_t op)
{
	unsigned op1 = EH_SYSREG_OP1(op), crm = EH_SYSREG_CRM(op), op2 = EH_SYSREG_OP2(op);

	switch (crm) {
	case 1: case 2: case 3: case 5:
		return true;
	case 0:
		return op1 == 4;
	case 4:
		return op1 == 4 && (op2 == 0 || op2 == 3 || op2 == 4 || op2 == 7);
	default:
		return false;
	}
}

/*
 * The repeat itself: a TLBI by address with XZR as its operand (VA 0, ASID 0, which
 * no kernel mapping uses), the kernel's `tlbi vale1is, xzr` and `tlbi vale2is, xzr`.
 * The operations that take an address have an odd op2, or are the IPA forms (op1 4,
 * CRm 0 or 4); the others (VMALLE1, ASIDE1, ALLE1, ...) invalidate real entries
 * whatever their operand.
 */
static bool tlbi_is_repeat(uint32_t op, unsigned rt)
{
	unsigned op1 = EH_SYSREG_OP1(op), crm = EH_SYSREG_CRM(op);
	bool by_address = (op1 == 4 && (crm == 0 || crm == 4)) || (EH_SYSREG_OP2(op) & 1);

	return by_address && rt == 31;
}

struct thread_state {
	bool due;           /* a DSB completed a broadcast TLBI that invalidated something: the next TLBI;DSB
			       must come first (first: .gated) */
	bool issued;        /* broadcast TLBIs issued since the last completing DSB */
	bool issued_new;    /* ... one of them invalidating something the last completed ones did not */
	uint64_t dsb_pc;    /* that DSB */
	uint32_t op;        /* the last broadcast TLBI issued that invalidates something: its operation */
	uint64_t operand;   /* ... and operand */
	uint32_t done_op;   /* the last one a completing DSB completed */
	uint64_t done_operand;
};

/*
 * Per thread: a completing DSB of a broadcast TLBI that invalidated something makes
 * a repeat due; the next broadcast TLBI;DSB is that repeat (any broadcast operation
 * will do, the additional DSB any option that completes it: a8f78680ee6b). A repeat
 * that invalidates something new (KVM's VMALLE1IS after its IPAS2E1IS) is due a repeat
 * of its own; one that issues the same operation and operand again (d9ff80f83ecb)
 * or a TLBI by address of XZR is not. A load or store while the repeat is due relies
 * on a completion the erratum does not give: the writes made through the invalidated
 * entries may not be observed yet. The engine has one core, so the other observers
 * are not modelled: the hazard is recorded, on every model, and nothing is corrupted.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	const struct eh_insn *in;

	switch (ev->kind) {
	case EH_EV_SYS:
		if (!(ev->flags & EH_INSN_TLBI) || !tlbi_broadcast(ev->sysreg))
			break;
		in = eh_machine_insn(m, ev->pc);
		s->issued = true;
		if (in && tlbi_is_repeat(ev->sysreg, in->rt))
			break;
		s->op = ev->sysreg;
		s->operand = ev->value;
		s->issued_new |= !s->due || s->op != s->done_op || s->operand != s->done_operand;
		break;
	case EH_EV_BARRIER:
		if (!eh_seq_event_dsb_broadcast(ev) || !s->issued)
			break;
		s->due = s->issued_new;
		s->dsb_pc = ev->pc;
		s->done_op = s->op;
		s->done_operand = s->operand;
		s->issued = s->issued_new = false;
		break;
	case EH_EV_ACCESS:  /* a load or a store (.accesses) */
		if (!s->due)
			break;
		s->due = false;
		eh_machine_hazard(m, &eh_erratum_repeat_tlbi, ev, s->dsb_pc);
		break;
	default:
		break;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a load or store while the repeat of a completed broadcast TLBI;DSB is due (the next broadcast "
		   "TLBI;DSB is that repeat); recorded as a hazard: the other observers are not modelled",
	.thread_state = sizeof(struct thread_state),
	.events = EH_EV_BIT(EH_EV_SYS) | EH_EV_BIT(EH_EV_BARRIER) | EH_EV_BIT(EH_EV_ACCESS),
	.accesses = EH_INSN_LOAD | EH_INSN_STORE,
	.gated = true,      /* an access matters only while the repeat is due */
	.on_event = on_event,
};
_Static_assert(offsetof(struct thread_state, due) == 0, ".gated: the thread state starts with its bool");

/* TLBI: SYS with CRn 8 (Arm ARM C5.5). */
static const struct eh_rule_trigger tlbi_words[] = { { 0xfff8f000, 0xd5088000 }, { 0 } };

static bool broadcast(const struct eh_insn *in)
{
	return in->flags & EH_INSN_TLBI && tlbi_broadcast(in->sysreg);
}

/* The next instruction on in's straight path that is not an unconditional branch (a few taken at most). */
static int next_past_branches(struct eh_rule_ctx *ctx, const struct eh_insn *in, struct eh_insn *out)
{
	struct eh_insn branch;
	int hops;

	if (eh_rule_next(ctx, in, out))
		return EH_ENOENT;
	for (hops = 0; hops < 4 && out->flags & EH_INSN_BRANCH &&
	     !(out->flags & (EH_INSN_COND | EH_INSN_CALL | EH_INSN_INDIRECT)); hops++) {
		branch = *out;
		if (eh_rule_next(ctx, &branch, out))
			return EH_ENOENT;
	}
	return 0;
}

/* How far the rule follows the code from a TLBI to the DSBs that complete it. */
#define FOLLOW_MAX 128

/*
 * DSB D completes the broadcast TLBI T: the next instructions on D's straight path
 * must be the repeat, a broadcast TLBI then a DSB that completes it (through the
 * branch alternative_has_feature_unlikely() patches in: a8f78680ee6b).
 */
static int check_repeat(struct eh_rule_ctx *ctx, const struct eh_insn *t, const struct eh_insn *d)
{
	struct eh_insn tlbi = { 0 }, dsb = { 0 };
	char where[128];

	if (!next_past_branches(ctx, d, &tlbi) && broadcast(&tlbi) && !next_past_branches(ctx, &tlbi, &dsb) &&
	    eh_seq_insn_dsb_broadcast(&dsb))
		return 0;
	return eh_rule_report(ctx, d, t->addr, "dsb",
			      "completes the broadcast TLBI at %s with no second broadcast TLBI;DSB after it (next: %s): "
			      "the accesses made through the invalidated entries may not be observed yet",
			      eh_rule_where(ctx, t->addr, where, sizeof(where)), tlbi.addr ? tlbi.text : "nothing");
}

/*
 * Every broadcast TLBI that invalidates something (not the repeat itself, a TLBI by
 * address of XZR, nor the same TLBI again right after the DSB that completed it:
 * d9ff80f83ecb's repeat), followed on every path (both ways at conditional branches,
 * over calls) to the DSBs that complete it, each of which must be followed straight
 * by a second broadcast TLBI;DSB, as a8f78680ee6b places it (d9ff80f83ecb's repeat
 * inside a loop is not that shape). A path that returns, branches indirectly or meets
 * another broadcast TLBI (which answers for the rest) ends without one.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	uint64_t todo[FOLLOW_MAX], seen[FOLLOW_MAX];
	size_t ntodo = 0, nseen = 0, i;
	struct eh_insn cur;
	const char *why;
	int rc = 0;

	if (!broadcast(in) || tlbi_is_repeat(in->sysreg, in->rt) || !eh_rule_runs(ctx, in, &why) ||
	    (!eh_rule_neighbour(ctx, in, -1, &cur) && eh_seq_insn_dsb_broadcast(&cur) &&
	     !eh_rule_neighbour(ctx, in, -2, &cur) && cur.word == in->word))
		return 0;
	todo[ntodo++] = in->addr + 4;
	while (ntodo && !rc) {
		uint64_t addr = todo[--ntodo];

		for (i = 0; i < nseen && seen[i] != addr; i++)
			;
		if (i < nseen || nseen == FOLLOW_MAX || eh_rule_insn_at(ctx, addr, &cur))
			continue;
		seen[nseen++] = addr;
		if (eh_seq_insn_dsb_broadcast(&cur)) {
			rc = check_repeat(ctx, in, &cur);
			continue;
		}
		if ((broadcast(&cur) && !tlbi_is_repeat(cur.sysreg, cur.rt)) ||
		    cur.flags & (EH_INSN_INDIRECT | EH_INSN_ERET | EH_INSN_EXC_GEN | EH_INSN_INVALID))
			continue;
		if (cur.flags & EH_INSN_BRANCH && !(cur.flags & EH_INSN_CALL) && ntodo < FOLLOW_MAX)
			todo[ntodo++] = cur.target;
		if ((!(cur.flags & EH_INSN_BRANCH) || cur.flags & (EH_INSN_COND | EH_INSN_CALL)) && ntodo < FOLLOW_MAX)
			todo[ntodo++] = addr + 4;
	}
	return rc;
}

static const struct eh_rule rule = {
	.summary = "every DSB completing a broadcast TLBI (followed from the TLBI on every path) is followed by a "
		   "second broadcast TLBI;DSB, in host and hyp code",
	.triggers = tlbi_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig: QCOM_FALKOR_ERRATUM_1009, ARM64_ERRATUM_1286807, ARM64_ERRATUM_2441007, "
	"ARM64_ERRATUM_2441009, ARM64_ERRATUM_4118414 (all select ARM64_WORKAROUND_REPEAT_TLBI)",
	"Linux arch/arm64/kernel/cpu_errata.c, arm64_repeat_tlbi_list[]",
	"Linux d9ff80f83ecb (arm64: Work around Falkor erratum 1009)",
	"Linux a8f78680ee6b (arm64: tlb: Optimize ARM64_WORKAROUND_REPEAT_TLBI): the repeat after the "
	"completing DSB, `tlbi vale1is, xzr; dsb ish` (vale2is in hyp code)",
	"Arm Cortex-A76 SDEN-885749 (1286807), Cortex-A55 SDEN-859338 (2441007), Cortex-A510 SDEN-1873351 "
	"(2441009)",
	NULL,
};

const struct eh_erratum eh_erratum_repeat_tlbi = {
	.id = "repeat-tlbi",
	.title = "Broadcast TLBI;DSB completes before the accesses through the invalidated entries are "
		 "observed (Falkor E1009, Cortex-A76 1286807, A55 2441007, A510 2441009, 4118414)",
	.cpus = eh_repeat_tlbi_cpus,
	.also_affects = eh_cpus_kryo_2xx,
	.also_affects_cpus = "Qualcomm parts 0x2XX (is_kryo_midr)",
	.capability = "ARM64_WORKAROUND_REPEAT_TLBI",
	.kconfig = "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

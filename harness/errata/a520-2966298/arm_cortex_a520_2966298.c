/*
 * Arm Cortex-A520 erratum 2966298 (r0p0, r0p1): a speculatively executed unprivileged load can leak
 * privileged data through the cache unless a non-shareable TLBI and a DSB NSH follow the last explicit
 * memory access before the return to EL0.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_a520_2966298;

/* TLBI operations for this PE only (CRm 6 and 7, and the local IPA forms): Arm ARM C5.5. */
static bool tlbi_local(uint32_t op)
{
	unsigned crm = EH_SYSREG_CRM(op), op2 = EH_SYSREG_OP2(op);

	return crm == 6 || crm == 7 || (EH_SYSREG_OP1(op) == 4 && crm == 4 && (op2 == 1 || op2 == 2 || op2 == 5 || op2 == 6));
}

struct thread_state {
	bool tlbi;          /* a local TLBI since the last return to EL0 */
	bool done;          /* ... the last of them completed by a DSB, with no access between */
	uint64_t accesses;  /* the thread's loads and stores when that TLBI ran (eh_machine_accessed) */
};

/* The loads and stores thread has made. */
static uint64_t accesses(const struct eh_machine *m, unsigned thread)
{
	const struct eh_accessed *a = eh_machine_accessed(m, thread);

	return a->loads + a->stores;
}

/*
 * Per thread: at an ERET to EL0 (SPSR_EL1.M[3:2] = 0, read as the ERET is about to
 * run), the workaround is in place when a local TLBI and a DSB completing it came
 * after the last load or store: no access since the TLBI, by the thread's count.
 * Anything else is the hazard: a leak through the cache, which leaves no architectural
 * trace, so it is recorded, on every model, blamed on the ERET, its value the PC of
 * the last access (0: none was made). The accesses are counted by the engine, not
 * heard, so they cost this nothing.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	uint64_t spsr;

	switch (ev->kind) {
	case EH_EV_SYS:
		if (ev->flags & EH_INSN_TLBI && tlbi_local(ev->sysreg)) {
			s->tlbi = true;
			s->done = false;
			s->accesses = accesses(m, ev->thread);
		}
		break;
	case EH_EV_BARRIER:
		if (eh_seq_event_dsb_full(ev) && s->tlbi && s->accesses == accesses(m, ev->thread))
			s->done = true;
		break;
	case EH_EV_CTX_SYNC:
		/* SPSR_EL1.M[3:2] is the exception level the ERET returns to: 0b00 is EL0. */
		if (!(ev->flags & EH_INSN_ERET) || ev->el2 || eh_machine_sysreg(m, ev->thread, EH_SPSR_EL1, &spsr) ||
		    (spsr >> 2) & 3)
			break;
		if (!s->done || s->accesses != accesses(m, ev->thread))
			eh_machine_hazard(m, &eh_erratum_a520_2966298, ev,
					  eh_machine_accessed(m, ev->thread)->access_pc);
		s->tlbi = s->done = false;
		break;
	default:
		break;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "an ERET to EL0 with no local TLBI and DSB completing it after the last load or store; recorded "
		   "as a hazard: a cache leak has no architectural trace",
	.thread_state = sizeof(struct thread_state),
	.events = EH_EV_BIT(EH_EV_SYS) | EH_EV_BIT(EH_EV_BARRIER) | EH_EV_BIT(EH_EV_CTX_SYNC),
	.on_event = on_event,
};

/*
 * TLBI: SYS with CRn 8 (Arm ARM C5.5). The mask keeps bits 31:19 (SYS: L = 0, op0 = 0b01)
 * and CRn (15:12); op1 (18:16), CRm (11:8), op2 (7:5) and Rt (4:0) name the operation.
 */
static const struct eh_rule_trigger tlbi_words[] = { { 0xfff8f000, 0xd5088000 }, { 0 } };

/* How far a straight path from the workaround's TLBI to its ERET may run. */
#define PATH_MAX_INSNS 32

/*
 * A local TLBI in kernel code (not hyp code, whose ERETs enter EL1) from which the
 * straight path (eh_rule_next) reaches an ERET is the workaround before a return:
 * between the two, a DSB must complete the TLBI and no load or store may come
 * (832dd634bd1b). Paths that fork, call, return or leave end without a verdict:
 * the rule cannot tell a return to EL0 from other code by the ERET alone (SPSR comes
 * from memory), so a return with no TLBI at all is left to the dynamic behaviour.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn path[PATH_MAX_INSNS], next;
	size_t n = 0, i;
	bool completed = false;
	const char *why;
	int rc = 0;

	if (!(in->flags & EH_INSN_TLBI) || !tlbi_local(in->sysreg) || !eh_rule_runs(ctx, in, &why) ||
	    eh_rule_run_el(ctx, in, &why) == EH_RUN_EL2_NVHE)
		return 0;
	for (path[n++] = *in; n < PATH_MAX_INSNS && !(path[n - 1].flags & EH_INSN_ERET); path[n++] = next)
		if (eh_rule_next(ctx, &path[n - 1], &next))
			return 0;
	if (!(path[n - 1].flags & EH_INSN_ERET))
		return 0;
	for (i = 1; i < n - 1 && !rc; i++) {
		completed |= eh_seq_insn_dsb_full(&path[i]);
		if (path[i].flags & (EH_INSN_LOAD | EH_INSN_STORE))
			rc = eh_rule_report(ctx, &path[i], in->addr, eh_insn_access_name(path[i].flags),
					    "an explicit memory access between the workaround's TLBI and the ERET: the "
					    "TLBI and DSB must come after the last one");
	}
	if (!rc && !completed)
		rc = eh_rule_report(ctx, &path[n - 1], in->addr, "eret",
				    "no DSB completes the workaround's TLBI before the ERET");
	return rc;
}

static const struct eh_rule rule = {
	.summary = "between a local TLBI that runs straight to an ERET (the workaround) and that ERET, a DSB "
		   "completing it and no load or store, in kernel code",
	.triggers = tlbi_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_2966298",
	"Linux 471470bc7052 (arm64: errata: Add Cortex-A520 speculative unprivileged load workaround)",
	"Linux 832dd634bd1b (arm64: entry: fix ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD), CVE-2024-26670: the "
	"TLBI and DSB NSH after the last explicit memory access",
	"Arm Cortex-A520 Software Developer Errata Notice SDEN-2444153",
	NULL,
};

const struct eh_erratum eh_erratum_a520_2966298 = {
	.id = "a520-2966298",
	.title = "Cortex-A520 erratum 2966298: a speculative unprivileged load can leak privileged data "
		 "unless a local TLBI and DSB NSH follow the last access before the return to EL0",
	.cpus = eh_erratum_2966298_cpus,
	.capability = "ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
	/* Not in the 5.4 numbering (harness/src/image/cpucaps.c): the workaround came after 5.4. */
	.since = (const struct eh_erratum_since[]){ { "6.1", "ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD" }, { 0 } },
	.kconfig = "CONFIG_ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

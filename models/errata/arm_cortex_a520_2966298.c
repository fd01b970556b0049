/*
 * Arm Cortex-A520 erratum 2966298 (r0p0, r0p1): a speculatively executed unprivileged load can leak
 * privileged data through the cache unless a non-shareable TLBI and a DSB NSH follow the last explicit
 * memory access before the return to EL0.
 */
#include "eh/erratum.h"
#include "eh/insn.h"
#include "eh/machine.h"
#include "eh/sysreg.h"
#include "caps.h"

extern const struct eh_erratum eh_erratum_a520_2966298;

/* TLBI operations for this PE only (CRm 6 and 7, and the local IPA forms): Arm ARM C5.5. */
static bool tlbi_local(uint32_t op)
{
	unsigned crm = EH_SYSREG_CRM(op), op2 = EH_SYSREG_OP2(op);

	return crm == 6 || crm == 7 || (EH_SYSREG_OP1(op) == 4 && crm == 4 && (op2 == 1 || op2 == 2 || op2 == 5 || op2 == 6));
}

/* A DSB that completes a non-shareable TLBI: a full barrier over any domain. */
static bool dsb_full(unsigned option)
{
	return option == EH_BARRIER_NSH || option == EH_BARRIER_ISH || option == EH_BARRIER_OSH ||
	       option == EH_BARRIER_SY;
}

struct thread_state {
	bool tlbi;          /* a local TLBI since the last explicit access */
	bool done;          /* ... completed by a DSB since */
	uint64_t access_pc; /* the last explicit access */
};

/*
 * Per thread: at an ERET to EL0 (SPSR_EL1.M[3:2] = 0, read as the ERET is about to
 * run), the workaround is in place when a local TLBI and a DSB completing it came
 * after the last load or store. Anything else is the hazard: a leak through the
 * cache, which leaves no architectural trace, so it is recorded, on every model,
 * blamed on the ERET, its value the PC of the last access (0: none was made).
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
		}
		break;
	case EH_EV_BARRIER:
		if (ev->flags & EH_INSN_DSB && dsb_full((unsigned)ev->value) && s->tlbi)
			s->done = true;
		break;
	case EH_EV_ACCESS:
		if (ev->flags & (EH_INSN_LOAD | EH_INSN_STORE)) {
			s->tlbi = s->done = false;
			s->access_pc = ev->pc;
		}
		break;
	case EH_EV_CTX_SYNC:
		if (!(ev->flags & EH_INSN_ERET) || ev->el2 || eh_machine_sysreg(m, ev->thread, EH_SPSR_EL1, &spsr) ||
		    (spsr >> 2) & 3)
			break;
		if (!s->done)
			eh_machine_hazard(m, &eh_erratum_a520_2966298, ev, s->access_pc);
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
	.on_event = on_event,
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
	.kconfig = "CONFIG_ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
	.citations = citations,
	.behaviour = &behaviour,
};

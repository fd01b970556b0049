/*
 * Arm Cortex-A77 erratum 1508412 (r0p0, r1p0): a read of PAR_EL1 close to a load with Device or
 * Non-cacheable attributes can deadlock the core; the kernel brackets every read with DMB SY.
 */
#include "eh/erratum.h"
#include "eh/insn.h"
#include "eh/machine.h"
#include "caps.h"

extern const struct eh_erratum eh_erratum_a77_1508412;

/* MRS Xt, PAR_EL1 (op0 3, op1 0, CRn 7, CRm 4, op2 0). */
static bool par_read(uint32_t word)
{
	return (word & 0xffffffe0) == 0xd5387400;
}

/* The barrier the workaround uses: DMB SY, or DSB SY, which orders at least as much. */
static bool full_system_barrier(const struct eh_event *ev)
{
	return ev->kind == EH_EV_BARRIER && ev->value == EH_BARRIER_SY;
}

struct thread_state {
	bool loaded;        /* a load since the last DMB SY */
	bool par;           /* a PAR_EL1 read since the last DMB SY */
	uint64_t load_pc, par_pc;
};

/*
 * Per thread, a PAR_EL1 read and a load with no DMB SY between them, in either
 * order (96d389ca1011 puts one before and one after each read, and one before the
 * exception returns that may land between them: an interrupt taken between the
 * first DMB and the read makes loads of its own). The engine does not know memory
 * types, so every load stands for one that may be Device or Non-cacheable; and a
 * deadlock has no architectural trace, so the hazard is recorded on every model,
 * blamed on the second of the pair, its value the PC of the first.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;

	if (full_system_barrier(ev)) {
		s->loaded = s->par = false;
	} else if (ev->kind == EH_EV_INSN && par_read((uint32_t)ev->addr)) {
		if (s->loaded) {
			s->loaded = false;
			eh_machine_hazard(m, &eh_erratum_a77_1508412, ev, s->load_pc);
		}
		s->par = true;
		s->par_pc = ev->pc;
	} else if (ev->kind == EH_EV_ACCESS && ev->flags & EH_INSN_LOAD) {
		if (s->par) {
			s->par = false;
			eh_machine_hazard(m, &eh_erratum_a77_1508412, ev, s->par_pc);
		}
		s->loaded = true;
		s->load_pc = ev->pc;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a PAR_EL1 read and a load with no DMB SY between them, in either order, across exceptions; "
		   "recorded as a hazard: a deadlock has no trace, and memory types are not modelled",
	.thread_state = sizeof(struct thread_state),
	.insns = true,      /* an MRS of PAR_EL1 is no event of its own: the model serves no such register */
	.on_event = on_event,
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
	.kconfig = "CONFIG_ARM64_ERRATUM_1508412",
	.citations = citations,
	.behaviour = &behaviour,
};

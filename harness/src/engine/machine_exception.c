/* The engine's exceptions: entry to the EL1 vectors as the architecture defines it, and ERET within EL1. */
#include "engine/machine_internal.h"

/* Exception entry to EL1 (Arm ARM D1.10.2): SPSR, ELR, ESR, FAR, PSTATE, then the vector. */
void eh_machine__take_exception_to(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr,
			      unsigned kind)
{
	uint64_t pstate = eh_machine__read_reg(t, UC_ARM64_REG_PSTATE);
	uint64_t vbar = eh_machine__read_reg(t, UC_ARM64_REG_VBAR_EL1);
	unsigned el = (pstate >> 2) & 3;
	uint64_t vector = vbar + kind + (el == 0 ? VECTOR_LOWER_A64 : (pstate & 1) ? 0x200 : 0);
	struct eh_event ev = {
		.kind = EH_EV_EXCEPTION, .thread = (uint8_t)t->id, .pc = elr, .esr = esr, .addr = far,
	};

	/*
	 * Unicorn cannot be moved from EL0 to EL1 by a PSTATE write (see
	 * reference/emulator-facts.md), so only exceptions taken from EL1 reach vectors;
	 * exceptions taken at virtual EL2 (EL2's own vectors) are not modelled.
	 */
	if (!vbar || el != 1 || t->el2 || !eh_machine__host_ptr(t->m, vector, 4) || t->m->opts.stop_at_exception) {
		ev.count = vbar && el == 1 && !t->el2 && eh_machine__host_ptr(t->m, vector, 4);
		eh_machine__emit(t->m, &ev);
		t->res.pc = elr;
		eh_machine__request_stop(t, EH_STOP_EXCEPTION);
		return;
	}
	ev.value = vector;
	if (eh_machine__write_cp(t, EH_SPSR_EL1, pstate) || eh_machine__write_cp(t, EH_ELR_EL1, elr) ||
	    eh_machine__write_cp(t, EH_ESR_EL1, esr) || eh_machine__write_cp(t, EH_FAR_EL1, far)) {
		eh_machine__hook_fail(t->m, EH_EEMU, "unicorn: cannot write exception registers at 0x%016" PRIx64, elr);
		eh_machine__request_stop(t, EH_STOP_EXCEPTION);
		return;
	}
	pstate = (pstate & ~0x3cfull) | 0x3c0 | 0x5;  /* DAIF masked, EL1h */
	uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &pstate);
	uc_reg_write(t->uc, UC_ARM64_REG_PC, &vector);
	eh_machine__emit(t->m, &ev);
}

/* A synchronous exception. */
void eh_machine__take_exception(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr)
{
	eh_machine__take_exception_to(t, esr, far, elr, VECTOR_SYNC);
}

/*
 * Unicorn 2.0.1 takes an ERET from EL1 to EL1 for an illegal exception return
 * (with SCR_EL3.RW = 0 it deems EL1 AArch32; setting RW would make fetches at
 * kernel VAs with the MMU off fault): it sets PSTATE.IL and takes only NZCV
 * and DAIF from SPSR_EL1, keeping PAN and the rest. The engine completes the
 * return as the architecture defines it (Arm ARM D1.11.2, PSTATE from
 * SPSR_EL1) when the mode stays the same; a change of EL or SP is not modelled
 * and left as is.
 */
void eh_machine__complete_eret(struct eh_thread *t)
{
	uint64_t pstate = eh_machine__read_reg(t, UC_ARM64_REG_PSTATE), spsr;

	if (!(pstate & PSTATE_IL) || eh_machine_sysreg(t->m, t->id, EH_SPSR_EL1, &spsr) ||
	    (spsr & PSTATE_MODE) != (pstate & PSTATE_MODE))
		return;
	uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &spsr);
}

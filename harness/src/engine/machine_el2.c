/* The engine's virtual EL2: its register file, trapped guest accesses, KVM's host slow path, virtual SErrors. */
#include "engine/machine_internal.h"

/* The registers HCR_EL2.TVM (writes) and TRVM (reads) trap at EL1 (Arm ARM, the description of HCR_EL2). */
static const uint32_t vm_regs[] = {
	EH_SCTLR_EL1, EH_TTBR0_EL1, EH_TTBR1_EL1, EH_TCR_EL1, EH_ESR_EL1, EH_FAR_EL1,
	EH_AFSR0_EL1, EH_AFSR1_EL1, EH_MAIR_EL1, EH_AMAIR_EL1, EH_CONTEXTIDR_EL1,
};

bool eh_machine__hcr_traps(struct eh_thread *t, const struct eh_insn *in)
{
	uint64_t bit = in->flags & EH_INSN_MSR ? EH_HCR_TVM : EH_HCR_TRVM;
	size_t i;

	/* At EL0 these accesses are UNDEFINED, which takes priority over the trap to EL2. */
	if (t->el2 || !(in->flags & (EH_INSN_MSR | EH_INSN_MRS)) || !(*t->m->hcr & bit) ||
	    ((eh_machine__read_reg(t, UC_ARM64_REG_PSTATE) >> 2) & 3) != 1)
		return false;
	for (i = 0; i < sizeof(vm_regs) / sizeof(vm_regs[0]); i++)
		if (vm_regs[i] == in->sysreg)
			return true;
	return false;
}

/* A virtual SError is taken at EL1 when HCR_EL2.VSE and AMO are set and PSTATE.A is clear. */
bool eh_machine__vserror_due(struct eh_thread *t)
{
	return !t->el2 && (*t->m->hcr & (EH_HCR_VSE | EH_HCR_AMO)) == (EH_HCR_VSE | EH_HCR_AMO) &&
	       !(eh_machine__read_reg(t, UC_ARM64_REG_PSTATE) & PSTATE_A);
}

uint64_t *eh_machine__el2_slot(struct eh_machine *m, uint32_t reg)
{
	unsigned i;

	for (i = 0; i < EH_EL2_REGS; i++)
		if (m->el2[i].reg == reg || !m->el2[i].reg) {
			m->el2[i].reg = reg;
			return &m->el2[i].value;
		}
	return NULL;
}

/* EL2 is absent in Unicorn: its registers trap as UNDEFINED and are emulated here. */
bool eh_machine__emulate_el2(struct eh_thread *t, const struct eh_insn *in)
{
	uint64_t *slot;
	struct eh_event ev = {
		.kind = EH_EV_EL2_ACCESS, .thread = (uint8_t)t->id, .pc = in->addr,
		.sysreg = in->sysreg, .flags = in->flags,
	};

	if (!(in->flags & (EH_INSN_MSR | EH_INSN_MRS)) || !EH_SYSREG_IS_EL2(in->sysreg) ||
	    !(slot = eh_machine__el2_slot(t->m, in->sysreg)))
		return false;
	if (in->flags & EH_INSN_MSR) {
		*slot = in->rt == 31 ? 0 : eh_machine__read_reg(t, eh_machine__xreg_id(in->rt));
	} else if (in->rt != 31) {
		uc_reg_write(t->uc, eh_machine__xreg_id(in->rt), slot);
	}
	ev.value = *slot;
	eh_machine__emit(t->m, &ev);
	return true;
}

static uint8_t *hyp_frame(struct eh_thread *t)
{
	return eh_machine__host_ptr(t->m, EH_HYP_FRAME(t->id), 31 * 8);
}

/*
 * Exception entry to EL2 from the guest (Arm ARM D1.10.2): ESR_EL2, ELR_EL2,
 * SPSR_EL2, DAIF masked, PC = VBAR_EL2 + 0x400 (lower EL, AArch64, synchronous).
 * Unicorn stays at EL1; the thread switches to its EL2 stack, with the guest's
 * registers saved in the frame that x0 points to, as KVM's exit path saves them
 * in the vcpu context before its C handlers run.
 */
void eh_machine__enter_el2(struct eh_thread *t, uint64_t esr, uint64_t elr)
{
	struct eh_machine *m = t->m;
	uint64_t vbar = eh_machine_el2_get(m, EH_VBAR_EL2), vector = vbar + VECTOR_LOWER_A64;
	uint64_t pstate = eh_machine__read_reg(t, UC_ARM64_REG_PSTATE), frame = EH_HYP_FRAME(t->id);
	uint64_t host = EH_HYP_HOST_ADDR;
	uint8_t *regs = hyp_frame(t);
	struct eh_event ev = { .kind = EH_EV_EL2_ENTRY, .thread = (uint8_t)t->id, .pc = elr, .esr = esr };
	unsigned i, rt;
	bool read;

	if (!eh_sysreg_trap_decode(esr, &ev.sysreg, &rt, &read))
		ev.flags = read ? EH_INSN_MRS : EH_INSN_MSR;
	if (!vbar || !eh_machine__host_ptr(m, vector, 4)) {
		eh_machine__emit(m, &ev);
		t->res.pc = elr;
		t->stop_req = EH_STOP_EXCEPTION;
		return;
	}
	eh_machine_el2_set(m, EH_ESR_EL2, esr);
	eh_machine_el2_set(m, EH_ELR_EL2, elr);
	eh_machine_el2_set(m, EH_SPSR_EL2, pstate);
	for (i = 0; i < 31; i++) {
		uint64_t x = eh_machine__read_reg(t, eh_machine__xreg_id(i));

		memcpy(regs + 8 * i, &x, 8);
	}
	t->sp_el1 = eh_machine__read_reg(t, UC_ARM64_REG_SP);
	t->el2 = true;
	pstate = (pstate & ~0x3cfull) | 0x3c0 | 0x5;  /* DAIF masked; EL1h is all Unicorn has */
	if (uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &pstate) || uc_reg_write(t->uc, UC_ARM64_REG_SP, &frame) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_X0, &frame) || uc_reg_write(t->uc, UC_ARM64_REG_X30, &host) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_PC, &vector)) {
		eh_machine__hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: cannot enter the vector at 0x%016" PRIx64,
			  t->id, vector);
		return;
	}
	ev.value = vector;
	eh_machine__emit(m, &ev);
}

/* ERET from EL2 (or the host's re-entry): back to ELR_EL2 with SPSR_EL2 and the frame's registers. */
void eh_machine__leave_el2(struct eh_thread *t, uint32_t how)
{
	struct eh_machine *m = t->m;
	uint64_t elr = eh_machine_el2_get(m, EH_ELR_EL2), spsr = eh_machine_el2_get(m, EH_SPSR_EL2);
	const uint8_t *regs = hyp_frame(t);
	struct eh_event ev = {
		.kind = EH_EV_EL2_RETURN, .thread = (uint8_t)t->id, .pc = elr, .value = spsr, .flags = how,
	};
	bool bad = false;
	unsigned i;

	/* The guests modelled run at EL1 (M[4] = 0: AArch64, M[3:2] = 1). */
	if ((spsr & 0x1c) != 0x4) {
		eh_machine__hook_fail(m, EH_EINPUT, "virtual EL2, thread %u: ERET with SPSR_EL2 0x%" PRIx64
			  " to 0x%016" PRIx64 ": only returns to AArch64 EL1 are modelled", t->id, spsr, elr);
		return;
	}
	for (i = 0; i < 31; i++) {
		uint64_t x;

		memcpy(&x, regs + 8 * i, 8);
		bad |= uc_reg_write(t->uc, eh_machine__xreg_id(i), &x) != UC_ERR_OK;
	}
	t->el2 = false;
	if (bad || uc_reg_write(t->uc, UC_ARM64_REG_SP, &t->sp_el1) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &spsr) || uc_reg_write(t->uc, UC_ARM64_REG_PC, &elr)) {
		eh_machine__hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: cannot return to 0x%016" PRIx64, t->id, elr);
		return;
	}
	eh_machine__emit(m, &ev);
}

/*
 * The hypervisor declined the trap and exited to the host. The host's slow
 * path (KVM's kvm_handle_sys_reg) emulates the access on the vcpu, skips the
 * instruction and re-enters the guest. The write reaches the register at that
 * re-entry, at EL2 before the ERET, so it opens no window at EL1.
 */
void eh_machine__host_exit(struct eh_thread *t)
{
	struct eh_machine *m = t->m;
	uint64_t esr = eh_machine_el2_get(m, EH_ESR_EL2), elr = eh_machine_el2_get(m, EH_ELR_EL2), value = 0;
	uint8_t *regs = hyp_frame(t);
	struct eh_event ev = { .kind = EH_EV_HYP_SLOW, .thread = (uint8_t)t->id, .pc = elr, .esr = esr };
	unsigned rt;
	bool read;

	if (eh_sysreg_trap_decode(esr, &ev.sysreg, &rt, &read)) {
		eh_machine__hook_fail(m, EH_EINPUT, "virtual EL2, thread %u: exit to the host with ESR_EL2 0x%" PRIx64
			  " (guest at 0x%016" PRIx64 "): the host models only trapped system register accesses",
			  t->id, esr, elr);
		return;
	}
	if (!read && rt != 31)
		memcpy(&value, regs + 8 * rt, 8);
	if (read ? eh_machine_sysreg(m, t->id, ev.sysreg, &value) : eh_machine__write_cp(t, ev.sysreg, value)) {
		eh_machine__hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: the slow path cannot %s the register "
			  "(ESR_EL2 0x%" PRIx64 ", guest at 0x%016" PRIx64 ")", t->id, read ? "read" : "write",
			  esr, elr);
		return;
	}
	if (read && rt != 31)
		memcpy(regs + 8 * rt, &value, 8);
	ev.value = value;
	ev.flags = read ? EH_INSN_MRS : EH_INSN_MSR;
	eh_machine__emit(m, &ev);
	eh_machine_el2_set(m, EH_ELR_EL2, elr + 4);
	eh_machine__leave_el2(t, 0);
}

/* "On taking a vSError interrupt, HCR_EL2.VSE is cleared to 0" (Arm ARM, quoted in __deactivate_traps). */
void eh_machine__take_vserror(struct eh_thread *t, uint64_t pc)
{
	struct eh_event ev = { .kind = EH_EV_VSERROR, .thread = (uint8_t)t->id, .pc = pc };

	*t->m->hcr &= ~EH_HCR_VSE;
	eh_machine__emit(t->m, &ev);
	/* Without RAS the syndrome of a virtual SError is IMPLEMENTATION DEFINED: ISS 0. */
	eh_machine__take_exception_to(t, ESR_ELx(ESR_EC_SERROR, 0), 0, pc, VECTOR_SERROR);
}

uint64_t eh_machine_el2_get(const struct eh_machine *m, uint32_t sysreg)
{
	unsigned i;

	for (i = 0; i < EH_EL2_REGS && m->el2[i].reg; i++)
		if (m->el2[i].reg == sysreg)
			return m->el2[i].value;
	return 0;
}

void eh_machine_el2_set(struct eh_machine *m, uint32_t sysreg, uint64_t value)
{
	uint64_t *slot = eh_machine__el2_slot(m, sysreg);

	if (slot)
		*slot = value;
}

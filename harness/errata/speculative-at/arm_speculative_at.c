/*
 * SPECULATIVE_AT (Cortex-A76 1165522, Cortex-A57/A72 1319367, Cortex-A55 1530923): a speculative AT may
 * walk a guest's EL1&0 regime before its stage 2 is in place and leave a wrong translation in the TLB;
 * KVM synchronises the write of VTTBR_EL2 (__load_stage2(), asm/kvm_mmu.h) before it makes the guest's
 * regime the one in context.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_speculative_at;

#define VTTBR_EL2 EH_SYSREG(3, 4, 2, 1, 0)
#define SCTLR_EL12 EH_SYSREG(3, 5, 1, 0, 0)
#define TCR_EL12 EH_SYSREG(3, 5, 2, 0, 2)

/*
 * What brings a guest's EL1&0 regime into context once its stage 2 is loaded: a write of HCR_EL2
 * (clearing TGE under VHE, __tlb_switch_to_guest(); setting VM and the traps of a vcpu, nVHE's
 * ___activate_traps()) or of the regime's SCTLR or TCR (the EL1 encoding at EL2 without VHE, EL12
 * with it).
 */
static bool enters_guest_regime(uint32_t sysreg)
{
	return sysreg == EH_HCR_EL2 || sysreg == EH_SCTLR_EL1 || sysreg == SCTLR_EL12 || sysreg == EH_TCR_EL1 ||
	       sysreg == TCR_EL12;
}

struct thread_state {
	bool loaded;        /* a guest's stage 2 written to VTTBR_EL2, no context synchronisation since */
	uint64_t vttbr_pc;  /* that write */
};

/*
 * Per thread, a write of VTTBR_EL2 with a stage 2 (not zero: the host's VMID 0 with no
 * tables, which __tlb_switch_to_host() writes on its way out) opens the window; context
 * synchronisation (ISB, exception entry or return) closes it. A write that enters the
 * guest's regime inside it is the hazard, blamed on that write, its value the PC of the
 * VTTBR_EL2 write. The engine has no speculative walker and no TLB: the hazard is
 * recorded, on every model, and no translation is corrupted.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;

	switch (ev->kind) {
	case EH_EV_EL2_ACCESS:      /* HCR_EL2 and VTTBR_EL2 are written through the virtual EL2 file */
	case EH_EV_SYSREG_WRITE:
		if (!(ev->flags & EH_INSN_MSR))
			break;
		if (ev->sysreg == VTTBR_EL2) {
			s->loaded = ev->value != 0;
			s->vttbr_pc = ev->pc;
		} else if (s->loaded && enters_guest_regime(ev->sysreg)) {
			s->loaded = false;
			eh_machine_hazard(m, &eh_erratum_speculative_at, ev, s->vttbr_pc);
		}
		break;
	case EH_EV_CTX_SYNC:
	case EH_EV_EXCEPTION:
	case EH_EV_EL2_ENTRY:
	case EH_EV_EL2_RETURN:
		s->loaded = false;
		break;
	default:
		break;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a write of HCR_EL2 or of the EL1&0 regime's SCTLR or TCR after a guest's stage 2 is written to "
		   "VTTBR_EL2 and before context synchronisation; recorded as a hazard: speculative walks and the TLB "
		   "are not modelled",
	.thread_state = sizeof(struct thread_state),
	.events = EH_EV_BIT(EH_EV_EL2_ACCESS) | EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_CTX_SYNC) |
		  EH_EV_BIT(EH_EV_EXCEPTION) | EH_EV_BIT(EH_EV_EL2_ENTRY) | EH_EV_BIT(EH_EV_EL2_RETURN),
	.writes = enters_guest_regime,  /* VTTBR_EL2 and HCR_EL2 are written through the virtual EL2 file */
	.on_event = on_event,
};

/* MSR VTTBR_EL2, Xt (op0 3, op1 4, CRn 2, CRm 1, op2 0). */
static const struct eh_rule_trigger vttbr_write_words[] = { { 0xffffffe0, 0xd51c2100 }, { 0 } };

enum { GUEST_STAGE2, NO_STAGE2, NOT_RUN };

static const struct eh_window_class classes[] = {
	[GUEST_STAGE2] = { .name = "a stage 2",
			   .rule = "a register is written: a guest's stage 2 (or pKVM's host one) is loaded, a window "
				   "until it is synchronised",
			   .opens = true },
	[NO_STAGE2] = { .name = "zero",
			.rule = "XZR is written: the host's VMID 0 with no tables, as KVM leaves a guest; no guest "
				"regime follows" },
	[NOT_RUN] = { .name = "not run", .rule = "code that does not run on the target (eh_rule_runs)" },
	{ 0 },
};

static int vttbr_write(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	if (!(in->flags & EH_INSN_MSR) || in->sysreg != VTTBR_EL2)
		return -1;
	if (!eh_rule_runs(ctx, in, why))
		return NOT_RUN;
	return in->rt == 31 ? NO_STAGE2 : GUEST_STAGE2;
}

static bool enters_guest_regime_insn(const struct eh_insn *in)
{
	return in->flags & EH_INSN_MSR && enters_guest_regime(in->sysreg);
}

/*
 * Statically, the same window on every path of the patched code: __load_stage2()'s
 * ISB (an alternative on the capability) must come between its write of VTTBR_EL2
 * and the write that enters the guest's regime. The other parts of the workaround
 * (the EPD bits set in TCR_EL1 around the switch, SCTLR before TCR) sit behind
 * cpus_have_final_cap() tests whose other side the compiler keeps: a rule over
 * every instruction cannot tell that dead side from live code, so they are left
 * to the case and the kernel's own ordering.
 */
static const struct eh_rule rule = {
	.summary = "no write of HCR_EL2 or of the EL1&0 regime's SCTLR or TCR between a write of a stage 2 to "
		   "VTTBR_EL2 and the next context synchronisation (__load_stage2()'s ISB), on every path",
	.triggers = vttbr_write_words,
	.window = &(const struct eh_window_rule){
		.anchor = vttbr_write,
		.classes = classes,
		.closes = EH_INSN_CTX_SYNC,
		.found = enters_guest_regime_insn,
		.anchors = "VTTBR_EL2 writes",
		.classified_by = "what they load",
		.explain = "the guest's EL1&0 regime enters context before its stage 2 is synchronised: a speculative "
			   "AT may walk it and leave a wrong translation in the TLB",
	},
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_1165522, ARM64_ERRATUM_1319367, ARM64_ERRATUM_1530923, "
	"ARM64_WORKAROUND_SPECULATIVE_AT",
	"Linux 6.1 asm/kvm_mmu.h __load_stage2(): ALTERNATIVE(\"nop\", \"isb\", ARM64_WORKAROUND_SPECULATIVE_AT), "
	"used by kvm/hyp/vhe/tlb.c, vhe/switch.c, nvhe/switch.c, nvhe/tlb.c, nvhe/mem_protect.c",
	"Linux a457b0f7f50d (arm64: Add configuration/documentation for Cortex-A76 erratum 1165522), the last of the "
	"series whose \"arm64: KVM: Add synchronization on translation regime change for erratum 1165522\" added the ISB",
	NULL,
};

const struct eh_erratum eh_erratum_speculative_at = {
	.id = "speculative-at",
	.title = "Cortex-A76 1165522, A57/A72 1319367, A55 1530923: a speculative AT may use a guest's regime "
		 "before its stage 2 is in place",
	.cpus = eh_speculative_at_cpus,
	.capability = "ARM64_WORKAROUND_SPECULATIVE_AT",
	/* 5.4 numbers only A76 1165522's first workaround, ARM64_WORKAROUND_1165522, with no 5.4 tree to check it. */
	.since = (const struct eh_erratum_since[]){ { "6.1", "ARM64_WORKAROUND_SPECULATIVE_AT" }, { 0 } },
	.kconfig = "CONFIG_ARM64_WORKAROUND_SPECULATIVE_AT",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

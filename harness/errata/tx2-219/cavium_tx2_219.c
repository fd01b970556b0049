/*
 * Cavium ThunderX2 erratum 219: a load, store or prefetch between a write of a TTBR and the next
 * context synchronisation can deliver a spurious Data Abort to any hardware thread of the core.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

/* 93916beb7014: without SMT siblings the erratum is not exposed. */
static bool smt_siblings(const struct eh_model *model)
{
	return model->threads_per_core > 1;
}

extern const struct eh_erratum eh_erratum_cavium_tx2_219;

/*
 * The window opens at a write of the TTBR of the regime the thread runs in (as the
 * audit classifies it, eh/regime.h: a guest's register written from EL2 changes no
 * regime EL2's own accesses use) and closes at the thread's next context
 * synchronisation: ISB, exception entry or exception return (Arm ARM, context
 * synchronization events). Accesses at virtual EL2 inside a window opened at EL1
 * are not in it: they translate through the EL2 regime (d3ec3a08fa70 relies on
 * it: KVM restores the guest's registers with loads at EL2 before the ERET).
 *
 * The erratum notice does not say when the abort arrives, only that it follows
 * such an access: raising it at the close, blaming the first access, lets the
 * trace show the whole window and keeps the run deterministic for a given seed.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	const struct eh_erratum *self = &eh_erratum_cavium_tx2_219;
	struct eh_culprit culprit;

	(void)state;
	switch (ev->kind) {
	case EH_EV_SYSREG_WRITE:
		if (ev->flags & EH_INSN_TTBR_WRITE &&
		    eh_regime_live(eh_regime_of_ttbr_write(ev->sysreg, ev->el2 ? EH_RUN_EL2_NVHE : EH_RUN_EL1)))
			eh_machine_window_open(m, self, ev);
		break;
	case EH_EV_CTX_SYNC:
		eh_machine_window_close(m, ev->thread, ev->flags & EH_INSN_CTX_SYNC);
		break;
	case EH_EV_EXCEPTION:
	case EH_EV_EL2_ENTRY:
		eh_machine_window_close(m, ev->thread, EH_INSN_EXC_GEN);
		break;
	case EH_EV_EL2_RETURN:
		eh_machine_window_close(m, ev->thread, EH_INSN_ERET);
		break;
	case EH_EV_WINDOW_CLOSE:
		if (eh_event_erratum(ev) != self || !ev->count || !eh_erratum_shows(self, eh_machine_thread_core(m, ev->thread)))
			break;
		culprit = (struct eh_culprit){
			.thread = ev->thread, .pc = ev->value, .va = ev->addr, .flags = ev->aflags,
		};
		eh_machine_inject_abort(m, self, (unsigned)(eh_machine_random(m) % eh_machine_threads(m)), &culprit);
		break;
	default:
		break;
	}
}

static bool writes_ttbr(uint32_t sysreg)
{
	return EH_SYSREG_IS_TTBR(sysreg);
}

static const struct eh_behaviour behaviour = {
	.summary = "a window from a live TTBR write to the next context synchronisation; an access in it "
		   "injects a spurious Data Abort into a thread of the core the seed picks",
	.events = EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_CTX_SYNC) | EH_EV_BIT(EH_EV_EXCEPTION) |
		  EH_EV_BIT(EH_EV_EL2_ENTRY) | EH_EV_BIT(EH_EV_EL2_RETURN) | EH_EV_BIT(EH_EV_WINDOW_CLOSE),
	.writes = writes_ttbr,
	.on_event = on_event,
};

/* MSR TTBR0/1_EL1, Xt (op0 3, op1 0, CRn 2, CRm 0, op2 0 / 1), or the EL12 form (op1 5). */
static const struct eh_rule_trigger ttbr_write_words[] = { { 0xffffffc0, 0xd5182000 }, { 0xffffffc0, 0xd51d2000 }, { 0 } };

/* Every TTBR write is an anchor, classed by the regime it changes: only the live one opens a window. */
static int ttbr_write(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	if (!(in->flags & EH_INSN_TTBR_WRITE))
		return -1;
	return (int)eh_regime_of_ttbr_write(in->sysreg, eh_rule_run_el(ctx, in, why));
}

/*
 * Statically, the window the engine tracks: from a write of the live TTBR to
 * the next context synchronisation event (Arm ARM: ISB, exception entry,
 * exception return), every access that goes through the translation regime
 * (eh/insn.h: loads, stores, prefetches, cache maintenance by VA, AT).
 */
static const struct eh_rule rule = {
	.summary = "no load, store, prefetch, cache maintenance by VA or AT between a write of the live "
		   "TTBR and the next context synchronisation, on every path",
	.triggers = ttbr_write_words,
	.window = &(const struct eh_window_rule){
		.anchor = ttbr_write,
		.classes = eh_regime_classes,
		.closes = EH_INSN_CTX_SYNC,
		.finds = EH_INSN_ACCESS,
		.anchors = "TTBR writes",
		.classified_by = "the regime they change",
		.explain = "an access between a write of the live TTBR and the next context synchronisation "
			   "can deliver a spurious Data Abort to any hardware thread of the core",
	},
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, CAVIUM_TX2_ERRATUM_219",
	"Linux 9405447ef79b (arm64: Avoid Cavium TX2 erratum 219 when switching TTBR)",
	"Linux d3ec3a08fa70 (arm64: KVM: Trap VM ops when ARM64_WORKAROUND_CAVIUM_TX2_219_TVM is set)",
	"Linux 93916beb7014 (arm64: Enable workaround for Cavium TX2 erratum 219 when running SMT)",
	NULL,
};

const struct eh_erratum eh_erratum_cavium_tx2_219 = {
	.id = "tx2-219",
	.title = "Cavium ThunderX2 erratum 219: spurious Data Abort after a TTBR write",
	.cpus = eh_tx2_family_cpus,
	.capability = "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM",
	.kconfig = "CONFIG_CAVIUM_TX2_ERRATUM_219",
	.citations = citations,
	.shows = smt_siblings,
	.shows_when = "with SMT siblings on the core",
	.rule = &rule,
	.behaviour = &behaviour,
};

/* Cavium ThunderX2 erratum 219: an access between a TTBR write and the next context synchronisation
 * can deliver a spurious Data Abort to any hardware thread of the core. */
#include "eh/machine.h"
#include "errata.h"

/* 93916beb7014: without SMT siblings the erratum is not exposed. */
static bool tx2_219_manifests(const struct eh_model *model)
{
	return model->threads_per_core > 1;
}

/*
 * The engine tracks the window (MSR TTBRx_EL1 up to ISB, ERET or exception
 * entry) and reports its close with the accesses it held. The erratum notice
 * does not say when the abort arrives, only that it follows such an access:
 * raising it at the close, blaming the first access, lets the trace show the
 * whole window and keeps the run deterministic for a given seed.
 */
static void tx2_219_on_event(struct eh_machine *m, const struct eh_event *ev)
{
	struct eh_culprit culprit;

	if (ev->kind != EH_EV_WINDOW_CLOSE || !ev->count)
		return;
	culprit = (struct eh_culprit){
		.thread = ev->thread, .pc = ev->value, .va = ev->addr, .flags = ev->aflags,
	};
	eh_machine_inject_abort(m, (unsigned)(eh_machine_random(m) % eh_machine_threads(m)), &culprit);
}

const struct eh_erratum eh_erratum_tx2_219 = {
	.id = "tx2-219",
	.desc = "Cavium ThunderX2 erratum 219: spurious Data Abort after a TTBR write",
	.manifests = tx2_219_manifests,
	.on_event = tx2_219_on_event,
};

const struct eh_erratum *const eh_tx2_family_errata[] = { &eh_erratum_tx2_219, NULL };

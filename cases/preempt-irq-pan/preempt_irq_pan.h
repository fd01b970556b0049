/* preempt-irq-pan's reference: how a kernel read of a user page, and the preemptions before it, are judged. */
#ifndef EH_CASE_PREEMPT_IRQ_PAN_H
#define EH_CASE_PREEMPT_IRQ_PAN_H

#include <stdbool.h>

#include "eh/case.h"

/* PSTATE.PAN, bit 22 of PSTATE and SPSR_ELx (ARMv8.1). */
#define EH_PSTATE_PAN (1ull << 22)

/*
 * faulted: what the read did under the PSTATE.PAN it ran with; must_fault: what
 * it must do under the PAN the enable step gives the CPU; early_preemptions:
 * tasks preempted from IRQ before the capabilities were ready. A read that
 * disagrees is the bug; an early preemption that left nothing stale (no PAN on
 * this CPU) is benign.
 */
enum eh_verdict eh_preempt_pan_verdict(bool faulted, bool must_fault, unsigned early_preemptions);

#endif

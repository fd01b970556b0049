/* The check both KVM cases make of the guest's TTBR0_EL1 write, whoever performed it (cases/tx2-219-tvm/case.c). */
#ifndef EH_CASES_GUEST_CHECK_H
#define EH_CASES_GUEST_CHECK_H

#include <stdbool.h>

#include "eh/case.h"

/*
 * Whether guest_switch_ttbr0 passed its MSR TTBR0_EL1 exactly once (performed by
 * the guest, or trapped once to EL2) and TTBR0_EL1 ends up holding the value it
 * wrote (guest_ttbr0). Appends what it saw to out.
 */
bool eh_tvm_guest_switched(struct eh_machine *m, struct eh_outcome *out);

#endif

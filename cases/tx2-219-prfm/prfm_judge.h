/* The judge of the trampoline's TTBR1_EL1 window, shared by the cases that run tx2-219-prfm.elf. */
#ifndef EH_CASES_PRFM_JUDGE_H
#define EH_CASES_PRFM_JUDGE_H

#include "eh/case.h"

/* bug: a PRFM in the window on a core where erratum 219 shows; residual: only loads left. */
void eh_tx2_219_prfm_judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out);

#endif

/* par-el1's reference: what is_spurious_el1_translation_fault() must answer for an abort and the PAR_EL1 of its re-walk. */
#ifndef EH_CASE_PAR_EL1_H
#define EH_CASE_PAR_EL1_H

#include <stdbool.h>
#include <stdint.h>

/* ESR_ELx of a Data Abort taken without a change of EL (EC 0x25, IL) with fault status dfsc. */
#define EH_ESR_DABT_CUR(dfsc) ((uint64_t)0x25 << 26 | (uint64_t)1 << 25 | (dfsc))

/*
 * The rule the kernel means (both fixes): only an EL1 Data Abort reporting a
 * translation fault qualifies; it was spurious if AT S1E1R now translates
 * (PAR_EL1.F, bit 0, clear) or faults with another type of fault.
 */
bool eh_par_el1_spurious(uint64_t esr, uint64_t par);

#endif

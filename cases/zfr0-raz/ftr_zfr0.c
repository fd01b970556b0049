/*
 * ftr_id_aa64zfr0[] of arch/arm64/kernel/cpufeature.c before and after ec52c7134b1f, as data
 * the case's model of emulate_mrs() reads: which ID_AA64ZFR0_EL1 fields EL0 may see.
 */
#include "ftr_abi.h"

#define FIELD(vis, shift, width) { (vis), (shift), (width), 0 }

#ifdef EH_MUTANT_FIELDS_VISIBLE
#define AFTER_VISIBLE EH_FTR_VISIBLE         /* mutant: the fix's visibility condition dropped */
#else
#define AFTER_VISIBLE EH_FTR_VISIBLE_IF_SVE
#endif

/* Highest field first, as the kernel lists them: SM4, SHA3, BitPerm, AES, SVEver. */
const struct eh_ftr_bits ftr_id_aa64zfr0_before[] = {
	FIELD(EH_FTR_VISIBLE, 40, 4),
	FIELD(EH_FTR_VISIBLE, 32, 4),
	FIELD(EH_FTR_VISIBLE, 16, 4),
	FIELD(EH_FTR_VISIBLE, 4, 4),
	FIELD(EH_FTR_VISIBLE, 0, 4),
	{ 0 },
};

const struct eh_ftr_bits ftr_id_aa64zfr0_after[] = {
	FIELD(AFTER_VISIBLE, 40, 4),
	FIELD(AFTER_VISIBLE, 32, 4),
	FIELD(AFTER_VISIBLE, 16, 4),
	FIELD(AFTER_VISIBLE, 4, 4),
	FIELD(AFTER_VISIBLE, 0, 4),
	{ 0 },
};

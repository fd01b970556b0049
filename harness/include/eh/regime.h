/* Translation regimes: which one a TTBR write changes, and whether the code after it runs in that one. */
#ifndef EH_REGIME_H
#define EH_REGIME_H

#include <stdbool.h>
#include <stdint.h>

/* Where the code that writes the register runs. */
enum eh_run_el {
	EH_RUN_EL1,        /* at EL1: a host kernel without VHE, or a guest kernel */
	EH_RUN_EL2_VHE,    /* at EL2 with HCR_EL2.E2H = 1: a VHE host kernel (its EL1 code) */
	EH_RUN_EL2_NVHE,   /* at EL2 with HCR_EL2.E2H = 0: KVM's nVHE hyp code */
};

/* The regime a TTBR write changes, relative to the code that makes it. */
enum eh_regime {
	EH_REGIME_EL10_LIVE,   /* the EL1&0 regime the code runs in */
	EH_REGIME_EL20_LIVE,   /* TTBRn_EL1 redirected to TTBRn_EL2 by E2H: the EL2&0 regime the code runs in */
	EH_REGIME_GUEST,       /* a guest's EL1&0 regime, written from EL2: not the one EL2 runs in */
};

/*
 * What a write of TTBR0/1_EL1 or TTBR0/1_EL12 (sysreg, EH_SYSREG encoding)
 * changes when made by code running where it runs.
 */
enum eh_regime eh_regime_of_ttbr_write(uint32_t sysreg, enum eh_run_el where);
/* Whether the accesses that follow are translated by the regime the write changes (a window opens). */
bool eh_regime_live(enum eh_regime r);

#endif

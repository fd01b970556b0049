/* Arm Cortex-A57: r1p2, the last revision with errata 832075 and 834220, and r1p3 just past them. */
#include "cores.h"

/*
 * Arm Cortex-A57 MPCore Processor Technical Reference Manual r1p3 (DDI 0488), chapter 4.3
 * "AArch64 register descriptions", crypto on, GIC CPU interface off: every ID register the
 * kernel reads has the value the Cortex-A72 TRM gives (models/arm_cortex_a72.c), so the two
 * share one table.
 */
#define A57_ID_SOURCE "Cortex-A57 TRM r1p3 (DDI 0488) 4.3 (the same values as Cortex-A72's), crypto on, GIC CPU interface off"

const struct eh_model eh_model_cortex_a57_r1p2 =
	EH_CORE_MODEL("cortex-a57-r1p2", "Arm Cortex-A57 r1p2, 1 thread per core", EH_MIDR(0x41, 1, 0xd07, 2), 0,
		      eh_cortex_a72_id_regs, A57_ID_SOURCE);

const struct eh_model eh_model_cortex_a57_r1p3 =
	EH_CORE_MODEL("cortex-a57-r1p3", "Arm Cortex-A57 r1p3, 1 thread per core", EH_MIDR(0x41, 1, 0xd07, 3), 0,
		      eh_cortex_a72_id_regs, A57_ID_SOURCE);

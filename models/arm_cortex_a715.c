/* Arm Cortex-A715 r0p0: 2645198 (Linux 6.12's ARM64_WORKAROUND_2645198) and SPECULATIVE_SSBS on every revision. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Cortex-A715 is the Armv9.0-A successor of Cortex-A710 (models/arm_cortex_a710.c) and runs
 * AArch64 alone, at every exception level: the A710's registers with ID_AA64PFR0_EL1.EL0 = 1
 * (no AArch32). No capability of Linux 6.1 or 6.12 reads a field in which the two cores are
 * known to differ otherwise, so the rest stands as the A710's.
 */
static const struct eh_id_reg cortex_a715_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x1101101110111111 },   /* as the A710's, EL0 AArch64 only */
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000221 },   /* MTE 2, SSBS 2, BT 1 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* typical: no capability reads it */
	{ EH_ID_AA64ISAR0_EL1, 0x0221100010211120 },
	{ EH_ID_AA64ISAR1_EL1, 0x0010111101211012 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101122 },
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },
	{ EH_ID_AA64MMFR2_EL1, 0x1221011100001011 },
	{ EH_ID_AA64ZFR0_EL1, 0x0000100000100001 },
	{ EH_CTR_EL0, 0x000000008444c004 },
	{ EH_DCZID_EL0, 0x0000000000000004 },
	{ 0 },
};

const struct eh_model eh_model_cortex_a715_r0p0 =
	EH_CORE_MODEL("cortex-a715-r0p0", "Arm Cortex-A715 r0p0, 1 thread per core", EH_MIDR(0x41, 0, 0xd4d, 0), 0,
		      cortex_a715_id_regs,
		      "the Cortex-A710's registers with AArch64 alone at EL0, as the A715 is built; not its TRM's values");

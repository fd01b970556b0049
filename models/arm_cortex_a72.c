/* Arm Cortex-A72 r0p3: a generic Armv8.0 core with none of the modelled errata. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A72 MPCore Processor Technical Reference Manual r0p3 (Arm 100095), chapter 4.3
 * "AArch64 register descriptions", with the Cryptography Extension and the GIC CPU
 * interface disabled (GICCDISABLE HIGH); the same values Unicorn's cortex-a72 serves.
 */
const struct eh_id_reg eh_cortex_a72_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000000002222 },   /* EL0-EL3 AArch64 and AArch32, FP/AdvSIMD, GIC 0 */
	{ EH_ID_AA64PFR1_EL1, 0 },
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305106 },   /* Armv8 debug, PMUv3, 6 breakpoints, 4 watchpoints */
	{ EH_ID_AA64ISAR0_EL1, 0x0000000000011120 },  /* AES+PMULL, SHA1, SHA2, CRC32 */
	{ EH_ID_AA64ISAR1_EL1, 0 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000001124 },  /* 44-bit PA, 16-bit ASID, mixed endian, 4K and 64K */
	{ EH_ID_AA64MMFR1_EL1, 0 },                   /* Armv8.0: no PAN, no VHE */
	{ EH_ID_AA64MMFR2_EL1, 0 },
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x000000008444c004 },           /* 64-byte lines, PIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

const struct eh_model eh_model_cortex_a72 = {
	.name = "cortex-a72",
	.desc = "Arm Cortex-A72 r0p3, 1 thread per core, no modelled errata",
	.midr = EH_MIDR(0x41, 0, 0xd08, 3),
	.threads_per_core = 1,
	.uc_cpu = UC_CPU_ARM64_A72,
	.id_regs = eh_cortex_a72_id_regs,
	.id_source = "Cortex-A72 TRM r0p3 (Arm 100095) 4.3, crypto on, GIC CPU interface off",
};

/* Arm Cortex-A55 r2p0: the last revision inside erratum 1530923's range (SPECULATIVE_AT); REPEAT_TLBI on every revision. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A55 Core Technical Reference Manual r2p0 (Arm 100442), chapter B2 "AArch64
 * system registers": an Armv8.2-A core with RAS, dot product, LRCPC and AArch32 at every
 * exception level, with the Cryptography Extension and the GIC CPU interface disabled
 * (GICCDISABLE HIGH).
 */
const struct eh_id_reg eh_cortex_a55_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000010112222 },   /* RAS, FP16 FP/AdvSIMD, EL0-EL3 AArch64 and AArch32, GIC 0 */
	{ EH_ID_AA64PFR1_EL1, 0 },
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* Armv8.2 debug, PMUv3 for Armv8.1 */
	{ EH_ID_AA64ISAR0_EL1, 0x0000100010211120 },  /* DotProd, RDM, LSE atomics (2), CRC32, SHA1, SHA2, AES+PMULL */
	{ EH_ID_AA64ISAR1_EL1, 0x0000000000100001 },  /* LRCPC 1, DPB 1 */
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101122 },  /* 40-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },  /* XNX, PAN 2, LO, HPDS 2, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0x0000000000001011 },  /* IESB, UAO, CnP */
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x0000000084448004 },           /* 64-byte lines, VIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

const struct eh_model eh_model_cortex_a55_r2p0 =
	EH_CORE_MODEL("cortex-a55-r2p0", "Arm Cortex-A55 r2p0, 1 thread per core", EH_MIDR(0x41, 2, 0xd05, 0), 0,
		      eh_cortex_a55_id_regs, EH_CORTEX_A55_ID_SOURCE);

/* Arm Cortex-A76: revisions on both sides of the ranges of errata 1165522, 1286807, 1418040 and 1463225. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A76 Core Technical Reference Manual r4p1 (Arm 100798), chapter B2 "AArch64
 * system registers": an Armv8.2-A core with RAS, dot product, LRCPC, SSBS, CSV2 and CSV3,
 * AArch32 at EL0 only, with the Cryptography Extension and the GIC CPU interface disabled.
 * The same table serves the older revisions: their TRMs were not compared field by field.
 */
const struct eh_id_reg eh_cortex_a76_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x1100000010111112 },   /* CSV3, CSV2, RAS, FP16, EL1-EL3 AArch64, EL0 also AArch32 */
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000010 },   /* SSBS 1 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* Armv8.2 debug, PMUv3 for Armv8.1 */
	{ EH_ID_AA64ISAR0_EL1, 0x0000100010211120 },  /* DotProd, RDM, LSE atomics (2), CRC32, SHA1, SHA2, AES+PMULL */
	{ EH_ID_AA64ISAR1_EL1, 0x0000000000100001 },  /* LRCPC 1, DPB 1 */
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101122 },  /* 40-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },  /* XNX, PAN 2, LO, HPDS 2, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0x0000000000001011 },  /* IESB, UAO, CnP */
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x000000008444c004 },           /* 64-byte lines, PIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

#define A76(var, rev) EH_MIDR(0x41, (var), 0xd0b, (rev))

/* r2p0: the last revision with erratum 1165522 (SPECULATIVE_AT). */
const struct eh_model eh_model_cortex_a76_r2p0 =
	EH_CORE_MODEL("cortex-a76-r2p0", "Arm Cortex-A76 r2p0, 1 thread per core", A76(2, 0), 0,
		      eh_cortex_a76_id_regs, EH_CORTEX_A76_ID_SOURCE);

/* r3p0: past 1165522, the last revision with 1286807 (REPEAT_TLBI). */
const struct eh_model eh_model_cortex_a76_r3p0 =
	EH_CORE_MODEL("cortex-a76-r3p0", "Arm Cortex-A76 r3p0, 1 thread per core", A76(3, 0), 0,
		      eh_cortex_a76_id_regs, EH_CORTEX_A76_ID_SOURCE);

/* r3p1: past 1286807 (REPEAT_TLBI only through 4118414), the last revision with 1418040 and 1463225. */
const struct eh_model eh_model_cortex_a76_r3p1 =
	EH_CORE_MODEL("cortex-a76-r3p1", "Arm Cortex-A76 r3p1, 1 thread per core", A76(3, 1), 0,
		      eh_cortex_a76_id_regs, EH_CORTEX_A76_ID_SOURCE);

/* r4p0: past 1418040 and 1463225. */
const struct eh_model eh_model_cortex_a76_r4p0 =
	EH_CORE_MODEL("cortex-a76-r4p0", "Arm Cortex-A76 r4p0, 1 thread per core", A76(4, 0), 0,
		      eh_cortex_a76_id_regs, EH_CORTEX_A76_ID_SOURCE);

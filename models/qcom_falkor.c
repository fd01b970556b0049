/* Qualcomm Falkor v1 (Centriq 2400 engineering parts): errata E1003 and E1009 (REPEAT_TLBI). */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * There is no public technical reference manual for Falkor. The fields the kernel's
 * capabilities read are those of an Armv8.0-A part that is AArch64 only, with a GICv3
 * system-register interface and the crypto and CRC32 instructions: an assumption, not a
 * value read from a manual or a part. The debug, memory-size and cache-geometry fields are
 * typical values.
 */
static const struct eh_id_reg falkor_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000001001111 },   /* EL0-EL3 AArch64 only, FP/AdvSIMD, GICv3 sysregs */
	{ EH_ID_AA64PFR1_EL1, 0 },
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305106 },   /* Armv8 debug, PMUv3 */
	{ EH_ID_AA64ISAR0_EL1, 0x0000000000011120 },  /* AES+PMULL, SHA1, SHA2, CRC32 */
	{ EH_ID_AA64ISAR1_EL1, 0 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000001125 },  /* 48-bit PA, 16-bit ASID, 4K and 64K */
	{ EH_ID_AA64MMFR1_EL1, 0 },                   /* Armv8.0: no PAN, no VHE */
	{ EH_ID_AA64MMFR2_EL1, 0 },
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x000000008444c004 },           /* 64-byte lines, PIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

/* Part 0x800 at r0p0 (Kryo 2XX Gold shares the part number at other variants: models/qcom_kryo2xx.c). */
const struct eh_model eh_model_falkor_v1_r0p0 =
	EH_CORE_MODEL("falkor-v1-r0p0", "Qualcomm Falkor v1 r0p0, 1 thread per core", EH_MIDR(0x51, 0, 0x800, 0), 0,
		      falkor_id_regs, "no public TRM: an assumed Armv8.0-A AArch64-only feature set");

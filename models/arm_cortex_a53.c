/* Arm Cortex-A53: revisions on both sides of the CLEAN_CACHE range and of REVIDR_EL1's fix of erratum 843419. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A53 MPCore Processor Technical Reference Manual r0p4 (DDI 0500), chapter 4.3
 * "AArch64 register descriptions", with the Cryptography Extension and the GIC CPU
 * interface disabled (GICCDISABLE HIGH). The ID registers are the same from r0p0 to r0p4;
 * ID_AA64ISAR1, MMFR1 and MMFR2 are reserved in Armv8.0 and read as zero.
 */
const struct eh_id_reg eh_cortex_a53_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000000002222 },   /* EL0-EL3 AArch64 and AArch32, FP/AdvSIMD, GIC 0 */
	{ EH_ID_AA64PFR1_EL1, 0 },
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305106 },   /* Armv8 debug, PMUv3, 6 breakpoints, 4 watchpoints */
	{ EH_ID_AA64ISAR0_EL1, 0x0000000000011120 },  /* AES+PMULL, SHA1, SHA2, CRC32 */
	{ EH_ID_AA64ISAR1_EL1, 0 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000001122 },  /* 40-bit PA, 16-bit ASID, mixed endian, 4K and 64K */
	{ EH_ID_AA64MMFR1_EL1, 0 },                   /* Armv8.0: no PAN, no VHE */
	{ EH_ID_AA64MMFR2_EL1, 0 },
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x0000000084448004 },           /* 64-byte lines, VIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

#define A53(rev) EH_MIDR(0x41, 0, 0xd03, (rev))

/* r0p2: the last revision with errata 826319, 827319 and 824069 (CLEAN_CACHE). */
const struct eh_model eh_model_cortex_a53_r0p2 =
	EH_CORE_MODEL("cortex-a53-r0p2", "Arm Cortex-A53 r0p2, 1 thread per core", A53(2), 0,
		      eh_cortex_a53_id_regs, EH_CORTEX_A53_ID_SOURCE);

/* r0p3: just past the CLEAN_CACHE range, still inside 843419's and 845719's. */
const struct eh_model eh_model_cortex_a53_r0p3 =
	EH_CORE_MODEL("cortex-a53-r0p3", "Arm Cortex-A53 r0p3, 1 thread per core", A53(3), 0,
		      eh_cortex_a53_id_regs, EH_CORTEX_A53_ID_SOURCE);

/* r0p4, the last revision, with REVIDR_EL1 bit 8 clear: 843419 not fixed. */
const struct eh_model eh_model_cortex_a53_r0p4 =
	EH_CORE_MODEL("cortex-a53-r0p4", "Arm Cortex-A53 r0p4, REVIDR_EL1 bit 8 clear, 1 thread per core", A53(4), 0,
		      eh_cortex_a53_id_regs, EH_CORTEX_A53_ID_SOURCE);

/* r0p4 with REVIDR_EL1 bit 8 set: this part has 843419 fixed (845719 still present). */
const struct eh_model eh_model_cortex_a53_r0p4_fixed =
	EH_CORE_MODEL("cortex-a53-r0p4-fixed", "Arm Cortex-A53 r0p4, REVIDR_EL1 bit 8 set (843419 fixed), 1 thread per core",
		      A53(4), 1u << 8, eh_cortex_a53_id_regs, EH_CORTEX_A53_ID_SOURCE);

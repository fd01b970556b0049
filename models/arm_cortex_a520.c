/* Arm Cortex-A520: r0p1, the last revision with erratum 2966298 (SPECULATIVE_UNPRIV_LOAD), and r0p2 just past it. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A520 Core Technical Reference Manual (Arm 102517): an Armv9.2-A core, AArch64
 * only, with SVE2, MTE (a build option, taken as built in), BTI, pointer authentication,
 * SSBS, CSV2, CSV3, DIT, AMU, SEL2, RAS, BF16, I8MM, and what Armv8.6/8.7 make mandatory
 * (ECV, FGT, XS, WFxT, PAN 3, HCX, AFP, ETS), crypto on, GIC CPU interface off. The TRM's
 * feature list encoded field by field at the architecture's minimum levels; not a copy of
 * its reset-value tables. Debug and cache geometry are typical values.
 */
static const struct eh_id_reg cortex_a520_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x1101101110111111 },   /* CSV3, CSV2, DIT, AMU, SEL2, SVE, RAS, FP16, EL0-EL3 AArch64 only */
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000221 },   /* MTE 2, SSBS 2, BT 1 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* typical: no capability reads it */
	/* TLB range, FlagM2, FHM, DotProd, RDM, LSE (2), CRC32, SHA1, SHA2, AES+PMULL */
	{ EH_ID_AA64ISAR0_EL1, 0x0221100010211120 },
	/* XS, I8MM, BF16, SPECRES, SB, FRINTTS, GPA, LRCPC 2, FCMA, JSCVT, APA, DPB 2 */
	{ EH_ID_AA64ISAR1_EL1, 0x0110111101211012 },
	{ EH_ID_AA64ISAR2_EL1, 0x0000000000000002 },  /* WFxT 2 */
	{ EH_ID_AA64MMFR0_EL1, 0x1100000000101122 },  /* ECV, FGT, 40-bit PA, 16-bit ASID, 4K/16K/64K */
	/* AFP, HCX, ETS, XNX, PAN 3, LO, HPDS 2, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR1_EL1, 0x0000111010312122 },
	{ EH_ID_AA64MMFR2_EL1, 0x1221011100001011 },  /* E0PD, EVT, BBM, TTL, FWB, IDS, AT, IESB, UAO, CnP */
	{ EH_ID_AA64ZFR0_EL1, 0x0000100000100001 },   /* SVE2 (SVEver 1), BF16, I8MM */
	{ EH_CTR_EL0, 0x0000000084448004 },           /* 64-byte lines, VIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

#define A520_ID_SOURCE "Cortex-A520 TRM (Arm 102517): its Armv9.2-A feature list encoded field by field, MTE and crypto built in"

const struct eh_model eh_model_cortex_a520_r0p1 =
	EH_CORE_MODEL("cortex-a520-r0p1", "Arm Cortex-A520 r0p1, 1 thread per core", EH_MIDR(0x41, 0, 0xd80, 1), 0,
		      cortex_a520_id_regs, A520_ID_SOURCE);

const struct eh_model eh_model_cortex_a520_r0p2 =
	EH_CORE_MODEL("cortex-a520-r0p2", "Arm Cortex-A520 r0p2, 1 thread per core", EH_MIDR(0x41, 0, 0xd80, 2), 0,
		      cortex_a520_id_regs, A520_ID_SOURCE);

/* Arm Cortex-A710 r0p0: TSB_FLUSH_FAILURE (2054223), SPECULATIVE_SSBS and REPEAT_TLBI (4118414) on every revision. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Cortex-A710 Core Technical Reference Manual (Arm 101800): an Armv9.0-A core with
 * AArch32 at EL0 only, SVE2, MTE (a build option, taken as built in), BTI, pointer
 * authentication, SSBS, CSV2, CSV3, DIT, AMU, SEL2, RAS, BF16 and I8MM, crypto on, GIC
 * CPU interface off. The TRM's feature list encoded field by field at the architecture's
 * minimum levels; not a copy of its reset-value tables. Debug and cache geometry are
 * typical values.
 */
static const struct eh_id_reg cortex_a710_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x1101101110111112 },   /* CSV3, CSV2, DIT, AMU, SEL2, SVE, RAS, FP16, EL1-EL3 AArch64, EL0 also AArch32 */
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000221 },   /* MTE 2, SSBS 2, BT 1 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* typical: no capability reads it */
	/* TLB range, FlagM2, FHM, DotProd, RDM, LSE (2), CRC32, SHA1, SHA2, AES+PMULL */
	{ EH_ID_AA64ISAR0_EL1, 0x0221100010211120 },
	/* I8MM, BF16, SPECRES, SB, FRINTTS, GPA, LRCPC 2, FCMA, JSCVT, APA, DPB 2 */
	{ EH_ID_AA64ISAR1_EL1, 0x0010111101211012 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101122 },  /* 40-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },  /* XNX, PAN 2, LO, HPDS 2, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0x1221011100001011 },  /* E0PD, EVT, BBM, TTL, FWB, IDS, AT, IESB, UAO, CnP */
	{ EH_ID_AA64ZFR0_EL1, 0x0000100000100001 },   /* SVE2 (SVEver 1), BF16, I8MM */
	{ EH_CTR_EL0, 0x000000008444c004 },           /* 64-byte lines, PIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

const struct eh_model eh_model_cortex_a710_r0p0 =
	EH_CORE_MODEL("cortex-a710-r0p0", "Arm Cortex-A710 r0p0, 1 thread per core", EH_MIDR(0x41, 0, 0xd47, 0), 0,
		      cortex_a710_id_regs,
		      "Cortex-A710 TRM (Arm 101800): its Armv9.0-A feature list encoded field by field, MTE and crypto built in");

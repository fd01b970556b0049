/* An Armv9.0-A core with SVE and SVE2 (Neoverse N2's identity): the CPU on which ID_AA64ZFR0_EL1 holds fields. */
#include <unicorn/unicorn.h>

#include "eh/model.h"
#include "eh/sysreg.h"

/*
 * The features Arm Neoverse N2 implements (Neoverse N2 Core TRM, Arm 102099, chapter B2
 * "AArch64 system registers": Armv9.0-A with SVE2, PAuth, BTI, SSBS, RAS, AMU, no MTE,
 * no SME), encoded field by field; not a copy of the TRM's reset values. ID_AA64ZFR0_EL1
 * keeps only the fields the zfr0-raz case checks (N2 also has BF16 and I8MM there).
 */
static const struct eh_id_reg sve2_capable_id_regs[] = {
	/* CSV3, CSV2, DIT, AMU, MPAM, SEL2, SVE, RAS, GIC, FP16 AdvSIMD/FP, EL1-3 AArch64, EL0 also AArch32 */
	{ EH_ID_AA64PFR0_EL1, 0x1101111111111112 },
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000021 },   /* SSBS 2 (with MSR/MRS), BT 1 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305408 },   /* debug and PMU: typical values, no capability reads them */
	/* RNDR, TLB range, FlagM2, FHM, DotProd, SM4, SM3, SHA3, RDM, LSE (2), CRC32, SHA512, SHA1, AES+PMULL */
	{ EH_ID_AA64ISAR0_EL1, 0x1221111110212120 },
	/* I8MM, BF16, SPECRES, SB, FRINTTS, GPA, LRCPC 2, FCMA, JSCVT, APA, DPB 2 */
	{ EH_ID_AA64ISAR1_EL1, 0x0010111101211012 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101125 },  /* 48-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },  /* XNX, PAN 2 (AT S1E1RP too), LO, HPDS 2, VH 1, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0x1221011100001011 },  /* E0PD, EVT, BBM, TTL, FWB, IDS, AT, IESB, UAO, CnP */
	/* SVEver 1 (SVE2), AES 2 (with PMULL128), BitPerm 1, SHA3 1, SM4 1. */
	{ EH_ID_AA64ZFR0_EL1, 0x0000010100010021 },
	{ EH_CTR_EL0, 0x000000009444c004 },           /* 64-byte lines, IDC 1, DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

const struct eh_model eh_model_sve2_capable = {
	.name = "sve2-capable",
	.desc = "Armv9-A core with SVE and SVE2 (Neoverse N2 identity), 1 thread per core",
	.midr = EH_MIDR(0x41, 0, 0xd49, 0),
	.threads_per_core = 1,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = sve2_capable_id_regs,
	.id_source = "Neoverse N2 TRM (Arm 102099) B2: its feature set encoded field by field",
};

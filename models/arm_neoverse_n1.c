/* Arm Neoverse N1: r3p1, the last revision with erratum 1418040, and r4p0 just past it. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * Arm Neoverse N1 Core Technical Reference Manual r4p0 (Arm 100616), chapter B2 "AArch64
 * system registers": an Armv8.2-A core with RAS, SPE, dot product, LRCPC, SSBS (with
 * MSR/MRS), CSV2 and CSV3, 48-bit PA, AArch32 at EL0 only, crypto on, GIC CPU interface
 * off. CTR_EL0.IDC and DIC are build options of the core; both are set here, as on the
 * N1 of AWS Graviton2, which makes the kernel's erratum 1542419 rule apply.
 */
static const struct eh_id_reg neoverse_n1_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x1100000010111112 },   /* CSV3, CSV2, RAS, FP16, EL1-EL3 AArch64, EL0 also AArch32 */
	{ EH_ID_AA64PFR1_EL1, 0x0000000000000020 },   /* SSBS 2 */
	{ EH_ID_AA64DFR0_EL1, 0x0000000110305408 },   /* SPE, Armv8.2 debug, PMUv3 for Armv8.1 */
	{ EH_ID_AA64ISAR0_EL1, 0x0000100010211120 },  /* DotProd, RDM, LSE atomics (2), CRC32, SHA1, SHA2, AES+PMULL */
	{ EH_ID_AA64ISAR1_EL1, 0x0000000000100001 },  /* LRCPC 1, DPB 1 */
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101125 },  /* 48-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000010212122 },  /* XNX, PAN 2, LO, HPDS 2, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0x0000000000001011 },  /* IESB, UAO, CnP */
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x00000000b444c004 },           /* 64-byte lines, PIPT I-cache, IDC 1, DIC 1 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

#define N1_ID_SOURCE "Neoverse N1 TRM r4p0 (Arm 100616) B2, crypto on, GIC CPU interface off, CTR_EL0.IDC and DIC built in"

const struct eh_model eh_model_neoverse_n1_r3p1 =
	EH_CORE_MODEL("neoverse-n1-r3p1", "Arm Neoverse N1 r3p1, 1 thread per core", EH_MIDR(0x41, 3, 0xd0c, 1), 0,
		      neoverse_n1_id_regs, N1_ID_SOURCE);

const struct eh_model eh_model_neoverse_n1_r4p0 =
	EH_CORE_MODEL("neoverse-n1-r4p0", "Arm Neoverse N1 r4p0, 1 thread per core", EH_MIDR(0x41, 4, 0xd0c, 0), 0,
		      neoverse_n1_id_regs, N1_ID_SOURCE);

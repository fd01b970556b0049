/* Cavium ThunderX2 CN99xx: an Armv8.1 part with 4 threads per core (SMT4), exposed to erratum 219. */
#include <unicorn/unicorn.h>

#include "tx2_family.h"
#include "eh/sysreg.h"

/*
 * There is no public technical reference manual for CN99xx. The fields the kernel's
 * capabilities read follow what an Armv8.1-A part must implement (Arm ARM A2.3: LSE
 * atomics, RDM, PAN, VHE, LORegions, hierarchical permission disables) and what Linux
 * reports on CN99xx (/proc/cpuinfo features: fp asimd evtstrm aes pmull sha1 sha2 crc32
 * atomics cpuid asimdrdm; a GICv3 system-register interface; AArch64 only). The debug,
 * memory-size and cache-geometry fields are typical values, not taken from a manual.
 */
const struct eh_id_reg eh_thunderx2_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000001001111 },   /* EL0-EL3 AArch64 only, FP/AdvSIMD, GICv3 sysregs */
	{ EH_ID_AA64PFR1_EL1, 0 },
	{ EH_ID_AA64DFR0_EL1, 0x0000000010305407 },   /* Armv8.1 debug, PMUv3 for Armv8.1 */
	{ EH_ID_AA64ISAR0_EL1, 0x0000000010211120 },  /* AES+PMULL, SHA1, SHA2, CRC32, LSE atomics (2), RDM */
	{ EH_ID_AA64ISAR1_EL1, 0 },
	{ EH_ID_AA64ISAR2_EL1, 0 },
	{ EH_ID_AA64MMFR0_EL1, 0x0000000000101125 },  /* 48-bit PA, 16-bit ASID, 4K/16K/64K */
	{ EH_ID_AA64MMFR1_EL1, 0x0000000000111122 },  /* PAN 1, LO, HPDS, VH 1, 16-bit VMID, HAFDBS 2 */
	{ EH_ID_AA64MMFR2_EL1, 0 },                   /* an Armv8.2 register: reads as zero */
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_CTR_EL0, 0x000000008444c004 },           /* 64-byte lines, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000004 },         /* DC ZVA on 64-byte blocks */
	{ 0 },
};

const struct eh_model eh_model_thunderx2 = {
	.name = "thunderx2",
	.desc = "Cavium ThunderX2 r1p1, SMT4, erratum 219",
	.midr = EH_MIDR(0x43, 1, 0x0af, 1),
	.threads_per_core = 4,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = eh_thunderx2_id_regs,
	.id_source = EH_TX2_ID_SOURCE,
};

/* The same part booted with SMT off in firmware: one thread per core. */
const struct eh_model eh_model_thunderx2_nosmt = {
	.name = "thunderx2-nosmt",
	.desc = "Cavium ThunderX2 r1p1 with SMT off, erratum 219 not exposed",
	.midr = EH_MIDR(0x43, 1, 0x0af, 1),
	.threads_per_core = 1,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = eh_thunderx2_id_regs,
	.id_source = EH_TX2_ID_SOURCE,
};

/* Cavium ThunderX (CN88xx T88, CN81xx T81): the passes on both sides of erratum 27456's ranges. */
#include "cores.h"
#include "eh/sysreg.h"

/*
 * There is no public technical reference manual for ThunderX. The fields the kernel's
 * capabilities read follow an Armv8.0-A part that is AArch64 only with a GICv3
 * system-register interface and the crypto and CRC32 instructions (the features Linux
 * reports on CN88xx: fp asimd evtstrm aes pmull sha1 sha2 crc32). The 128-byte cache
 * lines are ThunderX's (the reason for arm64's 128-byte L1_CACHE_BYTES); the debug and
 * memory-size fields are typical values, not taken from a manual.
 */
static const struct eh_id_reg thunderx_id_regs[] = {
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
	{ EH_CTR_EL0, 0x000000008555c005 },           /* 128-byte lines, PIPT I-cache, IDC and DIC 0 */
	{ EH_DCZID_EL0, 0x0000000000000005 },         /* DC ZVA on 128-byte blocks */
	{ 0 },
};

#define THUNDERX_ID_SOURCE "no public TRM: an Armv8.0-A AArch64-only part with the features Linux reports on CN88xx"
#define T88(var, rev) EH_MIDR(0x43, (var), 0x0a1, (rev))
#define T81(var, rev) EH_MIDR(0x43, (var), 0x0a2, (rev))

/* T88 pass 2.1: the last pass with erratum 27456. */
const struct eh_model eh_model_thunderx_t88_r1p1 =
	EH_CORE_MODEL("thunderx-t88-r1p1", "Cavium ThunderX T88 r1p1 (pass 2.1), 1 thread per core", T88(1, 1), 0,
		      thunderx_id_regs, THUNDERX_ID_SOURCE);

/* T88 pass 2.2: past 27456, still inside 30115's range. */
const struct eh_model eh_model_thunderx_t88_r1p2 =
	EH_CORE_MODEL("thunderx-t88-r1p2", "Cavium ThunderX T88 r1p2 (pass 2.2), 1 thread per core", T88(1, 2), 0,
		      thunderx_id_regs, THUNDERX_ID_SOURCE);

/* T81 pass 1.0: the only T81 pass with erratum 27456. */
const struct eh_model eh_model_thunderx_t81_r0p0 =
	EH_CORE_MODEL("thunderx-t81-r0p0", "Cavium ThunderX T81 r0p0 (pass 1.0), 1 thread per core", T81(0, 0), 0,
		      thunderx_id_regs, THUNDERX_ID_SOURCE);

/* T81 pass 1.1: past 27456, still inside 30115's range. */
const struct eh_model eh_model_thunderx_t81_r0p1 =
	EH_CORE_MODEL("thunderx-t81-r0p1", "Cavium ThunderX T81 r0p1 (pass 1.1), 1 thread per core", T81(0, 1), 0,
		      thunderx_id_regs, THUNDERX_ID_SOURCE);

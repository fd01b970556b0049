/* An Armv9-A core with SVE and SVE2: the CPU on which ID_AA64ZFR0_EL1 holds non-zero fields. */
#include <unicorn/unicorn.h>

#include "eh/model.h"
#include "eh/sysreg.h"

static const struct eh_id_reg sve2_capable_id_regs[] = {
	/* EL0-EL3 AArch64 only (1), FP and AdvSIMD implemented (0), SVE (35:32) = 1. */
	{ EH_ID_AA64PFR0_EL1, 0x0000000100001111 },
	/* SVEver 1 (SVE2), AES 2 (with PMULL128), BitPerm 1, SHA3 1, SM4 1. */
	{ EH_ID_AA64ZFR0_EL1, 0x0000010100010021 },
	{ EH_ID_AA64MMFR1_EL1, 0x0000000000200100 },  /* PAN = 2 (ARMv8.2: AT S1E1RP too), VH = 1 */
	{ 0 },
};

const struct eh_model eh_model_sve2_capable = {
	.name = "sve2-capable",
	.desc = "Armv9-A core with SVE and SVE2 (Neoverse N2 identity), 1 thread per core",
	.midr = EH_MIDR(0x41, 0, 0xd49, 0),
	.threads_per_core = 1,
	.pan = true,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = sve2_capable_id_regs,
};

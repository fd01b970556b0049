/* Broadcom Vulcan: the ThunderX2 design before it moved to Cavium; same family, same erratum 219. */
#include <unicorn/unicorn.h>

#include "errata.h"
#include "eh/sysreg.h"

static const struct eh_id_reg vulcan_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000000002222 },
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_ID_AA64MMFR1_EL1, 0x0000000000100100 },  /* PAN = 1, VH = 1 (ARMv8.1) */
	{ 0 },
};

const struct eh_model eh_model_vulcan = {
	.name = "vulcan",
	.desc = "Broadcom Vulcan r0p0, SMT4, erratum 219",
	.midr = EH_MIDR(0x42, 0, 0x516, 0),
	.threads_per_core = 4,
	.pan = true,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = vulcan_id_regs,
	.errata = eh_tx2_family_errata,
};

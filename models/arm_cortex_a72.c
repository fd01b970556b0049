/* Arm Cortex-A72: a generic ARMv8.0 core with none of the modelled errata. */
#include <unicorn/unicorn.h>

#include "eh/model.h"
#include "eh/sysreg.h"

static const struct eh_id_reg cortex_a72_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000000002222 },  /* EL0-EL3 AArch64 and AArch32 */
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_ID_AA64MMFR1_EL1, 0 },                  /* no PAN (ARMv8.1) */
	{ 0 },
};

const struct eh_model eh_model_cortex_a72 = {
	.name = "cortex-a72",
	.desc = "Arm Cortex-A72 r0p3, 1 thread per core, no modelled errata",
	.midr = EH_MIDR(0x41, 0, 0xd08, 3),
	.threads_per_core = 1,
	.uc_cpu = UC_CPU_ARM64_A72,
	.id_regs = cortex_a72_id_regs,
};

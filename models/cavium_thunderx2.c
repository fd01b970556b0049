/* Cavium ThunderX2 CN99xx: 4 threads per core (SMT4), exposed to erratum 219. */
#include <unicorn/unicorn.h>

#include "errata.h"
#include "eh/sysreg.h"

static const struct eh_id_reg thunderx2_id_regs[] = {
	{ EH_ID_AA64PFR0_EL1, 0x0000000000002222 },
	{ EH_ID_AA64ZFR0_EL1, 0 },
	{ EH_ID_AA64MMFR1_EL1, 0x0000000000100100 },  /* PAN = 1, VH = 1 (ARMv8.1) */
	{ 0 },
};

const struct eh_model eh_model_thunderx2 = {
	.name = "thunderx2",
	.desc = "Cavium ThunderX2 r1p1, SMT4, erratum 219",
	.midr = EH_MIDR(0x43, 1, 0x0af, 1),
	.threads_per_core = 4,
	.pan = true,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = thunderx2_id_regs,
	.errata = eh_tx2_family_errata,
};

/* The same part booted with SMT off in firmware: one thread per core. */
const struct eh_model eh_model_thunderx2_nosmt = {
	.name = "thunderx2-nosmt",
	.desc = "Cavium ThunderX2 r1p1 with SMT off, erratum 219 not exposed",
	.midr = EH_MIDR(0x43, 1, 0x0af, 1),
	.threads_per_core = 1,
	.pan = true,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = thunderx2_id_regs,
	.errata = eh_tx2_family_errata,
};

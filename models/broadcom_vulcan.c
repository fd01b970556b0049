/* Broadcom Vulcan: the ThunderX2 design before it moved to Cavium; same family, same erratum 219. */
#include <unicorn/unicorn.h>

#include "tx2_family.h"

/* The same core as ThunderX2: its ID registers (models/cavium_thunderx2.c says where they come from). */
const struct eh_model eh_model_vulcan = {
	.name = "vulcan",
	.desc = "Broadcom Vulcan r0p0, SMT4, erratum 219",
	.midr = EH_MIDR(0x42, 0, 0x516, 0),
	.threads_per_core = 4,
	.uc_cpu = UC_CPU_ARM64_MAX,
	.id_regs = eh_thunderx2_id_regs,
	.id_source = EH_TX2_ID_SOURCE,
};

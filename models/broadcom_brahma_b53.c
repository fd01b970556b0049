/* Broadcom Brahma-B53 r0p0: a Cortex-A53 derivative named by errata 843419 and 845719. */
#include "cores.h"

/* Broadcom publishes no TRM for Brahma-B53; the model takes Cortex-A53's table. */
const struct eh_model eh_model_brahma_b53_r0p0 =
	EH_CORE_MODEL("brahma-b53-r0p0", "Broadcom Brahma-B53 r0p0, 1 thread per core", EH_MIDR(0x42, 0, 0x100, 0), 0,
		      eh_cortex_a53_id_regs, "no public TRM: built on Cortex-A53, given " EH_CORTEX_A53_ID_SOURCE);

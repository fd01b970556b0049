/* Arm Cortex-A77: r1p0, the last revision with erratum 1508412, and r1p1 just past it. */
#include "cores.h"

/*
 * Cortex-A77 (Arm 101111) is an Armv8.2-A core with the same optional features as
 * Cortex-A76 (RAS, dot product, LRCPC, SSBS, CSV2, CSV3, AArch32 at EL0 only): it is given
 * Cortex-A76's ID register table. Its own TRM's values were not compared field by field.
 */
#define A77_ID_SOURCE "Cortex-A76's values (" EH_CORTEX_A76_ID_SOURCE "): the Cortex-A77 TRM (Arm 101111) not compared"

const struct eh_model eh_model_cortex_a77_r1p0 =
	EH_CORE_MODEL("cortex-a77-r1p0", "Arm Cortex-A77 r1p0, 1 thread per core", EH_MIDR(0x41, 1, 0xd0d, 0), 0,
		      eh_cortex_a76_id_regs, A77_ID_SOURCE);

const struct eh_model eh_model_cortex_a77_r1p1 =
	EH_CORE_MODEL("cortex-a77-r1p1", "Arm Cortex-A77 r1p1, 1 thread per core", EH_MIDR(0x41, 1, 0xd0d, 1), 0,
		      eh_cortex_a76_id_regs, A77_ID_SOURCE);

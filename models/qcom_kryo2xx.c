/* Qualcomm Kryo 2XX (Kryo 280, Snapdragon 835): Gold, Falkor v1's part number at another variant, and Silver, named by erratum 845719. */
#include "cores.h"

/*
 * Kryo 280 Gold is built on Cortex-A73 and Silver on Cortex-A53 (Armv8.0-A both); Qualcomm
 * publishes no TRM. Both are given the Cortex-A53 table: for the Gold core that means the
 * Armv8.0 values shared by A53 and A73 with the VIPT I-cache Linux reports on it ("Detected
 * VIPT I-cache"), not Cortex-A73's TRM compared field by field.
 */
#define KRYO_ID_SOURCE "no public TRM: Armv8.0-A cores built on Cortex-A73 and A53, given " EH_CORTEX_A53_ID_SOURCE

/* 0x51af8001, the MIDR Kryo 280 Gold reports: part 0x800 like Falkor v1, outside Falkor's r0p0 range. */
const struct eh_model eh_model_kryo2xx_gold_rap1 =
	EH_CORE_MODEL("kryo2xx-gold-rap1", "Qualcomm Kryo 2XX Gold rAp1 (Kryo 280), 1 thread per core",
		      EH_MIDR(0x51, 0xa, 0x800, 1), 0, eh_cortex_a53_id_regs, KRYO_ID_SOURCE);

/* 0x51af8014, Kryo 280 Silver: the rAp4 that erratum 845719's list names. */
const struct eh_model eh_model_kryo2xx_silver_rap4 =
	EH_CORE_MODEL("kryo2xx-silver-rap4", "Qualcomm Kryo 2XX Silver rAp4 (Kryo 280), 1 thread per core",
		      EH_MIDR(0x51, 0xa, 0x801, 4), 0, eh_cortex_a53_id_regs, KRYO_ID_SOURCE);

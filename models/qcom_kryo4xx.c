/* Qualcomm Kryo 4XX: Gold (built on Cortex-A76) at both ends of erratum 1286807's range and past it, Silver (on Cortex-A55) named by 1530923. */
#include "cores.h"

/*
 * Qualcomm publishes no TRM; the kernel's comments map Kryo 4XX Gold rcpe..rfpf to
 * Cortex-A76 r0p0..r3p1 and Kryo 4XX Silver rdpe to Cortex-A55 r1p0. The models take
 * those cores' tables.
 */
#define GOLD_ID_SOURCE "no public TRM: built on Cortex-A76, given " EH_CORTEX_A76_ID_SOURCE
#define GOLD(var, rev) EH_MIDR(0x51, (var), 0x804, (rev))

/* rcpe (Cortex-A76 r0p0): the first revision of every Kryo 4XX Gold range. */
const struct eh_model eh_model_kryo4xx_gold_rcpe =
	EH_CORE_MODEL("kryo4xx-gold-rcpe", "Qualcomm Kryo 4XX Gold rcpe, 1 thread per core", GOLD(0xc, 0xe), 0,
		      eh_cortex_a76_id_regs, GOLD_ID_SOURCE);

/* rfpe (Cortex-A76 r3p0): the last revision with 1286807 (REPEAT_TLBI). */
const struct eh_model eh_model_kryo4xx_gold_rfpe =
	EH_CORE_MODEL("kryo4xx-gold-rfpe", "Qualcomm Kryo 4XX Gold rfpe, 1 thread per core", GOLD(0xf, 0xe), 0,
		      eh_cortex_a76_id_regs, GOLD_ID_SOURCE);

/* rfpf (Cortex-A76 r3p1): past 1286807, the last revision with 1418040 and 1463225. */
const struct eh_model eh_model_kryo4xx_gold_rfpf =
	EH_CORE_MODEL("kryo4xx-gold-rfpf", "Qualcomm Kryo 4XX Gold rfpf, 1 thread per core", GOLD(0xf, 0xf), 0,
		      eh_cortex_a76_id_regs, GOLD_ID_SOURCE);

/* rdpe (Cortex-A55 r1p0): the one Kryo 4XX Silver revision with 1530923 (SPECULATIVE_AT). */
const struct eh_model eh_model_kryo4xx_silver_rdpe =
	EH_CORE_MODEL("kryo4xx-silver-rdpe", "Qualcomm Kryo 4XX Silver rdpe, 1 thread per core",
		      EH_MIDR(0x51, 0xd, 0x805, 0xe), 0, eh_cortex_a55_id_regs,
		      "no public TRM: built on Cortex-A55, given " EH_CORTEX_A55_ID_SOURCE);

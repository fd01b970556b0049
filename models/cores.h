/* What the tables of one-core models share: the line that makes a model, and the ID registers of Arm cores other parts are built on. */
#ifndef EH_MODELS_CORES_H
#define EH_MODELS_CORES_H

#include <unicorn/unicorn.h>

#include "eh/model.h"

/*
 * A model of one thread per core on Unicorn's max CPU (the case snippets are built for
 * Armv8.1-A, more than Unicorn's Armv8.0 cortex-a53/a57/a72 CPUs decode): name,
 * description, MIDR_EL1, REVIDR_EL1, ID registers and where their values come from.
 */
#define EH_CORE_MODEL(nm, description, midr_el1, revidr_el1, regs, source) \
	{ .name = (nm), .desc = (description), .midr = (midr_el1), .revidr = (revidr_el1), \
	  .threads_per_core = 1, .uc_cpu = UC_CPU_ARM64_MAX, .id_regs = (regs), .id_source = (source) }

/* Cortex-A53 (models/arm_cortex_a53.c): Brahma-B53 and Kryo 2XX Silver are built on it. */
extern const struct eh_id_reg eh_cortex_a53_id_regs[];
#define EH_CORTEX_A53_ID_SOURCE "Cortex-A53 TRM r0p4 (DDI 0500) 4.3, crypto on, GIC CPU interface off"

/* Cortex-A55 (models/arm_cortex_a55.c): Kryo 4XX Silver is built on it. */
extern const struct eh_id_reg eh_cortex_a55_id_regs[];
#define EH_CORTEX_A55_ID_SOURCE "Cortex-A55 TRM r2p0 (Arm 100442) B2, crypto on, GIC CPU interface off"

/* Cortex-A72 (models/arm_cortex_a72.c): the Cortex-A57 TRM gives the same values. */
extern const struct eh_id_reg eh_cortex_a72_id_regs[];

/* Cortex-A76 (models/arm_cortex_a76.c): Kryo 4XX Gold is built on it. */
extern const struct eh_id_reg eh_cortex_a76_id_regs[];
#define EH_CORTEX_A76_ID_SOURCE "Cortex-A76 TRM r4p1 (Arm 100798) B2, crypto on, GIC CPU interface off"

#endif

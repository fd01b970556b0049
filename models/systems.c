/*
 * Systems of several cores (big.LITTLE): one LITTLE core, the boot CPU, then one big core,
 * each an existing core model. What a kernel detects on a system, and which errata it has,
 * is combined from its cores as Linux does (harness/src/model/cap.c, erratum.c, model.c).
 */
#include <stddef.h>

#include <unicorn/unicorn.h>

#include "eh/model.h"

extern const struct eh_model eh_model_cortex_a53_r0p4;
extern const struct eh_model eh_model_cortex_a72;
extern const struct eh_model eh_model_cortex_a55_r2p0;
extern const struct eh_model eh_model_cortex_a76_r4p0;
extern const struct eh_model eh_model_cortex_a510_r1p1;
extern const struct eh_model eh_model_cortex_a710_r0p0;

/* A system: name, description, its cores (the boot CPU first). Identity and ID registers are the cores'. */
#define EH_SYSTEM_MODEL(nm, description, core_list) \
	{ .name = (nm), .desc = (description), .uc_cpu = UC_CPU_ARM64_MAX, .cores = (core_list), \
	  .id_source = "its cores', combined as Linux 6.1 sanitises them (models/ftr_linux_6_1.c)" }

static const struct eh_model *const a53_a72[] = { &eh_model_cortex_a53_r0p4, &eh_model_cortex_a72, NULL };
static const struct eh_model *const a55_a76[] = { &eh_model_cortex_a55_r2p0, &eh_model_cortex_a76_r4p0, NULL };
static const struct eh_model *const a510_a710[] = { &eh_model_cortex_a510_r1p1, &eh_model_cortex_a710_r0p0, NULL };

/* Cortex-A53 with Cortex-A72, as in Rockchip RK3399 (r0p4 LITTLE cores). */
const struct eh_model eh_model_system_a53_a72 =
	EH_SYSTEM_MODEL("system-a53-a72", "big.LITTLE: Cortex-A53 r0p4 (boot CPU) + Cortex-A72 r0p3", a53_a72);

/* Cortex-A55 with Cortex-A76 (DynamIQ), as in Rockchip RK3588. */
const struct eh_model eh_model_system_a55_a76 =
	EH_SYSTEM_MODEL("system-a55-a76", "big.LITTLE: Cortex-A55 r2p0 (boot CPU) + Cortex-A76 r4p0", a55_a76);

/* Cortex-A510 with Cortex-A710 (Armv9 DynamIQ). */
const struct eh_model eh_model_system_a510_a710 =
	EH_SYSTEM_MODEL("system-a510-a710", "big.LITTLE: Cortex-A510 r1p1 (boot CPU) + Cortex-A710 r0p0", a510_a710);

/*
 * The CPU lists and predicates the capability tables of several kernel versions share: each restates
 * code that reads the same in 6.1.192 and 6.12.118 (checked against both; 5.4's is unchecked).
 */
#include "caps.h"

const struct eh_midr_range eh_tx2_family_cpus[] = {
	EH_MIDR_ALL_VERSIONS("Broadcom Vulcan", BRCM_VULCAN),
	EH_MIDR_ALL_VERSIONS("Cavium ThunderX2", THUNDERX2),
	{ 0 },
};

const struct eh_midr_range eh_a57_a72_cpus[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A57", CORTEX_A57),
	EH_MIDR_ALL_VERSIONS("Cortex-A72", CORTEX_A72),
	{ 0 },
};

bool eh_caps_runs_at_el2(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_target_vhe(t);
}

bool eh_caps_tx2_tvm(const struct eh_capability *cap, const struct eh_target *t)
{
	unsigned i;

	if (!eh_cap_midr_in(cap->midr, t) || !eh_target_hyp_mode(t))
		return false;
	for (i = 0; i < t->model->threads_per_core; i++)
		if (eh_model_mpidr(t->model, i) & 0xff)
			return true;
	return false;
}

bool eh_caps_no_fpsimd(const struct eh_capability *cap, const struct eh_target *t)
{
	static const struct eh_id_field fp = { EH_ID_AA64PFR0_EL1, "FP", 16, 4, true, 0 };

	(void)cap;
	return eh_id_field_value(t->model, &fp) < 0;
}

bool eh_caps_never(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	(void)t;
	return false;
}

bool eh_caps_midr_and_vhe(const struct eh_capability *cap, const struct eh_target *t)
{
	return eh_cap_midr_in(cap->midr, t) && eh_target_vhe(t);
}

bool eh_caps_n1_1542419(const struct eh_capability *cap, const struct eh_target *t)
{
	static const struct eh_midr_range n1[] = { EH_MIDR_ALL_VERSIONS("Neoverse N1", NEOVERSE_N1), { 0 } };
	static const struct eh_id_field dic = { EH_CTR_EL0, "DIC", 29, 1, false, 1 };

	(void)cap;
	return eh_cap_midr_in(n1, t) && eh_id_field_value(t->model, &dic) >= 1;
}

bool eh_cpus_kryo_2xx(const struct eh_model *model)
{
	/* Implementer, architecture and the top digit of the part (MIDR_EL1 31:24, 19:16, 15:12). */
	return (eh_model_boot_core(model)->midr & 0xff0ff000u) == QCOM_KRYO;
}

bool eh_caps_kryo(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_cpus_kryo_2xx(t->model);
}

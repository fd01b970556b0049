/* The kernel capabilities a kernel detects on a model, with the Kconfig symbol that builds each in. */
#include <stddef.h>

#include "eh/model.h"
#include "eh/sysreg.h"

struct midr_part {
	unsigned implementer, part;
};

/* Every variant and revision of both parts, as the kernel's tx2_family_cpus[] matches them. */
static const struct midr_part tx2_family_cpus[] = {
	{ 0x42, 0x516 },  /* Broadcom Vulcan */
	{ 0x43, 0x0af },  /* Cavium ThunderX2 */
	{ 0 },
};

static bool is_tx2_family(const struct eh_capability *cap, const struct eh_target *t)
{
	const struct midr_part *p;

	(void)cap;
	for (p = tx2_family_cpus; p->implementer; p++)
		if (EH_MIDR_IMPL(t->model->midr) == p->implementer &&
		    EH_MIDR_PART(t->model->midr) == p->part)
			return true;
	return false;
}

/* 93916beb7014: trap VM ops only with a hypervisor and SMT siblings (some MPIDR.Aff0 != 0). */
static bool needs_tx2_tvm_workaround(const struct eh_capability *cap, const struct eh_target *t)
{
	unsigned i;

	if (!is_tx2_family(cap, t) || !eh_target_hyp_mode(t))
		return false;
	for (i = 0; i < t->model->threads_per_core; i++)
		if (eh_model_mpidr(t->model, i) & 0xff)
			return true;
	return false;
}

static bool has_pan(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return t->model->pan;
}

static bool has_sve(const struct eh_capability *cap, const struct eh_target *t)
{
	uint64_t pfr0;

	(void)cap;
	return !eh_model_id_reg(t->model, EH_ID_AA64PFR0_EL1, &pfr0) && ((pfr0 >> 32) & 0xf);
}

/* 6.1's ARM64_ALWAYS_BOOT / _SYSTEM: set on every CPU, so callbacks and alternatives can depend on them. */
static bool always(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	(void)t;
	return true;
}

const struct eh_capability eh_capabilities[] = {
	{
		.name = "ARM64_ALWAYS_BOOT",
		.desc = "Always set (Linux 6.1+), from boot",
		.matches = always,
	},
	{
		.name = "ARM64_ALWAYS_SYSTEM",
		.desc = "Always set (Linux 6.1+), once every CPU is up",
		.matches = always,
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM",
		.desc = "Cavium ThunderX2 erratum 219 (KVM guest sysreg trapping)",
		.config = "CONFIG_CAVIUM_TX2_ERRATUM_219",
		.matches = needs_tx2_tvm_workaround,
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM",
		.desc = "Cavium ThunderX2 erratum 219 (PRFM removal)",
		.config = "CONFIG_CAVIUM_TX2_ERRATUM_219",
		.matches = is_tx2_family,
	},
	{
		.name = "ARM64_HAS_PAN",
		.desc = "Privileged Access Never",
		.config = "CONFIG_ARM64_PAN",
		.matches = has_pan,
	},
	{
		.name = "ARM64_SVE",
		.desc = "Scalable Vector Extension",
		.config = "CONFIG_ARM64_SVE",
		.matches = has_sve,
	},
	{ 0 },
};

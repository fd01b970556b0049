/* Built-in capability numbering of known kernels, as their arch/arm64 cpucaps headers define it. */
#include "eh/cpucaps.h"

#include <string.h>

/* Linux 5.4, arch/arm64/include/asm/cpucaps.h (hand-written, after 9405447ef79b). */
static const struct eh_cpucap linux_5_4[] = {
	{ "ARM64_WORKAROUND_CLEAN_CACHE", 0 },
	{ "ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE", 1 },
	{ "ARM64_WORKAROUND_845719", 2 },
	{ "ARM64_HAS_SYSREG_GIC_CPUIF", 3 },
	{ "ARM64_HAS_PAN", 4 },
	{ "ARM64_HAS_LSE_ATOMICS", 5 },
	{ "ARM64_WORKAROUND_CAVIUM_23154", 6 },
	{ "ARM64_WORKAROUND_834220", 7 },
	{ "ARM64_HAS_NO_HW_PREFETCH", 8 },
	{ "ARM64_HAS_UAO", 9 },
	{ "ARM64_ALT_PAN_NOT_UAO", 10 },
	{ "ARM64_HAS_VIRT_HOST_EXTN", 11 },
	{ "ARM64_WORKAROUND_CAVIUM_27456", 12 },
	{ "ARM64_HAS_32BIT_EL0", 13 },
	{ "ARM64_HARDEN_EL2_VECTORS", 14 },
	{ "ARM64_HAS_CNP", 15 },
	{ "ARM64_HAS_NO_FPSIMD", 16 },
	{ "ARM64_WORKAROUND_REPEAT_TLBI", 17 },
	{ "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 18 },
	{ "ARM64_WORKAROUND_858921", 19 },
	{ "ARM64_WORKAROUND_CAVIUM_30115", 20 },
	{ "ARM64_HAS_DCPOP", 21 },
	{ "ARM64_SVE", 22 },
	{ "ARM64_UNMAP_KERNEL_AT_EL0", 23 },
	{ "ARM64_HARDEN_BRANCH_PREDICTOR", 24 },
	{ "ARM64_HAS_RAS_EXTN", 25 },
	{ "ARM64_WORKAROUND_843419", 26 },
	{ "ARM64_HAS_CACHE_IDC", 27 },
	{ "ARM64_HAS_CACHE_DIC", 28 },
	{ "ARM64_HW_DBM", 29 },
	{ "ARM64_SSBD", 30 },
	{ "ARM64_MISMATCHED_CACHE_TYPE", 31 },
	{ "ARM64_HAS_STAGE2_FWB", 32 },
	{ "ARM64_HAS_CRC32", 33 },
	{ "ARM64_SSBS", 34 },
	{ "ARM64_WORKAROUND_1418040", 35 },
	{ "ARM64_HAS_SB", 36 },
	{ "ARM64_WORKAROUND_1165522", 37 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH", 38 },
	{ "ARM64_HAS_ADDRESS_AUTH_IMP_DEF", 39 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH", 40 },
	{ "ARM64_HAS_GENERIC_AUTH_IMP_DEF", 41 },
	{ "ARM64_HAS_IRQ_PRIO_MASKING", 42 },
	{ "ARM64_HAS_DCPODP", 43 },
	{ "ARM64_WORKAROUND_1463225", 44 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 45 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 46 },
};

static const struct eh_cpucaps builtin[] = {
	{ "linux-5.4", linux_5_4, sizeof(linux_5_4) / sizeof(linux_5_4[0]), 47, EH_ALT_CB_NCAPS },
};

const char *const eh_cpucaps_builtin_versions[] = { "5.4", NULL };

const struct eh_cpucaps *eh_cpucaps_builtin(const char *version)
{
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (!strcmp(builtin[i].source + strlen("linux-"), version))
			return &builtin[i];
	return NULL;
}

const char *eh_cpucaps_name(const struct eh_cpucaps *t, unsigned n)
{
	size_t i;

	for (i = 0; i < t->ncap_entries; i++)
		if (t->caps[i].number == n)
			return t->caps[i].name;
	return NULL;
}

int eh_cpucaps_number(const struct eh_cpucaps *t, const char *name, unsigned *n)
{
	size_t i;

	for (i = 0; i < t->ncap_entries; i++)
		if (!strcmp(t->caps[i].name, name)) {
			*n = t->caps[i].number;
			return 0;
		}
	return EH_ENOENT;
}

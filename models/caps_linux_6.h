/*
 * How Linux 6.1 (Debian's linux-source-6.1, 6.1.192) and 6.12 (linux-source-6.12, 6.12.118)
 * detect each capability: arm64_features[] of arch/arm64/kernel/cpufeature.c, then
 * arm64_errata[] of arch/arm64/kernel/cpu_errata.c, restated entry by entry in their order.
 * One text for both, as the kernel's own: models/caps_linux_6_1.c and caps_linux_6_12.c include
 * it with EH_LINUX set (601, 612) and EH_LINUX_RULES naming their table; what 6.12 changed sits
 * under `#if EH_LINUX >= 612`, and tests/kernel/caps-source.sh compares each version with its
 * tree. A predicate written by hand says in its comment the versions it was checked against.
 * The CPU lists an erratum module names too (eh/sys/erratum.h declares them) are defined here,
 * beside the entry that restates the kernel's list, and stay shared: one list, so the module's
 * affected parts and the capability the kernel detects cannot drift apart.
 */
#include "caps.h"

#include "eh/kconfig.h"

/* An entry decided by one ID register field: has_cpuid_feature(), or a predicate kpred that does the same. */
#define FIELD_RULE(kpred, reg, fname, shift, minv) \
	.kernel_matches = (kpred), .matches = eh_cap_has_field, .field = EH_FIELD(reg, fname, shift, minv)
#define ID_FIELD(reg, fname, shift, minv) FIELD_RULE("has_cpuid_feature", reg, fname, shift, minv)
/* An entry decided by a MIDR list (ERRATA_MIDR_RANGE_LIST / CAP_MIDR_RANGE_LIST). */
#define MIDR_LIST(list) \
	.kernel_matches = "is_affected_midr_range_list", .matches = eh_cap_midr_affected, .midr = (list)
/* An entry decided by one MIDR range (ERRATA_MIDR_RANGE and its short forms). */
#define MIDR_RANGE(cpu, m, v0, r0, v1, r1) \
	.kernel_matches = "is_affected_midr_range", .matches = eh_cap_midr_affected, \
	.midr = (const struct eh_midr_range[]){ { (cpu), (m), (v0), (r0), (v1), (r1), NULL }, { 0 } }
#define MIDR_ALL(cpu, m) MIDR_RANGE(cpu, m, 0, 0, 0xf, 0xf)
/* The same, with the range in a named list an erratum module shares (one line and its sentinel). */
#define MIDR_RANGE_IN(list) \
	.kernel_matches = "is_affected_midr_range", .matches = eh_cap_midr_affected, .midr = (list)

extern const struct eh_cap_rules EH_LINUX_RULES;

/* unmap_kernel_at_el0(): CPUs that are not vulnerable to Meltdown and need no KPTI. */
static const struct eh_midr_range kpti_safe_list[] = {
	EH_MIDR_ALL_VERSIONS("Cavium ThunderX2", THUNDERX2),
	EH_MIDR_ALL_VERSIONS("Broadcom Vulcan", BRCM_VULCAN),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Cortex-A57", CORTEX_A57),
	EH_MIDR_ALL_VERSIONS("Cortex-A72", CORTEX_A72),
	EH_MIDR_ALL_VERSIONS("Cortex-A73", CORTEX_A73),
	EH_MIDR_ALL_VERSIONS("HiSilicon TSV110", HISI_TSV110),
	EH_MIDR_ALL_VERSIONS("NVIDIA Carmel", NVIDIA_CARMEL),
	EH_MIDR_ALL_VERSIONS("Kryo 2XX Gold", QCOM_KRYO_2XX_GOLD),
	EH_MIDR_ALL_VERSIONS("Kryo 2XX Silver", QCOM_KRYO_2XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 3XX Silver", QCOM_KRYO_3XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER),
	{ 0 },
};

/* ARM64_WORKAROUND_CAVIUM_27456: cavium_erratum_27456_cpus[]. */
#if EH_LINUX == 601
const struct eh_midr_range eh_cavium_27456_cpus[] = {
	{ "Cavium ThunderX T88", THUNDERX, 0, 0, 1, 1, NULL },      /* pass 1.x - 2.1 */
	{ "Cavium ThunderX T81", THUNDERX_81XX, 0, 0, 0, 0, NULL },  /* pass 1.0 */
	{ 0 },
};
#endif

static const struct eh_id_field csv3 = EH_FIELD(ID_AA64PFR0_EL1, CSV3, 60, 1);
static const struct eh_id_field e0pd = EH_FIELD(ID_AA64MMFR2_EL1, E0PD, 60, 1);

/*
 * The predicates below restate code that reads the same in 6.1.192 and 6.12.118 (checked
 * against both): 6.12 moved kaslr_requires_kpti() to asm/mmu.h and has unmap_kernel_at_el0()
 * ask kaslr_enabled() first, which decides as 6.1's kaslr_offset() > 0 did.
 */
/* kaslr_requires_kpti(), with KASLR assumed active whenever CONFIG_RANDOMIZE_BASE is on. */
static bool kaslr_requires_kpti(const struct eh_target *t)
{
	if (!eh_kconfig_enabled(t->config, "CONFIG_RANDOMIZE_BASE"))
		return false;
	if (eh_kconfig_enabled(t->config, "CONFIG_ARM64_E0PD") && eh_id_field_value(t->model, &e0pd))
		return false;
	if (eh_kconfig_enabled(t->config, "CONFIG_CAVIUM_ERRATUM_27456") &&
	    eh_cap_midr_in(eh_cavium_27456_cpus, t))
		return false;
	return true;
}

/* unmap_kernel_at_el0(): the erratum 27456 forces KPTI off, KASLR forces it on, else Meltdown decides. */
static bool unmap_kernel_at_el0(const struct eh_capability *cap, const struct eh_target *t)
{
	bool meltdown_safe = eh_cap_midr_in(kpti_safe_list, t) || eh_id_field_value(t->model, &csv3) >= 1;
	int forced = 0;

	(void)cap;
	if (eh_cap_detected(&EH_LINUX_RULES, t, "ARM64_WORKAROUND_CAVIUM_27456"))
		forced = -1;
	if (!forced && kaslr_requires_kpti(t))
		forced = 1;
	if (!eh_kconfig_enabled(t->config, "CONFIG_UNMAP_KERNEL_AT_EL0"))
		return false;
	return forced ? forced > 0 : !meltdown_safe;
}

/* has_useable_cnp(): the field, unless the Carmel erratum is detected (and not in a kdump kernel). */
static bool has_useable_cnp(const struct eh_capability *cap, const struct eh_target *t)
{
	return !eh_cap_detected(&EH_LINUX_RULES, t, "ARM64_WORKAROUND_NVIDIA_CARMEL_CNP") &&
	       eh_cap_has_field(cap, t);
}

static bool any_detected(const struct eh_target *t, const char *a, const char *b, const char *c)
{
	return eh_cap_detected(&EH_LINUX_RULES, t, a) || eh_cap_detected(&EH_LINUX_RULES, t, b) ||
	       eh_cap_detected(&EH_LINUX_RULES, t, c);
}

/* has_address_auth_metacap() */
static bool has_address_auth(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return any_detected(t, "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA5", "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA3",
			    "ARM64_HAS_ADDRESS_AUTH_IMP_DEF");
}

/* has_generic_auth() */
static bool has_generic_auth(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return any_detected(t, "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA5", "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA3",
			    "ARM64_HAS_GENERIC_AUTH_IMP_DEF");
}

/* proton-pack.c spectre_v2_safe_list[] */
static const struct eh_midr_range spectre_v2_safe_list[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	EH_MIDR_ALL_VERSIONS("HiSilicon TSV110", HISI_TSV110),
	EH_MIDR_ALL_VERSIONS("Kryo 2XX Silver", QCOM_KRYO_2XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 3XX Silver", QCOM_KRYO_3XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER),
	{ 0 },
};

static const struct eh_id_field csv2 = EH_FIELD(ID_AA64PFR0_EL1, CSV2, 56, 1);

/* has_spectre_v2(): not CSV2, not in the safe list (firmware assumed not to report "unaffected"). */
static bool has_spectre_v2(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_id_field_value(t->model, &csv2) < 1 && !eh_cap_midr_in(spectre_v2_safe_list, t);
}

/* proton-pack.c spectre_v4_safe_list[] */
static const struct eh_midr_range spectre_v4_safe_list[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	EH_MIDR_ALL_VERSIONS("Kryo 3XX Silver", QCOM_KRYO_3XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER),
	{ 0 },
};

/* has_spectre_v4(): set unless unaffected; SSBS only mitigates (firmware assumed not "unaffected"). */
static bool has_spectre_v4(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return !eh_cap_midr_in(spectre_v4_safe_list, t);
}

/* proton-pack.c is_spectre_bhb_safe() */
static const struct eh_midr_range spectre_bhb_safe_list[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Cortex-A510", CORTEX_A510),
	EH_MIDR_ALL_VERSIONS("Cortex-A520", CORTEX_A520),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	EH_MIDR_ALL_VERSIONS("Kryo 2XX Silver", QCOM_KRYO_2XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 3XX Silver", QCOM_KRYO_3XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER),
	{ 0 },
};

/* is_spectre_bhb_affected(): not CSV2.3 (ID_AA64PFR0_EL1.CSV2 >= 3) and not in the safe list. */
static bool is_spectre_bhb_affected(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_id_field_value(t->model, &csv2) < 3 && !eh_cap_midr_in(spectre_bhb_safe_list, t);
}

#if EH_LINUX >= 612
static const struct eh_id_field tgran4 = { EH_ID_AA64MMFR0_EL1, "TGRAN4", 28, 4, true, 1 };
static const struct eh_id_field tgran4_2 = { EH_ID_AA64MMFR0_EL1, "TGRAN4_2", 40, 4, false, 3 };

/*
 * has_lpa2(), checked against 6.12, for 4K pages (defconfig's and Debian's): stage 1 and
 * stage 2 both support 52-bit addresses (TGRAN4 = 52_BIT, TGRAN4_2 = 52_BIT exactly).
 */
static bool has_lpa2(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_id_field_value(t->model, &tgran4) == tgran4.min &&
	       eh_id_field_value(t->model, &tgran4_2) == tgran4_2.min;
}
#endif

/* ARM64_WORKAROUND_CLEAN_CACHE: workaround_clean_cache[] (Cortex-A53 826319/827319/824069, 819472). */
#if EH_LINUX == 601
const struct eh_midr_range eh_clean_cache_cpus[] = {
	{ "Cortex-A53", CORTEX_A53, 0, 0, 0, 2,
	  "CONFIG_ARM64_ERRATUM_826319|CONFIG_ARM64_ERRATUM_827319|CONFIG_ARM64_ERRATUM_824069" },
	{ "Cortex-A53", CORTEX_A53, 0, 0, 0, 1, "CONFIG_ARM64_ERRATUM_819472" },
	{ 0 },
};
#endif

static const struct eh_capability erratum_843419_list[] = {
	{ MIDR_RANGE("Cortex-A53", CORTEX_A53, 0, 0, 0, 4),
	  .fixed = (const struct eh_midr_fix[]){ { 0, 4, 1u << 8 }, { 0 } } },
	{ MIDR_RANGE("Brahma-B53", BRAHMA_B53, 0, 0, 0, 0) },
	{ 0 },
};

/* ARM64_WORKAROUND_845719: erratum_845719_list[]. */
#if EH_LINUX == 601
const struct eh_midr_range eh_erratum_845719_cpus[] = {
	{ "Cortex-A53", CORTEX_A53, 0, 0, 0, 4, NULL },
	{ "Brahma-B53", BRAHMA_B53, 0, 0, 0, 0, NULL },
	{ "Kryo 2XX Silver", QCOM_KRYO_2XX_SILVER, 0xa, 4, 0xa, 4, NULL },
	{ 0 },
};
#endif

static const struct eh_midr_range cavium_erratum_23154_cpus[] = {
	EH_MIDR_ALL_VERSIONS("Cavium ThunderX", THUNDERX),
	EH_MIDR_ALL_VERSIONS("Cavium ThunderX 81XX", THUNDERX_81XX),
	EH_MIDR_ALL_VERSIONS("Cavium ThunderX 83XX", THUNDERX_83XX),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 98XX", OCTX2_98XX),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 96XX", OCTX2_96XX),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 95XX", OCTX2_95XX),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 95XXN", OCTX2_95XXN),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 95XXMM", OCTX2_95XXMM),
	EH_MIDR_ALL_VERSIONS("Cavium OcteonTX2 95XXO", OCTX2_95XXO),
	{ 0 },
};

static const struct eh_midr_range cavium_erratum_30115_cpus[] = {
	{ "Cavium ThunderX T88", THUNDERX, 0, 0, 1, 2, NULL },       /* pass 1.x - 2.2 */
	{ "Cavium ThunderX T81", THUNDERX_81XX, 0, 0, 0, 2, NULL },  /* pass 1.0 - 1.2 */
	{ "Cavium ThunderX T83", THUNDERX_83XX, 0, 0, 0, 0, NULL },  /* pass 1.0 */
	{ 0 },
};

/* qcom_erratum_1003_list[]'s MIDR line: ERRATA_MIDR_REV(MIDR_QCOM_FALKOR_V1, 0, 0). */
#if EH_LINUX == 601
const struct eh_midr_range eh_falkor_e1003_cpus[] = {
	{ "Qualcomm Falkor v1", QCOM_FALKOR_V1, 0, 0, 0, 0, NULL },
	{ 0 },
};
#endif

static const struct eh_capability qcom_erratum_1003_list[] = {
	{ MIDR_RANGE_IN(eh_falkor_e1003_cpus) },
	{ .kernel_matches = "is_kryo_midr", .matches = eh_caps_kryo, .rule = "a Qualcomm Kryo part 0x2XX" },
	{ 0 },
};

/*
 * arm64_repeat_tlbi_list[]: every line that is a MIDR range, with the #ifdef around it
 * (Falkor E1009; Cortex-A76 1286807 and the Kryo4xx Gold revisions built on it; A55
 * 2441007; A510 2441009; the 4118414 list). The list's is_kryo_midr() line is a
 * predicate (eh_caps_kryo).
 */
#if EH_LINUX == 601
const struct eh_midr_range eh_repeat_tlbi_cpus[] = {
	{ "Qualcomm Falkor v1", QCOM_FALKOR_V1, 0, 0, 0, 0, "CONFIG_QCOM_FALKOR_ERRATUM_1009" },
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 0, "CONFIG_ARM64_ERRATUM_1286807" },
	{ "Kryo 4XX Gold", QCOM_KRYO_4XX_GOLD, 0xc, 0xe, 0xf, 0xe, "CONFIG_ARM64_ERRATUM_1286807" },
	{ "Cortex-A55", CORTEX_A55, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2441007" },
	{ "Cortex-A510", CORTEX_A510, 0, 0, 1, 1, "CONFIG_ARM64_ERRATUM_2441009" },
#define ERRATUM_4118414(name, m) { (name), (m), 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_4118414" }
	ERRATUM_4118414("C1-Premium", C1_PREMIUM),
	ERRATUM_4118414("C1-Ultra", C1_ULTRA),
	ERRATUM_4118414("Cortex-A76", CORTEX_A76),
	ERRATUM_4118414("Cortex-A76AE", CORTEX_A76AE),
	ERRATUM_4118414("Cortex-A77", CORTEX_A77),
	ERRATUM_4118414("Cortex-A78", CORTEX_A78),
	ERRATUM_4118414("Cortex-A78AE", CORTEX_A78AE),
	ERRATUM_4118414("Cortex-A78C", CORTEX_A78C),
	ERRATUM_4118414("Cortex-A710", CORTEX_A710),
	ERRATUM_4118414("Cortex-X1", CORTEX_X1),
	ERRATUM_4118414("Cortex-X1C", CORTEX_X1C),
	ERRATUM_4118414("Cortex-X2", CORTEX_X2),
	ERRATUM_4118414("Cortex-X3", CORTEX_X3),
	ERRATUM_4118414("Cortex-X4", CORTEX_X4),
	ERRATUM_4118414("Cortex-X925", CORTEX_X925),
	ERRATUM_4118414("Neoverse N1", NEOVERSE_N1),
	ERRATUM_4118414("Neoverse N2", NEOVERSE_N2),
	ERRATUM_4118414("Neoverse V1", NEOVERSE_V1),
	ERRATUM_4118414("Neoverse V2", NEOVERSE_V2),
	ERRATUM_4118414("Neoverse V3", NEOVERSE_V3),
	ERRATUM_4118414("Neoverse V3AE", NEOVERSE_V3AE),
	ERRATUM_4118414("NVIDIA Olympus", NVIDIA_OLYMPUS),
	ERRATUM_4118414("Microsoft Azure Cobalt 100", MICROSOFT_AZURE_COBALT_100),
#undef ERRATUM_4118414
	{ 0 },
};
#endif

static const struct eh_capability arm64_repeat_tlbi_list[] = {
	{ MIDR_LIST(eh_repeat_tlbi_cpus) },
	{ .config = "CONFIG_QCOM_FALKOR_ERRATUM_1009", .kernel_matches = "is_kryo_midr", .matches = eh_caps_kryo,
	  .rule = "a Qualcomm Kryo part 0x2XX" },
	{ 0 },
};

/* ARM64_WORKAROUND_1508412: ERRATA_MIDR_RANGE(MIDR_CORTEX_A77, 0, 0, 1, 0). */
#if EH_LINUX == 601
const struct eh_midr_range eh_erratum_1508412_cpus[] = {
	{ "Cortex-A77", CORTEX_A77, 0, 0, 1, 0, NULL },
	{ 0 },
};
#endif

/* ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD: ERRATA_MIDR_REV_RANGE(MIDR_CORTEX_A520, 0, 0, 1). */
#if EH_LINUX == 601
const struct eh_midr_range eh_erratum_2966298_cpus[] = {
	{ "Cortex-A520", CORTEX_A520, 0, 0, 0, 1, NULL },
	{ 0 },
};
#endif

static const struct eh_midr_range erratum_1418040_list[] = {
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 1, NULL },
	{ "Neoverse N1", NEOVERSE_N1, 0, 0, 3, 1, NULL },
	{ "Kryo 4XX Gold", QCOM_KRYO_4XX_GOLD, 0xc, 0xe, 0xf, 0xf, NULL },
	{ 0 },
};

/* ARM64_WORKAROUND_SPECULATIVE_AT: erratum_speculative_at_list[] (Cortex-A76 1165522, A57/A72 1319367, A55 1530923). */
#if EH_LINUX == 601
const struct eh_midr_range eh_speculative_at_cpus[] = {
	{ "Cortex-A76", CORTEX_A76, 0, 0, 2, 0, "CONFIG_ARM64_ERRATUM_1165522" },
	{ "Cortex-A57", CORTEX_A57, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_1319367" },
	{ "Cortex-A72", CORTEX_A72, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_1319367" },
	{ "Cortex-A55", CORTEX_A55, 0, 0, 2, 0, "CONFIG_ARM64_ERRATUM_1530923" },
	{ "Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER, 0xd, 0xe, 0xd, 0xe, "CONFIG_ARM64_ERRATUM_1530923" },
	{ 0 },
};
#endif

static const struct eh_midr_range erratum_1463225[] = {
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 1, NULL },
	{ "Kryo 4XX Gold", QCOM_KRYO_4XX_GOLD, 0xc, 0xe, 0xf, 0xf, NULL },
	{ 0 },
};

static const struct eh_midr_range trbe_overwrite_fill_mode_cpus[] = {
	{ "Neoverse N2", NEOVERSE_N2, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2139208" },
	{ "Microsoft Azure Cobalt 100", MICROSOFT_AZURE_COBALT_100, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2139208" },
	{ "Cortex-A710", CORTEX_A710, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2119858" },
	{ "Cortex-X2", CORTEX_X2, 0, 0, 2, 0, "CONFIG_ARM64_ERRATUM_2119858" },
	{ 0 },
};

/* ARM64_WORKAROUND_TSB_FLUSH_FAILURE: tsb_flush_fail_cpus[] (Neoverse N2 2067961, Cortex-A710 2054223). */
#if EH_LINUX == 601
const struct eh_midr_range eh_tsb_flush_fail_cpus[] = {
	{ "Neoverse N2", NEOVERSE_N2, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2067961" },
	{ "Microsoft Azure Cobalt 100", MICROSOFT_AZURE_COBALT_100, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2067961" },
	{ "Cortex-A710", CORTEX_A710, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2054223" },
	{ 0 },
};
#endif

static const struct eh_midr_range trbe_write_out_of_range_cpus[] = {
	{ "Neoverse N2", NEOVERSE_N2, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2253138" },
	{ "Microsoft Azure Cobalt 100", MICROSOFT_AZURE_COBALT_100, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2253138" },
	{ "Cortex-A710", CORTEX_A710, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_2224489" },
	{ "Cortex-X2", CORTEX_X2, 0, 0, 2, 0, "CONFIG_ARM64_ERRATUM_2224489" },
	{ 0 },
};

static const struct eh_midr_range workaround_amu_constcnt_list[] = {
	{ "Cortex-A510", CORTEX_A510, 0, 0, 1, 1, "CONFIG_ARM64_ERRATUM_2457168" },
	{ "Cortex-A725", CORTEX_A725, 0, 0, 0, 2, "CONFIG_ARM64_ERRATUM_3821522" },
	{ 0 },
};

static const struct eh_midr_range broken_aarch32_aes[] = {
	{ "Cortex-A57", CORTEX_A57, 0, 1, 0xf, 0xf, NULL },
	EH_MIDR_ALL_VERSIONS("Cortex-A72", CORTEX_A72),
	{ 0 },
};

static const struct eh_midr_range erratum_spec_ssbs_list[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A76", CORTEX_A76),
	EH_MIDR_ALL_VERSIONS("Cortex-A77", CORTEX_A77),
	EH_MIDR_ALL_VERSIONS("Cortex-A78", CORTEX_A78),
	EH_MIDR_ALL_VERSIONS("Cortex-A78C", CORTEX_A78C),
	EH_MIDR_ALL_VERSIONS("Cortex-A710", CORTEX_A710),
	EH_MIDR_ALL_VERSIONS("Cortex-A715", CORTEX_A715),
	EH_MIDR_ALL_VERSIONS("Cortex-A720", CORTEX_A720),
	EH_MIDR_ALL_VERSIONS("Cortex-A725", CORTEX_A725),
	EH_MIDR_ALL_VERSIONS("Cortex-X1", CORTEX_X1),
	EH_MIDR_ALL_VERSIONS("Cortex-X1C", CORTEX_X1C),
	EH_MIDR_ALL_VERSIONS("Cortex-X2", CORTEX_X2),
	EH_MIDR_ALL_VERSIONS("Cortex-X3", CORTEX_X3),
	EH_MIDR_ALL_VERSIONS("Cortex-X4", CORTEX_X4),
	EH_MIDR_ALL_VERSIONS("Cortex-X925", CORTEX_X925),
#if EH_LINUX >= 612
	EH_MIDR_ALL_VERSIONS("Microsoft Azure Cobalt 100", MICROSOFT_AZURE_COBALT_100),
#endif
	EH_MIDR_ALL_VERSIONS("Neoverse N1", NEOVERSE_N1),
	EH_MIDR_ALL_VERSIONS("Neoverse N2", NEOVERSE_N2),
	EH_MIDR_ALL_VERSIONS("Neoverse N3", NEOVERSE_N3),
	EH_MIDR_ALL_VERSIONS("Neoverse V1", NEOVERSE_V1),
	EH_MIDR_ALL_VERSIONS("Neoverse V2", NEOVERSE_V2),
	EH_MIDR_ALL_VERSIONS("Neoverse V3", NEOVERSE_V3),
	EH_MIDR_ALL_VERSIONS("Neoverse V3AE", NEOVERSE_V3AE),
	{ 0 },
};

#if EH_LINUX >= 612
/* ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD: erratum_spec_unpriv_load_list[] (A510 3117295 joined in 6.8). */
static const struct eh_midr_range spec_unpriv_load_list[] = {
	{ "Cortex-A510", CORTEX_A510, 0, 0, 0xf, 0xf, "CONFIG_ARM64_ERRATUM_3117295" },
	{ "Cortex-A520", CORTEX_A520, 0, 0, 0, 1, "CONFIG_ARM64_ERRATUM_2966298" },
	{ 0 },
};

static const struct eh_midr_range erratum_ac03_cpu_38_list[] = {
	EH_MIDR_ALL_VERSIONS("AmpereOne", AMPERE1),
	EH_MIDR_ALL_VERSIONS("AmpereOne AC04", AMPERE1A),
	{ 0 },
};
#endif

#if EH_LINUX == 612
/* ARM64_WORKAROUND_2645198: ERRATA_MIDR_ALL_VERSIONS(MIDR_CORTEX_A715). */
const struct eh_midr_range eh_erratum_2645198_cpus[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A715", CORTEX_A715),
	{ 0 },
};
#endif

static const struct eh_capability linux_caps[] = {
	/* arm64_features[] */
	{
		.name = "ARM64_ALWAYS_BOOT",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		.kernel_matches = "has_always",
		.matches = eh_cap_always,
	},
	{
		.name = "ARM64_ALWAYS_SYSTEM",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_always",
		.matches = eh_cap_always,
	},
	{
#if EH_LINUX >= 612
		.name = "ARM64_HAS_GIC_CPUIF_SYSREGS",  /* renamed in 6.3 */
#else
		.name = "ARM64_HAS_SYSREG_GIC_CPUIF",
#endif
		.desc = "GIC system register CPU interface",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		FIELD_RULE("has_useable_gicv3_cpuif", ID_AA64PFR0_EL1, GIC, 24, 1),
		.assumed = "firmware lets EL1 set ICC_SRE_EL1.SRE (gic_enable_sre() succeeds)",
	},
	{
		.name = "ARM64_HAS_ECV",
		.desc = "Enhanced Counter Virtualization",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR0_EL1, ECV, 60, 1),
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_HAS_ECV_CNTPOFF",
		.desc = "Enhanced Counter Virtualization (CNTPOFF)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR0_EL1, ECV, 60, 2),
	},
#endif
	{
		.name = "ARM64_HAS_PAN",
		.desc = "Privileged Access Never",
		.config = "CONFIG_ARM64_PAN",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR1_EL1, PAN, 20, 1),
	},
	{
		.name = "ARM64_HAS_EPAN",
		.desc = "Enhanced Privileged Access Never",
		.config = "CONFIG_ARM64_EPAN",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR1_EL1, PAN, 20, 3),
	},
	{
		.name = "ARM64_HAS_LSE_ATOMICS",
		.desc = "LSE atomic instructions",
		.config = "CONFIG_ARM64_LSE_ATOMICS",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR0_EL1, Atomic, 20, 2),
	},
#if EH_LINUX < 612  /* removed with ThunderX's PRFM-less memcpy in 6.4 */
	{
		.name = "ARM64_HAS_NO_HW_PREFETCH",
		.desc = "Software prefetching using PRFM",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		.kernel_matches = "has_no_hw_prefetch",
		.matches = eh_cap_midr_affected,
		.midr = (const struct eh_midr_range[]){ { "Cavium ThunderX", THUNDERX, 0, 0, 1, 0xf, NULL }, { 0 } },
	},
#endif
	{
		.name = "ARM64_HAS_VIRT_HOST_EXTN",
		.desc = "Virtualization Host Extensions",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		.kernel_matches = "runs_at_el2",
		.matches = eh_caps_runs_at_el2,
		.rule = "booted at EL2 (boot mode el2) on a CPU with ID_AA64MMFR1_EL1.VH >= 1",
	},
#if EH_LINUX >= 612
	{
		/* has_nested_virt_support(), checked against 6.12. */
		.name = "ARM64_HAS_NESTED_VIRT",
		.desc = "Nested Virtualization Support",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_nested_virt_support",
		.matches = eh_caps_never,
		.field = EH_FIELD(ID_AA64MMFR2_EL1, NV, 24, 2),
		.rule = "kvm-arm.mode=nested on the command line and ID_AA64MMFR2_EL1.NV >= 2",
		.assumed = "off: no boot mode here passes kvm-arm.mode=nested",
	},
#endif
	{
		.name = "ARM64_HAS_32BIT_EL0_DO_NOT_USE",
		.type = EH_CAP_SYSTEM_FEATURE,
		FIELD_RULE("has_32bit_el0", ID_AA64PFR0_EL1, EL0, 0, 2),
	},
	{
		.name = "ARM64_HAS_32BIT_EL1",
		.desc = "32-bit EL1 Support",
		.config = "CONFIG_KVM",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR0_EL1, EL1, 4, 2),
	},
	{
		.name = "ARM64_KVM_PROTECTED_MODE",
		.desc = "Protected KVM",
		.config = "CONFIG_KVM",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "is_kvm_protected_mode",
		.matches = eh_caps_never,
		.rule = "kvm-arm.mode=protected on the command line",
		.assumed = "off: no boot mode here passes kvm-arm.mode=protected",
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_HAS_HCX",
		.desc = "HCRX_EL2 register",
		.config = "CONFIG_KVM",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		ID_FIELD(ID_AA64MMFR1_EL1, HCX, 40, 1),
	},
#endif
	{
		.name = "ARM64_UNMAP_KERNEL_AT_EL0",
		.desc = "Kernel page table isolation (KPTI)",
		.type = EH_CAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE,
		.kernel_matches = "unmap_kernel_at_el0",
		.matches = unmap_kernel_at_el0,
		.field = EH_FIELD(ID_AA64PFR0_EL1, CSV3, 60, 1),
		.rule = "CONFIG_UNMAP_KERNEL_AT_EL0 and: off on Cavium erratum 27456 parts; on with "
			"CONFIG_RANDOMIZE_BASE unless E0PD (ID_AA64MMFR2_EL1.E0PD, with CONFIG_ARM64_E0PD); "
			"else on unless Meltdown-safe (ID_AA64PFR0_EL1.CSV3 >= 1 or in kpti_safe_list)",
		.assumed = "KASLR active when CONFIG_RANDOMIZE_BASE=y (the boot loader gives a seed), no kpti= "
			   "or mitigations=off on the command line",
	},
#if EH_LINUX >= 612
	{
		/* 6.9 turned ARM64_HAS_NO_FPSIMD around: FP (signed) >= 0, FP implemented. */
		.name = "ARM64_HAS_FPSIMD",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_cpuid_feature",
		.matches = eh_cap_has_field,
		.field = { EH_ID_AA64PFR0_EL1, "FP", 16, 4, true, 0 },
	},
#else
	{
		.name = "ARM64_HAS_NO_FPSIMD",
		.type = EH_CAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE,
		.kernel_matches = "has_no_fpsimd",
		.matches = eh_caps_no_fpsimd,
		.rule = "ID_AA64PFR0_EL1.FP [19:16] (signed) < 0",
	},
#endif
	{
		.name = "ARM64_HAS_DCPOP",
		.desc = "Data cache clean to Point of Persistence",
		.config = "CONFIG_ARM64_PMEM",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, DPB, 0, 1),
	},
	{
		.name = "ARM64_HAS_DCPODP",
		.desc = "Data cache clean to Point of Deep Persistence",
		.config = "CONFIG_ARM64_PMEM",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, DPB, 0, 2),
	},
	{
		.name = "ARM64_SVE",
		.desc = "Scalable Vector Extension",
		.config = "CONFIG_ARM64_SVE",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR0_EL1, SVE, 32, 1),
	},
	{
		.name = "ARM64_HAS_RAS_EXTN",
		.desc = "RAS Extension Support",
		.config = "CONFIG_ARM64_RAS_EXTN",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR0_EL1, RAS, 28, 1),
	},
	{
		/* Enabled on every CPU so that late CPUs with AMU can use it (has_amu() returns true, in 6.1 and 6.12). */
		.name = "ARM64_HAS_AMU_EXTN",
#if EH_LINUX >= 612
		.desc = "Activity Monitors Unit (AMU)",
#endif
		.config = "CONFIG_ARM64_AMU_EXTN",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		.kernel_matches = "has_amu",
		.matches = eh_cap_always,
	},
	{
		.name = "ARM64_HAS_CACHE_IDC",
		.desc = "Data cache clean to the PoU not required for I/D coherence",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_cache_idc",
		.matches = eh_cap_has_field,
		.field = { EH_CTR_EL0, "IDC", 28, 1, false, 1 },
		.assumed = "CLIDR_EL1 is not modelled: IDC as CTR_EL0 reports it",
	},
	{
		.name = "ARM64_HAS_CACHE_DIC",
		.desc = "Instruction cache invalidation not required for I/D coherence",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_cache_dic",
		.matches = eh_cap_has_field,
		.field = { EH_CTR_EL0, "DIC", 29, 1, false, 1 },
	},
	{
		.name = "ARM64_HAS_STAGE2_FWB",
		.desc = "Stage-2 Force Write-Back",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR2_EL1, FWB, 40, 1),
	},
	{
		.name = "ARM64_HAS_ARMv8_4_TTL",
		.desc = "ARMv8.4 Translation Table Level",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR2_EL1, TTL, 48, 1),
	},
	{
		.name = "ARM64_HAS_TLB_RANGE",
		.desc = "TLB range maintenance instructions",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR0_EL1, TLB, 56, 2),
	},
	{
		/* Always enabled so late CPUs can use it (has_hw_dbm() returns true, in 6.1 and 6.12). */
		.name = "ARM64_HW_DBM",
#if EH_LINUX >= 612
		.desc = "Hardware dirty bit management",
#endif
		.config = "CONFIG_ARM64_HW_AFDBM",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		.kernel_matches = "has_hw_dbm",
		.matches = eh_cap_always,
	},
	{
		.name = "ARM64_HAS_CRC32",
		.desc = "CRC32 instructions",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR0_EL1, CRC32, 16, 1),
	},
	{
		.name = "ARM64_SSBS",
		.desc = "Speculative Store Bypassing Safe (SSBS)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, SSBS, 4, 1),
	},
	{
		.name = "ARM64_HAS_CNP",
		.desc = "Common not Private translations",
		.config = "CONFIG_ARM64_CNP",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_useable_cnp",
		.matches = has_useable_cnp,
		.field = EH_FIELD(ID_AA64MMFR2_EL1, CnP, 0, 1),
		.rule = "ID_AA64MMFR2_EL1.CnP [3:0] >= 1, unless ARM64_WORKAROUND_NVIDIA_CARMEL_CNP is detected",
		.assumed = "not a kdump kernel",
	},
	{
		.name = "ARM64_HAS_SB",
		.desc = "Speculation barrier (SB)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, SB, 36, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA5",
		.desc = "Address authentication (architected QARMA5 algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		FIELD_RULE("has_address_auth_cpucap", ID_AA64ISAR1_EL1, APA, 4, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA3",
		.desc = "Address authentication (architected QARMA3 algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		FIELD_RULE("has_address_auth_cpucap", ID_AA64ISAR2_EL1, APA3, 12, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH_IMP_DEF",
		.desc = "Address authentication (IMP DEF algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		FIELD_RULE("has_address_auth_cpucap", ID_AA64ISAR1_EL1, API, 8, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		.kernel_matches = "has_address_auth_metacap",
		.matches = has_address_auth,
		.rule = "any of ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA5, _ARCH_QARMA3, _IMP_DEF",
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA5",
		.desc = "Generic authentication (architected QARMA5 algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, GPA, 24, 1),
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA3",
		.desc = "Generic authentication (architected QARMA3 algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR2_EL1, GPA3, 8, 1),
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH_IMP_DEF",
		.desc = "Generic authentication (IMP DEF algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, GPI, 28, 1),
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_generic_auth",
		.matches = has_generic_auth,
		.rule = "any of ARM64_HAS_GENERIC_AUTH_ARCH_QARMA5, _ARCH_QARMA3, _IMP_DEF",
	},
	{
#if EH_LINUX >= 612
		.name = "ARM64_HAS_GIC_PRIO_MASKING",  /* renamed in 6.2 */
#else
		.name = "ARM64_HAS_IRQ_PRIO_MASKING",
#endif
		.desc = "IRQ priority masking",
		.config = "CONFIG_ARM64_PSEUDO_NMI",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		.kernel_matches = "can_use_gic_priorities",
		.matches = eh_caps_never,
		.field = EH_FIELD(ID_AA64PFR0_EL1, GIC, 24, 1),
		.rule = "irqchip.gicv3_pseudo_nmi=1 on the command line and a usable GICv3 CPU interface",
		.assumed = "off: no boot mode here passes irqchip.gicv3_pseudo_nmi=1",
	},
#if EH_LINUX >= 612
	{
		/* has_gic_prio_relaxed_sync(), checked against 6.12: only where priority masking is in use. */
		.name = "ARM64_HAS_GIC_PRIO_RELAXED_SYNC",
		.config = "CONFIG_ARM64_PSEUDO_NMI",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		.kernel_matches = "has_gic_prio_relaxed_sync",
		.matches = eh_caps_never,
		.rule = "ARM64_HAS_GIC_PRIO_MASKING and the GIC's ICC_CTLR_EL1.PMHE clear",
		.assumed = "off: ARM64_HAS_GIC_PRIO_MASKING is off here",
	},
#endif
	{
		.name = "ARM64_HAS_E0PD",
		.desc = "E0PD",
		.config = "CONFIG_ARM64_E0PD",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR2_EL1, E0PD, 60, 1),
	},
	{
		.name = "ARM64_HAS_RNG",
		.desc = "Random Number Generator",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR0_EL1, RNDR, 60, 1),
	},
	{
		/* A strict boot-CPU feature with CONFIG_ARM64_BTI_KERNEL, a system one without. */
		.name = "ARM64_BTI",
		.desc = "Branch Target Identification",
		.config = "CONFIG_ARM64_BTI",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, BT, 0, 1),
	},
	{
		.name = "ARM64_MTE",
		.desc = "Memory Tagging Extension",
		.config = "CONFIG_ARM64_MTE",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, MTE, 8, 2),
	},
	{
		.name = "ARM64_MTE_ASYMM",
		.desc = "Asymmetric MTE Tag Check Fault",
		.config = "CONFIG_ARM64_MTE",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, MTE, 8, 3),
	},
	{
		.name = "ARM64_HAS_LDAPR",
		.desc = "RCpc load-acquire (LDAPR)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, LRCPC, 20, 1),
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_HAS_FGT",
		.desc = "Fine Grained Traps",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR0_EL1, FGT, 56, 1),
	},
#endif
	{
		.name = "ARM64_SME",
		.desc = "Scalable Matrix Extension",
		.config = "CONFIG_ARM64_SME",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, SME, 24, 1),
	},
	{
		.name = "ARM64_SME_FA64",
		.desc = "FA64",
		.config = "CONFIG_ARM64_SME",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_cpuid_feature",
		.matches = eh_cap_has_field,
		.field = { EH_ID_AA64SMFR0_EL1, "FA64", 63, 1, false, 1 },
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_SME2",
		.desc = "SME2",
		.config = "CONFIG_ARM64_SME",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, SME, 24, 2),
	},
#endif
	{
		.name = "ARM64_HAS_WFXT",
		.desc = "WFx with timeout",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR2_EL1, WFxT, 0, 2),
	},
	{
		.name = "ARM64_HAS_TIDCP1",
		.desc = "Trap EL0 IMPLEMENTATION DEFINED functionality",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR1_EL1, TIDCP1, 52, 1),
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_HAS_DIT",
		.desc = "Data independent timing control (DIT)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR0_EL1, DIT, 48, 1),
	},
	{
		.name = "ARM64_HAS_MOPS",
		.desc = "Memory Copy and Memory Set instructions",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR2_EL1, MOPS, 16, 1),
	},
	{
		.name = "ARM64_HAS_TCR2",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR3_EL1, TCRX, 0, 1),
	},
	{
		.name = "ARM64_HAS_S1PIE",
		.desc = "Stage-1 Permission Indirection Extension (S1PIE)",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		ID_FIELD(ID_AA64MMFR3_EL1, S1PIE, 8, 1),
	},
	{
		/* hvhe_possible(), checked against 6.12. */
		.name = "ARM64_KVM_HVHE",
		.desc = "VHE for hypervisor only",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "hvhe_possible",
		.matches = eh_caps_never,
		.rule = "arm64_sw.hvhe=1 on the command line",
		.assumed = "off: no boot mode here passes arm64_sw.hvhe=1",
	},
	{
		.name = "ARM64_HAS_EVT",
		.desc = "Enhanced Virtualization Traps",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR2_EL1, EVT, 56, 1),
	},
	{
		.name = "ARM64_HAS_LPA2",
		.desc = "52-bit Virtual Addressing for KVM (LPA2)",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_lpa2",
		.matches = has_lpa2,
		.rule = "ID_AA64MMFR0_EL1.TGRAN4 [31:28] = 1 and TGRAN4_2 [43:40] = 3 (4K pages)",
	},
	{
		.name = "ARM64_HAS_FPMR",
		.desc = "FPMR",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR2_EL1, FPMR, 32, 1),
	},
	{
		/* With 4K pages (defconfig's and Debian's); 64K pages read VARange, 16K TGRAN16. */
		.name = "ARM64_HAS_VA52",
		.desc = "52-bit Virtual Addressing (LPA2)",
		.config = "CONFIG_ARM64_VA_BITS_52",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		.kernel_matches = "has_cpuid_feature",
		.matches = eh_cap_has_field,
		.field = { EH_ID_AA64MMFR0_EL1, "TGRAN4", 28, 4, true, 1 },
	},
	{
		/* has_nv1(), checked against 6.12: only with nested virtualisation. */
		.name = "ARM64_HAS_HCR_NV1",
		.desc = "NV1",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "has_nv1",
		.matches = eh_caps_never,
		.rule = "ARM64_HAS_NESTED_VIRT, ID_AA64MMFR4_EL1.E2H0 not NI_NV1, not an Apple M2",
		.assumed = "off: ARM64_HAS_NESTED_VIRT is off here",
	},
	{
		.name = "ARM64_HAS_S1POE",
		.desc = "Stage-1 Permission Overlay Extension (S1POE)",
		.config = "CONFIG_ARM64_POE",
		.type = EH_CAP_BOOT_CPU_FEATURE,
		ID_FIELD(ID_AA64MMFR3_EL1, S1POE, 16, 1),
	},
#endif

	/* arm64_errata[] */
	{
		.name = "ARM64_WORKAROUND_CLEAN_CACHE",
		.desc = "ARM errata 826319, 827319, 824069, or 819472",
		.config = "CONFIG_ARM64_WORKAROUND_CLEAN_CACHE",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_clean_cache_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE",
		.desc = "ARM erratum 832075",
		.config = "CONFIG_ARM64_ERRATUM_832075",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A57", CORTEX_A57, 0, 0, 1, 2),
	},
	{
		.name = "ARM64_WORKAROUND_834220",
		.desc = "ARM erratum 834220",
		.config = "CONFIG_ARM64_ERRATUM_834220",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A57", CORTEX_A57, 0, 0, 1, 2),
	},
	{
		.name = "ARM64_WORKAROUND_843419",
		.desc = "ARM erratum 843419",
		.config = "CONFIG_ARM64_ERRATUM_843419",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "cpucap_multi_entry_cap_matches",
		.matches = eh_cap_any,
		.any = erratum_843419_list,
	},
	{
		.name = "ARM64_WORKAROUND_845719",
		.desc = "ARM erratum 845719",
		.config = "CONFIG_ARM64_ERRATUM_845719",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_erratum_845719_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_23154",
		.desc = "Cavium errata 23154 and 38545",
		.config = "CONFIG_CAVIUM_ERRATUM_23154",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(cavium_erratum_23154_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_27456",
		.desc = "Cavium erratum 27456",
		.config = "CONFIG_CAVIUM_ERRATUM_27456",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_cavium_27456_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_30115",
		.desc = "Cavium erratum 30115",
		.config = "CONFIG_CAVIUM_ERRATUM_30115",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(cavium_erratum_30115_cpus),
	},
	{
		.name = "ARM64_MISMATCHED_CACHE_TYPE",
		.desc = "Mismatched cache type (CTR_EL0)",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_mismatched_cache_type",
		.matches = eh_caps_never,
		.rule = "a CPU whose CTR_EL0 differs from the system's",
		.assumed = "off: every CPU of a model is the same core",
	},
	{
		.name = "ARM64_WORKAROUND_QCOM_FALKOR_E1003",
		.desc = "Qualcomm Technologies Falkor/Kryo erratum 1003",
		.config = "CONFIG_QCOM_FALKOR_ERRATUM_1003",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "cpucap_multi_entry_cap_matches",
		.matches = eh_cap_any,
		.any = qcom_erratum_1003_list,
	},
	{
		.name = "ARM64_WORKAROUND_REPEAT_TLBI",
		.desc = "Broken broadcast TLBI completion",
		.config = "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "cpucap_multi_entry_cap_matches",
		.matches = eh_cap_any,
		.any = arm64_repeat_tlbi_list,
	},
	{
		.name = "ARM64_WORKAROUND_858921",
		.desc = "ARM erratum 858921",
		.config = "CONFIG_ARM64_ERRATUM_858921",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_ALL("Cortex-A73", CORTEX_A73),
	},
	{
		.name = "ARM64_SPECTRE_V2",
		.desc = "Spectre-v2",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_spectre_v2",
		.matches = has_spectre_v2,
		.rule = "ID_AA64PFR0_EL1.CSV2 [59:56] = 0 and not in spectre_v2_safe_list",
		.assumed = "firmware does not report the CPU unaffected (SMCCC ARCH_WORKAROUND_1)",
	},
	{
		.name = "ARM64_SPECTRE_V3A",
		.desc = "Spectre-v3a",
		.config = "CONFIG_RANDOMIZE_BASE",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_spectre_v3a",
		.matches = eh_cap_midr_affected,
		.midr = eh_a57_a72_cpus,
	},
	{
		.name = "ARM64_SPECTRE_V4",
		.desc = "Spectre-v4",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_spectre_v4",
		.matches = has_spectre_v4,
		.rule = "not in spectre_v4_safe_list (with SSBS the CPU is mitigated, still set)",
		.assumed = "firmware does not report the CPU unaffected (SMCCC ARCH_WORKAROUND_2)",
	},
	{
		.name = "ARM64_SPECTRE_BHB",
		.desc = "Spectre-BHB",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "is_spectre_bhb_affected",
		.matches = is_spectre_bhb_affected,
		.rule = "ID_AA64PFR0_EL1.CSV2 [59:56] < 3 and not in spectre_bhb_safe_list",
	},
	{
		.name = "ARM64_WORKAROUND_1418040",
		.desc = "ARM erratum 1418040",
		.config = "CONFIG_ARM64_ERRATUM_1418040",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		MIDR_LIST(erratum_1418040_list),
	},
	{
		.name = "ARM64_WORKAROUND_SPECULATIVE_AT",
		.desc = "ARM errata 1165522, 1319367, or 1530923",
		.config = "CONFIG_ARM64_WORKAROUND_SPECULATIVE_AT",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_speculative_at_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_1463225",
		.desc = "ARM erratum 1463225",
		.config = "CONFIG_ARM64_ERRATUM_1463225",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_cortex_a76_erratum_1463225",
		.matches = eh_caps_midr_and_vhe,
		.midr = erratum_1463225,
		.rule = "MIDR_EL1 in Cortex-A76 r0p0-r3p1, Kryo 4XX Gold r12p14-r15p15, booted at EL2 with VHE",
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM",
		.desc = "Cavium ThunderX2 erratum 219 (KVM guest sysreg trapping)",
		.config = "CONFIG_CAVIUM_TX2_ERRATUM_219",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "needs_tx2_tvm_workaround",
		.matches = eh_caps_tx2_tvm,
		.midr = eh_tx2_family_cpus,
		.rule = "MIDR_EL1 in the ThunderX2 family, hyp mode available (boot mode el2 or nvhe), "
			"and some CPU with MPIDR_EL1.Aff0 != 0",
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM",
		.desc = "Cavium ThunderX2 erratum 219 (PRFM removal)",
		.config = "CONFIG_CAVIUM_TX2_ERRATUM_219",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_tx2_family_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_1542419",
		.desc = "ARM erratum 1542419 (kernel portion)",
		.config = "CONFIG_ARM64_ERRATUM_1542419",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_neoverse_n1_erratum_1542419",
		.matches = eh_caps_n1_1542419,
		.rule = "a Neoverse N1 with CTR_EL0.DIC [29] set",
	},
	{
		.name = "ARM64_WORKAROUND_1508412",
		.desc = "ARM erratum 1508412 (kernel portion)",
		.config = "CONFIG_ARM64_ERRATUM_1508412",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE_IN(eh_erratum_1508412_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_NVIDIA_CARMEL_CNP",
		.desc = "NVIDIA Carmel CNP erratum",
		.config = "CONFIG_NVIDIA_CARMEL_CNP_ERRATUM",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_ALL("NVIDIA Carmel", NVIDIA_CARMEL),
	},
	{
		.name = "ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE",
		.desc = "ARM erratum 2119858 or 2139208",
		.config = "CONFIG_ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		MIDR_LIST(trbe_overwrite_fill_mode_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_TSB_FLUSH_FAILURE",
		.desc = "ARM erratum 2067961 or 2054223",
		.config = "CONFIG_ARM64_WORKAROUND_TSB_FLUSH_FAILURE",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_tsb_flush_fail_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE",
		.desc = "ARM erratum 2253138 or 2224489",
		.config = "CONFIG_ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		MIDR_LIST(trbe_write_out_of_range_cpus),
	},
#if EH_LINUX >= 612
	{
		.name = "ARM64_WORKAROUND_2645198",
		.desc = "ARM erratum 2645198",
		.config = "CONFIG_ARM64_ERRATUM_2645198",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE_IN(eh_erratum_2645198_cpus),
	},
#endif
	{
		.name = "ARM64_WORKAROUND_2077057",
		.desc = "ARM erratum 2077057",
		.config = "CONFIG_ARM64_ERRATUM_2077057",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A510", CORTEX_A510, 0, 0, 0, 2),
	},
	{
		.name = "ARM64_WORKAROUND_2064142",
		.desc = "ARM erratum 2064142",
		.config = "CONFIG_ARM64_ERRATUM_2064142",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A510", CORTEX_A510, 0, 0, 0, 2),
	},
	{
		.name = "ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT",
		.desc = "Broken AMU AMEVCNTR01 (const counter)",
		.config = "CONFIG_ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		MIDR_LIST(workaround_amu_constcnt_list),
	},
	{
		.name = "ARM64_WORKAROUND_2038923",
		.desc = "ARM erratum 2038923",
		.config = "CONFIG_ARM64_ERRATUM_2038923",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A510", CORTEX_A510, 0, 0, 0, 2),
	},
	{
		.name = "ARM64_WORKAROUND_1902691",
		.desc = "ARM erratum 1902691",
		.config = "CONFIG_ARM64_ERRATUM_1902691",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A510", CORTEX_A510, 0, 0, 0, 1),
	},
	{
		.name = "ARM64_WORKAROUND_1742098",
		.desc = "ARM erratum 1742098",
		.config = "CONFIG_ARM64_ERRATUM_1742098",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(broken_aarch32_aes),
	},
	{
		.name = "ARM64_WORKAROUND_2658417",
		.desc = "ARM erratum 2658417",
		.config = "CONFIG_ARM64_ERRATUM_2658417",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A510", CORTEX_A510, 0, 0, 1, 1),
		.fixed = (const struct eh_midr_fix[]){ { 1, 1, 1u << 25 }, { 0 } },
	},
	{
		.name = "ARM64_WORKAROUND_SPECULATIVE_SSBS",
		.desc = "SSBS not fully self-synchronizing",
		.config = "CONFIG_ARM64_ERRATUM_3194386",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(erratum_spec_ssbs_list),
	},
	{
		.name = "ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
		.config = "CONFIG_ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
#if EH_LINUX >= 612
		.desc = "ARM errata 2966298, 3117295",
		MIDR_LIST(spec_unpriv_load_list),
#else
		.desc = "ARM erratum 2966298",
		MIDR_RANGE_IN(eh_erratum_2966298_cpus),
#endif
	},
	{
		.name = "ARM64_WORKAROUND_AMPERE_AC03_CPU_38",
		.desc = "AmpereOne erratum AC03_CPU_38",
		.config = "CONFIG_AMPERE_ERRATUM_AC03_CPU_38",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
#if EH_LINUX >= 612
		MIDR_LIST(erratum_ac03_cpu_38_list),
#else
		MIDR_ALL("AmpereOne", AMPERE1),
#endif
	},
	{ 0 },
};

const struct eh_cap_rules EH_LINUX_RULES = {
	.kernel = EH_LINUX_NAME,
	.caps = linux_caps,
	.checked = "entry by entry against Debian's linux-source-" EH_LINUX_NAME " (" EH_LINUX_RELEASE
		   ") by tests/kernel/caps-source.sh",
};

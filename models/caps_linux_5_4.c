/*
 * How Linux 5.4 (v5.4, with the erratum 219 workarounds of 5.4-rc) detects each capability:
 * arm64_features[] of arch/arm64/kernel/cpufeature.c, then arm64_errata[] of
 * arch/arm64/kernel/cpu_errata.c, restated entry by entry in their order. 5.x lists some
 * errata once per CPU range, so a capability can have several entries here too. Written
 * without a 5.4 tree to compare it with: unlike 6.1's and 6.12's, it is unchecked (.checked).
 */
#include "caps.h"

#include "eh/kconfig.h"

#define FIELD_RULE(kpred, reg, fname, shift, minv) \
	.kernel_matches = (kpred), .matches = eh_cap_has_field, .field = EH_FIELD(reg, fname, shift, minv)
#define ID_FIELD(reg, fname, shift, minv) FIELD_RULE("has_cpuid_feature", reg, fname, shift, minv)
#define MIDR_LIST(list) \
	.kernel_matches = "is_affected_midr_range_list", .matches = eh_cap_midr_affected, .midr = (list)
#define MIDR_RANGE(cpu, m, v0, r0, v1, r1) \
	.kernel_matches = "is_affected_midr_range", .matches = eh_cap_midr_affected, \
	.midr = (const struct eh_midr_range[]){ { (cpu), (m), (v0), (r0), (v1), (r1), NULL }, { 0 } }
#define MIDR_ALL(cpu, m) MIDR_RANGE(cpu, m, 0, 0, 0xf, 0xf)

extern const struct eh_cap_rules eh_cap_rules_linux_5_4;

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
	EH_MIDR_ALL_VERSIONS("Kryo 3XX Silver", QCOM_KRYO_3XX_SILVER),
	EH_MIDR_ALL_VERSIONS("Kryo 4XX Silver", QCOM_KRYO_4XX_SILVER),
	{ 0 },
};

/* unmap_kernel_at_el0() of 5.4: erratum 27456 forces it off, KASLR on, else Meltdown decides. */
static bool unmap_kernel_at_el0(const struct eh_capability *cap, const struct eh_target *t)
{
	if (eh_cap_detected(&eh_cap_rules_linux_5_4, t, "ARM64_WORKAROUND_CAVIUM_27456"))
		return false;
	if (eh_kconfig_enabled(t->config, "CONFIG_RANDOMIZE_BASE"))
		return true;
	return !eh_cap_midr_in(kpti_safe_list, t) && !eh_cap_has_field(cap, t);
}

/* runs_at_el2(): 5.4 enters VHE only when CONFIG_ARM64_VHE built head.S to do so. */
static bool runs_at_el2(const struct eh_capability *cap, const struct eh_target *t)
{
	return eh_kconfig_enabled(t->config, "CONFIG_ARM64_VHE") && eh_caps_runs_at_el2(cap, t);
}

/* cpufeature_pan_not_uao() */
static bool pan_not_uao(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_cap_detected(&eh_cap_rules_linux_5_4, t, "ARM64_HAS_PAN") &&
	       !eh_cap_detected(&eh_cap_rules_linux_5_4, t, "ARM64_HAS_UAO");
}

static const struct eh_midr_range spectre_v2_safe_list[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	{ 0 },
};

static const struct eh_id_field csv2 = EH_FIELD(ID_AA64PFR0_EL1, CSV2, 56, 1);

/* check_branch_predictor(): affected, and CONFIG_HARDEN_BRANCH_PREDICTOR builds the mitigation in. */
static bool check_branch_predictor(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	return eh_id_field_value(t->model, &csv2) < 1 && !eh_cap_midr_in(spectre_v2_safe_list, t) &&
	       eh_kconfig_enabled(t->config, "CONFIG_HARDEN_BRANCH_PREDICTOR");
}

/* has_ssbd_mitigation(): not in arm64_ssb_cpus, no SSBS; then firmware's ARCH_WORKAROUND_2. */
static const struct eh_midr_range arm64_ssb_cpus[] = {
	EH_MIDR_ALL_VERSIONS("Cortex-A35", CORTEX_A35),
	EH_MIDR_ALL_VERSIONS("Cortex-A53", CORTEX_A53),
	EH_MIDR_ALL_VERSIONS("Cortex-A55", CORTEX_A55),
	EH_MIDR_ALL_VERSIONS("Brahma-B53", BRAHMA_B53),
	{ 0 },
};

static bool has_ssbd_mitigation(const struct eh_capability *cap, const struct eh_target *t)
{
	static const struct eh_id_field ssbs = EH_FIELD(ID_AA64PFR1_EL1, SSBS, 4, 1);

	(void)cap;
	return !eh_cap_midr_in(arm64_ssb_cpus, t) && eh_id_field_value(t->model, &ssbs) < 1;
}

/* has_cortex_a76_erratum_1463225() of 5.4: the range is inside the predicate. */
static const struct eh_midr_range a76_r0p0_r3p1[] = {
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 1, NULL },
	{ 0 },
};

static const struct eh_capability qcom_erratum_1003_list[] = {
	{ MIDR_RANGE("Qualcomm Falkor v1", QCOM_FALKOR_V1, 0, 0, 0, 0) },
	{ .kernel_matches = "is_kryo_midr", .matches = eh_caps_kryo, .rule = "a Qualcomm Kryo part 0x2XX" },
	{ 0 },
};

static const struct eh_midr_range arm64_repeat_tlbi_cpus[] = {
	{ "Qualcomm Falkor v1", QCOM_FALKOR_V1, 0, 0, 0, 0, "CONFIG_QCOM_FALKOR_ERRATUM_1009" },
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 0, "CONFIG_ARM64_ERRATUM_1286807" },
	{ 0 },
};

static const struct eh_midr_range erratum_1418040_list[] = {
	{ "Cortex-A76", CORTEX_A76, 0, 0, 3, 1, NULL },
	{ "Neoverse N1", NEOVERSE_N1, 0, 0, 3, 1, NULL },
	{ 0 },
};

static const struct eh_capability linux_5_4[] = {
	/* arm64_features[] */
	{
		.name = "ARM64_HAS_SYSREG_GIC_CPUIF",
		.desc = "GIC system register CPU interface",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		FIELD_RULE("has_useable_gicv3_cpuif", ID_AA64PFR0_EL1, GIC, 24, 1),
		.assumed = "firmware lets EL1 set ICC_SRE_EL1.SRE (gic_enable_sre() succeeds)",
	},
	{
		.name = "ARM64_HAS_PAN",
		.desc = "Privileged Access Never",
		.config = "CONFIG_ARM64_PAN",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR1_EL1, PAN, 20, 1),
	},
	{
		.name = "ARM64_HAS_LSE_ATOMICS",
		.desc = "LSE atomic instructions",
		.config = "CONFIG_ARM64_LSE_ATOMICS",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR0_EL1, Atomic, 20, 2),
	},
	{
		.name = "ARM64_HAS_NO_HW_PREFETCH",
		.desc = "Software prefetching using PRFM",
		.type = EH_CAP_WEAK_LOCAL_CPU_FEATURE,
		.kernel_matches = "has_no_hw_prefetch",
		.matches = eh_cap_midr_affected,
		.midr = (const struct eh_midr_range[]){ { "Cavium ThunderX", THUNDERX, 0, 0, 1, 0xf, NULL }, { 0 } },
	},
	{
		.name = "ARM64_HAS_UAO",
		.desc = "User Access Override",
		.config = "CONFIG_ARM64_UAO",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64MMFR2_EL1, UAO, 4, 1),
	},
	{
		.name = "ARM64_ALT_PAN_NOT_UAO",
		.config = "CONFIG_ARM64_PAN",
		.type = EH_CAP_SYSTEM_FEATURE,
		.kernel_matches = "cpufeature_pan_not_uao",
		.matches = pan_not_uao,
		.rule = "ARM64_HAS_PAN detected and ARM64_HAS_UAO not",
	},
	{
		.name = "ARM64_HAS_VIRT_HOST_EXTN",
		.desc = "Virtualization Host Extensions",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		.kernel_matches = "runs_at_el2",
		.matches = runs_at_el2,
		.rule = "CONFIG_ARM64_VHE, booted at EL2 (boot mode el2) on a CPU with ID_AA64MMFR1_EL1.VH >= 1",
	},
	{
		.name = "ARM64_HAS_32BIT_EL0",
		.desc = "32-bit EL0 Support",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR0_EL1, EL0, 0, 2),
	},
	{
		.name = "ARM64_UNMAP_KERNEL_AT_EL0",
		.desc = "Kernel page table isolation (KPTI)",
		.config = "CONFIG_UNMAP_KERNEL_AT_EL0",
		.type = EH_CAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE,
		.kernel_matches = "unmap_kernel_at_el0",
		.matches = unmap_kernel_at_el0,
		.field = EH_FIELD(ID_AA64PFR0_EL1, CSV3, 60, 1),
		.rule = "off on Cavium erratum 27456 parts; on with CONFIG_RANDOMIZE_BASE; else on unless "
			"Meltdown-safe (ID_AA64PFR0_EL1.CSV3 >= 1 or in kpti_safe_list)",
		.assumed = "KASLR active when CONFIG_RANDOMIZE_BASE=y (the boot loader gives a seed), no kpti= "
			   "or mitigations=off on the command line",
	},
	{
		.name = "ARM64_HAS_NO_FPSIMD",
		.type = EH_CAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE,
		.kernel_matches = "has_no_fpsimd",
		.matches = eh_caps_no_fpsimd,
		.rule = "ID_AA64PFR0_EL1.FP [19:16] (signed) < 0",
	},
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
		.name = "ARM64_HW_DBM",
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
		.config = "CONFIG_ARM64_SSBD",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64PFR1_EL1, SSBS, 4, 1),
	},
	{
		.name = "ARM64_HAS_CNP",
		.desc = "Common not Private translations",
		.config = "CONFIG_ARM64_CNP",
		.type = EH_CAP_SYSTEM_FEATURE,
		FIELD_RULE("has_useable_cnp", ID_AA64MMFR2_EL1, CnP, 0, 1),
		.assumed = "not a kdump kernel",
	},
	{
		.name = "ARM64_HAS_SB",
		.desc = "Speculation barrier (SB)",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, SB, 36, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH_ARCH",
		.desc = "Address authentication (architected algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, APA, 4, 1),
	},
	{
		.name = "ARM64_HAS_ADDRESS_AUTH_IMP_DEF",
		.desc = "Address authentication (IMP DEF algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, API, 8, 1),
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH_ARCH",
		.desc = "Generic authentication (architected algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, GPA, 24, 1),
	},
	{
		.name = "ARM64_HAS_GENERIC_AUTH_IMP_DEF",
		.desc = "Generic authentication (IMP DEF algorithm)",
		.config = "CONFIG_ARM64_PTR_AUTH",
		.type = EH_CAP_SYSTEM_FEATURE,
		ID_FIELD(ID_AA64ISAR1_EL1, GPI, 28, 1),
	},
	{
		.name = "ARM64_HAS_IRQ_PRIO_MASKING",
		.desc = "IRQ priority masking",
		.config = "CONFIG_ARM64_PSEUDO_NMI",
		.type = EH_CAP_STRICT_BOOT_CPU_FEATURE,
		.kernel_matches = "can_use_gic_priorities",
		.matches = eh_caps_never,
		.field = EH_FIELD(ID_AA64PFR0_EL1, GIC, 24, 1),
		.rule = "irqchip.gicv3_pseudo_nmi=1 on the command line and a usable GICv3 CPU interface",
		.assumed = "off: no boot mode here passes irqchip.gicv3_pseudo_nmi=1",
	},

	/* arm64_errata[] */
	{
		.name = "ARM64_WORKAROUND_CLEAN_CACHE",
		.desc = "ARM errata 826319, 827319, 824069",
		.config = "CONFIG_ARM64_ERRATUM_826319|CONFIG_ARM64_ERRATUM_827319|CONFIG_ARM64_ERRATUM_824069",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A53", CORTEX_A53, 0, 0, 0, 2),
	},
	{
		.name = "ARM64_WORKAROUND_CLEAN_CACHE",
		.desc = "ARM errata 819472",
		.config = "CONFIG_ARM64_ERRATUM_819472",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A53", CORTEX_A53, 0, 0, 0, 1),
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
		MIDR_RANGE("Cortex-A53", CORTEX_A53, 0, 0, 0, 4),
		.fixed = (const struct eh_midr_fix[]){ { 0, 4, 1u << 8 }, { 0 } },
	},
	{
		.name = "ARM64_WORKAROUND_845719",
		.desc = "ARM erratum 845719",
		.config = "CONFIG_ARM64_ERRATUM_845719",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A53", CORTEX_A53, 0, 0, 0, 4),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_23154",
		.desc = "Cavium erratum 23154",
		.config = "CONFIG_CAVIUM_ERRATUM_23154",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX", THUNDERX, 0, 0, 0, 1),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_27456",
		.desc = "Cavium erratum 27456",
		.config = "CONFIG_CAVIUM_ERRATUM_27456",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX T88", THUNDERX, 0, 0, 1, 1),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_27456",
		.desc = "Cavium erratum 27456",
		.config = "CONFIG_CAVIUM_ERRATUM_27456",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX T81", THUNDERX_81XX, 0, 0, 0, 0),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_30115",
		.desc = "Cavium erratum 30115",
		.config = "CONFIG_CAVIUM_ERRATUM_30115",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX T88", THUNDERX, 0, 0, 1, 2),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_30115",
		.desc = "Cavium erratum 30115",
		.config = "CONFIG_CAVIUM_ERRATUM_30115",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX T81", THUNDERX_81XX, 0, 0, 0, 2),
	},
	{
		.name = "ARM64_WORKAROUND_CAVIUM_30115",
		.desc = "Cavium erratum 30115",
		.config = "CONFIG_CAVIUM_ERRATUM_30115",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cavium ThunderX T83", THUNDERX_83XX, 0, 0, 0, 0),
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
		.desc = "Qualcomm erratum 1009, ARM erratum 1286807",
		.config = "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(arm64_repeat_tlbi_cpus),
	},
	{
		.name = "ARM64_WORKAROUND_858921",
		.desc = "ARM erratum 858921",
		.config = "CONFIG_ARM64_ERRATUM_858921",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_ALL("Cortex-A73", CORTEX_A73),
	},
	{
		.name = "ARM64_HARDEN_BRANCH_PREDICTOR",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "check_branch_predictor",
		.matches = check_branch_predictor,
		.rule = "CONFIG_HARDEN_BRANCH_PREDICTOR, ID_AA64PFR0_EL1.CSV2 [59:56] = 0 and not in "
			"spectre_v2_safe_list",
		.assumed = "firmware implements SMCCC ARCH_WORKAROUND_1; no nospectre_v2 or mitigations=off",
	},
	{
		.name = "ARM64_HARDEN_EL2_VECTORS",
		.desc = "EL2 vector hardening",
		.config = "CONFIG_HARDEN_EL2_VECTORS",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(eh_a57_a72_cpus),
	},
	{
		.name = "ARM64_SSBD",
		.desc = "Speculative Store Bypass Disable",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_ssbd_mitigation",
		.matches = has_ssbd_mitigation,
		.rule = "not in arm64_ssb_cpus and ID_AA64PFR1_EL1.SSBS [7:4] = 0",
		.assumed = "firmware implements SMCCC ARCH_WORKAROUND_2; ssbd= not given",
	},
	{
		.name = "ARM64_WORKAROUND_1418040",
		.desc = "ARM erratum 1418040",
		.config = "CONFIG_ARM64_ERRATUM_1418040",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_LIST(erratum_1418040_list),
	},
	{
		.name = "ARM64_WORKAROUND_1165522",
		.desc = "ARM erratum 1165522",
		.config = "CONFIG_ARM64_ERRATUM_1165522",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		MIDR_RANGE("Cortex-A76", CORTEX_A76, 0, 0, 2, 0),
	},
	{
		.name = "ARM64_WORKAROUND_1463225",
		.desc = "ARM erratum 1463225",
		.config = "CONFIG_ARM64_ERRATUM_1463225",
		.type = EH_CAP_LOCAL_CPU_ERRATUM,
		.kernel_matches = "has_cortex_a76_erratum_1463225",
		.matches = eh_caps_midr_and_vhe,
		.midr = a76_r0p0_r3p1,
		.rule = "MIDR_EL1 in Cortex-A76 r0p0-r3p1, booted at EL2 with VHE",
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
	{ 0 },
};

const struct eh_cap_rules eh_cap_rules_linux_5_4 = { .kernel = "5.4", .caps = linux_5_4, .checked = NULL };

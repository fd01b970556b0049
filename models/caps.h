/* What the capability tables of every kernel version share: CPU identities, CPU lists and predicates. */
#ifndef EH_MODELS_CAPS_H
#define EH_MODELS_CAPS_H

#include "eh/cap.h"
#include "eh/sysreg.h"

/* MIDR_EL1 of a part, variant and revision 0 (arch/arm64/include/asm/cputype.h). */
#define EH_CPU(impl, part) EH_MIDR(impl, 0, part, 0)

#define CORTEX_A35 EH_CPU(0x41, 0xd04)
#define CORTEX_A53 EH_CPU(0x41, 0xd03)
#define CORTEX_A55 EH_CPU(0x41, 0xd05)
#define CORTEX_A57 EH_CPU(0x41, 0xd07)
#define CORTEX_A72 EH_CPU(0x41, 0xd08)
#define CORTEX_A73 EH_CPU(0x41, 0xd09)
#define CORTEX_A75 EH_CPU(0x41, 0xd0a)
#define CORTEX_A76 EH_CPU(0x41, 0xd0b)
#define NEOVERSE_N1 EH_CPU(0x41, 0xd0c)
#define CORTEX_A77 EH_CPU(0x41, 0xd0d)
#define CORTEX_A76AE EH_CPU(0x41, 0xd0e)
#define NEOVERSE_V1 EH_CPU(0x41, 0xd40)
#define CORTEX_A78 EH_CPU(0x41, 0xd41)
#define CORTEX_A78AE EH_CPU(0x41, 0xd42)
#define CORTEX_X1 EH_CPU(0x41, 0xd44)
#define CORTEX_A510 EH_CPU(0x41, 0xd46)
#define CORTEX_A710 EH_CPU(0x41, 0xd47)
#define CORTEX_X2 EH_CPU(0x41, 0xd48)
#define NEOVERSE_N2 EH_CPU(0x41, 0xd49)
#define CORTEX_A78C EH_CPU(0x41, 0xd4b)
#define CORTEX_X1C EH_CPU(0x41, 0xd4c)
#define CORTEX_A715 EH_CPU(0x41, 0xd4d)
#define CORTEX_X3 EH_CPU(0x41, 0xd4e)
#define NEOVERSE_V2 EH_CPU(0x41, 0xd4f)
#define CORTEX_A520 EH_CPU(0x41, 0xd80)
#define CORTEX_A720 EH_CPU(0x41, 0xd81)
#define CORTEX_X4 EH_CPU(0x41, 0xd82)
#define NEOVERSE_V3AE EH_CPU(0x41, 0xd83)
#define NEOVERSE_V3 EH_CPU(0x41, 0xd84)
#define CORTEX_X925 EH_CPU(0x41, 0xd85)
#define CORTEX_A725 EH_CPU(0x41, 0xd87)
#define C1_ULTRA EH_CPU(0x41, 0xd8c)
#define NEOVERSE_N3 EH_CPU(0x41, 0xd8e)
#define C1_PREMIUM EH_CPU(0x41, 0xd90)
#define BRAHMA_B53 EH_CPU(0x42, 0x100)
#define BRCM_VULCAN EH_CPU(0x42, 0x516)
#define THUNDERX EH_CPU(0x43, 0x0a1)
#define THUNDERX_81XX EH_CPU(0x43, 0x0a2)
#define THUNDERX_83XX EH_CPU(0x43, 0x0a3)
#define THUNDERX2 EH_CPU(0x43, 0x0af)
#define OCTX2_98XX EH_CPU(0x43, 0x0b1)
#define OCTX2_96XX EH_CPU(0x43, 0x0b2)
#define OCTX2_95XX EH_CPU(0x43, 0x0b3)
#define OCTX2_95XXN EH_CPU(0x43, 0x0b4)
#define OCTX2_95XXMM EH_CPU(0x43, 0x0b5)
#define OCTX2_95XXO EH_CPU(0x43, 0x0b6)
#define HISI_TSV110 EH_CPU(0x48, 0xd01)
#define HISI_HIP09 EH_CPU(0x48, 0xd02)
#define NVIDIA_CARMEL EH_CPU(0x4e, 0x004)
#define NVIDIA_OLYMPUS EH_CPU(0x4e, 0x010)
#define QCOM_FALKOR_V1 EH_CPU(0x51, 0x800)
#define QCOM_KRYO EH_CPU(0x51, 0x200)
#define QCOM_KRYO_2XX_GOLD EH_CPU(0x51, 0x800)
#define QCOM_KRYO_2XX_SILVER EH_CPU(0x51, 0x801)
#define QCOM_KRYO_3XX_SILVER EH_CPU(0x51, 0x803)
#define QCOM_KRYO_4XX_GOLD EH_CPU(0x51, 0x804)
#define QCOM_KRYO_4XX_SILVER EH_CPU(0x51, 0x805)
#define MICROSOFT_AZURE_COBALT_100 EH_CPU(0x6d, 0xd49)
#define AMPERE1 EH_CPU(0xc0, 0xac3)
#define AMPERE1A EH_CPU(0xc0, 0xac4)

/* A field rule: register, field name, shift, width, signed, least value. */
#define EH_FIELD(reg, name, shift, min) { EH_##reg, #name, (shift), 4, false, (min) }

/* The ThunderX2 family, every variant and revision (cpu_errata.c tx2_family_cpus[]). */
extern const struct eh_midr_range eh_tx2_family_cpus[];
/* Cortex-A57 and A72, every version (ca57_a72, spectre_v3a_unsafe_list). */
extern const struct eh_midr_range eh_a57_a72_cpus[];

/* The CPUs of Linux 6.1 errata (models/caps_linux_6.h, the same in 6.12), shared with the errata modules (models/errata/). */
extern const struct eh_midr_range eh_clean_cache_cpus[];      /* ARM64_WORKAROUND_CLEAN_CACHE */
extern const struct eh_midr_range eh_repeat_tlbi_cpus[];      /* ARM64_WORKAROUND_REPEAT_TLBI, less is_kryo_midr */
extern const struct eh_midr_range eh_erratum_1508412_cpus[];  /* ARM64_WORKAROUND_1508412 */
extern const struct eh_midr_range eh_erratum_2966298_cpus[];  /* ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD */
extern const struct eh_midr_range eh_tsb_flush_fail_cpus[];   /* ARM64_WORKAROUND_TSB_FLUSH_FAILURE */
extern const struct eh_midr_range eh_speculative_at_cpus[];   /* ARM64_WORKAROUND_SPECULATIVE_AT */
extern const struct eh_midr_range eh_erratum_845719_cpus[];   /* ARM64_WORKAROUND_845719 */
extern const struct eh_midr_range eh_falkor_e1003_cpus[];     /* ARM64_WORKAROUND_QCOM_FALKOR_E1003, less is_kryo_midr */
extern const struct eh_midr_range eh_cavium_27456_cpus[];      /* ARM64_WORKAROUND_CAVIUM_27456 */
/* ... and of the errata 6.12 adds (models/caps_linux_6_12.c). */
extern const struct eh_midr_range eh_erratum_2645198_cpus[];  /* ARM64_WORKAROUND_2645198 */

/* is_kernel_in_hyp_mode(): booted at EL2 on a VHE CPU. */
bool eh_caps_runs_at_el2(const struct eh_capability *cap, const struct eh_target *t);
/* 93916beb7014: a TX2-family CPU, hyp mode available, and some CPU with MPIDR.Aff0 != 0. */
bool eh_caps_tx2_tvm(const struct eh_capability *cap, const struct eh_target *t);
/* has_no_fpsimd(): ID_AA64PFR0_EL1.FP reads as negative (0xf, not implemented). */
bool eh_caps_no_fpsimd(const struct eh_capability *cap, const struct eh_target *t);
/* Never on the models here: predicates that need a second CPU type or a command-line option. */
bool eh_caps_never(const struct eh_capability *cap, const struct eh_target *t);
/* is_kryo_midr(): a Qualcomm part 0x2XX (the part number's top digit 2), any variant and revision. */
bool eh_caps_kryo(const struct eh_capability *cap, const struct eh_target *t);
/* has_cortex_a76_erratum_1463225(): in the CPU list and running at EL2 under VHE. */
bool eh_caps_midr_and_vhe(const struct eh_capability *cap, const struct eh_target *t);
/* has_neoverse_n1_erratum_1542419(): a Neoverse N1 that reports CTR_EL0.DIC. */
bool eh_caps_n1_1542419(const struct eh_capability *cap, const struct eh_target *t);

#endif

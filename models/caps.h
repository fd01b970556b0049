/* What the capability tables of every kernel version share: CPU identities, CPU lists and predicates. */
#ifndef EH_MODELS_CAPS_H
#define EH_MODELS_CAPS_H

#include "eh/cap.h"
#include "eh/sys/cputype.h"
#include "eh/sys/erratum.h"
#include "eh/sysreg.h"

/* A field rule: register, field name, shift, width, signed, least value. */
#define EH_FIELD(reg, name, shift, min) { EH_##reg, #name, (shift), 4, false, (min) }

/* Cortex-A57 and A72, every version (ca57_a72, spectre_v3a_unsafe_list). */
extern const struct eh_midr_range eh_a57_a72_cpus[];
/* The CPU lists the errata modules share with these tables are declared in eh/sys/erratum.h. */

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

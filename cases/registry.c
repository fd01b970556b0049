/* Every case, in the order of the seed series they verify. */
#include <stddef.h>

#include "eh/case.h"

extern const struct eh_case eh_case_tx2_219_prfm;
extern const struct eh_case eh_case_tx2_219_kconfig;
extern const struct eh_case eh_case_tx2_219_tvm;
extern const struct eh_case eh_case_kvm_hcr_vse;
extern const struct eh_case eh_case_kcore_offset;
extern const struct eh_case eh_case_zfr0_raz;
extern const struct eh_case eh_case_hibernate_alloc;
extern const struct eh_case eh_case_preempt_irq_pan;
extern const struct eh_case eh_case_par_el1;
extern const struct eh_case eh_case_untagged_addr;
extern const struct eh_case eh_case_repeat_tlbi;
extern const struct eh_case eh_case_a520_2966298;
extern const struct eh_case eh_case_a77_1508412;
extern const struct eh_case eh_case_a53_843419;
extern const struct eh_case eh_case_a53_835769;
extern const struct eh_case eh_case_clean_cache;
extern const struct eh_case eh_case_tsb_flush_failure;
extern const struct eh_case eh_case_speculative_at;
extern const struct eh_case eh_case_a53_845719;
extern const struct eh_case eh_case_falkor_e1003;
extern const struct eh_case eh_case_cavium_27456;
extern const struct eh_case eh_case_a715_2645198;

const struct eh_case *const eh_cases[] = {
	&eh_case_tx2_219_prfm,
	&eh_case_tx2_219_tvm,
	&eh_case_kvm_hcr_vse,
	&eh_case_tx2_219_kconfig,
	&eh_case_kcore_offset,
	&eh_case_zfr0_raz,
	&eh_case_hibernate_alloc,
	&eh_case_preempt_irq_pan,
	&eh_case_par_el1,
	&eh_case_untagged_addr,
	&eh_case_repeat_tlbi,
	&eh_case_a520_2966298,
	&eh_case_a77_1508412,
	&eh_case_a53_843419,
	&eh_case_a53_835769,
	&eh_case_clean_cache,
	&eh_case_tsb_flush_failure,
	&eh_case_speculative_at,
	&eh_case_a53_845719,
	&eh_case_falkor_e1003,
	&eh_case_cavium_27456,
	&eh_case_a715_2645198,
	NULL,
};

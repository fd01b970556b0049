/* Every CPU model the harness knows, in the order `models` lists them, every erratum, and every kernel version's capability rules. */
#include <stddef.h>

#include "eh/cap.h"
#include "eh/erratum.h"
#include "eh/model.h"

extern const struct eh_model eh_model_cortex_a72;
extern const struct eh_model eh_model_thunderx2;
extern const struct eh_model eh_model_thunderx2_nosmt;
extern const struct eh_model eh_model_vulcan;
extern const struct eh_model eh_model_sve2_capable;
extern const struct eh_model eh_model_cortex_a53_r0p2;
extern const struct eh_model eh_model_cortex_a53_r0p3;
extern const struct eh_model eh_model_cortex_a53_r0p4;
extern const struct eh_model eh_model_cortex_a53_r0p4_fixed;
extern const struct eh_model eh_model_brahma_b53_r0p0;
extern const struct eh_model eh_model_kryo2xx_silver_rap4;
extern const struct eh_model eh_model_cortex_a55_r2p0;
extern const struct eh_model eh_model_kryo4xx_silver_rdpe;
extern const struct eh_model eh_model_cortex_a57_r1p2;
extern const struct eh_model eh_model_cortex_a57_r1p3;
extern const struct eh_model eh_model_cortex_a76_r2p0;
extern const struct eh_model eh_model_cortex_a76_r3p0;
extern const struct eh_model eh_model_cortex_a76_r3p1;
extern const struct eh_model eh_model_cortex_a76_r4p0;
extern const struct eh_model eh_model_kryo4xx_gold_rcpe;
extern const struct eh_model eh_model_kryo4xx_gold_rfpe;
extern const struct eh_model eh_model_kryo4xx_gold_rfpf;
extern const struct eh_model eh_model_neoverse_n1_r3p1;
extern const struct eh_model eh_model_neoverse_n1_r4p0;
extern const struct eh_model eh_model_cortex_a77_r1p0;
extern const struct eh_model eh_model_cortex_a77_r1p1;
extern const struct eh_model eh_model_cortex_a510_r1p1;
extern const struct eh_model eh_model_cortex_a510_r1p2;
extern const struct eh_model eh_model_cortex_a520_r0p1;
extern const struct eh_model eh_model_cortex_a520_r0p2;
extern const struct eh_model eh_model_cortex_a710_r0p0;
extern const struct eh_model eh_model_cortex_a715_r0p0;
extern const struct eh_model eh_model_thunderx_t88_r1p1;
extern const struct eh_model eh_model_thunderx_t88_r1p2;
extern const struct eh_model eh_model_thunderx_t81_r0p0;
extern const struct eh_model eh_model_thunderx_t81_r0p1;
extern const struct eh_model eh_model_falkor_v1_r0p0;
extern const struct eh_model eh_model_kryo2xx_gold_rap1;
extern const struct eh_model eh_model_system_a53_a72;
extern const struct eh_model eh_model_system_a55_a76;
extern const struct eh_model eh_model_system_a510_a710;

const struct eh_model *const eh_models[] = {
	&eh_model_cortex_a72,
	&eh_model_thunderx2,
	&eh_model_thunderx2_nosmt,
	&eh_model_vulcan,
	&eh_model_sve2_capable,
	&eh_model_cortex_a53_r0p2,
	&eh_model_cortex_a53_r0p3,
	&eh_model_cortex_a53_r0p4,
	&eh_model_cortex_a53_r0p4_fixed,
	&eh_model_brahma_b53_r0p0,
	&eh_model_kryo2xx_silver_rap4,
	&eh_model_cortex_a55_r2p0,
	&eh_model_kryo4xx_silver_rdpe,
	&eh_model_cortex_a57_r1p2,
	&eh_model_cortex_a57_r1p3,
	&eh_model_cortex_a76_r2p0,
	&eh_model_cortex_a76_r3p0,
	&eh_model_cortex_a76_r3p1,
	&eh_model_cortex_a76_r4p0,
	&eh_model_kryo4xx_gold_rcpe,
	&eh_model_kryo4xx_gold_rfpe,
	&eh_model_kryo4xx_gold_rfpf,
	&eh_model_neoverse_n1_r3p1,
	&eh_model_neoverse_n1_r4p0,
	&eh_model_cortex_a77_r1p0,
	&eh_model_cortex_a77_r1p1,
	&eh_model_cortex_a510_r1p1,
	&eh_model_cortex_a510_r1p2,
	&eh_model_cortex_a520_r0p1,
	&eh_model_cortex_a520_r0p2,
	&eh_model_cortex_a710_r0p0,
	&eh_model_cortex_a715_r0p0,
	&eh_model_thunderx_t88_r1p1,
	&eh_model_thunderx_t88_r1p2,
	&eh_model_thunderx_t81_r0p0,
	&eh_model_thunderx_t81_r0p1,
	&eh_model_falkor_v1_r0p0,
	&eh_model_kryo2xx_gold_rap1,
	&eh_model_system_a53_a72,
	&eh_model_system_a55_a76,
	&eh_model_system_a510_a710,
	NULL,
};

extern const struct eh_erratum eh_erratum_cavium_tx2_219;
extern const struct eh_erratum eh_erratum_repeat_tlbi;
extern const struct eh_erratum eh_erratum_a520_2966298;
extern const struct eh_erratum eh_erratum_a77_1508412;
extern const struct eh_erratum eh_erratum_arm_cortex_a53_843419;
extern const struct eh_erratum eh_erratum_arm_cortex_a53_835769;
extern const struct eh_erratum eh_erratum_clean_cache;
extern const struct eh_erratum eh_erratum_tsb_flush_failure;
extern const struct eh_erratum eh_erratum_speculative_at;
extern const struct eh_erratum eh_erratum_a53_845719;
extern const struct eh_erratum eh_erratum_falkor_e1003;
extern const struct eh_erratum eh_erratum_cavium_27456;
extern const struct eh_erratum eh_erratum_a715_2645198;

const struct eh_erratum *const eh_errata[] = {
	&eh_erratum_cavium_tx2_219,
	&eh_erratum_repeat_tlbi,
	&eh_erratum_a520_2966298,
	&eh_erratum_a77_1508412,
	&eh_erratum_arm_cortex_a53_843419,
	&eh_erratum_arm_cortex_a53_835769,
	&eh_erratum_clean_cache,
	&eh_erratum_tsb_flush_failure,
	&eh_erratum_speculative_at,
	&eh_erratum_a53_845719,
	&eh_erratum_falkor_e1003,
	&eh_erratum_cavium_27456,
	&eh_erratum_a715_2645198,
	NULL,
};

extern const struct eh_cap_rules eh_cap_rules_linux_5_4;
extern const struct eh_cap_rules eh_cap_rules_linux_6_1;
extern const struct eh_cap_rules eh_cap_rules_linux_6_12;

const struct eh_cap_rules *const eh_cap_rules_all[] = {
	&eh_cap_rules_linux_5_4,
	&eh_cap_rules_linux_6_1,
	&eh_cap_rules_linux_6_12,
	NULL,
};

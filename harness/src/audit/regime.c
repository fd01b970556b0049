/* Classifies TTBR writes by the translation regime they change (Arm ARM D5, VMSAv8-64, and FEAT_VHE's redirection). */
#include "eh/regime.h"

#include "eh/rule.h"
#include "eh/sysreg.h"

enum eh_regime eh_regime_of_ttbr_write(uint32_t sysreg, enum eh_run_el where)
{
	/* TTBRn_EL12 (op1 = 5) exists only at EL2 with E2H set and names the EL1&0 regime's register. */
	if (EH_SYSREG_OP1(sysreg) == 5)
		return EH_REGIME_GUEST;
	switch (where) {
	case EH_RUN_EL2_VHE: return EH_REGIME_EL20_LIVE;
	case EH_RUN_EL2_NVHE: return EH_REGIME_GUEST;
	default: return EH_REGIME_EL10_LIVE;
	}
}

const struct eh_window_class eh_regime_classes[] = {
	[EH_REGIME_EL10_LIVE] = {
		.name = "live EL1&0",
		.rule = "the accesses that follow at EL1 are translated by the EL1&0 regime this TTBR "
			"belongs to, changed at the next context synchronization: a window",
		.opens = true,
	},
	[EH_REGIME_EL20_LIVE] = {
		.name = "live EL2&0 (VHE)",
		.rule = "with HCR_EL2.E2H = 1 an EL2 access to TTBRn_EL1 reaches TTBRn_EL2 (FEAT_VHE "
			"redirection), the EL2&0 regime that translates the EL2 code's own accesses: a window",
		.opens = true,
	},
	[EH_REGIME_GUEST] = {
		.name = "guest EL1&0 from EL2",
		.rule = "EL2's own accesses are translated by the EL2 regime (TTBR0_EL2), which this write "
			"does not change; the guest's EL1&0 regime is used only after the exception return "
			"into the guest, a context synchronization event: safe",
		.opens = false,
	},
	{ 0 },
};

bool eh_regime_live(enum eh_regime r)
{
	return (unsigned)r <= EH_REGIME_GUEST && eh_regime_classes[r].opens;
}

/* System register names for traces and reports, and the syndrome (ESR) of a trapped access to one. */
#include "eh/sysreg.h"

#include <stddef.h>
#include <stdio.h>

#include "eh/error.h"

static const struct {
	uint32_t reg;
	const char *name;
} sysreg_names[] = {
	{ EH_MIDR_EL1, "MIDR_EL1" },
	{ EH_MPIDR_EL1, "MPIDR_EL1" },
	{ EH_REVIDR_EL1, "REVIDR_EL1" },
	{ EH_ID_AA64PFR0_EL1, "ID_AA64PFR0_EL1" },
	{ EH_ID_AA64PFR1_EL1, "ID_AA64PFR1_EL1" },
	{ EH_ID_AA64ZFR0_EL1, "ID_AA64ZFR0_EL1" },
	{ EH_ID_AA64SMFR0_EL1, "ID_AA64SMFR0_EL1" },
	{ EH_ID_AA64DFR0_EL1, "ID_AA64DFR0_EL1" },
	{ EH_ID_AA64ISAR0_EL1, "ID_AA64ISAR0_EL1" },
	{ EH_ID_AA64ISAR1_EL1, "ID_AA64ISAR1_EL1" },
	{ EH_ID_AA64ISAR2_EL1, "ID_AA64ISAR2_EL1" },
	{ EH_ID_AA64MMFR0_EL1, "ID_AA64MMFR0_EL1" },
	{ EH_ID_AA64MMFR1_EL1, "ID_AA64MMFR1_EL1" },
	{ EH_ID_AA64MMFR2_EL1, "ID_AA64MMFR2_EL1" },
	{ EH_SCTLR_EL1, "SCTLR_EL1" },
	{ EH_TTBR0_EL1, "TTBR0_EL1" },
	{ EH_TTBR1_EL1, "TTBR1_EL1" },
	{ EH_TCR_EL1, "TCR_EL1" },
	{ EH_SPSR_EL1, "SPSR_EL1" },
	{ EH_ELR_EL1, "ELR_EL1" },
	{ EH_AFSR0_EL1, "AFSR0_EL1" },
	{ EH_AFSR1_EL1, "AFSR1_EL1" },
	{ EH_ESR_EL1, "ESR_EL1" },
	{ EH_FAR_EL1, "FAR_EL1" },
	{ EH_PAR_EL1, "PAR_EL1" },
	{ EH_MAIR_EL1, "MAIR_EL1" },
	{ EH_AMAIR_EL1, "AMAIR_EL1" },
	{ EH_VBAR_EL1, "VBAR_EL1" },
	{ EH_CONTEXTIDR_EL1, "CONTEXTIDR_EL1" },
	{ EH_CTR_EL0, "CTR_EL0" },
	{ EH_DCZID_EL0, "DCZID_EL0" },
	{ EH_TPIDRRO_EL0, "TPIDRRO_EL0" },
	{ EH_HCR_EL2, "HCR_EL2" },
	{ EH_SPSR_EL2, "SPSR_EL2" },
	{ EH_ELR_EL2, "ELR_EL2" },
	{ EH_ESR_EL2, "ESR_EL2" },
	{ EH_FAR_EL2, "FAR_EL2" },
	{ EH_VBAR_EL2, "VBAR_EL2" },
};

const char *eh_sysreg_name(uint32_t reg, char *buf, unsigned len)
{
	size_t i;

	for (i = 0; i < sizeof(sysreg_names) / sizeof(sysreg_names[0]); i++)
		if (sysreg_names[i].reg == reg)
			return sysreg_names[i].name;
	snprintf(buf, len, "S%u_%u_C%u_C%u_%u", EH_SYSREG_OP0(reg), EH_SYSREG_OP1(reg),
		 EH_SYSREG_CRN(reg), EH_SYSREG_CRM(reg), EH_SYSREG_OP2(reg));
	return buf;
}

uint64_t eh_sysreg_trap_esr(uint32_t sysreg, unsigned rt, bool read)
{
	uint64_t iss = (uint64_t)EH_SYSREG_OP0(sysreg) << 20 | (uint64_t)EH_SYSREG_OP2(sysreg) << 17 |
		       (uint64_t)EH_SYSREG_OP1(sysreg) << 14 | (uint64_t)EH_SYSREG_CRN(sysreg) << 10 |
		       (uint64_t)(rt & 31) << 5 | (uint64_t)EH_SYSREG_CRM(sysreg) << 1 | read;

	return (uint64_t)EH_ESR_EC_SYS64 << 26 | 1ull << 25 | iss;
}

int eh_sysreg_trap_decode(uint64_t esr, uint32_t *sysreg, unsigned *rt, bool *read)
{
	if (((esr >> 26) & 0x3f) != EH_ESR_EC_SYS64)
		return EH_EINVAL;
	*sysreg = EH_SYSREG((esr >> 20) & 3, (esr >> 14) & 7, (esr >> 10) & 15, (esr >> 1) & 15,
			    (esr >> 17) & 7);
	*rt = (esr >> 5) & 31;
	*read = esr & 1;
	return 0;
}

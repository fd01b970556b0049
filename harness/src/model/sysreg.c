/* System register names (as the Arm ARM spells them) for traces and reports, and the syndrome (ESR) of a trapped access to one. */
#include "eh/sysreg.h"

#include <stddef.h>
#include <stdio.h>

#include "eh/error.h"

/*
 * One row per register, grouped by what the registers do; rows of one group differ only in their
 * encoding and name, so `duplicates` pairs the groups by shape: a table, not code written twice.
 */
static const struct {
	uint32_t reg;
	const char *name;
} sysreg_names[] = {
	{ EH_MIDR_EL1, "MIDR_EL1" },
	{ EH_MPIDR_EL1, "MPIDR_EL1" },
	{ EH_REVIDR_EL1, "REVIDR_EL1" },
	{ EH_ID_AA64PFR0_EL1, "ID_AA64PFR0_EL1" },
	{ EH_ID_AA64PFR1_EL1, "ID_AA64PFR1_EL1" },
	{ EH_ID_AA64PFR2_EL1, "ID_AA64PFR2_EL1" },
	{ EH_ID_AA64ZFR0_EL1, "ID_AA64ZFR0_EL1" },
	{ EH_ID_AA64SMFR0_EL1, "ID_AA64SMFR0_EL1" },
	{ EH_ID_AA64DFR0_EL1, "ID_AA64DFR0_EL1" },
	{ EH_ID_AA64ISAR0_EL1, "ID_AA64ISAR0_EL1" },
	{ EH_ID_AA64ISAR1_EL1, "ID_AA64ISAR1_EL1" },
	{ EH_ID_AA64ISAR2_EL1, "ID_AA64ISAR2_EL1" },
	{ EH_ID_AA64MMFR0_EL1, "ID_AA64MMFR0_EL1" },
	{ EH_ID_AA64MMFR1_EL1, "ID_AA64MMFR1_EL1" },
	{ EH_ID_AA64MMFR2_EL1, "ID_AA64MMFR2_EL1" },
	{ EH_ID_AA64MMFR3_EL1, "ID_AA64MMFR3_EL1" },
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
	/* PSTATE fields, special-purpose registers (Arm ARM C5.2) */
	{ EH_SYSREG(3, 0, 4, 1, 0), "SP_EL0" },
	{ EH_SYSREG(3, 4, 4, 1, 0), "SP_EL1" },
	{ EH_SYSREG(3, 0, 4, 2, 0), "SPSel" },
	{ EH_SYSREG(3, 0, 4, 2, 2), "CurrentEL" },
	{ EH_SYSREG(3, 0, 4, 2, 3), "PAN" },
	{ EH_SYSREG(3, 0, 4, 2, 4), "UAO" },
	{ EH_SYSREG(3, 0, 4, 3, 0), "ALLINT" },
	{ EH_SYSREG(3, 3, 4, 2, 0), "NZCV" },
	{ EH_SYSREG(3, 3, 4, 2, 1), "DAIF" },
	{ EH_SYSREG(3, 3, 4, 2, 2), "SVCR" },
	{ EH_SYSREG(3, 3, 4, 2, 5), "DIT" },
	{ EH_SYSREG(3, 3, 4, 2, 6), "SSBS" },
	{ EH_SYSREG(3, 3, 4, 2, 7), "TCO" },
	{ EH_SYSREG(3, 3, 4, 4, 0), "FPCR" },
	{ EH_SYSREG(3, 3, 4, 4, 1), "FPSR" },
	/* identification */
	{ EH_SYSREG(3, 0, 0, 2, 7), "ID_ISAR6_EL1" },
	{ EH_SYSREG(3, 0, 0, 3, 4), "ID_PFR2_EL1" },
	{ EH_SYSREG(3, 0, 0, 3, 5), "ID_DFR1_EL1" },
	{ EH_SYSREG(3, 0, 0, 3, 6), "ID_MMFR5_EL1" },
	{ EH_SYSREG(3, 0, 0, 4, 5), "ID_AA64SMFR0_EL1" },
	{ EH_ID_AA64ISAR2_EL1, "ID_AA64ISAR2_EL1" },
	{ EH_SYSREG(3, 1, 0, 0, 0), "CCSIDR_EL1" },
	{ EH_SYSREG(3, 1, 0, 0, 1), "CLIDR_EL1" },
	{ EH_SYSREG(3, 1, 0, 0, 4), "GMID_EL1" },
	{ EH_SYSREG(3, 1, 0, 0, 6), "SMIDR_EL1" },
	{ EH_SYSREG(3, 2, 0, 0, 0), "CSSELR_EL1" },
	{ EH_CTR_EL0, "CTR_EL0" },
	{ EH_SYSREG(3, 3, 0, 0, 7), "DCZID_EL0" },
	/* EL1 control: SVE, SME, MTE, trace, RAS */
	{ EH_SYSREG(3, 0, 1, 0, 1), "ACTLR_EL1" },
	{ EH_SYSREG(3, 0, 1, 0, 2), "CPACR_EL1" },
	{ EH_SYSREG(3, 0, 1, 0, 5), "RGSR_EL1" },
	{ EH_SYSREG(3, 0, 1, 0, 6), "GCR_EL1" },
	{ EH_SYSREG(3, 0, 1, 2, 0), "ZCR_EL1" },
	{ EH_SYSREG(3, 0, 1, 2, 1), "TRFCR_EL1" },
	{ EH_SYSREG(3, 0, 1, 2, 4), "SMPRI_EL1" },
	{ EH_SYSREG(3, 0, 1, 2, 6), "SMCR_EL1" },
	{ EH_SYSREG(3, 0, 5, 6, 0), "TFSR_EL1" },
	{ EH_SYSREG(3, 0, 5, 6, 1), "TFSRE0_EL1" },
	{ EH_SYSREG(3, 0, 12, 1, 1), "DISR_EL1" },
	{ EH_SYSREG(3, 0, 13, 0, 4), "TPIDR_EL1" },
	{ EH_SYSREG(3, 0, 14, 1, 0), "CNTKCTL_EL1" },
	{ EH_SYSREG(2, 0, 0, 2, 2), "MDSCR_EL1" },
	/* pointer authentication keys */
	{ EH_SYSREG(3, 0, 2, 1, 0), "APIAKeyLo_EL1" },
	{ EH_SYSREG(3, 0, 2, 1, 1), "APIAKeyHi_EL1" },
	{ EH_SYSREG(3, 0, 2, 1, 2), "APIBKeyLo_EL1" },
	{ EH_SYSREG(3, 0, 2, 1, 3), "APIBKeyHi_EL1" },
	{ EH_SYSREG(3, 0, 2, 2, 0), "APDAKeyLo_EL1" },
	{ EH_SYSREG(3, 0, 2, 2, 1), "APDAKeyHi_EL1" },
	{ EH_SYSREG(3, 0, 2, 2, 2), "APDBKeyLo_EL1" },
	{ EH_SYSREG(3, 0, 2, 2, 3), "APDBKeyHi_EL1" },
	{ EH_SYSREG(3, 0, 2, 3, 0), "APGAKeyLo_EL1" },
	{ EH_SYSREG(3, 0, 2, 3, 1), "APGAKeyHi_EL1" },
	/* trace buffer, PMU, GIC CPU interface */
	{ EH_SYSREG(3, 0, 9, 11, 0), "TRBLIMITR_EL1" },
	{ EH_SYSREG(3, 0, 9, 11, 1), "TRBPTR_EL1" },
	{ EH_SYSREG(3, 0, 9, 11, 2), "TRBBASER_EL1" },
	{ EH_SYSREG(3, 0, 9, 11, 3), "TRBSR_EL1" },
	{ EH_SYSREG(3, 0, 9, 11, 7), "TRBIDR_EL1" },
	{ EH_SYSREG(3, 0, 9, 14, 6), "PMMIR_EL1" },
	{ EH_SYSREG(3, 0, 4, 6, 0), "ICC_PMR_EL1" },
	{ EH_SYSREG(3, 0, 12, 12, 5), "ICC_SRE_EL1" },
	/* EL0: thread pointers, counters, random numbers, activity monitors */
	{ EH_SYSREG(3, 3, 13, 0, 2), "TPIDR_EL0" },
	{ EH_SYSREG(3, 3, 13, 0, 5), "TPIDR2_EL0" },
	{ EH_SYSREG(3, 3, 14, 0, 0), "CNTFRQ_EL0" },
	{ EH_SYSREG(3, 3, 14, 0, 1), "CNTPCT_EL0" },
	{ EH_SYSREG(3, 3, 14, 0, 2), "CNTVCT_EL0" },
	{ EH_SYSREG(3, 3, 2, 4, 0), "RNDR" },
	{ EH_SYSREG(3, 3, 2, 4, 1), "RNDRRS" },
	{ EH_SYSREG(3, 3, 13, 2, 3), "AMUSERENR_EL0" },
	{ EH_SYSREG(3, 3, 13, 4, 0), "AMEVCNTR00_EL0" },
	{ EH_SYSREG(3, 3, 13, 4, 1), "AMEVCNTR01_EL0" },
	/* EL2 */
	{ EH_SYSREG(3, 4, 0, 0, 0), "VPIDR_EL2" },
	{ EH_SYSREG(3, 4, 0, 0, 5), "VMPIDR_EL2" },
	{ EH_SYSREG(3, 4, 1, 0, 0), "SCTLR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 1), "MDCR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 2), "CPTR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 3), "HSTR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 4), "HFGRTR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 5), "HFGWTR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 6), "HFGITR_EL2" },
	{ EH_SYSREG(3, 4, 1, 1, 7), "HACR_EL2" },
	{ EH_SYSREG(3, 4, 1, 2, 0), "ZCR_EL2" },
	{ EH_SYSREG(3, 4, 1, 2, 1), "TRFCR_EL2" },
	{ EH_SYSREG(3, 4, 1, 2, 2), "HCRX_EL2" },
	{ EH_SYSREG(3, 4, 1, 2, 5), "SMPRIMAP_EL2" },
	{ EH_SYSREG(3, 4, 1, 2, 6), "SMCR_EL2" },
	{ EH_SYSREG(3, 4, 2, 0, 0), "TTBR0_EL2" },
	{ EH_SYSREG(3, 4, 2, 0, 2), "TCR_EL2" },
	{ EH_SYSREG(3, 4, 2, 1, 0), "VTTBR_EL2" },
	{ EH_SYSREG(3, 4, 2, 1, 2), "VTCR_EL2" },
	{ EH_SYSREG(3, 4, 3, 1, 4), "HDFGRTR_EL2" },
	{ EH_SYSREG(3, 4, 3, 1, 5), "HDFGWTR_EL2" },
	{ EH_SYSREG(3, 4, 3, 1, 6), "HAFGRTR_EL2" },
	{ EH_SYSREG(3, 4, 5, 2, 3), "VSESR_EL2" },
	{ EH_SYSREG(3, 4, 5, 6, 0), "TFSR_EL2" },
	{ EH_SYSREG(3, 4, 10, 2, 0), "MAIR_EL2" },
	{ EH_SYSREG(3, 4, 12, 1, 1), "VDISR_EL2" },
	{ EH_SYSREG(3, 4, 12, 9, 5), "ICC_SRE_EL2" },
	{ EH_SYSREG(3, 4, 12, 11, 0), "ICH_HCR_EL2" },
	{ EH_SYSREG(3, 4, 13, 0, 2), "TPIDR_EL2" },
	{ EH_SYSREG(3, 4, 14, 0, 3), "CNTVOFF_EL2" },
	{ EH_SYSREG(3, 4, 14, 1, 0), "CNTHCTL_EL2" },
	/* EL12 and EL02: an EL2 host's (VHE) access to the EL1 and EL0 registers */
	{ EH_SYSREG(3, 5, 1, 0, 0), "SCTLR_EL12" },
	{ EH_SYSREG(3, 5, 1, 0, 2), "CPACR_EL12" },
	{ EH_SYSREG(3, 5, 1, 2, 0), "ZCR_EL12" },
	{ EH_SYSREG(3, 5, 1, 2, 6), "SMCR_EL12" },
	{ EH_SYSREG(3, 5, 2, 0, 0), "TTBR0_EL12" },
	{ EH_SYSREG(3, 5, 2, 0, 1), "TTBR1_EL12" },
	{ EH_SYSREG(3, 5, 2, 0, 2), "TCR_EL12" },
	{ EH_SYSREG(3, 5, 4, 0, 0), "SPSR_EL12" },
	{ EH_SYSREG(3, 5, 4, 0, 1), "ELR_EL12" },
	{ EH_SYSREG(3, 5, 5, 2, 0), "ESR_EL12" },
	{ EH_SYSREG(3, 5, 5, 6, 0), "TFSR_EL12" },
	{ EH_SYSREG(3, 5, 12, 0, 0), "VBAR_EL12" },
	{ EH_SYSREG(3, 5, 14, 2, 1), "CNTP_CTL_EL02" },
	{ EH_SYSREG(3, 5, 14, 3, 1), "CNTV_CTL_EL02" },
};

const char *eh_sysreg_known(uint32_t reg)
{
	size_t i;

	for (i = 0; i < sizeof(sysreg_names) / sizeof(sysreg_names[0]); i++)
		if (sysreg_names[i].reg == reg)
			return sysreg_names[i].name;
	return NULL;
}

const char *eh_sysreg_name(uint32_t reg, char *buf, unsigned len)
{
	const char *name = eh_sysreg_known(reg);

	if (name)
		return name;
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

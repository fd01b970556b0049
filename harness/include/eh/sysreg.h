/* System register encodings (op0:op1:CRn:CRm:op2, as in bits 20:5 of MRS/MSR) and their names. */
#ifndef EH_SYSREG_H
#define EH_SYSREG_H

#include <stdbool.h>
#include <stdint.h>

#define EH_SYSREG(op0, op1, crn, crm, op2) \
	((uint32_t)(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2)))

#define EH_SYSREG_OP0(r) (((r) >> 14) & 3)
#define EH_SYSREG_OP1(r) (((r) >> 11) & 7)
#define EH_SYSREG_CRN(r) (((r) >> 7) & 15)
#define EH_SYSREG_CRM(r) (((r) >> 3) & 15)
#define EH_SYSREG_OP2(r) ((r) & 7)

#define EH_MIDR_EL1          EH_SYSREG(3, 0, 0, 0, 0)
#define EH_MPIDR_EL1         EH_SYSREG(3, 0, 0, 0, 5)
#define EH_REVIDR_EL1        EH_SYSREG(3, 0, 0, 0, 6)
#define EH_ID_AA64PFR0_EL1   EH_SYSREG(3, 0, 0, 4, 0)
#define EH_ID_AA64PFR1_EL1   EH_SYSREG(3, 0, 0, 4, 1)
#define EH_ID_AA64PFR2_EL1   EH_SYSREG(3, 0, 0, 4, 2)
#define EH_ID_AA64ZFR0_EL1   EH_SYSREG(3, 0, 0, 4, 4)
#define EH_ID_AA64SMFR0_EL1  EH_SYSREG(3, 0, 0, 4, 5)
#define EH_ID_AA64DFR0_EL1   EH_SYSREG(3, 0, 0, 5, 0)
#define EH_ID_AA64ISAR0_EL1  EH_SYSREG(3, 0, 0, 6, 0)
#define EH_ID_AA64ISAR1_EL1  EH_SYSREG(3, 0, 0, 6, 1)
#define EH_ID_AA64ISAR2_EL1  EH_SYSREG(3, 0, 0, 6, 2)
#define EH_ID_AA64MMFR0_EL1  EH_SYSREG(3, 0, 0, 7, 0)
#define EH_ID_AA64MMFR1_EL1  EH_SYSREG(3, 0, 0, 7, 1)
#define EH_ID_AA64MMFR2_EL1  EH_SYSREG(3, 0, 0, 7, 2)
#define EH_ID_AA64MMFR3_EL1  EH_SYSREG(3, 0, 0, 7, 3)
#define EH_SCTLR_EL1         EH_SYSREG(3, 0, 1, 0, 0)
#define EH_TTBR0_EL1         EH_SYSREG(3, 0, 2, 0, 0)
#define EH_TTBR1_EL1         EH_SYSREG(3, 0, 2, 0, 1)
#define EH_TCR_EL1           EH_SYSREG(3, 0, 2, 0, 2)
#define EH_TTBR0_EL12        EH_SYSREG(3, 5, 2, 0, 0)
#define EH_TTBR1_EL12        EH_SYSREG(3, 5, 2, 0, 1)
#define EH_SPSR_EL1          EH_SYSREG(3, 0, 4, 0, 0)
#define EH_ELR_EL1           EH_SYSREG(3, 0, 4, 0, 1)
#define EH_AFSR0_EL1         EH_SYSREG(3, 0, 5, 1, 0)
#define EH_AFSR1_EL1         EH_SYSREG(3, 0, 5, 1, 1)
#define EH_ESR_EL1           EH_SYSREG(3, 0, 5, 2, 0)
#define EH_FAR_EL1           EH_SYSREG(3, 0, 6, 0, 0)
#define EH_PAR_EL1           EH_SYSREG(3, 0, 7, 4, 0)
#define EH_MAIR_EL1          EH_SYSREG(3, 0, 10, 2, 0)
#define EH_AMAIR_EL1         EH_SYSREG(3, 0, 10, 3, 0)
#define EH_VBAR_EL1          EH_SYSREG(3, 0, 12, 0, 0)
#define EH_CONTEXTIDR_EL1    EH_SYSREG(3, 0, 13, 0, 1)
#define EH_CTR_EL0           EH_SYSREG(3, 3, 0, 0, 1)
#define EH_DCZID_EL0         EH_SYSREG(3, 3, 0, 0, 7)
#define EH_TPIDRRO_EL0       EH_SYSREG(3, 3, 13, 0, 3)
#define EH_CTR_EL0           EH_SYSREG(3, 3, 0, 0, 1)
#define EH_HCR_EL2           EH_SYSREG(3, 4, 1, 1, 0)
#define EH_SPSR_EL2          EH_SYSREG(3, 4, 4, 0, 0)
#define EH_ELR_EL2           EH_SYSREG(3, 4, 4, 0, 1)
#define EH_ESR_EL2           EH_SYSREG(3, 4, 5, 2, 0)
#define EH_FAR_EL2           EH_SYSREG(3, 4, 6, 0, 0)
#define EH_VBAR_EL2          EH_SYSREG(3, 4, 12, 0, 0)

/* TTBR0_EL1, TTBR1_EL1 and their EL12 forms: the registers whose writes the decoder flags EH_INSN_TTBR_WRITE. */
#define EH_SYSREG_IS_TTBR(r) \
	((r) == EH_TTBR0_EL1 || (r) == EH_TTBR1_EL1 || (r) == EH_TTBR0_EL12 || (r) == EH_TTBR1_EL12)
/* An EL2 register: op1 == 4 (the encodings the architecture reserves for EL2). */
#define EH_SYSREG_IS_EL2(r) (EH_SYSREG_OP0(r) == 3 && EH_SYSREG_OP1(r) == 4)

/* HCR_EL2 bits (Arm ARM, the description of HCR_EL2). */
#define EH_HCR_AMO (1ull << 5)   /* physical and virtual SError routing: vSError enabled */
#define EH_HCR_VSE (1ull << 8)   /* a virtual SError is pending */
#define EH_HCR_TVM (1ull << 26)  /* trap EL1 writes of the virtual memory control registers */
#define EH_HCR_TRVM (1ull << 30) /* trap EL1 reads of them */

/* ESR_ELx exception class of a trapped MSR, MRS or System instruction (AArch64). */
#define EH_ESR_EC_SYS64 0x18u

/*
 * ESR_ELx of an MSR (read = false) or MRS (read = true) of sysreg with transfer
 * register rt, trapped to a higher EL: EC 0x18, IL, and the ISS of Arm ARM D17.2.37
 * (Op0 21:20, Op2 19:17, Op1 16:14, CRn 13:10, Rt 9:5, CRm 4:1, direction 0, 1 = read),
 * which orders the fields differently from the instruction (op0 20:19, op1 18:16,
 * CRn 15:12, CRm 11:8, op2 7:5, Rt 4:0).
 */
uint64_t eh_sysreg_trap_esr(uint32_t sysreg, unsigned rt, bool read);
/* The inverse; EH_EINVAL (from eh/error.h) unless esr has EC 0x18. */
int eh_sysreg_trap_decode(uint64_t esr, uint32_t *sysreg, unsigned *rt, bool *read);

/* "TTBR1_EL1", or the generic "S3_0_C0_C4_4" spelling in buf for unnamed ones. */
const char *eh_sysreg_name(uint32_t reg, char *buf, unsigned len);
/* The Arm ARM's name of reg ("DAIF", "APIAKeyLo_EL1") when the harness's table has one, else NULL. */
const char *eh_sysreg_known(uint32_t reg);

#endif

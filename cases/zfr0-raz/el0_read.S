/* An EL0 program reading ID_AA64ZFR0_EL1, entered from EL1 by an exception return. */
	.text

	/*
	 * At EL1: return to EL0t at el0_read (SPSR_EL1 = 0: EL0, SP_EL0, nothing
	 * masked). x30 still holds the harness's return address, so the EL0 RET ends
	 * the run; Unicorn cannot come back to EL1 by a PSTATE write, and nothing
	 * here needs to.
	 */
	.globl	zfr0_read_el0
zfr0_read_el0:
	adr	x1, el0_read
	msr	elr_el1, x1
	msr	spsr_el1, xzr
	eret

el0_read:
	mrs	x0, s3_0_c0_c4_4	// ID_AA64ZFR0_EL1: UNDEFINED at EL0, the kernel emulates it
#ifdef EH_MUTANT_NOP
	nop				// mutant: neutral, the judge must not care
#endif
	ret

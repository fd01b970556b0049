/*
 * Exception vectors of the bare-metal probes, for EL2 or (built with -DPROBE_EL1) EL1: every entry
 * records ESR, FAR, ELR and SPSR of its EL in probe_esr, probe_far, probe_elr and probe_spsr,
 * counts the exception in probe_exceptions and returns past the instruction that took it (ELR
 * already points past an SVC, HVC or SMC: ESR EC 0x15-0x17 and 0x11-0x13 are not advanced).
 */
#ifdef PROBE_EL1
#define EL(reg) reg##_el1
#else
#define EL(reg) reg##_el2
#endif

	.macro	record sysreg, var
	mrs	x9, \sysreg
	adrp	x10, \var
	str	x9, [x10, :lo12:\var]
	.endm

	.text
	.balign	0x800
	.global	probe_vectors
probe_vectors:
	.rept	16
	.balign	0x80
	b	take
	.endr

take:
	stp	x9, x10, [sp, #-16]!
	record	EL(esr), probe_esr
	record	EL(far), probe_far
	record	EL(elr), probe_elr
	record	EL(spsr), probe_spsr
	adrp	x10, probe_exceptions
	ldr	x9, [x10, :lo12:probe_exceptions]
	add	x9, x9, #1
	str	x9, [x10, :lo12:probe_exceptions]
	mrs	x9, EL(esr)
	lsr	x9, x9, #26
	sub	x9, x9, #0x15
	cmp	x9, #2
	b.ls	1f			/* SVC, HVC, SMC: ELR is the next instruction */
	mrs	x9, EL(elr)
	add	x9, x9, #4
	msr	EL(elr), x9
1:	ldp	x9, x10, [sp], #16
	eret

	.bss
	.balign	8
	.global	probe_esr, probe_far, probe_elr, probe_spsr, probe_exceptions
probe_esr:
	.quad	0
probe_far:
	.quad	0
probe_elr:
	.quad	0
probe_spsr:
	.quad	0
probe_exceptions:
	.quad	0

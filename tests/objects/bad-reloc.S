/* A relocation exec cannot apply: a TLS offset against a variable another object defines. */
	.text
	.globl	tls_user
tls_user:
	mrs	x0, tpidr_el0
	add	x0, x0, #:tprel_hi12:tls_var		// R_AARCH64_TLSLE_ADD_TPREL_HI12
	ret

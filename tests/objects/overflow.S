/* A checked MOVW group that cannot hold a kernel address: the stub of ext_var is one. */
	.text
	.globl	small_abs
small_abs:
	movz	x0, #:abs_g0:ext_var			// R_AARCH64_MOVW_UABS_G0
	ret

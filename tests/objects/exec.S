/*
 * Code for exec to run unlinked: every relocation type a kernel object uses,
 * calls and loads through symbols no object here defines, accesses outside
 * every section, and each way a run stops. tests/test_exec.c knows what each
 * function leaves in which register.
 */
	.arch_extension simd		/* the 128-bit load, which the build's -mgeneral-regs-only leaves out */
	.text
	/* Each relocation resolved at run time: x0..x15 hold what tests/test_exec.c checks. */
	.globl	relocs_run
relocs_run:
	mov	x20, x30
	adrp	x0, data_quad				// R_AARCH64_ADR_PREL_PG_HI21
	add	x0, x0, :lo12:data_quad			// R_AARCH64_ADD_ABS_LO12_NC
	movz	x1, #:abs_g3:data_quad			// R_AARCH64_MOVW_UABS_G3
	movk	x1, #:abs_g2_nc:data_quad		// R_AARCH64_MOVW_UABS_G2_NC
	movk	x1, #:abs_g1_nc:data_quad		// R_AARCH64_MOVW_UABS_G1_NC
	movk	x1, #:abs_g0_nc:data_quad		// R_AARCH64_MOVW_UABS_G0_NC
	adrp	x9, data_bytes
	ldrb	w2, [x9, :lo12:data_bytes]		// R_AARCH64_LDST8_ABS_LO12_NC
	adrp	x9, data_half
	ldrh	w3, [x9, :lo12:data_half]		// R_AARCH64_LDST16_ABS_LO12_NC
	adrp	x9, data_word
	ldr	w4, [x9, :lo12:data_word]		// R_AARCH64_LDST32_ABS_LO12_NC
	adrp	x9, data_quad
	ldr	x5, [x9, :lo12:data_quad]		// R_AARCH64_LDST64_ABS_LO12_NC
	mov	x9, #(3 << 20)				// CPACR_EL1.FPEN: no trap of the 128-bit load
	msr	cpacr_el1, x9
	isb
	adrp	x9, data_pair
	ldr	q0, [x9, :lo12:data_pair]		// R_AARCH64_LDST128_ABS_LO12_NC
	umov	x6, v0.d[1]
	ldr	x7, far_literal				// R_AARCH64_LD_PREL_LO19
	adr	x8, far_code				// R_AARCH64_ADR_PREL_LO21
	adrp	x9, data_prel
	add	x9, x9, :lo12:data_prel
	ldrsw	x10, [x9]				// R_AARCH64_PREL32 in .data
	add	x10, x10, x9
	adrp	x9, data_abs
	ldr	x11, [x9, :lo12:data_abs]		// R_AARCH64_ABS64 in .data
	mov	x12, #0
	bl	far_code				// R_AARCH64_CALL26: x12 = 1
	cmp	x12, #1
	b.eq	far_jump				// R_AARCH64_CONDBR19: x13 = 2, then back
	.globl	relocs_back
relocs_back:
	mov	x30, x20
	ret

	/* A call to a function no object here defines, with eight arguments. */
	.globl	call_ext
call_ext:
	mov	x21, x30
	mov	x0, #1
	mov	x1, #2
	mov	x2, #3
	mov	x3, #4
	mov	x4, #5
	mov	x5, #6
	mov	x6, #7
	mov	x7, #8
	bl	ext_fn					// R_AARCH64_CALL26 against an undefined symbol
	add	x22, x0, #5				// 5 when the stub returned 0
	mov	x30, x21
	b	ext_tail				// R_AARCH64_JUMP26: a tail call, back to the harness

	/* Loads and stores outside every section, and through an undefined variable. */
	.globl	touch_far
touch_far:
	movz	x1, #0x1234, lsl #16
	movk	x1, #0x5, lsl #32			// 0x512340000: nothing there
	ldr	x0, [x1]
	mov	x2, #0x77
	str	x2, [x1, #8]
	ldr	x3, [x1, #8]
	adrp	x4, ext_var
	ldr	x5, [x4, :lo12:ext_var]			// the stub's page reads as zero
	ret

	/* Erratum 219: a load between a TTBR write and the ISB; x2 is given by the test. */
	.globl	ttbr_load
ttbr_load:
	msr	ttbr0_el1, x0
	ldr	x1, [x2]
	isb
	ret

	.globl	eret_stop
eret_stop:
	isb
	eret

	.globl	leave
leave:
	b	far_code				// R_AARCH64_JUMP26 to another section: the run stops there

	.globl	spin
spin:
	b	spin

	/* An exception with a vector installed: exec stops instead of entering it. */
	.globl	brk_stop
brk_stop:
	adr	x0, vec
	msr	vbar_el1, x0
	isb
	brk	#1
	.balign	2048
vec:	b	vec

	/* What the trace names and folds: hints Capstone 4 prints as "hint #N", DAIF, a counted loop. */
	.section .text.trace, "ax"
	.globl	named_loop
named_loop:
	hint	#25					// paciasp
	hint	#34					// bti c
	msr	daif, x0
	mov	x1, #8
1:	subs	x1, x1, #1
	b.ne	1b
	hint	#29					// autiasp
	ret
	/* A pointer-authentication key write that never runs: screened, off the executed path. */
	msr	s3_0_c2_c1_0, x0			// APIAKeyLo_EL1
	ret

	.section .text.other, "ax"
	.globl	far_code
far_code:
	mov	x12, #1
	ret
far_jump:
	mov	x13, #2
	b	relocs_back				// R_AARCH64_JUMP26 back
	.balign	8
far_literal:
	.quad	0x1122334455667788

	.data
	.balign	16
	.globl	data_quad
data_quad:
	.quad	0x0123456789abcdef
data_bytes:
	.byte	0xa5
	.balign	2
data_half:
	.hword	0xbeef
	.balign	4
data_word:
	.word	0xcafef00d
	.balign	16
data_pair:
	.quad	0x1111, 0x2222
data_prel:
	.word	far_code - .				// R_AARCH64_PREL32
	.balign	8
data_abs:
	.quad	relocs_run				// R_AARCH64_ABS64

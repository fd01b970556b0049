/*
 * Symbols a reader should and should not see: a section marker and mapping
 * symbols at the start of a sized code block, KVM's __kvm_nvhe_ prefixed
 * mapping symbols, a function with a local label inside, a gap between
 * functions, and an object inside a sized block. tests/test_elf.c names each
 * address by hand.
 */
	.section .entry.tramp.text, "ax"
	.globl	__marker_start
__marker_start:				// a section marker: no size
	.globl	vectors_block
	.type	vectors_block, %notype	// SYM_CODE_START/END: NOTYPE with a size
vectors_block:
	nop
	nop
inner_label:				// a label inside the block
	nop
	.globl	inner_object
	.type	inner_object, %object
inner_object:				// an object nested in the block
	.quad	0
	.size	inner_object, . - inner_object
	nop
	.size	vectors_block, . - vectors_block
after_block:
	nop

	.text
"__kvm_nvhe_$x":			// the nVHE objects' prefixed mapping symbol
	.type	__kvm_nvhe_func, %function
__kvm_nvhe_func:
	nop
	nop
	ret
	.size	__kvm_nvhe_func, . - __kvm_nvhe_func
	nop				// a gap: no sized symbol covers it
	.globl	plain_func
	.type	plain_func, %function
plain_func:
	nop
	ret
	.size	plain_func, . - plain_func

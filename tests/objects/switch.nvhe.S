/* An object of KVM's nVHE hyp code as its own build leaves it (arch/arm64/kvm/hyp/nvhe/switch.nvhe.o): plain .text. */
	.text
	.globl	__sysreg_restore_el1_state
__sysreg_restore_el1_state:
	msr	ttbr0_el1, x0
	ldr	x1, [x2]
	eret

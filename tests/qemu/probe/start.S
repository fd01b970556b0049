/* Entry of the bare-metal probes run under qemu-system-aarch64 -M virt (RAM from 0x40000000): a stack, then probe_main. */
	.section .text.start, "ax"
	.global _start
_start:
	ldr	x0, =stack_top
	mov	sp, x0
	bl	probe_main
	/* probe_main returned its exit code in x0: semihosting SYS_EXIT_EXTENDED (0x20), code in the block. */
	adr	x1, exit_block
	str	x0, [x1, #8]
	mov	x0, #0x20
	hlt	#0xf000
1:	b	1b

	.data
	.balign	8
exit_block:
	.quad	0x20026		/* ADS_ReasonCode ADP_Stopped_ApplicationExit (Arm semihosting 2.0, 5.5.2) */
	.quad	0

	.bss
	.balign	16
	.space	16384
stack_top:

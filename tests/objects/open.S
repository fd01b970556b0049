/* A TTBR write whose window leaves through an indirect branch: nothing proves it closes. */
	.text
	.globl	switch_and_jump
switch_and_jump:
	msr	ttbr0_el1, x0
	br	x1

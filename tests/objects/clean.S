/* Every TTBR write followed straight by an ISB: what a clean audit looks like. */
	.text
	.globl	switch_ttbr
switch_ttbr:
	msr	ttbr0_el1, x0
	isb
	msr	ttbr1_el1, x1
	mov	x2, #0
	isb
	ret

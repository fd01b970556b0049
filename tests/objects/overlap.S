/* Two alternatives over the same instruction: bad input the kernel would never build. */
#include "eh_alternative.h"

	.text
	.globl	twice
twice:
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661f, 663f, 74, 4, 4
	eh_altinstruction_entry 661f, 663f, 75, 4, 4
	.popsection
661:	prfm	plil1strm, [x30]
	ret
	.pushsection .altinstr_replacement, "ax"
663:	nop
	.popsection

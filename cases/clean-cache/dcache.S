/*
 * The kernel's clean of a buffer by cache line (mm/cache.S's dcache_clean_pou and dcache_clean_poc, the
 * loop of asm/assembler.h's dcache_by_line_op) over 256 bytes, in three builds: to the PoU as it was before
 * 301bcfac4289 (a plain DC CVAU), and to the PoU and the PoC as Linux 6.1 builds them, each clean an
 * alternative that ARM64_WORKAROUND_CLEAN_CACHE turns into DC CIVAC.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	/* One clean: \op as it is (\workaround 0), or as __dcache_op_workaround_clean_cache emits it. */
	.macro	dcache_op op, addr, workaround
#ifdef EH_MUTANT_NO_CLEAN
	nop					// mutant: the loop cleans nothing
	.exitm
#endif
	.if	\workaround
#ifdef EH_MUTANT_WRONG_CAP
	alternative_insn "dc \op, \addr", "dc civac, \addr", ARM64_WORKAROUND_1508412	// mutant
#else
	alternative_insn "dc \op, \addr", "dc civac, \addr", ARM64_WORKAROUND_CLEAN_CACHE
#endif
	.else
	dc	\op, \addr
	.endif
	.endm

	/*
	 * \name: the line size from CTR_EL0.DminLine (raw_dcache_line_size), then every line of
	 * [buf, buf + 256) cleaned with \op, completed by DSB \domain.
	 */
	.macro	clean_buffer name, op, domain, workaround
	.globl	\name
\name:
	adr	x0, buf
	add	x1, x0, #256
	mrs	x3, ctr_el0
	ubfx	x3, x3, #16, #4
	mov	x2, #4
	lsl	x2, x2, x3			// bytes per line
	sub	x3, x2, #1
	bic	x0, x0, x3
1:
	dcache_op \op, x0, \workaround
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
	add	x0, x0, x2
	cmp	x0, x1
	b.lo	1b
	dsb	\domain
	ret
	.endm

	.text
	clean_buffer clean_pou_unpatched, cvau, ish, 0
#ifdef EH_MUTANT_PLAIN_CVAU
	clean_buffer clean_pou_6_1, cvau, ish, 0		// mutant: the clean left out of its alternative
#else
	clean_buffer clean_pou_6_1, cvau, ish, 1
#endif
#ifdef EH_MUTANT_PLAIN_CVAC
	clean_buffer clean_poc_6_1, cvac, sy, 0			// mutant: the clean left out of its alternative
#else
	clean_buffer clean_poc_6_1, cvac, sy, 1
#endif

	.data
	.align	6
buf:
	.space	256

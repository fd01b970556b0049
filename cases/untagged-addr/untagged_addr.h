/* Case untagged-addr: the rule untagged_addr must follow after 597399d0cb91, and a tally of runs against it. */
#ifndef EH_CASE_UNTAGGED_ADDR_H
#define EH_CASE_UNTAGGED_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What untagged_addr must return: a user address (bit 55 clear, TTBR0 under TBI) loses the
 * tag in its top byte; a TTBR1 address (bit 55 set) comes back unchanged, top byte included.
 */
uint64_t eh_untag_expected(uint64_t addr);

struct eh_untag_tally {
	size_t inputs;
	size_t disagree;        /* the assembly and the C give different results */
	size_t asm_wrong;       /* the assembly breaks the rule */
	size_t c_wrong;         /* the C breaks the rule */
	bool have_first;        /* first_*: the first input where any of the above happened */
	uint64_t first_in, first_asm, first_c;
};

/* Add n inputs with their assembly and C results to t (zero it first). */
void eh_untag_tally(struct eh_untag_tally *t, const uint64_t *in, const uint64_t *out_asm,
		    const uint64_t *out_c, size_t n);

#endif

/* Case a53-835769: the multiply-accumulate its snippet computes, in C for the snippet and for the judge, and its operands. */
#ifndef EH_CASE_A53_835769_H
#define EH_CASE_A53_835769_H

/* The operands table of the snippet: a, b, c, then p[0] and the word p[1] the C stores to. */
#define EH_A53_835769_A 0x835769
#define EH_A53_835769_B 0x1000
#define EH_A53_835769_C 0x5a5a5a5a
#define EH_A53_835769_P0 0x7000000

#ifndef __ASSEMBLER__
/*
 * p[0] + (a * b + c), with a store to p[1] between the load and the multiply-accumulate in
 * program order: clang 14 at -O2 issues the load of p[0] directly before a MADD that does not
 * read it, and with -mfix-cortex-a53-835769 puts a NOP between them.
 */
#define EH_A53_835769_MAC(name) \
	long name(long *p, long a, long b, long c) \
	{ \
		long x = p[0]; \
		p[1] = c; \
		return x + (a * b + c); \
	}
#endif

#endif

/*
 * The exception differential test's QEMU side. Built with -DPROBE_EL1, at EL1 (-M virt, no EL2 or
 * EL3): calls each snippet of exc-snippets.S in turn with VBAR_EL1 at probe/vectors.S. Built
 * without, at EL2 (-M virt,virtualization=on): with HCR_EL2 RW and TVM, enters each snippet of
 * exc-el2-snippets.S at EL1 (probe_el1_call, exc-el2-call.S), its exceptions to EL2 recorded by
 * probe/vectors.S. Prints, per snippet, "INDEX ESR=.. FAR=.. ELR=+OFFSET SPSR=..", or "INDEX none"
 * when it took no exception.
 */
#include "semihost.h"

extern volatile uint64_t probe_esr, probe_far, probe_elr, probe_spsr, probe_exceptions;
#ifdef PROBE_EL1
extern char probe_vectors[];
extern void (*const exc_table[])(void);
#define SNIPPETS exc_table
#define ENTER(fn) (fn)()
#else
extern void (*const exc_el2_table[])(void);
void probe_el1_call(void (*fn)(void));
#define SNIPPETS exc_el2_table
#define ENTER(fn) probe_el1_call(fn)
#endif

static void put_dec(unsigned v)
{
	char buf[12], *p = buf + sizeof(buf) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	put(p);
}

int probe_main(void)
{
	unsigned i;

#ifdef PROBE_EL1
	__asm__ volatile("msr vbar_el1, %0; isb" : : "r"(probe_vectors));
#else
	/* HCR_EL2.RW (bit 31): EL1 is AArch64; TVM (bit 26): EL1's writes of the VM registers trap. */
	__asm__ volatile("msr hcr_el2, %0; isb" : : "r"((1ull << 31) | (1ull << 26)));
#endif
	for (i = 0; SNIPPETS[i]; i++) {
		uint64_t taken = probe_exceptions;

		ENTER(SNIPPETS[i]);
		put_dec(i);
		if (probe_exceptions == taken) {
			put(" none\n");
			continue;
		}
		put_field(" ESR", probe_esr, "");
		put_field(" FAR", probe_far, "");
		put_field(" ELR+", probe_elr - (uint64_t)SNIPPETS[i], "");
		put_reg(" SPSR", probe_spsr);
	}
	return 0;
}

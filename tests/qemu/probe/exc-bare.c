/*
 * The exception differential test's QEMU side: at EL1 (-M virt, no EL2 or EL3), calls each snippet
 * of exc-snippets.S in turn with VBAR_EL1 at probe/vectors.S (built -DPROBE_EL1) and prints, per
 * snippet, "INDEX ESR=.. FAR=.. ELR=+OFFSET SPSR=..", or "INDEX none" when it took no exception.
 */
#include "semihost.h"

extern char probe_vectors[];
extern volatile uint64_t probe_esr, probe_far, probe_elr, probe_spsr, probe_exceptions;
extern void (*const exc_table[])(void);

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

	__asm__ volatile("msr vbar_el1, %0; isb" : : "r"(probe_vectors));
	for (i = 0; exc_table[i]; i++) {
		uint64_t taken = probe_exceptions;

		exc_table[i]();
		put_dec(i);
		if (probe_exceptions == taken) {
			put(" none\n");
			continue;
		}
		put_field(" ESR", probe_esr, "");
		put_field(" FAR", probe_far, "");
		put_field(" ELR+", probe_elr - (uint64_t)exc_table[i], "");
		put_reg(" SPSR", probe_spsr);
	}
	return 0;
}

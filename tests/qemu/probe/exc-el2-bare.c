/*
 * The exception differential test's EL2 side under QEMU (-M virt,virtualization=on, entered at
 * EL2): with HCR_EL2 RW and TVM, enters each snippet of
 * exc-el2-snippets.S at EL1 (probe_el1_call, exc-el2-call.S) and prints, per snippet,
 * "INDEX ESR=.. FAR=.. ELR=+OFFSET SPSR=..", or "INDEX none" when it took no exception to EL2.
 */
#include "semihost.h"

extern volatile uint64_t probe_esr, probe_far, probe_elr, probe_spsr, probe_exceptions;
extern void (*const exc_el2_table[])(void);
void probe_el1_call(void (*fn)(void));

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

	/* HCR_EL2.RW (bit 31): EL1 is AArch64; TVM (bit 26): EL1's writes of the VM registers trap. */
	__asm__ volatile("msr hcr_el2, %0; isb" : : "r"((1ull << 31) | (1ull << 26)));
	for (i = 0; exc_el2_table[i]; i++) {
		uint64_t taken = probe_exceptions;

		probe_el1_call(exc_el2_table[i]);
		put_dec(i);
		if (probe_exceptions == taken) {
			put(" none\n");
			continue;
		}
		put_field(" ESR", probe_esr, "");
		put_field(" FAR", probe_far, "");
		put_field(" ELR+", probe_elr - (uint64_t)exc_el2_table[i], "");
		put_reg(" SPSR", probe_spsr);
	}
	return 0;
}

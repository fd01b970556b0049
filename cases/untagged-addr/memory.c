/*
 * The C side of untagged_addr (597399d0cb91): the asm/memory.h macro before and after the fix,
 * and the variants' entry points, which run the assembly and the C over the same addresses.
 */
typedef unsigned long u64;
typedef long s64;

/* include/linux/bitops.h: sign-extend from bit index. */
static inline s64 sign_extend64(u64 value, int index)
{
	int shift = 63 - index;

	return (s64)(value << shift) >> shift;
}

/* Before: the top byte becomes a copy of bit 55, for TTBR1 addresses too. */
#define untagged_addr_before(addr)	((u64)sign_extend64((u64)(addr), 55))

/* After: AND with the sign-extended address, which leaves a TTBR1 address's top byte alone. */
#define __untagged_addr(addr)		((u64)sign_extend64((u64)(addr), 55))
#define untagged_addr_after(addr)	({		\
	u64 __addr = (u64)(addr);			\
	__addr &= __untagged_addr(__addr);		\
	__addr;						\
})

void untagged_before_asm(const u64 *in, u64 *out, u64 n);
void untagged_after_asm(const u64 *in, u64 *out, u64 n);

/*
 * Room for the addresses and both results; the harness splits it in three equal parts. A part is
 * 36 KiB, not 32: Unicorn 2.0.1 runs arm64 with 1 KiB pages, and once a long-lived engine's TLB
 * has shrunk to its 64 entries, parts 64 KiB apart would share one, so the C loop's load and
 * store would evict each other at every address (a tenth of a matrix run).
 */
u64 untagged_buf[3 * 4608];

void untagged_before(const u64 *in, u64 *out_asm, u64 *out_c, u64 n);
void untagged_after(const u64 *in, u64 *out_asm, u64 *out_c, u64 n);

void untagged_before(const u64 *in, u64 *out_asm, u64 *out_c, u64 n)
{
	u64 i;

	untagged_before_asm(in, out_asm, n);
	for (i = 0; i < n; i++)
		out_c[i] = untagged_addr_before(in[i]);
}

void untagged_after(const u64 *in, u64 *out_asm, u64 *out_c, u64 n)
{
	u64 i;

	untagged_after_asm(in, out_asm, n);
	for (i = 0; i < n; i++)
		out_c[i] = untagged_addr_after(in[i]);
}

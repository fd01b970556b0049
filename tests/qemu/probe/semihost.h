/* Output of the bare-metal probes through Arm semihosting (QEMU -semihosting-config enable=on,target=native). */
#ifndef PROBE_SEMIHOST_H
#define PROBE_SEMIHOST_H

#include <stdint.h>

/* One semihosting call (Arm semihosting 2.0: HLT #0xF000 in AArch64, op in w0, parameter in x1). */
static inline uint64_t semihost(uint64_t op, const void *arg)
{
	register uint64_t x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

/* SYS_WRITE0 (0x04): a NUL-terminated string to the host's stdout. */
static inline void put(const char *s)
{
	semihost(0x04, s);
}

/* "NAME=0x%016llx" and end (a newline, or nothing to go on with the line), without a C library. */
static inline void put_field(const char *name, uint64_t v, const char *end)
{
	char buf[64], *p = buf;
	int i;

	while (*name)
		*p++ = *name++;
	*p++ = '=';
	*p++ = '0';
	*p++ = 'x';
	for (i = 60; i >= 0; i -= 4)
		*p++ = "0123456789abcdef"[(v >> i) & 0xf];
	while (*end)
		*p++ = *end++;
	*p = 0;
	put(buf);
}

/* "NAME=0x%016llx\n". */
static inline void put_reg(const char *name, uint64_t v)
{
	put_field(name, v, "\n");
}

#endif

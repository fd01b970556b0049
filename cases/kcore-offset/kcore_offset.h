/* Case kcore-offset: the harness's own model of the 5.4 arm64 VA layout and the checks on kcore offsets. */
#ifndef EH_CASE_KCORE_OFFSET_H
#define EH_CASE_KCORE_OFFSET_H

#include <stddef.h>
#include <stdint.h>

/* A kernel configuration the layout depends on. */
struct eh_kcore_config {
	unsigned va_bits;       /* CONFIG_ARM64_VA_BITS */
	unsigned page_shift;    /* 12 for 4K pages, 16 for 64K */
	unsigned pud_shift;     /* log2(PUD_SIZE): folded into the PGD with 3 levels */
};

/* The TTBR1 layout of Linux 5.4 after the VA-space flip (arch/arm64/include/asm/memory.h, no KASAN). */
struct eh_kcore_layout {
	unsigned va_bits;
	uint64_t page_offset;   /* -(1 << VA_BITS): the start of the TTBR1 range and of the linear map */
	uint64_t page_end;      /* -(1 << (VA_BITS_MIN - 1)): the end of the linear map */
	uint64_t kimage_vaddr;  /* the kernel image, above the BPF JIT region and the modules */
	uint64_t vmalloc_end;
	uint64_t fixaddr_top;   /* the end of the fixmap */
	uint64_t range_size;    /* 1 << VA_BITS, the size of the TTBR1 range kcore exports */
};

void eh_kcore_layout(const struct eh_kcore_config *cfg, struct eh_kcore_layout *out);

/* What a correct vaddr <-> offset pair must satisfy over addresses sorted in increasing order. */
enum eh_kcore_check {
	EH_KCORE_ZERO,          /* offset(PAGE_OFFSET) == 0 */
	EH_KCORE_MONOTONIC,     /* a higher address has a higher offset */
	EH_KCORE_ROUND_TRIP,    /* vaddr(offset(v)) == v */
	EH_KCORE_IN_RANGE,      /* offset < the size of the TTBR1 range */
	EH_KCORE_NCHECKS,
};

struct eh_kcore_result {
	size_t failures[EH_KCORE_NCHECKS];
	size_t first[EH_KCORE_NCHECKS];  /* index of the first failing address (valid if failures) */
};

const char *eh_kcore_check_name(enum eh_kcore_check check);
/* Check offset[i] = to_offset(vaddr[i]) and back[i] = to_vaddr(offset[i]); vaddr must increase. */
void eh_kcore_check(const struct eh_kcore_layout *l, const uint64_t *vaddr, const uint64_t *offset,
		    const uint64_t *back, size_t n, struct eh_kcore_result *out);

#endif

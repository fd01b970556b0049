/*
 * create_safe_exec_page() of arch/arm64/kernel/hibernate.c (5.4) before and after 8c551f919a73:
 * copy the exit code to a fresh page, then build a one-entry page-table path to it (4K pages,
 * 4 levels), taking every page from an allocator that may fail.
 */
#include "safe_page_abi.h"

typedef unsigned long u64;
typedef unsigned int gfp_t;
typedef u64 pgd_t;
typedef u64 pud_t;
typedef u64 pmd_t;
typedef u64 pte_t;

#define ENOMEM			12
#define GFP_ATOMIC		0x20u	/* a stand-in: the harness's allocator ignores the mask */
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PTRS_PER_TABLE		512
#define PGDIR_SHIFT		39
#define PUD_SHIFT		30
#define PMD_SHIFT		21
#define TABLE_INDEX(addr, shift)	(((addr) >> (shift)) & (PTRS_PER_TABLE - 1))

/*
 * The pool pages sit at kernel image addresses. Their physical address is taken to be the low
 * 48 bits, which is what a descriptor holds; __va() puts the top bits back.
 */
#define PHYS_MASK		((1UL << 48) - 1)
#define __pa(v)			((u64)(v) & PHYS_MASK)
#define __va(p)			((void *)((p) | ~PHYS_MASK))
#define PTE_ADDR_MASK		(PHYS_MASK & ~(PAGE_SIZE - 1))

/* VMSAv8-64 descriptors: bits 1:0 = 0b11 is a table at levels 0-2 and a page at level 3. */
#define PMD_TYPE_TABLE		3UL
#define PTE_TYPE_PAGE		3UL
#define PTE_SHARED		(3UL << 8)	/* inner shareable */
#define PTE_AF			(1UL << 10)
#define PTE_UXN			(1UL << 54)
#define PAGE_KERNEL_EXEC	(PTE_TYPE_PAGE | PTE_SHARED | PTE_AF | PTE_UXN)

#define noinline		__attribute__((noinline))	/* so that reports name the function */
#define READ_ONCE(x)		(*(const volatile u64 *)&(x))
#define pgd_none(e)		(!(e))
#define pud_none(e)		(!(e))
#define pmd_none(e)		(!(e))
#define pgd_offset_raw(pgd, addr)	((pgd_t *)(pgd) + TABLE_INDEX(addr, PGDIR_SHIFT))
/* The entry for addr in the next-level table that the entry at entryp points to. */
#define next_entry(entryp, addr, shift)	((u64 *)__va(*(entryp) & PTE_ADDR_MASK) + TABLE_INDEX(addr, shift))
#define pud_offset(pgdp, addr)		next_entry(pgdp, addr, PUD_SHIFT)
#define pmd_offset(pudp, addr)		next_entry(pudp, addr, PMD_SHIFT)
#define pte_offset_kernel(pmdp, addr)	next_entry(pmdp, addr, PAGE_SHIFT)
#define populate(entryp, table)	(*(entryp) = __pa(table) | PMD_TYPE_TABLE)

extern const char hibernate_exit_text_start[], hibernate_exit_text_end[];
void hibernate_exit(void);

/* Room for the pages the harness's allocator hands out. */
unsigned char hib_pool[8 * PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
u64 phys_hibernate_exit;

static void *get_safe_page(gfp_t mask)
{
	register u64 x0 __asm__("x0") = mask;

	__asm__ volatile("svc %[imm]" : "+r"(x0) : [imm] "i"(EH_HIB_SVC_GET_SAFE_PAGE) : "memory");
	return (void *)x0;
}

/* The kernel's memcpy + __flush_icache_range; there are no caches to maintain here. */
static void copy_text(u64 dst, const char *src, u64 length)
{
	volatile char *d = (volatile char *)dst;
	u64 i;

	for (i = 0; i < length; i++)
		d[i] = src[i];
}

/* Below the top level, where both versions agree: a new table for each level whose entry is empty. */
static int map_below(pgd_t *pgdp, u64 dst_addr, u64 dst, void *(*allocator)(gfp_t), gfp_t mask)
{
	pud_t *pudp;
	pmd_t *pmdp;
	pte_t *ptep;

	if (pgd_none(READ_ONCE(*pgdp))) {
		pudp = allocator(mask);
		if (!pudp)
			return -ENOMEM;
		populate(pgdp, pudp);
	}
	pudp = pud_offset(pgdp, dst_addr);
	if (pud_none(READ_ONCE(*pudp))) {
		pmdp = allocator(mask);
		if (!pmdp)
			return -ENOMEM;
		populate(pudp, pmdp);
	}
	pmdp = pmd_offset(pudp, dst_addr);
	if (pmd_none(READ_ONCE(*pmdp))) {
		ptep = allocator(mask);
		if (!ptep)
			return -ENOMEM;
		populate(pmdp, ptep);
	}
	ptep = pte_offset_kernel(pmdp, dst_addr);
	*ptep = __pa(dst) | PAGE_KERNEL_EXEC;
	/* Loading the tables into TTBR0_EL1 follows in the kernel; the fix does not touch it. */
	return 0;
}

/* Before: the top-level table is used straight from the allocator. */
static noinline int create_safe_exec_page_before(const void *src_start, u64 length, u64 dst_addr,
						 u64 *phys_dst_addr, void *(*allocator)(gfp_t), gfp_t mask)
{
	u64 dst = (u64)allocator(mask);
	pgd_t *pgdp;
	int rc;

	if (!dst)
		return -ENOMEM;
	copy_text(dst, src_start, length);
	pgdp = pgd_offset_raw(allocator(mask), dst_addr);
	rc = map_below(pgdp, dst_addr, dst, allocator, mask);
	if (!rc)
		*phys_dst_addr = __pa(dst);
	return rc;
}

/* After: a failed top-level allocation returns -ENOMEM like the others. */
static noinline int create_safe_exec_page_after(const void *src_start, u64 length, u64 dst_addr,
						u64 *phys_dst_addr, void *(*allocator)(gfp_t), gfp_t mask)
{
	u64 dst = (u64)allocator(mask);
	pgd_t *trans_pgd;
	pgd_t *pgdp;
	int rc;

	if (!dst)
		return -ENOMEM;
	copy_text(dst, src_start, length);
	trans_pgd = allocator(mask);
#ifndef EH_MUTANT_NO_NULL_CHECK			/* mutant: the fix's check removed */
	if (!trans_pgd)
		return -ENOMEM;
#endif
#ifdef EH_MUTANT_NOP
	asm volatile("nop");			/* mutant: neutral */
#endif
	pgdp = pgd_offset_raw(trans_pgd, dst_addr);
	rc = map_below(pgdp, dst_addr, dst, allocator, mask);
	if (!rc)
		*phys_dst_addr = __pa(dst);
	return rc;
}

/* The variants' entries: the call swsusp_arch_resume() makes. */
int hibernate_before(void);
int hibernate_after(void);

int hibernate_before(void)
{
	return create_safe_exec_page_before(hibernate_exit_text_start,
					    hibernate_exit_text_end - hibernate_exit_text_start,
					    (u64)hibernate_exit, &phys_hibernate_exit, get_safe_page,
					    GFP_ATOMIC);
}

int hibernate_after(void)
{
	return create_safe_exec_page_after(hibernate_exit_text_start,
					   hibernate_exit_text_end - hibernate_exit_text_start,
					   (u64)hibernate_exit, &phys_hibernate_exit, get_safe_page,
					   GFP_ATOMIC);
}

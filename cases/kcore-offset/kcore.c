/*
 * The /proc/kcore offset conversions of Linux 5.4 on arm64 after the VA-space flip: the arm64
 * macros that 86109a691a45 removes and the generic ones that replace them, for VA_BITS 48 and 52.
 */
typedef unsigned long u64;

/* arch/arm64/include/asm/memory.h (5.4): 52-bit kernels keep the 48-bit layout above PAGE_END. */
#define VA_BITS_MIN		48
#define _PAGE_OFFSET(va)	(-(1UL << (va)))
#define _PAGE_END(va)		(-(1UL << ((va) - 1)))
#define PAGE_END		_PAGE_END(VA_BITS_MIN)

/* arch/arm64/include/asm/pgtable.h before the fix: written when the TTBR1 range began at PAGE_END. */
#define arm64_kc_vaddr_to_offset(v)	((v) & ~PAGE_END)
#define arm64_kc_offset_to_vaddr(o)	((o) | PAGE_END)

/* fs/proc/kcore.c, used once the arm64 ones are gone: relative to PAGE_OFFSET. */
#define generic_kc_vaddr_to_offset(v)	((v) - PAGE_OFFSET)
#define generic_kc_offset_to_vaddr(o)	((o) + PAGE_OFFSET)

#ifdef EH_MUTANT_NOP
#define MUTANT_NOP() asm volatile("nop")	/* mutant: neutral */
#else
#define MUTANT_NOP() do { } while (0)
#endif

/* Room for the addresses and both results; the harness splits it in three equal parts. */
u64 kcore_buf[3 * 64];

/*
 * kcore_<variant>_va<VA_BITS>(vaddr, offset, back, n): offset[i] = to_offset(vaddr[i]) and
 * back[i] = to_vaddr(offset[i]), as read_kcore() and the ELF header code of kcore use them.
 */
#define DEFINE_KCORE(variant, VA_BITS, to_offset, to_vaddr)				\
void kcore_##variant##_va##VA_BITS(const u64 *vaddr, u64 *offset, u64 *back, u64 n)	\
{											\
	const u64 PAGE_OFFSET = _PAGE_OFFSET(VA_BITS);					\
	u64 i;										\
											\
	(void)PAGE_OFFSET;								\
	for (i = 0; i < n; i++) {							\
		MUTANT_NOP();								\
		offset[i] = to_offset(vaddr[i]);					\
		back[i] = to_vaddr(offset[i]);						\
	}										\
}

#ifdef EH_MUTANT_MACROS_SWAPPED			/* mutant: each variant runs the other's macros */
#define BEFORE(what) generic_##what
#define AFTER(what) arm64_##what
#else
#define BEFORE(what) arm64_##what
#define AFTER(what) generic_##what
#endif

DEFINE_KCORE(before, 48, BEFORE(kc_vaddr_to_offset), BEFORE(kc_offset_to_vaddr))
DEFINE_KCORE(before, 52, BEFORE(kc_vaddr_to_offset), BEFORE(kc_offset_to_vaddr))
DEFINE_KCORE(after, 48, AFTER(kc_vaddr_to_offset), AFTER(kc_offset_to_vaddr))
DEFINE_KCORE(after, 52, AFTER(kc_vaddr_to_offset), AFTER(kc_offset_to_vaddr))

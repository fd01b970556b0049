/*
 * The walker differential test's cases, shared by the bare-metal image that runs them under QEMU
 * (probe/walk-bare.c) and the host side that runs them through harness/src/engine/walk.c (walk_diff.c):
 * a generator of stage-1 translation-table cases (EL1&0 regime, 4K granule, 48-bit VA, levels 0-3)
 * and the code that lays out each case's tables, so both sides see the same bytes.
 * Freestanding C: no library calls.
 */
#ifndef WALK_CASES_H
#define WALK_CASES_H

#include <stdint.h>

/* The AT operations, in this order: AT S1E1R, S1E1W, S1E0R, S1E0W, S1E1RP, S1E1WP. */
enum walk_op { OP_S1E1R, OP_S1E1W, OP_S1E0R, OP_S1E0W, OP_S1E1RP, OP_S1E1WP, OP_COUNT };

/* What goes wrong with the chain of descriptors, if anything. */
enum walk_break {
	BREAK_NONE,
	BREAK_INVALID,      /* the descriptor at break_level has bit 0 clear */
	BREAK_RESERVED,     /* bits[1:0] = 01 where that is reserved: a level-0 block, a level-3 page */
};

struct walk_case {
	unsigned op;
	uint64_t va;
	unsigned leaf;              /* the level of the block (1, 2) or page (3) descriptor */
	unsigned brk, break_level;
	unsigned ap, af, attr, sh, pxn, uxn;
	unsigned aptable;           /* APTable[1:0] of the table descriptor that points at the leaf's table */
	unsigned ips;               /* TCR_EL1.IPS */
	uint64_t oa;                /* the leaf's output address (aligned to its size) */
	uint64_t table_oa_high;     /* or'ed into the next-level address of the level-0 descriptor */
};

/* The registers a case runs with. */
struct walk_case_regs {
	uint64_t ttbr0, ttbr1, tcr, mair;
};

/* MAIR_EL1: Attr0 Device-nGnRnE (0x00), Attr1 Normal write-back (0xff), Attr2 Normal non-cacheable (0x44). */
#define WALK_MAIR 0x000000000044ff00ull
#define WALK_MAIR_BYTE(i) ((uint8_t)(WALK_MAIR >> (8 * (i))))

/*
 * TCR_EL1: T0SZ = T1SZ = 16 (48-bit VA: the walk starts at level 0), TG0 4K (0), TG1 4K (2),
 * inner and outer write-back write-allocate walks, inner shareable, no hardware AF update (HA 0),
 * IPS from the case (Arm ARM D17.2.131).
 */
static inline uint64_t walk_tcr(unsigned ips)
{
	return 16ull | 1ull << 8 | 1ull << 10 | 3ull << 12 | 0ull << 14 | 16ull << 16 | 1ull << 24 | 1ull << 26 |
	       3ull << 28 | 2ull << 30 | (uint64_t)ips << 32;
}

/* VAs: indices 1, 2, 3, 4 at levels 0-3 (distinct, so a wrong index reads an empty entry), in either half. */
#define WALK_VA_LOW 0x0000008080603000ull
#define WALK_VA_HIGH 0xffff008080603000ull

/* Case i of the generator, into *c; 0 past the last. Each group is a product of the fields it varies. */
static inline int walk_case_get(unsigned i, struct walk_case *c)
{
	static const uint64_t oa_of_leaf[4] = { 0, 0x0000008040000000ull, 0x0000008040200000ull, 0x0000008040201000ull };
	unsigned n;

	*c = (struct walk_case){ .op = OP_S1E1R, .va = WALK_VA_LOW, .leaf = 3, .ap = 0, .af = 1, .sh = 3, .ips = 5 };
	/* Group 1: the leaf at level 1, 2, 3 x AP[2:1] x AF x every AT op (attributes rotate through MAIR). */
	n = 3 * 4 * 2 * OP_COUNT;
	if (i < n) {
		c->leaf = 1 + i / (4 * 2 * OP_COUNT);
		c->ap = (i / (2 * OP_COUNT)) % 4;
		c->af = (i / OP_COUNT) % 2;
		c->op = i % OP_COUNT;
		c->attr = i % 3;
		goto done;
	}
	i -= n;
	/* Group 2: the same in TTBR1_EL1's half, pages only. */
	n = 4 * OP_COUNT;
	if (i < n) {
		c->va = WALK_VA_HIGH;
		c->ap = i / OP_COUNT;
		c->op = i % OP_COUNT;
		goto done;
	}
	i -= n;
	/* Group 3: an invalid descriptor at each level (translation fault there), EL1 and EL0 reads. */
	n = 4 * 2;
	if (i < n) {
		c->brk = BREAK_INVALID;
		c->break_level = i / 2;
		c->op = i % 2 ? OP_S1E0R : OP_S1E1R;
		goto done;
	}
	i -= n;
	/* Group 4: bits[1:0] = 01 at level 0 (no blocks there with 4K) and level 3 (reserved). */
	n = 2 * 2;
	if (i < n) {
		c->brk = BREAK_RESERVED;
		c->break_level = i / 2 ? 3 : 0;
		c->op = i % 2 ? OP_S1E1W : OP_S1E1R;
		goto done;
	}
	i -= n;
	/* Group 5: APTable 1-3 on the level-2 table descriptor x a page's AP 0-1 x every op. */
	n = 3 * 2 * OP_COUNT;
	if (i < n) {
		c->aptable = 1 + i / (2 * OP_COUNT);
		c->ap = (i / OP_COUNT) % 2;
		c->op = i % OP_COUNT;
		goto done;
	}
	i -= n;
	/* Group 6: PXN and UXN (AT checks no execute permission) x EL1 and EL0 reads. */
	n = 4 * 2;
	if (i < n) {
		c->pxn = (i / 2) & 1;
		c->uxn = (i / 4) & 1;
		c->ap = 1;
		c->op = i % 2 ? OP_S1E0R : OP_S1E1R;
		goto done;
	}
	i -= n;
	/* Group 7: every memory attribute x every SH (PAR_EL1.SH for Device and Non-cacheable memory). */
	n = 3 * 4;
	if (i < n) {
		c->attr = i / 4;
		c->sh = i % 4;
		goto done;
	}
	i -= n;
	/*
	 * Group 8: address size faults with IPS 2 (40 bits): a leaf's output address or a table's
	 * address with bit 44 set, at each leaf level; and the same addresses with IPS 5 (48 bits).
	 */
	n = 3 * 2 * 2;
	if (i < n) {
		c->leaf = 1 + i / 4;
		c->ips = (i / 2) % 2 ? 5 : 2;
		if (i % 2)
			c->table_oa_high = 1ull << 44;
		else
			c->oa = oa_of_leaf[c->leaf] | 1ull << 44;
		goto done;
	}
	return 0;
done:
	if (!c->oa)
		c->oa = oa_of_leaf[c->leaf];
	return 1;
}

/* Index of va at level (4K granule: 9 bits a level, level 3 from bit 12). */
static inline unsigned walk_index(uint64_t va, unsigned level)
{
	return (unsigned)(va >> (39 - 9 * level)) & 511;
}

/*
 * Lay out case c's tables in the four pages at mem (physical address pa): level 0 in the first,
 * level 3 in the last, one entry each on the case's VA. When table_oa_high is set the level-0
 * descriptor's next-level address has that bit too (what is there is never read: the address
 * size check comes first). Returns the registers to run with.
 */
static inline struct walk_case_regs walk_case_build(const struct walk_case *c, uint64_t *mem, uint64_t pa)
{
	struct walk_case_regs r = { .tcr = walk_tcr(c->ips), .mair = WALK_MAIR };
	unsigned level, k;

	for (k = 0; k < 4 * 512; k++)
		mem[k] = 0;
	for (level = 0; level <= c->leaf; level++) {
		uint64_t *entry = &mem[level * 512 + walk_index(c->va, level)], d;

		if (level < c->leaf) {
			d = (pa + 4096ull * (level + 1)) | 3;   /* a table descriptor */
			if (level == 0)
				d |= c->table_oa_high;
			if (level + 1 == c->leaf)
				d |= (uint64_t)c->aptable << 61;
		} else {
			/* a block (levels 1-2, bits 01) or page (level 3, bits 11) descriptor */
			d = c->oa | (level == 3 ? 3 : 1) | (uint64_t)c->attr << 2 | (uint64_t)c->ap << 6 |
			    (uint64_t)c->sh << 8 | (uint64_t)c->af << 10 | (uint64_t)c->pxn << 53 | (uint64_t)c->uxn << 54;
		}
		if (c->brk == BREAK_INVALID && level == c->break_level)
			d &= ~1ull;
		if (c->brk == BREAK_RESERVED && level == c->break_level)
			d = (d & ~3ull) | 1;
		*entry = d;
		/* A reserved level-0 entry or an invalid one ends the chain there. */
		if (c->brk != BREAK_NONE && level == c->break_level)
			break;
	}
	if (c->va >> 63)
		r.ttbr1 = pa;
	else
		r.ttbr0 = pa;
	return r;
}

#endif

/* The stage-1 walker, permission/PAN checks and PAR_EL1 encodings against tables and values worked by hand from the Arm ARM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eh/walk.h"
#include "reports/rows.h"

/* A small physical memory: 8 pages at PA 0x40000000. */
#define PHYS_BASE 0x40000000ull
#define PHYS_PAGES 8
static uint64_t phys[PHYS_PAGES][512];

#define L0_TTBR1 0   /* page numbers in phys[] */
#define L1_TTBR1 1
#define L2_TTBR1 2
#define L3_TTBR1 3
#define L0_TTBR0 4
#define L1_TTBR0 5

/* Linux 5.4 MAIR_EL1: 0 nGnRnE 0x00, 1 nGnRE 0x04, 2 GRE 0x0c, 3 Normal-NC 0x44, 4 Normal 0xff, 5 WT 0xbb. */
#define MAIR_LINUX 0x000000bbff440c0400ull
/* T0SZ = T1SZ = 16, TG0 = 4K (0b00), TG1 = 4K (0b10), IPS = 48 bits (0b101). */
#define TCR_48BIT_4K 0x0000000580100010ull
#define TCR_TBI0 (1ull << 37)
#define TCR_EPD1 (1ull << 23)
#define TCR_TG1_16K 0x0000000540100010ull

static bool read_phys(void *ctx, uint64_t pa, uint64_t *desc)
{
	(void)ctx;
	if (pa < PHYS_BASE || pa >= PHYS_BASE + sizeof(phys) || (pa & 7))
		return false;
	*desc = phys[(pa - PHYS_BASE) / 4096][((pa - PHYS_BASE) % 4096) / 8];
	return true;
}

/*
 * The descriptors, by hand (4K granule: index bits 47:39, 38:30, 29:21, 20:12).
 * TTBR1: 0xffff000012345000 -> L0[0] -> L1[0] -> L2[0x91] -> L3[0x145].
 */
static void build_tables(void)
{
	memset(phys, 0, sizeof(phys));
	phys[L0_TTBR1][0] = 0x0000000040001003ull;       /* table -> L1 */
	phys[L0_TTBR1][1] = 0x0000000000000401ull;       /* a block at level 0: invalid with 4K */
	phys[L1_TTBR1][0] = 0x0000000040002003ull;       /* table -> L2 */
	phys[L1_TTBR1][1] = 0x00000000c0000401ull;       /* 1GB block at 0xc0000000, AF, AttrIndx 0 (Device) */
	phys[L1_TTBR1][2] = 0x0000007000000003ull;       /* table at a PA with no memory */
	phys[L2_TTBR1][0x91] = 0x0000000040003003ull;    /* table -> L3 */
	phys[L2_TTBR1][0x93] = 0x0000000080600711ull;    /* 2MB block at 0x80600000, AF, inner, Normal */
	phys[L2_TTBR1][0x94] = 0x000000008080070dull;    /* 2MB block, AttrIndx 3 (Normal non-cacheable) */
	phys[L3_TTBR1][0x145] = 0x0060000080345713ull;   /* page, UXN PXN AF inner AP=00 Normal */
	phys[L3_TTBR1][0x147] = 0x0000000080347711ull;   /* bits 1:0 = 01 at level 3: reserved */
	phys[L3_TTBR1][0x148] = 0x0000000080348313ull;   /* no AF */
	phys[L3_TTBR1][0x149] = 0x0060000080349753ull;   /* AP=01: EL1 and EL0 read/write */
	phys[L3_TTBR1][0x14a] = 0x006000008034a7d3ull;   /* AP=11: EL1 and EL0 read-only */
	phys[L3_TTBR1][0x14b] = 0x006000008034b793ull;   /* AP=10: EL1 read-only, no EL0 */
	phys[L0_TTBR0][0] = 0x2000000040005003ull;       /* table, APTable = 01: no EL0 below */
	phys[L1_TTBR0][0] = 0x0000000000000441ull;       /* 1GB block at 0, AF, AP=01 */
}

struct row {
	const char *name;
	uint64_t va;
	uint64_t tcr;           /* 0: TCR_48BIT_4K */
	struct eh_walk_access acc;
	bool fault;
	unsigned fsc;           /* when fault */
	uint64_t pa;            /* when not */
	uint64_t par;           /* PAR_EL1 as AT leaves it (worked from D17.2.113) */
};

#define EL1_READ { .el = 1 }
#define EL1_READ_PAN { .el = 1, .pan = true }
#define EL1_WRITE { .el = 1, .write = true }
#define EL0_READ { .el = 0 }
#define EL0_WRITE { .el = 0, .write = true }

static const struct row rows[] = {
	/* PAR = ATTR 0xff << 56 | PA 0x80345000 | RES1 bit 11 | SH inner (3) << 7. */
	{ "page, EL1 read", 0xffff000012345abcull, 0, EL1_READ, false, 0, 0x80345abcull,
	  0xff00000080345980ull },
	{ "2MB block keeps VA bits 20:0", 0xffff000012601234ull, 0, EL1_READ, false, 0, 0x80601234ull,
	  0xff00000080601980ull },
	/* Device memory reports SH = 0b10 whatever the descriptor says; ATTR 0x00. */
	{ "1GB Device block", 0xffff000040123456ull, 0, EL1_READ, false, 0, 0xc0123456ull,
	  0x00000000c0123900ull },
	{ "Normal non-cacheable reports outer", 0xffff000012800010ull, 0, EL1_READ, false, 0,
	  0x80800010ull, 0x4400000080800900ull },
	/* FST = 0x04 | level; PAR = RES1 | FST << 1 | F. */
	{ "invalid at level 2", 0xffff000012400000ull, 0, EL1_READ, true, 0x06, 0, 0x80dull },
	{ "invalid at level 3", 0xffff000012346000ull, 0, EL1_READ, true, 0x07, 0, 0x80full },
	{ "invalid at level 1", 0xffff0000c0000000ull, 0, EL1_READ, true, 0x05, 0, 0x80bull },
	{ "block at level 0", 0xffff008000000000ull, 0, EL1_READ, true, 0x04, 0, 0x809ull },
	{ "reserved level-3 encoding", 0xffff000012347000ull, 0, EL1_READ, true, 0x07, 0, 0x80full },
	{ "access flag clear", 0xffff000012348000ull, 0, EL1_READ, true, 0x0b, 0, 0x817ull },
	{ "table in no memory", 0xffff000080000000ull, 0, EL1_READ, true, 0x16, 0, 0x82dull },
	{ "VA outside both ranges", 0x0001000000001000ull, 0, EL1_READ, true, 0x04, 0, 0x809ull },
	{ "tagged user VA without TBI0", 0x2a00000000001000ull, 0, EL1_READ, true, 0x04, 0, 0x809ull },
	{ "tagged user VA with TBI0", 0x2a00000000001000ull, TCR_48BIT_4K | TCR_TBI0, EL1_READ, false, 0,
	  0x1000ull, 0x0000000000001900ull },
	{ "EPD1 disables TTBR1 walks", 0xffff000012345000ull, TCR_48BIT_4K | TCR_EPD1, EL1_READ, true,
	  0x04, 0, 0x809ull },
	/* AP=01 page: EL0 may access it, so PAN forbids EL1 data accesses. */
	{ "AP=01, EL1 read, PAN clear", 0xffff000012349008ull, 0, EL1_READ, false, 0, 0x80349008ull,
	  0xff00000080349980ull },
	{ "AP=01, EL1 read, PAN set", 0xffff000012349008ull, 0, EL1_READ_PAN, true, 0x0f, 0, 0x81full },
	{ "AP=01, EL0 write", 0xffff000012349008ull, 0, EL0_WRITE, false, 0, 0x80349008ull,
	  0xff00000080349980ull },
	{ "AP=00, EL1 read, PAN set", 0xffff000012345000ull, 0, EL1_READ_PAN, false, 0, 0x80345000ull,
	  0xff00000080345980ull },
	{ "AP=00, EL0 read", 0xffff000012345000ull, 0, EL0_READ, true, 0x0f, 0, 0x81full },
	{ "AP=11, EL0 read", 0xffff00001234a000ull, 0, EL0_READ, false, 0, 0x8034a000ull,
	  0xff0000008034a980ull },
	{ "AP=11, EL1 write", 0xffff00001234a000ull, 0, EL1_WRITE, true, 0x0f, 0, 0x81full },
	{ "AP=11, EL1 read, PAN set", 0xffff00001234a000ull, 0, EL1_READ_PAN, true, 0x0f, 0, 0x81full },
	{ "AP=10, EL0 read", 0xffff00001234b000ull, 0, EL0_READ, true, 0x0f, 0, 0x81full },
	{ "AP=10, EL1 read", 0xffff00001234b000ull, 0, EL1_READ, false, 0, 0x8034b000ull,
	  0xff0000008034b980ull },
	/* APTable[0] above an AP=01 block: EL0 loses access (a level-1 fault), so PAN does not apply. */
	{ "APTable no-EL0, EL0 read", 0x0000000000001000ull, 0, EL0_READ, true, 0x0d, 0, 0x81bull },
	{ "APTable no-EL0, EL1 read, PAN set", 0x0000000000001000ull, 0, EL1_READ_PAN, false, 0,
	  0x1000ull, 0x0000000000001900ull },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_walk_regs regs = {
		.ttbr0 = PHYS_BASE + L0_TTBR0 * 4096, .ttbr1 = PHYS_BASE + L0_TTBR1 * 4096,
		.tcr = r->tcr ? r->tcr : TCR_48BIT_4K, .mair = MAIR_LINUX,
	};
	struct eh_error err = { 0 };
	struct eh_walk w;
	uint64_t par;

	build_tables();
	if (eh_walk_translate(&w, &regs, r->va, &r->acc, read_phys, NULL, &err))
		fail_msg("%s: 0x%016llx: %s", r->name, (unsigned long long)r->va, err.msg);
	if (w.fault != r->fault || (r->fault && w.fsc != r->fsc) || (!r->fault && w.pa != r->pa))
		fail_msg("%s: 0x%016llx: fault %d fsc 0x%02x pa 0x%llx, expected fault %d fsc 0x%02x pa 0x%llx",
			 r->name, (unsigned long long)r->va, w.fault, w.fsc, (unsigned long long)w.pa, r->fault,
			 r->fsc, (unsigned long long)r->pa);
	par = eh_walk_par(&w);
	if (par != r->par)
		fail_msg("%s: PAR_EL1 0x%016llx, expected 0x%016llx", r->name, (unsigned long long)par,
			 (unsigned long long)r->par);
}

static void test_unsupported_granule(void **state)
{
	struct eh_walk_regs regs = { .ttbr1 = PHYS_BASE, .tcr = TCR_TG1_16K, .mair = MAIR_LINUX };
	struct eh_walk_access acc = EL1_READ;
	struct eh_error err = { 0 };
	struct eh_walk w;

	(void)state;
	assert_int_equal(eh_walk_translate(&w, &regs, 0xffff000012345000ull, &acc, read_phys, NULL, &err),
			 EH_EINVAL);
	assert_non_null(strstr(err.msg, "4K granule"));
	assert_non_null(strstr(err.msg, "0x0000000540100010"));
}

static void test_walk_records_descriptors(void **state)
{
	struct eh_walk_regs regs = { .ttbr1 = PHYS_BASE, .tcr = TCR_48BIT_4K, .mair = MAIR_LINUX };
	struct eh_walk_access acc = EL1_READ;
	struct eh_walk w;

	(void)state;
	build_tables();
	assert_int_equal(eh_walk_translate(&w, &regs, 0xffff000012345000ull, &acc, read_phys, NULL, NULL), 0);
	assert_int_equal(w.ndesc, 4);
	assert_int_equal(w.level, 3);
	/* L3 index 0x145 of the table at 0x40003000. */
	assert_int_equal(w.desc_pa[3], 0x40003000ull + 0x145 * 8);
	assert_int_equal(w.desc[3], 0x0060000080345713ull);
	assert_int_equal(w.desc_pa[2], 0x40002000ull + 0x91 * 8);
}

struct par_row {
	const char *name;
	uint64_t par;
	const char *text;
};

static const struct par_row par_rows[] = {
	{ "translation fault L2", 0x80dull, "F=1 FST=0x06 (translation fault, level 2)" },
	{ "permission fault L3", 0x81full, "F=1 FST=0x0f (permission fault, level 3)" },
	{ "access flag fault L3", 0x817ull, "F=1 FST=0x0b (access flag fault, level 3)" },
	{ "success", 0xff00000080345980ull, "F=0 PA=0x000080345000 ATTR=0xff SH=inner" },
	{ "success, Device", 0x00000000c0123900ull, "F=0 PA=0x0000c0123000 ATTR=0x00 SH=outer" },
};

static void run_par_row(void **state)
{
	const struct par_row *r = *state;
	char buf[128];

	if (strcmp(eh_walk_par_describe(r->par, buf, sizeof(buf)), r->text))
		fail_msg("%s: PAR 0x%llx described as '%s', expected '%s'", r->name,
			 (unsigned long long)r->par, buf, r->text);
}

/*
 * A TTBR0_EL1 base with bit 44 set: beyond a 40-bit IPS, or a 40-bit CPU under a 48-bit IPS, it is
 * an Address size fault at level 0 before anything is read (Arm ARM, TCR_EL1.IPS: the smaller of IPS
 * and the implemented PA size); within 48 bits the walk reads there and finds no memory.
 */
static void test_address_size(void **state)
{
	static const struct {
		unsigned ips, pa_bits;
		uint8_t fsc;
	} sizes[] = {
		{ 2, 0, EH_FSC_ADDRESS_SIZE },      /* IPS 40 bits */
		{ 5, 40, EH_FSC_ADDRESS_SIZE },     /* IPS 48 bits on a 40-bit CPU */
		{ 5, 0, EH_FSC_WALK_ABORT },        /* 48 bits: no address size fault, no memory there */
		{ 5, 44, EH_FSC_ADDRESS_SIZE },     /* a 44-bit CPU: PA bits 43:0, bit 44 is beyond */
	};
	const struct eh_walk_access acc = EL1_READ;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct eh_walk_regs regs = { .ttbr0 = 1ull << 44, .tcr = 0x0000000080100010ull | (uint64_t)sizes[i].ips << 32,
					     .mair = MAIR_LINUX, .pa_bits = sizes[i].pa_bits };
		struct eh_walk w;

		assert_int_equal(eh_walk_translate(&w, &regs, 0x1000, &acc, read_phys, NULL, NULL), 0);
		if (!w.fault || w.fsc != sizes[i].fsc)
			fail_msg("IPS %u, PA %u bits: fault %d fsc 0x%02x, expected fsc 0x%02x", sizes[i].ips,
				 sizes[i].pa_bits, w.fault, w.fsc, sizes[i].fsc);
	}
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + EH_COUNT(par_rows) + 3];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_ROWS(tests, n, par_rows, run_par_row);
	EH_ADD_TEST(tests, n, test_unsupported_granule);
	EH_ADD_TEST(tests, n, test_walk_records_descriptors);
	EH_ADD_TEST(tests, n, test_address_size);
	return EH_RUN_TESTS("walk", tests, n);
}

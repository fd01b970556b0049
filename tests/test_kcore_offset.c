/* Tests of case kcore-offset: the 5.4 VA layout and the offset checks against values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../cases/kcore-offset/kcore_offset.h"
#include "eh/case.h"

struct layout_row {
	struct eh_kcore_config cfg;
	struct eh_kcore_layout want;
};

/*
 * By hand from asm/memory.h and asm/pgtable.h (5.4, no KASAN):
 * VA_BITS 48, 4K: VMEMMAP_SIZE = 2^47 >> 6 = 0x200_0000_0000, so VMEMMAP_START = -that - 2M =
 * 0xfffffdffffe00000, FIXADDR_TOP = VMEMMAP_START - 20M = 0xfffffdfffea00000, VMALLOC_END =
 * -1G - 0x200_0000_0000 - 64K = 0xfffffdffbfff0000.
 * VA_BITS 52, 64K: VMEMMAP_SIZE = (2^52 - 2^47) >> 10 = 0x3e0_0000_0000, VMEMMAP_START =
 * 0xfffffc1fffe00000, FIXADDR_TOP = 0xfffffc1ffea00000, VMALLOC_END = -4T - 0x3e0_0000_0000 - 64K
 * = 0xfffff81fffff0000. Both: PAGE_END = 0xffff800000000000, KIMAGE_VADDR = PAGE_END + 256M.
 */
static void run_layout_row(void **state)
{
	const struct layout_row *row = *state;
	struct eh_kcore_layout got;

	eh_kcore_layout(&row->cfg, &got);
	assert_int_equal(got.va_bits, row->want.va_bits);
	assert_int_equal(got.page_offset, row->want.page_offset);
	assert_int_equal(got.page_end, row->want.page_end);
	assert_int_equal(got.kimage_vaddr, row->want.kimage_vaddr);
	assert_int_equal(got.vmalloc_end, row->want.vmalloc_end);
	assert_int_equal(got.fixaddr_top, row->want.fixaddr_top);
	assert_int_equal(got.range_size, row->want.range_size);
}

#define LAYOUT_ROW(name_, ...) \
	{ .name = name_, .test_func = run_layout_row, .initial_state = &(struct layout_row){ __VA_ARGS__ } }

#define MAX_ADDRS 4

struct check_row {
	struct eh_kcore_config cfg;
	size_t n;
	uint64_t vaddr[MAX_ADDRS], offset[MAX_ADDRS], back[MAX_ADDRS];
	struct eh_kcore_result want;
};

static void run_check_row(void **state)
{
	const struct check_row *row = *state;
	struct eh_kcore_layout l;
	struct eh_kcore_result got;
	unsigned c;

	eh_kcore_layout(&row->cfg, &l);
	eh_kcore_check(&l, row->vaddr, row->offset, row->back, row->n, &got);
	for (c = 0; c < EH_KCORE_NCHECKS; c++) {
		if (got.failures[c] != row->want.failures[c])
			fail_msg("%s: %zu failures, want %zu", eh_kcore_check_name(c), got.failures[c],
				 row->want.failures[c]);
		if (got.failures[c] && got.first[c] != row->want.first[c])
			fail_msg("%s: first fails at %zu, want %zu", eh_kcore_check_name(c), got.first[c],
				 row->want.first[c]);
	}
}

#define CHECK_ROW(name_, ...) \
	{ .name = name_, .test_func = run_check_row, .initial_state = &(struct check_row){ __VA_ARGS__ } }

#define VA48 { .va_bits = 48, .page_shift = 12, .pud_shift = 30 }
#define VA52 { .va_bits = 52, .page_shift = 16, .pud_shift = 42 }
#define FAILS(check, count, at) .failures[check] = (count), .first[check] = (at)

/* Does the case report, for each VA size, a failing check (before) or none (after)? */
struct case_row {
	const char *variant;
	const char *per_va;   /* what each "VA_BITS n:" part of the evidence must say */
};

static void run_case_row(void **state)
{
	const struct case_row *row = *state;
	const struct eh_case *c = eh_case_find("kcore-offset");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	static const char *const parts[] = { "VA_BITS 48:", "VA_BITS 52:" };
	struct eh_error err = { 0 };
	struct eh_case_run *r;
	unsigned i;

	assert_non_null(c);
	if (eh_case_run(&r, c, eh_case_variant(c, row->variant), eh_model_find("cortex-a72"), &opts, &err))
		fail_msg("%s", err.msg);
	for (i = 0; i < 2; i++) {
		const char *p = strstr(r->outcome.evidence, parts[i]);
		const char *end = p ? strchr(p, ';') : NULL;
		const char *say = p ? strstr(p, row->per_va) : NULL;

		if (!say || (end && say > end))
			fail_msg("%s: no '%s' for %s in: %s", row->variant, row->per_va, parts[i],
				 r->outcome.evidence);
	}
	eh_case_run_free(r);
}

#define CASE_ROW(name_, ...) \
	{ .name = name_, .test_func = run_case_row, .initial_state = &(struct case_row){ __VA_ARGS__ } }

static const struct CMUnitTest tests[] = {
	LAYOUT_ROW("layout VA_BITS 48, 4K pages", .cfg = VA48,
		   .want = { .va_bits = 48, .page_offset = 0xffff000000000000, .page_end = 0xffff800000000000,
			     .kimage_vaddr = 0xffff800010000000, .vmalloc_end = 0xfffffdffbfff0000,
			     .fixaddr_top = 0xfffffdfffea00000, .range_size = 0x1000000000000 }),
	LAYOUT_ROW("layout VA_BITS 52, 64K pages", .cfg = VA52,
		   .want = { .va_bits = 52, .page_offset = 0xfff0000000000000, .page_end = 0xffff800000000000,
			     .kimage_vaddr = 0xffff800010000000, .vmalloc_end = 0xfffff81fffff0000,
			     .fixaddr_top = 0xfffffc1ffea00000, .range_size = 0x10000000000000 }),
	/* v & ~PAGE_END and o | PAGE_END by hand: the linear map folds onto the range above PAGE_END. */
	CHECK_ROW("old macros, VA_BITS 48: PAGE_END goes back to 0, PAGE_OFFSET comes back as PAGE_END",
		  .cfg = VA48, .n = 4,
		  .vaddr = { 0xffff000000000000, 0xffff7fffffffffff, 0xffff800000000000, 0xffffffffffffffff },
		  .offset = { 0, 0x7fffffffffff, 0, 0x7fffffffffff },
		  .back = { 0xffff800000000000, 0xffffffffffffffff, 0xffff800000000000, 0xffffffffffffffff },
		  .want = { FAILS(EH_KCORE_MONOTONIC, 1, 2), FAILS(EH_KCORE_ROUND_TRIP, 2, 0) }),
	CHECK_ROW("old macros, VA_BITS 52: PAGE_OFFSET and PAGE_END share offset 0",
		  .cfg = VA52, .n = 2, .vaddr = { 0xfff0000000000000, 0xffff800000000000 },
		  .offset = { 0, 0 }, .back = { 0xffff800000000000, 0xffff800000000000 },
		  .want = { FAILS(EH_KCORE_MONOTONIC, 1, 1), FAILS(EH_KCORE_ROUND_TRIP, 1, 0) }),
	/* v - PAGE_OFFSET and o + PAGE_OFFSET by hand. */
	CHECK_ROW("generic macros, VA_BITS 48: every check holds", .cfg = VA48, .n = 4,
		  .vaddr = { 0xffff000000000000, 0xffff7fffffffffff, 0xffff800000000000, 0xffffffffffffffff },
		  .offset = { 0, 0x7fffffffffff, 0x800000000000, 0xffffffffffff },
		  .back = { 0xffff000000000000, 0xffff7fffffffffff, 0xffff800000000000, 0xffffffffffffffff }),
	CHECK_ROW("generic macros, VA_BITS 52: every check holds", .cfg = VA52, .n = 3,
		  .vaddr = { 0xfff0000000000000, 0xffff800000000000, 0xffffffffffffffff },
		  .offset = { 0, 0xf800000000000, 0xfffffffffffff },
		  .back = { 0xfff0000000000000, 0xffff800000000000, 0xffffffffffffffff }),
	CHECK_ROW("PAGE_OFFSET not at offset 0", .cfg = VA48, .n = 1, .vaddr = { 0xffff000000000000 },
		  .offset = { 0x1000 }, .back = { 0xffff000000000000 }, .want = { FAILS(EH_KCORE_ZERO, 1, 0) }),
	CHECK_ROW("48-bit offsets measured from the 52-bit PAGE_OFFSET leave the range", .cfg = VA48, .n = 1,
		  .vaddr = { 0xffffffffffffffff }, .offset = { 0xfffffffffffff }, .back = { 0xffffffffffffffff },
		  .want = { FAILS(EH_KCORE_IN_RANGE, 1, 0) }),
	CASE_ROW("case before: a check fails for VA_BITS 48 and for 52", .variant = "before",
		 .per_va = " fails "),
	CASE_ROW("case after: every check holds for VA_BITS 48 and 52", .variant = "after",
		 .per_va = "all four checks hold"),
};

int main(void)
{
	return cmocka_run_group_tests_name("kcore-offset", tests, NULL, NULL);
}

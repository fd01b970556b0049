/* Tests of case untagged-addr: the untagging rule and the tally of results against values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../cases/untagged-addr/untagged_addr.h"
#include "eh/case.h"

struct rule_row {
	uint64_t in, want;
};

static void run_rule_row(void **state)
{
	const struct rule_row *row = *state;
	uint64_t got = eh_untag_expected(row->in);

	if (got != row->want)
		fail_msg("0x%016llx -> 0x%016llx, want 0x%016llx", (unsigned long long)row->in,
			 (unsigned long long)got, (unsigned long long)row->want);
}

#define RULE_ROW(name_, ...) \
	{ .name = name_, .test_func = run_rule_row, .initial_state = &(struct rule_row){ __VA_ARGS__ } }

#define MAX_IN 3

struct tally_row {
	size_t n;
	uint64_t in[MAX_IN], out_asm[MAX_IN], out_c[MAX_IN];
	struct eh_untag_tally want;
};

static void run_tally_row(void **state)
{
	const struct tally_row *row = *state;
	struct eh_untag_tally got = { 0 };

	eh_untag_tally(&got, row->in, row->out_asm, row->out_c, row->n);
	assert_int_equal(got.inputs, row->want.inputs);
	assert_int_equal(got.disagree, row->want.disagree);
	assert_int_equal(got.asm_wrong, row->want.asm_wrong);
	assert_int_equal(got.c_wrong, row->want.c_wrong);
	assert_int_equal(got.have_first, row->want.have_first);
	if (got.have_first) {
		assert_int_equal(got.first_in, row->want.first_in);
		assert_int_equal(got.first_asm, row->want.first_asm);
		assert_int_equal(got.first_c, row->want.first_c);
	}
}

#define TALLY_ROW(name_, ...) \
	{ .name = name_, .test_func = run_tally_row, .initial_state = &(struct tally_row){ __VA_ARGS__ } }

struct case_row {
	const char *variant;
	const char *says;
};

static void run_case_row(void **state)
{
	const struct case_row *row = *state;
	const struct eh_case *c = eh_case_find("untagged-addr");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_error err = { 0 };
	struct eh_case_run *r;

	assert_non_null(c);
	if (eh_case_run(&r, c, eh_case_variant(c, row->variant), eh_model_find("cortex-a72"), &opts, &err))
		fail_msg("%s", err.msg);
	if (!strstr(r->outcome.evidence, row->says) || !strstr(r->outcome.evidence, "100000 random"))
		fail_msg("%s: no '%s' over 100000 random addresses in: %s", row->variant, row->says,
			 r->outcome.evidence);
	eh_case_run_free(r);
}

#define CASE_ROW(name_, ...) \
	{ .name = name_, .test_func = run_case_row, .initial_state = &(struct case_row){ __VA_ARGS__ } }

static const struct CMUnitTest tests[] = {
	/* Bit 55 clear: bits 63:56 are a tag under TBI and are cleared. */
	RULE_ROW("NULL stays NULL", .in = 0, .want = 0),
	RULE_ROW("user pointer with tag 0x2a loses it", .in = 0x2a00000012345000, .want = 0x0000000012345000),
	RULE_ROW("tag 0xff on a user pointer is cleared", .in = 0xff00000012345000, .want = 0x0000000012345000),
	RULE_ROW("tag 0x80 over bit 55 clear is cleared", .in = 0x807fffffffffffff, .want = 0x007fffffffffffff),
	/* Bit 55 set: a TTBR1 address, returned as it is. */
	RULE_ROW("TTBR1 address with top byte 0x7f is kept", .in = 0x7fff800008000000, .want = 0x7fff800008000000),
	RULE_ROW("TTBR1 address with top byte 0x00 is kept", .in = 0x0080000000000000, .want = 0x0080000000000000),
	RULE_ROW("kernel address is kept", .in = 0xffff800008000000, .want = 0xffff800008000000),
	RULE_ROW("all ones is kept", .in = 0xffffffffffffffff, .want = 0xffffffffffffffff),
	/* The old C macro sign-extends 0x7fff800008000000 to 0xffff800008000000; the old assembly keeps it. */
	TALLY_ROW("old C against old assembly on the commit's example", .n = 1,
		  .in = { 0x7fff800008000000 }, .out_asm = { 0x7fff800008000000 }, .out_c = { 0xffff800008000000 },
		  .want = { .inputs = 1, .disagree = 1, .c_wrong = 1, .have_first = true,
			    .first_in = 0x7fff800008000000, .first_asm = 0x7fff800008000000,
			    .first_c = 0xffff800008000000 }),
	TALLY_ROW("new sequences on a user and a TTBR1 address: nothing to report", .n = 2,
		  .in = { 0x2a00000012345000, 0x7fff800008000000 },
		  .out_asm = { 0x0000000012345000, 0x7fff800008000000 },
		  .out_c = { 0x0000000012345000, 0x7fff800008000000 }, .want = { .inputs = 2 }),
	TALLY_ROW("both sign-extending agree but break the rule", .n = 1, .in = { 0x0080000000000000 },
		  .out_asm = { 0xff80000000000000 }, .out_c = { 0xff80000000000000 },
		  .want = { .inputs = 1, .asm_wrong = 1, .c_wrong = 1, .have_first = true,
			    .first_in = 0x0080000000000000, .first_asm = 0xff80000000000000,
			    .first_c = 0xff80000000000000 }),
	TALLY_ROW("the first wrong input is the one reported", .n = 3,
		  .in = { 0x0000000000001000, 0x0080000000000000, 0x7fff800008000000 },
		  .out_asm = { 0x0000000000001000, 0x0080000000000000, 0x7fff800008000000 },
		  .out_c = { 0x0000000000001000, 0xff80000000000000, 0xffff800008000000 },
		  .want = { .inputs = 3, .disagree = 2, .c_wrong = 2, .have_first = true,
			    .first_in = 0x0080000000000000, .first_asm = 0x0080000000000000,
			    .first_c = 0xff80000000000000 }),
	CASE_ROW("case before: the first disagreement is the commit's example", .variant = "before",
		 .says = "first disagreeing input 0x7fff800008000000"),
	CASE_ROW("case after: assembly and C agree everywhere", .variant = "after",
		 .says = "assembly and C agree on every one"),
};

int main(void)
{
	return cmocka_run_group_tests_name("untagged-addr", tests, NULL, NULL);
}

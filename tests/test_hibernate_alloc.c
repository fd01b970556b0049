/* Tests of case hibernate-alloc: the NULL-table slot, run endings and each variant run, against values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../cases/hibernate-alloc/hibernate_alloc.h"
#include "eh/case.h"

struct slot_row {
	uint64_t va, want;
};

static void run_slot_row(void **state)
{
	const struct slot_row *row = *state;

	assert_int_equal(eh_hibernate_pgd_slot(row->va), row->want);
}

#define SLOT_ROW(name_, ...) \
	{ .name = name_, .test_func = run_slot_row, .initial_state = &(struct slot_row){ __VA_ARGS__ } }

struct end_row {
	struct eh_thread_result res;
	uint64_t x0;
	enum eh_hib_end want;
};

static void run_end_row(void **state)
{
	const struct end_row *row = *state;

	assert_int_equal(eh_hibernate_classify(&row->res, row->x0), row->want);
}

#define END_ROW(name_, ...) \
	{ .name = name_, .test_func = run_end_row, .initial_state = &(struct end_row){ __VA_ARGS__ } }

struct case_row {
	const char *variant;
	const char *says;      /* must appear in the evidence */
	unsigned enomem;       /* how many runs end with -ENOMEM */
};

static void run_case_row(void **state)
{
	const struct case_row *row = *state;
	const struct eh_case *c = eh_case_find("hibernate-alloc");
	struct eh_run_opts opts = { .cases_dir = EH_CASES_DIR, .seed = 1 };
	struct eh_error err = { 0 };
	struct eh_case_run *r;
	const char *p;
	unsigned enomem = 0;

	assert_non_null(c);
	if (eh_case_run(&r, c, eh_case_variant(c, row->variant), eh_model_find("cortex-a72"), &opts, &err))
		fail_msg("%s", err.msg);
	for (p = r->outcome.evidence; (p = strstr(p, "-ENOMEM")); p++)
		enomem++;
	if (!strstr(r->outcome.evidence, row->says) || enomem != row->enomem)
		fail_msg("%s: want '%s' and %u -ENOMEM in: %s", row->variant, row->says, row->enomem,
			 r->outcome.evidence);
	eh_case_run_free(r);
}

#define CASE_ROW(name_, ...) \
	{ .name = name_, .test_func = run_case_row, .initial_state = &(struct case_row){ __VA_ARGS__ } }

static const struct CMUnitTest tests[] = {
	/* VA[47:39] times 8. */
	SLOT_ROW("kernel image address: index 256", .va = 0xffff800008010000, .want = 0x800),
	SLOT_ROW("low user address: index 0", .va = 0x0000000012345000, .want = 0),
	SLOT_ROW("top of the lower half: index 255", .va = 0x00007fffffffffff, .want = 0x7f8),
	SLOT_ROW("512G: index 1", .va = 0x0000008000000000, .want = 0x8),
	SLOT_ROW("start of the linear map: index 0", .va = 0xffff000000000000, .want = 0),
	END_ROW("returned 0", .res = { .stop = EH_STOP_RETURNED }, .x0 = 0, .want = EH_HIB_OK),
	END_ROW("returned -12", .res = { .stop = EH_STOP_RETURNED }, .x0 = 0xfffffffffffffff4,
		.want = EH_HIB_ENOMEM),
	END_ROW("returned -12 in w0 only", .res = { .stop = EH_STOP_RETURNED }, .x0 = 0x00000000fffffff4,
		.want = EH_HIB_ENOMEM),
	END_ROW("returned 1", .res = { .stop = EH_STOP_RETURNED }, .x0 = 1, .want = EH_HIB_OTHER),
	END_ROW("fault at 0x800: the NULL page", .res = { .stop = EH_STOP_FAULT, .addr = 0x800 },
		.want = EH_HIB_NULL_DEREF),
	END_ROW("fault at 0xfff: still the NULL page", .res = { .stop = EH_STOP_FAULT, .addr = 0xfff },
		.want = EH_HIB_NULL_DEREF),
	END_ROW("fault at 0x1000: past the NULL page", .res = { .stop = EH_STOP_FAULT, .addr = 0x1000 },
		.want = EH_HIB_OTHER),
	END_ROW("budget exhausted", .res = { .stop = EH_STOP_BUDGET }, .want = EH_HIB_OTHER),
	CASE_ROW("case before: failing the top-level table reads through NULL", .variant = "before",
		 .says = "allocation 2 (the top-level table) data abort at 0x0000000000000800 by "
			 "create_safe_exec_page_before+", .enomem = 4),
	CASE_ROW("case after: every failure returns -ENOMEM", .variant = "after",
		 .says = "5 allocations when none fails", .enomem = 5),
};

int main(void)
{
	return cmocka_run_group_tests_name("hibernate-alloc", tests, NULL, NULL);
}

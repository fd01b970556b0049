/* Kernel versions: their order, and the version a release string starts with. */
#include <string.h>

#include "eh/kversion.h"
#include "reports/rows.h"

/* Two versions and the sign of their comparison: numbers, part by part. */
static const struct order_row {
	const char *name;
	const char *a, *b;
	int sign;
} orders[] = {
	{ "6.1 before 6.12", "6.1", "6.12", -1 },
	{ "6.12 after 6.1", "6.12", "6.1", 1 },
	{ "6.1 is 6.1", "6.1", "6.1", 0 },
	{ "5.4 before 6.1", "5.4", "6.1", -1 },
	{ "a release after its series", "6.12", "6.12.118", -1 },
	{ "6.2 before 6.12, not as strings", "6.2", "6.12", -1 },
	{ "10.0 after 9.9", "10.0", "9.9", 1 },
	{ "a major alone: 5.4 before 6", "5.4", "6", -1 },
	{ "a major alone: 6.1 after 6", "6.1", "6", 1 },
};

static void run_order(void **state)
{
	const struct order_row *r = *state;
	int c = eh_kversion_cmp(r->a, r->b);

	if ((c > 0) - (c < 0) != r->sign)
		fail_msg("%s against %s: %d, expected the sign of %d", r->a, r->b, c, r->sign);
}

/* A release and the version the capability rules are looked up by, or none. */
static const struct release_row {
	const char *name;
	const char *release;
	const char *version;        /* NULL: refused */
} releases[] = {
	{ "Debian's cloud kernel", "6.1.0-27-cloud-arm64", "6.1" },
	{ "a stable release", "5.4.281", "5.4" },
	{ "a release candidate", "6.12.0-rc3", "6.12" },
	{ "two digits of minor", "4.19.325-cip", "4.19" },
	{ "no minor", "6-custom", NULL },
	{ "not a number", "linux-6.1", NULL },
};

static void run_release(void **state)
{
	const struct release_row *r = *state;
	struct eh_error err = { 0 };
	char buf[16];
	int rc = eh_kversion_of_release(r->release, buf, sizeof(buf), &err);

	if (r->version) {
		assert_int_equal(rc, 0);
		assert_string_equal(buf, r->version);
	} else {
		assert_int_equal(rc, EH_EINPUT);
		assert_non_null(strstr(err.msg, r->release));
	}
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(orders) + EH_COUNT(releases)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, orders, run_order);
	EH_ADD_ROWS(tests, n, releases, run_release);
	return EH_RUN_TESTS("kversion", tests, n);
}

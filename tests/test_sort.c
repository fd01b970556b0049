/*
 * eh_sort_pairs against its contract, checked as properties rather than against its own output: the
 * keys come out in order, every pair comes out once with its key, and equal keys keep their order;
 * on either side of the insertion-sort cutoff and for the key shapes the audit sorts.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "eh/sort.h"
#include "reports/rows.h"

enum keys {
	KEYS_RANDOM,      /* all 64 bits */
	KEYS_KERNEL,      /* kernel text addresses: the top bits shared */
	KEYS_FEW,         /* five distinct keys: runs of equal ones */
	KEYS_DESCENDING,
	KEYS_EQUAL,
};

struct row {
	const char *name;
	size_t n;
	enum keys keys;
};

static const struct row rows[] = {
	{ "no pairs", 0, KEYS_RANDOM },
	{ "one pair", 1, KEYS_RANDOM },
	{ "two pairs, descending", 2, KEYS_DESCENDING },
	{ "63 random keys", 63, KEYS_RANDOM },
	{ "64 kernel addresses", 64, KEYS_KERNEL },
	{ "65 kernel addresses", 65, KEYS_KERNEL },
	{ "64 pairs of five keys", 64, KEYS_FEW },
	{ "65 pairs of five keys", 65, KEYS_FEW },
	{ "1000 descending keys", 1000, KEYS_DESCENDING },
	{ "5000 random keys", 5000, KEYS_RANDOM },
	{ "5000 kernel addresses", 5000, KEYS_KERNEL },
	{ "5000 pairs of five keys", 5000, KEYS_FEW },
	{ "100 equal keys", 100, KEYS_EQUAL },
};

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t key(enum keys k, size_t i, size_t n, uint64_t *s)
{
	switch (k) {
	case KEYS_RANDOM: return next(s);
	case KEYS_KERNEL: return 0xffff800008000000ull + (next(s) % 0x1000000) * 4;
	case KEYS_FEW: return next(s) % 5;
	case KEYS_DESCENDING: return n - i;
	case KEYS_EQUAL: return 42;
	}
	return 0;
}

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_sort_pair *v = calloc(r->n + 1, sizeof(*v));
	uint64_t *keys = calloc(r->n + 1, sizeof(*keys)), s = 0x9e3779b97f4a7c15ull;
	bool *seen = calloc(r->n + 1, sizeof(*seen));
	size_t i;

	assert_non_null(v);
	assert_non_null(keys);
	assert_non_null(seen);
	for (i = 0; i < r->n; i++) {
		keys[i] = key(r->keys, i, r->n, &s);
		v[i] = (struct eh_sort_pair){ .key = keys[i], .val = i };
	}
	assert_int_equal(eh_sort_pairs(v, r->n), 0);
	for (i = 0; i < r->n; i++) {
		if (v[i].val >= r->n || seen[v[i].val] || keys[v[i].val] != v[i].key)
			fail_msg("%s: position %zu holds pair %llu, key 0x%llx: not one of the input's, or twice",
				 r->name, i, (unsigned long long)v[i].val, (unsigned long long)v[i].key);
		seen[v[i].val] = true;
		if (i && (v[i - 1].key > v[i].key || (v[i - 1].key == v[i].key && v[i - 1].val > v[i].val)))
			fail_msg("%s: positions %zu and %zu out of order: (0x%llx, %llu) then (0x%llx, %llu)", r->name,
				 i - 1, i, (unsigned long long)v[i - 1].key, (unsigned long long)v[i - 1].val,
				 (unsigned long long)v[i].key, (unsigned long long)v[i].val);
	}
	free(v);
	free(keys);
	free(seen);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	return EH_RUN_TESTS("sort", tests, n);
}

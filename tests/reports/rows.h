/* Table-driven cmocka tests whose rows appear in the report under their own names. */
#ifndef EH_TEST_ROWS_H
#define EH_TEST_ROWS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/* The number of elements of the array a (an array, not a pointer: cmocka's macros take its sizeof too). */
#define EH_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The next free slot of tests (an array of size elements), counted in *n. A program
 * whose table outgrows its array stops here with a message, before writing past it.
 */
static inline struct CMUnitTest *eh_test_slot(struct CMUnitTest *tests, size_t size, size_t *n)
{
	if (*n >= size) {
		fprintf(stderr, "test table: more than %zu tests for an array of %zu\n", size, size);
		exit(2);
	}
	return &tests[(*n)++];
}

/* Append one test named name running fn with state as its initial state. */
#define EH_ADD(tests, n, name_, fn, state)                                                 \
	(*eh_test_slot((tests), EH_COUNT(tests), &(n)) = (struct CMUnitTest){             \
		 .name = (name_), .test_func = (fn), .initial_state = (void *)(state) })

/*
 * Append one named test per row of the array rows, named by the row's field, running fn
 * with the row as state; a table ending in a sentinel row (a NULL name) stops there.
 */
#define EH_ADD_ROWS_BY(tests, n, rows, field, fn)                                        \
	do {                                                                             \
		size_t eh_row_;                                                          \
		for (eh_row_ = 0; eh_row_ < EH_COUNT(rows) && (rows)[eh_row_].field; eh_row_++) \
			EH_ADD(tests, n, (rows)[eh_row_].field, fn, &(rows)[eh_row_]);    \
	} while (0)

/* Append one named test per row of the array rows (each row has a .name). */
#define EH_ADD_ROWS(tests, n, rows, fn) EH_ADD_ROWS_BY(tests, n, rows, name, fn)

/* Append one plain test, named after its function. */
#define EH_ADD_TEST(tests, n, fn) EH_ADD(tests, n, #fn, fn, NULL)

/*
 * True when the n tests appended fill the array of size exactly; otherwise say which
 * group's table disagrees with its array, since cmocka would run the empty slots.
 */
static inline bool eh_tests_filled(const char *group, size_t n, size_t size)
{
	if (n == size)
		return true;
	fprintf(stderr, "%s: %zu tests appended to an array of %zu\n", group, n, size);
	return false;
}

/* Run the group of the n tests in the array tests through cmocka's public API. */
#define EH_RUN_GROUP(group, tests, n, setup, teardown)                  \
	(eh_tests_filled((group), (n), EH_COUNT(tests))                 \
		 ? cmocka_run_group_tests_name((group), (tests), (setup), (teardown)) \
		 : 1)

#define EH_RUN_TESTS(group, tests, n) EH_RUN_GROUP(group, tests, n, NULL, NULL)

#endif

/* Table-driven cmocka tests whose rows appear in the report under their own names. */
#ifndef EH_TEST_ROWS_H
#define EH_TEST_ROWS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* Append one named test per row of the array rows (each row has a .name) running fn with the row as state. */
#define EH_ADD_ROWS(tests, n, rows, fn)                                                  \
	do {                                                                             \
		size_t eh_row_;                                                          \
		for (eh_row_ = 0; eh_row_ < sizeof(rows) / sizeof((rows)[0]); eh_row_++) \
			(tests)[(n)++] = (struct CMUnitTest){                            \
				.name = (rows)[eh_row_].name, .test_func = (fn),          \
				.initial_state = (void *)&(rows)[eh_row_] };              \
	} while (0)

/* Append one plain test. */
#define EH_ADD_TEST(tests, n, fn) \
	((tests)[(n)++] = (struct CMUnitTest){ .name = #fn, .test_func = (fn) })

#define EH_RUN_TESTS(group, tests, n) _cmocka_run_group_tests((group), (tests), (n), NULL, NULL)

#endif

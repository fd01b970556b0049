/* The engine's cost is linear in the instructions a run executes (counted in uc_emu_start calls, never timed), a data write costs no retranslation, the next machine keeps what was translated from the same words only, and a runaway meets the wall-clock backstop. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fuzz/snippet.h"
#include "reports/rows.h"

/* Encodings from aarch64-linux-gnu-as and objdump, not from the code under test. */
#define MOVZ_X0(n) (0xd2800000u | ((uint32_t)(n) << 5))  /* movz x0, #n */
#define SUBS_X0_1 0xf1000400u                              /* subs x0, x0, #1 */
#define BNE_BACK_1 0x54ffffe1u                             /* b.ne .-4 */
#define RET 0xd65f03c0u                                    /* ret */
#define B_SELF 0x14000000u                                 /* b . */

struct loop_row {
	const char *name;
	unsigned threads;
	unsigned iterations;    /* of the subs / b.ne pair; 0: `b .` until the budget stops it */
};

/*
 * A loop of n iterations runs movz, n x (subs, b.ne) and ret: 2n + 2 instructions a thread.
 * A lone thread runs in one engine call however long; interleaved threads step one
 * instruction a call, so the calls grow with the instructions and no faster.
 */
static const struct loop_row loop_rows[] = {
	{ "one thread, 1 iteration", 1, 1 },
	{ "one thread, 10 iterations", 1, 10 },
	{ "one thread, 999 iterations", 1, 999 },
	{ "one thread, spinning to the budget", 1, 0 },
	{ "two threads, 1 iteration", 2, 1 },
	{ "two threads, 10 iterations", 2, 10 },
	{ "two threads, 100 iterations", 2, 100 },
	{ "two threads, 999 iterations", 2, 999 },
	{ "two threads, spinning to the budget", 2, 0 },
	{ "four threads, 100 iterations", 4, 100 },
};

static void write_word(uint8_t *p, uint32_t w)
{
	p[0] = (uint8_t)w;
	p[1] = (uint8_t)(w >> 8);
	p[2] = (uint8_t)(w >> 16);
	p[3] = (uint8_t)(w >> 24);
}

static void run_loop_row(void **state)
{
	const struct loop_row *row = *state;
	uint8_t code[16];
	struct eh_snippet_run r;
	uint64_t per_thread = row->iterations ? 2ull * row->iterations + 2 : EH_SNIPPET_BUDGET;

	if (row->iterations) {
		write_word(code, MOVZ_X0(row->iterations));
		write_word(code + 4, SUBS_X0_1);
		write_word(code + 8, BNE_BACK_1);
		write_word(code + 12, RET);
	} else {
		write_word(code, B_SELF);
	}
	eh_snippet_run(code, row->iterations ? 16 : 4, row->threads, &r);
	assert_true(r.written);
	assert_false(r.left_running);
	assert_int_equal(r.executed, per_thread * row->threads);
	/* One engine a thread at most, none once an earlier run has given as many back to reuse. */
	assert_in_range(r.cost.engines, 0, row->threads);
	assert_int_equal(r.cost.tb_flushes, 0);
	assert_int_equal(r.cost.cache_drops, 0);  /* the code goes in before any engine exists */
	if (row->threads == 1)
		assert_int_equal(r.cost.emu_starts, 1);
	else
		assert_in_range(r.cost.emu_starts, 1, eh_snippet_call_bound(&r, row->threads));
}

/* A machine takes the engines an earlier one gave back (reset, not re-created). */
static void test_engines_reused(void **state)
{
	static const uint8_t ret[4] = { 0xc0, 0x03, 0x5f, 0xd6 };  /* ret */
	struct eh_snippet_run r;

	(void)state;
	eh_snippet_run(ret, sizeof(ret), EH_SNIPPET_THREADS, &r);
	eh_snippet_run(ret, sizeof(ret), EH_SNIPPET_THREADS, &r);
	assert_int_equal(r.executed, EH_SNIPPET_THREADS);
	assert_int_equal(r.cost.engines, 0);
}

/* Run thread 0 of m from entry to its return; its x0. */
static uint64_t run_x0(struct eh_machine *m, uint64_t entry)
{
	struct eh_error err = { 0 };

	assert_int_equal(eh_machine_start(m, 0, entry, NULL, 0, &err), 0);
	assert_int_equal(eh_machine_run(m, &err), 0);
	assert_int_equal(eh_machine_result(m, 0)->stop, EH_STOP_RETURNED);
	return eh_machine_xreg(m, 0, 0);
}

/*
 * Code written into a machine whose engine has run it drops what the engine translated, so the
 * new words run; data written (here the stack) drops nothing, so a sweep's inputs cost no
 * translation again.
 */
static void test_writes_drop_only_code(void **state)
{
	struct eh_machine_opts opts = { .seed = 1 };
	struct eh_machine *m;
	struct eh_error err = { 0 };
	uint64_t spin, zero = 0;
	uint8_t code[8];

	(void)state;
	assert_int_equal(eh_snippet_machine(&opts, &m, &spin), 0);
	write_word(code, MOVZ_X0(1));
	write_word(code + 4, RET);
	assert_int_equal(eh_machine_write(m, spin, code, sizeof(code), &err), 0);
	assert_int_equal(run_x0(m, spin), 1);
	assert_int_equal(eh_machine_write(m, EH_STACK_TOP - 8, &zero, 8, &err), 0);
	assert_int_equal(eh_machine_cost(m)->cache_drops, 0);
	assert_int_equal(run_x0(m, spin), 1);
	write_word(code, MOVZ_X0(2));
	assert_int_equal(eh_machine_write(m, spin, code, 4, &err), 0);
	assert_int_equal(eh_machine_cost(m)->cache_drops, 1);
	assert_int_equal(run_x0(m, spin), 2);
	eh_machine_free(m);
}

/*
 * A machine whose image lies where the last one's did takes over the engine that kept it, and
 * what the engine translated from words that are still the same: the same words run as they did,
 * words that changed run as they are now (a stale translation would return the x0 before).
 */
static void test_next_machine_keeps_only_same_code(void **state)
{
	static const unsigned x0s[] = { 1, 1, 2, 1 };
	struct eh_machine_opts opts = { .seed = 1 };
	struct eh_machine *m;
	struct eh_error err = { 0 };
	uint64_t spin;
	uint8_t code[8];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(x0s) / sizeof(x0s[0]); i++) {
		assert_int_equal(eh_snippet_machine(&opts, &m, &spin), 0);
		write_word(code, MOVZ_X0(x0s[i]));
		write_word(code + 4, RET);
		assert_int_equal(eh_machine_write(m, spin, code, sizeof(code), &err), 0);
		assert_int_equal(run_x0(m, spin), x0s[i]);
		/* ... and the decoder the last machine handed on (take_decoder) saw it as it is now. */
		assert_int_equal(eh_machine_ran(m, 0, 1)->word, MOVZ_X0(x0s[i]));
		if (i)  /* the first may take an engine an earlier test left */
			assert_int_equal(eh_machine_cost(m)->kept_code, 1);
		eh_machine_free(m);
	}
}

/*
 * The wall-clock limit backs the budget: a runaway with no budget to speak of stops at
 * timeout_us, stepping or alone (the limit is 1 ms; no test here measures how long it took).
 */
static void test_timeout_stops_a_runaway(void **state)
{
	struct eh_machine_opts opts = { .seed = 1, .budget = UINT64_MAX, .timeout_us = 1000 };
	struct eh_machine *m;
	struct eh_error err = { 0 };
	uint64_t entry;
	unsigned threads, t;

	(void)state;
	for (threads = 1; threads <= 2; threads++) {
		assert_int_equal(eh_snippet_machine(&opts, &m, &entry), 0);
		for (t = 0; t < threads; t++)
			assert_int_equal(eh_machine_start(m, t, entry, NULL, 0, &err), 0);
		assert_int_equal(eh_machine_run(m, &err), 0);
		for (t = 0; t < threads; t++) {
			assert_int_equal(eh_machine_result(m, t)->stop, EH_STOP_TIMEOUT);
			assert_true(eh_machine_result(m, t)->executed > 0);
		}
		eh_machine_free(m);
	}
}

/* Every saved fuzz input replays within the bound the fuzz target holds it to. */
static void test_regressions(void **state)
{
	DIR *d = opendir(EH_SNIPPET_REGRESSIONS);
	struct dirent *de;
	unsigned n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[4096];
		uint8_t buf[EH_SNIPPET_MAX_BYTES];
		size_t len;
		FILE *f;
		struct eh_snippet_run r;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", EH_SNIPPET_REGRESSIONS, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		eh_snippet_run(buf, len, EH_SNIPPET_THREADS, &r);
		assert_false(r.left_running);
		if (r.cost.emu_starts > eh_snippet_call_bound(&r, EH_SNIPPET_THREADS))
			fail_msg("%s: %llu engine calls for %llu instructions (at most %llu)", de->d_name,
				 (unsigned long long)r.cost.emu_starts, (unsigned long long)r.executed,
				 (unsigned long long)eh_snippet_call_bound(&r, EH_SNIPPET_THREADS));
		assert_in_range(r.cost.engines, 0, EH_SNIPPET_THREADS);
		if (r.cost.tb_flushes)
			fail_msg("%s: %llu flushes of every translation", de->d_name,
				 (unsigned long long)r.cost.tb_flushes);
		n++;
	}
	closedir(d);
	assert_true(n >= 4);  /* the directory held its inputs */
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(loop_rows) + 5];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, loop_rows, run_loop_row);
	EH_ADD_TEST(tests, n, test_engines_reused);
	EH_ADD_TEST(tests, n, test_writes_drop_only_code);
	EH_ADD_TEST(tests, n, test_next_machine_keeps_only_same_code);
	EH_ADD_TEST(tests, n, test_timeout_stops_a_runaway);
	EH_ADD_TEST(tests, n, test_regressions);
	return EH_RUN_TESTS("engine_cost", tests, n);
}

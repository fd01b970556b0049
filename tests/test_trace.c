/* Loops in a trace: which runs of events fold into one pass and a count, and which must not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/machine.h"
#include "reports/rows.h"

#define MAX_EVENTS 400
#define MAX_LOOPS 4

/*
 * A trace written as letters: an upper-case letter is an instruction at its own
 * address on thread 0, a lower-case one the same on thread 1, a digit a load of
 * instruction "A"'s loop at address 0x1000 * digit (its instruction number
 * differs every time, as in a real run), '*' an instruction at a new address
 * each time (so nothing around it repeats). "<n>" repeats the letters before it,
 * back to the previous '|', n times in all.
 */
struct row {
	const char *name;
	const char *trace;
	size_t nloops;
	struct eh_trace_loop loops[MAX_LOOPS];
	enum eh_loop_match match;   /* EH_LOOP_SAME_EVENTS unless the row says */
};

static const struct row rows[] = {
	{ "nothing repeats", "ABCD", 0 },
	{ "one instruction four times", "AAAAB", 1, { { 0, 1, 4 } } },
	{ "twice the same instruction saves one line: not folded", "AAB", 0 },
	{ "a pair twice saves two: folded", "ABAB", 1, { { 0, 2, 2 } } },
	{ "the BHB loop of the trampoline", "S|BSN<32>DI", 1, { { 1, 3, 32 } } },
	{ "loads at the same address fold although their instruction numbers differ", "XA1A1A1A1Y", 1,
	  { { 1, 2, 4 } } },
	{ "loads at other addresses each pass do not fold", "A1A2A3A4", 0 },
	{ "... unless places are what counts (a loop over a table)", "A1A2A3A4", 1, { { 0, 2, 4 } },
	  EH_LOOP_SAME_PLACES },
	{ "places: another instruction still breaks the loop", "A1B2A3C4", 0, .match = EH_LOOP_SAME_PLACES },
	{ "two loops one after the other", "AAAA|BC<3>", 2, { { 0, 1, 4 }, { 4, 2, 3 } } },
	{ "threads interleaved: the pair of both threads", "Aa<3>", 1, { { 0, 2, 3 } } },
	{ "the same address on another thread is another event", "AaAbAc", 0 },
	{ "a new address in every pass breaks the loop", "A*A*A*", 0 },
	{ "the shortest period is taken", "AAAAAAAA", 1, { { 0, 1, 8 } } },
};

/* Expand a row's letters into events. */
static size_t build(const char *spec, struct eh_event *ev)
{
	size_t n = 0, mark = 0, k, insns = 0, fresh = 0;
	const char *p;

	for (p = spec; *p; p++) {
		if (*p == '|') {
			mark = n;
		} else if (*p == '<') {
			unsigned times = 0;
			size_t len = n - mark, t;

			for (p++; *p != '>'; p++)
				times = times * 10 + (unsigned)(*p - '0');
			for (t = 1; t < times; t++)
				for (k = 0; k < len; k++) {
					ev[n] = ev[mark + k];
					if (ev[n].kind == EH_EV_ACCESS)
						ev[n].count = (uint32_t)++insns;
					n++;
				}
			mark = n;
		} else if (*p >= '0' && *p <= '9') {
			ev[n++] = (struct eh_event){ .kind = EH_EV_ACCESS, .pc = 0x4000, .flags = EH_INSN_LOAD,
						     .addr = 0x1000u * (unsigned)(*p - '0'), .size = 8,
						     .count = (uint32_t)++insns };
		} else if (*p == '*') {
			ev[n++] = (struct eh_event){ .kind = EH_EV_INSN, .pc = 0x100000 + 4 * fresh++ };
		} else {
			unsigned lower = *p >= 'a';

			ev[n++] = (struct eh_event){ .kind = EH_EV_INSN, .thread = (uint8_t)lower,
						     .pc = 0x4000 + 4u * (unsigned)(*p - (lower ? 'a' : 'A')) };
		}
	}
	return n;
}

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_event events[MAX_EVENTS];
	struct eh_trace tr = { .events = events };
	struct eh_trace_loop *loops;
	size_t n, i;

	tr.n = tr.cap = build(r->trace, events);
	assert_int_equal(eh_trace_loops(&tr, r->match, &loops, &n, NULL), 0);
	if (n != r->nloops)
		fail_msg("%s: %zu loops, expected %zu", r->name, n, r->nloops);
	for (i = 0; i < n; i++)
		if (loops[i].start != r->loops[i].start || loops[i].period != r->loops[i].period ||
		    loops[i].passes != r->loops[i].passes)
			fail_msg("%s: loop %zu at event %zu, %zu events x%zu; expected at %zu, %zu x%zu", r->name,
				 i, loops[i].start, loops[i].period, loops[i].passes, r->loops[i].start,
				 r->loops[i].period, r->loops[i].passes);
	eh_free(loops);
}

/* A pass longer than EH_TRACE_LOOP_MAX_PERIOD events is not looked for. */
static void test_period_limit(void **state)
{
	static struct eh_event events[2 * (EH_TRACE_LOOP_MAX_PERIOD + 1)];
	struct eh_trace tr = { .events = events, .n = 2 * (EH_TRACE_LOOP_MAX_PERIOD + 1) };
	struct eh_trace_loop *loops;
	size_t n, i;

	(void)state;
	for (i = 0; i < tr.n; i++)
		events[i] = (struct eh_event){ .kind = EH_EV_INSN, .pc = 4 * (i % (EH_TRACE_LOOP_MAX_PERIOD + 1)) };
	assert_int_equal(eh_trace_loops(&tr, EH_LOOP_SAME_EVENTS, &loops, &n, NULL), 0);
	assert_int_equal(n, 0);
	eh_free(loops);
	tr.n = 2 * EH_TRACE_LOOP_MAX_PERIOD;
	for (i = 0; i < tr.n; i++)
		events[i] = (struct eh_event){ .kind = EH_EV_INSN, .pc = 4 * (i % EH_TRACE_LOOP_MAX_PERIOD) };
	assert_int_equal(eh_trace_loops(&tr, EH_LOOP_SAME_EVENTS, &loops, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(loops[0].period, EH_TRACE_LOOP_MAX_PERIOD);
	eh_free(loops);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(rows) / sizeof(rows[0]) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_period_limit);
	return EH_RUN_TESTS("trace", tests, n);
}

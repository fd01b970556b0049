/* Tests exec on relocatable objects from tests/objects/: relocations at run time, stubs, zero pages, stops, bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../harness/src/util/alloc_fail.h"
#include "eh/exec.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

#define OBJ(name) EH_TEST_OBJ_DIR "/" name ".o"

/* Run obj from symbol on model with opts o (symbol filled in); fail the test on an error. */
static struct eh_exec *run(const char *obj, const char *model, struct eh_exec_opts *o, const char *symbol)
{
	struct eh_exec *x = NULL;
	struct eh_error err = { 0 };

	o->symbol = symbol;
	if (!o->seed)
		o->seed = 1;
	if (eh_exec_run(&x, obj,
			&(struct eh_target){ .model = eh_model_find(model) },
			eh_cpucaps_builtin("6.1"), o, &err))
		fail_msg("exec %s at %s on %s: %s", obj, symbol, model, err.msg);
	return x;
}

static uint64_t sym(const struct eh_exec *x, const char *name)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(x->elf, name);

	if (!s)
		fail_msg("no symbol %s", name);
	return s->value;
}

/* The n-th event of kind k, or NULL. */
static const struct eh_event *nth(const struct eh_exec *x, enum eh_event_kind k, unsigned n)
{
	const struct eh_trace *tr = eh_machine_trace(x->machine);
	size_t i;

	for (i = 0; i < tr->n; i++)
		if (tr->events[i].kind == k && !n--)
			return &tr->events[i];
	return NULL;
}

static size_t count(const struct eh_exec *x, enum eh_event_kind k)
{
	size_t n = 0;

	while (nth(x, k, (unsigned)n))
		n++;
	return n;
}

/*
 * What relocs_run leaves in each register, worked from tests/objects/exec.S:
 * a constant of its data, or the address of a symbol (sym set, value 0).
 */
struct reloc_row {
	const char *name;
	unsigned reg;
	const char *sym;
	uint64_t value;
};

static const struct reloc_row reloc_rows[] = {
	{ "ADR_PREL_PG_HI21 + ADD_ABS_LO12_NC", 0, "data_quad", 0 },
	{ "MOVW_UABS_G3, G2_NC, G1_NC, G0_NC", 1, "data_quad", 0 },
	{ "LDST8_ABS_LO12_NC", 2, NULL, 0xa5 },
	{ "LDST16_ABS_LO12_NC", 3, NULL, 0xbeef },
	{ "LDST32_ABS_LO12_NC", 4, NULL, 0xcafef00d },
	{ "LDST64_ABS_LO12_NC", 5, NULL, 0x0123456789abcdefull },
	{ "LDST128_ABS_LO12_NC (upper half)", 6, NULL, 0x2222 },
	{ "LD_PREL_LO19 across sections", 7, NULL, 0x1122334455667788ull },
	{ "ADR_PREL_LO21 across sections", 8, "far_code", 0 },
	{ "PREL32 in data", 10, "far_code", 0 },
	{ "ABS64 in data", 11, "relocs_run", 0 },
	{ "CALL26 across sections (callee ran)", 12, NULL, 1 },
	{ "CONDBR19 + JUMP26 there and back", 13, NULL, 2 },
};

static void test_relocations_at_run_time(void **state)
{
	/* It calls into .text.other and back: the run may go anywhere in the kernel's half. */
	struct eh_exec_opts o = { .range = "0xffff000000000000:0xffffffff00000000" };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, "relocs_run");
	size_t i;

	(void)state;
	assert_int_equal(x->res->stop, EH_STOP_RETURNED);
	for (i = 0; i < sizeof(reloc_rows) / sizeof(reloc_rows[0]); i++) {
		const struct reloc_row *r = &reloc_rows[i];
		uint64_t want = r->sym ? sym(x, r->sym) : r->value, got = eh_machine_xreg(x->machine, 0, r->reg);

		if (got != want)
			fail_msg("%s: x%u = 0x%" PRIx64 ", expected 0x%" PRIx64, r->name, r->reg, got, want);
	}
	eh_exec_free(x);
}

static void test_stub_calls(void **state)
{
	struct eh_exec_opts o = { 0 };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, "call_ext");
	const struct eh_event *call = nth(x, EH_EV_STUB_CALL, 0), *tail = nth(x, EH_EV_STUB_CALL, 1);
	const uint64_t *args;
	unsigned i;

	(void)state;
	assert_int_equal(x->res->stop, EH_STOP_RETURNED);
	assert_int_equal(x->elf->nstubs, 3);  /* ext_fn, ext_tail, ext_var */
	assert_non_null(call);
	assert_non_null(tail);
	assert_string_equal(eh_elf_stub_at(x->elf, call->pc)->symbol, "ext_fn");
	/* BL at call_ext+0x24 returns to the next instruction. */
	assert_int_equal(call->addr, sym(x, "call_ext") + 0x28);
	args = eh_machine_call_args(x->machine, call);
	assert_non_null(args);
	for (i = 0; i < 8; i++)
		if (args[i] != i + 1)
			fail_msg("ext_fn argument x%u = 0x%" PRIx64 ", expected %u", i, args[i], i + 1);
	/* The stub returned 0: x22 = x0 + 5. */
	assert_int_equal(eh_machine_xreg(x->machine, 0, 22), 5);
	/* B ext_tail is a tail call: its stub returns to the harness. */
	assert_string_equal(eh_elf_stub_at(x->elf, tail->pc)->symbol, "ext_tail");
	assert_int_equal(tail->addr, EH_RETURN_ADDR);
	assert_null(eh_machine_call_args(x->machine, nth(x, EH_EV_START, 0)));
	eh_exec_free(x);
}

static void test_zero_pages(void **state)
{
	struct eh_exec_opts o = { 0 };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, "touch_far");
	const struct eh_event *page = nth(x, EH_EV_PAGE, 0), *load = nth(x, EH_EV_ACCESS, 0),
			      *store = nth(x, EH_EV_ACCESS, 1), *stub = nth(x, EH_EV_ACCESS, 3);

	(void)state;
	assert_int_equal(x->res->stop, EH_STOP_RETURNED);
	/* One page for the load at 0x512340000; the store 8 bytes on reuses it. */
	assert_int_equal(count(x, EH_EV_PAGE), 1);
	assert_int_equal(page->addr, 0x512340000ull);
	assert_int_equal(page->flags, EH_INSN_LOAD);
	assert_int_equal(page->pc, sym(x, "touch_far") + 8);
	assert_int_equal(load->addr, 0x512340000ull);
	assert_int_equal(store->addr, 0x512340008ull);
	assert_int_equal(store->value, 0x77);
	assert_int_equal(eh_machine_xreg(x->machine, 0, 0), 0);
	assert_int_equal(eh_machine_xreg(x->machine, 0, 3), 0x77);
	/* The undefined variable lives on its stub's page, which reads as zero. */
	assert_non_null(stub);
	assert_string_equal(eh_elf_stub_at(x->elf, stub->addr)->symbol, "ext_var");
	assert_int_equal(eh_machine_xreg(x->machine, 0, 5), 0);
	eh_exec_free(x);
}

/* Zero pages are opt-in: the same code under a case's options stops at the first unmapped access. */
static void test_zero_pages_opt_in(void **state)
{
	struct eh_exec_opts o = { 0 };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, "relocs_run");
	struct eh_machine *m = NULL;
	struct eh_error err = { 0 };
	const struct eh_thread_result *res;

	(void)state;
	if (eh_machine_new(&m, eh_model_find("cortex-a72"), x->img, NULL, &err) ||
	    eh_machine_start(m, 0, sym(x, "touch_far"), NULL, 0, &err) || eh_machine_run(m, &err))
		fail_msg("%s", err.msg);
	res = eh_machine_result(m, 0);
	assert_int_equal(res->stop, EH_STOP_FAULT);
	assert_int_equal(res->addr, 0x512340000ull);
	eh_machine_free(m);
	eh_exec_free(x);
}

struct stop_row {
	const char *name;
	const char *symbol;
	const char *until;
	uint64_t budget;
	enum eh_stop stop;
	const char *at;         /* symbol the thread stopped at */
	uint64_t off;
};

static const struct stop_row stop_rows[] = {
	{ "returns to the harness", "call_ext", NULL, 0, EH_STOP_RETURNED, NULL, 0 },
	{ "ERET stops before returning", "eret_stop", NULL, 0, EH_STOP_ERET, "eret_stop", 4 },
	{ "leaving the entry's section", "leave", NULL, 0, EH_STOP_LEFT_RANGE, "far_code", 0 },
	{ "the instruction budget", "spin", NULL, 100, EH_STOP_BUDGET, "spin", 0 },
	{ "--until", "call_ext", "call_ext+0x24", 0, EH_STOP_UNTIL, "call_ext", 0x24 },
	{ "an exception with a vector installed", "brk_stop", NULL, 0, EH_STOP_EXCEPTION, "brk_stop", 0xc },
};

static void run_stop_row(void **state)
{
	const struct stop_row *r = *state;
	struct eh_exec_opts o = { .until = r->until, .budget = r->budget };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, r->symbol);

	if (x->res->stop != r->stop)
		fail_msg("%s: stopped '%s' at 0x%" PRIx64 ", expected '%s'", r->name, eh_stop_name(x->res->stop),
			 x->res->pc, eh_stop_name(r->stop));
	if (r->at && x->res->pc != sym(x, r->at) + r->off)
		fail_msg("%s: stopped at 0x%" PRIx64 ", expected %s+0x%" PRIx64, r->name, x->res->pc, r->at, r->off);
	if (r->stop == EH_STOP_EXCEPTION) {
		const struct eh_event *ev = nth(x, EH_EV_EXCEPTION, 0);

		/* BRK: EC 0x3c; VBAR_EL1 held a vector, so the event says the run chose to stop. */
		assert_non_null(ev);
		assert_int_equal(ev->esr >> 26, 0x3c);
		assert_int_equal(ev->count, 1);
		assert_int_equal(ev->value, 0);
	}
	eh_exec_free(x);
}

/* Erratum 219 acts as in the cases: the load between MSR TTBR0_EL1 and the ISB is the culprit. */
static void test_erratum_in_exec(void **state)
{
	struct eh_exec_reg reg = { .n = 2, .value = 0 };
	struct eh_exec_opts o = { .regs = &reg, .nregs = 1 };
	struct eh_exec *x = run(OBJ("exec"), "cortex-a72", &o, "relocs_run");
	const struct eh_event *ev;

	(void)state;
	reg.value = sym(x, "data_quad");
	eh_exec_free(x);
	x = run(OBJ("exec"), "thunderx2", &o, "ttbr_load");
	ev = nth(x, EH_EV_INJECT, 0);
	assert_non_null(ev);
	assert_int_equal(ev->pc, sym(x, "ttbr_load") + 4);
	assert_int_equal(nth(x, EH_EV_ACCESS, 0)->addr, reg.value);
	eh_exec_free(x);
	x = run(OBJ("exec"), "cortex-a72", &o, "ttbr_load");
	assert_null(nth(x, EH_EV_INJECT, 0));
	assert_true(nth(x, EH_EV_ACCESS, 0)->in_window);
	eh_exec_free(x);
}

static void test_mem(void **state)
{
	char path[] = "/tmp/eh-test-exec-XXXXXX", quad[64], far[64];
	const char *mems[2] = { quad, far };
	struct eh_exec_opts o = { .mems = mems, .nmems = 2, .range = "0xffff000000000000:0xffffffff00000000" };
	const uint8_t bytes[8] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe };
	uint8_t back[8];
	int fd = mkstemp(path);
	struct eh_exec *x;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, sizeof(bytes)), sizeof(bytes));
	close(fd);
	snprintf(quad, sizeof(quad), "data_quad=%s", path);
	/* Past a page boundary: the file lands on two zero pages. */
	snprintf(far, sizeof(far), "0x600000ffc=%s", path);
	x = run(OBJ("exec"), "cortex-a72", &o, "relocs_run");
	assert_int_equal(x->res->stop, EH_STOP_RETURNED);
	/* LDST64 read the file's bytes, little-endian. */
	assert_int_equal(eh_machine_xreg(x->machine, 0, 5), 0xfedcba9876543210ull);
	assert_int_equal(eh_machine_read(x->machine, 0x600000ffcull, back, 4, NULL), 0);
	assert_int_equal(eh_machine_read(x->machine, 0x600001000ull, back + 4, 4, NULL), 0);
	assert_memory_equal(back, bytes, sizeof(bytes));
	eh_exec_free(x);
	unlink(path);
}

struct reg_row {
	const char *spec;
	int rc;
	unsigned n;
	uint64_t value;
	const char *says;       /* in the message when rc != 0 */
};

static const struct reg_row reg_rows[] = {
	{ "x0=1", 0, 0, 1, NULL },
	{ "x30=0xffff800008000000", 0, 30, 0xffff800008000000ull, NULL },
	{ "sp=4096", 0, 31, 4096, NULL },
	{ "x31=1", EH_EINVAL, 0, 0, "no register 'x31'" },
	{ "x01=1", EH_EINVAL, 0, 0, "no register 'x01'" },
	{ "w0=1", EH_EINVAL, 0, 0, "no register 'w0'" },
	{ "x0", EH_EINVAL, 0, 0, "expected REG=VALUE" },
	{ "x0=", EH_EINVAL, 0, 0, "'' is not a 64-bit value" },
	{ "x0=zz", EH_EINVAL, 0, 0, "'zz' is not a 64-bit value" },
	{ "x0=-1", EH_EINVAL, 0, 0, "'-1' is not a 64-bit value" },
	{ "x0= 1", EH_EINVAL, 0, 0, "' 1' is not a 64-bit value" },
	{ "x0=0x10000000000000000", EH_EINVAL, 0, 0, "is not a 64-bit value" },
};

static void test_parse_reg(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(reg_rows) / sizeof(reg_rows[0]); i++) {
		const struct reg_row *r = &reg_rows[i];
		struct eh_exec_reg out = { 0 };
		struct eh_error err = { 0 };
		int rc = eh_exec_parse_reg(r->spec, &out, &err);

		if (rc != r->rc || (!rc && (out.n != r->n || out.value != r->value)) ||
		    (rc && (!strstr(err.msg, r->spec) || !strstr(err.msg, r->says))))
			fail_msg("--reg %s: rc %d, x%u = 0x%" PRIx64 ", message '%s'", r->spec, rc, out.n, out.value,
				 err.msg);
	}
}

/* Bad input: an error code and a message naming the file and what is wrong. */
struct bad_row {
	const char *name;
	const char *obj;
	const char *symbol;
	const char *until;
	const char *mem;
	int rc;
	const char *says;
	const char *range;
};

static const struct bad_row bad_rows[] = {
	{ "unknown symbol", "exec", "no_such_fn", NULL, NULL, EH_ENOENT, "exec.o: no symbol 'no_such_fn'" },
	{ "symbol in data", "exec", "data_quad", NULL, NULL, EH_EINVAL, "is not in executable code: it is in .data" },
	{ "misaligned entry", "exec", "spin+2", NULL, NULL, EH_EINVAL, "spin+2 (0x" },
	{ "bad offset", "exec", "spin+zz", NULL, NULL, EH_EINVAL, "bad offset in 'spin+zz'" },
	{ "address outside the image", "exec", "0x1000", NULL, NULL, EH_EINVAL, "is not in executable code" },
	{ "unknown --until", "exec", "spin", "nowhere", NULL, EH_ENOENT, "--until: " },
	{ "--mem without a file", "exec", "spin", NULL, "data_quad", EH_EINVAL, "expected ADDR=FILE" },
	{ "--mem with an unknown symbol", "exec", "spin", NULL, "nowhere=/dev/null", EH_ENOENT, "no symbol 'nowhere'" },
	{ "--mem with a missing file", "exec", "spin", NULL, "0x600000000=/nonexistent/file", EH_EIO,
	  "/nonexistent/file: cannot open" },
	{ "unsupported relocation", "bad-reloc", "tls_user", NULL, NULL, EH_EINPUT,
	  "bad-reloc.o: .text+0x4: relocation type 549 is not supported (against tls_var)" },
	{ "relocation that does not fit", "overflow", "small_abs", NULL, NULL, EH_EINPUT,
	  "overflow.o: .text+0x0: relocation type 263 against ext_var does not fit its field" },
	{ "missing file", "no-such-object", "spin", NULL, NULL, EH_EIO, "no-such-object.o" },
	{ "--range without a colon", "exec", "spin", NULL, NULL, EH_EINVAL, "--range 'spin': expected FROM:TO",
	  "spin" },
	{ "--range that leaves the entry out", "exec", "spin", NULL, NULL, EH_EINVAL, "does not hold the entry",
	  "far_code:far_code+8" },
};

static void run_bad_row(void **state)
{
	const struct bad_row *r = *state;
	char path[4096];
	const char *mems[1] = { r->mem };
	struct eh_exec_opts o = {
		.symbol = r->symbol, .until = r->until, .range = r->range, .mems = mems, .nmems = r->mem != NULL,
	};
	struct eh_exec *x = NULL;
	struct eh_error err = { 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/%s.o", EH_TEST_OBJ_DIR, r->obj);
	rc = eh_exec_run(&x, path,
			 &(struct eh_target){ .model = eh_model_find("cortex-a72") },
			 eh_cpucaps_builtin("6.1"), &o, &err);
	if (rc != r->rc || x || !strstr(err.msg, r->says))
		fail_msg("%s: rc %d, message '%s'; expected rc %d saying '%s'", r->name, rc, err.msg, r->rc, r->says);
}

/* exec with every allocation in turn failing: each run unwinds with EH_ENOMEM, stubs, pages and calls included. */
static void test_allocation_failures(void **state)
{
	static const char *const symbols[] = { "call_ext", "touch_far" };
	unsigned long n;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		for (n = 1; n < 100000; n++) {
			struct eh_exec_opts o = { .symbol = symbols[i], .seed = 1, .trace_insns = true };
			struct eh_exec *x = NULL;
			struct eh_error err = { 0 };
			int rc;

			eh_alloc_fail_at(n);
			rc = eh_exec_run(&x, OBJ("exec"),
					 &(struct eh_target){ .model = eh_model_find("thunderx2") },
					 eh_cpucaps_builtin("6.1"),
					 &o, &err);
			eh_exec_free(x);
			if (eh_alloc_count() < n) {  /* finished before the failure point: every path covered */
				eh_alloc_fail_at(0);
				if (rc)
					fail_msg("%s: fails (%s) with no allocation failing", symbols[i], err.msg);
				break;
			}
			if (rc != EH_ENOMEM || x)
				fail_msg("%s: allocation %lu failed but the result was %d: %s", symbols[i], n, rc, err.msg);
		}
		eh_alloc_fail_at(0);
	}
}

/*
 * The project's own snippet, linked (the case's ELF) and unlinked (its object):
 * the same entry runs the same trace, event by event, named by symbol+offset.
 */
struct twin_row {
	const char *name;
	const char *entry;
	const char *model;
};

static const struct twin_row twin_rows[] = {
	{ "tx2-219-prfm before, linked and unlinked, thunderx2", "tramp_entry_before", "thunderx2" },
	{ "tx2-219-prfm after, linked and unlinked, thunderx2", "tramp_entry_after", "thunderx2" },
	{ "tx2-219-prfm after (KASLR), linked and unlinked, thunderx2", "tramp_entry_after_kaslr", "thunderx2" },
	{ "tx2-219-prfm before, linked and unlinked, cortex-a72", "tramp_entry_before", "cortex-a72" },
};

static void run_twin_row(void **state)
{
	const struct twin_row *r = *state;
	const char *paths[2] = { EH_CASES_DIR "/tx2-219-prfm.elf", EH_CASES_DIR "/tx2-219-prfm/tramp.o" };
	struct eh_exec *x[2] = { NULL, NULL };
	const struct eh_trace *tr[2];
	size_t i[2] = { 0, 0 }, k;

	for (k = 0; k < 2; k++) {
		struct eh_exec_opts o = { .symbol = r->entry, .seed = 1, .trace_insns = true };
		struct eh_error err = { 0 };

		if (eh_exec_run(&x[k], paths[k],
				&(struct eh_target){ .model = eh_model_find(r->model) },
				eh_cpucaps_builtin("5.4"), &o, &err))
			fail_msg("%s: %s", r->name, err.msg);
		tr[k] = eh_machine_trace(x[k]->machine);
	}
	assert_int_equal(x[1]->elf->type, ET_REL);
	for (;;) {
		char where[2][160];

		/* Screened words are found where each image maps them, before the run. */
		for (k = 0; k < 2; k++)
			while (i[k] < tr[k]->n && tr[k]->events[i[k]].kind == EH_EV_SCREENED)
				i[k]++;
		if (i[0] == tr[0]->n || i[1] == tr[1]->n)
			break;
		for (k = 0; k < 2; k++)
			eh_elf_describe(x[k]->elf, tr[k]->events[i[k]].pc, where[k], sizeof(where[k]));
		if (tr[0]->events[i[0]].kind != tr[1]->events[i[1]].kind || strcmp(where[0], where[1]) ||
		    tr[0]->events[i[0]].in_window != tr[1]->events[i[1]].in_window)
			fail_msg("%s: event %zu: %s at %s linked, %s at %s unlinked", r->name, i[0],
				 eh_event_kind_name(tr[0]->events[i[0]].kind), where[0],
				 eh_event_kind_name(tr[1]->events[i[1]].kind), where[1]);
		i[0]++;
		i[1]++;
	}
	if (i[0] != tr[0]->n || i[1] != tr[1]->n)
		fail_msg("%s: the traces differ in length (%zu and %zu events)", r->name, tr[0]->n, tr[1]->n);
	assert_int_equal(x[0]->res->stop, x[1]->res->stop);
	eh_exec_free(x[0]);
	eh_exec_free(x[1]);
}

int main(void)
{
	struct CMUnitTest tests[8 + EH_COUNT(stop_rows) + EH_COUNT(twin_rows) + EH_COUNT(bad_rows)];
	size_t n = 0;

	EH_ADD_TEST(tests, n, test_relocations_at_run_time);
	EH_ADD_TEST(tests, n, test_stub_calls);
	EH_ADD_TEST(tests, n, test_zero_pages);
	EH_ADD_TEST(tests, n, test_zero_pages_opt_in);
	EH_ADD_TEST(tests, n, test_erratum_in_exec);
	EH_ADD_TEST(tests, n, test_mem);
	EH_ADD_TEST(tests, n, test_parse_reg);
	EH_ADD_TEST(tests, n, test_allocation_failures);
	EH_ADD_ROWS(tests, n, stop_rows, run_stop_row);
	EH_ADD_ROWS(tests, n, twin_rows, run_twin_row);
	EH_ADD_ROWS(tests, n, bad_rows, run_bad_row);
	return EH_RUN_TESTS("exec", tests, n);
}

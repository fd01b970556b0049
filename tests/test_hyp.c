/* Tests of the virtual EL2: HCR_EL2 traps of VM registers, the EL2 entry and ERET, the host's slow path, vSError. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/machine.h"
#include "eh/sysreg.h"

struct fixture {
	const void *row;        /* the table row of a row test (its cmocka initial state) */
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_machine *m;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const struct eh_model *model = eh_model_find("thunderx2-nosmt");
	struct eh_error err = { 0 };

	assert_non_null(f);
	f->row = *state;
	if (eh_elf_open(&f->elf, EH_TEST_ELF_DIR "/engine-tests.elf", &err) ||
	    eh_image_new(&f->img, f->elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = model }, &err) ||
	    eh_machine_new(&f->m, model, f->img, NULL, &err))
		fail_msg("setting up engine-tests.elf on %s: %s", model->name, err.msg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	eh_machine_free(f->m);
	eh_image_free(f->img);
	eh_elf_free(f->elf);
	free(f);
	return 0;
}

static uint64_t sym(struct fixture *f, const char *name)
{
	struct eh_error err = { 0 };
	uint64_t addr = 0;

	if (eh_elf_resolve(f->elf, name, &addr, &err))
		fail_msg("%s", err.msg);
	return addr;
}

static const struct eh_thread_result *run(struct fixture *f, const char *entry, const uint64_t *args,
					  unsigned nargs)
{
	struct eh_error err = { 0 };

	if (eh_machine_start(f->m, 0, sym(f, entry), args, nargs, &err) || eh_machine_run(f->m, &err))
		fail_msg("running %s: %s", entry, err.msg);
	return eh_machine_result(f->m, 0);
}

static const struct eh_event *find(struct fixture *f, enum eh_event_kind kind, unsigned nth)
{
	const struct eh_trace *tr = eh_machine_trace(f->m);
	size_t i;

	for (i = 0; i < tr->n; i++)
		if (tr->events[i].kind == kind && !nth--)
			return &tr->events[i];
	return NULL;
}

/* A data word to load: the first word of the guest code itself. */
static uint64_t data(struct fixture *f)
{
	return sym(f, "guest_write_ttbr0");
}

static void test_no_tvm_no_trap(void **state)
{
	struct fixture *f = *state;
	uint64_t args[] = { 0, 0x1000, data(f) }, ttbr0 = 0;
	struct eh_window_summary w;

	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, "hyp_vectors_fast"));
	assert_int_equal(run(f, "guest_write_ttbr0", args, 3)->stop, EH_STOP_RETURNED);
	assert_null(find(f, EH_EV_EL2_ENTRY, 0));
	eh_trace_summarise(eh_machine_trace(f->m), &w);
	assert_int_equal(w.windows, 1);
	assert_int_equal(w.loads, 1);  /* the guest's own write opened the window */
	assert_int_equal(eh_machine_sysreg(f->m, 0, EH_TTBR0_EL1, &ttbr0), 0);
	assert_int_equal(ttbr0, 0x1000);
}

static void test_tvm_fast_path(void **state)
{
	struct fixture *f = *state;
	uint64_t args[] = { 0, 0x2000, data(f) }, guest = sym(f, "guest_write_ttbr0"), ttbr0 = 0;
	const struct eh_thread_result *res;
	const struct eh_event *entry, *ret;
	struct eh_window_summary w;

	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, "hyp_vectors_fast"));
	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TVM);
	res = run(f, "guest_write_ttbr0", args, 3);
	assert_int_equal(res->stop, EH_STOP_RETURNED);

	entry = find(f, EH_EV_EL2_ENTRY, 0);
	assert_non_null(entry);
	/* msr ttbr0_el1, x1: EC 0x18, IL, Op0 3, CRn 2, Rt 1, write (worked by hand). */
	assert_int_equal(entry->esr, 0x62300820);
	assert_int_equal(entry->pc, guest + 4);
	assert_int_equal(entry->value, sym(f, "hyp_vectors_fast") + 0x400);
	assert_int_equal(entry->sysreg, EH_TTBR0_EL1);
	assert_int_equal(eh_machine_el2_get(f->m, EH_ESR_EL2), 0x62300820);
	assert_int_equal(eh_machine_el2_get(f->m, EH_ELR_EL2), guest + 8);  /* advanced by the handler */

	/*
	 * The handler's write is of the guest's TTBR0_EL1, made at EL2 (nVHE): not the
	 * regime EL2's own load goes through, so no window opens (eh/regime.h).
	 */
	assert_non_null(find(f, EH_EV_SYSREG_WRITE, 0));
	assert_null(find(f, EH_EV_WINDOW_OPEN, 0));
	assert_null(find(f, EH_EV_WINDOW_CLOSE, 0));
	ret = find(f, EH_EV_EL2_RETURN, 0);
	assert_non_null(ret);
	assert_true(ret->flags & EH_INSN_ERET);
	assert_int_equal(ret->pc, guest + 8);
	eh_trace_summarise(eh_machine_trace(f->m), &w);
	assert_int_equal(w.loads + w.stores + w.prefetches, 0);

	assert_int_equal(eh_machine_sysreg(f->m, 0, EH_TTBR0_EL1, &ttbr0), 0);
	assert_int_equal(ttbr0, 0x2000);
	assert_int_equal(eh_machine_xreg(f->m, 0, 5), 0x77);  /* the guest's registers came back from the frame */
	assert_int_equal(eh_machine_xreg(f->m, 0, 2), data(f));
}

static void test_tvm_slow_path(void **state)
{
	struct fixture *f = *state;
	uint64_t args[] = { 0, 0x3000, data(f) }, guest = sym(f, "guest_write_ttbr0"), ttbr0 = 0;
	const struct eh_event *slow, *ret;
	struct eh_hyp_summary h;

	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, "hyp_vectors_decline"));
	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TVM);
	assert_int_equal(run(f, "guest_write_ttbr0", args, 3)->stop, EH_STOP_RETURNED);
	slow = find(f, EH_EV_HYP_SLOW, 0);
	assert_non_null(slow);
	assert_int_equal(slow->sysreg, EH_TTBR0_EL1);
	assert_int_equal(slow->value, 0x3000);
	assert_int_equal(slow->pc, guest + 4);
	ret = find(f, EH_EV_EL2_RETURN, 0);
	assert_non_null(ret);
	assert_false(ret->flags & EH_INSN_ERET);
	assert_int_equal(ret->pc, guest + 8);
	assert_null(find(f, EH_EV_WINDOW_OPEN, 0));
	eh_trace_summarise_hyp(eh_machine_trace(f->m), &h);
	assert_int_equal(h.traps, 1);
	assert_int_equal(h.fast, 0);
	assert_int_equal(h.slow, 1);
	assert_int_equal(eh_machine_sysreg(f->m, 0, EH_TTBR0_EL1, &ttbr0), 0);
	assert_int_equal(ttbr0, 0x3000);
}

static void test_trvm_read(void **state)
{
	struct fixture *f = *state;
	const struct eh_event *entry;

	eh_machine_set_sysreg(f->m, 0, EH_TTBR0_EL1, 0x4000);
	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, "hyp_vectors_decline"));
	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TRVM);
	run(f, "guest_read_ttbr0", NULL, 0);
	assert_int_equal(eh_machine_xreg(f->m, 0, 4), 0x4000);
	entry = find(f, EH_EV_EL2_ENTRY, 0);
	assert_non_null(entry);
	/* mrs x4, ttbr0_el1: Rt 4 (0x80), direction 1 (read). */
	assert_int_equal(entry->esr, 0x62300881);
	assert_true(entry->flags & EH_INSN_MRS);
}

static void test_other_registers_do_not_trap(void **state)
{
	struct fixture *f = *state;
	uint64_t args[] = { 0, 0x8000 };

	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, "hyp_vectors_fast"));
	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TVM | EH_HCR_TRVM);
	assert_int_equal(run(f, "guest_write_other", args, 2)->stop, EH_STOP_RETURNED);
	assert_null(find(f, EH_EV_EL2_ENTRY, 0));
}

static void test_no_vector(void **state)
{
	struct fixture *f = *state;
	uint64_t args[] = { 0, 0x1000, data(f) };
	const struct eh_event *entry;

	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TVM);
	assert_int_equal(run(f, "guest_write_ttbr0", args, 3)->stop, EH_STOP_EXCEPTION);
	entry = find(f, EH_EV_EL2_ENTRY, 0);
	assert_non_null(entry);
	assert_int_equal(entry->value, 0);
}

/* What the hypervisor does that the engine cannot model is an error naming it, not a crash. */
struct bad_row {
	const char *name;
	const char *vectors;
	const char *message;
};

static const struct bad_row bad_rows[] = {
	{ "ERET to EL0", "hyp_vectors_bad_spsr", "only returns to AArch64 EL1 are modelled" },
	{ "exit without a trapped access", "hyp_vectors_bad_exit",
	  "the host models only trapped system register accesses" },
};

#define BAD_ROW(i) { .name = bad_rows[i].name, .test_func = run_bad_row, .setup_func = setup, \
		     .teardown_func = teardown, .initial_state = (void *)&bad_rows[i] }

static void run_bad_row(void **state)
{
	struct fixture *f = *state;
	const struct bad_row *r = f->row;
	uint64_t args[] = { 0, 0x1000, data(f) };
	struct eh_error err = { 0 };
	int rc;

	eh_machine_el2_set(f->m, EH_VBAR_EL2, sym(f, r->vectors));
	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_TVM);
	if (eh_machine_start(f->m, 0, sym(f, "guest_write_ttbr0"), args, 3, &err))
		fail_msg("%s: %s", r->vectors, err.msg);
	rc = eh_machine_run(f->m, &err);
	if (rc != EH_EINPUT || !strstr(err.msg, r->message) || !strstr(err.msg, "thread 0"))
		fail_msg("%s: rc %d, message \"%s\"", r->vectors, rc, err.msg);
}

static void test_started_in_hyp_text(void **state)
{
	struct fixture *f = *state;
	const struct eh_thread_result *res = run(f, "hyp_report_sp", NULL, 0);
	const struct eh_event *start = find(f, EH_EV_START, 0);

	assert_int_equal(res->stop, EH_STOP_RETURNED);
	assert_int_equal(eh_machine_xreg(f->m, 0, 0), EH_HYP_FRAME(0));
	assert_non_null(start);
	assert_true(start->el2);
}

static void test_virtual_serror(void **state)
{
	struct fixture *f = *state;
	const struct eh_thread_result *res;
	const struct eh_event *exc;

	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_VSE | EH_HCR_AMO);
	res = run(f, "guest_unmask_serror", NULL, 0);
	assert_int_equal(res->stop, EH_STOP_RETURNED);
	assert_int_equal(eh_machine_xreg(f->m, 0, 7), 0x5e);
	assert_non_null(find(f, EH_EV_VSERROR, 0));
	exc = find(f, EH_EV_EXCEPTION, 0);
	assert_non_null(exc);
	assert_int_equal(exc->esr >> 26, 0x2f);  /* SError interrupt */
	assert_int_equal(exc->value, sym(f, "guest_serror_vectors") + 0x380);
	assert_int_equal(eh_machine_el2_get(f->m, EH_HCR_EL2), EH_HCR_AMO);  /* VSE cleared */
}

static void test_serror_needs_amo(void **state)
{
	struct fixture *f = *state;

	eh_machine_el2_set(f->m, EH_HCR_EL2, EH_HCR_VSE);
	run(f, "guest_unmask_serror", NULL, 0);
	assert_int_equal(eh_machine_xreg(f->m, 0, 7), 0);
	assert_null(find(f, EH_EV_VSERROR, 0));
	assert_int_equal(eh_machine_el2_get(f->m, EH_HCR_EL2), EH_HCR_VSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_tvm_no_trap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tvm_fast_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tvm_slow_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trvm_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_registers_do_not_trap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_vector, setup, teardown),
		BAD_ROW(0),
		BAD_ROW(1),
		cmocka_unit_test_setup_teardown(test_started_in_hyp_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtual_serror, setup, teardown),
		cmocka_unit_test_setup_teardown(test_serror_needs_amo, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

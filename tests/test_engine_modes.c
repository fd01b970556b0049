/* The engine at the edges of Unicorn's exception levels: ERET within EL1, EL0 ID-register reads, SVC hook addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eh/image.h"
#include "eh/machine.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

static struct eh_elf *elf;

static int load(void **state)
{
	(void)state;
	return eh_elf_open(&elf, EH_TEST_ELF_DIR "/engine-tests.elf", NULL);
}

static int unload(void **state)
{
	(void)state;
	eh_elf_free(elf);
	return 0;
}

struct ctx {
	uint64_t svc_pc[2];
	unsigned nsvc;
	uint64_t undef_pc;
};

static bool on_svc(struct eh_machine *m, unsigned thread, uint16_t imm, void *p)
{
	struct ctx *c = p;

	if (c->nsvc < 2)
		c->svc_pc[c->nsvc++] = eh_machine_pc(m, thread);
	eh_machine_set_xreg(m, thread, c->nsvc - 1, imm);
	return true;
}

static bool on_undef(struct eh_machine *m, unsigned thread, const struct eh_insn *insn, void *p)
{
	struct ctx *c = p;

	if (!(insn->flags & EH_INSN_MRS) || insn->sysreg != EH_MIDR_EL1)
		return false;
	c->undef_pc = insn->addr;
	eh_machine_set_xreg(m, thread, insn->rt, 0x1234);  /* what a kernel's emulation would answer */
	return true;
}

/* Run symbol on thread 0 of model with x0 = arg and the given hooks; returns thread 0's result. */
static const struct eh_thread_result *run(const char *model, const char *symbol, uint64_t arg,
					  const struct eh_machine_hooks *hooks, struct ctx *c,
					  struct eh_image **img, struct eh_machine **m)
{
	struct eh_machine_opts opts = { .seed = 1, .hooks = hooks, .hooks_ctx = c };
	struct eh_error err = { 0 };
	uint64_t entry;

	if (eh_image_new(img, elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = eh_model_find(model) }, &err) ||
	    eh_elf_resolve(elf, symbol, &entry, &err) ||
	    eh_machine_new(m, eh_model_find(model), *img, &opts, &err) ||
	    eh_machine_start(*m, 0, entry, &arg, 1, &err) || eh_machine_run(*m, &err))
		fail_msg("%s on %s: %s", symbol, model, err.msg);
	return eh_machine_result(*m, 0);
}

struct eret_row {
	const char *name;
	uint64_t spsr;
	uint64_t pan, z;        /* PSTATE.PAN (bit 22) and Z after the ERET */
};

/* Arm ARM D1.11: an exception return restores PSTATE from SPSR_EL1, PAN and NZCV included. */
static const struct eret_row eret_rows[] = {
	{ "EL1h, PAN clear, Z set", 0x400003c5ull, 0, 1 },
	{ "EL1h, PAN set, Z clear", 0x004003c5ull, 1ull << 22, 0 },
};

static void run_eret_row(void **state)
{
	const struct eret_row *r = *state;
	struct eh_image *img;
	struct eh_machine *m;
	const struct eh_thread_result *res = run("thunderx2", "eret_el1_pstate", r->spsr, NULL, NULL, &img, &m);
	uint64_t pan = eh_machine_xreg(m, 0, 0), z = eh_machine_xreg(m, 0, 1);

	if (res->stop != EH_STOP_RETURNED || pan != r->pan || z != r->z)
		fail_msg("%s: SPSR 0x%llx: stop %s, PAN 0x%llx (expected 0x%llx), Z %llu (expected %llu)", r->name,
			 (unsigned long long)r->spsr, eh_stop_name(res->stop), (unsigned long long)pan,
			 (unsigned long long)r->pan, (unsigned long long)z, (unsigned long long)r->z);
	eh_machine_free(m);
	eh_image_free(img);
}

/* MRS of an ID register at EL0 is UNDEFINED: the model does not serve it; without a hook it is an exception. */
static void test_el0_id_read_undefined(void **state)
{
	struct eh_image *img;
	struct eh_machine *m;
	const struct eh_thread_result *res;
	uint64_t mrs_pc;

	(void)state;
	assert_int_equal(eh_elf_resolve(elf, "el0_midr", &mrs_pc, NULL), 0);
	mrs_pc += 16;
	res = run("cortex-a72", "el0_midr", 0, NULL, NULL, &img, &m);
	assert_int_equal(res->stop, EH_STOP_EXCEPTION);
	assert_int_equal(res->pc, mrs_pc);
	eh_machine_free(m);
	eh_image_free(img);
}

static void test_el0_id_read_emulated(void **state)
{
	static const struct eh_machine_hooks hooks = { .undef = on_undef };
	struct ctx c = { 0 };
	struct eh_image *img;
	struct eh_machine *m;
	const struct eh_thread_result *res;
	uint64_t entry;

	(void)state;
	assert_int_equal(eh_elf_resolve(elf, "el0_midr", &entry, NULL), 0);
	res = run("cortex-a72", "el0_midr", 0, &hooks, &c, &img, &m);
	assert_int_equal(res->stop, EH_STOP_RETURNED);
	assert_int_equal(eh_machine_xreg(m, 0, 0), 0x1234);
	assert_int_equal(c.undef_pc, entry + 16);
	eh_machine_free(m);
	eh_image_free(img);
}

/* Inside an SVC hook the PC is the preferred return address: the SVC's address + 4. */
static void test_svc_hook_pc(void **state)
{
	static const struct eh_machine_hooks hooks = { .svc = on_svc };
	struct ctx c = { 0 };
	struct eh_image *img;
	struct eh_machine *m;
	const struct eh_thread_result *res;
	uint64_t entry;

	(void)state;
	assert_int_equal(eh_elf_resolve(elf, "svc_calls", &entry, NULL), 0);
	res = run("cortex-a72", "svc_calls", 0, &hooks, &c, &img, &m);
	assert_int_equal(res->stop, EH_STOP_RETURNED);
	assert_int_equal(c.nsvc, 2);
	assert_int_equal(c.svc_pc[0], entry + 4);
	assert_int_equal(c.svc_pc[1], entry + 8);
	assert_int_equal(eh_machine_xreg(m, 0, 0), 7);
	assert_int_equal(eh_machine_xreg(m, 0, 1), 8);
	eh_machine_free(m);
	eh_image_free(img);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(eret_rows) + 3];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, eret_rows, run_eret_row);
	EH_ADD_TEST(tests, n, test_el0_id_read_undefined);
	EH_ADD_TEST(tests, n, test_el0_id_read_emulated);
	EH_ADD_TEST(tests, n, test_svc_hook_pc);
	return EH_RUN_GROUP("engine-modes", tests, n, load, unload);
}

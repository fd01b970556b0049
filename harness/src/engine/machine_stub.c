/* The engine's stubs: calls to symbols an object does not define return 0, recorded with their arguments. */
#include "engine/machine_internal.h"

/*
 * The stub of a symbol the object does not define: record the call with its
 * arguments (AAPCS64: x0..x7) and return to x30 with x0 = 0, as a function
 * that did nothing and succeeded would.
 */
void eh_machine__stub_return(struct eh_thread *t, uint64_t pc)
{
	struct eh_machine *m = t->m;
	uint64_t lr = eh_machine__read_reg(t, UC_ARM64_REG_X30), zero = 0;
	struct eh_event ev = { .kind = EH_EV_STUB_CALL, .thread = (uint8_t)t->id, .pc = pc, .addr = lr };
	unsigned i;

	if (m->ncalls == m->cap_calls) {
		size_t cap = m->cap_calls ? 2 * m->cap_calls : 64;
		uint64_t (*p)[8] = eh_realloc(m->call_args, cap * sizeof(*p));

		if (!p) {
			eh_machine__hook_fail(m, EH_ENOMEM, "out of memory for %zu stub calls", cap);
			return;
		}
		m->call_args = p;
		m->cap_calls = cap;
	}
	for (i = 0; i < 8; i++)
		m->call_args[m->ncalls][i] = eh_machine__read_reg(t, eh_machine__xreg_id(i));
	ev.count = (uint32_t)m->ncalls++;
	eh_machine__emit(m, &ev);
	if (uc_reg_write(t->uc, UC_ARM64_REG_X0, &zero) || uc_reg_write(t->uc, UC_ARM64_REG_PC, &lr))
		eh_machine__hook_fail(m, EH_EEMU, "unicorn: thread %u cannot return from the stub at 0x%016" PRIx64,
			  t->id, pc);
}

const uint64_t *eh_machine_call_args(const struct eh_machine *m, const struct eh_event *ev)
{
	if (ev->kind != EH_EV_STUB_CALL || ev->count >= m->ncalls)
		return NULL;
	return m->call_args[ev->count];
}

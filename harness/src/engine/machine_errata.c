/* What errata do through the engine: hazard windows, hazards, injected aborts, dropped and corrupted instructions. */
#include "engine/machine_internal.h"

void eh_machine__close_window(struct eh_thread *t, uint32_t why_flags)
{
	struct eh_event ev = {
		.kind = EH_EV_WINDOW_CLOSE, .thread = (uint8_t)t->id, .flags = why_flags,
		.count = t->window_count, .addr = t->window_first_va, .value = t->window_first_pc,
		.pc = t->cur ? t->cur->addr : 0, .aflags = t->window_first_flags, .erratum = t->window_erratum,
	};

	if (!t->window_open)
		return;
	t->window_open = false;
	eh_machine__emit(t->m, &ev);
}

/* How an event names its erratum: 1 + the index in eh_errata, 0 for none. */
static uint8_t erratum_tag(const struct eh_erratum *e)
{
	size_t i;

	for (i = 0; eh_errata[i]; i++)
		if (eh_errata[i] == e)
			return (uint8_t)(i + 1);
	return 0;
}

const struct eh_erratum *eh_event_erratum(const struct eh_event *ev)
{
	size_t i;

	for (i = 0; ev->erratum && eh_errata[i]; i++)
		if (i + 1 == ev->erratum)
			return eh_errata[i];
	return NULL;
}

void eh_machine_window_open(struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *at)
{
	struct eh_thread *t = &m->threads[at->thread];
	struct eh_event ev = *at;

	if (t->window_open)
		return;
	t->window_open = true;
	t->window_el2 = t->el2;
	t->window_erratum = erratum_tag(e);
	t->window_count = 0;
	ev.kind = EH_EV_WINDOW_OPEN;
	ev.erratum = t->window_erratum;
	eh_machine__emit(m, &ev);
}

void eh_machine_window_close(struct eh_machine *m, unsigned thread, uint32_t why)
{
	eh_machine__close_window(&m->threads[thread % m->nthreads], why);
}

void eh_machine_hazard(struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *at,
		       uint64_t value)
{
	struct eh_event ev = {
		.kind = EH_EV_HAZARD, .thread = at->thread, .pc = at->pc, .addr = at->addr, .value = value,
		.flags = at->flags, .erratum = erratum_tag(e),
	};

	eh_machine__emit(m, &ev);
}

void eh_machine_skip(struct eh_machine *m, unsigned thread)
{
	m->threads[thread % m->nthreads].skip_req = true;
}

void eh_machine_set_after(struct eh_machine *m, unsigned thread, unsigned reg, uint64_t value)
{
	struct eh_thread *t = &m->threads[thread % m->nthreads];

	if (reg > 30)
		return;
	t->after_pending = true;
	t->after_reg = reg;
	t->after_value = value;
}

void eh_machine_inject_abort(struct eh_machine *m, const struct eh_erratum *e, unsigned victim,
			     const struct eh_culprit *culprit)
{
	struct eh_thread *v = &m->threads[victim % m->nthreads];
	struct eh_event ev = {
		.kind = EH_EV_INJECT, .thread = (uint8_t)culprit->thread, .victim = (uint8_t)v->id,
		.pc = culprit->pc, .addr = culprit->va, .flags = culprit->flags, .taken = v->running,
		.erratum = erratum_tag(e),
	};

	eh_machine__emit(m, &ev);
	if (!v->running)
		return;
	v->abort_pending = true;
	v->abort_far = culprit->va;
	v->abort_wnr = culprit->flags & EH_INSN_STORE;
	/* The victim takes it at its next instruction boundary. */
	if (v == &m->threads[culprit->thread])
		v->break_req = true;
}

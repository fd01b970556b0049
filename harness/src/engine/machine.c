/* The engine: runs a patched image on each hardware thread of a model's core and records the trace. */
#include "engine/machine_internal.h"

static const struct eh_machine_hooks no_hooks;

static int uc_fail(struct eh_error *err, uc_err e, const char *what, uint64_t addr)
{
	return eh_error_set(err, EH_EEMU, "unicorn: %s at 0x%016" PRIx64 ": %s", what, addr,
			    uc_strerror(e));
}

int eh_machine__xreg_id(unsigned n)
{
	if (n < 29)
		return UC_ARM64_REG_X0 + (int)n;
	return n == 29 ? UC_ARM64_REG_X29 : n == 30 ? UC_ARM64_REG_X30 : UC_ARM64_REG_SP;
}

uint64_t eh_machine__read_reg(struct eh_thread *t, int id)
{
	uint64_t v = 0;

	uc_reg_read(t->uc, id, &v);  /* only fails for an unknown id, which these are not */
	return v;
}

static uint64_t xreg_base(void *ctx, unsigned n)
{
	return eh_machine__read_reg(ctx, eh_machine__xreg_id(n));
}

int eh_machine__write_cp(struct eh_thread *t, uint32_t reg, uint64_t value)
{
	uc_arm64_cp_reg cp = {
		.op0 = EH_SYSREG_OP0(reg), .op1 = EH_SYSREG_OP1(reg), .crn = EH_SYSREG_CRN(reg),
		.crm = EH_SYSREG_CRM(reg), .op2 = EH_SYSREG_OP2(reg), .val = value,
	};

	return uc_reg_write(t->uc, UC_ARM64_REG_CP_REG, &cp) == UC_ERR_OK ? 0 : -1;
}

void eh_machine__hook_fail(struct eh_machine *m, int code, const char *fmt, ...)
{
	va_list ap;
	unsigned i;

	if (m->hook_rc)
		return;
	va_start(ap, fmt);
	vsnprintf(m->hook_err.msg, sizeof(m->hook_err.msg), fmt, ap);
	va_end(ap);
	m->hook_err.code = m->hook_rc = code;
	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].uc)
			uc_emu_stop(m->threads[i].uc);
}

/* The hearer list of an access of kind flags (EH_INSN_LOAD, _STORE or _PREFETCH). */
static unsigned access_list(uint32_t flags)
{
	return flags & EH_INSN_STORE ? EH_HEAR_STORES : flags & EH_INSN_PREFETCH ? EH_HEAR_PREFETCHES : EH_EV_ACCESS;
}

/* The hearers of EH_EV_SYSREG_WRITE (bits of hear[]) that writes of sysreg reach (eh_behaviour.writes). */
static uint32_t writers(struct eh_machine *m, uint32_t sysreg)
{
	struct eh_writers *w = &m->writers[(sysreg ^ sysreg >> 7) & (EH_WRITERS_CACHED - 1)];
	unsigned i;

	if (w->key != sysreg + 1) {
		w->key = sysreg + 1;
		w->mask = 0;
		for (i = 0; i < m->nhear[EH_EV_SYSREG_WRITE]; i++) {
			const struct eh_behaviour *b = m->hear[EH_EV_SYSREG_WRITE][i].b;

			if (!b->writes || b->writes(sysreg))
				w->mask |= 1u << i;
		}
	}
	return w->mask;
}

/* Hearer h's state for a thread. */
static inline uint8_t *hearer_state(const struct eh_hearer *h, unsigned thread)
{
	return h->state + thread * h->stride;
}

/* Whether h is a gated hearer of an access waiting for nothing: its state's first bool is false. */
static inline bool waits(const struct eh_hearer *h, unsigned thread)
{
	return h->gated && !*(const bool *)hearer_state(h, thread);
}

/* The errata and the case hear of ev (recorded in the trace or not). */
static void notify(struct eh_machine *m, const struct eh_event *ev)
{
	unsigned list = ev->kind == EH_EV_ACCESS ? access_list(ev->flags) : ev->kind, i, n = m->nhear[list];
	/*
	 * An instruction reaches the followers that want it (eh_behaviour.wants), a system register's
	 * write the hearers of that register (.writes); other kinds, every hearer.
	 */
	uint32_t skip = ev->kind == EH_EV_INSN ? ~(uint32_t)m->threads[ev->thread].cur_wants
			: ev->kind == EH_EV_SYSREG_WRITE ? ~writers(m, ev->sysreg) : 0;

	for (i = 0; i < n; i++) {
		const struct eh_hearer *h = &m->hear[list][i];

		if (!(skip >> i & 1) && !waits(h, ev->thread))
			h->b->on_event(m, hearer_state(h, ev->thread), ev);
	}
	if (m->opts.hooks->event)
		m->opts.hooks->event(m, ev, m->opts.hooks_ctx);
}

void eh_machine__emit(struct eh_machine *m, struct eh_event *ev)
{
	struct eh_trace *tr = &m->trace;

	ev->seq = (uint32_t)(tr->n + tr->dropped);
	ev->el2 = m->threads[ev->thread].el2;
	if (m->trace_paused) {
		notify(m, ev);
		return;
	}
	if (tr->n == tr->cap && tr->cap < m->opts.max_events) {
		size_t cap = tr->cap ? tr->cap * 2 : 256;
		struct eh_event *p;

		if (cap > m->opts.max_events)
			cap = m->opts.max_events;
		p = eh_realloc(tr->events, cap * sizeof(*p));
		if (!p) {
			/* A trace with holes would be judged wrongly: stop the run instead. */
			eh_machine__hook_fail(m, EH_ENOMEM, "out of memory for %zu trace events", cap);
			return;
		}
		tr->events = p;
		tr->cap = cap;
	}
	if (tr->n < tr->cap)
		tr->events[tr->n++] = *ev;
	else
		tr->dropped++;  /* past opts.max_events: counted, reported as truncated */
	notify(m, ev);
}

void eh_machine__request_stop(struct eh_thread *t, enum eh_stop why)
{
	t->stop_req = why;
	uc_emu_stop(t->uc);
}

static bool timed_out(const struct eh_machine *m)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > m->deadline.tv_sec ||
	       (now.tv_sec == m->deadline.tv_sec && now.tv_nsec >= m->deadline.tv_nsec);
}

/*
 * A register an erratum corrupts once the instruction that wrote it has run (eh_machine_set_after),
 * written when t->after_pending.
 */
static void apply_after(struct eh_thread *t)
{
	t->after_pending = false;
	if (uc_reg_write(t->uc, eh_machine__xreg_id(t->after_reg), &t->after_value))
		eh_machine__hook_fail(t->m, EH_EEMU, "unicorn: cannot write x%u of thread %u", t->after_reg, t->id);
}

/* Stop before the current instruction; run_slice makes the change before running on. */
static void request_hyp(struct eh_thread *t, enum hyp_req req)
{
	t->hyp_req = req;
	uc_emu_stop(t->uc);
}

/*
 * Called for an instruction outside the executable span the thread ran last (t->code_lo to
 * code_hi, clipped to opts.code_lo and code_hi): whether it may run, with that span moved to the
 * section holding it. A harness stub (which lies past every section) is the hypervisor's to run;
 * anything else outside an executable section, or outside the machine's code range, stops the thread.
 */
static bool enter_code(struct eh_thread *t, uint64_t addr)
{
	const struct eh_machine_opts *o = &t->m->opts;
	const struct eh_elf_section *s;
	const uint8_t *host;
	uint64_t lo, hi;

	if (eh_elf_stub_at(t->m->img->elf, addr)) {
		t->res.executed++;  /* counted, so that a stub returning to itself meets the budget */
		request_hyp(t, HYP_STUB);
		return false;
	}
	s = eh_elf_section_at(t->m->img->elf, addr);
	lo = s ? s->addr : 0;
	hi = s ? s->addr + s->size : 0;
	if (o->code_hi > o->code_lo) {
		lo = lo > o->code_lo ? lo : o->code_lo;
		hi = hi < o->code_hi ? hi : o->code_hi;
	}
	if (!s || !(s->flags & SHF_EXECINSTR) || addr < lo || addr >= hi ||
	    !(host = eh_machine__host_ptr(t->m, s->addr, s->size))) {
		t->res.pc = addr;
		eh_machine__request_stop(t, EH_STOP_LEFT_RANGE);
		return false;
	}
	t->code_lo = lo;
	t->code_hi = hi;
	t->code_host = host + (lo - s->addr);
	return true;
}

/* The instruction followers (bits of hear[EH_EV_INSN]) that want the instruction word at addr. */
static uint16_t wanted_by(const struct eh_machine *m, uint64_t addr, uint32_t word)
{
	uint16_t wants = 0;
	unsigned i;

	for (i = 0; i < m->nhear[EH_EV_INSN]; i++) {
		const struct eh_behaviour *b = m->hear[EH_EV_INSN][i].b;

		if (!b->wants || b->wants(addr, word))
			wants |= (uint16_t)(1u << i);
	}
	return wants;
}

const struct eh_ran *eh_machine_ran(const struct eh_machine *m, unsigned thread, unsigned back)
{
	const struct eh_thread *t;

	if (thread >= m->nthreads || back >= EH_RAN_KEPT)
		return NULL;
	t = &m->threads[thread];
	return &t->ran[(t->nran - back) % EH_RAN_KEPT];
}

const struct eh_accessed *eh_machine_accessed(const struct eh_machine *m, unsigned thread)
{
	return &m->threads[thread % m->nthreads].accessed;
}

/* Whether an access of thread t now is inside its window: made at the level the window was opened at. */
static bool in_window(const struct eh_thread *t)
{
	return t->window_open && t->el2 == t->window_el2;
}

/*
 * Whether an access of a thread, on hearer list, would reach nobody: the trace is paused, no hook
 * hears events and every hearer of the list waits. Its event need not then be made at all.
 */
static bool unheard(const struct eh_machine *m, unsigned list, unsigned thread)
{
	unsigned i;

	if (!m->trace_paused || m->opts.hooks->event || m->ungated[list])
		return false;
	for (i = 0; i < m->nhear[list]; i++)
		if (!waits(&m->hear[list][i], thread))
			return false;
	return true;
}

/*
 * A load, store or prefetch of thread t (on_mem; insn_events for a prefetch, which makes no
 * access the memory hook sees): counted (eh_machine_accessed), added to the span of the
 * instruction running now (eh_machine_ran), marked and counted in an open window, and emitted
 * unless nobody would hear it (unheard).
 */
static void record_access(struct eh_thread *t, uint32_t flags, uint64_t addr, unsigned size, uint64_t value)
{
	uint64_t pc = t->cur ? t->cur->addr : 0;
	bool window = in_window(t);
	struct eh_ran *now = &t->ran[t->nran % EH_RAN_KEPT];
	struct eh_event ev;

	if (flags & EH_INSN_LOAD) {
		t->accessed.loads++;
		t->accessed.load_pc = t->accessed.access_pc = pc;
	} else if (flags & EH_INSN_STORE) {
		t->accessed.stores++;
		t->accessed.access_pc = pc;
	}
	/* A prefetch touches nothing. */
	if (pc == now->pc && size) {
		if (now->hi == now->lo || addr < now->lo)
			now->lo = addr;
		if (addr + size > now->hi)
			now->hi = addr + size;
		now->aflags |= flags & (EH_INSN_LOAD | EH_INSN_STORE);
	}
	if (window && !t->cur_in_window_counted) {
		t->cur_in_window_counted = true;
		if (!t->window_count++) {
			t->window_first_pc = pc;
			t->window_first_va = addr;
			t->window_first_flags = t->cur ? t->cur->flags : flags;
		}
	}
	if (unheard(t->m, access_list(flags), t->id))
		return;
	ev = (struct eh_event){
		.kind = EH_EV_ACCESS, .thread = (uint8_t)t->id, .flags = flags, .addr = addr,
		.size = (uint8_t)size, .value = value, .pc = pc, .in_window = window,
		.count = (uint32_t)t->res.executed,
	};
	eh_machine__emit(t->m, &ev);
}

/*
 * HCR_EL2's traps of MSR and MRS (eh_machine__hcr_traps); with a virtual SError, what makes the
 * code hook look at every instruction (on_code).
 */
#define EH_HCR_TRAPS (EH_HCR_TVM | EH_HCR_TRVM)
#define EH_HCR_ATTENTION (EH_HCR_VSE | EH_HCR_TRAPS)

/*
 * Whether insn_events has anything to do for in when HCR_EL2 traps no MSR or MRS. System register
 * writes and SYS operations are reported by Unicorn's own hooks for them (on_msr, on_sys), which
 * hand over the value written, so the code hook leaves them be.
 */
static bool eventful(const struct eh_insn *in)
{
	return in->flags & (EH_INSN_ISB | EH_INSN_ERET | EH_INSN_PREFETCH | EH_INSN_DSB | EH_INSN_DMB);
}

/*
 * The events of an instruction that is more than computation (eventful): traps of system
 * register accesses, context synchronisation, prefetches and barriers. Kept out of on_code,
 * whose common path it would otherwise weigh down.
 */
static void __attribute__((noinline)) insn_events(struct eh_thread *t, const struct eh_insn *in, uint64_t addr)
{
	struct eh_machine *m = t->m;

	if (in->flags & (EH_INSN_MSR | EH_INSN_MRS)) {
		/* A trapped access does not happen here (no window opens): EL2 performs it, or not. */
		if (eh_machine__hcr_traps(t, in)) {
			t->hyp_esr = eh_sysreg_trap_esr(in->sysreg, in->rt, in->flags & EH_INSN_MRS);
			request_hyp(t, HYP_ENTER);
		}
	} else if (in->flags & (EH_INSN_ISB | EH_INSN_ERET)) {
		struct eh_event ev = {
			.kind = EH_EV_CTX_SYNC, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
		};

		eh_machine__emit(m, &ev);
		if (in->flags & EH_INSN_ERET) {
			t->eret_ran = true;  /* completed before the next instruction (eh_machine__complete_eret) */
			/* Unicorn's ERET would use ELR_EL1/SPSR_EL1: at virtual EL2 the engine returns. */
			if (t->el2)
				request_hyp(t, HYP_ERET);
			else if (m->opts.stop_at_eret)
				eh_machine__request_stop(t, EH_STOP_ERET);
		}
	} else if (in->flags & EH_INSN_PREFETCH) {
		/* PRFM makes no memory access, so no memory hook sees it. */
		record_access(t, EH_INSN_PREFETCH, eh_insn_prefetch_addr(in, xreg_base, t), 0, 0);
	} else if (in->flags & (EH_INSN_DSB | EH_INSN_DMB)) {
		struct eh_event ev = {
			.kind = EH_EV_BARRIER, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
			.value = EH_BARRIER_OPTION(in->word),
		};

		eh_machine__emit(m, &ev);
	}
}

/*
 * The decoder's answer for word, at addr and host, kept in r with the followers that want it
 * and whether on_code may run it alone; NULL: out of memory.
 */
static const struct eh_insn *decode(struct eh_machine *m, struct eh_recent *r, uint64_t addr, const uint8_t *host,
				    uint32_t word)
{
	const struct eh_insn *in = eh_decoder_get(m->dec, addr, word);
	uint16_t wants = wanted_by(m, addr, word);

	*r = (struct eh_recent){
		.in = in, .host = host, .wants = wants,
		.quiet = in && !m->opts.trace_insns && !wants && !eventful(in) && !(m->opts.until && addr == m->opts.until),
	};
	if (!in)
		eh_machine__hook_fail(m, EH_ENOMEM, "out of memory decoding 0x%016" PRIx64, addr);
	return in;
}

/*
 * The EH_EV_INSN event of in (word): to the followers that want it, and to the trace with
 * opts.trace_insns. Whether the instruction runs: a follower may drop it (eh_machine_skip).
 */
static bool insn_event(struct eh_thread *t, const struct eh_insn *in, uint32_t word)
{
	struct eh_event ev = {
		.kind = EH_EV_INSN, .thread = (uint8_t)t->id, .pc = in->addr, .flags = in->flags,
		.in_window = in_window(t), .addr = (uint64_t)word,
	};

	/* Errata that follow instruction sequences see every one; the trace keeps them for replay. */
	if (t->m->opts.trace_insns)
		eh_machine__emit(t->m, &ev);
	else
		notify(t->m, &ev);
	if (!t->skip_req)
		return true;
	request_hyp(t, HYP_SKIP);
	return false;
}

/*
 * Before the instruction at addr, what t->attention holds: a corrupted register to write, an ERET
 * to complete, a stop asked for, the hypervisor's exit to the host. Whether the instruction may run.
 */
static bool attend(struct eh_thread *t, uint64_t addr)
{
	if (t->after_pending)
		apply_after(t);
	if (t->eret_ran) {
		t->eret_ran = false;
		eh_machine__complete_eret(t);
	}
	if (t->break_req) {
		t->break_req = false;
		uc_emu_stop(t->uc);
		return false;
	}
	if (t->el2 && addr == EH_HYP_HOST_ADDR) {
		request_hyp(t, HYP_HOST);
		return false;
	}
	return true;
}

/*
 * The clock is looked at every EH_CLOCK_EVERY calls of step, counted in calls, not instructions
 * (a thread that keeps trapping executes none), and every EH_CLOCK_EVERY instructions.
 */
#define EH_CLOCK_EVERY 1024u

static inline bool clock_due(const struct eh_thread *t)
{
	return !(t->hook_calls % EH_CLOCK_EVERY) || t->res.executed >= t->clock_at;
}

/* The next look at the clock, EH_CLOCK_EVERY instructions on, and what on_code may run alone until then. */
static void clock_next(struct eh_thread *t)
{
	t->clock_at = t->res.executed + EH_CLOCK_EVERY;
	t->fast_until = t->clock_at < t->m->opts.budget ? t->clock_at : t->m->opts.budget;
}

/* Whether addr is in the code span the thread ran last (t->code_lo to code_hi). */
static inline bool in_span(const struct eh_thread *t, uint64_t addr)
{
	return addr >= t->code_lo && addr < t->code_hi;
}

static inline struct eh_recent *recent_of(struct eh_machine *m, uint64_t addr)
{
	return &m->recent[(addr >> 2) & (EH_RECENT_INSNS - 1)];
}

/* Whether the decoder's answer in a slot (NULL: none) is the instruction word at addr. */
static inline bool recent_is(const struct eh_insn *in, uint64_t addr, uint32_t word)
{
	return in && in->addr == addr && in->word == word;
}

/* What a thread keeps of the instruction it is about to run (t->cur, eh_machine_ran). */
static inline void begin_insn(struct eh_thread *t, const struct eh_insn *in, uint16_t wants)
{
	t->res.executed++;
	t->cur = in;
	t->cur_in_window_counted = false;
	t->cur_wants = wants;
	t->ran[++t->nran % EH_RAN_KEPT] = (struct eh_ran){ .pc = in->addr, .word = in->word, .flags = in->flags };
}

/* The code hook's whole path, out of on_code's line: whether the instruction at addr runs, and its events. */
static void __attribute__((noinline)) step(struct eh_thread *t, uint64_t addr)
{
	struct eh_machine *m = t->m;
	const struct eh_insn *in;
	struct eh_recent *r;
	const uint8_t *host;
	uint32_t word;

	if (t->attention && !attend(t, addr))
		return;
	if (*m->hcr & EH_HCR_VSE && eh_machine__vserror_due(t)) {
		request_hyp(t, HYP_VSERROR);
		return;
	}
	if (t->res.executed >= m->opts.budget) {
		eh_machine__request_stop(t, EH_STOP_BUDGET);
		return;
	}
	++t->hook_calls;
	if (clock_due(t)) {
		clock_next(t);
		if (timed_out(m)) {
			eh_machine__request_stop(t, EH_STOP_TIMEOUT);
			return;
		}
	}
	if (m->opts.until && addr == m->opts.until) {
		eh_machine__request_stop(t, EH_STOP_UNTIL);
		return;
	}
	if (!in_span(t, addr) && !enter_code(t, addr))
		return;
	/* PCs are 4-aligned and the region page-rounded, so the word's 4 bytes are there. */
	host = t->code_host + (addr - t->code_lo);
	word = eh_insn_word(host);
	r = recent_of(m, addr);
	in = recent_is(r->in, addr, word) ? r->in : decode(m, r, addr, host, word);
	if (!in) {
		t->cur = NULL;
		return;
	}
	begin_insn(t, in, r->wants);
	if ((m->opts.trace_insns || t->cur_wants) && !insn_event(t, in, word))
		return;
	if (eventful(in) || (in->flags & (EH_INSN_MSR | EH_INSN_MRS) && *m->hcr & EH_HCR_TRAPS))
		insn_events(t, in, addr);
}

/*
 * Most instructions need nothing of step: nothing is asked for (attention, a virtual SError or
 * a trap of MSR and MRS: EH_HCR_ATTENTION), they come before the next look at the clock and the
 * budget (fast_until), and they were decoded before, are unchanged in memory, and have no events,
 * no followers and are not opts.until (quiet). Those are kept here, with no call, so that the hook
 * costs them few host instructions (no registers to save); any other goes to step, which checks
 * each thing in turn.
 */
static void on_code(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	const struct eh_machine *m = t->m;
	const struct eh_recent *r = recent_of(t->m, addr);

	(void)uc;
	(void)size;
	if (t->attention || *m->hcr & EH_HCR_ATTENTION || t->res.executed >= t->fast_until || !r->quiet ||
	    r->in->addr != addr || eh_insn_word(r->host) != r->in->word) {
		step(t, addr);
		return;
	}
	begin_insn(t, r->in, 0);
}

static void on_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
		   void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;

	(void)uc;
	record_access(t, type == UC_MEM_WRITE ? EH_INSN_STORE : EH_INSN_LOAD, addr, (unsigned)size,
		      type == UC_MEM_WRITE ? (uint64_t)value : 0);
}

/*
 * Identity and ID registers come from the thread's core (MPIDR per thread, MIDR, REVIDR and the
 * ID registers of the core it belongs to on a system of cores); the rest from Unicorn. All of
 * them are in the op0 = 3, CRn = 0 space (Arm ARM D17.2), so a read of any other register is
 * Unicorn's at once.
 */
static uint32_t on_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	uint32_t sysreg = EH_SYSREG(cp->op0, cp->op1, cp->crn, cp->crm, cp->op2);
	uint64_t value;
	struct eh_event ev;

	if (cp->op0 != 3 || cp->crn != 0)
		return 0;
	/*
	 * ID registers are not accessible at EL0 (Arm ARM D17.2: MRS at EL0 is
	 * UNDEFINED); the UDEF that follows lets a case model the kernel's emulation.
	 */
	if (!((eh_machine__read_reg(t, UC_ARM64_REG_PSTATE) >> 2) & 3))
		return 0;
	if (sysreg == EH_MPIDR_EL1)
		value = t->mpidr;
	else if (eh_model_id_reg(t->core, sysreg, &value))
		return 0;
	if (uc_reg_write(uc, reg, &value) != UC_ERR_OK)
		return 0;
	ev = (struct eh_event){
		.kind = EH_EV_SYSREG_READ, .thread = (uint8_t)t->id, .sysreg = sysreg, .value = value,
		.pc = t->cur ? t->cur->addr : 0, .flags = EH_INSN_MRS,
	};
	eh_machine__emit(t->m, &ev);
	return 1;
}

static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	const struct eh_machine_hooks *hooks = t->m->opts.hooks;
	uint64_t pc = eh_machine__read_reg(t, UC_ARM64_REG_PC);
	const uint8_t *p;
	const struct eh_insn *in = NULL;
	uint32_t word;

	(void)uc;
	/* SVC, HVC and SMC report the preferred return address (the next instruction). */
	if (intno == EXCP_SWI || intno == EXCP_HVC || intno == EXCP_SMC)
		p = eh_machine__host_ptr(t->m, pc - 4, 4);
	else
		p = eh_machine__host_ptr(t->m, pc, 4);
	if (p) {
		word = eh_insn_word(p);
		in = eh_decoder_get(t->m->dec, intno == EXCP_UDEF || intno == EXCP_BKPT ? pc : pc - 4, word);
	}
	switch (intno) {
	case EXCP_UDEF:
		if (in && (eh_machine__emulate_el2(t, in) ||
			   (hooks->undef && hooks->undef(t->m, t->id, in, t->m->opts.hooks_ctx)))) {
			pc += 4;
			uc_reg_write(t->uc, UC_ARM64_REG_PC, &pc);
			return;
		}
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_UNKNOWN, 0), 0, pc);
		return;
	case EXCP_SWI:
		if (in && hooks->svc && hooks->svc(t->m, t->id, (in->word >> 5) & 0xffff, t->m->opts.hooks_ctx))
			return;
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_SVC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_HVC:
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_HVC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_SMC:
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_SMC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_BKPT:
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_BRK64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	default:
		eh_machine__take_exception(t, ESR_ELx(ESR_EC_UNKNOWN, 0), 0, pc);
		return;
	}
}

/*
 * An MSR (register) of op0 2 or 3, before it writes: its EH_EV_SYSREG_WRITE, with the value of
 * Xt as Unicorn hands it over (0 for XZR). Unicorn calls this for exactly the words the decoder
 * flags EH_INSN_MSR, after the code hook, which has made the instruction t->cur and stopped the
 * thread first if HCR_EL2 traps it. An EL2 register's write is the UNDEFINED trap's to emulate.
 */
static uint32_t on_msr(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	const struct eh_insn *in = t->cur;

	(void)uc;
	(void)reg;
	if (in && !EH_SYSREG_IS_EL2(in->sysreg)) {
		struct eh_event ev = {
			.kind = EH_EV_SYSREG_WRITE, .thread = (uint8_t)t->id, .pc = in->addr,
			.sysreg = in->sysreg, .flags = in->flags, .value = cp->val,
		};

		eh_machine__emit(t->m, &ev);
	}
	return 0;
}

/*
 * A SYS operation (TLBI, DC, IC, AT; op0 1, L 0), before Unicorn performs it: its EH_EV_SYS with
 * the value of its operand (0 for XZR), then the case's sys hook, which may perform it instead.
 */
static uint32_t on_sys(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	const struct eh_insn *in = t->cur;
	struct eh_event ev;

	(void)uc;
	(void)reg;
	if (!in)
		return 0;
	ev = (struct eh_event){
		.kind = EH_EV_SYS, .thread = (uint8_t)t->id, .pc = in->addr, .flags = in->flags,
		.sysreg = in->sysreg, .value = cp->val,
	};
	eh_machine__emit(t->m, &ev);
	return t->m->opts.hooks->sys && t->m->opts.hooks->sys(t->m, t->id, in, t->m->opts.hooks_ctx);
}

uint64_t eh_machine_random(struct eh_machine *m)
{
	/* splitmix64: small, fast, and the same sequence on every host for a seed. */
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void change_el(struct eh_thread *t, uint64_t pc)
{
	enum hyp_req req = t->hyp_req;

	t->hyp_req = HYP_NONE;
	switch (req) {
	case HYP_ENTER: eh_machine__enter_el2(t, t->hyp_esr, pc); break;
	case HYP_ERET: eh_machine__leave_el2(t, EH_INSN_ERET); break;
	case HYP_HOST: eh_machine__host_exit(t); break;
	case HYP_VSERROR: eh_machine__take_vserror(t, pc); break;
	case HYP_STUB: eh_machine__stub_return(t, pc); break;
	case HYP_SKIP:
		t->skip_req = false;
		pc += 4;
		if (uc_reg_write(t->uc, UC_ARM64_REG_PC, &pc))
			eh_machine__hook_fail(t->m, EH_EEMU, "unicorn: cannot skip the instruction at 0x%016" PRIx64, pc - 4);
		break;
	case HYP_NONE: break;
	}
}

static void finish(struct eh_thread *t, enum eh_stop why, uint64_t pc)
{
	struct eh_event ev = { .kind = EH_EV_STOP, .thread = (uint8_t)t->id, .pc = pc };

	if (t->after_pending)
		apply_after(t);
	eh_machine__close_window(t, 0);
	t->running = false;
	t->res.stop = why;
	t->res.pc = pc;
	ev.stop = (uint8_t)why;
	ev.addr = why == EH_STOP_FAULT ? t->res.addr : 0;
	eh_machine__emit(t->m, &ev);
}

/*
 * Engines of finished machines, kept for the next machine on the same Unicorn CPU: setting one up
 * (uc_open, the CPU model, TCG's code buffer) costs more than most scenarios run, and a matrix
 * runs hundreds of machines on a few CPUs. One pool per host thread, as an engine runs on one
 * thread at a time.
 */
#define EH_ENGINE_POOL 16
static _Thread_local struct engine *pool[EH_ENGINE_POOL];
static _Thread_local unsigned npool;

static void close_engine(struct engine *e)
{
	if (e->fresh)
		uc_context_free(e->fresh);
	if (e->uc)
		uc_close(e->uc);
	eh_machine__kept_free(&e->kept);
	eh_free(e);
}

/* Every hook of the harness on e, each given e. */
static uc_err add_hooks(struct engine *e)
{
	uc_hook h;
	uc_err u;

	if ((u = uc_hook_add(e->uc, &h, UC_HOOK_CODE, on_code, e, 1, 0)) != UC_ERR_OK ||
	    (u = uc_hook_add(e->uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_mem, e, 1, 0)) != UC_ERR_OK ||
	    (u = uc_hook_add(e->uc, &h, UC_HOOK_MEM_UNMAPPED, eh_machine__on_unmapped, e, 1, 0)) != UC_ERR_OK ||
	    (u = uc_hook_add(e->uc, &h, UC_HOOK_INTR, on_intr, e, 1, 0)) != UC_ERR_OK ||
	    (u = uc_hook_add(e->uc, &h, UC_HOOK_INSN, on_mrs, e, 1, 0, UC_ARM64_INS_MRS)) != UC_ERR_OK ||
	    (u = uc_hook_add(e->uc, &h, UC_HOOK_INSN, on_msr, e, 1, 0, UC_ARM64_INS_MSR)) != UC_ERR_OK)
		return u;
	return uc_hook_add(e->uc, &h, UC_HOOK_INSN, on_sys, e, 1, 0, UC_ARM64_INS_SYS);
}

/* A new engine on Unicorn CPU cpu, with its hooks: 0, EH_ENOMEM or EH_EEMU. */
static int open_engine(struct engine **out, int cpu, struct eh_error *err)
{
	struct engine *e = eh_alloc(sizeof(*e));
	const char *what = "uc_open";
	uc_err u;

	*out = NULL;
	if (!e)
		return eh_error_set(err, EH_ENOMEM, "out of memory for an engine");
	e->cpu = cpu;
	u = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &e->uc);
	if (u != UC_ERR_OK)
		e->uc = NULL;
	if (u == UC_ERR_OK && (u = uc_ctl_set_cpu_model(e->uc, cpu)) != UC_ERR_OK)
		what = "setting the CPU model";
	if (u == UC_ERR_OK && ((u = uc_context_alloc(e->uc, &e->fresh)) != UC_ERR_OK ||
			       (u = uc_context_save(e->uc, e->fresh)) != UC_ERR_OK))
		what = "saving the CPU state";
	if (u == UC_ERR_OK && (u = add_hooks(e)) != UC_ERR_OK)
		what = "adding hooks";
	if (u != UC_ERR_OK) {
		close_engine(e);
		return uc_fail(err, u, what, 0);
	}
	*out = e;
	return 0;
}

/* The thread's engine: the one in the pool that kept its machine's image regions, else the last given back, else a new one. */
static int take_engine(struct eh_thread *t, struct eh_error *err)
{
	unsigned i, pick = npool;
	struct engine *e;
	int rc;

	for (i = npool; i--;)
		if (pool[i]->cpu == t->core->uc_cpu) {
			if (eh_machine__kept_fits(t->m, &pool[i]->kept)) {
				pick = i;
				break;
			}
			pick = pick == npool ? i : pick;
		}
	if (pick < npool) {
		e = pool[pick];
		pool[pick] = pool[--npool];
	} else {
		rc = open_engine(&e, t->core->uc_cpu, err);
		if (rc)
			return rc;
		t->m->cost.engines++;
	}
	e->t = t;
	t->eng = e;
	t->uc = e->uc;
	t->counted = e->stepped;
	return 0;
}

/* Close the thread's engine, with whatever it maps. */
static void drop_engine(struct eh_thread *t)
{
	close_engine(t->eng);
	t->eng = NULL;
	t->uc = NULL;
}

/*
 * Whether region i of t's machine stays mapped in t's engine when it goes back to the pool: a fixed
 * region of the host thread's shared block, and an image region when the engine keeps the image.
 */
static bool stays_mapped(const struct eh_thread *t, size_t i, bool keep)
{
	const struct eh_machine *m = t->m;

	if (m->regions[i].fixed)
		return t->eng->fixed && t->eng->fixed == m->fixed && !m->fixed_raw;
	return keep && eh_machine__image_region(m, i);
}

/*
 * Give the thread's engine back for another machine, as new but for what Unicorn keeps of its
 * count hook (see run_slice), the fixed regions of the host thread's shared block and, when keep
 * says so, the image's regions (struct kept_code): the other regions' translations are dropped
 * while they are still mapped (a later machine maps other code at the same addresses), those
 * regions are unmapped and the CPU state is reset. The fixed regions keep their translations: no
 * ELF section lies there, so on_code stops a thread before it runs any instruction from them. An
 * engine that cannot be reset, or finds no room, is closed.
 */
static void give_back_engine(struct eh_thread *t, bool keep)
{
	struct eh_machine *m = t->m;
	struct engine *e = t->eng;
	bool ok = npool < EH_ENGINE_POOL;
	size_t i;

	keep = ok && keep && eh_machine__keep(m, &e->kept);
	/* Only code can have been translated: zero pages are not executable (and are mapped last). */
	for (i = 0; ok && i < t->nmapped && i < m->nregions - m->nzero; i++)
		ok = stays_mapped(t, i, keep) || uc_ctl_remove_cache(e->uc, m->regions[i].addr,
								     m->regions[i].addr + m->regions[i].size) == UC_ERR_OK;
	for (i = 0; ok && i < t->nmapped; i++)
		ok = stays_mapped(t, i, keep) || uc_mem_unmap(e->uc, m->regions[i].addr, m->regions[i].size) == UC_ERR_OK;
	if (ok && uc_context_restore(e->uc, e->fresh) == UC_ERR_OK) {
		if (m->fixed_raw)
			e->fixed = NULL;
		e->t = NULL;
		pool[npool++] = e;
		t->eng = NULL;
		t->uc = NULL;
	} else {
		drop_engine(t);
	}
}

/*
 * A thread's Unicorn engine, taken when the thread is first started or looked at: most scenarios
 * on an SMT model start one thread of several. It maps every region the machine has by then,
 * zero pages included (readable and writable only): 0, EH_ENOMEM or EH_EEMU.
 */
static int thread_engine(struct eh_thread *t, struct eh_error *err)
{
	struct eh_machine *m = t->m;
	struct engine *eng;
	uc_err e = UC_ERR_OK;
	bool adopted;
	size_t i;
	int rc;

	if (t->uc)
		return 0;
	rc = take_engine(t, err);
	if (rc)
		return rc;
	eng = t->eng;
	t->nmapped = 0;
	/* A pooled engine maps the shared fixed block: a machine with a block of its own maps that instead. */
	for (i = 0; eng->fixed && eng->fixed != m->fixed && i < m->nregions; i++)
		if (m->regions[i].fixed && (e = uc_mem_unmap(eng->uc, m->regions[i].addr, m->regions[i].size))) {
			drop_engine(t);  /* some of its fixed regions mapped: of no use to a machine */
			return uc_fail(err, e, "unmapping memory", m->regions[i].addr);
		}
	if (eng->fixed != m->fixed)
		eng->fixed = NULL;
	/* Another machine's image regions: this one's memory if they are at its places, else unmapped. */
	adopted = eh_machine__kept_fits(m, &eng->kept) && !eh_machine__adopt(m, eng->uc, &eng->kept);
	if (eng->kept.n && (e = eh_machine__kept_unmap(eng->uc, &eng->kept))) {
		drop_engine(t);
		return uc_fail(err, e, "unmapping memory", 0);
	}
	eh_machine__kept_free(&eng->kept);
	m->regions_mapped = true;
	for (i = 0; i < m->nregions; i++, t->nmapped++) {
		if ((m->regions[i].fixed && eng->fixed) || (adopted && eh_machine__image_region(m, i)))
			continue;
		e = uc_mem_map_ptr(eng->uc, m->regions[i].addr, m->regions[i].size,
				   i < m->nregions - m->nzero ? UC_PROT_ALL : UC_PROT_READ | UC_PROT_WRITE,
				   m->regions[i].host);
		if (e != UC_ERR_OK) {
			uc_fail(err, e, "mapping memory", m->regions[i].addr);
			give_back_engine(t, false);
			return EH_EEMU;
		}
	}
	eng->fixed = m->fixed;
	return 0;
}

/* Thread t (modulo the core's threads) with its engine; NULL if Unicorn cannot create one. */
static struct eh_thread *live_thread(struct eh_machine *m, unsigned t)
{
	struct eh_thread *th = &m->threads[t % m->nthreads];

	return thread_engine(th, NULL) ? NULL : th;
}

/* The model's number of the first thread of a system's core (0 for one core, or a core it does not have). */
static unsigned first_thread(const struct eh_model *model, unsigned core)
{
	unsigned i, n = 0;

	if (!model->cores)
		return 0;
	for (i = 0; i < core; i++) {
		if (!model->cores[i])
			return 0;
		n += model->cores[i]->threads_per_core;
	}
	return model->cores[core] ? n : 0;
}

/*
 * The decoder of the last machine freed on this host thread, for the next one made on it. Its
 * cache is by address and decodes again a word that changed, so a matrix that runs one snippet on
 * many models decodes it once, not once a model (Capstone's decoding was a thirtieth of the
 * matrix). One machine holds it at a time; a large one is not kept.
 */
#define EH_DECODER_KEEP 65536  /* instructions */
static _Thread_local struct eh_decoder *spare_decoder;

static int take_decoder(struct eh_decoder **out, struct eh_error *err)
{
	*out = spare_decoder;
	spare_decoder = NULL;
	return *out ? 0 : eh_decoder_new(out, err);
}

static void give_back_decoder(struct eh_decoder *d)
{
	if (d && !spare_decoder && eh_decoder_size(d) <= EH_DECODER_KEEP)
		spare_decoder = d;
	else
		eh_decoder_free(d);
}

static void hear_on(struct eh_machine *m, unsigned list, const struct eh_behaviour *b, uint8_t *state,
		    bool gated)
{
	m->hear[list][m->nhear[list]++] = (struct eh_hearer){
		.b = b, .state = state, .stride = b->thread_state, .gated = gated,
	};
	m->ungated[list] |= !gated;
}

/* Put behaviour b (with its state) on the hearer list of kind; for an access, on those of the accesses it hears. */
static void hear(struct eh_machine *m, unsigned kind, const struct eh_behaviour *b, uint8_t *state)
{
	static const uint32_t accesses[] = { EH_INSN_LOAD, EH_INSN_STORE, EH_INSN_PREFETCH };
	unsigned i;

	if (kind != EH_EV_ACCESS) {
		hear_on(m, kind, b, state, false);
		return;
	}
	for (i = 0; i < 3; i++)
		if (!b->accesses || b->accesses & accesses[i])
			hear_on(m, access_list(accesses[i]), b, state, b->gated);
}

int eh_machine_new(struct eh_machine **out, const struct eh_model *model, const struct eh_image *img,
		   const struct eh_machine_opts *opts, struct eh_error *err)
{
	struct eh_machine *m;
	const struct eh_erratum *const *e;
	const struct eh_behaviour *b;
	uint8_t *state;
	unsigned i, first, kind;
	int rc = 0;

	_Static_assert(EH_EV_KINDS <= 32, "eh_behaviour.events holds a bit a kind");
	_Static_assert(EH_MACHINE_ERRATA_MAX <= 16, "eh_recent.wants holds a bit an erratum");
	_Static_assert(4 * sizeof(bool) == sizeof(uint32_t), "eh_thread's attention covers its four flags");
	*out = NULL;
	if (eh_model_threads(model) < 1 || eh_model_threads(model) > EH_MAX_THREADS)
		return eh_error_set(err, EH_EINVAL, "model %s: %u hardware threads (1 to %d supported)",
				    model->name, eh_model_threads(model), EH_MAX_THREADS);
	m = eh_alloc(sizeof(*m));
	if (!m)
		return eh_error_set(err, EH_ENOMEM, "out of memory for a machine");
	m->model = model;
	m->img = img;
	if (opts)
		m->opts = *opts;
	if (!m->opts.budget)
		m->opts.budget = EH_DEFAULT_BUDGET;
	if (!m->opts.timeout_us)
		m->opts.timeout_us = EH_DEFAULT_TIMEOUT_US;
	if (!m->opts.max_events)
		m->opts.max_events = EH_DEFAULT_MAX_EVENTS;
	if (!m->opts.hooks)
		m->opts.hooks = &no_hooks;
	m->rng = m->opts.seed;
	m->hcr = eh_machine__el2_slot(m, EH_HCR_EL2);  /* the first slot of an empty file */
	for (e = eh_errata; *e && !rc; e++) {
		if (!(*e)->behaviour)
			continue;
		if (m->nactive == EH_MACHINE_ERRATA_MAX) {
			rc = eh_error_set(err, EH_EINPUT, "model %s: more than %d errata act on it", model->name,
					  EH_MACHINE_ERRATA_MAX);
			break;
		}
		b = (*e)->behaviour;
		state = m->state[m->nactive++] = eh_alloc(EH_MAX_THREADS * b->thread_state + 1);
		if (!state) {
			rc = eh_error_set(err, EH_ENOMEM, "out of memory for the state of erratum %s", (*e)->id);
			break;
		}
		for (kind = 0; kind < EH_EV_KINDS; kind++)
			if (kind == EH_EV_INSN ? b->insns : !b->events || b->events & EH_EV_BIT(kind))
				hear(m, kind, b, state);
	}
	if (!rc)
		rc = take_decoder(&m->dec, err);
	if (rc)
		goto fail;
	rc = eh_machine__map_image(m, err);
	if (rc)
		goto fail;
	m->nthreads = eh_model_threads(model);
	first = first_thread(model, m->opts.first_core);
	for (i = 0; i < m->nthreads; i++) {
		unsigned hw = (first + i) % m->nthreads;  /* the model's numbering: cores in order */

		m->threads[i].m = m;
		m->threads[i].id = i;
		m->threads[i].core = eh_model_thread_core(model, hw, NULL, NULL);
		m->threads[i].mpidr = eh_model_mpidr(model, hw);
	}
	*out = m;
	return 0;
fail:
	eh_machine_free(m);
	return rc;
}

void eh_machine_free(struct eh_machine *m)
{
	size_t i, keeper;

	if (!m)
		return;
	/* The first thread whose engine maps the whole image keeps it (struct kept_code). */
	for (i = 0, keeper = m->nthreads; i < m->nthreads; i++)
		if (m->threads[i].uc) {
			if (keeper == m->nthreads && m->threads[i].nmapped >= m->nregions - m->nzero)
				keeper = i;
			give_back_engine(&m->threads[i], i == keeper);
		}
	for (i = 0; m->regions && i < m->nregions; i++)
		eh_free(m->regions[i].raw);
	eh_free(m->regions);
	eh_machine__fixed_release(m);
	give_back_decoder(m->dec);
	eh_free(m->trace.events);
	eh_free(m->call_args);
	for (i = 0; i < m->nactive; i++)
		eh_free(m->state[i]);
	eh_free(m);
}

int eh_machine_start(struct eh_machine *m, unsigned tid, uint64_t addr, const uint64_t *args,
		     unsigned nargs, struct eh_error *err)
{
	struct eh_thread *t;
	const struct eh_elf_section *sec;
	uint64_t sp, lr = EH_RETURN_ADDR;
	/* x0..x(nargs - 1), x30 and SP in one call into Unicorn. */
	int ids[10];
	void *vals[10];
	unsigned i;
	struct eh_event ev;
	int rc;

	if (tid >= m->nthreads)
		return eh_error_set(err, EH_EINVAL, "model %s has no thread %u (it has %u)",
				    m->model->name, tid, m->nthreads);
	if (nargs > 8)
		return eh_error_set(err, EH_EINVAL, "at most 8 arguments (x0..x7), got %u", nargs);
	t = &m->threads[tid];
	if (t->running)
		return eh_error_set(err, EH_EINVAL, "thread %u is already running", tid);
	rc = thread_engine(t, err);
	if (rc)
		return rc;
	memset(&t->res, 0, sizeof(t->res));
	clock_next(t);
	t->stop_req = EH_STOP_NONE;
	t->attention = 0;  /* el2 is set below */
	t->abort_pending = t->window_open = t->skip_req = false;
	t->cur = NULL;
	t->hyp_req = HYP_NONE;
	sec = eh_elf_section_at(m->img->elf, addr);
	t->el2 = sec && !strcmp(sec->name, EH_HYP_SECTION);
	t->sp_el1 = EH_STACK_TOP - tid * EH_STACK_SIZE;
	sp = t->el2 ? EH_HYP_FRAME(tid) : t->sp_el1;
	for (i = 0; i < nargs; i++) {
		ids[i] = eh_machine__xreg_id(i);
		vals[i] = (void *)&args[i];
	}
	ids[i] = UC_ARM64_REG_X30;
	vals[i++] = &lr;
	ids[i] = UC_ARM64_REG_SP;
	vals[i++] = &sp;
	if (uc_reg_write_batch(t->uc, ids, vals, (int)i))
		return eh_error_set(err, EH_EEMU, "unicorn: cannot set up thread %u", tid);
	t->at_start = true;
	t->start_pc = addr;
	t->running = true;
	t->res.started = true;
	ev = (struct eh_event){ .kind = EH_EV_START, .thread = (uint8_t)tid, .pc = addr };
	eh_machine__emit(m, &ev);
	return 0;
}

static int run_slice(struct eh_machine *m, struct eh_thread *t, size_t count, struct eh_error *err)
{
	uint64_t pc = t->at_start ? t->start_pc : eh_machine__read_reg(t, UC_ARM64_REG_PC);
	uc_err e;

	if (t->abort_pending) {
		t->abort_pending = false;
		t->cur = NULL;
		t->eret_ran = false;
		eh_machine__take_exception(t, ESR_ELx((eh_machine__read_reg(t, UC_ARM64_REG_PSTATE) >> 2 & 3) ? ESR_EC_DABT_CUR
										 : ESR_EC_DABT_LOW,
					  DFSC_TRANSLATION_L3 | (t->abort_wnr ? ESR_ISS_WNR : 0)),
			       t->abort_far, pc);
		if (t->stop_req) {
			finish(t, t->stop_req, pc);
			return 0;
		}
		t->at_start = false;  /* the exception's entry wrote the PC */
		pc = eh_machine__read_reg(t, UC_ARM64_REG_PC);
	}
	if (t->hyp_req) {
		change_el(t, pc);
		if (m->hook_rc) {
			if (err)
				*err = m->hook_err;
			return m->hook_rc;
		}
		if (t->stop_req) {
			finish(t, t->stop_req, t->res.pc ? t->res.pc : pc);
			return 0;
		}
		pc = eh_machine__read_reg(t, UC_ARM64_REG_PC);
	}
	if (pc == EH_RETURN_ADDR) {
		finish(t, EH_STOP_RETURNED, pc);
		return 0;
	}
	t->stop_req = EH_STOP_NONE;
	t->fault_addr = 0;
	/*
	 * Unicorn 2.0.1 drops its instruction-counting hook when uc_emu_start is given no count after
	 * a call that had one, and flushes every translated block with it (tb_flush clears the whole
	 * code buffer: a second or more). So a thread that has stepped once runs alone with a count
	 * it never reaches, and the hook stays; the budget is on_code's to enforce either way.
	 */
	if (count)
		t->eng->stepped = true;
	else if (t->eng->stepped)
		count = SIZE_MAX;
	m->cost.emu_starts++;
	m->cost.tb_flushes += t->counted && !count;  /* what Unicorn would then do */
	t->counted = count != 0;
	t->at_start = false;
	e = uc_emu_start(t->uc, pc, EH_RETURN_ADDR, 0, count);
	if (m->hook_rc) {
		if (err)
			*err = m->hook_err;
		return m->hook_rc;
	}
	pc = eh_machine__read_reg(t, UC_ARM64_REG_PC);
	if (e == UC_ERR_READ_UNMAPPED || e == UC_ERR_WRITE_UNMAPPED || e == UC_ERR_FETCH_UNMAPPED) {
		t->res.addr = t->fault_addr ? t->fault_addr : pc;
		finish(t, e == UC_ERR_FETCH_UNMAPPED ? EH_STOP_LEFT_RANGE : EH_STOP_FAULT,
		       t->cur && e != UC_ERR_FETCH_UNMAPPED ? t->cur->addr : pc);
	} else if (e != UC_ERR_OK) {
		return uc_fail(err, e, "running", pc);
	} else if (t->stop_req) {
		finish(t, t->stop_req, t->stop_req == EH_STOP_EXCEPTION || t->stop_req == EH_STOP_LEFT_RANGE
					       ? t->res.pc : pc);
	} else if (pc == EH_RETURN_ADDR) {
		finish(t, EH_STOP_RETURNED, pc);
	}
	return 0;
}

int eh_machine_run(struct eh_machine *m, struct eh_error *err)
{
	unsigned i, running;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &m->deadline);
	m->deadline.tv_sec += (time_t)(m->opts.timeout_us / 1000000);
	m->deadline.tv_nsec += (long)(m->opts.timeout_us % 1000000) * 1000;
	if (m->deadline.tv_nsec >= 1000000000) {
		m->deadline.tv_sec++;
		m->deadline.tv_nsec -= 1000000000;
	}
	for (;;) {
		for (i = 0, running = 0; i < m->nthreads; i++)
			running += m->threads[i].running;
		if (!running)
			return 0;
		/* Threads of a core interleave one instruction at a time; a lone one runs freely. */
		for (i = 0; i < m->nthreads; i++) {
			struct eh_thread *t = &m->threads[i];

			if (!t->running)
				continue;
			rc = run_slice(m, t, running > 1 ? 1 : 0, err);
			if (rc)
				return rc;
		}
		if (timed_out(m))
			for (i = 0; i < m->nthreads; i++)
				if (m->threads[i].running)
					finish(&m->threads[i], EH_STOP_TIMEOUT,
					       eh_machine__read_reg(&m->threads[i], UC_ARM64_REG_PC));
	}
}

unsigned eh_machine_threads(const struct eh_machine *m)
{
	return m->nthreads;
}

const struct eh_model *eh_machine_model(const struct eh_machine *m)
{
	return m->model;
}

const struct eh_model *eh_machine_thread_core(const struct eh_machine *m, unsigned tid)
{
	return tid < m->nthreads ? m->threads[tid].core : NULL;
}

const struct eh_image *eh_machine_image(const struct eh_machine *m)
{
	return m->img;
}

struct eh_decoder *eh_machine_decoder(struct eh_machine *m)
{
	return m->dec;
}

const struct eh_trace *eh_machine_trace(const struct eh_machine *m)
{
	return &m->trace;
}

const struct eh_thread_result *eh_machine_result(const struct eh_machine *m, unsigned t)
{
	return t < m->nthreads ? &m->threads[t].res : NULL;
}

const struct eh_machine_cost *eh_machine_cost(const struct eh_machine *m)
{
	return &m->cost;
}

const struct eh_insn *eh_machine_insn(struct eh_machine *m, uint64_t addr)
{
	const uint8_t *p = eh_machine__host_ptr(m, addr, 4);

	if (!p)
		return NULL;
	return eh_decoder_get(m->dec, addr, eh_insn_word(p));
}

uint64_t eh_machine_xreg(struct eh_machine *m, unsigned t, unsigned n)
{
	struct eh_thread *th = live_thread(m, t);

	return th ? eh_machine__read_reg(th, eh_machine__xreg_id(n)) : 0;
}

void eh_machine_set_xreg(struct eh_machine *m, unsigned t, unsigned n, uint64_t value)
{
	struct eh_thread *th = live_thread(m, t);

	if (th)
		uc_reg_write(th->uc, eh_machine__xreg_id(n), &value);
}

uint64_t eh_machine_pc(struct eh_machine *m, unsigned t)
{
	struct eh_thread *th = live_thread(m, t);

	return !th ? 0 : th->at_start ? th->start_pc : eh_machine__read_reg(th, UC_ARM64_REG_PC);
}

int eh_machine_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t *value)
{
	uc_arm64_cp_reg cp = {
		.op0 = EH_SYSREG_OP0(sysreg), .op1 = EH_SYSREG_OP1(sysreg), .crn = EH_SYSREG_CRN(sysreg),
		.crm = EH_SYSREG_CRM(sysreg), .op2 = EH_SYSREG_OP2(sysreg),
	};

	struct eh_thread *th = live_thread(m, t);

	if (!th || uc_reg_read(th->uc, UC_ARM64_REG_CP_REG, &cp) != UC_ERR_OK)
		return EH_EEMU;
	*value = cp.val;
	return 0;
}

int eh_machine_set_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t value)
{
	struct eh_thread *th = live_thread(m, t);

	return !th || eh_machine__write_cp(th, sysreg, value) ? EH_EEMU : 0;
}

void eh_machine_trace_clear(struct eh_machine *m)
{
	m->trace.n = 0;
	m->trace.dropped = 0;
}

void eh_machine_trace_keep(struct eh_machine *m, bool keep)
{
	m->trace_paused = !keep;
}

const char *eh_stop_name(enum eh_stop stop)
{
	static const char *const names[] = {
		[EH_STOP_NONE] = "running",
		[EH_STOP_RETURNED] = "returned",
		[EH_STOP_BUDGET] = "instruction budget exhausted",
		[EH_STOP_FAULT] = "access to unmapped memory",
		[EH_STOP_EXCEPTION] = "exception not taken to a vector",
		[EH_STOP_LEFT_RANGE] = "left the code",
		[EH_STOP_TIMEOUT] = "wall-clock limit reached",
		[EH_STOP_UNTIL] = "reached the stop address",
		[EH_STOP_ERET] = "exception return",
	};

	return stop < sizeof(names) / sizeof(names[0]) ? names[stop] : "?";
}

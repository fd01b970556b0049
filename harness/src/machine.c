/* The engine: runs a patched image on each hardware thread of a model's core and records the trace. */
#include "eh/machine.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#include "eh/erratum.h"
#include "eh/sysreg.h"

#define EH_DEFAULT_BUDGET 1000000ull
#define EH_DEFAULT_TIMEOUT_US 10000000ull
#define EH_DEFAULT_MAX_EVENTS 1000000u
#define EH_EL2_REGS 32
#define EH_PAGE 0x1000ull
#define EH_MAX_SECTION (1ull << 30)
#define EH_RECENT_INSNS 4096u  /* a power of two: 16 KiB of code without two sharing a slot */

/* ESR_ELx exception classes (Arm ARM D17.2.37). */
#define ESR_EC_UNKNOWN 0x00u
#define ESR_EC_SVC64 0x15u
#define ESR_EC_HVC64 0x16u
#define ESR_EC_SMC64 0x17u
#define ESR_EC_DABT_LOW 0x24u
#define ESR_EC_DABT_CUR 0x25u
#define ESR_EC_SERROR 0x2fu
#define ESR_EC_BRK64 0x3cu
#define ESR_IL (1u << 25)
#define ESR_ELx(ec, iss) (((uint64_t)(ec) << 26) | ESR_IL | (iss))
#define PSTATE_IL (1ull << 20)   /* illegal execution state */
#define PSTATE_MODE 0x1full     /* M[4:0]: width, EL, SP selection */
/* Vector offsets from VBAR_ELx (Arm ARM D1.10.2): the kind of exception, and where it came from. */
#define VECTOR_SYNC 0x000u
#define VECTOR_SERROR 0x180u
#define VECTOR_LOWER_A64 0x400u
/* PSTATE.A masks SError interrupts, virtual ones included. */
#define PSTATE_A (1ull << 8)
/* DFSC for the injected abort: translation fault, level 3 (the erratum names no status). */
#define DFSC_TRANSLATION_L3 0x07u
/* ISS bit 6 of a Data Abort: the access was a write. */
#define ESR_ISS_WNR (1u << 6)

/* Unicorn's exception numbers in UC_HOOK_INTR (QEMU's EXCP_*). */
enum { EXCP_UDEF = 1, EXCP_SWI = 2, EXCP_PREFETCH_ABORT = 3, EXCP_DATA_ABORT = 4,
       EXCP_BKPT = 7, EXCP_HVC = 11, EXCP_SMC = 13 };

/* A change of flow the code hook asked for (a change of exception level, a skipped instruction),
 * made between two uc_emu_start calls because a code hook cannot redirect the PC (upstream #2058). */
enum hyp_req {
	HYP_NONE,
	HYP_ENTER,      /* the guest's access traps to EL2 */
	HYP_ERET,       /* the hypervisor returns to the guest */
	HYP_HOST,       /* the hypervisor exits to the host's slow path */
	HYP_VSERROR,    /* the guest takes the pending virtual SError */
	HYP_STUB,       /* a call reached the stub of an undefined symbol: it returns */
	HYP_SKIP,       /* an erratum drops the instruction (eh_machine_skip) */
};

struct region {
	uint64_t addr, size;
	uint8_t *host;      /* page-aligned view of raw */
	void *raw;
};

struct eh_thread {
	struct eh_machine *m;
	unsigned id;
	uc_engine *uc;
	struct eh_thread_result res;
	bool running;
	enum eh_stop stop_req;      /* set by a hook that called uc_emu_stop */
	bool break_req;             /* stop before the next instruction (pending abort) */
	bool skip_req;              /* an erratum drops the instruction about to run */
	bool abort_pending;
	uint64_t abort_far;
	bool abort_wnr;             /* the culprit wrote: ESR's WnR */
	uint64_t fault_addr;
	const struct eh_insn *cur;  /* the instruction executing now */
	bool cur_in_window_counted;
	uint64_t code_lo, code_hi;  /* last executable section seen, for the range check */
	const uint8_t *code_host;   /* ... and where its bytes are */
	/*
	 * A hazard window an erratum opened on this thread (eh_machine_window_open), with
	 * the accesses made in it at the level it was opened at (virtual EL2 or not).
	 */
	bool window_open;
	bool window_el2;
	uint8_t window_erratum;
	uint32_t window_count, window_first_flags;
	uint64_t window_first_pc, window_first_va;
	/* What an erratum asked for the instruction now executing (eh_machine_skip, eh_machine_set_after). */
	bool after_pending;
	unsigned after_reg;
	uint64_t after_value;
	/* Virtual EL2 (see machine.h). */
	bool el2;
	enum hyp_req hyp_req;
	uint64_t hyp_esr;           /* ESR_EL2 of the pending entry */
	uint64_t sp_el1;            /* the guest's stack pointer while the thread is at EL2 */
};

static const struct eh_machine_hooks no_hooks;

struct eh_machine {
	const struct eh_model *model;
	const struct eh_image *img;
	struct eh_machine_opts opts;
	struct eh_decoder *dec;
	/*
	 * The decoder's answers for recently run addresses, indexed by the address's low
	 * bits, so that running code costs no hash look-up per instruction (the entries
	 * stay valid: see eh_decoder_get). A hit is checked against the word in memory.
	 */
	const struct eh_insn *recent[EH_RECENT_INSNS];
	struct region *regions;
	size_t nregions;
	struct eh_thread threads[EH_MAX_THREADS];
	unsigned nthreads;
	struct eh_trace trace;
	uint64_t rng;
	struct { uint32_t reg; uint64_t value; } el2[EH_EL2_REGS];
	uint64_t *hcr;              /* HCR_EL2 in el2[], read at every guest instruction */
	/* The errata that show on the model and act here, each with its state for every thread. */
	struct {
		const struct eh_behaviour *b;
		uint8_t *state;         /* b->thread_state bytes per thread */
	} active[EH_MACHINE_ERRATA_MAX];
	unsigned nactive;
	bool want_insns;            /* some erratum follows every instruction */
	struct timespec deadline;
	int hook_rc;                /* an error met inside a hook, reported by eh_machine_run */
	struct eh_error hook_err;
	size_t nzero;               /* zero pages mapped on demand (opts.zero_fill) */
	uint64_t (*call_args)[8];   /* x0..x7 of each stub call, indexed by the event's count */
	size_t ncalls, cap_calls;
};

static int uc_fail(struct eh_error *err, uc_err e, const char *what, uint64_t addr)
{
	return eh_error_set(err, EH_EEMU, "unicorn: %s at 0x%016" PRIx64 ": %s", what, addr,
			    uc_strerror(e));
}

static int xreg_id(unsigned n)
{
	if (n < 29)
		return UC_ARM64_REG_X0 + (int)n;
	return n == 29 ? UC_ARM64_REG_X29 : n == 30 ? UC_ARM64_REG_X30 : UC_ARM64_REG_SP;
}

static uint64_t read_reg(struct eh_thread *t, int id)
{
	uint64_t v = 0;

	uc_reg_read(t->uc, id, &v);  /* only fails for an unknown id, which these are not */
	return v;
}

static uint64_t xreg_base(void *ctx, unsigned n)
{
	return read_reg(ctx, xreg_id(n));
}

static int write_cp(struct eh_thread *t, uint32_t reg, uint64_t value)
{
	uc_arm64_cp_reg cp = {
		.op0 = EH_SYSREG_OP0(reg), .op1 = EH_SYSREG_OP1(reg), .crn = EH_SYSREG_CRN(reg),
		.crm = EH_SYSREG_CRM(reg), .op2 = EH_SYSREG_OP2(reg), .val = value,
	};

	return uc_reg_write(t->uc, UC_ARM64_REG_CP_REG, &cp) == UC_ERR_OK ? 0 : -1;
}

static uint8_t *host_ptr(struct eh_machine *m, uint64_t addr, uint64_t len)
{
	size_t i;

	for (i = 0; i < m->nregions; i++) {
		struct region *r = &m->regions[i];

		if (addr >= r->addr && addr - r->addr < r->size && len <= r->size - (addr - r->addr))
			return r->host + (addr - r->addr);
	}
	return NULL;
}

/* Record an error met inside a hook; every thread stops and eh_machine_run returns it. */
static void hook_fail(struct eh_machine *m, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void hook_fail(struct eh_machine *m, int code, const char *fmt, ...)
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

/* The errata and the case hear of ev (recorded in the trace or not). */
static void notify(struct eh_machine *m, const struct eh_event *ev)
{
	unsigned i;

	for (i = 0; i < m->nactive; i++)
		m->active[i].b->on_event(m, m->active[i].state + ev->thread * m->active[i].b->thread_state, ev);
	if (m->opts.hooks->event)
		m->opts.hooks->event(m, ev, m->opts.hooks_ctx);
}

static void emit(struct eh_machine *m, struct eh_event *ev)
{
	struct eh_trace *tr = &m->trace;

	ev->seq = (uint32_t)(tr->n + tr->dropped);
	ev->el2 = m->threads[ev->thread].el2;
	if (tr->n == tr->cap && tr->cap < m->opts.max_events) {
		size_t cap = tr->cap ? tr->cap * 2 : 256;
		struct eh_event *p;

		if (cap > m->opts.max_events)
			cap = m->opts.max_events;
		p = eh_realloc(tr->events, cap * sizeof(*p));
		if (!p) {
			/* A trace with holes would be judged wrongly: stop the run instead. */
			hook_fail(m, EH_ENOMEM, "out of memory for %zu trace events", cap);
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

static void close_window(struct eh_thread *t, uint32_t why_flags)
{
	struct eh_event ev = {
		.kind = EH_EV_WINDOW_CLOSE, .thread = (uint8_t)t->id, .flags = why_flags,
		.count = t->window_count, .addr = t->window_first_va, .value = t->window_first_pc,
		.pc = t->cur ? t->cur->addr : 0, .aflags = t->window_first_flags, .erratum = t->window_erratum,
	};

	if (!t->window_open)
		return;
	t->window_open = false;
	emit(t->m, &ev);
}

/* Whether an access of thread t now is inside its window: made at the level the window was opened at. */
static bool in_window(const struct eh_thread *t)
{
	return t->window_open && t->el2 == t->window_el2;
}

static void request_stop(struct eh_thread *t, enum eh_stop why)
{
	t->stop_req = why;
	uc_emu_stop(t->uc);
}

/* Exception entry to EL1 (Arm ARM D1.10.2): SPSR, ELR, ESR, FAR, PSTATE, then the vector. */
static void take_exception_to(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr,
			      unsigned kind)
{
	uint64_t pstate = read_reg(t, UC_ARM64_REG_PSTATE);
	uint64_t vbar = read_reg(t, UC_ARM64_REG_VBAR_EL1);
	unsigned el = (pstate >> 2) & 3;
	uint64_t vector = vbar + kind + (el == 0 ? VECTOR_LOWER_A64 : (pstate & 1) ? 0x200 : 0);
	struct eh_event ev = {
		.kind = EH_EV_EXCEPTION, .thread = (uint8_t)t->id, .pc = elr, .esr = esr, .addr = far,
	};

	/*
	 * Unicorn cannot be moved from EL0 to EL1 by a PSTATE write (see
	 * reference/emulator-facts.md), so only exceptions taken from EL1 reach vectors;
	 * exceptions taken at virtual EL2 (EL2's own vectors) are not modelled.
	 */
	if (!vbar || el != 1 || t->el2 || !host_ptr(t->m, vector, 4) || t->m->opts.stop_at_exception) {
		ev.count = vbar && el == 1 && !t->el2 && host_ptr(t->m, vector, 4);
		emit(t->m, &ev);
		t->res.pc = elr;
		request_stop(t, EH_STOP_EXCEPTION);
		return;
	}
	ev.value = vector;
	if (write_cp(t, EH_SPSR_EL1, pstate) || write_cp(t, EH_ELR_EL1, elr) ||
	    write_cp(t, EH_ESR_EL1, esr) || write_cp(t, EH_FAR_EL1, far)) {
		hook_fail(t->m, EH_EEMU, "unicorn: cannot write exception registers at 0x%016" PRIx64, elr);
		request_stop(t, EH_STOP_EXCEPTION);
		return;
	}
	pstate = (pstate & ~0x3cfull) | 0x3c0 | 0x5;  /* DAIF masked, EL1h */
	uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &pstate);
	uc_reg_write(t->uc, UC_ARM64_REG_PC, &vector);
	emit(t->m, &ev);
}

/* A synchronous exception. */
static void take_exception(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr)
{
	take_exception_to(t, esr, far, elr, VECTOR_SYNC);
}

static void record_access(struct eh_thread *t, uint32_t flags, uint64_t addr, unsigned size,
			  uint64_t value)
{
	struct eh_event ev = {
		.kind = EH_EV_ACCESS, .thread = (uint8_t)t->id, .flags = flags, .addr = addr,
		.size = (uint8_t)size, .value = value, .pc = t->cur ? t->cur->addr : 0,
		.in_window = in_window(t), .count = (uint32_t)t->res.executed,
	};

	if (ev.in_window && !t->cur_in_window_counted) {
		t->cur_in_window_counted = true;
		if (!t->window_count++) {
			t->window_first_pc = ev.pc;
			t->window_first_va = addr;
			t->window_first_flags = t->cur ? t->cur->flags : flags;
		}
	}
	emit(t->m, &ev);
}

static bool timed_out(const struct eh_machine *m)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > m->deadline.tv_sec ||
	       (now.tv_sec == m->deadline.tv_sec && now.tv_nsec >= m->deadline.tv_nsec);
}

static bool in_code(struct eh_thread *t, uint64_t addr)
{
	const struct eh_elf_section *s;
	const struct eh_machine_opts *o = &t->m->opts;
	const uint8_t *host;

	if (o->code_hi > o->code_lo && (addr < o->code_lo || addr >= o->code_hi))
		return false;
	if (addr >= t->code_lo && addr < t->code_hi)
		return true;
	s = eh_elf_section_at(t->m->img->elf, addr);
	if (!s || !(s->flags & SHF_EXECINSTR) || !(host = host_ptr(t->m, s->addr, s->size)))
		return false;
	t->code_lo = s->addr;
	t->code_hi = s->addr + s->size;
	t->code_host = host;
	return true;
}

/*
 * Unicorn 2.0.1 takes an ERET from EL1 to EL1 for an illegal exception return
 * (with SCR_EL3.RW = 0 it deems EL1 AArch32; setting RW would make fetches at
 * kernel VAs with the MMU off fault): it sets PSTATE.IL and takes only NZCV
 * and DAIF from SPSR_EL1, keeping PAN and the rest. The engine completes the
 * return as the architecture defines it (Arm ARM D1.11.2, PSTATE from
 * SPSR_EL1) when the mode stays the same; a change of EL or SP is not modelled
 * and left as is.
 */
static void complete_eret(struct eh_thread *t)
{
	uint64_t pstate = read_reg(t, UC_ARM64_REG_PSTATE), spsr;

	if (!(pstate & PSTATE_IL) || eh_machine_sysreg(t->m, t->id, EH_SPSR_EL1, &spsr) ||
	    (spsr & PSTATE_MODE) != (pstate & PSTATE_MODE))
		return;
	uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &spsr);
}

/* The registers HCR_EL2.TVM (writes) and TRVM (reads) trap at EL1 (Arm ARM, the description of HCR_EL2). */
static const uint32_t vm_regs[] = {
	EH_SCTLR_EL1, EH_TTBR0_EL1, EH_TTBR1_EL1, EH_TCR_EL1, EH_ESR_EL1, EH_FAR_EL1,
	EH_AFSR0_EL1, EH_AFSR1_EL1, EH_MAIR_EL1, EH_AMAIR_EL1, EH_CONTEXTIDR_EL1,
};

static bool hcr_traps(struct eh_thread *t, const struct eh_insn *in)
{
	uint64_t bit = in->flags & EH_INSN_MSR ? EH_HCR_TVM : EH_HCR_TRVM;
	size_t i;

	/* At EL0 these accesses are UNDEFINED, which takes priority over the trap to EL2. */
	if (t->el2 || !(in->flags & (EH_INSN_MSR | EH_INSN_MRS)) || !(*t->m->hcr & bit) ||
	    ((read_reg(t, UC_ARM64_REG_PSTATE) >> 2) & 3) != 1)
		return false;
	for (i = 0; i < sizeof(vm_regs) / sizeof(vm_regs[0]); i++)
		if (vm_regs[i] == in->sysreg)
			return true;
	return false;
}

/* A virtual SError is taken at EL1 when HCR_EL2.VSE and AMO are set and PSTATE.A is clear. */
static bool vserror_due(struct eh_thread *t)
{
	return !t->el2 && (*t->m->hcr & (EH_HCR_VSE | EH_HCR_AMO)) == (EH_HCR_VSE | EH_HCR_AMO) &&
	       !(read_reg(t, UC_ARM64_REG_PSTATE) & PSTATE_A);
}

/* Stop before the current instruction; run_slice makes the change before running on. */
/* A register an erratum corrupts once the instruction that wrote it has run (eh_machine_set_after). */
static void apply_after(struct eh_thread *t)
{
	if (!t->after_pending)
		return;
	t->after_pending = false;
	if (uc_reg_write(t->uc, xreg_id(t->after_reg), &t->after_value))
		hook_fail(t->m, EH_EEMU, "unicorn: cannot write x%u of thread %u", t->after_reg, t->id);
}

static void request_hyp(struct eh_thread *t, enum hyp_req req)
{
	t->hyp_req = req;
	uc_emu_stop(t->uc);
}

static void on_code(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
	struct eh_thread *t = user;
	struct eh_machine *m = t->m;
	const uint8_t *p;
	const struct eh_insn *in, **recent;
	uint32_t word;

	(void)uc;
	(void)size;
	apply_after(t);
	if (t->cur && t->cur->flags & EH_INSN_ERET)
		complete_eret(t);
	if (t->break_req) {
		t->break_req = false;
		uc_emu_stop(t->uc);
		return;
	}
	if (t->el2 && addr == EH_HYP_HOST_ADDR) {
		request_hyp(t, HYP_HOST);
		return;
	}
	if (vserror_due(t)) {
		request_hyp(t, HYP_VSERROR);
		return;
	}
	if (t->res.executed >= m->opts.budget) {
		request_stop(t, EH_STOP_BUDGET);
		return;
	}
	if ((t->res.executed & 0xffff) == 0xffff && timed_out(m)) {
		request_stop(t, EH_STOP_TIMEOUT);
		return;
	}
	if (m->opts.until && addr == m->opts.until) {
		request_stop(t, EH_STOP_UNTIL);
		return;
	}
	if (eh_elf_stub_at(m->img->elf, addr)) {
		t->res.executed++;  /* counted, so that a stub returning to itself meets the budget */
		request_hyp(t, HYP_STUB);
		return;
	}
	if (!in_code(t, addr)) {
		t->res.pc = addr;
		request_stop(t, EH_STOP_LEFT_RANGE);
		return;
	}
	t->res.executed++;
	/* Within the section's page-rounded region: PCs are 4-aligned, so 4 bytes are there. */
	p = t->code_host + (addr - t->code_lo);
	word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	recent = &m->recent[(addr >> 2) & (EH_RECENT_INSNS - 1)];
	in = *recent;
	if (!in || in->addr != addr || in->word != word)
		in = *recent = eh_decoder_get(m->dec, addr, word);
	t->cur = in;
	if (!in) {
		hook_fail(m, EH_ENOMEM, "out of memory decoding 0x%016" PRIx64, addr);
		return;
	}
	t->cur_in_window_counted = false;
	if (m->opts.trace_insns || m->want_insns) {
		struct eh_event ev = {
			.kind = EH_EV_INSN, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
			.in_window = in_window(t), .addr = (uint64_t)word,
		};

		/* Errata that follow instruction sequences see every one; the trace keeps them for replay. */
		if (m->opts.trace_insns)
			emit(m, &ev);
		else
			notify(m, &ev);
		if (t->skip_req) {
			request_hyp(t, HYP_SKIP);
			return;
		}
	}

	if (hcr_traps(t, in)) {
		/* The access does not happen here (no window opens): EL2 performs it, or not. */
		t->hyp_esr = eh_sysreg_trap_esr(in->sysreg, in->rt, in->flags & EH_INSN_MRS);
		request_hyp(t, HYP_ENTER);
	} else if (in->flags & EH_INSN_MSR && !EH_SYSREG_IS_EL2(in->sysreg)) {
		struct eh_event ev = {
			.kind = EH_EV_SYSREG_WRITE, .thread = (uint8_t)t->id, .pc = addr,
			.sysreg = in->sysreg, .flags = in->flags,
			.value = in->rt == 31 ? 0 : read_reg(t, xreg_id(in->rt)),
		};

		emit(m, &ev);
	} else if (in->flags & (EH_INSN_ISB | EH_INSN_ERET)) {
		struct eh_event ev = {
			.kind = EH_EV_CTX_SYNC, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
		};

		emit(m, &ev);
		/* Unicorn's ERET would use ELR_EL1/SPSR_EL1: at virtual EL2 the engine returns. */
		if (t->el2 && in->flags & EH_INSN_ERET)
			request_hyp(t, HYP_ERET);
		else if (in->flags & EH_INSN_ERET && m->opts.stop_at_eret)
			request_stop(t, EH_STOP_ERET);
	} else if (in->flags & EH_INSN_PREFETCH) {
		/* PRFM makes no memory access, so no memory hook sees it. */
		record_access(t, EH_INSN_PREFETCH, eh_insn_prefetch_addr(in, xreg_base, t), 0, 0);
	} else if (in->flags & (EH_INSN_DSB | EH_INSN_DMB)) {
		struct eh_event ev = {
			.kind = EH_EV_BARRIER, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
			.value = EH_BARRIER_OPTION(in->word),
		};

		emit(m, &ev);
	} else if ((in->word & 0xfff80000) == 0xd5080000) {
		/* SYS: TLBI, DC, IC, AT, with the operation and the value of its operand. */
		struct eh_event ev = {
			.kind = EH_EV_SYS, .thread = (uint8_t)t->id, .pc = addr, .flags = in->flags,
			.sysreg = in->sysreg, .value = in->rt == 31 ? 0 : read_reg(t, xreg_id(in->rt)),
		};

		emit(m, &ev);
	}
}

static void on_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
		   void *user)
{
	struct eh_thread *t = user;

	(void)uc;
	record_access(t, type == UC_MEM_WRITE ? EH_INSN_STORE : EH_INSN_LOAD, addr, (unsigned)size,
		      type == UC_MEM_WRITE ? (uint64_t)value : 0);
}

/*
 * Map one zero page at page into every thread: 0; EH_EINVAL past
 * EH_ZERO_PAGES_MAX, EH_ENOMEM or EH_EEMU on failure.
 */
static int map_zero_page(struct eh_machine *m, uint64_t page)
{
	struct region *r;
	unsigned i;

	if (m->nzero == EH_ZERO_PAGES_MAX)
		return EH_EINVAL;
	r = eh_realloc(m->regions, (m->nregions + 1) * sizeof(*m->regions));
	if (!r)
		return EH_ENOMEM;
	m->regions = r;
	r = &m->regions[m->nregions];
	r->addr = page;
	r->size = EH_PAGE;
	r->raw = eh_alloc(2 * EH_PAGE);
	if (!r->raw)
		return EH_ENOMEM;
	r->host = (uint8_t *)(((uintptr_t)r->raw + EH_PAGE - 1) & ~(uintptr_t)(EH_PAGE - 1));
	for (i = 0; i < m->nthreads; i++)
		if (uc_mem_map_ptr(m->threads[i].uc, page, EH_PAGE, UC_PROT_READ | UC_PROT_WRITE, r->host) !=
		    UC_ERR_OK) {
			/* Unmap what was mapped: no thread may keep a view of freed memory. */
			while (i--)
				uc_mem_unmap(m->threads[i].uc, page, EH_PAGE);
			eh_free(r->raw);
			return EH_EEMU;
		}
	m->nregions++;
	m->nzero++;
	return 0;
}

static bool on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
			void *user)
{
	struct eh_thread *t = user;
	struct eh_event ev = {
		.kind = EH_EV_PAGE, .thread = (uint8_t)t->id, .pc = t->cur ? t->cur->addr : 0,
		.addr = addr & ~(EH_PAGE - 1),
		.flags = type == UC_MEM_WRITE_UNMAPPED ? EH_INSN_STORE : EH_INSN_LOAD,
	};
	int rc;

	(void)uc;
	(void)size;
	(void)value;
	t->fault_addr = addr;
	if (!t->m->opts.zero_fill || (type != UC_MEM_READ_UNMAPPED && type != UC_MEM_WRITE_UNMAPPED))
		return false;
	/* Past EH_ZERO_PAGES_MAX the access faults, as without zero_fill: a runaway stops. */
	rc = map_zero_page(t->m, ev.addr);
	if (rc == EH_ENOMEM || rc == EH_EEMU)
		hook_fail(t->m, rc, "%s mapping a zero page at 0x%016" PRIx64 " for the access at 0x%016" PRIx64,
			  rc == EH_ENOMEM ? "out of memory" : "unicorn failed", ev.addr, ev.pc);
	if (rc)
		return false;
	/* Unicorn retries the access once the hook has mapped its page and returned true. */
	emit(t->m, &ev);
	return true;
}

/* Identity and ID registers come from the model (MPIDR per thread); the rest from Unicorn. */
static uint32_t on_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
	struct eh_thread *t = user;
	uint32_t sysreg = EH_SYSREG(cp->op0, cp->op1, cp->crn, cp->crm, cp->op2);
	uint64_t value;
	struct eh_event ev;

	/*
	 * ID registers are not accessible at EL0 (Arm ARM D17.2: MRS at EL0 is
	 * UNDEFINED); the UDEF that follows lets a case model the kernel's emulation.
	 */
	if (!((read_reg(t, UC_ARM64_REG_PSTATE) >> 2) & 3))
		return 0;
	if (sysreg == EH_MPIDR_EL1)
		value = eh_model_mpidr(t->m->model, t->id);
	else if (eh_model_id_reg(t->m->model, sysreg, &value))
		return 0;
	if (uc_reg_write(uc, reg, &value) != UC_ERR_OK)
		return 0;
	ev = (struct eh_event){
		.kind = EH_EV_SYSREG_READ, .thread = (uint8_t)t->id, .sysreg = sysreg, .value = value,
		.pc = t->cur ? t->cur->addr : 0, .flags = EH_INSN_MRS,
	};
	emit(t->m, &ev);
	return 1;
}

static uint64_t *el2_slot(struct eh_machine *m, uint32_t reg)
{
	unsigned i;

	for (i = 0; i < EH_EL2_REGS; i++)
		if (m->el2[i].reg == reg || !m->el2[i].reg) {
			m->el2[i].reg = reg;
			return &m->el2[i].value;
		}
	return NULL;
}

/* EL2 is absent in Unicorn: its registers trap as UNDEFINED and are emulated here. */
static bool emulate_el2(struct eh_thread *t, const struct eh_insn *in)
{
	uint64_t *slot;
	struct eh_event ev = {
		.kind = EH_EV_EL2_ACCESS, .thread = (uint8_t)t->id, .pc = in->addr,
		.sysreg = in->sysreg, .flags = in->flags,
	};

	if (!(in->flags & (EH_INSN_MSR | EH_INSN_MRS)) || !EH_SYSREG_IS_EL2(in->sysreg) ||
	    !(slot = el2_slot(t->m, in->sysreg)))
		return false;
	if (in->flags & EH_INSN_MSR) {
		*slot = in->rt == 31 ? 0 : read_reg(t, xreg_id(in->rt));
	} else if (in->rt != 31) {
		uc_reg_write(t->uc, xreg_id(in->rt), slot);
	}
	ev.value = *slot;
	emit(t->m, &ev);
	return true;
}

static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
	struct eh_thread *t = user;
	const struct eh_machine_hooks *hooks = t->m->opts.hooks;
	uint64_t pc = read_reg(t, UC_ARM64_REG_PC);
	const uint8_t *p;
	const struct eh_insn *in = NULL;
	uint32_t word;

	(void)uc;
	/* SVC, HVC and SMC report the preferred return address (the next instruction). */
	if (intno == EXCP_SWI || intno == EXCP_HVC || intno == EXCP_SMC)
		p = host_ptr(t->m, pc - 4, 4);
	else
		p = host_ptr(t->m, pc, 4);
	if (p) {
		word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		in = eh_decoder_get(t->m->dec, intno == EXCP_UDEF || intno == EXCP_BKPT ? pc : pc - 4, word);
	}
	switch (intno) {
	case EXCP_UDEF:
		if (in && (emulate_el2(t, in) ||
			   (hooks->undef && hooks->undef(t->m, t->id, in, t->m->opts.hooks_ctx)))) {
			pc += 4;
			uc_reg_write(t->uc, UC_ARM64_REG_PC, &pc);
			return;
		}
		take_exception(t, ESR_ELx(ESR_EC_UNKNOWN, 0), 0, pc);
		return;
	case EXCP_SWI:
		if (in && hooks->svc && hooks->svc(t->m, t->id, (in->word >> 5) & 0xffff, t->m->opts.hooks_ctx))
			return;
		take_exception(t, ESR_ELx(ESR_EC_SVC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_HVC:
		take_exception(t, ESR_ELx(ESR_EC_HVC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_SMC:
		take_exception(t, ESR_ELx(ESR_EC_SMC64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	case EXCP_BKPT:
		take_exception(t, ESR_ELx(ESR_EC_BRK64, in ? (in->word >> 5) & 0xffff : 0), 0, pc);
		return;
	default:
		take_exception(t, ESR_ELx(ESR_EC_UNKNOWN, 0), 0, pc);
		return;
	}
}

static uint32_t on_sys(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *user)
{
	struct eh_thread *t = user;

	(void)uc;
	(void)reg;
	(void)cp;
	return t->cur && t->m->opts.hooks->sys(t->m, t->id, t->cur, t->m->opts.hooks_ctx);
}

uint64_t eh_machine_random(struct eh_machine *m)
{
	/* splitmix64: small, fast, and the same sequence on every host for a seed. */
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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
	emit(m, &ev);
}

void eh_machine_window_close(struct eh_machine *m, unsigned thread, uint32_t why)
{
	close_window(&m->threads[thread % m->nthreads], why);
}

void eh_machine_hazard(struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *at,
		       uint64_t value)
{
	struct eh_event ev = {
		.kind = EH_EV_HAZARD, .thread = at->thread, .pc = at->pc, .addr = at->addr, .value = value,
		.flags = at->flags, .erratum = erratum_tag(e),
	};

	emit(m, &ev);
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

	emit(m, &ev);
	if (!v->running)
		return;
	v->abort_pending = true;
	v->abort_far = culprit->va;
	v->abort_wnr = culprit->flags & EH_INSN_STORE;
	/* The victim takes it at its next instruction boundary. */
	if (v == &m->threads[culprit->thread])
		v->break_req = true;
}

static uint8_t *hyp_frame(struct eh_thread *t)
{
	return host_ptr(t->m, EH_HYP_FRAME(t->id), 31 * 8);
}

/*
 * Exception entry to EL2 from the guest (Arm ARM D1.10.2): ESR_EL2, ELR_EL2,
 * SPSR_EL2, DAIF masked, PC = VBAR_EL2 + 0x400 (lower EL, AArch64, synchronous).
 * Unicorn stays at EL1; the thread switches to its EL2 stack, with the guest's
 * registers saved in the frame that x0 points to, as KVM's exit path saves them
 * in the vcpu context before its C handlers run.
 */
static void enter_el2(struct eh_thread *t, uint64_t esr, uint64_t elr)
{
	struct eh_machine *m = t->m;
	uint64_t vbar = eh_machine_el2_get(m, EH_VBAR_EL2), vector = vbar + VECTOR_LOWER_A64;
	uint64_t pstate = read_reg(t, UC_ARM64_REG_PSTATE), frame = EH_HYP_FRAME(t->id);
	uint64_t host = EH_HYP_HOST_ADDR;
	uint8_t *regs = hyp_frame(t);
	struct eh_event ev = { .kind = EH_EV_EL2_ENTRY, .thread = (uint8_t)t->id, .pc = elr, .esr = esr };
	unsigned i, rt;
	bool read;

	if (!eh_sysreg_trap_decode(esr, &ev.sysreg, &rt, &read))
		ev.flags = read ? EH_INSN_MRS : EH_INSN_MSR;
	if (!vbar || !host_ptr(m, vector, 4)) {
		emit(m, &ev);
		t->res.pc = elr;
		t->stop_req = EH_STOP_EXCEPTION;
		return;
	}
	eh_machine_el2_set(m, EH_ESR_EL2, esr);
	eh_machine_el2_set(m, EH_ELR_EL2, elr);
	eh_machine_el2_set(m, EH_SPSR_EL2, pstate);
	for (i = 0; i < 31; i++) {
		uint64_t x = read_reg(t, xreg_id(i));

		memcpy(regs + 8 * i, &x, 8);
	}
	t->sp_el1 = read_reg(t, UC_ARM64_REG_SP);
	t->el2 = true;
	pstate = (pstate & ~0x3cfull) | 0x3c0 | 0x5;  /* DAIF masked; EL1h is all Unicorn has */
	if (uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &pstate) || uc_reg_write(t->uc, UC_ARM64_REG_SP, &frame) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_X0, &frame) || uc_reg_write(t->uc, UC_ARM64_REG_X30, &host) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_PC, &vector)) {
		hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: cannot enter the vector at 0x%016" PRIx64,
			  t->id, vector);
		return;
	}
	ev.value = vector;
	emit(m, &ev);
}

/* ERET from EL2 (or the host's re-entry): back to ELR_EL2 with SPSR_EL2 and the frame's registers. */
static void leave_el2(struct eh_thread *t, uint32_t how)
{
	struct eh_machine *m = t->m;
	uint64_t elr = eh_machine_el2_get(m, EH_ELR_EL2), spsr = eh_machine_el2_get(m, EH_SPSR_EL2);
	const uint8_t *regs = hyp_frame(t);
	struct eh_event ev = {
		.kind = EH_EV_EL2_RETURN, .thread = (uint8_t)t->id, .pc = elr, .value = spsr, .flags = how,
	};
	bool bad = false;
	unsigned i;

	/* The guests modelled run at EL1 (M[4] = 0: AArch64, M[3:2] = 1). */
	if ((spsr & 0x1c) != 0x4) {
		hook_fail(m, EH_EINPUT, "virtual EL2, thread %u: ERET with SPSR_EL2 0x%" PRIx64
			  " to 0x%016" PRIx64 ": only returns to AArch64 EL1 are modelled", t->id, spsr, elr);
		return;
	}
	for (i = 0; i < 31; i++) {
		uint64_t x;

		memcpy(&x, regs + 8 * i, 8);
		bad |= uc_reg_write(t->uc, xreg_id(i), &x) != UC_ERR_OK;
	}
	t->el2 = false;
	if (bad || uc_reg_write(t->uc, UC_ARM64_REG_SP, &t->sp_el1) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_PSTATE, &spsr) || uc_reg_write(t->uc, UC_ARM64_REG_PC, &elr)) {
		hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: cannot return to 0x%016" PRIx64, t->id, elr);
		return;
	}
	emit(m, &ev);
}

/*
 * The hypervisor declined the trap and exited to the host. The host's slow
 * path (KVM's kvm_handle_sys_reg) emulates the access on the vcpu, skips the
 * instruction and re-enters the guest. The write reaches the register at that
 * re-entry, at EL2 before the ERET, so it opens no window at EL1.
 */
static void host_exit(struct eh_thread *t)
{
	struct eh_machine *m = t->m;
	uint64_t esr = eh_machine_el2_get(m, EH_ESR_EL2), elr = eh_machine_el2_get(m, EH_ELR_EL2), value = 0;
	uint8_t *regs = hyp_frame(t);
	struct eh_event ev = { .kind = EH_EV_HYP_SLOW, .thread = (uint8_t)t->id, .pc = elr, .esr = esr };
	unsigned rt;
	bool read;

	if (eh_sysreg_trap_decode(esr, &ev.sysreg, &rt, &read)) {
		hook_fail(m, EH_EINPUT, "virtual EL2, thread %u: exit to the host with ESR_EL2 0x%" PRIx64
			  " (guest at 0x%016" PRIx64 "): the host models only trapped system register accesses",
			  t->id, esr, elr);
		return;
	}
	if (!read && rt != 31)
		memcpy(&value, regs + 8 * rt, 8);
	if (read ? eh_machine_sysreg(m, t->id, ev.sysreg, &value) : write_cp(t, ev.sysreg, value)) {
		hook_fail(m, EH_EEMU, "virtual EL2, thread %u: unicorn: the slow path cannot %s the register "
			  "(ESR_EL2 0x%" PRIx64 ", guest at 0x%016" PRIx64 ")", t->id, read ? "read" : "write",
			  esr, elr);
		return;
	}
	if (read && rt != 31)
		memcpy(regs + 8 * rt, &value, 8);
	ev.value = value;
	ev.flags = read ? EH_INSN_MRS : EH_INSN_MSR;
	emit(m, &ev);
	eh_machine_el2_set(m, EH_ELR_EL2, elr + 4);
	leave_el2(t, 0);
}

/* "On taking a vSError interrupt, HCR_EL2.VSE is cleared to 0" (Arm ARM, quoted in __deactivate_traps). */
static void take_vserror(struct eh_thread *t, uint64_t pc)
{
	struct eh_event ev = { .kind = EH_EV_VSERROR, .thread = (uint8_t)t->id, .pc = pc };

	*t->m->hcr &= ~EH_HCR_VSE;
	emit(t->m, &ev);
	/* Without RAS the syndrome of a virtual SError is IMPLEMENTATION DEFINED: ISS 0. */
	take_exception_to(t, ESR_ELx(ESR_EC_SERROR, 0), 0, pc, VECTOR_SERROR);
}

/*
 * The stub of a symbol the object does not define: record the call with its
 * arguments (AAPCS64: x0..x7) and return to x30 with x0 = 0, as a function
 * that did nothing and succeeded would.
 */
static void stub_return(struct eh_thread *t, uint64_t pc)
{
	struct eh_machine *m = t->m;
	uint64_t lr = read_reg(t, UC_ARM64_REG_X30), zero = 0;
	struct eh_event ev = { .kind = EH_EV_STUB_CALL, .thread = (uint8_t)t->id, .pc = pc, .addr = lr };
	unsigned i;

	if (m->ncalls == m->cap_calls) {
		size_t cap = m->cap_calls ? 2 * m->cap_calls : 64;
		uint64_t (*p)[8] = eh_realloc(m->call_args, cap * sizeof(*p));

		if (!p) {
			hook_fail(m, EH_ENOMEM, "out of memory for %zu stub calls", cap);
			return;
		}
		m->call_args = p;
		m->cap_calls = cap;
	}
	for (i = 0; i < 8; i++)
		m->call_args[m->ncalls][i] = read_reg(t, xreg_id(i));
	ev.count = (uint32_t)m->ncalls++;
	emit(m, &ev);
	if (uc_reg_write(t->uc, UC_ARM64_REG_X0, &zero) || uc_reg_write(t->uc, UC_ARM64_REG_PC, &lr))
		hook_fail(m, EH_EEMU, "unicorn: thread %u cannot return from the stub at 0x%016" PRIx64,
			  t->id, pc);
}

static void change_el(struct eh_thread *t, uint64_t pc)
{
	enum hyp_req req = t->hyp_req;

	t->hyp_req = HYP_NONE;
	switch (req) {
	case HYP_ENTER: enter_el2(t, t->hyp_esr, pc); break;
	case HYP_ERET: leave_el2(t, EH_INSN_ERET); break;
	case HYP_HOST: host_exit(t); break;
	case HYP_VSERROR: take_vserror(t, pc); break;
	case HYP_STUB: stub_return(t, pc); break;
	case HYP_SKIP:
		t->skip_req = false;
		pc += 4;
		if (uc_reg_write(t->uc, UC_ARM64_REG_PC, &pc))
			hook_fail(t->m, EH_EEMU, "unicorn: cannot skip the instruction at 0x%016" PRIx64, pc - 4);
		break;
	case HYP_NONE: break;
	}
}

static void finish(struct eh_thread *t, enum eh_stop why, uint64_t pc)
{
	struct eh_event ev = { .kind = EH_EV_STOP, .thread = (uint8_t)t->id, .pc = pc };
	int ids[31];
	void *vals[31];
	unsigned i;

	apply_after(t);
	close_window(t, 0);
	t->running = false;
	t->res.stop = why;
	t->res.pc = pc;
	/*
	 * One call for the 31 registers: a run of a short snippet is otherwise mostly these
	 * reads. Like read_reg it only fails for an unknown id, and then reads zeros as it does.
	 */
	for (i = 0; i < 31; i++) {
		ids[i] = xreg_id(i);
		vals[i] = &t->res.x[i];
	}
	if (uc_reg_read_batch(t->uc, ids, vals, 31) != UC_ERR_OK)
		memset(t->res.x, 0, sizeof(t->res.x));
	ev.stop = (uint8_t)why;
	ev.addr = why == EH_STOP_FAULT ? t->res.addr : 0;
	emit(t->m, &ev);
}

/*
 * Unicorn translates a block ahead of running it, and some encodings abort the
 * process while being translated (eh_insn_emulator_unsafe). They are UNDEFINED on
 * every modelled CPU, so they are replaced by UDF #0, which is too, before any
 * thread can reach them, and the trace says where.
 */
static void screen_code(struct eh_machine *m, uint64_t addr, uint64_t len)
{
	uint64_t a = addr & ~3ull, end = addr + len;

	while (a + 4 <= end) {
		const struct eh_elf_section *s = eh_elf_section_at(m->img->elf, a);
		uint64_t stop;

		if (!s) {
			a += 4;
			continue;
		}
		/* The rest of this section at once: a data write (a sweep's inputs) costs one look-up. */
		stop = s->addr + s->size < end ? s->addr + s->size : end;
		if (!(s->flags & SHF_EXECINSTR)) {
			a = (stop + 3) & ~3ull;
			continue;
		}
		for (; a < stop && a + 4 <= end; a += 4) {
			uint8_t *p = host_ptr(m, a, 4);
			uint32_t w;

			if (!p)
				continue;
			memcpy(&w, p, 4);
			if (eh_insn_emulator_unsafe(w)) {
				struct eh_event ev = { .kind = EH_EV_SCREENED, .pc = a, .value = w };

				memset(p, 0, 4);
				emit(m, &ev);
			}
		}
	}
}

static int map_image(struct eh_machine *m, struct eh_error *err)
{
	const struct eh_elf *elf = m->img->elf;
	size_t i, j, n = 0;

	m->regions = eh_alloc((elf->nsections + 4) * sizeof(*m->regions));
	if (!m->regions)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the memory map");
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint64_t lo, hi;

		if (!(s->flags & SHF_ALLOC) || !s->size)
			continue;
		/* Host memory backs every mapped byte: refuse what no snippet or kernel needs. */
		if (s->size > EH_MAX_SECTION)
			return eh_error_set(err, EH_EINPUT, "%s: section %s is 0x%" PRIx64 " bytes, more than "
					    "the 0x%llx the harness maps", elf->path, s->name, s->size, EH_MAX_SECTION);
		lo = s->addr & ~(EH_PAGE - 1);
		hi = (s->addr + s->size + EH_PAGE - 1) & ~(EH_PAGE - 1);
		if (hi <= lo)
			return eh_error_set(err, EH_EINPUT, "%s: section %s at 0x%016" PRIx64
					    " cannot be mapped (it wraps around)", elf->path, s->name, s->addr);
		for (j = 0; j < n; j++)  /* merge with a region it touches */
			if (lo <= m->regions[j].addr + m->regions[j].size && hi >= m->regions[j].addr)
				break;
		if (j == n) {
			m->regions[n].addr = lo;
			m->regions[n++].size = hi - lo;
		} else {
			uint64_t nlo = lo < m->regions[j].addr ? lo : m->regions[j].addr;
			uint64_t end = m->regions[j].addr + m->regions[j].size;

			m->regions[j].addr = nlo;
			m->regions[j].size = (hi > end ? hi : end) - nlo;
		}
	}
	m->regions[n].addr = EH_STACK_TOP - EH_MAX_THREADS * EH_STACK_SIZE;
	m->regions[n++].size = EH_MAX_THREADS * EH_STACK_SIZE;
	m->regions[n].addr = EH_HYP_STACK_TOP - EH_MAX_THREADS * EH_STACK_SIZE;
	m->regions[n++].size = EH_MAX_THREADS * EH_STACK_SIZE;
	m->regions[n].addr = EH_RETURN_ADDR;
	m->regions[n++].size = EH_PAGE;
	if (elf->nstubs) {  /* zero-filled: a load through a stub's address reads 0 */
		m->regions[n].addr = elf->stubs[0].addr;
		m->regions[n++].size = elf->nstubs * EH_ELF_STUB_SIZE;
	}
	m->nregions = n;
	for (i = 0; i < n; i++) {
		struct region *r = &m->regions[i];

		r->raw = eh_alloc(r->size + EH_PAGE);
		if (!r->raw)
			return eh_error_set(err, EH_ENOMEM, "out of memory for 0x%" PRIx64 " bytes at 0x%016" PRIx64,
					    r->size, r->addr);
		r->host = (uint8_t *)(((uintptr_t)r->raw + EH_PAGE - 1) & ~(uintptr_t)(EH_PAGE - 1));
	}
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (m->img->data[i]) {
			memcpy(host_ptr(m, s->addr, s->size), m->img->data[i], s->size);
			screen_code(m, s->addr, s->size);
		}
	}
	for (i = 0; i < EH_PAGE; i += 4)  /* BRK #0: never executed, EH_RETURN_ADDR ends the run */
		memcpy(host_ptr(m, EH_RETURN_ADDR + i, 4), &(uint32_t){ 0xd4200000 }, 4);
	return 0;
}

static int thread_init(struct eh_machine *m, struct eh_thread *t, struct eh_error *err)
{
	uc_hook h;
	uc_err e;
	size_t i;

	e = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &t->uc);
	if (e != UC_ERR_OK) {
		t->uc = NULL;
		return uc_fail(err, e, "uc_open", 0);
	}
	e = uc_ctl_set_cpu_model(t->uc, m->model->uc_cpu);
	if (e != UC_ERR_OK)
		return uc_fail(err, e, "setting the CPU model", 0);
	for (i = 0; i < m->nregions; i++) {
		e = uc_mem_map_ptr(t->uc, m->regions[i].addr, m->regions[i].size, UC_PROT_ALL,
				   m->regions[i].host);
		if (e != UC_ERR_OK)
			return uc_fail(err, e, "mapping memory", m->regions[i].addr);
	}
	/* Hooks go in before the first uc_emu_start: later ones may miss translated code. */
	if ((e = uc_hook_add(t->uc, &h, UC_HOOK_CODE, on_code, t, 1, 0)) ||
	    (e = uc_hook_add(t->uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_mem, t, 1, 0)) ||
	    (e = uc_hook_add(t->uc, &h, UC_HOOK_MEM_UNMAPPED, on_unmapped, t, 1, 0)) ||
	    (e = uc_hook_add(t->uc, &h, UC_HOOK_INTR, on_intr, t, 1, 0)) ||
	    (e = uc_hook_add(t->uc, &h, UC_HOOK_INSN, on_mrs, t, 1, 0, UC_ARM64_INS_MRS)) ||
	    (m->opts.hooks->sys &&
	     (e = uc_hook_add(t->uc, &h, UC_HOOK_INSN, on_sys, t, 1, 0, UC_ARM64_INS_SYS))))
		return uc_fail(err, e, "adding hooks", 0);
	return 0;
}

int eh_machine_new(struct eh_machine **out, const struct eh_model *model, const struct eh_image *img,
		   const struct eh_machine_opts *opts, struct eh_error *err)
{
	struct eh_machine *m;
	const struct eh_erratum *const *e;
	unsigned i;
	int rc = 0;

	*out = NULL;
	if (model->threads_per_core < 1 || model->threads_per_core > EH_MAX_THREADS)
		return eh_error_set(err, EH_EINVAL, "model %s: %u threads per core (1 to %d supported)",
				    model->name, model->threads_per_core, EH_MAX_THREADS);
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
	m->hcr = el2_slot(m, EH_HCR_EL2);  /* the first slot of an empty file */
	for (e = eh_errata; *e && !rc; e++) {
		if (!(*e)->behaviour)
			continue;
		if (m->nactive == EH_MACHINE_ERRATA_MAX) {
			rc = eh_error_set(err, EH_EINPUT, "model %s: more than %d errata act on it", model->name,
					  EH_MACHINE_ERRATA_MAX);
			break;
		}
		m->want_insns |= (*e)->behaviour->insns;
		m->active[m->nactive].b = (*e)->behaviour;
		m->active[m->nactive].state = eh_alloc(EH_MAX_THREADS * (*e)->behaviour->thread_state + 1);
		if (!m->active[m->nactive++].state)
			rc = eh_error_set(err, EH_ENOMEM, "out of memory for the state of erratum %s", (*e)->id);
	}
	if (!rc)
		rc = eh_decoder_new(&m->dec, err);
	if (rc)
		goto fail;
	rc = map_image(m, err);
	if (rc)
		goto fail;
	m->nthreads = model->threads_per_core;
	for (i = 0; i < m->nthreads; i++) {
		m->threads[i].m = m;
		m->threads[i].id = i;
		rc = thread_init(m, &m->threads[i], err);
		if (rc)
			goto fail;
	}
	*out = m;
	return 0;
fail:
	eh_machine_free(m);
	return rc;
}

void eh_machine_free(struct eh_machine *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].uc)
			uc_close(m->threads[i].uc);
	for (i = 0; m->regions && i < m->nregions; i++)
		eh_free(m->regions[i].raw);
	eh_free(m->regions);
	eh_decoder_free(m->dec);
	eh_free(m->trace.events);
	eh_free(m->call_args);
	for (i = 0; i < m->nactive; i++)
		eh_free(m->active[i].state);
	eh_free(m);
}

int eh_machine_start(struct eh_machine *m, unsigned tid, uint64_t addr, const uint64_t *args,
		     unsigned nargs, struct eh_error *err)
{
	struct eh_thread *t;
	const struct eh_elf_section *sec;
	uint64_t sp, lr = EH_RETURN_ADDR;
	unsigned i;
	struct eh_event ev;

	if (tid >= m->nthreads)
		return eh_error_set(err, EH_EINVAL, "model %s has no thread %u (it has %u)",
				    m->model->name, tid, m->nthreads);
	if (nargs > 8)
		return eh_error_set(err, EH_EINVAL, "at most 8 arguments (x0..x7), got %u", nargs);
	t = &m->threads[tid];
	if (t->running)
		return eh_error_set(err, EH_EINVAL, "thread %u is already running", tid);
	memset(&t->res, 0, sizeof(t->res));
	t->stop_req = EH_STOP_NONE;
	t->break_req = t->abort_pending = t->window_open = t->after_pending = t->skip_req = false;
	t->cur = NULL;
	t->hyp_req = HYP_NONE;
	sec = eh_elf_section_at(m->img->elf, addr);
	t->el2 = sec && !strcmp(sec->name, EH_HYP_SECTION);
	t->sp_el1 = EH_STACK_TOP - tid * EH_STACK_SIZE;
	sp = t->el2 ? EH_HYP_FRAME(tid) : t->sp_el1;
	for (i = 0; i < nargs; i++)
		uc_reg_write(t->uc, xreg_id(i), &args[i]);
	if (uc_reg_write(t->uc, UC_ARM64_REG_X30, &lr) || uc_reg_write(t->uc, UC_ARM64_REG_SP, &sp) ||
	    uc_reg_write(t->uc, UC_ARM64_REG_PC, &addr))
		return eh_error_set(err, EH_EEMU, "unicorn: cannot set up thread %u", tid);
	t->running = true;
	t->res.started = true;
	ev = (struct eh_event){ .kind = EH_EV_START, .thread = (uint8_t)tid, .pc = addr };
	emit(m, &ev);
	return 0;
}

static int run_slice(struct eh_machine *m, struct eh_thread *t, size_t count, struct eh_error *err)
{
	uint64_t pc = read_reg(t, UC_ARM64_REG_PC);
	uc_err e;

	if (t->abort_pending) {
		t->abort_pending = false;
		t->cur = NULL;
		take_exception(t, ESR_ELx((read_reg(t, UC_ARM64_REG_PSTATE) >> 2 & 3) ? ESR_EC_DABT_CUR
										 : ESR_EC_DABT_LOW,
					  DFSC_TRANSLATION_L3 | (t->abort_wnr ? ESR_ISS_WNR : 0)),
			       t->abort_far, pc);
		if (t->stop_req) {
			finish(t, t->stop_req, pc);
			return 0;
		}
		pc = read_reg(t, UC_ARM64_REG_PC);
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
		pc = read_reg(t, UC_ARM64_REG_PC);
	}
	if (pc == EH_RETURN_ADDR) {
		finish(t, EH_STOP_RETURNED, pc);
		return 0;
	}
	t->stop_req = EH_STOP_NONE;
	t->fault_addr = 0;
	e = uc_emu_start(t->uc, pc, EH_RETURN_ADDR, 0, count);
	if (m->hook_rc) {
		if (err)
			*err = m->hook_err;
		return m->hook_rc;
	}
	pc = read_reg(t, UC_ARM64_REG_PC);
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
					       read_reg(&m->threads[i], UC_ARM64_REG_PC));
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

const struct eh_insn *eh_machine_insn(struct eh_machine *m, uint64_t addr)
{
	const uint8_t *p = host_ptr(m, addr, 4);

	if (!p)
		return NULL;
	return eh_decoder_get(m->dec, addr,
			      (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

int eh_machine_read(struct eh_machine *m, uint64_t addr, void *buf, size_t len, struct eh_error *err)
{
	const uint8_t *p = host_ptr(m, addr, len);

	if (!p)
		return eh_error_set(err, EH_ENOENT, "0x%016" PRIx64 "+%zu is not mapped", addr, len);
	memcpy(buf, p, len);
	return 0;
}

int eh_machine_write(struct eh_machine *m, uint64_t addr, const void *buf, size_t len,
		     struct eh_error *err)
{
	size_t done, n;
	unsigned i;

	/* Page by page: the range may span regions (a section and the zero pages after it). */
	for (done = 0; done < len; done += n) {
		n = (size_t)(EH_PAGE - ((addr + done) & (EH_PAGE - 1)));
		if (n > len - done)
			n = len - done;
		if (!host_ptr(m, addr + done, n))
			return eh_error_set(err, EH_ENOENT, "0x%016" PRIx64 "+%zu is not mapped", addr, len);
	}
	for (done = 0; done < len; done += n) {
		n = (size_t)(EH_PAGE - ((addr + done) & (EH_PAGE - 1)));
		if (n > len - done)
			n = len - done;
		memcpy(host_ptr(m, addr + done, n), (const uint8_t *)buf + done, n);
	}
	screen_code(m, addr, len);
	/* Code may have been written: drop what the threads translated from it. */
	for (i = 0; i < m->nthreads; i++)
		uc_ctl_remove_cache(m->threads[i].uc, addr & ~(EH_PAGE - 1),
				    (addr + len + EH_PAGE - 1) & ~(EH_PAGE - 1));
	return 0;
}

int eh_machine_map_zero(struct eh_machine *m, uint64_t addr, size_t len, struct eh_error *err)
{
	uint64_t page, end = addr + len;

	if (!len)
		return 0;
	if (end < addr)
		return eh_error_set(err, EH_EINVAL, "0x%016" PRIx64 "+%zu wraps around", addr, len);
	for (page = addr & ~(EH_PAGE - 1); page < end && page >= (addr & ~(EH_PAGE - 1)); page += EH_PAGE) {
		int rc = host_ptr(m, page, 1) ? 0 : map_zero_page(m, page);

		if (rc)
			return eh_error_set(err, rc, "cannot map a page at 0x%016" PRIx64 ": %s", page,
					    rc == EH_EINVAL ? "past the most zero pages a run maps"
					    : rc == EH_ENOMEM ? "out of memory" : "unicorn failed");
	}
	return 0;
}

const uint64_t *eh_machine_call_args(const struct eh_machine *m, const struct eh_event *ev)
{
	if (ev->kind != EH_EV_STUB_CALL || ev->count >= m->ncalls)
		return NULL;
	return m->call_args[ev->count];
}

uint64_t eh_machine_xreg(struct eh_machine *m, unsigned t, unsigned n)
{
	return read_reg(&m->threads[t % m->nthreads], xreg_id(n));
}

void eh_machine_set_xreg(struct eh_machine *m, unsigned t, unsigned n, uint64_t value)
{
	uc_reg_write(m->threads[t % m->nthreads].uc, xreg_id(n), &value);
}

uint64_t eh_machine_pc(struct eh_machine *m, unsigned t)
{
	return read_reg(&m->threads[t % m->nthreads], UC_ARM64_REG_PC);
}

int eh_machine_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t *value)
{
	uc_arm64_cp_reg cp = {
		.op0 = EH_SYSREG_OP0(sysreg), .op1 = EH_SYSREG_OP1(sysreg), .crn = EH_SYSREG_CRN(sysreg),
		.crm = EH_SYSREG_CRM(sysreg), .op2 = EH_SYSREG_OP2(sysreg),
	};

	if (uc_reg_read(m->threads[t % m->nthreads].uc, UC_ARM64_REG_CP_REG, &cp) != UC_ERR_OK)
		return EH_EEMU;
	*value = cp.val;
	return 0;
}

int eh_machine_set_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t value)
{
	return write_cp(&m->threads[t % m->nthreads], sysreg, value) ? EH_EEMU : 0;
}

void eh_machine_trace_clear(struct eh_machine *m)
{
	m->trace.n = 0;
	m->trace.dropped = 0;
}

uint64_t eh_machine_el2_get(const struct eh_machine *m, uint32_t sysreg)
{
	unsigned i;

	for (i = 0; i < EH_EL2_REGS && m->el2[i].reg; i++)
		if (m->el2[i].reg == sysreg)
			return m->el2[i].value;
	return 0;
}

void eh_machine_el2_set(struct eh_machine *m, uint32_t sysreg, uint64_t value)
{
	uint64_t *slot = el2_slot(m, sysreg);

	if (slot)
		*slot = value;
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

/* The engine: one emulated core (one Unicorn instance per hardware thread) running a snippet, with its trace. */
#ifndef EH_MACHINE_H
#define EH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/error.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/model.h"
#include "eh/sys/behaviour.h"

/* The address a snippet returns to (x30 on entry): reaching it ends the thread's run. */
#define EH_RETURN_ADDR 0xffffffffdead0000ull
/* Each thread's stack: EH_STACK_SIZE bytes below EH_STACK_TOP - thread * EH_STACK_SIZE. */
#define EH_STACK_TOP 0xffff7ffff0000000ull
#define EH_STACK_SIZE 0x10000ull

/*
 * Virtual EL2. Unicorn has no EL2 (reference/emulator-facts.md), so hypervisor
 * code runs at Unicorn's EL1 in a per-thread "virtual EL2 mode": its EL2 register
 * accesses go to the virtual register file, it has its own stack, and its ERET
 * returns to ELR_EL2/SPSR_EL2. A thread started at an address in section
 * EH_HYP_SECTION (where KVM puts its EL2 code, __hyp_text) starts in that mode.
 *
 * A guest (EL1) access that HCR_EL2 traps (TVM: writes, TRVM: reads of the VM
 * registers) enters EL2 at VBAR_EL2 + 0x400 with ESR_EL2, ELR_EL2 and SPSR_EL2
 * set; the guest's x0..x30 are saved in the thread's frame (EH_HYP_FRAME), like
 * KVM's vcpu context, and the vector gets x0 = the frame and x30 = EH_HYP_HOST_ADDR.
 * The hypervisor either returns to the guest with ERET (x0..x30 are restored from
 * the frame), or exits to the host by returning to x30: the engine's host then
 * emulates the trapped access (its slow path, an EH_EV_HYP_SLOW event), skips
 * the instruction and re-enters the guest. A virtual SError pending in HCR_EL2.VSE
 * (with AMO) is taken by the guest at VBAR_EL1 + 0x180 + the usual offset once
 * PSTATE.A is clear, which clears VSE.
 */
#define EH_HYP_SECTION ".hyp.text"
/* Each thread's EL2 stack, below the EL1 stacks past an unmapped guard as large as they are. */
#define EH_HYP_STACK_TOP (EH_STACK_TOP - 2 * EH_MAX_THREADS * EH_STACK_SIZE)
#define EH_HYP_FRAME_SIZE 0x100ull  /* x0..x30, 8 bytes each, rounded to keep SP aligned */
#define EH_HYP_FRAME(thread) (EH_HYP_STACK_TOP - (thread) * EH_STACK_SIZE - EH_HYP_FRAME_SIZE)
#define EH_HYP_HOST_ADDR (EH_RETURN_ADDR + 0x800)

enum eh_stop {
	EH_STOP_NONE,
	EH_STOP_RETURNED,   /* reached EH_RETURN_ADDR */
	EH_STOP_BUDGET,     /* ran out of its instruction budget */
	EH_STOP_FAULT,      /* touched memory that is not mapped: addr */
	EH_STOP_EXCEPTION,  /* an exception with no vectors to take it, or opts.stop_at_exception */
	EH_STOP_LEFT_RANGE, /* fetched outside the image's code */
	EH_STOP_TIMEOUT,    /* the wall-clock limit backing the budget */
	EH_STOP_UNTIL,      /* reached opts.until */
	EH_STOP_ERET,       /* an ERET, with opts.stop_at_eret */
};

struct eh_trace {
	struct eh_event *events;
	size_t n, cap;
	size_t dropped;     /* events past the cap, counted but not kept */
};

/* How a thread's run ended. Its registers as it stopped are eh_machine_xreg's, read when asked. */
struct eh_thread_result {
	bool started;
	enum eh_stop stop;
	uint64_t pc;        /* where it stopped */
	uint64_t addr;      /* EH_STOP_FAULT: the address touched */
	uint64_t executed;  /* instructions */
};

/*
 * What a case adds to the machine: the parts of the kernel or firmware it
 * models in C rather than in the snippet. Each returns true when it handled
 * the instruction; execution then continues after it.
 */
struct eh_machine_hooks {
	/* SVC #imm: a call from the snippet into the harness (x0..x7 in, x0 out). */
	bool (*svc)(struct eh_machine *m, unsigned thread, uint16_t imm, void *ctx);
	/* An UNDEFINED instruction that is not an EL2 register access, e.g. an EL0 MRS of an ID register. */
	bool (*undef)(struct eh_machine *m, unsigned thread, const struct eh_insn *insn, void *ctx);
	/* A SYS instruction (AT, DC, IC, TLBI), before Unicorn performs it. */
	bool (*sys)(struct eh_machine *m, unsigned thread, const struct eh_insn *insn, void *ctx);
	/* Every event as the engine records it, after the errata have seen it. */
	void (*event)(struct eh_machine *m, const struct eh_event *ev, void *ctx);
};

/* Instructions a thread runs before it is stopped, unless the options say otherwise. */
#define EH_DEFAULT_BUDGET 1000000ull

struct eh_machine_opts {
	uint64_t seed;          /* every random choice (victim thread) */
	uint64_t budget;        /* instructions per thread; 0 = EH_DEFAULT_BUDGET */
	uint64_t timeout_us;    /* wall clock for the whole run; 0 = default */
	size_t max_events;      /* trace cap; 0 = default */
	bool trace_insns;       /* record every instruction, for replay */
	/*
	 * On a system of cores: the core (its place in model->cores) whose threads come first, so
	 * that thread 0, where a scenario runs, is on it (the CPU it is pinned to); the other cores'
	 * threads follow in order. MPIDR_EL1 still numbers each core by its place. 0: the boot CPU.
	 */
	unsigned first_core;
	const struct eh_machine_hooks *hooks;
	void *hooks_ctx;
	/*
	 * For running a user's kernel code (exec) rather than a case; all off by
	 * default, so that cases keep their stop and fault semantics.
	 */
	uint64_t code_lo, code_hi;  /* when code_hi > code_lo: fetching outside [code_lo, code_hi) stops
	                               the thread (EH_STOP_LEFT_RANGE); stubs still return */
	uint64_t until;             /* non-zero: reaching this address stops the thread (EH_STOP_UNTIL) */
	bool stop_at_eret;          /* an ERET at EL1 stops the thread instead of returning (EH_STOP_ERET) */
	bool stop_at_exception;     /* an exception stops the thread even when a vector would take it */
	bool zero_fill;             /* a load or store outside every mapped region is served from a fresh
	                               zero page, shared by the threads (an EH_EV_PAGE event), up to
	                               EH_ZERO_PAGES_MAX pages; past them it faults */
};

#define EH_ZERO_PAGES_MAX 4096

int eh_machine_new(struct eh_machine **out, const struct eh_model *model, const struct eh_image *img,
		   const struct eh_machine_opts *opts, struct eh_error *err);
void eh_machine_free(struct eh_machine *m);

/*
 * Make thread t start at addr with x0..x7 = args (nargs of them) and x30 = EH_RETURN_ADDR.
 * A thread that has stopped may be started again (a sweep reuses one machine).
 */
int eh_machine_start(struct eh_machine *m, unsigned t, uint64_t addr, const uint64_t *args,
		     unsigned nargs, struct eh_error *err);
/* Run every started thread until all have stopped. */
int eh_machine_run(struct eh_machine *m, struct eh_error *err);

const struct eh_model *eh_machine_model(const struct eh_machine *m);
const struct eh_image *eh_machine_image(const struct eh_machine *m);
const struct eh_trace *eh_machine_trace(const struct eh_machine *m);
const struct eh_thread_result *eh_machine_result(const struct eh_machine *m, unsigned t);
/*
 * What the machine's runs have cost the engine so far, in calls rather than time, so that a test
 * can bound it: a scenario's cost is linear in the instructions it executes.
 */
struct eh_machine_cost {
	uint64_t emu_starts;    /* uc_emu_start calls */
	uint64_t engines;       /* Unicorn instances created */
	uint64_t cache_drops;   /* ranges of translated code dropped (after eh_machine_write) */
	uint64_t kept_code;     /* engines that came with an earlier machine's image regions mapped
	                           at the same places, and what they translated from the words that
	                           are still the same */
	uint64_t tb_flushes;    /* whole-cache flushes Unicorn 2.0.1 makes: a uc_emu_start without
	                           an instruction count after one with a count (see run_slice) */
};
const struct eh_machine_cost *eh_machine_cost(const struct eh_machine *m);
/* Map zero pages over whatever of [addr, addr + len) is not mapped yet (before a run: no events). */
int eh_machine_map_zero(struct eh_machine *m, uint64_t addr, size_t len, struct eh_error *err);
/* x0..x7 of an EH_EV_STUB_CALL event, or NULL for any other event. */
const uint64_t *eh_machine_call_args(const struct eh_machine *m, const struct eh_event *ev);
/* Set general-purpose register n (as eh_machine_xreg numbers them) of thread t. */
void eh_machine_set_xreg(struct eh_machine *m, unsigned t, unsigned n, uint64_t value);
/* The PC of thread t (inside an svc hook: the instruction after the SVC). */
uint64_t eh_machine_pc(struct eh_machine *m, unsigned t);
/* Set an EL0/EL1 system register of thread t, as eh_machine_sysreg reads it. */
int eh_machine_set_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t value);
/* Forget the events recorded so far (a sweep keeps only what it reports). */
void eh_machine_trace_clear(struct eh_machine *m);
/*
 * Whether the trace records the events from now on, as it does when a machine is made. The
 * errata and the hooks hear every event either way: a sweep judged by a tally of its own records
 * none of the runs it does not report.
 */
void eh_machine_trace_keep(struct eh_machine *m, bool keep);
/* The virtual EL2 register file (HCR_EL2, ESR_EL2, ...), shared by the core's threads. */
uint64_t eh_machine_el2_get(const struct eh_machine *m, uint32_t sysreg);
void eh_machine_el2_set(struct eh_machine *m, uint32_t sysreg, uint64_t value);

#define EH_MACHINE_ERRATA_MAX 16

const char *eh_stop_name(enum eh_stop stop);

/* "sym+0x1c: ldr x30, 0xffff..." for the instruction at pc, into buf. */
const char *eh_machine_where(struct eh_machine *m, uint64_t pc, char *buf, size_t len);
/* The event kind's name in JSON reports ("window_open"), "unknown" past the table. */
const char *eh_event_kind_name(unsigned kind);
/* One line describing ev (no thread or sequence prefix, no newline), into buf. */
const char *eh_event_format(struct eh_machine *m, const struct eh_event *ev, char *buf, size_t len);
struct eh_decoder *eh_machine_decoder(struct eh_machine *m);

/* What the TTBR windows of a trace held, summed over threads. */
struct eh_window_summary {
	unsigned windows;           /* opened */
	unsigned loads, stores, prefetches;  /* instructions inside a window, by kind */
	unsigned injected;          /* spurious aborts */
	unsigned taken;             /* ... of which a running thread took */
	unsigned hazards;           /* hazards the errata recorded (EH_EV_HAZARD) */
	int victim;                 /* thread of the first injection, -1 if none */
	int culprit_thread;
	uint64_t first_open_pc;     /* the first TTBR write */
	uint64_t first_access_pc[4];/* the first few accesses inside windows */
	unsigned nfirst;
};

void eh_trace_summarise(const struct eh_trace *tr, struct eh_window_summary *out);

/* How many hazards erratum e recorded in tr (EH_EV_HAZARD events naming it); *first the first, or NULL. */
size_t eh_trace_hazards(const struct eh_trace *tr, const struct eh_erratum *e, const struct eh_event **first);

/* What the virtual EL2 did in a trace: traps taken and who handled them. */
struct eh_hyp_summary {
	unsigned traps;             /* guest accesses trapped to EL2 */
	unsigned fast;              /* ... the hypervisor handled and returned from with its ERET */
	unsigned slow;              /* ... it declined, so the host's slow path handled them */
	unsigned vserrors;          /* virtual SErrors the guest took */
	uint64_t first_trap_pc;     /* the first trapped instruction */
	uint64_t first_trap_esr;
	uint64_t first_slow_pc;     /* the first instruction the slow path handled */
	uint64_t first_vserror_pc;
};

void eh_trace_summarise_hyp(const struct eh_trace *tr, struct eh_hyp_summary *out);

/*
 * A loop in a trace: events [start, start + period) happen again, back to back,
 * passes times in all (the first pass included), the same as the match says.
 */
struct eh_trace_loop {
	size_t start;
	size_t period;
	size_t passes;
};

/* The longest run of events a loop's pass may have. */
#define EH_TRACE_LOOP_MAX_PERIOD 128

/*
 * The loops of tr, in trace order and disjoint, so that a trace printed or drawn
 * with every loop's first pass only, and a count, loses nothing but repetition.
 * From each event, the shortest period that repeats is taken; a loop is reported
 * when folding it saves at least two events. *out (eh_free it) holds *n loops.
 */
enum eh_loop_match {
	EH_LOOP_SAME_EVENTS,    /* every field but sequence and instruction numbers: nothing is lost */
	EH_LOOP_SAME_PLACES,    /* the same kinds of event on the same threads at the same instructions;
	                           addresses and values may differ (a loop over a table) */
};

int eh_trace_loops(const struct eh_trace *tr, enum eh_loop_match match, struct eh_trace_loop **out,
		   size_t *n, struct eh_error *err);

#endif

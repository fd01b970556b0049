/*
 * What an erratum's dynamic behaviour sees of the engine and may do to it: the
 * architectural events, the behaviour's own table, the machine's state it may
 * read and the effects it may have (harness/src/engine/machine*.c).
 */
#ifndef EH_SYS_BEHAVIOUR_H
#define EH_SYS_BEHAVIOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/error.h"
#include "eh/insn.h"
#include "eh/model.h"

/* One emulated core or system of cores running a snippet (eh/machine.h). */
struct eh_machine;

enum eh_event_kind {
	EH_EV_START,        /* pc: entry */
	EH_EV_INSN,         /* pc: an instruction executed (only with opts.trace_insns) */
	EH_EV_SYSREG_WRITE, /* sysreg, value */
	EH_EV_SYSREG_READ,  /* sysreg, value: served by the model (identity/ID registers) */
	EH_EV_EL2_ACCESS,   /* sysreg, value, flags = EH_INSN_MSR/MRS: trapped to the virtual EL2 file */
	EH_EV_CTX_SYNC,     /* flags: the instruction class (ISB, ERET) */
	EH_EV_ACCESS,       /* flags: LOAD/STORE/PREFETCH; addr, size, value; in_window */
	EH_EV_WINDOW_OPEN,  /* sysreg: which TTBR; value */
	EH_EV_WINDOW_CLOSE, /* pc: what closed it (flags: its class); count: accesses in the window;
	                       the first one: value = its pc, addr = the address it accessed, aflags */
	EH_EV_INJECT,       /* victim, taken; the culprit access: pc, addr (its data address), flags */
	EH_EV_EXCEPTION,    /* esr, addr = FAR, value = vector address (0 = not taken); count = 1 when
	                       opts.stop_at_exception stopped the thread instead of entering its vector */
	EH_EV_STOP,         /* stop: why; pc */
	EH_EV_SCREENED,     /* pc: a word replaced by UDF #0 before it ran; value: the word */
	EH_EV_EL2_ENTRY,    /* a guest access trapped: esr = ESR_EL2, pc = ELR_EL2, value = vector
	                       (0 = none installed); sysreg, flags (MSR/MRS): the access */
	EH_EV_EL2_RETURN,   /* back to the guest: pc = ELR_EL2, value = SPSR_EL2; flags = EH_INSN_ERET
	                       for the hypervisor's own ERET, 0 for the host's re-entry */
	EH_EV_HYP_SLOW,     /* the host's slow path emulated the trapped access: esr, sysreg, value,
	                       flags (MSR/MRS) */
	EH_EV_VSERROR,      /* pc: the guest took the virtual SError pending in HCR_EL2.VSE (cleared) */
	EH_EV_PAGE,         /* opts.zero_fill: addr = a zero page mapped for the access of the instruction
	                       at pc; flags = LOAD/STORE */
	EH_EV_STUB_CALL,    /* a call to the stub of an undefined symbol (eh_elf_bind_stubs): pc = the stub,
	                       addr = the return address; eh_machine_call_args() has x0..x7 */
	EH_EV_BARRIER,      /* DSB or DMB (flags): value = its option (EH_BARRIER_*) */
	EH_EV_SYS,          /* TLBI, DC, IC or AT (flags): sysreg = the operation (bits 20:5 of the
	                       word), value = its operand register */
	EH_EV_HAZARD,       /* an erratum's hazard met (eh_machine_hazard): erratum, pc, addr, value */
};

/* A kind in eh_behaviour.events. */
#define EH_EV_BIT(kind) (1u << (kind))

struct eh_event {
	uint32_t seq;
	uint8_t kind;       /* enum eh_event_kind */
	uint8_t thread;
	uint8_t victim;     /* EH_EV_INJECT */
	uint8_t size;       /* EH_EV_ACCESS */
	uint8_t in_window;  /* EH_EV_ACCESS: inside an open TTBR window */
	uint8_t stop;       /* EH_EV_STOP: enum eh_stop */
	uint8_t taken;      /* EH_EV_INJECT: the victim runs and will take it (else it is idle) */
	uint8_t el2;        /* the thread was in virtual EL2 mode */
	uint8_t erratum;    /* WINDOW_*, INJECT, HAZARD: 1 + its index in eh_errata (eh_event_erratum) */
	uint32_t flags;     /* enum eh_insn_flag of the instruction involved */
	uint32_t sysreg;
	uint32_t count;     /* WINDOW_CLOSE: accesses held; ACCESS: instruction number on its thread */
	uint32_t aflags;    /* WINDOW_CLOSE: enum eh_insn_flag of the window's first access */
	uint64_t pc, addr, value, esr;
};

/*
 * An erratum's dynamic behaviour (struct eh_erratum's .behaviour): what it does
 * on the engine's architectural events, with state of its own for each hardware
 * thread (thread_state bytes, zeroed when the machine is made). It runs on every
 * machine: it marks its hazards (windows, eh_machine_hazard) on any model, so a
 * run on a CPU it does not affect shows the hazard as benign, and has effects
 * (the functions below) only where it shows (eh_erratum_shows).
 */
struct eh_behaviour {
	const char *summary;  /* what it does, in one line (list --errata, the table of docs/errata.md) */
	size_t thread_state;
	bool insns;         /* it follows every instruction: EH_EV_INSN events (addr = the word) reach it,
	                       recorded in the trace or not */
	/*
	 * With insns, the instructions whose EH_EV_INSN events reach it, by address and word (NULL:
	 * every one); it sees the others through eh_machine_ran. Asked once for each instruction
	 * decoded, not each run, so that following sequences costs nothing where they cannot end.
	 */
	bool (*wants)(uint64_t pc, uint32_t word);
	uint32_t events;    /* the kinds it hears, EH_EV_BIT(kind) each (EH_EV_INSN only with insns);
	                       0: every kind */
	uint32_t accesses;  /* with EH_EV_ACCESS: the accesses it hears, of EH_INSN_LOAD, EH_INSN_STORE
	                       and EH_INSN_PREFETCH (0: all three), so that the others cost it no call */
	bool gated;         /* with EH_EV_ACCESS: its thread state starts with a bool, true while a
	                       hazard is due at the next access; the accesses made while it is false
	                       do not reach it (a behaviour waiting for nothing costs them no call) */
	/*
	 * With EH_EV_SYSREG_WRITE: the system registers (EH_SYSREG encodings) whose writes reach it
	 * (NULL: every one's). Asked once a machine for each register written, not each write.
	 */
	bool (*writes)(uint32_t sysreg);
	/* state: the thread_state bytes of ev->thread. */
	void (*on_event)(struct eh_machine *m, void *state, const struct eh_event *ev);
};

struct eh_erratum;

/* The erratum an event names (WINDOW_*, INJECT, HAZARD), or NULL. */
const struct eh_erratum *eh_event_erratum(const struct eh_event *ev);

/*
 * A hazard window of erratum e on the thread of event at (its pc, sysreg and value name what
 * opened it), up to eh_machine_window_close: the loads, stores and prefetches the thread
 * makes in it, at the level it was opened at (virtual EL2 or not), are marked (in_window) and
 * counted, and the close event names the first. Opening one already open does nothing; the
 * engine closes it at the end of the run (why 0).
 */
void eh_machine_window_open(struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *at);
void eh_machine_window_close(struct eh_machine *m, unsigned thread, uint32_t why);
/* Record that erratum e's hazard was met at event at (an EH_EV_HAZARD event, value its own). */
void eh_machine_hazard(struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *at,
		       uint64_t value);
/*
 * An instruction a thread ran: its address, its word and the decoder's EH_INSN_* flags, and the
 * bytes its loads and stores touched, [lo, hi) (empty when none), with their kinds in aflags
 * (EH_INSN_LOAD / _STORE).
 */
struct eh_ran {
	uint64_t pc;
	uint32_t word, flags;
	uint64_t lo, hi;
	uint32_t aflags;
};

#define EH_RAN_KEPT 4
/*
 * What thread ran back instructions before the one running now (0: that one; zeros before the
 * machine's first), kept since the machine was made, or NULL past EH_RAN_KEPT - 1.
 */
const struct eh_ran *eh_machine_ran(const struct eh_machine *m, unsigned thread, unsigned back);
/*
 * The loads and stores (not prefetches) a thread has made since the machine was made, counted as
 * their EH_EV_ACCESS events are, each counted before it is heard: how many of each, and the PC of
 * the latest (0: none). A behaviour that asks only whether one came since a point of its own, and
 * where the last was, reads these there instead of hearing every access.
 */
struct eh_accessed {
	uint64_t loads, stores;
	uint64_t load_pc, access_pc;  /* the latest load; the latest load or store */
};

const struct eh_accessed *eh_machine_accessed(const struct eh_machine *m, unsigned thread);
/* On an EH_EV_INSN event: the instruction does not run (a dropped write); the thread goes on after it. */
void eh_machine_skip(struct eh_machine *m, unsigned thread);
/* On an EH_EV_INSN event: once the instruction has run, x<reg> holds value instead (a corrupted result). */
void eh_machine_set_after(struct eh_machine *m, unsigned thread, unsigned reg, uint64_t value);

/* The machine's generator, seeded by its options: every random choice a behaviour makes (a victim thread). */
uint64_t eh_machine_random(struct eh_machine *m);
/* The access an injected abort blames. */
struct eh_culprit {
	unsigned thread;
	uint64_t pc;        /* the instruction */
	uint64_t va;        /* the address it accessed */
	uint32_t flags;     /* EH_INSN_LOAD / _STORE / _PREFETCH */
};

/*
 * Deliver a spurious Data Abort blamed on culprit to thread victim, as a Data
 * Abort reports an access (Arm ARM D17.2.40, ESR_ELx ISS for Data Aborts): FAR =
 * the access's virtual address, WnR set for a store. A prefetch never aborts
 * architecturally; one blamed anyway reports its address with WnR clear.
 */
void eh_machine_inject_abort(struct eh_machine *m, const struct eh_erratum *e, unsigned victim,
			     const struct eh_culprit *culprit);

/* What a behaviour may read of the machine. */
unsigned eh_machine_threads(const struct eh_machine *m);
/* The core hardware thread tid belongs to (the model, or one of a system's cores); NULL when there is none. */
const struct eh_model *eh_machine_thread_core(const struct eh_machine *m, unsigned tid);
/* The decoded instruction at addr in the machine's memory (for reports). */
const struct eh_insn *eh_machine_insn(struct eh_machine *m, uint64_t addr);
int eh_machine_read(struct eh_machine *m, uint64_t addr, void *buf, size_t len, struct eh_error *err);
int eh_machine_write(struct eh_machine *m, uint64_t addr, const void *buf, size_t len,
		     struct eh_error *err);
/*
 * General-purpose register n (0..30; 31 = SP) of thread t: now, or after a run, as the thread
 * stopped (the engine keeps them; nothing reads them at the stop).
 */
uint64_t eh_machine_xreg(struct eh_machine *m, unsigned t, unsigned n);
/* An EL0/EL1 system register of thread t, through Unicorn (EH_SYSREG() encoding). */
int eh_machine_sysreg(struct eh_machine *m, unsigned t, uint32_t sysreg, uint64_t *value);

#endif

/* What the engine's files share: the machine and its threads, and the functions each role offers the others. */
#ifndef EH_MACHINE_INTERNAL_H
#define EH_MACHINE_INTERNAL_H

#include "eh/machine.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#include "eh/erratum.h"
#include "eh/sysreg.h"

#define EH_DEFAULT_TIMEOUT_US 10000000ull
#define EH_DEFAULT_MAX_EVENTS 1000000u
#define EH_EL2_REGS 32
#define EH_PAGE 0x1000ull
#define EH_MAX_SECTION (1ull << 30)
#define EH_EV_KINDS (EH_EV_HAZARD + 1)
/* The hearer lists (struct eh_machine's hear): one a kind, loads on EH_EV_ACCESS's, then stores' and prefetches'. */
enum { EH_HEAR_STORES = EH_EV_KINDS, EH_HEAR_PREFETCHES, EH_HEAR_LISTS };
#define EH_RECENT_INSNS 2048u  /* a power of two: 8 KiB of code without two sharing a slot */
#define EH_WRITERS_CACHED 16u   /* a power of two */

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
	uint8_t *host;      /* page-aligned view of raw, or a part of the machine's fixed block */
	void *raw;          /* NULL for the fixed regions */
	bool fixed;         /* at an address every machine maps (see eh_machine__fixed_take) */
};

/*
 * The image's regions an engine keeps mapped when it goes back to the pool, with their memory and
 * what Unicorn translated from them: translating a snippet again is a tenth of a matrix run, and
 * the matrix runs each snippet on every model in turn. The next machine that maps the same
 * regions takes that memory over (eh_machine__adopt); only its executable sections and stubs whose
 * words differ lose their translations.
 */
#define EH_KEPT_REGIONS 4  /* a snippet has one or two: code and data, and the stubs */
struct kept_code {
	struct region regions[EH_KEPT_REGIONS];  /* held in place: freeing a machine allocates nothing */
	size_t n;
};

/*
 * A Unicorn instance and what it keeps from one machine to the next (machine.c's pool): its CPU
 * state when new, for the reset, the regions it keeps mapped, and its hooks. Unicorn 2.0.1 drops
 * every block it translated under a hook when the hook is deleted, so the hooks stay on the
 * engine for its life; they are given the engine, which names the thread it runs for.
 */
struct engine {
	uc_engine *uc;
	int cpu;                    /* UC_CPU_ARM64_* */
	uc_context *fresh;
	const uint8_t *fixed;       /* the fixed block it maps at the fixed regions, or NULL */
	struct kept_code kept;      /* in the pool: the image regions it keeps mapped */
	bool stepped;               /* has run with an instruction count (see run_slice) */
	struct eh_thread *t;        /* the thread it runs for; NULL in the pool */
};

/*
 * The regions at the addresses every machine maps, in one page-aligned block: virtual EL2's
 * stacks, then the threads' stacks (adjacent, below EH_STACK_TOP), then the return page.
 */
#define EH_FIXED_HYP_STACKS 0ull
#define EH_FIXED_STACKS (EH_MAX_THREADS * EH_STACK_SIZE)
#define EH_FIXED_RETURN (2 * EH_MAX_THREADS * EH_STACK_SIZE)
#define EH_FIXED_SIZE (EH_FIXED_RETURN + EH_PAGE)

struct eh_thread {
	struct eh_machine *m;
	unsigned id;
	const struct eh_model *core;  /* the core it belongs to: the model, or one of a system's cores */
	uint64_t mpidr;               /* its MPIDR_EL1 */
	struct engine *eng;         /* its engine, taken when it first runs or is looked at */
	uc_engine *uc;              /* eng's Unicorn instance, NULL without one */
	size_t nmapped;             /* how many of m->regions the engine maps */
	struct eh_thread_result res;
	bool running;
	bool at_start;              /* started, not run yet: its PC is start_pc, which uc_emu_start sets */
	uint64_t start_pc;
	bool counted;               /* its last uc_emu_start had a count */
	uint32_t hook_calls;        /* calls of step, for looking at the clock now and then (clock_due) */
	uint64_t clock_at;          /* ... and the instruction count it is looked at next */
	uint64_t fast_until;        /* on_code runs an instruction alone below it: clock_at or the budget */
	enum eh_stop stop_req;      /* set by a hook that called uc_emu_stop */
	/*
	 * What the code hook must see to before the next instruction, tested at once (attention):
	 * each is set where it is asked for and cleared where it is seen to.
	 */
	union {
		struct {
			bool break_req;     /* stop before the next instruction (pending abort) */
			bool after_pending; /* a register an erratum corrupts (eh_machine_set_after) */
			bool eret_ran;      /* the instruction run last was an ERET, for eh_machine__complete_eret */
			bool el2;           /* in virtual EL2 mode (see machine.h) */
		};
		uint32_t attention;
	};
	bool skip_req;              /* an erratum drops the instruction about to run */
	bool abort_pending;
	uint64_t abort_far;
	bool abort_wnr;             /* the culprit wrote: ESR's WnR */
	uint64_t fault_addr;
	const struct eh_insn *cur;  /* the instruction executing now */
	uint16_t cur_wants;         /* the instruction followers its EH_EV_INSN event reaches (bits of hear[EH_EV_INSN]) */
	struct eh_ran ran[EH_RAN_KEPT];  /* what it ran, ran[nran % EH_RAN_KEPT] now (eh_machine_ran) */
	struct eh_accessed accessed;     /* eh_machine_accessed */
	unsigned nran;
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
	/* The register an erratum corrupts once the instruction now executing has run (after_pending). */
	unsigned after_reg;
	uint64_t after_value;
	/* Virtual EL2 (el2 above). */
	enum hyp_req hyp_req;
	uint64_t hyp_esr;           /* ESR_EL2 of the pending entry */
	uint64_t sp_el1;            /* the guest's stack pointer while the thread is at EL2 */
};

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
	struct eh_recent {
		const struct eh_insn *in;  /* NULL: none yet */
		const uint8_t *host;       /* where its word is in memory */
		uint16_t wants;            /* the followers its events reach */
		bool quiet;                /* no events, no followers, not opts.until: on_code's alone */
	} recent[EH_RECENT_INSNS];
	struct region *regions;
	size_t nregions;
	bool regions_mapped;        /* an engine maps them: no kept memory can take their place now */
	uint8_t *fixed;             /* the fixed regions' block: the host thread's shared one, or fixed_raw's */
	void *fixed_raw;            /* a block of its own, when another machine holds the shared one */
	struct eh_thread threads[EH_MAX_THREADS];
	unsigned nthreads;
	struct eh_trace trace;
	bool trace_paused;          /* eh_machine_trace_keep(m, false) */
	uint64_t rng;
	struct { uint32_t reg; uint64_t value; } el2[EH_EL2_REGS];
	uint64_t *hcr;              /* HCR_EL2 in el2[], read at every guest instruction */
	/* The errata that act here: the state of each for every thread (its thread_state bytes a thread). */
	uint8_t *state[EH_MACHINE_ERRATA_MAX];
	unsigned nactive;
	/*
	 * Those that hear each kind of event, in the table's order, EH_EV_INSN the ones that follow
	 * every instruction, and each kind of access its own (EH_HEAR_*): a load or store is then
	 * no call to errata that ignore it. Each is its behaviour with its state (one of state[]).
	 */
	struct eh_hearer {
		const struct eh_behaviour *b;
		uint8_t *state;
		size_t stride;  /* b's thread_state: a thread's state is at state + thread * stride */
		bool gated;     /* on an access list, of a .gated behaviour */
	} hear[EH_HEAR_LISTS][EH_MACHINE_ERRATA_MAX];
	uint8_t nhear[EH_HEAR_LISTS];
	bool ungated[EH_HEAR_LISTS];  /* a hearer of the list is not gated: an access always reaches it */
	/*
	 * The hearers of EH_EV_SYSREG_WRITE each register's writes reach (eh_behaviour.writes), as
	 * bits of hear[EH_EV_SYSREG_WRITE], for the registers last written; key: the register + 1.
	 */
	struct eh_writers { uint32_t key, mask; } writers[EH_WRITERS_CACHED];
	struct timespec deadline;
	struct eh_machine_cost cost;
	int hook_rc;                /* an error met inside a hook, reported by eh_machine_run */
	struct eh_error hook_err;
	size_t nzero;               /* zero pages mapped on demand (opts.zero_fill) */
	uint64_t (*call_args)[8];   /* x0..x7 of each stub call, indexed by the event's count */
	size_t ncalls, cap_calls;
};

/* The engine core (machine.c): Unicorn hooks, the trace, running and scheduling threads. */
int eh_machine__xreg_id(unsigned n);
uint64_t eh_machine__read_reg(struct eh_thread *t, int id);
int eh_machine__write_cp(struct eh_thread *t, uint32_t reg, uint64_t value);
void eh_machine__hook_fail(struct eh_machine *m, int code, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
void eh_machine__emit(struct eh_machine *m, struct eh_event *ev);
void eh_machine__request_stop(struct eh_thread *t, enum eh_stop why);

/* The memory (machine_memory.c): the image's regions, zero pages, screened words. */
uint8_t *eh_machine__host_ptr(struct eh_machine *m, uint64_t addr, uint64_t len);
bool eh_machine__on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
		void *user);
int eh_machine__map_image(struct eh_machine *m, struct eh_error *err);
/* Whether region i of m is the image's (a section's or the stubs'): not fixed, not a zero page. */
static inline bool eh_machine__image_region(const struct eh_machine *m, size_t i)
{
	return !m->regions[i].fixed && i < m->nregions - m->nzero;
}
bool eh_machine__keep(struct eh_machine *m, struct kept_code *kept);
bool eh_machine__kept_fits(const struct eh_machine *m, const struct kept_code *kept);
int eh_machine__adopt(struct eh_machine *m, uc_engine *uc, struct kept_code *kept);
uc_err eh_machine__kept_unmap(uc_engine *uc, const struct kept_code *kept);
void eh_machine__kept_free(struct kept_code *kept);
void eh_machine__fixed_release(struct eh_machine *m);

/* The exceptions (machine_exception.c): entry to EL1 vectors, ERET completion. */
void eh_machine__take_exception_to(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr,
		unsigned kind);
void eh_machine__take_exception(struct eh_thread *t, uint64_t esr, uint64_t far, uint64_t elr);
void eh_machine__complete_eret(struct eh_thread *t);

/* The errata (machine_errata.c): windows, hazards and effects errata ask for. */
void eh_machine__close_window(struct eh_thread *t, uint32_t why_flags);

/* The virtual EL2 (machine_el2.c): its register file, traps, KVM's host slow path, virtual SErrors. */
bool eh_machine__hcr_traps(struct eh_thread *t, const struct eh_insn *in);
bool eh_machine__vserror_due(struct eh_thread *t);
uint64_t *eh_machine__el2_slot(struct eh_machine *m, uint32_t reg);
bool eh_machine__emulate_el2(struct eh_thread *t, const struct eh_insn *in);
void eh_machine__enter_el2(struct eh_thread *t, uint64_t esr, uint64_t elr);
void eh_machine__leave_el2(struct eh_thread *t, uint32_t how);
void eh_machine__host_exit(struct eh_thread *t);
void eh_machine__take_vserror(struct eh_thread *t, uint64_t pc);

/* The stubs (machine_stub.c): calls to symbols an object does not define. */
void eh_machine__stub_return(struct eh_thread *t, uint64_t pc);

#endif

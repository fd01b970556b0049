/* Running fuzz input bytes as code, as the fuzz_snippet target does, and what a run may cost the engine. */
#ifndef EH_FUZZ_SNIPPET_H
#define EH_FUZZ_SNIPPET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/machine.h"

/* The fuzz target's instruction budget per thread, and its threads (they interleave). */
#define EH_SNIPPET_BUDGET 2000u
#define EH_SNIPPET_THREADS 2u
/* The most bytes of an input that become code: the body of `spin` and what follows it. */
#define EH_SNIPPET_MAX_BYTES 256u

struct eh_snippet_run {
	bool written;                 /* the bytes went in */
	bool left_running;            /* the run returned with a thread still running (a bug) */
	uint64_t executed;            /* instructions, over the threads */
	struct eh_machine_cost cost;
};

/*
 * A machine with opts on a ThunderX2 core over engine-tests.elf (loaded once), and the address of
 * its `spin` (`b spin` until written over): 0 or the machine's error; the process aborts when
 * the snippet cannot be loaded.
 */
int eh_snippet_machine(const struct eh_machine_opts *opts, struct eh_machine **m, uint64_t *spin);

/*
 * Run data (its first EH_SNIPPET_MAX_BYTES, whole words) as the body of `spin` in
 * engine-tests.elf on `threads` threads of a ThunderX2 core (SMT4), each from `spin`, under
 * EH_SNIPPET_BUDGET instructions a thread (out->written false if the machine or the write failed).
 */
void eh_snippet_run(const uint8_t *data, size_t size, unsigned threads, struct eh_snippet_run *out);

/*
 * The most uc_emu_start calls such a run may make: one per instruction while threads
 * interleave (each steps one at a time), and a few per thread for starting, stopping and
 * changing exception level. Linear in the instructions, whatever the bytes are.
 */
uint64_t eh_snippet_call_bound(const struct eh_snippet_run *r, unsigned threads);

#endif

/* A replay drawn as a self-contained SVG timeline. */
#ifndef EH_SVG_H
#define EH_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eh/case.h"
#include "eh/error.h"

/*
 * Write the trace of r as an SVG document to f: one lane per hardware thread,
 * one column per executed instruction in the order the threads interleaved
 * (disassembly in each cell's <title>), TTBR windows shaded from the write to
 * the event that closed them, loads, stores and prefetches coloured, injected
 * aborts drawn from the culprit instruction to the victim thread, exceptions,
 * traps to EL2, ISBs and ERETs marked. r must have run with trace_insns
 * (EH_EINVAL otherwise); a write error on f is EH_EIO.
 */
int eh_svg_timeline(FILE *f, struct eh_case_run *r, uint64_t seed, struct eh_error *err);

/* What the timeline's header says: a case's replay, or a run of a user's code (exec). */
struct eh_svg_header {
	const char *title;      /* the command that replays it (the document's <title>) */
	const char *heading;    /* what ran, where, and the seed */
	const char *desc;       /* one line about it */
	const char *status;     /* the verdict or how the run ended */
	bool bad;               /* status is a failure: drawn in red */
	const char *evidence;   /* clauses separated by "; ", each on its own lines */
};

/* The same timeline for any machine that ran with trace_insns. */
int eh_svg_draw(FILE *f, struct eh_machine *m, const struct eh_svg_header *h, struct eh_error *err);

#endif

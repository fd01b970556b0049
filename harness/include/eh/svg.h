/* A replay drawn as a self-contained SVG timeline. */
#ifndef EH_SVG_H
#define EH_SVG_H

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

#endif

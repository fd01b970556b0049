/*
 * Fuzz target: arbitrary bytes as code, run on an SMT4 ThunderX2 core under a small
 * instruction budget. Whatever the bytes do, the run must end with a verdict, and cost
 * the engine no more calls than its instructions allow (the per-input limit is a count).
 */
#include <stdio.h>
#include <stdlib.h>

#include "snippet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_snippet_run r;

	eh_snippet_run(data, size, EH_SNIPPET_THREADS, &r);
	if (r.left_running || r.cost.tb_flushes)
		abort();
	if (r.cost.emu_starts > eh_snippet_call_bound(&r, EH_SNIPPET_THREADS)) {
		fprintf(stderr, "fuzz_snippet: %llu engine calls for %llu instructions (at most %llu)\n",
			(unsigned long long)r.cost.emu_starts, (unsigned long long)r.executed,
			(unsigned long long)eh_snippet_call_bound(&r, EH_SNIPPET_THREADS));
		abort();
	}
	return 0;
}

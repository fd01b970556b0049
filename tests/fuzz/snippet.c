/* Runs fuzz input bytes as code on a ThunderX2 core, for the fuzz_snippet target and the engine's cost test. */
#include "snippet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/image.h"

/* The snippet with room for code, loaded once: the input replaces the body of `spin`. */
static struct eh_elf *elf;
static struct eh_image *img;
static uint64_t entry;

static void load_once(void)
{
	const char *dir = getenv("EH_CASES_DIR");
	char path[4096];

	if (elf)
		return;
	snprintf(path, sizeof(path), "%s/engine-tests.elf", dir ? dir : EH_CASES_DIR);
	if (eh_elf_open(&elf, path, NULL) ||
	    eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = eh_model_find("thunderx2") }, NULL) ||
	    eh_elf_resolve(elf, "spin", &entry, NULL))
		abort();  /* nothing can run without the snippet */
}

int eh_snippet_machine(const struct eh_machine_opts *opts, struct eh_machine **m, uint64_t *spin)
{
	load_once();
	*spin = entry;
	return eh_machine_new(m, eh_model_find("thunderx2"), img, opts, NULL);
}

void eh_snippet_run(const uint8_t *data, size_t size, unsigned threads, struct eh_snippet_run *out)
{
	struct eh_machine_opts opts = { .seed = 1, .budget = EH_SNIPPET_BUDGET, .timeout_us = 1000000 };
	struct eh_machine *m;
	uint64_t spin;
	unsigned t;
	int rc;

	memset(out, 0, sizeof(*out));
	if (size > EH_SNIPPET_MAX_BYTES)
		size = EH_SNIPPET_MAX_BYTES;
	size &= ~(size_t)3;
	if (eh_snippet_machine(&opts, &m, &spin))
		return;
	if (!eh_machine_write(m, spin, data, size, NULL)) {
		out->written = true;
		/* The threads run the same bytes, interleaved, so injections can cross threads. */
		for (t = 0; t < threads; t++)
			if (eh_machine_start(m, t, spin, NULL, 0, NULL))
				abort();
		rc = eh_machine_run(m, NULL);
		for (t = 0; t < threads; t++) {
			out->executed += eh_machine_result(m, t)->executed;
			out->left_running |= !rc && eh_machine_result(m, t)->stop == EH_STOP_NONE;
		}
	}
	out->cost = *eh_machine_cost(m);
	eh_machine_free(m);
}

uint64_t eh_snippet_call_bound(const struct eh_snippet_run *r, unsigned threads)
{
	return r->executed + 4ull * threads;
}

/*
 * Fuzz target: arbitrary bytes as code, run on an SMT4 ThunderX2 core under a small
 * instruction budget. Whatever the bytes do, the run must end with a verdict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eh/image.h"
#include "eh/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A snippet with room for code: the fuzz input replaces the body of `spin` and what follows. */
static struct eh_elf *elf;
static struct eh_image *img;
static uint64_t entry;

static void load_once(void)
{
	const char *dir = getenv("EH_CASES_DIR");
	char path[4096];

	if (elf)
		return;
	strcpy(path, dir ? dir : EH_CASES_DIR);
	strcat(path, "/engine-tests.elf");
	if (eh_elf_open(&elf, path, NULL) ||
	    eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = eh_model_find("thunderx2") }, NULL) ||
	    eh_elf_resolve(elf, "spin", &entry, NULL))
		abort();  /* the fuzzer cannot run without its snippet */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_machine_opts opts = { .seed = 1, .budget = 2000, .timeout_us = 1000000 };
	struct eh_machine *m;
	unsigned t;

	load_once();
	if (size > 256)
		size = 256;
	size &= ~(size_t)3;
	if (eh_machine_new(&m, eh_model_find("thunderx2"), img, &opts, NULL))
		return 0;
	if (!eh_machine_write(m, entry, data, size, NULL)) {
		/* Two threads run the same bytes, interleaved, so injections can cross threads. */
		for (t = 0; t < 2; t++)
			if (eh_machine_start(m, t, entry, NULL, 0, NULL))
				abort();
		if (eh_machine_run(m, NULL) == 0)
			for (t = 0; t < 2; t++)
				if (eh_machine_result(m, t)->stop == EH_STOP_NONE)
					abort();  /* run returned with a thread still running */
	}
	eh_machine_free(m);
	return 0;
}

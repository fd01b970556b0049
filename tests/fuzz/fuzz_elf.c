/* Fuzz target: arbitrary bytes as an ELF (linked or relocatable), its alternatives patched for a model, then audited,
 * before and after linking it against harness stubs as exec does. */
#include <stddef.h>
#include <stdint.h>

#include "eh/audit.h"
#include "eh/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Patch for thunderx2 under each built-in numbering and run every erratum's rule. */
static void audit_all(const struct eh_elf *elf)
{
	static const char *const kernels[] = { "5.4", "6.1" };
	struct eh_image *img;
	struct eh_error err;
	size_t k;

	for (k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct eh_audit *audit;

		if (eh_image_new(&img, elf, eh_cpucaps_builtin(kernels[k]),
				 &(struct eh_target){ .model = eh_model_find("thunderx2") },
				 &err))
			continue;
		if (!eh_audit_run(&audit, img, eh_errata, &err))
			eh_audit_free(audit);
		eh_image_free(img);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_elf *elf;
	struct eh_error err;

	if (eh_elf_parse(&elf, "fuzz.elf", data, size, &err))
		return 0;
	audit_all(elf);
	if (!eh_elf_bind_stubs(elf, &err))
		audit_all(elf);
	eh_elf_free(elf);
	return 0;
}

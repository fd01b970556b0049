/* Fuzz target: arbitrary bytes as an ELF, then its alternatives parsed and patched for a model. */
#include <stddef.h>
#include <stdint.h>

#include "eh/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_error err;

	if (eh_elf_parse(&elf, "fuzz.elf", data, size, &err))
		return 0;
	if (!eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"), eh_model_find("thunderx2"), NULL, &err))
		eh_image_free(img);
	eh_elf_free(elf);
	return 0;
}

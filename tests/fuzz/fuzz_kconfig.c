/* Fuzz target: arbitrary bytes as a kernel .config. */
#include <stddef.h>
#include <stdint.h>

#include "eh/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_kconfig *cfg;

	if (!eh_kconfig_parse(&cfg, "fuzz.config", (const char *)data, size, NULL)) {
		(void)eh_kconfig_enabled(cfg, "CONFIG_CAVIUM_TX2_ERRATUM_219");
		eh_kconfig_free(cfg);
	}
	return 0;
}

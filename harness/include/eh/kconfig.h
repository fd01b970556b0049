/* A kernel .config: which CONFIG_ symbols a build has on. */
#ifndef EH_KCONFIG_H
#define EH_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "eh/error.h"

struct eh_kconfig;

/* Parse .config text ("CONFIG_X=y", "# CONFIG_X is not set"); name is for messages. */
int eh_kconfig_parse(struct eh_kconfig **out, const char *name, const char *text, size_t len,
		     struct eh_error *err);
int eh_kconfig_open(struct eh_kconfig **out, const char *path, struct eh_error *err);
void eh_kconfig_free(struct eh_kconfig *cfg);

/* y or m. A NULL config stands for a kernel with every option on. */
bool eh_kconfig_enabled(const struct eh_kconfig *cfg, const char *symbol);

#endif

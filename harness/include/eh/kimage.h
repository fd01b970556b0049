/* What a kernel image says about itself: the release its linux_banner names, and the .config CONFIG_IKCONFIG embeds. */
#ifndef EH_KIMAGE_H
#define EH_KIMAGE_H

#include <stddef.h>

#include "eh/elf.h"
#include "eh/error.h"
#include "eh/kconfig.h"

/*
 * The release linux_banner names ("Linux version 6.1.0-27-arm64 (...)" gives
 * "6.1.0-27-arm64") into buf. EH_ENOENT when the image has no linux_banner (an
 * object, or a banner it does not hold); EH_EINPUT, naming the file, when the
 * symbol holds no such string.
 */
int eh_kimage_release(const struct eh_elf *elf, char *buf, size_t len, struct eh_error *err);

/*
 * The .config CONFIG_IKCONFIG embeds (the gzip data between kernel_config_data
 * and kernel_config_data_end), parsed. EH_ENOENT when the image has none;
 * EH_EINPUT, naming the file, when the data does not inflate to a .config.
 */
int eh_kimage_config(struct eh_kconfig **out, const struct eh_elf *elf, struct eh_error *err);

#endif

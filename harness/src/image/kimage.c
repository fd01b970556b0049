/* Reads what a kernel image says about itself: its release (linux_banner) and its embedded .config (IKCONFIG, by zlib). */
#include "eh/kimage.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define BANNER "Linux version "
/* A .config is some hundred KiB; a gzip stream that inflates past this is not one. */
#define KIMAGE_CONFIG_MAX ((size_t)64 << 20)

int eh_kimage_release(const struct eh_elf *elf, char *buf, size_t len, struct eh_error *err)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(elf, "linux_banner");
	const char *text;
	size_t n;

	buf[0] = 0;
	if (!s)
		return eh_error_set(err, EH_ENOENT, "%s has no linux_banner", elf->path);
	text = eh_elf_string(elf, s->value);
	if (!text)
		return eh_error_set(err, EH_ENOENT, "%s: linux_banner holds no string in the file", elf->path);
	if (strncmp(text, BANNER, strlen(BANNER)))
		return eh_error_set(err, EH_EINPUT, "%s: linux_banner does not start with '" BANNER "'", elf->path);
	text += strlen(BANNER);
	n = strcspn(text, " \n");
	if (!n || n >= len)
		return eh_error_set(err, EH_EINPUT, "%s: linux_banner names no release", elf->path);
	memcpy(buf, text, n);
	buf[n] = 0;
	return 0;
}

int eh_kimage_config(struct eh_kconfig **out, const struct eh_elf *elf, struct eh_error *err)
{
	const struct eh_elf_symbol *start = eh_elf_symbol_by_name(elf, "kernel_config_data");
	const struct eh_elf_symbol *end = eh_elf_symbol_by_name(elf, "kernel_config_data_end");
	const uint8_t *gz;
	z_stream z = { 0 };
	char *text = NULL;
	size_t cap = 1 << 20, got = 0;
	int rc = 0, zrc;

	*out = NULL;
	if (!start || !end)
		return eh_error_set(err, EH_ENOENT, "%s has no kernel_config_data (CONFIG_IKCONFIG)", elf->path);
	if (end->value <= start->value || !(gz = eh_elf_bytes(elf, start->value, end->value - start->value)))
		return eh_error_set(err, EH_EINPUT, "%s: kernel_config_data is not in the file", elf->path);
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return eh_error_set(err, EH_ENOMEM, "%s: no zlib stream for kernel_config_data", elf->path);
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)(end->value - start->value);
	do {
		char *more = eh_realloc(text, cap + 1);

		if (!more) {
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory for the embedded .config", elf->path);
			goto out;
		}
		text = more;
		z.next_out = (Bytef *)text + got;
		z.avail_out = (uInt)(cap - got);
		zrc = inflate(&z, Z_NO_FLUSH);
		got = cap - z.avail_out;
		if (zrc != Z_OK && zrc != Z_STREAM_END) {
			rc = eh_error_set(err, EH_EINPUT, "%s: kernel_config_data does not inflate: %s", elf->path,
					  z.msg ? z.msg : "bad gzip data");
			goto out;
		}
		if (zrc == Z_OK && !z.avail_in && z.avail_out) {
			rc = eh_error_set(err, EH_EINPUT, "%s: kernel_config_data ends inside its gzip stream", elf->path);
			goto out;
		}
		if (zrc == Z_OK && !z.avail_out) {
			if (cap >= KIMAGE_CONFIG_MAX) {
				rc = eh_error_set(err, EH_EINPUT, "%s: kernel_config_data inflates past %zu bytes",
						  elf->path, KIMAGE_CONFIG_MAX);
				goto out;
			}
			cap *= 2;
		}
	} while (zrc != Z_STREAM_END);
	text[got] = 0;
	rc = eh_kconfig_parse(out, elf->path, text, got, err);
out:
	inflateEnd(&z);
	eh_free(text);
	return rc;
}

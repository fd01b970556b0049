/* Reads a whole input file into memory for the parsers, which all work on buffers. */
#include "eh/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int eh_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		 struct eh_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, got;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (!f)
		return eh_error_set(err, EH_EIO, "%s: cannot open: %s", path, strerror(errno));
	do {
		if (*len == cap) {
			char *p;

			if (cap > max) {
				rc = eh_error_set(err, EH_EINPUT, "%s: larger than %zu bytes: not a %s", path,
						  max, what);
				break;
			}
			p = eh_realloc(*buf, cap = cap ? cap * 2 : 65536);
			if (!p) {
				rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", path);
				break;
			}
			*buf = p;
		}
		got = fread(*buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got);
	if (!rc && ferror(f))
		rc = eh_error_set(err, EH_EIO, "%s: read error: %s", path, strerror(errno));
	fclose(f);
	if (rc) {
		eh_free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return rc;
}

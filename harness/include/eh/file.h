/* Reading a whole input file (ELF, .config, cpucaps header) into memory, with a size cap. */
#ifndef EH_FILE_H
#define EH_FILE_H

#include <stddef.h>

#include "eh/error.h"

/*
 * Read path into *buf (eh_free it), *len bytes; works on pipes too. A file longer
 * than max bytes is an input error that says it is not a `what`.
 */
int eh_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		 struct eh_error *err);

#endif

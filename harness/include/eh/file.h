/* Reading or mapping a whole input file (ELF, .config, cpucaps header, --mem image) into memory, with a size cap; its digest. */
#ifndef EH_FILE_H
#define EH_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "eh/error.h"

/* The largest input of each kind (docs/audit.md, "Inputs", and audit and exec --help). */
#define EH_FILE_MAX_ELF ((size_t)2 << 30)       /* a vmlinux or kernel object */
#define EH_FILE_MAX_CONFIG ((size_t)64 << 20)   /* a .config */
#define EH_FILE_MAX_CPUCAPS ((size_t)16 << 20)  /* a cpucaps.h */
#define EH_FILE_MAX_MEM ((size_t)16 << 20)      /* an exec --mem image */
#define EH_FILE_MAX_SUPPRESS ((size_t)16 << 20) /* an audit --suppress file */

/*
 * Read path into *buf (eh_free it), *len bytes. Only a regular file of at most
 * max bytes is read: a directory, FIFO, socket or device (/dev/zero would never
 * end), or a larger file, is an input error naming path, found before anything
 * is read; `what` says what the file was meant to be.
 */
int eh_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		 struct eh_error *err);
/*
 * A file eh_file_map mapped: len bytes at data, and the file itself, held open so that what
 * eh_file_map_load and eh_file_map_drop read again is the file that was mapped, whatever
 * happens to its path meanwhile (a kernel rebuilt in place while its report runs).
 */
struct eh_file_map {
	uint8_t *data;
	size_t len;
	int fd;             /* -1 when nothing is mapped */
};

/*
 * The same checks, then path mapped into memory (eh_file_unmap it); an empty file maps to
 * NULL, 0 bytes. The mapping is private: writing to it copies the page written, never the
 * file. Pages are read when first touched. It starts on a 2 MiB boundary and reserves 2 MiB
 * past the file's end, untouched (eh_file_map_load's huge pages).
 */
int eh_file_map(const char *path, size_t max, const char *what, struct eh_file_map *m, struct eh_error *err);
void eh_file_unmap(struct eh_file_map *m);
/* A part of a file: n bytes from offset off. */
struct eh_file_range {
	size_t off, n;
};

/*
 * Read the parts r[0..nr) of the mapping m (of path) at once, into anonymous memory holding
 * the same bytes, in transparent huge pages where the kernel gives them (each part widened to
 * the 2 MiB pages it meets, within the mapping): a part of the file read from end to end then
 * costs one read, not a page fault every 64 KiB (a fault costs microseconds, and a kernel's
 * symbols are megabytes). Nothing changes for a reader. 0, or an I/O error naming path when the
 * pages could be neither read nor mapped again.
 */
int eh_file_map_load(const char *path, const struct eh_file_map *m, struct eh_file_range *r, size_t nr,
		     struct eh_error *err);

/*
 * Give back the memory behind the n bytes at offset off of the mapping m, once nobody reads
 * them again: the whole pages within are the file's again, read from it if they are ever
 * touched, and what eh_file_map_load or a write had put there is freed.
 */
void eh_file_map_drop(const struct eh_file_map *m, size_t off, size_t n);

#define EH_SHA256_HEX 65   /* 64 hex digits and the NUL */

/*
 * The SHA-256 of path's contents, as 64 lower-case hex digits into hex (what a
 * report names an input by), read in pieces, never whole. An unreadable file is
 * an input error naming path.
 */
int eh_file_sha256(const char *path, char hex[EH_SHA256_HEX], struct eh_error *err);

#endif

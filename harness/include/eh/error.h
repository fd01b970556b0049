/* Error codes, the caller's error buffer, and the one allocator the library uses. */
#ifndef EH_ERROR_H
#define EH_ERROR_H

#include <stddef.h>

enum eh_err {
	EH_OK = 0,
	EH_ENOMEM = -1,   /* allocation failed */
	EH_EINVAL = -2,   /* bad argument or bad usage */
	EH_EINPUT = -3,   /* bad input file (ELF, header, table) */
	EH_ENOENT = -4,   /* no such case, model, variant or symbol */
	EH_EEMU = -5,     /* the emulator or the disassembler failed */
	EH_EIO = -6,      /* reading or writing a file failed */
	EH_EINCOMPLETE = -7, /* a scenario's run did not reach an end its case declares */
};

#define EH_ERROR_MSG_MAX 512

struct eh_error {
	int code;
	char msg[EH_ERROR_MSG_MAX];
};

/* Record a message in err (which may be NULL) and return code. */
int eh_error_set(struct eh_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the message already in err with more context ("file: ..."). */
int eh_error_prefix(struct eh_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Every allocation in the library goes through these, so that tests can make
 * the n-th one fail (eh_alloc_fail_at in harness/src/util/alloc_fail.h) and check
 * that constructors unwind.
 */
void *eh_alloc(size_t size);           /* zeroed */
/* n elements of size bytes, not zeroed (the caller writes each before reading it); NULL when n * size overflows. */
void *eh_alloc_array(size_t n, size_t size);
void *eh_realloc(void *p, size_t size);
/* p's block cut to size bytes (0 < size <= its own), the rest given back; p itself when it cannot be. Never fails. */
void *eh_shrink(void *p, size_t size);
char *eh_strdup(const char *s);
void eh_free(void *p);

#endif

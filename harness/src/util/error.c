/* Error reporting into a caller's buffer, and the failable allocator wrapper. */
#include "eh/error.h"
#include "util/alloc_fail.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eh_error_set(struct eh_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

int eh_error_prefix(struct eh_error *err, const char *fmt, ...)
{
	char prefix[EH_ERROR_MSG_MAX], old[EH_ERROR_MSG_MAX];
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%s", prefix, old);
	return err->code;
}

static unsigned long alloc_count;
static unsigned long alloc_fail_at;

static int alloc_should_fail(void)
{
	alloc_count++;
	return alloc_fail_at && alloc_count == alloc_fail_at;
}

void eh_alloc_fail_at(unsigned long n)
{
	alloc_count = 0;
	alloc_fail_at = n;
}

unsigned long eh_alloc_count(void)
{
	return alloc_count;
}

void *eh_alloc(size_t size)
{
	if (alloc_should_fail())
		return NULL;
	return calloc(1, size ? size : 1);
}

void *eh_alloc_array(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	if (alloc_should_fail())
		return NULL;
	return malloc(n && size ? n * size : 1);
}

void *eh_realloc(void *p, size_t size)
{
	if (alloc_should_fail())
		return NULL;
	return realloc(p, size ? size : 1);
}

void *eh_shrink(void *p, size_t size)
{
	void *v = size ? realloc(p, size) : NULL;  /* not an allocation that can fail: no failure injected */

	return v ? v : p;
}

char *eh_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = eh_alloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void eh_free(void *p)
{
	free(p);
}

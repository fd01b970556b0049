/* Kernel versions: "6.1", "6.12.118", and the version a release such as "6.1.0-27-arm64" starts with. */
#ifndef EH_KVERSION_H
#define EH_KVERSION_H

#include <stddef.h>

#include "eh/error.h"

/* Kernel versions compared as numbers, part by part ("6.1" < "6.12" < "6.12.118"): negative, zero or positive. */
int eh_kversion_cmp(const char *a, const char *b);

/*
 * "6.1" of a release ("6.1.0-27-arm64"), into buf: what the capability rules
 * are looked up by. EH_EINPUT when release does not start with two numbers.
 */
int eh_kversion_of_release(const char *release, char *buf, size_t len, struct eh_error *err);

#endif

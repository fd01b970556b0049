/* Kernel versions compared part by part, and the MAJOR.MINOR a release string starts with. */
#include "eh/kversion.h"

#include <stdio.h>
#include <stdlib.h>

int eh_kversion_cmp(const char *a, const char *b)
{
	char *ea, *eb;

	while (*a || *b) {
		unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);

		if (x != y)
			return x < y ? -1 : 1;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
		if (ea == a && eb == b)  /* no dot after either number: what follows is no version */
			break;
	}
	return 0;
}

int eh_kversion_of_release(const char *release, char *buf, size_t len, struct eh_error *err)
{
	unsigned major, minor;
	int used = 0;

	if (sscanf(release, "%u.%u%n", &major, &minor, &used) != 2 || !used)
		return eh_error_set(err, EH_EINPUT, "release '%s' does not start with a version", release);
	snprintf(buf, len, "%u.%u", major, minor);
	return 0;
}

/* Opening and closing the files the tool writes reports and pictures into (--output, --svg). */
#include <errno.h>
#include <string.h>

#include "cli.h"

static bool is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

int cli_open_output(const char *path, FILE **out)
{
	if (is_stdout(path)) {
		*out = stdout;
		return 0;
	}
	*out = fopen(path, "w");
	if (!*out) {
		fprintf(stderr, "errata-harness: %s: cannot write: %s\n", path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	return 0;
}

int cli_close_output(const char *path, FILE *f)
{
	int bad = ferror(f);

	if (is_stdout(path))
		bad |= fflush(f);
	else
		bad |= fclose(f);
	if (bad) {
		fprintf(stderr, "errata-harness: %s: write failed: %s\n", is_stdout(path) ? "stdout" : path,
			strerror(errno));
		return EXIT_BAD_INPUT;
	}
	return 0;
}

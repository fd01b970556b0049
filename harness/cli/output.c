/* Opening and closing the files the tool writes reports and pictures into (--output, --svg), and the trace. */
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

void cli_print_trace(struct eh_machine *m)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	size_t i;

	printf("trace (%zu events%s; '|' marks instructions inside a TTBR window, 'EL2' code run at "
	       "virtual EL2):\n", tr->n, tr->dropped ? ", truncated" : "");
	for (i = 0; i < tr->n; i++) {
		char line[1024];

		printf("  %4zu  t%u  %s\n", i, tr->events[i].thread,
		       eh_event_format(m, &tr->events[i], line, sizeof(line)));
	}
}

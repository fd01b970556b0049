/* Opening and closing the files the tool writes reports and pictures into (--output, --svg), and the trace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The process's umask, which can only be read by setting it. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

static bool is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/*
 * A file is written under a temporary name beside it and renamed when it is
 * complete, so that a reader never sees half a report, and one that fails to
 * be written leaves the old file (or none) behind.
 */
int cli_open_output(struct cli_output *o, const char *path)
{
	int fd;

	*o = (struct cli_output){ .path = path, .f = stdout };
	if (is_stdout(path))
		return 0;
	if (asprintf(&o->tmp, "%s.XXXXXX", path) < 0) {
		o->tmp = NULL;
		fprintf(stderr, "errata-harness: %s: out of memory\n", path);
		return EXIT_BAD_INPUT;
	}
	fd = mkstemp(o->tmp);
	o->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!o->f) {
		fprintf(stderr, "errata-harness: %s: cannot write: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return EXIT_BAD_INPUT;
	}
	/* mkstemp makes it private; a report is as readable as any file the user creates. */
	fchmod(fd, 0666 & ~current_umask());
	return 0;
}

int cli_close_output(struct cli_output *o)
{
	int bad = ferror(o->f);

	if (!o->tmp) {
		if (fflush(o->f) || bad) {
			fprintf(stderr, "errata-harness: stdout: write failed: %s\n", strerror(errno));
			return EXIT_BAD_INPUT;
		}
		return 0;
	}
	bad |= fclose(o->f);
	if (bad || rename(o->tmp, o->path)) {
		fprintf(stderr, "errata-harness: %s: write failed: %s\n", o->path, strerror(errno));
		unlink(o->tmp);
		bad = 1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return bad ? EXIT_BAD_INPUT : 0;
}

void cli_abandon_output(struct cli_output *o)
{
	if (!o->tmp)
		return;
	fclose(o->f);
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

void cli_text_style(struct cli *cli, FILE *f)
{
	struct winsize ws;

	if (cli->width_given)
		return;
	cli->style.width = EH_TEXT_WIDTH;
	if (isatty(fileno(f)) && !ioctl(fileno(f), TIOCGWINSZ, &ws) && ws.ws_col)
		cli->style.width = ws.ws_col;
}

void cli_print_trace(struct eh_machine *m)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	size_t i;

	printf("trace (%zu events%s; '|' marks instructions inside an erratum's window, 'EL2' code run at "
	       "virtual EL2):\n", tr->n, tr->dropped ? ", truncated" : "");
	for (i = 0; i < tr->n; i++) {
		char line[1024];

		printf("  %4zu  t%u  %s\n", i, tr->events[i].thread,
		       eh_event_format(m, &tr->events[i], line, sizeof(line)));
	}
}

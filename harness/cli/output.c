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

void cli_text_width(struct eh_text_style *style, bool given, FILE *f)
{
	struct winsize ws;

	if (given)
		return;
	style->width = EH_TEXT_WIDTH;
	if (isatty(fileno(f)) && !ioctl(fileno(f), TIOCGWINSZ, &ws) && ws.ws_col)
		style->width = ws.ws_col;
}

void cli_text_style(struct cli *cli, FILE *f)
{
	cli_text_width(&cli->style, cli->width_given, f);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The addresses the run reached, sorted: its instructions (with trace_insns),
 * and where exceptions were taken and threads stopped (always recorded), so a
 * screened word that ran as UDF #0 is on the path either way. NULL when out of memory.
 */
static uint64_t *executed_pcs(const struct eh_trace *tr, size_t *n)
{
	uint64_t *pcs = malloc((tr->n ? tr->n : 1) * sizeof(*pcs));
	size_t i;

	*n = 0;
	if (!pcs)
		return NULL;
	for (i = 0; i < tr->n; i++)
		if (tr->events[i].kind == EH_EV_INSN || tr->events[i].kind == EH_EV_EXCEPTION ||
		    tr->events[i].kind == EH_EV_STOP)
			pcs[(*n)++] = tr->events[i].pc;
	qsort(pcs, *n, sizeof(*pcs), cmp_u64);
	return pcs;
}

static bool on_path(const uint64_t *pcs, size_t n, uint64_t pc)
{
	return pcs && bsearch(&pc, pcs, n, sizeof(*pcs), cmp_u64);
}

/* The screened words in one line; in the trace, only those the run reached. */
static void print_screened(const struct eh_trace *tr, const uint64_t *pcs, size_t npcs)
{
	size_t i, all = 0, reached = 0;

	for (i = 0; i < tr->n; i++)
		if (tr->events[i].kind == EH_EV_SCREENED) {
			all++;
			reached += on_path(pcs, npcs, tr->events[i].pc);
		}
	/* docs/testing.md, "Hardening": pointer-authentication key accesses and unallocated FP16 encodings. */
	if (all)
		printf("screened: %zu word%s Unicorn 2.0.1 aborts on run%s as UDF #0; %zu of them reached\n",
		       all, all == 1 ? "" : "s", all == 1 ? "s" : "", reached);
}

void cli_print_screened(struct eh_machine *m)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	size_t npcs;
	uint64_t *pcs = executed_pcs(tr, &npcs);

	print_screened(tr, pcs, npcs);
	free(pcs);
}

void cli_print_trace(struct eh_machine *m)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	struct eh_trace_loop *loops = NULL;
	struct eh_error err = { 0 };
	size_t i, l = 0, nloops = 0, npcs;
	uint64_t *pcs = executed_pcs(tr, &npcs);

	print_screened(tr, pcs, npcs);
	/* Without the loops (out of memory) the trace is printed whole. */
	eh_trace_loops(tr, EH_LOOP_SAME_EVENTS, &loops, &nloops, &err);
	printf("trace (%zu events%s; '|' marks instructions inside an erratum's window, 'EL2' code run at "
	       "virtual EL2; a loop's first pass is shown, then how often it ran):\n", tr->n,
	       tr->dropped ? ", truncated" : "");
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];
		char line[1024];

		/* A loop runs at least twice: the events after its first pass are never the trace's last. */
		if (l < nloops && i == loops[l].start + loops[l].period) {
			printf("        t%u  loop x%-5zu the %zu event%s above, %zu passes in all (to event %zu)\n",
			       ev->thread, loops[l].passes, loops[l].period, loops[l].period == 1 ? "" : "s",
			       loops[l].passes, loops[l].start + loops[l].passes * loops[l].period - 1);
			i = loops[l].start + loops[l].passes * loops[l].period - 1;
			l++;
			continue;
		}
		if (ev->kind == EH_EV_SCREENED && !on_path(pcs, npcs, ev->pc))
			continue;
		printf("  %4zu  t%u  %s\n", i, ev->thread, eh_event_format(m, ev, line, sizeof(line)));
	}
	eh_free(loops);
	free(pcs);
}

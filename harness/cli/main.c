/* errata-harness: the command-line tool, the only code that prints or exits; the command table and the global help. */
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "eh/text.h"

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "errata-harness %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return EXIT_BAD_INPUT;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("errata-harness: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return EXIT_BAD_INPUT;
}

/* Every command: its name, its handler (cli/cmd_NAME.c), the line the global help gives it and its usage. */
const struct cli_command cli_commands[] = {
	{ "list", cmd_list, "the cases, the commits they verify, their variants and models", &cmd_list_usage },
	{ "models", cmd_models, "the CPU models: ID registers, errata, and the capabilities a kernel detects on them",
	  &cmd_models_usage },
	{ "run", cmd_run, "run every selected case x variant x model and check its outcome", &cmd_run_usage },
	{ "replay", cmd_replay, "one run, event by event and instruction by instruction, and its SVG timeline",
	  &cmd_replay_usage },
	{ "audit", cmd_audit, "the findings of every erratum's static rule in a kernel ELF patched for models",
	  &cmd_audit_usage, true },
	{ "report", cmd_report, "every erratum on every model of a kernel ELF: the kernel-wide errata report",
	  &cmd_report_usage, true },
	{ "exec", cmd_exec, "run code straight out of a kernel ELF on a model, traced", &cmd_exec_usage },
	{ 0 },
};

static void print_help(FILE *f)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	const struct cli_command *c;
	char lead[32], names[4096];

	fputs("usage: errata-harness COMMAND [ARGS] [OPTIONS]\n\n", f);
	eh_text_wrap(f, &style, 0, "Proves Linux arm64 errata workarounds and fixes: it runs the kernel's own "
		     "instruction sequences on emulated CPU models, and audits kernel images for the hazards "
		     "the alternatives a CPU gets leave behind.");
	fputs("\ncommands:\n", f);
	for (c = cli_commands; c->name; c++) {
		snprintf(lead, sizeof(lead), "  %s", c->name);
		eh_text_hang(f, &style, lead, 12, c->summary);
	}
	fputs("\n'errata-harness COMMAND --help' shows a command's options.\n\n", f);
	eh_text_hang(f, &style, "known cases:", 15, cli_known_cases(names, sizeof(names)));
	eh_text_hang(f, &style, "known models:", 15, cli_known_models(names, sizeof(names)));
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  /* Linux 6.1's asm-generic/mman-common.h; glibc 2.36's sys/mman.h does not name it */
#endif

/*
 * Grow the heap by size bytes up front, give them back to malloc (the trim threshold keeps them
 * mapped) and ask for transparent huge pages over it: the tens of megabytes a kernel's audit
 * allocates then fault in 2 MiB at a time, not 4 KiB (Debian's 6.1 report took 8,300 page faults,
 * a third of its time, and takes about 500). Untouched, the reservation costs no memory; where THP is
 * off (or madvise fails) it changes nothing.
 */
static void reserve_huge_heap(size_t size)
{
	const uintptr_t huge = 2u << 20;
	uintptr_t cur = (uintptr_t)sbrk(0), lo = (cur + huge - 1) & ~(huge - 1), hi;
	char *p;

	/*
	 * No huge page fits in the heap's mapping below its first 2 MiB boundary: the break moves
	 * up to it, and malloc's memory starts there (below it, the symbols the report reads first
	 * took up to 512 faults of 4 KiB).
	 */
	if (lo > cur && sbrk((intptr_t)(lo - cur)) == (void *)-1)
		return;
	p = malloc(size);
	if (!p)
		return;
	*(volatile char *)p = 0;  /* a malloc freed untouched may be elided */
	free(p);
	hi = (uintptr_t)sbrk(0);
	if (hi <= lo || madvise((void *)lo, hi - lo, MADV_HUGEPAGE))
		return;
	/*
	 * malloc touched the first 2 MiB before madvise could reach them, which left them to 4 KiB
	 * pages: made one huge page now (Linux 6.1 and later; before, a failure changes nothing).
	 */
	madvise((void *)lo, huge, MADV_COLLAPSE);
}

int main(int argc, char **argv)
{
	const struct cli_command *c;

	/*
	 * A kernel's report allocates and frees arrays of megabytes (symbol indexes, sort
	 * buffers): from the heap they are reused, where glibc's default maps each afresh and
	 * its first touches fault page by page (page faults were a third of the report's time).
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 16 << 20);

	if (argc < 2)
		return print_help(stderr), EXIT_BAD_INPUT;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("errata-harness %s\n", eh_version());
		return 0;
	}
	for (c = cli_commands; c->name && strcmp(c->name, argv[1]); c++)
		;
	if (!c->name)
		return usage_error("unknown command '%s' (see --help)", argv[1]);
	if (c->reads_kernels)
		reserve_huge_heap(96u << 20);
	return c->run(c, argc - 1, argv + 1);
}

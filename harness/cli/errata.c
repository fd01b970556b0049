/* list --errata: the errata table from the erratum modules, as text or as the Markdown table docs/errata.md embeds. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/machine.h"
#include "eh/rule.h"

/* Append printf output to buf (of len), keeping it terminated; returns the new length. */
static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	n += (size_t)vsnprintf(buf + (n < len ? n : len), n < len ? len - n : 0, fmt, ap);
	va_end(ap);
	return n;
}

/* Every part the erratum affects ("Cortex-A53 r0p0-r0p4"), with the revisions REVIDR marks fixed. */
static const char *cpus_text(const struct eh_erratum *e, char *buf, size_t len)
{
	const struct eh_midr_range *r;
	const struct eh_midr_fix *f;
	size_t n = 0;

	buf[0] = 0;
	for (r = e->cpus; r && r->model; r++) {
		n = append(buf, len, n, "%s%s", n ? ", " : "", r->cpu);
		if (r->var_min == r->var_max && r->rev_min == r->rev_max)
			n = append(buf, len, n, " r%up%u", r->var_min, r->rev_min);
		else if (r->var_min || r->rev_min || r->var_max != 0xf || r->rev_max != 0xf)
			n = append(buf, len, n, " r%up%u-r%up%u", r->var_min, r->rev_min, r->var_max, r->rev_max);
	}
	if (e->also_affects_cpus)
		n = append(buf, len, n, "%s%s", n ? ", " : "", e->also_affects_cpus);
	for (f = e->fixed; f && f->revidr_mask; f++)
		n = append(buf, len, n, "; r%up%u fixed where REVIDR_EL1 & 0x%x", f->var, f->rev, f->revidr_mask);
	return buf;
}

/* The cases whose expectations name the erratum. */
static const char *cases_text(const struct eh_erratum *e, char *buf, size_t len)
{
	const struct eh_case *const *c;
	size_t n = 0;

	buf[0] = 0;
	for (c = eh_cases; *c; c++) {
		const struct eh_expect *x;

		for (x = (*c)->expect; x->variant; x++)
			if ((x->who.erratum && !strcmp(x->who.erratum, e->id)) ||
			    (x->who.has && !strcmp(x->who.has, e->id)))
				break;
		if (x->variant)
			n = append(buf, len, n, "%s%s", n ? ", " : "", (*c)->id);
	}
	return n ? buf : "none";
}

static const char *workaround_text(const struct eh_erratum *e, char *buf, size_t len)
{
	if (!e->capability && !e->kconfig)
		return "none in the kernel";
	snprintf(buf, len, "%s%s%s", e->capability ? e->capability : "", e->capability && e->kconfig ? ", " : "",
		 e->kconfig ? e->kconfig : "");
	return buf;
}

/* The built-in kernel versions that carry e's workaround, each with its capability's name where it differs. */
static const char *kernels_text(const struct eh_erratum *e, char *buf, size_t len)
{
	const char *const *v, *name;
	size_t n = 0;

	if (!e->capability)
		return "any (the workaround is the toolchain's)";
	for (v = eh_cpucaps_builtin_versions; *v; v++) {
		name = eh_erratum_capability(e, *v);
		if (!name)
			continue;
		n = append(buf, len, n, "%s%s", n ? ", " : "", *v);
		if (strcmp(name, e->capability))
			n = append(buf, len, n, " (%s)", name);
	}
	return n ? buf : "none";
}

/* A Markdown table cell: a '|' would end it. */
static void put_cell(const char *s)
{
	fputs("| ", stdout);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', stdout);
		fputc(*s, stdout);
	}
	fputc(' ', stdout);
}

int cmd_list_errata(struct cli *cli)
{
	const struct eh_erratum *const *e;
	char cpus[2048], cases[512], workaround[256], kernels[256];
	bool markdown = cli->format_arg && !strcmp(cli->format_arg, "markdown");

	if (cli->format_arg && !markdown && strcmp(cli->format_arg, "text"))
		return usage_error("list --errata --format: '%s' is neither text nor markdown", cli->format_arg);
	cli_text_style(cli, stdout);
	if (markdown)
		puts("| erratum | title | CPUs | workaround | kernels | static rule | dynamic behaviour | cases |\n"
		     "| --- | --- | --- | --- | --- | --- | --- | --- |");
	for (e = eh_errata; *e; e++) {
		const char *rule = (*e)->rule ? (*e)->rule->summary : "none";
		const char *dyn = (*e)->behaviour ? (*e)->behaviour->summary : "none";

		cpus_text(*e, cpus, sizeof(cpus));
		if (markdown) {
			put_cell((*e)->id);
			put_cell((*e)->title);
			put_cell(cpus);
			put_cell(workaround_text(*e, workaround, sizeof(workaround)));
			put_cell(kernels_text(*e, kernels, sizeof(kernels)));
			put_cell(rule);
			put_cell(dyn);
			put_cell(cases_text(*e, cases, sizeof(cases)));
			puts("|");
			continue;
		}
		eh_text_linef(stdout, &cli->style, "%s: %s", (*e)->id, (*e)->title);
		eh_text_hang(stdout, &cli->style, "  CPUs", 14, cpus);
		if ((*e)->shows_when)
			eh_text_hang(stdout, &cli->style, "  shows", 14, (*e)->shows_when);
		eh_text_hang(stdout, &cli->style, "  workaround", 14, workaround_text(*e, workaround, sizeof(workaround)));
		eh_text_hang(stdout, &cli->style, "  kernels", 14, kernels_text(*e, kernels, sizeof(kernels)));
		eh_text_hang(stdout, &cli->style, "  rule", 14, rule);
		eh_text_hang(stdout, &cli->style, "  behaviour", 14, dyn);
		eh_text_hang(stdout, &cli->style, "  cases", 14, cases_text(*e, cases, sizeof(cases)));
	}
	return 0;
}

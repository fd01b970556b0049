/* errata-harness: the command-line tool; the only code that prints or exits. */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/case.h"
#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/model.h"

#ifndef EH_VERSION
#define EH_VERSION "0.0.0"
#endif
#ifndef EH_CASES_DIR
#define EH_CASES_DIR "cases"
#endif

#define EXIT_UNEXPECTED 1
#define EXIT_BAD_INPUT 2
#define MAX_SELECT 64

struct selection {
	const char *cases[MAX_SELECT], *models[MAX_SELECT], *variants[MAX_SELECT];
	unsigned ncases, nmodels, nvariants;
};

struct cli {
	struct selection sel;
	struct eh_run_opts run;
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("errata-harness: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return EXIT_BAD_INPUT;
}

static void print_known_models(FILE *f)
{
	const struct eh_model *const *m;

	fputs("known models:", f);
	for (m = eh_models; *m; m++)
		fprintf(f, " %s", (*m)->name);
	fputs("\n", f);
}

static void print_known_cases(FILE *f)
{
	const struct eh_case *const *c;

	fputs("known cases:", f);
	for (c = eh_cases; *c; c++)
		fprintf(f, " %s", (*c)->id);
	fputs("\n", f);
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: errata-harness COMMAND [OPTIONS]\n"
		"\n"
		"Proves Linux arm64 errata workarounds and fixes by running the kernel's own\n"
		"instruction sequences on emulated CPU models.\n"
		"\n"
		"commands:\n"
		"  list                      the cases, the commits they verify and their variants\n"
		"  models                    the CPU models and the kernel capabilities detected on them\n"
		"  run [SELECT]              run every selected case x variant x model and check the verdicts\n"
		"  replay CASE --model M --variant V\n"
		"                            one run, event by event, instruction by instruction\n"
		"\n"
		"options:\n"
		"  --case ID, --model NAME, --variant NAME   select (repeatable, or comma-separated)\n"
		"  --seed N                  seed of every random choice (default 1)\n"
		"  --budget N                instructions per thread before a run is stopped\n"
		"  --cases-dir DIR           where the built snippets are (default %s)\n"
		"  --help, --version\n"
		"\n"
		"exit status: 0 every outcome as expected, 1 an unexpected outcome, 2 bad usage or input\n",
		EH_CASES_DIR);
	fputs("\n", f);
	print_known_cases(f);
	print_known_models(f);
}

static int add_selection(const char **list, unsigned *n, char *arg)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_SELECT)
			return usage_error("too many selections (at most %d)", MAX_SELECT);
		list[(*n)++] = tok;
	}
	return 0;
}

static int parse_u64(const char *opt, const char *arg, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || arg[0] == '-')
		return usage_error("%s: '%s' is not a non-negative integer", opt, arg);
	return 0;
}

static int parse_options(int argc, char **argv, struct cli *cli)
{
	static const struct option opts[] = {
		{ "case", required_argument, NULL, 'c' },
		{ "model", required_argument, NULL, 'm' },
		{ "variant", required_argument, NULL, 'V' },
		{ "seed", required_argument, NULL, 's' },
		{ "budget", required_argument, NULL, 'b' },
		{ "cases-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, rc = 0;

	cli->run.seed = 1;
	cli->run.cases_dir = getenv("EH_CASES_DIR") ? getenv("EH_CASES_DIR") : EH_CASES_DIR;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1 && !rc) {
		switch (c) {
		case 'c': rc = add_selection(cli->sel.cases, &cli->sel.ncases, optarg); break;
		case 'm': rc = add_selection(cli->sel.models, &cli->sel.nmodels, optarg); break;
		case 'V': rc = add_selection(cli->sel.variants, &cli->sel.nvariants, optarg); break;
		case 's': rc = parse_u64("--seed", optarg, &cli->run.seed); break;
		case 'b': rc = parse_u64("--budget", optarg, &cli->run.budget); break;
		case 'd': cli->run.cases_dir = optarg; break;
		case 'h': print_help(stdout); exit(0);
		default:
			return usage_error("%s: unknown option or missing argument (see --help)",
					   argv[optind - 1]);
		}
	}
	return rc;
}

/* Every name given must exist, so a typo is an error rather than an empty run. */
static int check_selection(const struct selection *sel)
{
	unsigned i;

	for (i = 0; i < sel->nmodels; i++)
		if (!eh_model_find(sel->models[i])) {
			fprintf(stderr, "errata-harness: unknown model '%s'\n", sel->models[i]);
			print_known_models(stderr);
			return EXIT_BAD_INPUT;
		}
	for (i = 0; i < sel->ncases; i++)
		if (!eh_case_find(sel->cases[i])) {
			fprintf(stderr, "errata-harness: unknown case '%s'\n", sel->cases[i]);
			print_known_cases(stderr);
			return EXIT_BAD_INPUT;
		}
	for (i = 0; i < sel->nvariants; i++) {
		const struct eh_case *const *c;
		int found = 0;

		for (c = eh_cases; *c && !found; c++)
			found = eh_case_variant(*c, sel->variants[i]) != NULL;
		if (!found)
			return usage_error("no case has a variant '%s'", sel->variants[i]);
	}
	return 0;
}

static int selected(const char *const *list, unsigned n, const char *name)
{
	unsigned i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}

static int cmd_list(void)
{
	const struct eh_case *const *c;

	for (c = eh_cases; *c; c++) {
		const struct eh_commit *k;
		const struct eh_variant *v;
		const struct eh_model *const *m;

		printf("%s\n  %s\n", (*c)->id, (*c)->shows);
		for (k = (*c)->commits; k->hash; k++)
			printf("  verifies %s %s\n", k->hash, k->subject);
		for (v = (*c)->variants; v->name; v++)
			printf("  variant %-12s %s\n", v->name, v->desc);
		printf("  models  ");
		for (m = eh_models; *m; m++) {
			enum eh_verdict verdict;

			if (!eh_case_expected(*c, (*c)->variants[0].name, (*m)->name, &verdict))
				printf(" %s", (*m)->name);
		}
		printf("\n");
	}
	return 0;
}

static int cmd_models(void)
{
	const struct eh_model *const *m;

	for (m = eh_models; *m; m++) {
		const struct eh_erratum *const *e;
		const struct eh_capability *cap;
		int none;

		printf("%s\n  %s\n  MIDR_EL1 0x%08x, %u thread%s per core, %s\n", (*m)->name, (*m)->desc,
		       (*m)->midr, (*m)->threads_per_core, (*m)->threads_per_core == 1 ? "" : "s",
		       (*m)->hyp_mode ? "hyp mode available" : "no hyp mode");
		printf("  errata:");
		for (e = (*m)->errata; e && *e; e++)
			printf(" %s%s", (*e)->id, (*e)->manifests && !(*e)->manifests(*m) ? " (not exposed)" : "");
		if (!(*m)->errata || !(*m)->errata[0])
			printf(" none");
		printf("\n  detected capabilities (every Kconfig option on):");
		none = 1;
		for (cap = eh_capabilities; cap->name; cap++)
			if (cap->matches(*m)) {
				printf(" %s", cap->name);
				none = 0;
			}
		printf("%s\n", none ? " none" : "");
	}
	return 0;
}

static int cmd_run(struct cli *cli)
{
	const struct eh_case *const *c;
	unsigned passed = 0, failed = 0;
	struct eh_error err = { 0 };

	printf("errata-harness %s run, seed %" PRIu64 "\n", EH_VERSION, cli->run.seed);
	for (c = eh_cases; *c; c++) {
		const struct eh_variant *v;

		if (!selected(cli->sel.cases, cli->sel.ncases, (*c)->id))
			continue;
		for (v = (*c)->variants; v->name; v++) {
			const struct eh_model *const *m;

			if (!selected(cli->sel.variants, cli->sel.nvariants, v->name))
				continue;
			for (m = eh_models; *m; m++) {
				struct eh_case_run *r;
				enum eh_verdict expected;

				if (!selected(cli->sel.models, cli->sel.nmodels, (*m)->name) ||
				    eh_case_expected(*c, v->name, (*m)->name, &expected))
					continue;
				if (eh_case_run(&r, *c, v, *m, &cli->run, &err)) {
					fprintf(stderr, "errata-harness: %s\n", err.msg);
					return EXIT_BAD_INPUT;
				}
				printf("%s %-14s %-12s %-16s %-9s %s\n", r->pass ? "PASS" : "FAIL", (*c)->id,
				       v->name, (*m)->name, eh_verdict_name(r->outcome.verdict),
				       r->outcome.evidence);
				if (!r->pass)
					printf("     expected %s\n", eh_verdict_name(r->expected));
				passed += r->pass;
				failed += !r->pass;
				eh_case_run_free(r);
			}
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? EXIT_UNEXPECTED : 0;
}

static void print_alternatives(struct eh_case_run *r)
{
	size_t i;

	if (!r->img->nsites) {
		printf("alternatives: none in %s\n", r->elf->path);
		return;
	}
	printf("alternatives (%zu sites, capabilities numbered as in %s):\n", r->img->nsites,
	       r->img->caps->source);
	for (i = 0; i < r->img->nsites; i++) {
		const struct eh_alt_site *s = &r->img->sites[i];
		const struct eh_elf_section *sec = eh_elf_section_at(r->elf, s->orig);
		const uint8_t *p = sec->data + (s->orig - sec->addr);
		struct eh_insn before;
		char where[160];

		eh_decoder_decode(eh_machine_decoder(r->machine), s->orig,
				  (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24,
				  &before);
		printf("  %s on %s: %s", eh_elf_describe(r->elf, s->orig, where, sizeof(where)),
		       s->cap_name ? s->cap_name : "(unnamed)", s->applied ? "applied" : "not applied");
		if (s->applied)
			printf(", %s -> %s", before.text, eh_machine_insn(r->machine, s->orig)->text);
		else
			printf(", keeps %s", before.text);
		printf("\n");
	}
}

static int cmd_replay(int argc, char **argv, struct cli *cli)
{
	const struct eh_case *c;
	const struct eh_variant *v;
	const struct eh_model *model;
	struct eh_case_run *r;
	struct eh_error err = { 0 };
	const struct eh_trace *tr;
	size_t i;
	int rc;

	if (optind >= argc)
		return usage_error("replay: which case? (see errata-harness list)");
	if (cli->sel.nmodels != 1 || cli->sel.nvariants != 1)
		return usage_error("replay needs exactly one --model and one --variant");
	c = eh_case_find(argv[optind]);
	if (!c) {
		fprintf(stderr, "errata-harness: unknown case '%s'\n", argv[optind]);
		print_known_cases(stderr);
		return EXIT_BAD_INPUT;
	}
	v = eh_case_variant(c, cli->sel.variants[0]);
	if (!v)
		return usage_error("case %s has no variant '%s'", c->id, cli->sel.variants[0]);
	model = eh_model_find(cli->sel.models[0]);
	cli->run.trace_insns = true;
	if (eh_case_run(&r, c, v, model, &cli->run, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	printf("replay %s, variant %s (%s), model %s (%s), seed %" PRIu64 "\n", c->id, v->name, v->desc,
	       model->name, model->desc, cli->run.seed);
	print_alternatives(r);
	tr = eh_machine_trace(r->machine);
	printf("trace (%zu events%s; '|' marks instructions inside a TTBR window, 'EL2' code run at "
	       "virtual EL2):\n", tr->n,
	       tr->dropped ? ", truncated" : "");
	for (i = 0; i < tr->n; i++) {
		char line[1024];

		printf("  %4zu  t%u  %s\n", i, tr->events[i].thread,
		       eh_event_format(r->machine, &tr->events[i], line, sizeof(line)));
	}
	printf("verdict: %s (expected %s): %s\n", eh_verdict_name(r->outcome.verdict),
	       eh_verdict_name(r->expected), r->outcome.evidence);
	rc = r->pass ? 0 : EXIT_UNEXPECTED;
	eh_case_run_free(r);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	const char *cmd;
	int rc;

	if (argc < 2)
		return print_help(stderr), EXIT_BAD_INPUT;
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("errata-harness %s\n", EH_VERSION);
		return 0;
	}
	rc = parse_options(argc - 1, argv + 1, &cli);
	if (!rc)
		rc = check_selection(&cli.sel);
	if (rc)
		return rc;
	if (!strcmp(cmd, "list"))
		return cmd_list();
	if (!strcmp(cmd, "models"))
		return cmd_models();
	if (!strcmp(cmd, "run")) {
		if (optind < argc - 1)
			return usage_error("run: unexpected argument '%s'", argv[optind + 1]);
		return cmd_run(&cli);
	}
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1, &cli);
	return usage_error("unknown command '%s' (see --help)", cmd);
}

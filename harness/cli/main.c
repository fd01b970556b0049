/* errata-harness: the command-line tool; the only code that prints or exits. */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/model.h"
#include "eh/svg.h"

#ifndef EH_CASES_DIR
#define EH_CASES_DIR "cases"
#endif

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
		"  list --matrix [SELECT]    the selected scenarios, one 'CASE VARIANT MODEL' per line\n"
		"  models                    the CPU models, their ID registers, and the capabilities a kernel\n"
		"                            detects on them with the rule that decided (models --help)\n"
		"  run [SELECT]              run every selected case x variant x model and check the verdicts\n"
		"      --format F            text (default), tap (TAP 13), junit (JUnit XML), json\n"
		"      --output FILE         write the report to FILE instead of stdout\n"
		"      --by-commit           one line per commit of the series: its cases and verdict\n"
		"      --mutants             run every case's mutants (source changes its judge must\n"
		"                            see) over its matrix and print the kill table\n"
		"      -v, --verbose         text: the evidence of every outcome under its line\n"
		"      --width N             text: N columns a line (default: the terminal's, or 80;\n"
		"                            0 for no limit)\n"
		"  replay CASE --model M --variant V [--svg FILE]\n"
		"                            one run, event by event, instruction by instruction;\n"
		"                            --svg also draws it as an SVG timeline\n"
		"  audit FILE --model M ...  TTBR hazards left in a kernel ELF after its alternatives (audit --help)\n"
		"  exec FILE --symbol S --model M ...\n"
		"                            run code straight out of a kernel ELF on a model (exec --help)\n"
		"\n"
		"options:\n"
		"  --case ID, --model NAME, --variant NAME   select (repeatable, or comma-separated)\n"
		"  --commit HASH             select the cases verifying a commit (4 or more hex digits)\n"
		"  --shard K/N               only part K of N of the selection (every N-th scenario)\n"
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

static int add_selection(struct eh_selection *sel, enum eh_select_kind kind, char *arg)
{
	struct eh_error err = { 0 };
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (eh_selection_add(sel, kind, tok, &err))
			return usage_error("%s", err.msg);
	return 0;
}

static int set_shard(struct eh_selection *sel, const char *arg)
{
	struct eh_error err = { 0 };

	return eh_selection_shard(sel, arg, &err) ? usage_error("%s", err.msg) : 0;
}

static int set_format(struct cli *cli, const char *arg)
{
	struct eh_error err = { 0 };

	cli->format_given = true;
	return eh_format_parse(arg, &cli->format, &err) ? usage_error("%s", err.msg) : 0;
}

/* --width N: columns of text output, 0 for no limit. */
static int set_width(struct cli *cli, const char *arg)
{
	uint64_t w;

	if (cli_parse_u64("--width", arg, &w))
		return EXIT_BAD_INPUT;
	if (w > 100000)
		return usage_error("--width: %s columns is more than any terminal has", arg);
	cli->style.width = (unsigned)w;
	cli->width_given = true;
	return 0;
}

int cli_parse_u64(const char *opt, const char *arg, uint64_t *out)
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
		{ "commit", required_argument, NULL, 'C' },
		{ "shard", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "by-commit", no_argument, NULL, 'B' },
		{ "mutants", no_argument, NULL, 'X' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "width", required_argument, NULL, 'w' },
		{ "matrix", no_argument, NULL, 'M' },
		{ "svg", required_argument, NULL, 'g' },
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
	while ((c = getopt_long(argc, argv, "v", opts, NULL)) != -1 && !rc) {
		switch (c) {
		case 'c': rc = add_selection(&cli->sel, EH_SELECT_CASE, optarg); break;
		case 'm': rc = add_selection(&cli->sel, EH_SELECT_MODEL, optarg); break;
		case 'V': rc = add_selection(&cli->sel, EH_SELECT_VARIANT, optarg); break;
		case 'C': rc = add_selection(&cli->sel, EH_SELECT_COMMIT, optarg); break;
		case 'S': rc = set_shard(&cli->sel, optarg); break;
		case 'f': rc = set_format(cli, optarg); break;
		case 'o': cli->output = optarg; break;
		case 'B': cli->by_commit = true; break;
		case 'X': cli->mutants = true; break;
		case 'v': cli->style.verbose = true; break;
		case 'w': rc = set_width(cli, optarg); break;
		case 'M': cli->matrix = true; break;
		case 'g': cli->svg = optarg; break;
		case 's': rc = cli_parse_u64("--seed", optarg, &cli->run.seed); break;
		case 'b': rc = cli_parse_u64("--budget", optarg, &cli->run.budget); break;
		case 'd': cli->run.cases_dir = optarg; break;
		case 'h': print_help(stdout); exit(0);
		default:
			return usage_error("%s: unknown option or missing argument (see --help)",
					   argv[optind - 1]);
		}
	}
	return rc;
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
		const struct eh_insn *after;
		struct eh_insn before;
		char where[160];

		eh_decoder_decode(eh_machine_decoder(r->machine), s->orig,
				  (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24,
				  &before);
		printf("  %s on %s: %s", eh_elf_describe(r->elf, s->orig, where, sizeof(where)),
		       s->cap_name ? s->cap_name : "(unnamed)", s->applied ? "applied" : "not applied");
		after = eh_machine_insn(r->machine, s->orig);
		if (s->applied)
			printf(", %s -> %s", before.text, after ? after->text : "?");
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
	struct cli_output svg = { 0 };
	int rc;

	if (optind >= argc)
		return usage_error("replay: which case? (see errata-harness list)");
	if (cli->sel.n[EH_SELECT_MODEL] != 1 || cli->sel.n[EH_SELECT_VARIANT] != 1)
		return usage_error("replay needs exactly one --model and one --variant");
	c = eh_case_find(argv[optind]);
	if (!c) {
		fprintf(stderr, "errata-harness: unknown case '%s'\n", argv[optind]);
		print_known_cases(stderr);
		return EXIT_BAD_INPUT;
	}
	v = eh_case_variant(c, cli->sel.names[EH_SELECT_VARIANT][0]);
	if (!v)
		return usage_error("case %s has no variant '%s'", c->id, cli->sel.names[EH_SELECT_VARIANT][0]);
	model = eh_model_find(cli->sel.names[EH_SELECT_MODEL][0]);
	if (cli->svg && !strcmp(cli->svg, "-"))
		return usage_error("--svg needs a file name: the trace goes to stdout");
	if (cli->svg && (rc = cli_open_output(&svg, cli->svg)))
		return rc;
	cli->run.trace_insns = true;
	if (eh_case_run(&r, c, v, model, &cli->run, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		if (cli->svg)
			cli_abandon_output(&svg);
		return EXIT_BAD_INPUT;
	}
	printf("replay %s, variant %s (%s), model %s (%s), seed %" PRIu64 "\n", c->id, v->name, v->desc,
	       model->name, model->desc, cli->run.seed);
	print_alternatives(r);
	cli_print_trace(r->machine);
	printf("%s: %s (expected %s): %s\n",
	       r->outcome.verdict == EH_VERDICT_INCOMPLETE ? "outcome" : "verdict",
	       eh_verdict_name(r->outcome.verdict), eh_verdict_name(r->expected), r->outcome.evidence);
	rc = r->pass ? 0 : EXIT_UNEXPECTED;
	if (cli->svg) {
		if (eh_svg_timeline(svg.f, r, cli->run.seed, &err)) {
			fprintf(stderr, "errata-harness: %s: %s\n", cli->svg, err.msg);
			cli_abandon_output(&svg);
			rc = EXIT_BAD_INPUT;
		} else if (cli_close_output(&svg)) {
			rc = EXIT_BAD_INPUT;
		}
	}
	eh_case_run_free(r);
	return rc;
}

/* Options that belong to one command are refused elsewhere rather than silently ignored. */
static int check_command_options(const char *cmd, const struct cli *cli)
{
	if (cli->svg && strcmp(cmd, "replay"))
		return usage_error("--svg is an option of replay");
	if ((cli->format_given || cli->output || cli->by_commit || cli->mutants) && strcmp(cmd, "run"))
		return usage_error("--format, --output, --by-commit and --mutants are options of run");
	if (cli->matrix && strcmp(cmd, "list"))
		return usage_error("--matrix is an option of list");
	return 0;
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
		printf("errata-harness %s\n", eh_version());
		return 0;
	}
	if (!strcmp(cmd, "audit"))
		return cli_audit(argc - 1, argv + 1);
	if (!strcmp(cmd, "exec"))
		return cli_exec(argc - 1, argv + 1);
	if (!strcmp(cmd, "models"))
		return cli_models(argc - 1, argv + 1);
	rc = parse_options(argc - 1, argv + 1, &cli);
	if (!rc)
		rc = check_command_options(cmd, &cli);
	if (rc)
		return rc;
	if (!strcmp(cmd, "list"))
		return cli.matrix ? cmd_list_matrix(&cli) : cmd_list();
	if (!strcmp(cmd, "run")) {
		if (optind < argc - 1)
			return usage_error("run: unexpected argument '%s'", argv[optind + 1]);
		return cmd_run(&cli);
	}
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1, &cli);
	return usage_error("unknown command '%s' (see --help)", cmd);
}

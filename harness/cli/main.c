/* errata-harness: the command-line tool; the only code that prints or exits. */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "eh/cpucaps.h"
#include "eh/disasm.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/json.h"
#include "eh/model.h"
#include "eh/report.h"
#include "eh/svg.h"

#ifndef EH_CASES_DIR
#define EH_CASES_DIR "cases"
#endif
#ifndef EH_BUILD_DIR
#define EH_BUILD_DIR "."
#endif
#ifndef EH_CASES_FROM_BIN
#define EH_CASES_FROM_BIN "../share/errata-harness/cases"
#endif

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

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Where the built snippets are when neither --cases-dir nor EH_CASES_DIR says:
 * the build tree's for the tool built there, else the installed ones beside the
 * tool's own prefix (PREFIX/bin/errata-harness -> PREFIX/share/errata-harness/cases),
 * wherever that prefix was moved to.
 */
static const char *default_cases_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return EH_CASES_DIR;
	exe[n] = 0;
	if (same_dir(dirname(exe), EH_BUILD_DIR))
		return EH_CASES_DIR;
	snprintf(dir, sizeof(dir), "%s/%s", exe, EH_CASES_FROM_BIN);
	return dir;
}

/*
 * Append name to the space-separated list of n characters in buf (len bytes), cut
 * where it does not fit; the length the whole list would have.
 */
static size_t add_name(char *buf, size_t len, size_t n, const char *name)
{
	return n + (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " " : "", name);
}

/* "cortex-a72 thunderx2 ...": every model's name, into buf. */
const char *cli_known_models(char *buf, size_t len)
{
	const struct eh_model *const *m;
	size_t n = 0;

	buf[0] = 0;
	for (m = eh_models; *m; m++)
		n = add_name(buf, len, n, (*m)->name);
	return buf;
}

/* Every case's id, as cli_known_models. */
static const char *known_cases(char *buf, size_t len)
{
	const struct eh_case *const *c;
	size_t n = 0;

	buf[0] = 0;
	for (c = eh_cases; *c; c++)
		n = add_name(buf, len, n, (*c)->id);
	return buf;
}

#define USE(opt) { &cli_options[CLI_OPT_##opt] }
#define MANY(opt) { &cli_options[CLI_OPT_##opt], true }

static const struct cli_use list_uses[] = {
	USE(MATRIX), USE(ERRATA),
	{ &cli_options[CLI_OPT_FORMAT], false, "with --errata: text (default) or markdown (the README's table)" },
	USE(WIDTH), MANY(CASE), MANY(MODEL), MANY(VARIANT), MANY(COMMIT), USE(SHARD), USE(HELP), { 0 },
};

static const struct cli_command list_command = {
	.name = "list", .args = "",
	.summary = "the cases, the commits they verify, their variants and models",
	.about = "Lists every case: what it shows, the commits it verifies, its variants and the models "
		 "it runs on. With --matrix, the scenarios a run with the same selection would run, one "
		 "'CASE VARIANT MODEL' per line; with --errata, the errata the harness knows.",
	.uses = list_uses,
};

static const struct cli_use run_uses[] = {
	MANY(CASE), MANY(MODEL), MANY(VARIANT), MANY(COMMIT), USE(SHARD), USE(FORMAT), USE(OUTPUT),
	USE(BY_COMMIT), USE(MUTANTS), USE(VERBOSE), USE(WIDTH), USE(SEED), USE(BUDGET), USE(CASES_DIR),
	USE(HELP), { 0 },
};

static const struct cli_command run_command = {
	.name = "run", .args = "",
	.summary = "run every selected case x variant x model and check its outcome",
	.about = "Runs every selected scenario (case, variant, model) and checks its outcome against the "
		 "case's table. A run that does not reach the end its case declares is incomplete and never "
		 "passes. Selections are lists; nothing selected means everything.",
	.exit_status = "0 every outcome as expected, 1 an unexpected or incomplete outcome (or, with "
		       "--mutants, a mutant not as it must be), 2 bad usage or input.",
	.uses = run_uses,
};

static const struct cli_use replay_uses[] = {
	{ &cli_options[CLI_OPT_MODEL], false, "the CPU model to run on" },
	{ &cli_options[CLI_OPT_VARIANT], false, "the case's variant" },
	USE(SEED), USE(BUDGET), USE(SVG),
	{ &cli_options[CLI_OPT_FORMAT], false, "text (default: the trace) or json "
	  "(harness/schema/replay-v2.json: the inputs, the outcome and every event)" },
	USE(CASES_DIR), USE(HELP), { 0 },
};

static const struct cli_command replay_command = {
	.name = "replay", .args = "CASE", .min_args = 1, .max_args = 1,
	.summary = "one run, event by event and instruction by instruction, and its SVG timeline",
	.about = "Runs one scenario of CASE and prints the alternatives as patched for the model, then "
		 "the trace thread by thread: every instruction, system register writes, accesses, context "
		 "synchronisation, injected faults with culprit and victim, exceptions, and the outcome.",
	.exit_status = "0 the outcome is the expected one, 1 it is not, 2 bad usage or input.",
	.uses = replay_uses,
};

const struct cli_command *const cli_commands[] = {
	&list_command, &cli_models_command, &run_command, &replay_command, &cli_audit_command, &cli_report_command,
	&cli_exec_command,
	NULL,
};

static void print_help(FILE *f)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	const struct cli_command *const *c;
	char lead[32], names[4096];

	fputs("usage: errata-harness COMMAND [ARGS] [OPTIONS]\n\n", f);
	eh_text_wrap(f, &style, 0, "Proves Linux arm64 errata workarounds and fixes: it runs the kernel's own "
		     "instruction sequences on emulated CPU models, and audits kernel images for the hazards "
		     "the alternatives a CPU gets leave behind.");
	fputs("\ncommands:\n", f);
	for (c = cli_commands; *c; c++) {
		snprintf(lead, sizeof(lead), "  %s", (*c)->name);
		eh_text_hang(f, &style, lead, 12, (*c)->summary);
	}
	fputs("\n'errata-harness COMMAND --help' shows a command's options.\n\n", f);
	eh_text_hang(f, &style, "known cases:", 15, known_cases(names, sizeof(names)));
	eh_text_hang(f, &style, "known models:", 15, cli_known_models(names, sizeof(names)));
}

/* A comma-separated list of names, each checked against the tables. */
int cli_add_selection(struct eh_selection *sel, enum eh_select_kind kind, const char *value)
{
	struct eh_error err = { 0 };
	char *tok, *save = NULL;
	/* The value is a string of argv, writable and alive as long as the selection borrows its pieces. */
	char *arg = (char *)value;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (eh_selection_add(sel, kind, tok, &err))
			return usage_error("%s", err.msg);
	return 0;
}

int cli_parse_u64(const char *opt, const char *arg, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *end || arg[0] == '-' || (errno && errno != ERANGE))
		return usage_error("%s: '%s' is not a non-negative integer", opt, arg);
	if (errno == ERANGE)
		return usage_error("%s: '%s' is too large (at most %" PRIu64 ")", opt, arg, UINT64_MAX);
	return 0;
}

int cli_parse_width(const char *value, unsigned *out)
{
	uint64_t n;

	if (cli_parse_u64("--width", value, &n))
		return EXIT_BAD_INPUT;
	if (n > 100000)
		return usage_error("--width: %s columns is more than any terminal has", value);
	*out = (unsigned)n;
	return 0;
}

/* The options of list, models, run and replay, into cli. */
static int on_option(void *ctx, const struct cli_option *opt, const char *value)
{
	struct cli *cli = ctx;
	struct eh_error err = { 0 };

	switch (opt->id) {
	case CLI_OPT_CASE: return cli_add_selection(&cli->sel, EH_SELECT_CASE, value);
	case CLI_OPT_MODEL: return cli_add_selection(&cli->sel, EH_SELECT_MODEL, value);
	case CLI_OPT_VARIANT: return cli_add_selection(&cli->sel, EH_SELECT_VARIANT, value);
	case CLI_OPT_COMMIT: return cli_add_selection(&cli->sel, EH_SELECT_COMMIT, value);
	case CLI_OPT_SHARD:
		return eh_selection_shard(&cli->sel, value, &err) ? usage_error("%s", err.msg) : 0;
	case CLI_OPT_FORMAT:
		cli->format_given = true;
		cli->format_arg = value;
		return 0;
	case CLI_OPT_ERRATA: cli->errata = true; return 0;
	case CLI_OPT_OUTPUT: cli->output = value; return 0;
	case CLI_OPT_BY_COMMIT: cli->by_commit = true; return 0;
	case CLI_OPT_MUTANTS: cli->mutants = true; return 0;
	case CLI_OPT_VERBOSE: cli->style.verbose = true; return 0;
	case CLI_OPT_WIDTH:
		cli->width_given = true;
		return cli_parse_width(value, &cli->style.width);
	case CLI_OPT_MATRIX: cli->matrix = true; return 0;
	case CLI_OPT_SVG:
		if (!strcmp(value, "-"))
			return usage_error("--svg needs a file name: the trace goes to stdout");
		cli->svg = value;
		return 0;
	case CLI_OPT_SEED: return cli_parse_u64("--seed", value, &cli->run.seed);
	case CLI_OPT_BUDGET:
		if (cli_parse_u64("--budget", value, &cli->run.budget))
			return EXIT_BAD_INPUT;
		return cli->run.budget ? 0 : usage_error("--budget: at least one instruction");
	case CLI_OPT_CASES_DIR: cli->run.cases_dir = value; return 0;
	default: return usage_error("--%s: not an option of this command", opt->name);
	}
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

			if (!eh_case_expected(*c, (*c)->variants[0].name, *m, &verdict))
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
		bool applied = eh_image_outcome(r->img, s).applied;
		const struct eh_elf_section *sec = eh_elf_section_at(r->elf, s->orig);
		const uint8_t *p = sec->data + (s->orig - sec->addr);
		const struct eh_insn *after;
		struct eh_insn before;
		char where[160], text[2][96];

		eh_decoder_decode(eh_machine_decoder(r->machine), s->orig,
				  (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24,
				  &before);
		printf("  %s on %s: %s", eh_elf_describe(r->elf, s->orig, where, sizeof(where)),
		       s->cap_name ? s->cap_name : "(unnamed)", applied ? "applied" : "not applied");
		after = eh_machine_insn(r->machine, s->orig);
		if (applied)
			printf(", %s -> %s", eh_disasm_text(&before, text[0], sizeof(text[0])),
			       after ? eh_disasm_text(after, text[1], sizeof(text[1])) : "?");
		else
			printf(", keeps %s", eh_disasm_text(&before, text[0], sizeof(text[0])));
		printf("\n");
	}
}

/* harness/schema/replay-v2.json: the inputs (the snippet with its SHA-256), the outcome and its events. */
static int print_replay_json(struct eh_case_run *r, const struct cli *cli)
{
	struct eh_result res = { 0 };
	struct eh_error err = { 0 };
	struct eh_json j;

	if (eh_result_keep(&res, r, &err)) {
		eh_result_release(&res);
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-replay", 2);
	eh_json_object(&j, "inputs", false);
	eh_json_str(&j, "case", r->c->id);
	eh_json_str(&j, "variant", r->v->name);
	eh_json_str(&j, "model", r->model->name);
	eh_json_uint(&j, "seed", cli->run.seed);
	eh_json_uint(&j, "budget", cli->run.budget ? cli->run.budget : EH_DEFAULT_BUDGET);
	eh_report_json_file(&j, "snippet", r->elf->path);
	eh_json_end(&j);
	eh_report_json_result(&j, "result", &res);
	eh_json_end(&j);
	eh_result_release(&res);
	return 0;
}

static int cmd_replay(const char *case_id, struct cli *cli)
{
	const struct eh_case *c;
	const struct eh_variant *v;
	const struct eh_model *model;
	struct eh_case_run *r;
	struct eh_error err = { 0 };
	struct cli_output svg = { 0 };
	bool json = false;
	int rc;

	if (cli->sel.n[EH_SELECT_MODEL] != 1 || cli->sel.n[EH_SELECT_VARIANT] != 1)
		return usage_error("replay needs exactly one --model and one --variant");
	if (cli->format_arg && strcmp(cli->format_arg, "text") && !(json = !strcmp(cli->format_arg, "json")))
		return usage_error("replay: --format: '%s' is neither text nor json", cli->format_arg);
	c = eh_case_find(case_id);
	if (!c) {
		char names[2048];

		return usage_error("unknown case '%s'; known cases: %s", case_id, known_cases(names, sizeof(names)));
	}
	v = eh_case_variant(c, cli->sel.names[EH_SELECT_VARIANT][0]);
	if (!v)
		return usage_error("case %s has no variant '%s'", c->id, cli->sel.names[EH_SELECT_VARIANT][0]);
	model = eh_model_find(cli->sel.names[EH_SELECT_MODEL][0]);
	if (cli->svg && (rc = cli_open_output(&svg, cli->svg)))
		return rc;
	cli->run.trace_insns = true;
	if (eh_case_run(&r, c, v, model, &cli->run, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		if (cli->svg)
			cli_abandon_output(&svg);
		return EXIT_BAD_INPUT;
	}
	if (json) {
		rc = print_replay_json(r, cli);
		if (rc)
			goto out;
	} else {
		printf("replay %s, variant %s (%s), model %s (%s), seed %" PRIu64 "\n", c->id, v->name, v->desc,
		       model->name, model->desc, cli->run.seed);
		if (model->cores) {
			unsigned t;

			printf("threads:");
			for (t = 0; t < eh_machine_threads(r->machine); t++)
				printf("%s t%u on %s", t ? "," : "", t, eh_machine_thread_core(r->machine, t)->name);
			printf("\n");
		}
		print_alternatives(r);
		cli_print_trace(r->machine);
		printf("%s: %s (expected %s): %s\n",
		       r->outcome.verdict == EH_VERDICT_INCOMPLETE ? "outcome" : "verdict",
		       eh_verdict_name(r->outcome.verdict), eh_verdict_name(r->expected), r->outcome.evidence);
	}
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
out:
	if (rc == EXIT_BAD_INPUT && cli->svg && svg.f)
		cli_abandon_output(&svg);
	eh_case_run_free(r);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli cli = { .run = { .seed = 1 } };
	const struct cli_command *const *c;
	const char *pos[1];
	unsigned npos;
	int rc;

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
	for (c = cli_commands; *c && strcmp((*c)->name, argv[1]); c++)
		;
	if (!*c)
		return usage_error("unknown command '%s' (see --help)", argv[1]);
	if (*c == &cli_audit_command)
		return cli_audit(argc - 1, argv + 1);
	if (*c == &cli_report_command)
		return cli_report(argc - 1, argv + 1);
	if (*c == &cli_exec_command)
		return cli_exec(argc - 1, argv + 1);
	if (*c == &cli_models_command)
		return cli_models(argc - 1, argv + 1);
	cli.run.cases_dir = getenv("EH_CASES_DIR") ? getenv("EH_CASES_DIR") : default_cases_dir();
	rc = cli_parse(*c, argc - 1, argv + 1, on_option, &cli, pos, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (*c == &list_command) {
		if (cli.matrix + cli.errata > 1 || (cli.format_arg && !cli.errata))
			return usage_error("list: --matrix or --errata, and --format only with --errata");
		return cli.matrix ? cmd_list_matrix(&cli) : cli.errata ? cmd_list_errata(&cli) : cmd_list();
	}
	if (*c == &run_command)
		return cmd_run(&cli);
	return cmd_replay(pos[0], &cli);
}

/* errata-harness list: the cases, the scenarios a selection runs (--matrix), or the errata (--errata). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_option opt_matrix = { "matrix", 0, NULL,
	"the selected scenarios, one 'CASE VARIANT MODEL' per line" };
static const struct cli_option opt_errata = { "errata", 0, NULL,
	"the errata: the CPUs each affects, the kernel's workaround, the static rule, the "
	"dynamic behaviour and the cases that run it" };

static const struct cli_use list_uses[] = {
	{ &opt_matrix, CLI_SC_MATRIX },
	{ &opt_errata, CLI_SC_ERRATA },
	{ &cli_opt_format, CLI_SC_FORMAT, false, "with --errata: text (default) or markdown (the table of docs/errata.md)" },
	{ &cli_opt_width, CLI_SC_WIDTH },
	CLI_SC_SELECTION_USES,
	{ &cli_opt_help },
	{ 0 },
};

const struct cli_usage cmd_list_usage = {
	.args = "",
	.about = "Lists every case: what it shows, the commits it verifies, its variants and the models "
		 "it runs on. With --matrix, the scenarios a run with the same selection would run, one "
		 "'CASE VARIANT MODEL' per line; with --errata, the errata the harness knows.",
	.uses = list_uses,
};

/* Every case: what it shows, the commits it verifies, its variants and the models it runs on. */
static int list_cases(void)
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

/* list --matrix: the selected scenarios of the shard, "CASE VARIANT MODEL" per line. */
static int list_matrix(struct cli *cli)
{
	struct eh_scenario *s;
	struct eh_error err = { 0 };
	size_t n, i;

	if (eh_matrix_select(&s, &n, &cli->sel, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	for (i = 0; i < n; i++)
		printf("%s %s %s\n", s[i].c->id, s[i].v->name, s[i].model->name);
	eh_free(s);
	return 0;
}

/* The cases, the matrix or the errata, as the options say. */
static int list(struct cli *cli, const char *arg)
{
	(void)arg;
	if (cli->matrix + cli->errata > 1 || (cli->format_arg && !cli->errata))
		return usage_error("list: --matrix or --errata, and --format only with --errata");
	return cli->matrix ? list_matrix(cli) : cli->errata ? cmd_list_errata(cli) : list_cases();
}

int cmd_list(const struct cli_command *cmd, int argc, char **argv)
{
	return cli_scenario_run(cmd, argc, argv, list);
}

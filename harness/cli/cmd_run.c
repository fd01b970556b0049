/* errata-harness run: the selected matrix in the chosen report format, per commit, or its mutants' kill table. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "eh/mutant.h"

static const struct cli_option opt_by_commit = { "by-commit", 0, NULL,
	"a line per commit of the seed series: the cases verifying it and what they showed" };
static const struct cli_option opt_mutants = { "mutants", 0, NULL,
	"run every case's mutants (source changes its judge must see) over its matrix "
	"and print the kill table" };

static const struct cli_use run_uses[] = {
	CLI_SC_SELECTION_USES,
	{ &cli_opt_format, CLI_SC_FORMAT },
	{ &cli_opt_output, CLI_SC_OUTPUT },
	{ &opt_by_commit, CLI_SC_BY_COMMIT },
	{ &opt_mutants, CLI_SC_MUTANTS },
	{ &cli_opt_verbose, CLI_SC_VERBOSE },
	{ &cli_opt_width, CLI_SC_WIDTH },
	{ &cli_opt_seed, CLI_SC_SEED },
	{ &cli_opt_budget, CLI_SC_BUDGET },
	{ &cli_opt_cases_dir, CLI_SC_CASES_DIR },
	{ &cli_opt_help },
	{ 0 },
};

const struct cli_usage cmd_run_usage = {
	.args = "",
	.about = "Runs every selected scenario (case, variant, model) and checks its outcome against the "
		 "case's table. A run that does not reach the end its case declares is incomplete and never "
		 "passes. Selections are lists; nothing selected means everything.",
	.exit_status = "0 every outcome as expected, 1 an unexpected or incomplete outcome (or, with "
		       "--mutants, a mutant not as it must be), 2 bad usage or input.",
	.uses = run_uses,
};

/* Only a person watching a terminal wants progress; CI logs get the report alone. */
static void show_progress(const struct eh_scenario *next, size_t done, size_t total, void *ctx)
{
	(void)ctx;
	if (next)
		fprintf(stderr, "\r[%zu/%zu] %s/%s/%s\033[K", done + 1, total, next->c->id, next->v->name,
			next->model->name);
	else
		fputs("\r\033[K", stderr);
}

/* The built snippets are where the run expects them, or nothing can run: a fatal error, named. */
static int check_cases_dir(const struct cli *cli, struct eh_error *err)
{
	struct stat st;

	if (stat(cli->run.cases_dir, &st))
		return eh_error_set(err, EH_EINPUT, "--cases-dir %s: %s", cli->run.cases_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return eh_error_set(err, EH_EINPUT, "--cases-dir %s: not a directory", cli->run.cases_dir);
	return 0;
}

/*
 * run --mutants: the kill table, one line per mutant. A mutant is killed when
 * every row it declares flipped; a neutral one must survive. Verbose, or when a
 * mutant is not as it must be: each row with its outcome and evidence under it.
 */
static int run_mutants(struct cli *cli)
{
	struct eh_mutant_results *res;
	struct eh_error err = { 0 };
	size_t bad;

	if (cli->sel.n[EH_SELECT_MODEL] || cli->sel.n[EH_SELECT_VARIANT] || cli->sel.n[EH_SELECT_COMMIT] ||
	    cli->sel.nshards || cli->by_commit || cli->format_given || cli->output)
		return usage_error("--mutants runs the whole matrix of each case: only --case, --seed, --budget, "
				   "--cases-dir, -v and --width go with it");
	if (check_cases_dir(cli, &err) || eh_mutants_run(&res, &cli->sel, &cli->run, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	cli_text_style(cli, stdout);
	eh_report_mutants(stdout, res, cli->run.seed, &cli->style);
	bad = res->bad;
	eh_mutant_results_free(res);
	return bad ? EXIT_UNEXPECTED : 0;
}

/*
 * A fatal error (bad usage or input found only now, out of memory) still leaves
 * a well-formed report that records it, so that CI sees the failure in the
 * report it collects as well as in the exit status.
 */
static int run_matrix(struct cli *cli, const char *arg)
{
	struct eh_results *res = NULL, failed = { .seed = cli->run.seed };
	struct eh_error err = { 0 };
	struct cli_output out;
	int rc, fails;

	(void)arg;  /* run takes no argument */
	if (cli->mutants)
		return run_mutants(cli);
	if (cli->format_arg && eh_format_parse(cli->format_arg, &cli->format, &err))
		return usage_error("%s", err.msg);
	if (cli->by_commit && cli->format_given && cli->format != EH_FORMAT_TEXT)
		return usage_error("--by-commit is a text report (the JSON report carries the same per-commit "
				   "summary under \"commits\")");
	rc = cli_open_output(&out, cli->output);
	if (rc)
		return rc;
	cli_text_style(cli, out.f);
	cli->run.keep_events = !cli->by_commit && eh_format_prints_events(cli->format);
	if (check_cases_dir(cli, &err) ||
	    eh_run_matrix(&res, &cli->sel, &cli->run, isatty(STDERR_FILENO) ? show_progress : NULL, NULL,
			  &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		failed.shard = cli->sel.shard;
		failed.nshards = cli->sel.nshards;
		failed.error = err.msg;
		res = &failed;
	}
	if (cli->by_commit) {
		rc = eh_report_write_commits(out.f, res, &cli->style, &err);
		fails = eh_report_commits_fail(res);
	} else {
		rc = eh_report_write(out.f, res, cli->format, &cli->style, &err);
		fails = res->failed != 0;
	}
	if (rc) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		cli_abandon_output(&out);
	} else {
		rc = cli_close_output(&out);
	}
	if (res == &failed)
		return EXIT_BAD_INPUT;
	eh_results_free(res);
	if (rc)
		return EXIT_BAD_INPUT;
	return fails ? EXIT_UNEXPECTED : 0;
}

int cmd_run(const struct cli_command *cmd, int argc, char **argv)
{
	return cli_scenario_run(cmd, argc, argv, run_matrix);
}

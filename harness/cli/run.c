/* The run command (the matrix in the chosen report format, or per commit) and list --matrix. */
#include <unistd.h>

#include "cli.h"

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

int cmd_run(struct cli *cli)
{
	struct eh_results *res;
	struct eh_error err = { 0 };
	FILE *f;
	int rc, fails;

	if (cli->by_commit && cli->format_given && cli->format != EH_FORMAT_TEXT)
		return usage_error("--by-commit is a text report (the JSON report carries the same per-commit "
				   "summary under \"commits\")");
	rc = cli_open_output(cli->output, &f);
	if (rc)
		return rc;
	if (eh_run_matrix(&res, &cli->sel, &cli->run, isatty(STDERR_FILENO) ? show_progress : NULL, NULL,
			  &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		if (f != stdout)
			fclose(f);
		return EXIT_BAD_INPUT;
	}
	if (cli->by_commit) {
		rc = eh_report_write_commits(f, res, &err);
		fails = eh_report_commits_fail(res);
	} else {
		rc = eh_report_write(f, res, cli->format, &err);
		fails = res->failed != 0;
	}
	eh_results_free(res);
	if (rc)
		fprintf(stderr, "errata-harness: %s\n", err.msg);
	if (cli_close_output(cli->output, f) || rc)
		return EXIT_BAD_INPUT;
	return fails ? EXIT_UNEXPECTED : 0;
}

int cmd_list_matrix(struct cli *cli)
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

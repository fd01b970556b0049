/* The options list, run and replay share: what they select and how they run it, read into struct cli. */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef EH_CASES_DIR
#define EH_CASES_DIR "cases"
#endif
#ifndef EH_BUILD_DIR
#define EH_BUILD_DIR "."
#endif
#ifndef EH_CASES_FROM_BIN
#define EH_CASES_FROM_BIN "../share/errata-harness/cases"
#endif

/* The selection and the snippets, which list, run and replay take; the rest are in cli/options.c. */
const struct cli_option cli_opt_case = { "case", 0, "ID", "select cases: ID,ID,... or the option repeated" };
const struct cli_option cli_opt_variant = { "variant", 0, "NAME",
	"select variants: NAME,NAME,... or the option repeated" };
const struct cli_option cli_opt_commit = { "commit", 0, "HASH",
	"select the cases verifying a commit of the seed series (4 or more hex digits; "
	"a list, or the option repeated)" };
const struct cli_option cli_opt_shard = { "shard", 0, "K/N",
	"only part K of N of the selection: every N-th scenario from the K-th" };
const struct cli_option cli_opt_cases_dir = { "cases-dir", 0, "DIR",
	"where the built snippets are (default: $EH_CASES_DIR, else "
	"share/errata-harness/cases of the installed tool's prefix, or the build "
	"tree's cases/ for the tool built there)" };

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

/* One option of list, run or replay, into cli. */
static int on_option(void *ctx, int id, const char *value)
{
	struct cli *cli = ctx;
	struct eh_error err = { 0 };

	switch ((enum cli_scenario_opt)id) {
	case CLI_SC_CASE: return cli_add_selection(&cli->sel, EH_SELECT_CASE, value);
	case CLI_SC_MODEL: return cli_add_selection(&cli->sel, EH_SELECT_MODEL, value);
	case CLI_SC_VARIANT: return cli_add_selection(&cli->sel, EH_SELECT_VARIANT, value);
	case CLI_SC_COMMIT: return cli_add_selection(&cli->sel, EH_SELECT_COMMIT, value);
	case CLI_SC_SHARD:
		return eh_selection_shard(&cli->sel, value, &err) ? usage_error("%s", err.msg) : 0;
	case CLI_SC_FORMAT:
		cli->format_given = true;
		cli->format_arg = value;
		return 0;
	case CLI_SC_ERRATA: cli->errata = true; return 0;
	case CLI_SC_OUTPUT: cli->output = value; return 0;
	case CLI_SC_BY_COMMIT: cli->by_commit = true; return 0;
	case CLI_SC_MUTANTS: cli->mutants = true; return 0;
	case CLI_SC_VERBOSE: cli->style.verbose = true; return 0;
	case CLI_SC_WIDTH:
		cli->width_given = true;
		return cli_parse_width(value, &cli->style.width);
	case CLI_SC_MATRIX: cli->matrix = true; return 0;
	case CLI_SC_SVG:
		if (!strcmp(value, "-"))
			return usage_error("--svg needs a file name: the trace goes to stdout");
		cli->svg = value;
		return 0;
	case CLI_SC_SEED: return cli_parse_u64("--seed", value, &cli->run.seed);
	case CLI_SC_BUDGET:
		if (cli_parse_u64("--budget", value, &cli->run.budget))
			return EXIT_BAD_INPUT;
		return cli->run.budget ? 0 : usage_error("--budget: at least one instruction");
	case CLI_SC_CASES_DIR: cli->run.cases_dir = value; return 0;
	}
	return 0;
}

int cli_scenario_run(const struct cli_command *cmd, int argc, char **argv, int (*run)(struct cli *cli, const char *arg))
{
	struct cli cli = { .run = { .seed = 1 } };
	const char *pos[1] = { NULL };
	unsigned npos;
	int rc;

	cli.run.cases_dir = getenv("EH_CASES_DIR") ? getenv("EH_CASES_DIR") : default_cases_dir();
	rc = cli_parse(cmd, argc, argv, on_option, &cli, pos, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	return run(&cli, pos[0]);
}

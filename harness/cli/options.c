/* The one option parser of every command and the --help each prints, both from its table; the options and value parsers commands share. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The options more than one command takes; a command picks its own (struct cli_use) and may word the help its way. */
const struct cli_option cli_opt_help = { "help", 'h', NULL, "this help" };
const struct cli_option cli_opt_model = { "model", 0, "NAME", "select CPU models: NAME,NAME,... or the option repeated" };
const struct cli_option cli_opt_format = { "format", 0, "F",
	"text (default), tap (TAP 13), junit (JUnit XML) or json (harness/schema/run-v3.json)" };
const struct cli_option cli_opt_output = { "output", 'o', "FILE",
	"write the report to FILE (complete, or not at all) instead of stdout" };
const struct cli_option cli_opt_verbose = { "verbose", 'v', NULL,
	"text: the details (evidence, every row) under each line" };
const struct cli_option cli_opt_width = { "width", 0, "N",
	"text: N columns a line (default: the terminal's, or 80; 0: no limit)" };
const struct cli_option cli_opt_svg = { "svg", 0, "FILE", "also draw the run as an SVG timeline into FILE" };
const struct cli_option cli_opt_seed = { "seed", 0, "N", "seed of every random choice (default 1)" };
const struct cli_option cli_opt_budget = { "budget", 0, "N",
	"instructions a thread may run before it is stopped (default 1000000)" };
const struct cli_option cli_opt_kernel = { "kernel", 0, "V", "the kernel version whose capability rules decide" };
const struct cli_option cli_opt_boot = { "boot", 0, "B",
	"how the kernel was booted: el2 (a host, VHE where the CPU has it; the default), "
	"nvhe (kvm-arm.mode=nvhe), el1 (a guest)" };
const struct cli_option cli_opt_config = { "config", 0, "FILE",
	"the kernel's .config: a capability whose CONFIG_ option is off is never detected "
	"(default: every option on)" };
const struct cli_option cli_opt_erratum = { "erratum", 0, "ID",
	"only these errata's rules: ID,ID,... or the option repeated (default: every "
	"erratum with a static rule)" };
const struct cli_option cli_opt_cpucaps = { "cpucaps", 0, "H",
	"capability numbers of the tree FILE was built from: 5.x "
	"arch/arm64/include/asm/cpucaps.h or 6.x arch/arm64/include/generated/asm/cpucaps.h. "
	"Without it (or --kernel) the numbering is read from FILE's own arm64_features[] and "
	"arm64_errata[] (a vmlinux; an object needs one); with it, it is checked against "
	"them and refused if they differ" };
const struct cli_option cli_opt_suppress = { "suppress", 0, "FILE",
	"findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...' (docs/audit.md); a "
	"suppressed finding is listed with its justification and counted, an entry that "
	"matches nothing is reported stale" };

/* The use of name by cmd, or NULL. */
static const struct cli_use *find_use(const struct cli_command *cmd, const char *name, size_t len, char letter)
{
	const struct cli_use *u;

	for (u = cmd->usage->uses; u->opt; u++)
		if (letter ? u->opt->letter == letter
			   : strlen(u->opt->name) == len && !strncmp(u->opt->name, name, len))
			return u;
	return NULL;
}

/* "--svg is an option of replay": an option another command takes, named with every command taking it. */
static int unknown(const struct cli_command *cmd, const char *arg, size_t len)
{
	const struct cli_command *c;
	char owners[256] = "";
	size_t n = 0;

	for (c = cli_commands; c->name; c++)
		if (c != cmd && find_use(c, arg + 2, len, 0))
			n += (size_t)snprintf(owners + n, n < sizeof(owners) ? sizeof(owners) - n : 0, "%s%s",
					      n ? ", " : "", c->name);
	if (n)
		return usage_error("%s: --%.*s is not an option of %s, but of %s (see %s --help)", cmd->name,
				   (int)len, arg + 2, cmd->name, owners, cmd->name);
	return usage_error("%s: unknown option '%s' (see %s --help)", cmd->name, arg, cmd->name);
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv, cli_option_fn *on_option, void *ctx,
	      const char **pos, unsigned *npos)
{
	unsigned seen[CLI_USES_MAX] = { 0 };  /* by row of the command's option table */
	bool options_end = false;
	int i, rc;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = NULL, *eq;
		const struct cli_use *u;
		size_t len;

		if (options_end || arg[0] != '-' || !arg[1]) {
			if (*npos == cmd->usage->max_args)
				return usage_error("%s: unexpected argument '%s' (see %s --help)", cmd->name, arg,
						   cmd->name);
			pos[(*npos)++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			options_end = true;
			continue;
		}
		if (arg[1] == '-') {
			eq = strchr(arg, '=');
			len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
			u = find_use(cmd, arg + 2, len, 0);
			if (!u)
				return unknown(cmd, arg, len);
			if (eq && !u->opt->arg)
				return usage_error("%s: --%s takes no value", cmd->name, u->opt->name);
			value = eq ? eq + 1 : NULL;
		} else {
			u = arg[2] ? NULL : find_use(cmd, NULL, 0, arg[1]);
			if (!u)
				return usage_error("%s: unknown option '%s' (see %s --help)", cmd->name, arg, cmd->name);
		}
		if (u->opt == &cli_opt_help) {
			cli_command_help(stdout, cmd);
			return -1;
		}
		if (u->opt->arg && !value) {
			if (i + 1 == argc)
				return usage_error("%s: --%s needs %s", cmd->name, u->opt->name, u->opt->arg);
			value = argv[++i];
		}
		if (seen[u - cmd->usage->uses]++ && !u->many)
			return usage_error("%s: --%s given twice; it takes one %s", cmd->name, u->opt->name,
					   u->opt->arg ? u->opt->arg : "use");
		rc = on_option(ctx, u->id, value);
		if (rc)
			return rc;
	}
	if (*npos < cmd->usage->min_args)
		return usage_error("%s: %s missing (see %s --help)", cmd->name, cmd->usage->args, cmd->name);
	return 0;
}

/* "--model NAME" or "-v, --verbose", indented: how an option is written in help, into buf. */
static const char *spelled(const struct cli_option *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "  -%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, len, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	return buf;
}

void cli_command_help(FILE *f, const struct cli_command *cmd)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	const struct cli_usage *us = cmd->usage;
	const struct cli_use *u;
	char name[80];

	fprintf(f, "usage: errata-harness %s%s%s [OPTIONS]\n\n", cmd->name, us->args[0] ? " " : "", us->args);
	eh_text_wrap(f, &style, 0, us->about);
	fputs("\noptions:\n", f);
	for (u = us->uses; u->opt; u++)
		eh_text_hang(f, &style, spelled(u->opt, name, sizeof(name)), 24, u->help ? u->help : u->opt->help);
	if (us->exit_status) {
		fputs("\n", f);
		eh_text_hang(f, &style, "exit status:", 14, us->exit_status);
	}
	if (us->help_tail)
		us->help_tail(f);
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

const char *cli_known_cases(char *buf, size_t len)
{
	const struct eh_case *const *c;
	size_t n = 0;

	buf[0] = 0;
	for (c = eh_cases; *c; c++)
		n = add_name(buf, len, n, (*c)->id);
	return buf;
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

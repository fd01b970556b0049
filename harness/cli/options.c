/* The one option parser of every subcommand, and the --help each one prints, both from its table. */
#include <string.h>

#include "cli.h"

/* Every option some command takes; commands pick theirs (struct cli_use) and may word the help their way. */
const struct cli_option cli_options[CLI_OPTIONS_MAX] = {
	[CLI_OPT_HELP] = { CLI_OPT_HELP, "help", 'h', NULL, "this help" },
	[CLI_OPT_CASE] = { CLI_OPT_CASE, "case", 0, "ID", "select cases: ID,ID,... or the option repeated" },
	[CLI_OPT_MODEL] = { CLI_OPT_MODEL, "model", 0, "NAME", "select CPU models: NAME,NAME,... or the option repeated" },
	[CLI_OPT_VARIANT] = { CLI_OPT_VARIANT, "variant", 0, "NAME",
			      "select variants: NAME,NAME,... or the option repeated" },
	[CLI_OPT_COMMIT] = { CLI_OPT_COMMIT, "commit", 0, "HASH",
			     "select the cases verifying a commit of the seed series (4 or more hex digits; "
			     "a list, or the option repeated)" },
	[CLI_OPT_SHARD] = { CLI_OPT_SHARD, "shard", 0, "K/N",
			    "only part K of N of the selection: every N-th scenario from the K-th" },
	[CLI_OPT_FORMAT] = { CLI_OPT_FORMAT, "format", 0, "F",
			     "text (default), tap (TAP 13), junit (JUnit XML) or json (harness/schema/run-v3.json)" },
	[CLI_OPT_OUTPUT] = { CLI_OPT_OUTPUT, "output", 'o', "FILE",
			     "write the report to FILE (complete, or not at all) instead of stdout" },
	[CLI_OPT_BY_COMMIT] = { CLI_OPT_BY_COMMIT, "by-commit", 0, NULL,
				"a line per commit of the seed series: the cases verifying it and what they showed" },
	[CLI_OPT_MUTANTS] = { CLI_OPT_MUTANTS, "mutants", 0, NULL,
			      "run every case's mutants (source changes its judge must see) over its matrix "
			      "and print the kill table" },
	[CLI_OPT_VERBOSE] = { CLI_OPT_VERBOSE, "verbose", 'v', NULL,
			      "text: the details (evidence, every row) under each line" },
	[CLI_OPT_WIDTH] = { CLI_OPT_WIDTH, "width", 0, "N",
			    "text: N columns a line (default: the terminal's, or 80; 0: no limit)" },
	[CLI_OPT_MATRIX] = { CLI_OPT_MATRIX, "matrix", 0, NULL,
			     "the selected scenarios, one 'CASE VARIANT MODEL' per line" },
	[CLI_OPT_SVG] = { CLI_OPT_SVG, "svg", 0, "FILE", "also draw the run as an SVG timeline into FILE" },
	[CLI_OPT_SEED] = { CLI_OPT_SEED, "seed", 0, "N", "seed of every random choice (default 1)" },
	[CLI_OPT_BUDGET] = { CLI_OPT_BUDGET, "budget", 0, "N",
			     "instructions a thread may run before it is stopped (default 1000000)" },
	[CLI_OPT_ERRATA] = { CLI_OPT_ERRATA, "errata", 0, NULL,
			     "the errata: the CPUs each affects, the kernel's workaround, the static rule, the "
			     "dynamic behaviour and the cases that run it" },
	[CLI_OPT_CASES_DIR] = { CLI_OPT_CASES_DIR, "cases-dir", 0, "DIR",
				"where the built snippets are (default: $EH_CASES_DIR, else "
				"share/errata-harness/cases of the installed tool's prefix, or the build "
				"tree's cases/ for the tool built there)" },
	[CLI_OPT_KERNEL] = { CLI_OPT_KERNEL, "kernel", 0, "V", "the kernel version whose capability rules decide" },
	[CLI_OPT_BOOT] = { CLI_OPT_BOOT, "boot", 0, "B",
			   "how the kernel was booted: el2 (a host, VHE where the CPU has it; the default), "
			   "nvhe (kvm-arm.mode=nvhe), el1 (a guest)" },
	[CLI_OPT_CONFIG] = { CLI_OPT_CONFIG, "config", 0, "FILE",
			     "the kernel's .config: a capability whose CONFIG_ option is off is never detected "
			     "(default: every option on)" },
	[CLI_OPT_RULES] = { CLI_OPT_RULES, "rules", 0, NULL,
			    "the kernel version's capability rules instead of the models" },
	[CLI_OPT_ERRATUM] = { CLI_OPT_ERRATUM, "erratum", 0, "ID",
			      "only these errata's rules: ID,ID,... or the option repeated (default: every "
			      "erratum with a static rule)" },
	[CLI_OPT_CPUCAPS] = { CLI_OPT_CPUCAPS, "cpucaps", 0, "H",
			      "capability numbers of the tree FILE was built from: 5.x "
			      "arch/arm64/include/asm/cpucaps.h or 6.x arch/arm64/include/generated/asm/cpucaps.h. "
			      "Without it (or --kernel) the numbering is read from FILE's own arm64_features[] and "
			      "arm64_errata[] (a vmlinux; an object needs one); with it, it is checked against "
			      "them and refused if they differ" },
	[CLI_OPT_SUPPRESS] = { CLI_OPT_SUPPRESS, "suppress", 0, "FILE",
			       "findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...' (README); a "
			       "suppressed finding is listed with its justification and counted, an entry that "
			       "matches nothing is reported stale" },
	[CLI_OPT_LIST_ALTERNATIVES] = { CLI_OPT_LIST_ALTERNATIVES, "list-alternatives", 0, NULL,
					"list every alternative site instead: symbol+offset, capability, applied "
					"or not and why; a callback with its function and what it did (emulated: "
					"alt_cb_patch_nops, KVM's, Spectre's)" },
	[CLI_OPT_BASELINE] = { CLI_OPT_BASELINE, "baseline", 0, "OLD",
			       "compare (one model): audit OLD too (same numbering, config, boot) and report "
			       "each finding as introduced, removed or unchanged, matched by erratum and "
			       "symbol+offset of its anchor and of itself. OLD should be the upstream FILE's "
			       "change goes into (README)" },
	[CLI_OPT_SYMBOL] = { CLI_OPT_SYMBOL, "symbol", 0, "SYM[+OFF]",
			     "where to start: a symbol, symbol+offset or 0x address, in code" },
	[CLI_OPT_REG] = { CLI_OPT_REG, "reg", 0, "xN=VAL",
			  "initial x0..x30 or sp (repeatable); x30 is the harness's return" },
	[CLI_OPT_MEM] = { CLI_OPT_MEM, "mem", 0, "ADDR=FILE",
			  "the bytes of FILE at ADDR (SYM[+OFF] or 0x...), repeatable" },
	[CLI_OPT_UNTIL] = { CLI_OPT_UNTIL, "until", 0, "SYM|ADDR", "stop on reaching this address" },
	[CLI_OPT_RANGE] = { CLI_OPT_RANGE, "range", 0, "FROM:TO",
			    "the code the run may fetch from (each end SYM[+OFF] or 0x...), instead of SYM's "
			    "section; calls to stubs always return" },
	[CLI_OPT_SUMMARY] = { CLI_OPT_SUMMARY, "summary", 0, NULL,
			      "text without the trace: how the run stopped and what its erratum windows held "
			      "(a runaway loop's trace can be millions of lines)" },
	[CLI_OPT_FROM] = { CLI_OPT_FROM, "from", 0, "FILE",
			   "a model of the machine FILE describes: /sys/devices/system/cpu (or a copy), a "
			   "listing of its cpu*/regs/identification files, an ID register dump (NAME=VALUE "
			   "lines, tests/qemu/probe/) or a boot log (README)" },
	[CLI_OPT_MODEL_FROM] = { CLI_OPT_MODEL_FROM, "model-from", 0, "FILE",
				 "also (without --model: only) the model of the machine FILE describes, as "
				 "models --from reads it" },
	[CLI_OPT_ALL] = { CLI_OPT_ALL, "all", 0, NULL, "text: every row, not only the summary" },
};

/* The use of name by cmd, or NULL. */
static const struct cli_use *find_use(const struct cli_command *cmd, const char *name, size_t len, char letter)
{
	const struct cli_use *u;

	for (u = cmd->uses; u && u->opt; u++)
		if (letter ? u->opt->letter == letter
			   : strlen(u->opt->name) == len && !strncmp(u->opt->name, name, len))
			return u;
	return NULL;
}

/* "--svg is an option of replay": an option another command takes, named with every command taking it. */
static int unknown(const struct cli_command *cmd, const char *arg, size_t len)
{
	const struct cli_command *const *c;
	char owners[256] = "";
	size_t n = 0;

	for (c = cli_commands; *c; c++)
		if (*c != cmd && find_use(*c, arg + 2, len, 0))
			n += (size_t)snprintf(owners + n, n < sizeof(owners) ? sizeof(owners) - n : 0, "%s%s",
					      n ? ", " : "", (*c)->name);
	if (n)
		return usage_error("%s: --%.*s is not an option of %s, but of %s (see %s --help)", cmd->name,
				   (int)len, arg + 2, cmd->name, owners, cmd->name);
	return usage_error("%s: unknown option '%s' (see %s --help)", cmd->name, arg, cmd->name);
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv, cli_option_fn *on_option, void *ctx,
	      const char **pos, unsigned *npos)
{
	unsigned seen[CLI_OPTIONS_MAX] = { 0 };
	bool options_end = false;
	int i, rc;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = NULL, *eq;
		const struct cli_use *u;
		size_t len;

		if (options_end || arg[0] != '-' || !arg[1]) {
			if (*npos == cmd->max_args)
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
		if (u->opt->id == CLI_OPT_HELP) {
			cli_command_help(stdout, cmd);
			return -1;
		}
		if (u->opt->arg && !value) {
			if (i + 1 == argc)
				return usage_error("%s: --%s needs %s", cmd->name, u->opt->name, u->opt->arg);
			value = argv[++i];
		}
		if (seen[u->opt->id]++ && !u->many)
			return usage_error("%s: --%s given twice; it takes one %s", cmd->name, u->opt->name,
					   u->opt->arg ? u->opt->arg : "use");
		rc = on_option(ctx, u->opt, value);
		if (rc)
			return rc;
	}
	if (*npos < cmd->min_args)
		return usage_error("%s: %s missing (see %s --help)", cmd->name, cmd->args, cmd->name);
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
	const struct cli_use *u;
	char name[80];

	fprintf(f, "usage: errata-harness %s%s%s [OPTIONS]\n\n", cmd->name, cmd->args[0] ? " " : "", cmd->args);
	eh_text_wrap(f, &style, 0, cmd->about);
	fputs("\noptions:\n", f);
	for (u = cmd->uses; u->opt; u++) {
		eh_text_hang(f, &style, spelled(u->opt, name, sizeof(name)), 24, u->help ? u->help : u->opt->help);
	}
	if (cmd->exit_status) {
		fputs("\n", f);
		eh_text_hang(f, &style, "exit status:", 14, cmd->exit_status);
	}
	if (cmd->help_tail)
		cmd->help_tail(f);
}

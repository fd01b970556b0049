/* The command-line tool's shared pieces: the command table and its rows, the one option parser, and what the commands share. */
#ifndef EH_CLI_H
#define EH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eh/case.h"
#include "eh/erratum.h"
#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/json.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/report.h"
#include "eh/run.h"
#include "eh/suppress.h"
#include "eh/text.h"

#define EXIT_UNEXPECTED 1
#define EXIT_BAD_INPUT 2

/* An option as help spells and describes it; the options several commands take are shared (cli/options.c). */
struct cli_option {
	const char *name;       /* --name */
	char letter;            /* -x as well, or 0 */
	const char *arg;        /* the value it takes, as help names it ("FILE"); NULL: a flag */
	const char *help;
};

extern const struct cli_option cli_opt_help, cli_opt_model, cli_opt_format, cli_opt_output, cli_opt_verbose,
	cli_opt_width, cli_opt_svg, cli_opt_seed, cli_opt_budget, cli_opt_kernel, cli_opt_boot, cli_opt_config,
	cli_opt_erratum, cli_opt_cpucaps, cli_opt_suppress;

/* An option as one command takes it: one row of the command's option table. */
struct cli_use {
	const struct cli_option *opt;
	int id;                 /* what the command's handler calls it (an enum of the command's own) */
	bool many;              /* may be given more than once */
	const char *help;       /* this command's wording, or NULL for the option's */
};

/* A command's arguments and its --help, from its own file (cli/cmd_NAME.c). */
struct cli_usage {
	const char *args;       /* its positional arguments as help shows them ("CASE"), or "" */
	unsigned min_args, max_args;
	const char *about;      /* the paragraph its --help starts with */
	const char *exit_status;
	const struct cli_use *uses;  /* its option table; ends with { 0 }; at most CLI_USES_MAX rows */
	void (*help_tail)(FILE *f);  /* what its --help adds last (lists from the registry), or NULL */
};

#define CLI_USES_MAX 32

struct cli_command;
/* A command: argv[0] is its name; returns the exit status. */
typedef int cli_command_fn(const struct cli_command *cmd, int argc, char **argv);

/* One row of the command table (cli/main.c). */
struct cli_command {
	const char *name;
	cli_command_fn *run;
	const char *summary;    /* one line, for the global help */
	const struct cli_usage *usage;
	bool reads_kernels;     /* it reads whole kernel images: its heap is reserved in huge pages */
};

/* Every command, in the order the global help lists them; ends with { 0 } (cli/main.c). */
extern const struct cli_command cli_commands[];

extern const struct cli_usage cmd_list_usage, cmd_models_usage, cmd_run_usage, cmd_replay_usage,
	cmd_audit_usage, cmd_report_usage, cmd_exec_usage;
cli_command_fn cmd_list, cmd_models, cmd_run, cmd_replay, cmd_audit, cmd_report, cmd_exec;

/* Called with the id of the command's table row and its value (NULL for a flag). */
typedef int cli_option_fn(void *ctx, int id, const char *value);

/*
 * Parse argv (argv[0] is the command) against cmd's option table: each option calls
 * on_option with its row's id and value, in order; the other arguments go to pos (at
 * most max_args of them). An unknown option, one of another command, a missing value,
 * a value given to a flag, a single-valued option given twice, and too many or too few
 * arguments are refused with a message naming them: EXIT_BAD_INPUT. --help prints
 * the command's help and returns -1. Returns on_option's first non-zero result.
 */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, cli_option_fn *on_option, void *ctx,
	      const char **pos, unsigned *npos);
/* The command's --help, from its table, within 80 columns. */
void cli_command_help(FILE *f, const struct cli_command *cmd);

/* What list, run and replay were asked for. */
struct cli {
	struct eh_selection sel;
	struct eh_run_opts run;
	enum eh_format format;
	bool format_given;
	const char *format_arg;  /* --format as given: run reads it as a report format, list --errata as text|markdown */
	bool errata;          /* list --errata */
	bool by_commit;       /* run --by-commit */
	bool mutants;         /* run --mutants */
	struct eh_text_style style;  /* -v, --width */
	bool width_given;
	bool matrix;          /* list --matrix */
	const char *output;   /* run --output FILE; NULL is stdout */
	const char *svg;      /* replay --svg FILE */
};

/* The options of list, run and replay: the ids of their option tables, read into struct cli (cli/scenario.c). */
enum cli_scenario_opt {
	CLI_SC_CASE = 1,
	CLI_SC_MODEL,
	CLI_SC_VARIANT,
	CLI_SC_COMMIT,
	CLI_SC_SHARD,
	CLI_SC_FORMAT,
	CLI_SC_ERRATA,
	CLI_SC_OUTPUT,
	CLI_SC_BY_COMMIT,
	CLI_SC_MUTANTS,
	CLI_SC_VERBOSE,
	CLI_SC_WIDTH,
	CLI_SC_MATRIX,
	CLI_SC_SVG,
	CLI_SC_SEED,
	CLI_SC_BUDGET,
	CLI_SC_CASES_DIR,
};

extern const struct cli_option cli_opt_case, cli_opt_variant, cli_opt_commit, cli_opt_shard, cli_opt_cases_dir;

/*
 * list, run or replay (cmd): argv parsed into a struct cli after the defaults (seed 1,
 * the cases directory), as cli_parse does, then run with it and the command's
 * argument (NULL when it takes none). The exit status.
 */
int cli_scenario_run(const struct cli_command *cmd, int argc, char **argv, int (*run)(struct cli *cli, const char *arg));

/* The selection's rows of an option table, as list and run take them. */
#define CLI_SC_SELECTION_USES                                  \
	{ &cli_opt_case, CLI_SC_CASE, true },                  \
	{ &cli_opt_model, CLI_SC_MODEL, true },                \
	{ &cli_opt_variant, CLI_SC_VARIANT, true },            \
	{ &cli_opt_commit, CLI_SC_COMMIT, true },              \
	{ &cli_opt_shard, CLI_SC_SHARD }

int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "errata-harness CMD: message" on stderr; returns EXIT_BAD_INPUT. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add "NAME,NAME,..." to the selection of kind (cli/options.c); an unknown name is EXIT_BAD_INPUT. */
int cli_add_selection(struct eh_selection *sel, enum eh_select_kind kind, const char *value);
/* The registry's model names, separated by spaces, into buf (cli/options.c). */
const char *cli_known_models(char *buf, size_t len);
/* Every case's id, as cli_known_models. */
const char *cli_known_cases(char *buf, size_t len);
/* A non-negative integer option (decimal or 0x hex); otherwise print why and return EXIT_BAD_INPUT. */
int cli_parse_u64(const char *opt, const char *arg, uint64_t *out);

/* A report or picture being written: to stdout, or to a temporary file renamed to path when complete. */
struct cli_output {
	const char *path;
	char *tmp;            /* NULL for stdout */
	FILE *f;
};

/* Open path for a report ("-" or NULL is stdout); on failure print why and return EXIT_BAD_INPUT. */
int cli_open_output(struct cli_output *o, const char *path);
/* Finish it: flush, close and rename into place; a failed write is EXIT_BAD_INPUT (nothing replaced). */
int cli_close_output(struct cli_output *o);
/* Drop what was written (the file at path is left as it was). */
void cli_abandon_output(struct cli_output *o);

/* list --errata: the errata table (cli/errata.c). */
int cmd_list_errata(struct cli *cli);

/* The capability numbering given to audit and exec, the .config and the boot mode (cli/inputs.c). */
struct cli_inputs {
	const struct eh_cpucaps *caps;  /* NULL: none given, the ELF's own tables number them */
	struct eh_cpucaps *owned_caps;
	struct eh_kconfig *config;    /* NULL: every option on */
	enum eh_boot boot;            /* --boot, EH_BOOT_EL2 unless given */
};

/* At most one of cpucaps (a header) and kernel (a built-in table); config and boot (a name
 * of eh_boot_names) optional. On bad input print why, naming cmd and the file, and return
 * EXIT_BAD_INPUT. */
int cli_inputs_open(struct cli_inputs *in, const char *cmd, const char *cpucaps, const char *kernel,
		    const char *config, const char *boot);
/* The .config a build is patched with, and where it came from (cli/inputs.c). */
struct cli_config {
	const struct eh_kconfig *config;  /* NULL: every option on */
	struct eh_kconfig *embedded;      /* the image's own (CONFIG_IKCONFIG), when it is the one used */
	char source[600];                 /* where it came from, in words */
};

/*
 * --config (in->config, read from path), else the .config a kernel built with
 * CONFIG_IKCONFIG embeds in elf, else every option on. An embedded one that
 * cannot be read is an input error naming the file. eh_kconfig_free c->embedded.
 */
int cli_config_choose(struct cli_config *c, const struct cli_inputs *in, const char *path, const struct eh_elf *elf,
		      struct eh_error *err);

/* The models and errata a command's --model and --erratum lists select (cli/inputs.c). */
struct cli_pick {
	const struct eh_model **models;      /* in the order named, each once; "all" is the registry's */
	size_t nmodels;
	const struct eh_erratum **errata;    /* NULL-terminated, in the registry's order */
	size_t nerrata;
};

/*
 * The models named by models (nmodels comma lists; a name or all) and the errata
 * named by errata (nerrata comma lists of ids with a static rule; none: every
 * erratum with one). p->models has room for one model more than the registry holds. An unknown or empty name is EXIT_BAD_INPUT with a message naming cmd.
 */
int cli_pick(struct cli_pick *p, const char *cmd, const char *const *models, size_t nmodels,
	     const char *const *errata, size_t nerrata);
void cli_pick_free(struct cli_pick *p);
/* A suppression file (NULL: none, *out NULL), its errata checked against the registry; EXIT_BAD_INPUT naming it. */
int cli_suppress_open(struct eh_suppressions **out, const char *cmd, const char *path);
void cli_inputs_close(struct cli_inputs *in);
/* The help's paragraph on what an input file of cmd ("audit", "exec") may be (eh/file.h limits). */
void cli_print_input_limits(FILE *f, const char *cmd);

/* The width of text output to f: --width, else the terminal's when f is one, else EH_TEXT_WIDTH. */
void cli_text_style(struct cli *cli, FILE *f);
/* The same for a style of a command's own (given: --width was). */
void cli_text_width(struct eh_text_style *style, bool given, FILE *f);
/* --width N: N columns, 0 for no limit; otherwise print why and return EXIT_BAD_INPUT. */
int cli_parse_width(const char *value, unsigned *out);

/*
 * The trace of m, one numbered line per event, as replay and exec print it
 * (cli/output.c): the words screened as the image was mapped in one line before
 * it (in the trace only those the run reached), each loop's first pass and then
 * how often it ran.
 */
void cli_print_trace(struct eh_machine *m);
/* cli_print_trace's line on the screened words alone, for a summary without the trace. */
void cli_print_screened(struct eh_machine *m);

#endif

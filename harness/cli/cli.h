/* The command-line tool: its parsed options and the commands that live in their own files. */
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

/* Every option of the command line, by what it is; struct cli_option names and describes each. */
enum cli_option_id {
	CLI_OPT_HELP = 1,
	CLI_OPT_CASE,
	CLI_OPT_MODEL,
	CLI_OPT_VARIANT,
	CLI_OPT_COMMIT,
	CLI_OPT_SHARD,
	CLI_OPT_FORMAT,
	CLI_OPT_OUTPUT,
	CLI_OPT_BY_COMMIT,
	CLI_OPT_MUTANTS,
	CLI_OPT_VERBOSE,
	CLI_OPT_WIDTH,
	CLI_OPT_MATRIX,
	CLI_OPT_SVG,
	CLI_OPT_SEED,
	CLI_OPT_BUDGET,
	CLI_OPT_CASES_DIR,
	CLI_OPT_ERRATA,
	CLI_OPT_KERNEL,
	CLI_OPT_BOOT,
	CLI_OPT_CONFIG,
	CLI_OPT_RULES,
	CLI_OPT_ERRATUM,
	CLI_OPT_CPUCAPS,
	CLI_OPT_SUPPRESS,
	CLI_OPT_LIST_ALTERNATIVES,
	CLI_OPT_BASELINE,
	CLI_OPT_SYMBOL,
	CLI_OPT_REG,
	CLI_OPT_MEM,
	CLI_OPT_UNTIL,
	CLI_OPT_RANGE,
	CLI_OPT_SUMMARY,
	CLI_OPT_FROM,
	CLI_OPT_MODEL_FROM,
	CLI_OPT_ALL,
	CLI_OPTIONS_MAX = 64,
};

struct cli_option {
	enum cli_option_id id;
	const char *name;       /* --name */
	char letter;            /* -x as well, or 0 */
	const char *arg;        /* the value it takes, as help names it ("FILE"); NULL: a flag */
	const char *help;
};

extern const struct cli_option cli_options[CLI_OPTIONS_MAX];

/* An option as one command takes it. */
struct cli_use {
	const struct cli_option *opt;
	bool many;              /* may be given more than once */
	const char *help;       /* this command's wording, or NULL for the option's */
};

/* A subcommand: what it takes, and what its --help says. */
struct cli_command {
	const char *name;
	const char *args;       /* its positional arguments as help shows them ("CASE"), or "" */
	unsigned min_args, max_args;
	const char *summary;    /* one line, for the global help */
	const char *about;      /* the paragraph its --help starts with */
	const char *exit_status;
	const struct cli_use *uses;  /* ends with { 0 } */
	void (*help_tail)(FILE *f);  /* what its --help adds last (lists from the registry), or NULL */
};

/* Every subcommand, in the order the global help lists them; NULL-terminated (cli/main.c). */
extern const struct cli_command *const cli_commands[];

typedef int cli_option_fn(void *ctx, const struct cli_option *opt, const char *value);

/*
 * Parse argv (argv[0] is the command) against cmd: each option calls on_option with
 * its value (NULL for a flag), in order; the other arguments go to pos (at most
 * cmd->max_args of them). An unknown option, one of another command, a missing
 * value, a value given to a flag, a single-valued option given twice, and too many
 * or too few arguments are refused with a message naming them: EXIT_BAD_INPUT.
 * --help prints the command's help and returns -1. Returns on_option's first
 * non-zero result.
 */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, cli_option_fn *on_option, void *ctx,
	      const char **pos, unsigned *npos);
/* The command's --help, from its table, within 80 columns. */
void cli_command_help(FILE *f, const struct cli_command *cmd);

int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "errata-harness CMD: message" on stderr; returns EXIT_BAD_INPUT. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add "NAME,NAME,..." to the selection of kind (cli/main.c); an unknown name is EXIT_BAD_INPUT. */
int cli_add_selection(struct eh_selection *sel, enum eh_select_kind kind, const char *value);
/* The registry's model names, separated by spaces, into buf (cli/main.c). */
const char *cli_known_models(char *buf, size_t len);
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
/* run: the selected matrix, reported in the chosen format (cli/run.c). */
int cmd_run(struct cli *cli);
/* list --matrix: the selected scenarios of the shard, "CASE VARIANT MODEL" per line (cli/run.c). */
int cmd_list_matrix(struct cli *cli);
extern const struct cli_command cli_audit_command, cli_exec_command, cli_models_command, cli_report_command;
/* errata-harness audit FILE ...: argv[0] is "audit" (cli/audit.c). */
int cli_audit(int argc, char **argv);
/* errata-harness report FILE ...: argv[0] is "report" (cli/report.c). */
int cli_report(int argc, char **argv);
/* errata-harness models ...: argv[0] is "models" (cli/models.c). */
int cli_models(int argc, char **argv);
/* Each capability img's alternatives test, once, with the rule that decided it on t (cli/models.c). */
void cli_print_cap_decisions(const struct eh_image *img, const struct eh_target *t);
/* errata-harness exec FILE ...: argv[0] is "exec" (cli/exec.c). */
int cli_exec(int argc, char **argv);

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
/*
 * The suppressions of the picked errata that matched nothing (stale): as a "stale" array
 * of j, or (j NULL) a paragraph each on f within style's width. Returns how many.
 */
size_t cli_print_stale(const struct eh_suppressions *sup, const struct cli_pick *pick, struct eh_json *j, FILE *f,
		       const struct eh_text_style *style);
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

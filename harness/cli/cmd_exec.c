/* errata-harness exec: run code straight out of a user's vmlinux or kernel object on a CPU model, traced. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/erratum.h"
#include "eh/json.h"
#include "eh/report.h"
#include "eh/exec.h"
#include "eh/insn.h"
#include "eh/model.h"
#include "eh/svg.h"

#define EXEC_MAX_ARGS 64    /* --reg and --mem, each */

struct exec_args {
	const char *file, *model, *cpucaps, *kernel, *config, *boot, *svg;
	struct eh_exec_opts o;
	struct eh_exec_reg regs[EXEC_MAX_ARGS];
	const char *mems[EXEC_MAX_ARGS];
	bool json;
	bool summary;       /* --summary: no trace */
};

static const struct cli_option opt_symbol = { "symbol", 0, "SYM[+OFF]",
	"where to start: a symbol, symbol+offset or 0x address, in code" };
static const struct cli_option opt_reg = { "reg", 0, "xN=VAL",
	"initial x0..x30 or sp (repeatable); x30 is the harness's return" };
static const struct cli_option opt_mem = { "mem", 0, "ADDR=FILE",
	"the bytes of FILE at ADDR (SYM[+OFF] or 0x...), repeatable" };
static const struct cli_option opt_until = { "until", 0, "SYM|ADDR", "stop on reaching this address" };
static const struct cli_option opt_range = { "range", 0, "FROM:TO",
	"the code the run may fetch from (each end SYM[+OFF] or 0x...), instead of SYM's "
	"section; calls to stubs always return" };
static const struct cli_option opt_summary = { "summary", 0, NULL,
	"text without the trace: how the run stopped and what its erratum windows held "
	"(a runaway loop's trace can be millions of lines)" };

/* The rows of exec's option table. */
enum exec_opt {
	EXEC_SYMBOL = 1,
	EXEC_MODEL,
	EXEC_CPUCAPS,
	EXEC_KERNEL,
	EXEC_CONFIG,
	EXEC_BOOT,
	EXEC_REG,
	EXEC_MEM,
	EXEC_UNTIL,
	EXEC_RANGE,
	EXEC_BUDGET,
	EXEC_SEED,
	EXEC_SVG,
	EXEC_FORMAT,
	EXEC_SUMMARY,
};

static const struct cli_use exec_uses[] = {
	{ &opt_symbol, EXEC_SYMBOL },
	{ &cli_opt_model, EXEC_MODEL, false, "the CPU, its threads and errata, and what the kernel detects on "
	  "it (required)" },
	{ &cli_opt_cpucaps, EXEC_CPUCAPS, false, "the capability numbering of FILE's tree, as audit takes it" },
	{ &cli_opt_kernel, EXEC_KERNEL, false, "or a built-in numbering, as audit takes it" },
	{ &cli_opt_config, EXEC_CONFIG },
	{ &cli_opt_boot, EXEC_BOOT, false, "how the kernel was booted: el2 (a host, VHE where the CPU has "
	  "it; the default), nvhe (kvm-arm.mode=nvhe), el1 (a guest); a write of the guest's TTBR from "
	  "EL2 is not the host's, as in audit" },
	{ &opt_reg, EXEC_REG, true },
	{ &opt_mem, EXEC_MEM, true },
	{ &opt_until, EXEC_UNTIL },
	{ &opt_range, EXEC_RANGE },
	{ &cli_opt_budget, EXEC_BUDGET },
	{ &cli_opt_seed, EXEC_SEED, false, "seed of every random choice, e.g. an erratum's victim thread "
	  "(default 1)" },
	{ &cli_opt_svg, EXEC_SVG },
	{ &cli_opt_format, EXEC_FORMAT, false, "the trace as text (default) or json "
	  "(harness/schema/exec-v2.json)" },
	{ &opt_summary, EXEC_SUMMARY },
	{ &cli_opt_help },
	{ 0 },
};

static void exec_help_tail(FILE *f)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	char names[4096];

	cli_print_input_limits(f, "exec");
	fputs("\n", f);
	eh_text_hang(f, &style, "models:", 9, cli_known_models(names, sizeof(names)));
}

const struct cli_usage cmd_exec_usage = {
	.args = "FILE", .min_args = 1, .max_args = 1,
	.about = "Loads FILE, an AArch64 vmlinux or kernel object (ET_REL: its sections are placed at "
		 "kernel-like addresses and its relocations applied, as if linked), patches the kernel's "
		 "boot-time alternatives for CPU model M, and runs it on hardware thread 0 from --symbol, "
		 "event by event, as replay does. The run stops at an ERET, a return to the harness (x30 on "
		 "entry), on leaving the symbol's section (or --range), at --until, at an exception, or when "
		 "the instruction budget is spent. A call to a symbol the object does not define lands on a "
		 "stub that records the call with x0..x7 and returns 0; a load or store outside the image "
		 "gets a zero-filled page, recorded in the trace. The model's errata act as in the cases.",
	.exit_status = "0 the run stopped and no erratum acted (no fault injected, no hazard recorded by an "
		       "erratum that shows on the model), 1 an erratum acted or the run did not stop within its "
		       "budget, 2 bad usage or bad input",
	.uses = exec_uses,
	.help_tail = exec_help_tail,
};

static int on_option(void *ctx, int id, const char *value)
{
	struct exec_args *a = ctx;
	struct eh_error err = { 0 };

	switch ((enum exec_opt)id) {
	case EXEC_SYMBOL: a->o.symbol = value; return 0;
	case EXEC_MODEL: a->model = value; return 0;
	case EXEC_CPUCAPS: a->cpucaps = value; return 0;
	case EXEC_KERNEL: a->kernel = value; return 0;
	case EXEC_CONFIG: a->config = value; return 0;
	case EXEC_BOOT: a->boot = value; return 0;
	case EXEC_UNTIL: a->o.until = value; return 0;
	case EXEC_RANGE: a->o.range = value; return 0;
	case EXEC_SVG: a->svg = value; return 0;
	case EXEC_BUDGET:
		if (cli_parse_u64("--budget", value, &a->o.budget))
			return EXIT_BAD_INPUT;
		return a->o.budget ? 0 : usage_error("exec: --budget: at least one instruction");
	case EXEC_SEED: return cli_parse_u64("--seed", value, &a->o.seed);
	case EXEC_REG:
		if (a->o.nregs == EXEC_MAX_ARGS)
			return cli_error("exec", "--reg: at most %d of them", EXEC_MAX_ARGS);
		if (eh_exec_parse_reg(value, &a->regs[a->o.nregs++], &err))
			return cli_error("exec", "%s", err.msg);
		return 0;
	case EXEC_MEM:
		if (a->o.nmems == EXEC_MAX_ARGS)
			return cli_error("exec", "--mem: at most %d of them", EXEC_MAX_ARGS);
		a->mems[a->o.nmems++] = value;
		return 0;
	case EXEC_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json"))
			return cli_error("exec", "--format: '%s' is neither text nor json", value);
		a->json = !strcmp(value, "json");
		return 0;
	case EXEC_SUMMARY: a->summary = true; return 0;
	}
	return 0;
}

static int parse_args(const struct cli_command *cmd, int argc, char **argv, struct exec_args *a)
{
	const char *pos[1];
	unsigned npos;
	int rc;

	a->o.seed = 1;
	rc = cli_parse(cmd, argc, argv, on_option, a, pos, &npos);
	if (rc)
		return rc;
	a->file = pos[0];
	if (!a->o.symbol)
		return cli_error("exec", "--symbol is required: where the run starts");
	if (!a->model)
		return cli_error("exec", "--model is required (see errata-harness models)");
	if (a->summary && a->json)
		return cli_error("exec", "--summary is a text report; the JSON report has the summary's fields");
	if (a->svg && !strcmp(a->svg, "-"))
		return cli_error("exec", "--svg needs a file name: the trace goes to stdout");
	a->o.regs = a->regs;
	a->o.mems = a->mems;
	return 0;
}

static const char *where(const struct eh_exec *x, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(x->elf, addr, buf, len);
}

static size_t count_kind(const struct eh_trace *tr, enum eh_event_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < tr->n; i++)
		n += tr->events[i].kind == kind;
	return n;
}

/* "stopped: left the code at vectors+0x404 after 37 instructions" into buf. */
static const char *stop_line(const struct eh_exec *x, char *buf, size_t len)
{
	char loc[160];

	if (x->res->stop == EH_STOP_RETURNED)
		snprintf(buf, len, "stopped: returned to the harness after %" PRIu64 " instructions",
			 x->res->executed);
	else
		snprintf(buf, len, "stopped: %s at %s after %" PRIu64 " instructions", eh_stop_name(x->res->stop),
			 where(x, x->res->pc, loc, sizeof(loc)), x->res->executed);
	return buf;
}

/*
 * The errata whose behaviour marked something in the run (a window, an injection,
 * a hazard), as "id, id (not shown on MODEL)" into buf. A behaviour marks its
 * hazards on every model; it acts only where its erratum shows.
 */
/*
 * Whether erratum e shows where event ev ran: on the thread's core (a system's core may not have
 * an erratum another has).
 */
static bool shows_at(const struct eh_machine *m, const struct eh_erratum *e, const struct eh_event *ev)
{
	const struct eh_model *core = eh_machine_thread_core(m, ev->thread);

	return eh_erratum_shows(e, core ? core : eh_machine_model(m));
}

static const char *errata_marked(const struct eh_machine *m, char *buf, size_t len)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	const struct eh_erratum *const *e;
	size_t i, n = 0;

	buf[0] = 0;
	for (e = eh_errata; *e; e++)
		for (i = 0; i < tr->n; i++)
			if (eh_event_erratum(&tr->events[i]) == *e) {
				n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s%s", n ? ", " : "", (*e)->id,
						      shows_at(m, *e, &tr->events[i]) ? "" : " (does not show here)");
				break;
			}
	return n ? buf : "none";
}

/* Hazards recorded by errata that show where they ran: the ones that make the run fail. */
static unsigned hazards_shown(const struct eh_machine *m)
{
	const struct eh_trace *tr = eh_machine_trace(m);
	unsigned n = 0;
	size_t i;

	for (i = 0; i < tr->n; i++) {
		const struct eh_erratum *e = eh_event_erratum(&tr->events[i]);

		n += tr->events[i].kind == EH_EV_HAZARD && e && shows_at(m, e, &tr->events[i]);
	}
	return n;
}

static const char *plural(unsigned n, const char *many)
{
	return n == 1 ? "" : many;
}

/* What the errata did (windows and what they held, injections, hazards), then stub calls and zero pages. */
static const char *summary_line(const struct eh_exec *x, char *buf, size_t len)
{
	const struct eh_trace *tr = eh_machine_trace(x->machine);
	struct eh_window_summary s;
	unsigned stubs = (unsigned)count_kind(tr, EH_EV_STUB_CALL), pages = (unsigned)count_kind(tr, EH_EV_PAGE);
	char acted[256];

	eh_trace_summarise(tr, &s);
	snprintf(buf, len, "errata marking: %s; %u window%s with %u load%s, %u store%s, %u prefetch%s inside; "
		 "%u fault%s injected (%u taken); %u hazard%s recorded (%u where the erratum shows); "
		 "%u stub call%s; %u zero page%s",
		 errata_marked(x->machine, acted, sizeof(acted)), s.windows, plural(s.windows, "s"), s.loads,
		 plural(s.loads, "s"), s.stores, plural(s.stores, "s"), s.prefetches, plural(s.prefetches, "es"),
		 s.injected, plural(s.injected, "s"), s.taken, s.hazards, plural(s.hazards, "s"),
		 hazards_shown(x->machine), stubs, plural(stubs, "s"), pages, plural(pages, "s"));
	return buf;
}

/* The header, the trace (unless --summary), how the run stopped and the summary; all but the trace within 80 columns. */
static void print_text(const struct exec_args *a, const struct eh_exec *x,
		       const struct eh_model *model)
{
	const struct eh_text_style style = { .width = EH_TEXT_WIDTH };
	char loc[160], line[1024];
	size_t i, applied = eh_image_napplied(x->img), n;

	snprintf(line, sizeof(line), "%s at %s (0x%016" PRIx64 ") on %s, seed %" PRIu64, a->file,
		 where(x, x->entry, loc, sizeof(loc)), x->entry, model->name, a->o.seed);
	eh_text_hang(stdout, &style, "exec", 6, line);
	snprintf(line, sizeof(line), "model %s: %s", model->name, model->desc);
	eh_text_wrap(stdout, &style, 2, line);
	snprintf(line, sizeof(line), "booted at %s; capabilities numbered as in %s; config %s",
		 eh_boot_names[x->img->target.boot], x->caps->source, a->config ? a->config : "with every option on");
	eh_text_wrap(stdout, &style, 2, line);
	snprintf(line, sizeof(line), "alternatives: %zu sites, %zu applied on this model", x->img->nsites, applied);
	eh_text_wrap(stdout, &style, 2, line);
	n = (size_t)snprintf(line, sizeof(line), "runs inside [0x%016" PRIx64 ", 0x%016" PRIx64 ")%s%s", x->code_lo,
			     x->code_hi, a->o.range ? "" : ", section ", a->o.range ? "" : x->section->name);
	if (x->until && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", until %s", where(x, x->until, loc, sizeof(loc)));
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; %zu undefined symbol%s stubbed", x->elf->nstubs,
			 x->elf->nstubs == 1 ? "" : "s");
	eh_text_wrap(stdout, &style, 2, line);
	if (a->summary)
		cli_print_screened(x->machine);
	else
		cli_print_trace(x->machine);
	eh_text_wrap(stdout, &style, 0, stop_line(x, line, sizeof(line)));
	if (!a->summary)
		for (i = 0; i < 31; i++)
			printf("%s x%-2zu 0x%016" PRIx64 "%s", i % 4 ? "" : "  ", i,
			       eh_machine_xreg(x->machine, 0, (unsigned)i), i % 4 == 3 || i == 30 ? "\n" : "");
	eh_text_hang(stdout, &style, "summary:", 10, summary_line(x, line, sizeof(line)));
}

/* harness/schema/exec-v2.json: the inputs, where the run started and stopped, what the errata did, the events. */
static void print_json(const struct exec_args *a, const struct eh_exec *x, const struct eh_model *model)
{
	const struct eh_trace *tr = eh_machine_trace(x->machine);
	struct eh_window_summary s;
	struct eh_json j;
	const struct eh_erratum *const *e;
	char loc[160], text[1024], reg[8];
	size_t i;
	unsigned k;

	eh_trace_summarise(tr, &s);
	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-exec", 2);
	eh_json_object(&j, "inputs", false);
	eh_report_json_file(&j, "file", a->file);
	eh_json_str(&j, "model", model->name);
	eh_json_str(&j, "numbering", x->caps->source);
	eh_report_json_file(&j, "cpucaps", a->cpucaps);
	eh_report_json_file(&j, "config", a->config);
	eh_json_str(&j, "boot", eh_boot_names[x->img->target.boot]);
	eh_json_uint(&j, "seed", a->o.seed);
	eh_json_str(&j, "symbol", a->o.symbol);
	eh_json_array(&j, "mem", false);
	for (k = 0; k < a->o.nmems; k++) {
		const char *eq = strchr(a->mems[k], '=');

		eh_json_object(&j, NULL, true);
		snprintf(text, sizeof(text), "%.*s", (int)(eq - a->mems[k]), a->mems[k]);
		eh_json_str(&j, "at", text);
		eh_report_json_file(&j, "file", eq + 1);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_hex(&j, "entry", x->entry);
	eh_json_str(&j, "entry_where", where(x, x->entry, loc, sizeof(loc)));
	eh_json_str(&j, "section", x->section->name);
	eh_json_object(&j, "stop", false);
	eh_json_str(&j, "reason", eh_stop_name(x->res->stop));
	eh_json_hex(&j, "pc", x->res->pc);
	eh_json_str(&j, "where", where(x, x->res->pc, loc, sizeof(loc)));
	eh_json_uint(&j, "executed", x->res->executed);
	eh_json_object(&j, "registers", false);
	for (k = 0; k < 31; k++) {
		snprintf(reg, sizeof(reg), "x%u", k);
		eh_json_hex(&j, reg, eh_machine_xreg(x->machine, 0, k));
	}
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_object(&j, "summary", true);
	eh_json_array(&j, "errata", true);
	for (e = eh_errata; *e; e++)
		for (i = 0; i < tr->n; i++)
			if (eh_event_erratum(&tr->events[i]) == *e) {
				eh_json_object(&j, NULL, true);
				eh_json_str(&j, "id", (*e)->id);
				eh_json_bool(&j, "shows", shows_at(x->machine, *e, &tr->events[i]));
				eh_json_end(&j);
				break;
			}
	eh_json_end(&j);
	eh_json_uint(&j, "windows", s.windows);
	eh_json_uint(&j, "loads", s.loads);
	eh_json_uint(&j, "stores", s.stores);
	eh_json_uint(&j, "prefetches", s.prefetches);
	eh_json_uint(&j, "injected", s.injected);
	eh_json_uint(&j, "taken", s.taken);
	eh_json_uint(&j, "hazards", s.hazards);
	eh_json_uint(&j, "hazards_shown", hazards_shown(x->machine));
	eh_json_uint(&j, "stub_calls", count_kind(tr, EH_EV_STUB_CALL));
	eh_json_uint(&j, "zero_pages", count_kind(tr, EH_EV_PAGE));
	eh_json_end(&j);
	eh_json_bool(&j, "truncated", tr->dropped);
	eh_json_array(&j, "events", false);
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];
		const uint64_t *args = eh_machine_call_args(x->machine, ev);

		eh_json_object(&j, NULL, true);
		eh_report_json_event_fields(&j, ev, eh_event_format(x->machine, ev, text, sizeof(text)));
		eh_json_str(&j, "where", where(x, ev->pc, loc, sizeof(loc)));
		if (args) {
			eh_json_str(&j, "symbol", eh_elf_stub_at(x->elf, ev->pc)->symbol);
			eh_json_hex(&j, "return", ev->addr);
			eh_json_array(&j, "args", true);
			for (k = 0; k < 8; k++)
				eh_json_hex(&j, NULL, args[k]);
			eh_json_end(&j);
		}
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_end(&j);
}

/*
 * The exit status 1 cases: an erratum injected a fault or recorded a hazard where it
 * shows, or the run did not stop by itself.
 */
static bool exec_failed(const struct eh_exec *x)
{
	struct eh_window_summary s;

	eh_trace_summarise(eh_machine_trace(x->machine), &s);
	return s.injected || hazards_shown(x->machine) || x->res->stop == EH_STOP_BUDGET || x->res->stop == EH_STOP_TIMEOUT;
}

static int write_svg(const struct exec_args *a, const struct eh_exec *x, const struct eh_model *model)
{
	char title[600], heading[600], desc[300], status[300], evidence[512], loc[160];
	struct eh_svg_header h = {
		.title = title, .heading = heading, .desc = desc, .status = status, .evidence = evidence,
	};
	struct eh_error err = { 0 };
	struct cli_output out;
	int rc = cli_open_output(&out, a->svg);

	if (rc)
		return rc;
	where(x, x->entry, loc, sizeof(loc));
	snprintf(title, sizeof(title), "errata-harness exec %s --symbol %s --model %s --seed %" PRIu64, a->file,
		 a->o.symbol, model->name, a->o.seed);
	snprintf(heading, sizeof(heading), "%s at %s on %s, seed %" PRIu64, a->file, loc, model->name,
		 a->o.seed);
	snprintf(desc, sizeof(desc), "Model: %s.", model->desc);
	stop_line(x, status, sizeof(status));
	summary_line(x, evidence, sizeof(evidence));
	h.bad = exec_failed(x);
	if (eh_svg_draw(out.f, x->machine, &h, &err)) {
		fprintf(stderr, "errata-harness exec: %s: %s\n", a->svg, err.msg);
		cli_abandon_output(&out);
		return EXIT_BAD_INPUT;
	}
	return cli_close_output(&out);
}

int cmd_exec(const struct cli_command *cmd, int argc, char **argv)
{
	struct exec_args a = { 0 };
	struct cli_inputs in;
	const struct eh_model *model;
	struct eh_target target;
	struct eh_exec *x = NULL;
	struct eh_error err = { 0 };
	int rc = parse_args(cmd, argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	model = eh_model_find(a.model);
	if (!model)
		return cli_error("exec", "unknown model '%s' (see errata-harness models)", a.model);
	rc = cli_inputs_open(&in, "exec", a.cpucaps, a.kernel, a.config, a.boot);
	if (rc)
		return rc;
	/* The trace's instructions are for the text trace and the picture; a summary counts without them. */
	a.o.trace_insns = !a.summary || a.svg;
	target = (struct eh_target){ .model = model, .config = in.config, .boot = in.boot };
	if (eh_exec_run(&x, a.file, &target, in.caps, &a.o, &err)) {
		fprintf(stderr, "errata-harness exec: %s\n", err.msg);
		cli_inputs_close(&in);
		return EXIT_BAD_INPUT;
	}
	if (a.json)
		print_json(&a, x, model);
	else
		print_text(&a, x, model);
	rc = exec_failed(x) ? EXIT_UNEXPECTED : 0;
	if (a.svg && write_svg(&a, x, model))
		rc = EXIT_BAD_INPUT;
	eh_exec_free(x);
	cli_inputs_close(&in);
	return rc;
}


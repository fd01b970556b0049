/* errata-harness exec: run code straight out of a user's vmlinux or kernel object on a CPU model, traced. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eh/escape.h"
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

static void exec_help(FILE *f)
{
	const struct eh_model *const *m;

	fputs("usage: errata-harness exec FILE --symbol SYM[+OFF] --model M [--cpucaps H | --kernel V]\n"
	      "                           [--config .config] [--boot el2|nvhe|el1]\n"
	      "                           [--reg xN=VAL]... [--mem ADDR=FILE]...\n"
	      "                           [--until SYM[+OFF]|0xADDR] [--range FROM:TO] [--budget N] [--seed N]\n"
	      "                           [--svg FILE] [--summary | --format text|json]\n"
	      "\n"
	      "Loads FILE, an AArch64 vmlinux or kernel object (ET_REL: its sections are placed at\n"
	      "kernel-like addresses and its relocations applied, as if linked), patches the kernel's\n"
	      "boot-time alternatives for CPU model M, and runs it on hardware thread 0 from SYM, event\n"
	      "by event, as replay does. The run stops at an ERET, a return to the harness (x30 on\n"
	      "entry), on leaving SYM's section (or --range), at --until, at an exception, or when the\n"
	      "instruction budget is spent. A call to a symbol the object does not define lands on a\n"
	      "stub that records the call with x0..x7 and returns 0; a load or store outside the image\n"
	      "gets a zero-filled page, recorded in the trace. The model's errata act as in the cases.\n"
	      "\n"
	      "  --symbol SYM[+OFF]  where to start: a symbol, symbol+offset or 0x address, in code\n"
	      "  --model M           the CPU, its threads and errata, and what the kernel detects on it\n"
	      "  --cpucaps H | --kernel V, --config FILE   the capability numbering and .config (as audit)\n", f);
	fputs(cli_boot_help, f);
	fputs("                      (a write of the guest's TTBR from EL2 opens no window, as in audit)\n"
	      "  --reg xN=VAL        initial x0..x30 or sp (repeatable); x30 is the harness's return\n"
	      "  --mem ADDR=FILE     the bytes of FILE at ADDR (SYM[+OFF] or 0x...), repeatable\n"
	      "  --until SYM|ADDR    stop on reaching this address\n"
	      "  --range FROM:TO     the code the run may fetch from (each end SYM[+OFF] or 0x...), instead\n"
	      "                      of SYM's section; calls to stubs always return\n"
	      "  --budget N          instructions before the run is stopped (default 1000000)\n"
	      "  --seed N            seed of every random choice, e.g. an erratum's victim thread (default 1)\n"
	      "  --svg FILE          also draw the run as an SVG timeline\n"
	      "  --format text|json  the trace as text (default) or JSON\n"
	      "  --summary           text without the trace: how the run stopped and what its TTBR\n"
	      "                      windows held (a runaway loop's trace can be millions of lines)\n", f);
	cli_print_input_limits(f, "exec");
	fputs("\n"
	      "exit status: 0 the run stopped and no erratum fault was injected, 1 an erratum injected a\n"
	      "fault or the run did not stop within its budget, 2 bad usage or bad input\n"
	      "\nmodels:", f);
	for (m = eh_models; *m; m++)
		fprintf(f, " %s", (*m)->name);
	fputs("\n", f);
}

static int bad(const char *fmt, const char *arg)
{
	fputs("errata-harness exec: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	return EXIT_BAD_INPUT;
}

static int too_many(const char *opt)
{
	fprintf(stderr, "errata-harness exec: %s: at most %d of them\n", opt, EXEC_MAX_ARGS);
	return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct exec_args *a)
{
	static const struct option opts[] = {
		{ "symbol", required_argument, NULL, 'S' },
		{ "model", required_argument, NULL, 'm' },
		{ "cpucaps", required_argument, NULL, 'c' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "config", required_argument, NULL, 'C' },
		{ "boot", required_argument, NULL, 'B' },
		{ "reg", required_argument, NULL, 'r' },
		{ "mem", required_argument, NULL, 'M' },
		{ "until", required_argument, NULL, 'u' },
		{ "range", required_argument, NULL, 'R' },
		{ "budget", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ "svg", required_argument, NULL, 'g' },
		{ "format", required_argument, NULL, 'f' },
		{ "summary", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct eh_error err = { 0 };
	int c, rc = 0;

	a->o.seed = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1 && !rc) {
		switch (c) {
		case 'S': a->o.symbol = optarg; break;
		case 'm': a->model = optarg; break;
		case 'c': a->cpucaps = optarg; break;
		case 'k': a->kernel = optarg; break;
		case 'C': a->config = optarg; break;
		case 'B': a->boot = optarg; break;
		case 'u': a->o.until = optarg; break;
		case 'R': a->o.range = optarg; break;
		case 'g': a->svg = optarg; break;
		case 'b': rc = cli_parse_u64("--budget", optarg, &a->o.budget); break;
		case 's': rc = cli_parse_u64("--seed", optarg, &a->o.seed); break;
		case 'r':
			if (a->o.nregs == EXEC_MAX_ARGS)
				return too_many("--reg");
			if (eh_exec_parse_reg(optarg, &a->regs[a->o.nregs++], &err))
				return bad("%s", err.msg);
			break;
		case 'M':
			if (a->o.nmems == EXEC_MAX_ARGS)
				return too_many("--mem");
			a->mems[a->o.nmems++] = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return bad("--format: '%s' is neither text nor json", optarg);
			a->json = !strcmp(optarg, "json");
			break;
		case 'U': a->summary = true; break;
		case 'h': exec_help(stdout); return -1;
		default:
			return bad("%s: unknown option or missing argument (see exec --help)", argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind != argc - 1)
		return bad("%s", optind >= argc ? "which file? (see exec --help)"
						: "exactly one FILE, please (see exec --help)");
	a->file = argv[optind];
	if (!a->o.symbol)
		return bad("%s", "--symbol is required: where the run starts");
	if (!a->model)
		return bad("%s", "--model is required (see errata-harness models)");
	if (a->summary && a->json)
		return bad("%s", "--summary is a text report; the JSON report has the summary's fields");
	if (a->svg && !strcmp(a->svg, "-"))
		return bad("%s", "--svg needs a file name: the trace goes to stdout");
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

/* The TTBR windows, the erratum's injections, the stub calls and zero pages, as clauses separated by "; ". */
static const char *summary_line(const struct eh_exec *x, char *buf, size_t len)
{
	const struct eh_trace *tr = eh_machine_trace(x->machine);
	struct eh_window_summary s;

	eh_trace_summarise(tr, &s);
	snprintf(buf, len, "%u TTBR window%s with %u load%s, %u store%s, %u prefetch%s inside; "
		 "%u spurious abort%s injected (%u taken); %zu stub call%s; %zu zero page%s",
		 s.windows, s.windows == 1 ? "" : "s", s.loads, s.loads == 1 ? "" : "s", s.stores,
		 s.stores == 1 ? "" : "s", s.prefetches, s.prefetches == 1 ? "" : "es", s.injected,
		 s.injected == 1 ? "" : "s", s.taken, count_kind(tr, EH_EV_STUB_CALL),
		 count_kind(tr, EH_EV_STUB_CALL) == 1 ? "" : "s", count_kind(tr, EH_EV_PAGE),
		 count_kind(tr, EH_EV_PAGE) == 1 ? "" : "s");
	return buf;
}

static void print_text(const struct exec_args *a, const struct eh_exec *x,
		       const struct eh_model *model)
{
	char loc[160], line[512];
	size_t i, applied = 0;

	for (i = 0; i < x->img->nsites; i++)
		applied += x->img->sites[i].applied;
	printf("exec %s at %s (0x%016" PRIx64 ") on %s (%s), seed %" PRIu64 "\n", a->file,
	       where(x, x->entry, loc, sizeof(loc)), x->entry, model->name, model->desc, a->o.seed);
	printf("  capabilities numbered as in %s; config %s; booted at %s\n", x->caps->source,
	       a->config ? a->config : "with every option on", eh_boot_names[x->img->target.boot]);
	printf("  alternatives: %zu sites, %zu applied on this model\n", x->img->nsites, applied);
	printf("  runs inside [0x%016" PRIx64 ", 0x%016" PRIx64 ")%s%s", x->code_lo, x->code_hi,
	       a->o.range ? "" : ", section ", a->o.range ? "" : x->section->name);
	if (x->until)
		printf(", until %s", where(x, x->until, loc, sizeof(loc)));
	printf("; %zu undefined symbol%s stubbed\n", x->elf->nstubs, x->elf->nstubs == 1 ? "" : "s");
	if (a->summary) {
		cli_print_screened(x->machine);
		printf("%s\n", stop_line(x, line, sizeof(line)));
		printf("summary: %s\n", summary_line(x, line, sizeof(line)));
		return;
	}
	cli_print_trace(x->machine);
	printf("%s\n", stop_line(x, line, sizeof(line)));
	for (i = 0; i < 31; i++)
		printf("%s x%-2zu 0x%016" PRIx64 "%s", i % 4 ? "" : "  ", i, x->res->x[i],
		       i % 4 == 3 || i == 30 ? "\n" : "");
	printf("summary: %s\n", summary_line(x, line, sizeof(line)));
}

static void put_hex(const char *key, uint64_t v)
{
	printf(",\"%s\":\"0x%016" PRIx64 "\"", key, v);
}

static void put_str(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	eh_json_puts(stdout, s);
}

static void print_json(const struct exec_args *a, const struct eh_exec *x,
		       const struct eh_model *model)
{
	const struct eh_trace *tr = eh_machine_trace(x->machine);
	struct eh_window_summary s;
	char loc[160], text[1024];
	size_t i;
	unsigned j;

	eh_trace_summarise(tr, &s);
	printf("{\"file\":");
	eh_json_puts(stdout, a->file);
	put_str("model", model->name);
	put_str("cpucaps", x->caps->source);
	printf(",\"seed\":%" PRIu64, a->o.seed);
	put_hex("entry", x->entry);
	put_str("entry_where", where(x, x->entry, loc, sizeof(loc)));
	put_str("section", x->section->name);
	printf(",\"stop\":{\"reason\":");
	eh_json_puts(stdout, eh_stop_name(x->res->stop));
	put_hex("pc", x->res->pc);
	put_str("where", where(x, x->res->pc, loc, sizeof(loc)));
	printf(",\"executed\":%" PRIu64 ",\"registers\":{", x->res->executed);
	for (j = 0; j < 31; j++)
		printf("%s\"x%u\":\"0x%016" PRIx64 "\"", j ? "," : "", j, x->res->x[j]);
	printf("}}");
	printf(",\"windows\":%u,\"loads\":%u,\"stores\":%u,\"prefetches\":%u,\"injected\":%u,\"taken\":%u",
	       s.windows, s.loads, s.stores, s.prefetches, s.injected, s.taken);
	printf(",\"truncated\":%s,\"events\":[", tr->dropped ? "true" : "false");
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];
		const uint64_t *args = eh_machine_call_args(x->machine, ev);

		printf("%s{\"seq\":%" PRIu32 ",\"thread\":%u,\"kind\":\"%s\"", i ? "," : "", ev->seq, ev->thread,
		       eh_event_kind_name(ev->kind));
		put_hex("pc", ev->pc);
		put_str("where", where(x, ev->pc, loc, sizeof(loc)));
		put_str("text", eh_event_format(x->machine, ev, text, sizeof(text)));
		if (ev->kind == EH_EV_ACCESS || ev->kind == EH_EV_PAGE)
			put_hex("address", ev->addr);
		if (ev->kind == EH_EV_ACCESS || ev->kind == EH_EV_INSN)
			printf(",\"in_window\":%s", ev->in_window ? "true" : "false");
		if (ev->kind == EH_EV_INJECT)
			printf(",\"victim\":%u,\"taken\":%s", ev->victim, ev->taken ? "true" : "false");
		if (args) {
			put_str("symbol", eh_elf_stub_at(x->elf, ev->pc)->symbol);
			put_hex("return", ev->addr);
			printf(",\"args\":[");
			for (j = 0; j < 8; j++)
				printf("%s\"0x%016" PRIx64 "\"", j ? "," : "", args[j]);
			printf("]");
		}
		printf("}");
	}
	printf("]}\n");
}

/* The exit status 1 cases: an erratum injected a fault, or the run did not stop by itself. */
static bool exec_failed(const struct eh_exec *x)
{
	struct eh_window_summary s;

	eh_trace_summarise(eh_machine_trace(x->machine), &s);
	return s.injected || x->res->stop == EH_STOP_BUDGET || x->res->stop == EH_STOP_TIMEOUT;
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

int cli_exec(int argc, char **argv)
{
	struct exec_args a = { 0 };
	struct cli_inputs in;
	const struct eh_model *model;
	struct eh_target target;
	struct eh_exec *x = NULL;
	struct eh_error err = { 0 };
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	model = eh_model_find(a.model);
	if (!model)
		return bad("unknown model '%s' (see errata-harness models)", a.model);
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

/* Its options are parsed by cli_exec itself; the table gives the global help its line. */
const struct cli_command cli_exec_command = {
	.name = "exec", .args = "FILE",
	.summary = "run code straight out of a kernel ELF on a model, traced (exec --help)",
};

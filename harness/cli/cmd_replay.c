/* errata-harness replay: one scenario, event by event and instruction by instruction, as text or JSON, and its SVG timeline. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "eh/disasm.h"
#include "eh/image.h"
#include "eh/insn.h"
#include "eh/json.h"
#include "eh/model.h"
#include "eh/report.h"
#include "eh/svg.h"

static const struct cli_use replay_uses[] = {
	{ &cli_opt_model, CLI_SC_MODEL, false, "the CPU model to run on" },
	{ &cli_opt_variant, CLI_SC_VARIANT, false, "the case's variant" },
	{ &cli_opt_seed, CLI_SC_SEED },
	{ &cli_opt_budget, CLI_SC_BUDGET },
	{ &cli_opt_svg, CLI_SC_SVG },
	{ &cli_opt_format, CLI_SC_FORMAT, false, "text (default: the trace) or json "
	  "(harness/schema/replay-v2.json: the inputs, the outcome and every event)" },
	{ &cli_opt_cases_dir, CLI_SC_CASES_DIR },
	{ &cli_opt_help },
	{ 0 },
};

const struct cli_usage cmd_replay_usage = {
	.args = "CASE", .min_args = 1, .max_args = 1,
	.about = "Runs one scenario of CASE and prints the alternatives as patched for the model, then "
		 "the trace thread by thread: every instruction, system register writes, accesses, context "
		 "synchronisation, injected faults with culprit and victim, exceptions, and the outcome.",
	.exit_status = "0 the outcome is the expected one, 1 it is not, 2 bad usage or input.",
	.uses = replay_uses,
};

static void print_alternatives(struct eh_case_run *r)
{
	size_t i;

	if (!r->img->nsites) {
		printf("alternatives: none in %s\n", r->elf->path);
		return;
	}
	printf("alternatives (%zu sites, capabilities numbered as in %s):\n", r->img->nsites,
	       r->img->caps->source);
	for (i = 0; i < r->img->nsites; i++) {
		const struct eh_alt_site *s = &r->img->sites[i];
		bool applied = eh_image_outcome(r->img, s).applied;
		const struct eh_elf_section *sec = eh_elf_section_at(r->elf, s->orig);
		const uint8_t *p = sec->data + (s->orig - sec->addr);
		const struct eh_insn *after;
		struct eh_insn before;
		char where[160], text[2][96];

		eh_decoder_decode(eh_machine_decoder(r->machine), s->orig,
				  (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24,
				  &before);
		printf("  %s on %s: %s", eh_elf_describe(r->elf, s->orig, where, sizeof(where)),
		       s->cap_name ? s->cap_name : "(unnamed)", applied ? "applied" : "not applied");
		after = eh_machine_insn(r->machine, s->orig);
		if (applied)
			printf(", %s -> %s", eh_disasm_text(&before, text[0], sizeof(text[0])),
			       after ? eh_disasm_text(after, text[1], sizeof(text[1])) : "?");
		else
			printf(", keeps %s", eh_disasm_text(&before, text[0], sizeof(text[0])));
		printf("\n");
	}
}

/* harness/schema/replay-v2.json: the inputs (the snippet with its SHA-256), the outcome and its events. */
static int print_replay_json(struct eh_case_run *r, const struct cli *cli)
{
	struct eh_result res = { 0 };
	struct eh_error err = { 0 };
	struct eh_json j;

	if (eh_result_keep(&res, r, &err)) {
		eh_result_release(&res);
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-replay", 2);
	eh_json_object(&j, "inputs", false);
	eh_json_str(&j, "case", r->c->id);
	eh_json_str(&j, "variant", r->v->name);
	eh_json_str(&j, "model", r->model->name);
	eh_json_uint(&j, "seed", cli->run.seed);
	eh_json_uint(&j, "budget", cli->run.budget ? cli->run.budget : EH_DEFAULT_BUDGET);
	eh_report_json_file(&j, "snippet", r->elf->path);
	eh_json_end(&j);
	eh_report_json_result(&j, "result", &res);
	eh_json_end(&j);
	eh_result_release(&res);
	return 0;
}

static int replay(struct cli *cli, const char *case_id)
{
	const struct eh_case *c;
	const struct eh_variant *v;
	const struct eh_model *model;
	struct eh_case_run *r;
	struct eh_error err = { 0 };
	struct cli_output svg = { 0 };
	bool json = false;
	int rc;

	if (cli->sel.n[EH_SELECT_MODEL] != 1 || cli->sel.n[EH_SELECT_VARIANT] != 1)
		return usage_error("replay needs exactly one --model and one --variant");
	if (cli->format_arg && strcmp(cli->format_arg, "text") && !(json = !strcmp(cli->format_arg, "json")))
		return usage_error("replay: --format: '%s' is neither text nor json", cli->format_arg);
	c = eh_case_find(case_id);
	if (!c) {
		char names[2048];

		return usage_error("unknown case '%s'; known cases: %s", case_id, cli_known_cases(names, sizeof(names)));
	}
	v = eh_case_variant(c, cli->sel.names[EH_SELECT_VARIANT][0]);
	if (!v)
		return usage_error("case %s has no variant '%s'", c->id, cli->sel.names[EH_SELECT_VARIANT][0]);
	model = eh_model_find(cli->sel.names[EH_SELECT_MODEL][0]);
	if (cli->svg && (rc = cli_open_output(&svg, cli->svg)))
		return rc;
	cli->run.trace_insns = true;
	if (eh_case_run(&r, c, v, model, &cli->run, &err)) {
		fprintf(stderr, "errata-harness: %s\n", err.msg);
		if (cli->svg)
			cli_abandon_output(&svg);
		return EXIT_BAD_INPUT;
	}
	if (json) {
		rc = print_replay_json(r, cli);
		if (rc)
			goto out;
	} else {
		printf("replay %s, variant %s (%s), model %s (%s), seed %" PRIu64 "\n", c->id, v->name, v->desc,
		       model->name, model->desc, cli->run.seed);
		if (model->cores) {
			unsigned t;

			printf("threads:");
			for (t = 0; t < eh_machine_threads(r->machine); t++)
				printf("%s t%u on %s", t ? "," : "", t, eh_machine_thread_core(r->machine, t)->name);
			printf("\n");
		}
		print_alternatives(r);
		cli_print_trace(r->machine);
		printf("%s: %s (expected %s): %s\n",
		       r->outcome.verdict == EH_VERDICT_INCOMPLETE ? "outcome" : "verdict",
		       eh_verdict_name(r->outcome.verdict), eh_verdict_name(r->expected), r->outcome.evidence);
	}
	rc = r->pass ? 0 : EXIT_UNEXPECTED;
	if (cli->svg) {
		if (eh_svg_timeline(svg.f, r, cli->run.seed, &err)) {
			fprintf(stderr, "errata-harness: %s: %s\n", cli->svg, err.msg);
			cli_abandon_output(&svg);
			rc = EXIT_BAD_INPUT;
		} else if (cli_close_output(&svg)) {
			rc = EXIT_BAD_INPUT;
		}
	}
out:
	if (rc == EXIT_BAD_INPUT && cli->svg && svg.f)
		cli_abandon_output(&svg);
	eh_case_run_free(r);
	return rc;
}

int cmd_replay(const struct cli_command *cmd, int argc, char **argv)
{
	return cli_scenario_run(cmd, argc, argv, replay);
}

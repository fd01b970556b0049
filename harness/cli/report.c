/* errata-harness report: every erratum on every model of one kernel ELF, a view over the audit's matrix, as text, JSON, JUnit or SARIF. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "eh/json.h"
#include "eh/report.h"
#include "eh/text.h"

static const struct cli_use report_uses[] = {
	{ &cli_options[CLI_OPT_MODEL], true,
	  "only these CPU models: NAME,NAME,... or the option repeated (default: all, every model)" },
	{ &cli_options[CLI_OPT_MODEL_FROM] },
	{ &cli_options[CLI_OPT_ERRATUM], true },
	{ &cli_options[CLI_OPT_CPUCAPS] },
	{ &cli_options[CLI_OPT_KERNEL], false,
	  "or a built-in capability numbering instead of a header: 5.4 or 6.1" },
	{ &cli_options[CLI_OPT_CONFIG], false,
	  "the tree's .config: a capability whose CONFIG_ option is off is never detected, and an "
	  "erratum whose workaround's option is off is reported 'workaround configured out' (default: "
	  "every option on)" },
	{ &cli_options[CLI_OPT_BOOT] },
	{ &cli_options[CLI_OPT_SUPPRESS], false,
	  "findings known to be safe: lines 'ERRATUM SYMBOL[+OFFSET] WHY...' (README); a suppressed "
	  "finding is reported with its justification and fails nothing" },
	{ &cli_options[CLI_OPT_FORMAT], false,
	  "text (default), json (harness/schema/report-v1.json), junit (a testcase per erratum and "
	  "model) or sarif (SARIF 2.1.0: a rule per erratum, a result per finding)" },
	{ &cli_options[CLI_OPT_OUTPUT] },
	{ &cli_options[CLI_OPT_WIDTH] },
	{ &cli_options[CLI_OPT_HELP] },
	{ 0 },
};

const struct cli_command cli_report_command = {
	.name = "report", .args = "FILE", .min_args = 1, .max_args = 1,
	.summary = "every erratum on every model of a kernel ELF: the kernel-wide errata report",
	.about = "Audits FILE (a vmlinux or kernel object, as audit takes it) for every erratum with a static "
		 "rule on every CPU model: the alternatives patched as the kernel would on each model, one "
		 "patched image shared by the models whose capabilities give the same code, every rule run "
		 "over each image once. One line per erratum and model: clean, N findings, not affected (not "
		 "one of the parts the erratum lists), not exposed (affected, but the erratum does not show "
		 "there), with 'workaround configured out' where --config turns its Kconfig option off; then "
		 "the findings, erratum by erratum, on the models each applies to, by symbol+offset with "
		 "their disassembly.",
	.exit_status = "0 no finding on a model its erratum affects, 1 such a finding that no suppression "
		       "covers, 2 bad usage or bad input (the message names the file and the problem).",
	.uses = report_uses,
};

static int add_list(const char **lists, size_t *n, const char *opt, const char *value)
{
	if (*n == REPORT_MAX_OPTIONS)
		return usage_error("report: %s: at most %d of them (each may be a comma list)", opt,
				   REPORT_MAX_OPTIONS);
	lists[(*n)++] = value;
	return 0;
}

static int on_option(void *ctx, const struct cli_option *opt, const char *value)
{
	struct report_opts *o = ctx;

	switch (opt->id) {
	case CLI_OPT_MODEL: return add_list(o->models, &o->nmodels, "--model", value);
	case CLI_OPT_ERRATUM: return add_list(o->errata, &o->nerrata, "--erratum", value);
	case CLI_OPT_MODEL_FROM: o->model_from = value; return 0;
	case CLI_OPT_CPUCAPS: o->cpucaps = value; return 0;
	case CLI_OPT_KERNEL: o->kernel = value; return 0;
	case CLI_OPT_CONFIG: o->config = value; return 0;
	case CLI_OPT_BOOT: o->boot = value; return 0;
	case CLI_OPT_SUPPRESS: o->suppress = value; return 0;
	case CLI_OPT_OUTPUT: o->output = value; return 0;
	case CLI_OPT_FORMAT: o->format = value; return 0;
	case CLI_OPT_WIDTH: o->width_given = true; return cli_parse_width(value, &o->style.width);
	default: return usage_error("report: --%s is not an option of report", opt->name);
	}
}

size_t report_affected(const struct report *r, size_t g, size_t e, const struct eh_model **out, bool *shows)
{
	const struct eh_audit_image *im = &r->mx->images[g];
	size_t i, n = 0;

	*shows = false;
	for (i = 0; i < im->nmodels; i++) {
		enum eh_audit_status s = eh_audit_status_of(r->pick.errata[e], im->models[i]);

		if (s == EH_AUDIT_NOT_AFFECTED)
			continue;
		*shows |= s == EH_AUDIT_SHOWS;
		out[n++] = im->models[i];
	}
	return n;
}

const char *report_symbol(const struct eh_finding *f, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(f->where, "+"), f->where);
	return buf;
}

bool report_file_offset(const struct report *r, uint64_t addr, uint64_t *off)
{
	const struct eh_elf_section *s = eh_elf_section_at(r->elf, addr);

	if (!s || !s->data)
		return false;
	*off = s->offset + (addr - s->addr);
	return true;
}

const char *report_finding_text(const struct eh_finding *f, char *buf, size_t len)
{
	if (f->open)
		snprintf(buf, len, "open: %s%s%s", f->text, f->symbol ? " to " : "", f->symbol ? f->symbol : "");
	else if (f->anchor_where[0])
		snprintf(buf, len, "%s  (%s, anchor %s)", f->text, f->kind, f->anchor_where);
	else
		snprintf(buf, len, "%s  (%s)", f->text, f->kind);
	return buf;
}

/* "a, b, c": the names of n models, into buf. */
static const char *names_of(const struct eh_model *const *m, size_t n, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = 0;
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", m[i]->name);
	return buf;
}

/* ---- text --------------------------------------------------------------------------------- */

static int widest(const struct report *r, bool errata)
{
	size_t i, w = strlen(errata ? "erratum" : "model");
	size_t n = errata ? r->pick.nerrata : r->pick.nmodels;

	for (i = 0; i < n; i++) {
		size_t l = strlen(errata ? r->pick.errata[i]->id : r->pick.models[i]->name);

		w = l > w ? l : w;
	}
	return (int)w;
}

/* The findings of erratum e in every image where it affects a model, each image under the models it applies to. */
static void text_findings(const struct report *r, size_t e, const struct eh_model **models)
{
	const struct eh_erratum *er = r->pick.errata[e];
	const struct eh_text_style *st = &r->o->style;
	const char *explained = NULL;
	char line[512], names[2048], what[512];
	size_t g, i, n;
	bool shows, header = false;

	for (g = 0; g < r->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->mx->images[g].tallies[e];

		n = report_affected(r, g, e, models, &shows);
		if (!n || !t->res->nfindings)
			continue;
		if (!header) {
			fputs("\n", r->f);
			eh_text_paraf(r->f, st, 0, "erratum %s: %s", er->id, er->title);
			header = true;
		}
		snprintf(line, sizeof(line), "image %zu, %zu finding%s, on %s:", g + 1, t->res->nfindings,
			 t->res->nfindings == 1 ? "" : "s", names_of(models, n, names, sizeof(names)));
		eh_text_wrap(r->f, st, 2, line);
		for (i = 0; i < t->res->nfindings; i++) {
			const struct eh_finding *f = &t->res->findings[i];
			const char *tag = t->sup[i] ? "SUPPRESSED" : shows ? "HAZARD" : "benign";

			snprintf(line, sizeof(line), "    %s", tag);
			snprintf(names, sizeof(names), "%s: %s", f->where, report_finding_text(f, what, sizeof(what)));
			eh_text_hang(r->f, st, line, 16, names);
			if (t->sup[i]) {
				snprintf(line, sizeof(line), "suppressed by %s:%u: %s", r->sup->path, t->sup[i]->line,
					 t->sup[i]->justification);
				eh_text_wrap(r->f, st, 6, line);
			}
			if (!f->open && (!explained || strcmp(explained, f->explain))) {
				snprintf(line, sizeof(line), "why: %s", explained = f->explain);
				eh_text_wrap(r->f, st, 6, line);
			}
		}
	}
}

static void write_text(const struct report *r)
{
	const struct eh_model **models = eh_alloc((r->pick.nmodels + 1) * sizeof(*models));
	size_t count[4] = { 0 }, out = 0, i, e;
	const struct eh_text_style *st = &r->o->style;
	int we = widest(r, true), wm = widest(r, false);
	char text[96], lead[160];

	eh_text_paraf(r->f, st, 0, "errata-harness %s report of %s", eh_version(), r->elf->path);
	eh_text_paraf(r->f, st, 2, "capabilities numbered as in %s", r->caps->source);
	eh_text_paraf(r->f, st, 2, "config %s; booted at %s; suppressions %s", r->cfg.source, eh_boot_names[r->in.boot],
		      r->o->suppress ? r->o->suppress : "none");
	eh_text_paraf(r->f, st, 2, "%zu errata x %zu models, %zu patched images", r->pick.nerrata, r->pick.nmodels,
		      r->mx->nimages);
	fputs("\n", r->f);
	eh_text_linef(r->f, st, "%-*s %-*s %5s  %s", we, "erratum", wm, "model", "image", "status");
	for (e = 0; e < r->pick.nerrata; e++)
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			count[c.failing ? 3 : c.status]++;
			out += c.configured_out;
			eh_audit_cell_text(&c, text, sizeof(text));
			if (c.status != EH_AUDIT_NOT_AFFECTED && c.t->suppressed)
				snprintf(text + strlen(text), sizeof(text) - strlen(text), ", %zu suppressed",
					 c.t->suppressed);
			snprintf(lead, sizeof(lead), "%-*s %-*s %5zu", we, r->pick.errata[e]->id, wm,
				 r->pick.models[i]->name, r->mx->image_of[i] + 1);
			eh_text_hang(r->f, st, lead, (unsigned)(we + wm + 9), text);
		}
	for (e = 0; models && e < r->pick.nerrata; e++)
		text_findings(r, e, models);
	fputs("\n", r->f);
	cli_print_stale(r->sup, &r->pick, NULL, r->f, st);
	eh_text_paraf(r->f, st, 0, "summary: %zu clean, %zu with findings, %zu not affected, %zu not exposed",
		      count[EH_AUDIT_SHOWS], count[3], count[EH_AUDIT_NOT_AFFECTED], count[EH_AUDIT_NOT_EXPOSED]);
	eh_text_paraf(r->f, st, 2, "of %zu errata x %zu models; %zu with the workaround configured out",
		      r->pick.nerrata, r->pick.nmodels, out);
	eh_free(models);
}

/* ---- JSON (harness/schema/report-v1.json) ------------------------------------------------------ */

void report_json_models(struct eh_json *j, const char *key, const struct eh_model *const *models, size_t n)
{
	size_t i;

	eh_json_array(j, key, true);
	for (i = 0; i < n; i++)
		eh_json_str(j, NULL, models[i]->name);
	eh_json_end(j);
}

static void json_finding(struct eh_json *j, const struct report *r, const struct eh_audit_tally *t, size_t i)
{
	const struct eh_finding *f = &t->res->findings[i];
	uint64_t off;

	eh_json_object(j, NULL, true);
	eh_json_str(j, "kind", f->open ? "open" : f->kind);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "where", f->where);
	if (report_file_offset(r, f->addr, &off))
		eh_json_uint(j, "file_offset", off);
	eh_json_str(j, "text", f->text);
	eh_json_str(j, "anchor", f->anchor_where[0] ? f->anchor_where : NULL);
	eh_json_str(j, "end", f->open ? eh_audit_end_name(f->end) : NULL);
	eh_json_str(j, "symbol", f->symbol);
	eh_json_str(j, "explanation", f->explain);
	eh_json_str(j, "suppressed", t->sup[i] ? t->sup[i]->justification : NULL);
	eh_json_end(j);
}

/* Erratum e: what it is and, image by image where it affects a model, its findings. */
static void json_erratum(struct eh_json *j, const struct report *r, size_t e, const struct eh_model **models)
{
	const struct eh_erratum *er = r->pick.errata[e];
	size_t g, i, n;
	bool shows;

	eh_json_object(j, NULL, false);
	eh_json_str(j, "erratum", er->id);
	eh_json_str(j, "title", er->title);
	eh_json_str(j, "capability", er->capability);
	eh_json_str(j, "kconfig", er->kconfig);
	eh_json_str(j, "rule", er->rule->window ? "window" : "scan");
	eh_json_str(j, "summary", er->rule->summary);
	eh_json_bool(j, "configured_out", eh_audit_configured_out(r->cfg.config, er));
	eh_json_array(j, "images", false);
	for (g = 0; g < r->mx->nimages; g++) {
		const struct eh_audit_tally *t = &r->mx->images[g].tallies[e];

		n = report_affected(r, g, e, models, &shows);
		if (!n)
			continue;
		eh_json_object(j, NULL, false);
		eh_json_uint(j, "image", g);
		report_json_models(j, "models", models, n);
		eh_json_bool(j, "shows", shows);
		eh_json_uint(j, "flagged", t->flagged);
		eh_json_uint(j, "suppressed", t->suppressed);
		eh_json_array(j, "findings", false);
		for (i = 0; i < t->res->nfindings; i++)
			json_finding(j, r, t, i);
		eh_json_end(j);
		eh_json_end(j);
	}
	eh_json_end(j);
	eh_json_end(j);
}

static void write_json(const struct report *r)
{
	const struct eh_model **models = eh_alloc((r->pick.nmodels + 1) * sizeof(*models));
	struct eh_json j;
	size_t i, e;
	char text[96];

	eh_json_begin(&j, r->f);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-report", 1);
	eh_json_object(&j, "inputs", false);
	eh_report_json_file(&j, "file", r->o->file);
	eh_report_json_file(&j, "cpucaps", r->o->cpucaps);
	eh_json_str(&j, "kernel", r->o->kernel);
	eh_report_json_file(&j, "config", r->o->config);
	eh_report_json_file(&j, "suppress", r->o->suppress);
	eh_json_str(&j, "boot", eh_boot_names[r->in.boot]);
	eh_json_end(&j);
	eh_json_str(&j, "file", r->elf->path);
	eh_json_str(&j, "cpucaps", r->caps->source);
	eh_json_str(&j, "config", r->cfg.config ? r->cfg.source : NULL);
	eh_json_str(&j, "boot", eh_boot_names[r->in.boot]);
	eh_json_str(&j, "suppress", r->o->suppress);
	eh_json_bool(&j, "failing", eh_audit_matrix_failing(r->mx));
	eh_json_array(&j, "images", false);
	for (i = 0; i < r->mx->nimages; i++) {
		const struct eh_audit_image *im = &r->mx->images[i];

		eh_json_object(&j, NULL, true);
		eh_json_uint(&j, "image", i);
		eh_json_bool(&j, "vhe", eh_target_vhe(&im->target));
		report_json_models(&j, "models", im->models, im->nmodels);
		eh_json_end(&j);
	}
	eh_json_end(&j);
	eh_json_array(&j, "matrix", false);
	for (e = 0; e < r->pick.nerrata; e++)
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			eh_json_object(&j, NULL, true);
			eh_json_str(&j, "erratum", r->pick.errata[e]->id);
			eh_json_str(&j, "model", r->pick.models[i]->name);
			eh_json_uint(&j, "image", r->mx->image_of[i]);
			eh_json_str(&j, "status", eh_audit_cell_status(&c));
			eh_json_bool(&j, "configured_out", c.configured_out);
			eh_json_str(&j, "text", eh_audit_cell_text(&c, text, sizeof(text)));
			eh_json_uint(&j, "flagged", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->flagged);
			eh_json_uint(&j, "suppressed", c.status == EH_AUDIT_NOT_AFFECTED ? 0 : c.t->suppressed);
			eh_json_end(&j);
		}
	eh_json_end(&j);
	eh_json_array(&j, "errata", false);
	for (e = 0; models && e < r->pick.nerrata; e++)
		json_erratum(&j, r, e, models);
	eh_json_end(&j);
	cli_print_stale(r->sup, &r->pick, &j, NULL, NULL);
	eh_json_end(&j);
	eh_free(models);
}

/* ---- the command ------------------------------------------------------------------------------ */

static const struct {
	const char *name;
	void (*write)(const struct report *r);
} formats[] = {
	{ "text", write_text }, { "json", write_json }, { "junit", report_write_junit }, { "sarif", report_write_sarif },
};

/* Load FILE, number its capabilities, and audit it for every model picked. */
static int report_audit(struct report *r, struct eh_error *err)
{
	struct eh_audit_matrix_opts mo = {
		.boot = r->in.boot, .models = r->pick.models, .nmodels = r->pick.nmodels, .errata = r->pick.errata,
		.sup = r->sup,
	};

	if (eh_elf_open(&r->elf, r->o->file, err) ||
	    eh_cpucaps_for_elf(&r->owned_caps, &r->caps, r->elf, r->in.caps, err) ||
	    cli_config_choose(&r->cfg, &r->in, r->o->config, r->elf, err))
		return EXIT_BAD_INPUT;
	mo.elf = r->elf;
	mo.caps = r->caps;
	mo.config = r->cfg.config;
	return eh_audit_matrix_new(&r->mx, &mo, err) ? EXIT_BAD_INPUT : 0;
}

int cli_report(int argc, char **argv)
{
	static const char *const all[] = { "all" };
	struct report_opts o = { .format = "text" };
	struct report r = { .o = &o };
	struct cli_output out = { 0 };
	struct eh_error err = { 0 };
	const char *pos[1];
	unsigned npos;
	size_t fmt;
	int rc = cli_parse(&cli_report_command, argc, argv, on_option, &o, pos, &npos);

	if (rc)
		return rc < 0 ? 0 : rc;
	o.file = pos[0];
	for (fmt = 0; fmt < sizeof(formats) / sizeof(formats[0]) && strcmp(formats[fmt].name, o.format); fmt++)
		;
	if (fmt == sizeof(formats) / sizeof(formats[0]))
		return usage_error("report: --format: '%s' is none of text, json, junit, sarif", o.format);
	/* --model-from alone audits for that machine only; with --model, for it too. */
	rc = cli_pick(&r.pick, "report", o.nmodels ? o.models : all, o.nmodels ? o.nmodels : !o.model_from, o.errata,
		      o.nerrata);
	if (!rc && o.model_from) {
		if (eh_model_from_path(&r.from, o.model_from, &err))
			rc = cli_error("report", "--model-from: %s", err.msg);
		else
			r.pick.models[r.pick.nmodels++] = eh_model_from_model(r.from);  /* cli_pick leaves room for one */
	}
	if (!rc)
		rc = cli_inputs_open(&r.in, "report", o.cpucaps, o.kernel, o.config, o.boot);
	if (!rc)
		rc = cli_suppress_open(&r.sup, "report", o.suppress);
	if (!rc && (rc = report_audit(&r, &err)))
		fprintf(stderr, "errata-harness report: %s\n", err.msg);
	if (!rc)
		rc = cli_open_output(&out, o.output);
	if (!rc) {
		r.f = out.f;
		cli_text_width(&o.style, o.width_given, r.f);
		formats[fmt].write(&r);
		rc = cli_close_output(&out);
	}
	if (!rc)
		rc = eh_audit_matrix_failing(r.mx) ? EXIT_UNEXPECTED : 0;
	eh_audit_matrix_free(r.mx);
	eh_kconfig_free(r.cfg.embedded);
	eh_suppress_free(r.sup);
	eh_cpucaps_free(r.owned_caps);
	eh_elf_free(r.elf);
	cli_inputs_close(&r.in);
	cli_pick_free(&r.pick);
	eh_model_from_free(r.from);
	return rc;
}

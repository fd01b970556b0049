/* The report for CI systems: JUnit XML (a testcase per erratum and model) and SARIF 2.1.0 (a rule per erratum, a result per finding) for code-scanning dashboards. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "eh/escape.h"
#include "eh/json.h"

/* ---- JUnit XML ---------------------------------------------------------------------------------- */

static void put_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	eh_xml_puts(f, value ? value : "");
	fputc('"', f);
}

/* One erratum on one model: passed, failed (its findings, one a line), or skipped (why). */
static void junit_testcase(const struct report *r, size_t model, size_t e)
{
	struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, model, e);
	char text[96], what[512];
	size_t i;

	fputs("    <testcase", r->f);
	put_attr(r->f, "name", r->pick.models[model]->name);
	put_attr(r->f, "classname", r->pick.errata[e]->id);
	fputs(" time=\"0\">\n", r->f);
	eh_audit_cell_text(&c, text, sizeof(text));
	if (c.failing) {
		fputs("      <failure", r->f);
		put_attr(r->f, "message", text);
		put_attr(r->f, "type", "findings");
		fputs(">", r->f);
		for (i = 0; i < c.t->res->nfindings; i++) {
			const struct eh_finding *f = &c.t->res->findings[i];

			if (c.t->sup[i])
				continue;
			eh_xml_puts(r->f, f->where);
			fputs(": ", r->f);
			eh_xml_puts(r->f, report_finding_text(f, what, sizeof(what)));
			fputs("\n", r->f);
		}
		fputs("</failure>\n", r->f);
	} else if (c.status != EH_AUDIT_SHOWS || c.configured_out || c.not_in_kernel) {
		fputs("      <skipped", r->f);
		put_attr(r->f, "message", text);
		fputs("/>\n", r->f);
	}
	fprintf(r->f, "      <system-out>image %zu: ", r->mx->image_of[model] + 1);
	eh_xml_puts(r->f, text);
	if (c.status != EH_AUDIT_NOT_AFFECTED && c.t->suppressed)
		fprintf(r->f, ", %zu finding%s suppressed", c.t->suppressed, c.t->suppressed == 1 ? "" : "s");
	fputs("</system-out>\n    </testcase>\n", r->f);
}

static void junit_property(FILE *f, const char *name, const char *value)
{
	fputs("      <property", f);
	put_attr(f, "name", name);
	put_attr(f, "value", value);
	fputs("/>\n", f);
}

void report_write_junit(const struct report *r)
{
	size_t e, i, total[3] = { 0 };

	for (e = 0; e < r->pick.nerrata; e++)
		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			total[0]++;
			total[1] += c.failing;
			total[2] += !c.failing && (c.status != EH_AUDIT_SHOWS || c.configured_out || c.not_in_kernel);
		}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", r->f);
	fprintf(r->f, "<testsuites name=\"errata-harness report\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"0\">\n", total[0], total[1], total[2]);
	for (e = 0; e < r->pick.nerrata; e++) {
		const struct eh_erratum *er = r->pick.errata[e];
		size_t n[2] = { 0 };

		for (i = 0; i < r->pick.nmodels; i++) {
			struct eh_audit_cell c = eh_audit_matrix_cell(r->mx, i, e);

			n[0] += c.failing;
			n[1] += !c.failing && (c.status != EH_AUDIT_SHOWS || c.configured_out || c.not_in_kernel);
		}
		fputs("  <testsuite", r->f);
		put_attr(r->f, "name", er->id);
		fprintf(r->f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
			r->pick.nmodels, n[0], n[1]);
		fputs("    <properties>\n", r->f);
		junit_property(r->f, "version", eh_version());
		junit_property(r->f, "file", r->elf->path);
		junit_property(r->f, "cpucaps", r->caps->source);
		junit_property(r->f, "config", r->cfg.source);
		junit_property(r->f, "boot", eh_boot_names[r->in.boot]);
		junit_property(r->f, "suppress", r->o->suppress ? r->o->suppress : "none");
		junit_property(r->f, "title", er->title);
		junit_property(r->f, "workaround", er->capability);
		junit_property(r->f, "kconfig", er->kconfig);
		fputs("    </properties>\n", r->f);
		for (i = 0; i < r->pick.nmodels; i++)
			junit_testcase(r, i, e);
		fputs("  </testsuite>\n", r->f);
	}
	fputs("</testsuites>\n", r->f);
}

/* ---- SARIF 2.1.0 -------------------------------------------------------------------------------- */

/* The input's URI (RFC 8089): file:// and its absolute path, each byte outside RFC 3986's unreserved set and '/' escaped. */
static const char *file_uri(const char *path, char *buf, size_t len)
{
	char abs[PATH_MAX];
	const char *p = realpath(path, abs) ? abs : path;
	size_t at = (size_t)snprintf(buf, len, "file://");

	for (; *p && at + 4 < len; p++) {
		unsigned char ch = (unsigned char)*p;

		if (isalnum(ch) || strchr("-._~/", ch))
			buf[at++] = (char)ch;
		else
			at += (size_t)snprintf(buf + at, len - at, "%%%02X", ch);
	}
	buf[at] = 0;
	return buf;
}

/* A rule per erratum: its title, the rule's summary, and the kernel's workaround (capability and Kconfig symbol). */
static void sarif_rule(struct eh_json *j, const struct eh_erratum *e)
{
	char help[1024];

	snprintf(help, sizeof(help), "%s. Static rule: %s. The kernel's workaround: %s, built with %s.", e->title,
		 e->rule->summary, e->capability ? e->capability : "none (a compiler or linker option)",
		 e->kconfig ? e->kconfig : "no Kconfig option");
	eh_json_object(j, NULL, false);
	eh_json_str(j, "id", e->id);
	eh_json_object(j, "shortDescription", true);
	eh_json_str(j, "text", e->title);
	eh_json_end(j);
	eh_json_object(j, "fullDescription", true);
	eh_json_str(j, "text", e->rule->summary);
	eh_json_end(j);
	eh_json_object(j, "help", true);
	eh_json_str(j, "text", help);
	eh_json_end(j);
	eh_json_object(j, "defaultConfiguration", true);
	eh_json_str(j, "level", "error");
	eh_json_end(j);
	eh_json_object(j, "properties", true);
	eh_json_str(j, "capability", e->capability);
	eh_json_str(j, "kconfig", e->kconfig);
	eh_json_str(j, "rule", e->rule->window ? "window" : "scan");
	eh_json_end(j);
	eh_json_end(j);
}

/* One finding of erratum e in image g, on the models it applies to: error where the erratum shows, else note. */
static void sarif_result(struct eh_json *j, const struct report *r, size_t e, size_t g, size_t i,
			 const struct eh_model *const *models, size_t n, bool shows, const char *uri)
{
	const struct eh_audit_tally *t = &r->mx->images[g].tallies[e];
	const struct eh_finding *f = &t->res->findings[i];
	char what[512], message[1024], sym[EH_AUDIT_WHERE_MAX];
	uint64_t off;

	snprintf(message, sizeof(message), "%s at %s: %s%s%s", r->pick.errata[e]->id, f->where,
		 report_finding_text(f, what, sizeof(what)), f->open ? "" : ". ", f->open ? "" : f->explain);
	eh_json_object(j, NULL, false);
	eh_json_str(j, "ruleId", r->pick.errata[e]->id);
	eh_json_uint(j, "ruleIndex", e);
	eh_json_str(j, "level", shows ? "error" : "note");
	eh_json_object(j, "message", true);
	eh_json_str(j, "text", message);
	eh_json_end(j);
	eh_json_array(j, "locations", false);
	eh_json_object(j, NULL, false);
	eh_json_object(j, "physicalLocation", true);
	eh_json_object(j, "artifactLocation", true);
	eh_json_str(j, "uri", uri);
	eh_json_uint(j, "index", 0);
	eh_json_end(j);
	if (report_file_offset(r, f->addr, &off)) {
		eh_json_object(j, "region", true);
		eh_json_uint(j, "byteOffset", off);
		eh_json_uint(j, "byteLength", 4);
		eh_json_end(j);
	}
	eh_json_end(j);
	eh_json_array(j, "logicalLocations", true);
	eh_json_object(j, NULL, true);
	eh_json_str(j, "name", report_symbol(f, sym, sizeof(sym)));
	eh_json_str(j, "fullyQualifiedName", f->where);
	eh_json_str(j, "kind", "function");
	eh_json_end(j);
	eh_json_end(j);
	eh_json_end(j);
	eh_json_end(j);
	if (t->sup[i]) {
		eh_json_array(j, "suppressions", true);
		eh_json_object(j, NULL, true);
		eh_json_str(j, "kind", "external");
		eh_json_str(j, "justification", t->sup[i]->justification);
		eh_json_end(j);
		eh_json_end(j);
	}
	eh_json_object(j, "properties", true);
	report_json_models(j, "models", models, n);
	eh_json_uint(j, "image", g);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "kind", f->open ? "open" : f->kind);
	eh_json_str(j, "anchor", f->anchor_where[0] ? f->anchor_where : NULL);
	eh_json_end(j);
	eh_json_end(j);
}

void report_write_sarif(const struct report *r)
{
	const struct eh_model **models = eh_alloc((r->pick.nmodels + 1) * sizeof(*models));
	char uri[3 * PATH_MAX + 16];
	struct eh_json j;
	size_t e, g, i, n;
	bool shows;

	file_uri(r->elf->path, uri, sizeof(uri));
	eh_json_begin(&j, r->f);
	eh_json_object(&j, NULL, false);
	eh_json_str(&j, "$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json");
	eh_json_str(&j, "version", "2.1.0");
	eh_json_array(&j, "runs", false);
	eh_json_object(&j, NULL, false);
	eh_json_object(&j, "tool", false);
	eh_json_object(&j, "driver", false);
	eh_json_str(&j, "name", "errata-harness");
	eh_json_str(&j, "version", eh_version());
	eh_json_array(&j, "rules", false);
	for (e = 0; e < r->pick.nerrata; e++)
		sarif_rule(&j, r->pick.errata[e]);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_array(&j, "invocations", false);
	eh_json_object(&j, NULL, true);
	eh_json_bool(&j, "executionSuccessful", true);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_array(&j, "artifacts", false);
	eh_json_object(&j, NULL, true);
	eh_json_object(&j, "location", true);
	eh_json_str(&j, "uri", uri);
	eh_json_end(&j);
	eh_json_array(&j, "roles", true);
	eh_json_str(&j, NULL, "analysisTarget");
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_array(&j, "results", false);
	for (e = 0; models && e < r->pick.nerrata; e++)
		for (g = 0; g < r->mx->nimages; g++) {
			n = report_affected(r, g, e, models, &shows);
			for (i = 0; n && i < r->mx->images[g].tallies[e].res->nfindings; i++)
				sarif_result(&j, r, e, g, i, models, n, shows, uri);
		}
	eh_json_end(&j);
	eh_json_object(&j, "properties", true);
	eh_json_str(&j, "cpucaps", r->caps->source);
	eh_json_str(&j, "config", r->cfg.config ? r->cfg.source : NULL);
	eh_json_str(&j, "boot", eh_boot_names[r->in.boot]);
	eh_json_str(&j, "suppress", r->o->suppress);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_free(models);
}

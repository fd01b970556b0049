/* The errata report as SARIF 2.1.0 (a rule per erratum, a result per finding) for code-scanning dashboards. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "eh/error.h"
#include "eh/json.h"
#include "eh/report.h"
#include "eh/rule.h"
#include "report/report_errata.h"

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
static void sarif_result(struct eh_json *j, const struct eh_errata_out *r, size_t e, size_t g, size_t i,
			 const struct eh_model *const *models, size_t n, bool shows, const char *uri)
{
	const struct eh_audit_tally *t = &r->fd->mx->images[g].tallies[e];
	const struct eh_finding *f = &t->res->findings[i];
	char what[512], message[1024], sym[EH_AUDIT_WHERE_MAX];
	uint64_t off;

	snprintf(message, sizeof(message), "%s at %s: %s%s%s", r->fd->errata[e]->id, f->where,
		 eh_report__finding_text(f, what, sizeof(what)), f->open ? "" : ". ", f->open ? "" : f->explain);
	eh_json_object(j, NULL, false);
	eh_json_str(j, "ruleId", r->fd->errata[e]->id);
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
	if (eh_report__file_offset(r, f->addr, &off)) {
		eh_json_object(j, "region", true);
		eh_json_uint(j, "byteOffset", off);
		eh_json_uint(j, "byteLength", 4);
		eh_json_end(j);
	}
	eh_json_end(j);
	eh_json_array(j, "logicalLocations", true);
	eh_json_object(j, NULL, true);
	eh_json_str(j, "name", eh_report__symbol(f, sym, sizeof(sym)));
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
	eh_report__json_models(j, "models", models, n);
	eh_json_uint(j, "image", g);
	eh_json_hex(j, "address", f->addr);
	eh_json_str(j, "kind", f->open ? "open" : f->kind);
	eh_json_str(j, "anchor", f->anchor_where[0] ? f->anchor_where : NULL);
	eh_json_end(j);
	eh_json_end(j);
}

void eh_report__errata_sarif(const struct eh_errata_out *r)
{
	const struct eh_model **models = eh_alloc((r->fd->nmodels + 1) * sizeof(*models));
	char uri[3 * PATH_MAX + 16];
	struct eh_json j;
	size_t e, g, i, n;
	bool shows;

	file_uri(r->fd->elf->path, uri, sizeof(uri));
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
	for (e = 0; e < r->fd->nerrata; e++)
		sarif_rule(&j, r->fd->errata[e]);
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
	for (e = 0; models && e < r->fd->nerrata; e++)
		for (g = 0; g < r->fd->mx->nimages; g++) {
			n = eh_report__affected(r, g, e, models, &shows);
			for (i = 0; n && i < r->fd->mx->images[g].tallies[e].res->nfindings; i++)
				sarif_result(&j, r, e, g, i, models, n, shows, uri);
		}
	eh_json_end(&j);
	eh_json_object(&j, "properties", true);
	eh_json_str(&j, "cpucaps", r->fd->caps->source);
	eh_json_str(&j, "config", r->fd->config ? r->fd->config_source : NULL);
	eh_json_str(&j, "boot", eh_boot_names[r->fd->boot]);
	eh_json_str(&j, "suppress", r->in->suppress);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_json_end(&j);
	eh_free(models);
}

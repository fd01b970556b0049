/* The JSON report: every outcome with its events and the per-commit summary, as harness/schema/run-v3.json describes. */
#include <inttypes.h>

#include "eh/json.h"
#include "eh/erratum.h"
#include "eh/file.h"
#include "eh/insn.h"
#include "eh/report.h"
#include "eh/sysreg.h"
#include "report/report_writers.h"

static const char *sync_name(uint32_t flags)
{
	return flags & EH_INSN_ISB ? "isb" : flags & EH_INSN_ERET ? "eret"
	       : flags & EH_INSN_EXC_GEN ? "exception" : "end";
}

static const char *erratum_id(const struct eh_event *ev)
{
	const struct eh_erratum *e = eh_event_erratum(ev);

	return e ? e->id : NULL;
}

void eh_report_json_event_fields(struct eh_json *j, const struct eh_event *ev, const char *text)
{
	char reg[32];

	eh_json_uint(j, "seq", ev->seq);
	eh_json_uint(j, "thread", ev->thread);
	eh_json_str(j, "kind", eh_event_kind_name(ev->kind));
	eh_json_str(j, "text", text);
	eh_json_hex(j, "pc", ev->pc);
	switch ((enum eh_event_kind)ev->kind) {
	case EH_EV_INSN:
		eh_json_bool(j, "in_window", ev->in_window);
		break;
	case EH_EV_WINDOW_OPEN:
		eh_json_str(j, "erratum", erratum_id(ev));
		eh_json_str(j, "sysreg", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		eh_json_hex(j, "value", ev->value);
		break;
	case EH_EV_SYSREG_WRITE:
	case EH_EV_SYSREG_READ:
		eh_json_str(j, "sysreg", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		eh_json_hex(j, "value", ev->value);
		break;
	case EH_EV_BARRIER:
		eh_json_str(j, "barrier", ev->flags & EH_INSN_DSB ? "dsb" : "dmb");
		eh_json_uint(j, "option", ev->value);
		break;
	case EH_EV_SYS:
		eh_json_str(j, "operation", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		eh_json_hex(j, "value", ev->value);
		break;
	case EH_EV_HAZARD:
		eh_json_str(j, "erratum", erratum_id(ev));
		eh_json_hex(j, "address", ev->addr);
		eh_json_hex(j, "value", ev->value);
		break;
	case EH_EV_EL2_ACCESS:
		eh_json_str(j, "sysreg", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		eh_json_hex(j, "value", ev->value);
		eh_json_str(j, "direction", ev->flags & EH_INSN_MSR ? "write" : "read");
		break;
	case EH_EV_CTX_SYNC:
		eh_json_str(j, "sync", sync_name(ev->flags));
		break;
	case EH_EV_ACCESS:
		eh_json_str(j, "access", eh_insn_access_name(ev->flags));
		eh_json_hex(j, "address", ev->addr);
		eh_json_uint(j, "size", ev->size);
		eh_json_bool(j, "in_window", ev->in_window);
		if (ev->flags & EH_INSN_STORE)
			eh_json_hex(j, "value", ev->value);
		break;
	case EH_EV_WINDOW_CLOSE:
		eh_json_str(j, "erratum", erratum_id(ev));
		eh_json_str(j, "closed_by", sync_name(ev->flags));
		eh_json_uint(j, "accesses", ev->count);
		if (ev->count) {
			eh_json_hex(j, "first_access_pc", ev->value);
			eh_json_hex(j, "first_access_address", ev->addr);
		}
		break;
	case EH_EV_INJECT:
		eh_json_str(j, "erratum", erratum_id(ev));
		eh_json_str(j, "culprit_access", eh_insn_access_name(ev->flags));
		eh_json_hex(j, "address", ev->addr);
		eh_json_uint(j, "victim", ev->victim);
		eh_json_bool(j, "taken", ev->taken);
		break;
	case EH_EV_EXCEPTION:
		eh_json_hex(j, "esr", ev->esr);
		eh_json_hex(j, "far", ev->addr);
		if (ev->value)
			eh_json_hex(j, "vector", ev->value);
		break;
	case EH_EV_STOP:
		eh_json_str(j, "stop", eh_stop_name(ev->stop));
		if (ev->stop == EH_STOP_FAULT)
			eh_json_hex(j, "address", ev->addr);
		break;
	case EH_EV_SCREENED:
		eh_json_hex(j, "value", ev->value);
		break;
	default:
		break;
	}
}

void eh_report_json_event(struct eh_json *j, const struct eh_event *ev, const char *text)
{
	eh_json_object(j, NULL, true);
	eh_report_json_event_fields(j, ev, text);
	eh_json_end(j);
}

void eh_report_json_result(struct eh_json *j, const char *key, const struct eh_result *r)
{
	const struct eh_commit *k;
	size_t i;

	eh_json_object(j, key, false);
	eh_json_str(j, "case", r->s.c->id);
	eh_json_str(j, "variant", r->s.v->name);
	eh_json_str(j, "model", r->s.model->name);
	eh_json_array(j, "verifies", true);
	for (k = r->s.c->commits; k->hash; k++)
		eh_json_str(j, NULL, k->hash);
	eh_json_end(j);
	eh_json_str(j, "expected", eh_verdict_name(r->s.expected));
	eh_json_str(j, "outcome", eh_verdict_name(r->outcome.verdict));
	eh_json_bool(j, "pass", r->pass);
	eh_json_str(j, "evidence", r->outcome.evidence);
	if (r->outcome.verdict == EH_VERDICT_INCOMPLETE && r->outcome.where)
		eh_json_hex(j, "where", r->outcome.where);
	if (r->snippet) {
		eh_json_object(j, "snippet", true);
		eh_json_str(j, "path", r->snippet);
		eh_json_str(j, "sha256", r->snippet_sha256);
		eh_json_end(j);
	}
	eh_json_uint(j, "events_dropped", r->dropped);
	eh_json_array(j, "events", false);
	for (i = 0; i < r->nevents; i++)
		eh_report_json_event(j, &r->events[i].ev, r->events[i].text);
	eh_json_end(j);
	eh_json_end(j);
}

static void put_commit(struct eh_json *j, const struct eh_commit_report *k)
{
	unsigned i;

	eh_json_object(j, NULL, true);
	eh_json_uint(j, "position", k->position);
	eh_json_str(j, "hash", k->commit->hash);
	eh_json_str(j, "subject", k->commit->subject);
	eh_json_str(j, "status", eh_commit_status_name(k->status));
	eh_json_array(j, "cases", true);
	for (i = 0; i < k->ncases; i++)
		eh_json_str(j, NULL, k->cases[i]->id);
	eh_json_end(j);
	eh_json_uint(j, "outcomes", k->outcomes);
	eh_json_uint(j, "before", k->before);
	eh_json_uint(j, "before_shown", k->before_shown);
	eh_json_uint(j, "after", k->after);
	eh_json_uint(j, "after_absent", k->after_absent);
	eh_json_uint(j, "unexpected", k->unexpected);
	eh_json_end(j);
}

void eh_report_json_header(struct eh_json *j, const char *format, int schema_version)
{
	eh_json_str(j, "format", format);
	eh_json_uint(j, "schema_version", (uint64_t)schema_version);
	eh_json_object(j, "tool", true);
	eh_json_str(j, "name", "errata-harness");
	eh_json_str(j, "version", eh_version());
	eh_json_end(j);
}

void eh_report_json_file(struct eh_json *j, const char *key, const char *path)
{
	struct eh_error err = { 0 };
	char hex[EH_SHA256_HEX];

	if (!path) {
		eh_json_str(j, key, NULL);
		return;
	}
	eh_json_object(j, key, true);
	eh_json_str(j, "path", path);
	eh_json_str(j, "sha256", eh_file_sha256(path, hex, &err) ? NULL : hex);
	eh_json_end(j);
}

void eh_report__json(FILE *f, const struct eh_results *res)
{
	struct eh_json j;
	size_t i;

	eh_json_begin(&j, f);
	eh_json_object(&j, NULL, false);
	eh_report_json_header(&j, "errata-harness-run", EH_JSON_SCHEMA_VERSION);
	eh_json_uint(&j, "seed", res->seed);
	eh_json_object(&j, "shard", true);
	eh_json_uint(&j, "index", res->nshards ? res->shard : 1);
	eh_json_uint(&j, "count", res->nshards ? res->nshards : 1);
	eh_json_end(&j);
	eh_json_object(&j, "summary", true);
	eh_json_uint(&j, "outcomes", res->n);
	eh_json_uint(&j, "passed", res->passed);
	eh_json_uint(&j, "failed", res->failed);
	eh_json_uint(&j, "incomplete", res->incomplete);
	eh_json_end(&j);
	eh_json_str(&j, "error", res->error);
	eh_json_array(&j, "outcomes", false);
	for (i = 0; i < res->n; i++)
		eh_report_json_result(&j, NULL, &res->r[i]);
	eh_json_end(&j);
	eh_json_array(&j, "commits", false);
	for (i = 0; eh_series[i].hash; i++) {
		struct eh_commit_report k;

		eh_results_commit(res, i, &k);
		put_commit(&j, &k);
	}
	eh_json_end(&j);
	eh_json_end(&j);
}

/* The JSON report: every outcome with its events and the per-commit summary, as harness/schema/run-v2.json describes. */
#include <inttypes.h>

#include "eh/escape.h"
#include "eh/insn.h"
#include "eh/report.h"
#include "eh/sysreg.h"
#include "report_writers.h"

/* 64-bit values as hex strings: JSON numbers lose precision past 2^53 in most readers. */
static void put_hex(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ", \"%s\": \"0x%016" PRIx64 "\"", key, v);
}

static void put_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ", \"%s\": ", key);
	eh_json_puts(f, s);
}

static const char *sync_name(uint32_t flags)
{
	return flags & EH_INSN_ISB ? "isb" : flags & EH_INSN_ERET ? "eret"
	       : flags & EH_INSN_EXC_GEN ? "exception" : "end";
}

static void put_event(FILE *f, const struct eh_result_event *re)
{
	const struct eh_event *ev = &re->ev;
	char reg[32];

	fprintf(f, "        {\"seq\": %" PRIu32 ", \"thread\": %u, \"kind\": \"%s\"", ev->seq, ev->thread,
		eh_event_kind_name(ev->kind));
	put_str(f, "text", re->text);
	put_hex(f, "pc", ev->pc);
	switch ((enum eh_event_kind)ev->kind) {
	case EH_EV_INSN:
		fprintf(f, ", \"in_window\": %s", ev->in_window ? "true" : "false");
		break;
	case EH_EV_SYSREG_WRITE:
	case EH_EV_SYSREG_READ:
	case EH_EV_WINDOW_OPEN:
		put_str(f, "sysreg", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		put_hex(f, "value", ev->value);
		break;
	case EH_EV_EL2_ACCESS:
		put_str(f, "sysreg", eh_sysreg_name(ev->sysreg, reg, sizeof(reg)));
		put_hex(f, "value", ev->value);
		put_str(f, "direction", ev->flags & EH_INSN_MSR ? "write" : "read");
		break;
	case EH_EV_CTX_SYNC:
		put_str(f, "sync", sync_name(ev->flags));
		break;
	case EH_EV_ACCESS:
		put_str(f, "access", eh_insn_access_name(ev->flags));
		put_hex(f, "addr", ev->addr);
		fprintf(f, ", \"size\": %u, \"in_window\": %s", ev->size, ev->in_window ? "true" : "false");
		if (ev->flags & EH_INSN_STORE)
			put_hex(f, "value", ev->value);
		break;
	case EH_EV_WINDOW_CLOSE:
		put_str(f, "closed_by", sync_name(ev->flags));
		fprintf(f, ", \"accesses\": %" PRIu32, ev->count);
		if (ev->count) {
			put_hex(f, "first_access_pc", ev->value);
			put_hex(f, "first_access_addr", ev->addr);
		}
		break;
	case EH_EV_INJECT:
		put_str(f, "culprit_access", eh_insn_access_name(ev->flags));
		put_hex(f, "addr", ev->addr);
		fprintf(f, ", \"victim\": %u, \"taken\": %s", ev->victim, ev->taken ? "true" : "false");
		break;
	case EH_EV_EXCEPTION:
		put_hex(f, "esr", ev->esr);
		put_hex(f, "far", ev->addr);
		if (ev->value)
			put_hex(f, "vector", ev->value);
		break;
	case EH_EV_STOP:
		put_str(f, "stop", eh_stop_name(ev->stop));
		if (ev->stop == EH_STOP_FAULT)
			put_hex(f, "addr", ev->addr);
		break;
	case EH_EV_SCREENED:
		put_hex(f, "value", ev->value);
		break;
	default:
		break;
	}
	fputc('}', f);
}

static void put_outcome(FILE *f, const struct eh_result *r)
{
	const struct eh_commit *k;
	size_t i;

	fputs("    {\"case\": ", f);
	eh_json_puts(f, r->s.c->id);
	put_str(f, "variant", r->s.v->name);
	put_str(f, "model", r->s.model->name);
	fputs(", \"verifies\": [", f);
	for (k = r->s.c->commits; k->hash; k++) {
		fputs(k == r->s.c->commits ? "" : ", ", f);
		eh_json_puts(f, k->hash);
	}
	fprintf(f, "],\n     \"expected\": \"%s\", \"outcome\": \"%s\", \"pass\": %s",
		eh_verdict_name(r->s.expected), eh_verdict_name(r->outcome.verdict),
		r->pass ? "true" : "false");
	put_str(f, "evidence", r->outcome.evidence);
	if (r->outcome.verdict == EH_VERDICT_INCOMPLETE && r->outcome.where)
		put_hex(f, "where", r->outcome.where);
	fprintf(f, ",\n     \"events_dropped\": %zu, \"events\": [", r->dropped);
	for (i = 0; i < r->nevents; i++) {
		fputs(i ? ",\n" : "\n", f);
		put_event(f, &r->events[i]);
	}
	fputs(r->nevents ? "\n     ]}" : "]}", f);
}

static void put_commit(FILE *f, const struct eh_commit_report *k)
{
	unsigned i;

	fprintf(f, "    {\"position\": %u", k->position);
	put_str(f, "hash", k->commit->hash);
	put_str(f, "subject", k->commit->subject);
	fprintf(f, ", \"status\": \"%s\", \"cases\": [", eh_commit_status_name(k->status));
	for (i = 0; i < k->ncases; i++) {
		fputs(i ? ", " : "", f);
		eh_json_puts(f, k->cases[i]->id);
	}
	fprintf(f, "], \"outcomes\": %u, \"before\": %u, \"before_shown\": %u, \"after\": %u, "
		"\"after_absent\": %u, \"unexpected\": %u}", k->outcomes, k->before, k->before_shown,
		k->after, k->after_absent, k->unexpected);
}

void eh_report__json(FILE *f, const struct eh_results *res)
{
	size_t i;

	fprintf(f, "{\n  \"format\": \"errata-harness-run\",\n  \"schema_version\": %d,\n",
		EH_JSON_SCHEMA_VERSION);
	fputs("  \"tool\": {\"name\": \"errata-harness\", \"version\": ", f);
	eh_json_puts(f, eh_version());
	fprintf(f, "},\n  \"seed\": %" PRIu64 ",\n", res->seed);
	fprintf(f, "  \"shard\": {\"index\": %u, \"count\": %u},\n", res->nshards ? res->shard : 1,
		res->nshards ? res->nshards : 1);
	fprintf(f, "  \"summary\": {\"outcomes\": %zu, \"passed\": %u, \"failed\": %u, \"incomplete\": %u},\n",
		res->n, res->passed, res->failed, res->incomplete);
	fputs("  \"error\": ", f);
	if (res->error)
		eh_json_puts(f, res->error);
	else
		fputs("null", f);
	fputs(",\n", f);
	fputs("  \"outcomes\": [", f);
	for (i = 0; i < res->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		put_outcome(f, &res->r[i]);
	}
	fputs(res->n ? "\n  ],\n" : "],\n", f);
	fputs("  \"commits\": [", f);
	for (i = 0; eh_series[i].hash; i++) {
		struct eh_commit_report k;

		eh_results_commit(res, i, &k);
		fputs(i ? ",\n" : "\n", f);
		put_commit(f, &k);
	}
	fputs("\n  ]\n}\n", f);
}

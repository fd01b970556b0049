/* Reading a machine's trace: where an instruction is, and what the TTBR windows held. */
#include "eh/machine.h"

#include <inttypes.h>
#include <stdio.h>

#include "eh/sysreg.h"

const char *eh_machine_where(struct eh_machine *m, uint64_t pc, char *buf, size_t len)
{
	const struct eh_insn *in = eh_machine_insn(m, pc);
	char where[160];

	eh_elf_describe(eh_machine_image(m)->elf, pc, where, sizeof(where));
	snprintf(buf, len, "%s: %s", where, in ? in->text : "(not mapped)");
	return buf;
}

void eh_trace_summarise(const struct eh_trace *tr, struct eh_window_summary *out)
{
	size_t i;
	const struct eh_event *last = NULL;

	*out = (struct eh_window_summary){ .victim = -1, .culprit_thread = -1 };
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];

		switch (ev->kind) {
		case EH_EV_WINDOW_OPEN:
			if (!out->windows++)
				out->first_open_pc = ev->pc;
			break;
		case EH_EV_ACCESS:
			/* An LDP makes two accesses: count instructions, not accesses. */
			if (!ev->in_window ||
			    (last && last->thread == ev->thread && last->count == ev->count))
				break;
			last = ev;
			out->loads += !!(ev->flags & EH_INSN_LOAD);
			out->stores += !!(ev->flags & EH_INSN_STORE);
			out->prefetches += !!(ev->flags & EH_INSN_PREFETCH);
			if (out->nfirst < 4)
				out->first_access_pc[out->nfirst++] = ev->pc;
			break;
		case EH_EV_INJECT:
			out->taken += ev->taken;
			if (!out->injected++) {
				out->victim = ev->victim;
				out->culprit_thread = ev->thread;
			}
			break;
		default:
			break;
		}
	}
}

static const char *esr_class(uint64_t esr)
{
	switch ((esr >> 26) & 0x3f) {
	case 0x00: return "unknown reason (UNDEFINED)";
	case 0x15: return "SVC";
	case 0x16: return "HVC";
	case 0x17: return "SMC";
	case 0x18: return "trapped MSR/MRS";
	case 0x24: return "Data Abort from a lower EL";
	case 0x25: return "Data Abort at the same EL";
	case 0x3c: return "BRK";
	default: return "other";
	}
}

const char *eh_event_format(struct eh_machine *m, const struct eh_event *ev, char *buf, size_t len)
{
	char where[200], reg[32], culprit[200];
	const char *name = eh_sysreg_name(ev->sysreg, reg, sizeof(reg));

	switch ((enum eh_event_kind)ev->kind) {
	case EH_EV_START:
		snprintf(buf, len, "start      at %s", eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_INSN:
		snprintf(buf, len, "%s %s", ev->in_window ? "  |" : "   ",
			 eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_SYSREG_WRITE:
		snprintf(buf, len, "msr        %s <- 0x%016" PRIx64, name, ev->value);
		break;
	case EH_EV_SYSREG_READ:
		snprintf(buf, len, "mrs        %s -> 0x%016" PRIx64 " (served by the model)", name, ev->value);
		break;
	case EH_EV_EL2_ACCESS:
		snprintf(buf, len, "trap       %s %s 0x%016" PRIx64 " (virtual EL2 register file)",
			 name, ev->flags & EH_INSN_MSR ? "<-" : "->", ev->value);
		break;
	case EH_EV_CTX_SYNC:
		snprintf(buf, len, "sync       %s: context synchronisation",
			 ev->flags & EH_INSN_ISB ? "ISB" : "ERET");
		break;
	case EH_EV_ACCESS:
		if (ev->flags & EH_INSN_PREFETCH)
			snprintf(buf, len, "%-10s 0x%016" PRIx64 "%s", "prefetch", ev->addr,
				 ev->in_window ? "  INSIDE THE TTBR WINDOW" : "");
		else if (ev->flags & EH_INSN_STORE)
			snprintf(buf, len, "%-10s 0x%016" PRIx64 " (%u bytes, value 0x%" PRIx64 ")%s",
				 "store", ev->addr, ev->size, ev->value,
				 ev->in_window ? "  INSIDE THE TTBR WINDOW" : "");
		else
			snprintf(buf, len, "%-10s 0x%016" PRIx64 " (%u bytes)%s", "load", ev->addr, ev->size,
				 ev->in_window ? "  INSIDE THE TTBR WINDOW" : "");
		break;
	case EH_EV_WINDOW_OPEN:
		snprintf(buf, len, "window     opened by the write to %s: loads, stores and prefetches "
			 "until the next context synchronisation are hazards", name);
		break;
	case EH_EV_WINDOW_CLOSE:
		snprintf(buf, len, "window     closed by %s, %u access%s inside",
			 ev->flags & EH_INSN_ISB ? "ISB" : ev->flags & EH_INSN_ERET ? "ERET"
			 : ev->flags & EH_INSN_EXC_GEN ? "exception entry" : "the end of the run",
			 ev->count, ev->count == 1 ? "" : "es");
		break;
	case EH_EV_INJECT:
		snprintf(buf, len, "INJECT     spurious Data Abort (erratum 219), culprit thread %u %s (%s) -> "
			 "victim thread %u%s%s", ev->thread,
			 eh_machine_where(m, ev->pc, culprit, sizeof(culprit)), eh_insn_access_name(ev->flags),
			 ev->victim, ev->victim == ev->thread ? " (itself)" : " (a sibling)",
			 ev->taken ? "" : ", idle: recorded, not taken");
		break;
	case EH_EV_EXCEPTION:
		if (ev->value)
			snprintf(buf, len, "exception  %s, ESR 0x%08" PRIx64 " FAR 0x%016" PRIx64
				 " ELR %s -> vector 0x%016" PRIx64, esr_class(ev->esr), ev->esr, ev->addr,
				 eh_machine_where(m, ev->pc, where, sizeof(where)), ev->value);
		else
			snprintf(buf, len, "exception  %s, ESR 0x%08" PRIx64 " at %s: no vector installed",
				 esr_class(ev->esr), ev->esr, eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_STOP:
		if (ev->stop == EH_STOP_FAULT)
			snprintf(buf, len, "stop       %s: 0x%016" PRIx64 " at %s", eh_stop_name(ev->stop),
				 ev->addr, eh_machine_where(m, ev->pc, where, sizeof(where)));
		else if (ev->stop == EH_STOP_RETURNED)
			snprintf(buf, len, "stop       returned to the harness");
		else
			snprintf(buf, len, "stop       %s at %s", eh_stop_name(ev->stop),
				 eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_SCREENED:
		snprintf(buf, len, "screened   0x%016" PRIx64 ": 0x%08" PRIx64 " is UNDEFINED on the modelled "
			 "CPUs and Unicorn 2.0.1 aborts on it: runs as UDF #0", ev->pc, ev->value);
		break;
	default:
		snprintf(buf, len, "event %u", ev->kind);
	}
	return buf;
}

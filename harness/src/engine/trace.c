/* Reading a machine's trace: where an instruction is, what the TTBR windows held, what EL2 did. */
#include "eh/machine.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/disasm.h"
#include "eh/erratum.h"
#include "eh/sysreg.h"

const char *eh_machine_where(struct eh_machine *m, uint64_t pc, char *buf, size_t len)
{
	const struct eh_insn *in = eh_machine_insn(m, pc);
	char where[160], text[96];

	eh_elf_describe(eh_machine_image(m)->elf, pc, where, sizeof(where));
	snprintf(buf, len, "%s: %s", where, in ? eh_disasm_text(in, text, sizeof(text)) : "(not mapped)");
	return buf;
}

size_t eh_trace_hazards(const struct eh_trace *tr, const struct eh_erratum *e, const struct eh_event **first)
{
	size_t i, n = 0;

	*first = NULL;
	for (i = 0; i < tr->n; i++)
		if (tr->events[i].kind == EH_EV_HAZARD && eh_event_erratum(&tr->events[i]) == e && !n++)
			*first = &tr->events[i];
	return n;
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
		case EH_EV_HAZARD:
			out->hazards++;
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

void eh_trace_summarise_hyp(const struct eh_trace *tr, struct eh_hyp_summary *out)
{
	size_t i;

	*out = (struct eh_hyp_summary){ 0 };
	for (i = 0; i < tr->n; i++) {
		const struct eh_event *ev = &tr->events[i];

		switch (ev->kind) {
		case EH_EV_EL2_ENTRY:
			if (!out->traps++) {
				out->first_trap_pc = ev->pc;
				out->first_trap_esr = ev->esr;
			}
			break;
		case EH_EV_EL2_RETURN:
			out->fast += !!(ev->flags & EH_INSN_ERET);
			break;
		case EH_EV_HYP_SLOW:
			if (!out->slow++)
				out->first_slow_pc = ev->pc;
			break;
		case EH_EV_VSERROR:
			if (!out->vserrors++)
				out->first_vserror_pc = ev->pc;
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
	case 0x2f: return "SError interrupt";
	case 0x3c: return "BRK";
	default: return "other";
	}
}

/* "0x62300820: EC 0x18 (trapped MSR/MRS), IL 1, ISS 0x300820 = Op0 3, ..., direction 0 (write) = ..." */
static void format_esr(uint64_t esr, char *buf, size_t len)
{
	uint32_t reg;
	unsigned rt;
	bool read;
	char name[32];

	if (eh_sysreg_trap_decode(esr, &reg, &rt, &read)) {
		snprintf(buf, len, "0x%08" PRIx64 ": EC 0x%02x (%s)", esr, (unsigned)(esr >> 26) & 0x3f,
			 esr_class(esr));
		return;
	}
	snprintf(buf, len, "0x%08" PRIx64 ": EC 0x18 (%s), IL %u, ISS 0x%06" PRIx64 " = Op0 %u, Op2 %u, "
		 "Op1 %u, CRn %u, Rt %u, CRm %u, direction %u (%s) = %s %s, x%u", esr, esr_class(esr),
		 (unsigned)(esr >> 25) & 1, esr & 0x1ffffff, EH_SYSREG_OP0(reg), EH_SYSREG_OP2(reg),
		 EH_SYSREG_OP1(reg), EH_SYSREG_CRN(reg), rt, EH_SYSREG_CRM(reg), read, read ? "read" : "write",
		 read ? "mrs" : "msr", eh_sysreg_name(reg, name, sizeof(name)), rt);
}

const char *eh_event_kind_name(unsigned kind)
{
	static const char *const names[] = {
		[EH_EV_START] = "start",
		[EH_EV_INSN] = "insn",
		[EH_EV_SYSREG_WRITE] = "sysreg_write",
		[EH_EV_SYSREG_READ] = "sysreg_read",
		[EH_EV_EL2_ACCESS] = "el2_access",
		[EH_EV_CTX_SYNC] = "ctx_sync",
		[EH_EV_ACCESS] = "access",
		[EH_EV_WINDOW_OPEN] = "window_open",
		[EH_EV_WINDOW_CLOSE] = "window_close",
		[EH_EV_INJECT] = "inject",
		[EH_EV_EXCEPTION] = "exception",
		[EH_EV_STOP] = "stop",
		[EH_EV_SCREENED] = "screened",
		[EH_EV_EL2_ENTRY] = "el2_entry",
		[EH_EV_EL2_RETURN] = "el2_return",
		[EH_EV_HYP_SLOW] = "hyp_slow",
		[EH_EV_VSERROR] = "vserror",
		[EH_EV_PAGE] = "page",
		[EH_EV_STUB_CALL] = "stub_call",
		[EH_EV_BARRIER] = "barrier",
		[EH_EV_SYS] = "sys",
		[EH_EV_HAZARD] = "hazard",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ? names[kind] : "unknown";
}

const char *eh_event_format(struct eh_machine *m, const struct eh_event *ev, char *buf, size_t len)
{
	static const char *const barrier_options[16] = {
		[EH_BARRIER_OSHLD] = "OSHLD", [EH_BARRIER_OSHST] = "OSHST", [EH_BARRIER_OSH] = "OSH",
		[EH_BARRIER_NSHLD] = "NSHLD", [EH_BARRIER_NSHST] = "NSHST", [EH_BARRIER_NSH] = "NSH",
		[EH_BARRIER_ISHLD] = "ISHLD", [EH_BARRIER_ISHST] = "ISHST", [EH_BARRIER_ISH] = "ISH",
		[EH_BARRIER_LD] = "LD", [EH_BARRIER_ST] = "ST", [EH_BARRIER_SY] = "SY",
	};
	/* The kinds whose text names a system register: the look-up is theirs alone. */
	static const uint32_t names_reg = EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_SYSREG_READ) |
					  EH_EV_BIT(EH_EV_EL2_ACCESS) | EH_EV_BIT(EH_EV_WINDOW_OPEN) |
					  EH_EV_BIT(EH_EV_EL2_ENTRY) | EH_EV_BIT(EH_EV_HYP_SLOW);
	char where[200], reg[32], culprit[200], esr[200];
	const char *name = names_reg >> ev->kind & 1 ? eh_sysreg_name(ev->sysreg, reg, sizeof(reg)) : "";
	const struct eh_erratum *e = eh_event_erratum(ev);
	const char *eid = e ? e->id : "?";

	switch ((enum eh_event_kind)ev->kind) {
	case EH_EV_START:
		snprintf(buf, len, "start      at %s", eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_INSN:
		snprintf(buf, len, "%s %s", ev->el2 ? "EL2" : ev->in_window ? "  |" : "   ",
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
				 ev->in_window ? "  INSIDE THE WINDOW" : "");
		else if (ev->flags & EH_INSN_STORE)
			snprintf(buf, len, "%-10s 0x%016" PRIx64 " (%u bytes, value 0x%" PRIx64 ")%s",
				 "store", ev->addr, ev->size, ev->value,
				 ev->in_window ? "  INSIDE THE WINDOW" : "");
		else
			snprintf(buf, len, "%-10s 0x%016" PRIx64 " (%u bytes)%s", "load", ev->addr, ev->size,
				 ev->in_window ? "  INSIDE THE WINDOW" : "");
		break;
	case EH_EV_WINDOW_OPEN:
		if (ev->flags & EH_INSN_MSR)
			snprintf(buf, len, "window     opened by the write to %s (erratum %s): the accesses until it "
				 "closes are hazards", name, eid);
		else
			snprintf(buf, len, "window     opened at %s (erratum %s): the accesses until it closes are "
				 "hazards", eh_machine_where(m, ev->pc, where, sizeof(where)), eid);
		break;
	case EH_EV_WINDOW_CLOSE:
		snprintf(buf, len, "window     closed by %s, %u access%s inside",
			 ev->flags & EH_INSN_ISB ? "ISB" : ev->flags & EH_INSN_ERET ? "ERET"
			 : ev->flags & EH_INSN_EXC_GEN ? "exception entry" : "the end of the run",
			 ev->count, ev->count == 1 ? "" : "es");
		break;
	case EH_EV_INJECT:
		snprintf(buf, len, "INJECT     spurious Data Abort (erratum %s), culprit thread %u %s (%s of "
			 "0x%016" PRIx64 ") -> victim thread %u%s%s", eid, ev->thread,
			 eh_machine_where(m, ev->pc, culprit, sizeof(culprit)), eh_insn_access_name(ev->flags),
			 ev->addr,
			 ev->victim, ev->victim == ev->thread ? " (itself)" : " (a sibling)",
			 ev->taken ? "" : ", idle: recorded, not taken");
		break;
	case EH_EV_BARRIER:
		snprintf(buf, len, "barrier    %s %s", ev->flags & EH_INSN_DSB ? "DSB" : "DMB",
			 barrier_options[ev->value & 15] ? barrier_options[ev->value & 15] : "#?");
		break;
	case EH_EV_SYS:
		snprintf(buf, len, "sys        %s, operand 0x%016" PRIx64,
			 eh_machine_where(m, ev->pc, where, sizeof(where)), ev->value);
		break;
	case EH_EV_HAZARD:
		snprintf(buf, len, "HAZARD     erratum %s (%s) at %s", eid, e ? e->title : "?",
			 eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_EXCEPTION:
		if (ev->value)
			snprintf(buf, len, "exception  %s, ESR 0x%08" PRIx64 " FAR 0x%016" PRIx64
				 " ELR %s -> vector 0x%016" PRIx64, esr_class(ev->esr), ev->esr, ev->addr,
				 eh_machine_where(m, ev->pc, where, sizeof(where)), ev->value);
		else
			snprintf(buf, len, "exception  %s, ESR 0x%08" PRIx64 " at %s: %s", esr_class(ev->esr),
				 ev->esr, eh_machine_where(m, ev->pc, where, sizeof(where)),
				 ev->count ? "not entered, the run stops at exceptions" : "no vector installed");
		break;
	case EH_EV_EL2_ENTRY:
		format_esr(ev->esr, esr, sizeof(esr));
		if (ev->value)
			snprintf(buf, len, "EL2 trap   the %s of %s traps to EL2 (HCR_EL2.%s), not performed here: "
				 "ESR_EL2 %s; ELR_EL2 = %s; vector 0x%016" PRIx64,
				 ev->flags & EH_INSN_MRS ? "read" : "write", name,
				 ev->flags & EH_INSN_MRS ? "TRVM" : "TVM", esr,
				 eh_machine_where(m, ev->pc, where, sizeof(where)), ev->value);
		else
			snprintf(buf, len, "EL2 trap   ESR_EL2 %s at %s: no VBAR_EL2 vector installed", esr,
				 eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_EL2_RETURN:
		snprintf(buf, len, "EL2 return %s to %s (SPSR_EL2 0x%" PRIx64 ")",
			 ev->flags & EH_INSN_ERET ? "the hypervisor's ERET returns"
						  : "the host re-enters the guest",
			 eh_machine_where(m, ev->pc, where, sizeof(where)), ev->value);
		break;
	case EH_EV_HYP_SLOW:
		snprintf(buf, len, "SLOW PATH  the hypervisor declined the trap of %s; the host emulates %s %s "
			 "%s 0x%016" PRIx64 " and skips it", eh_machine_where(m, ev->pc, where, sizeof(where)),
			 ev->flags & EH_INSN_MRS ? "mrs" : "msr", name, ev->flags & EH_INSN_MRS ? "->" : "<-",
			 ev->value);
		break;
	case EH_EV_VSERROR:
		snprintf(buf, len, "vSError    the virtual SError pending in HCR_EL2.VSE is taken before %s; "
			 "taking it clears HCR_EL2.VSE", eh_machine_where(m, ev->pc, where, sizeof(where)));
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
	case EH_EV_PAGE:
		snprintf(buf, len, "zero page  0x%016" PRIx64 " mapped for the %s at %s (outside every section)",
			 ev->addr, ev->flags & EH_INSN_STORE ? "store" : "load",
			 eh_machine_where(m, ev->pc, where, sizeof(where)));
		break;
	case EH_EV_STUB_CALL: {
		const uint64_t *x = eh_machine_call_args(m, ev);
		char from[160];

		eh_elf_describe(eh_machine_image(m)->elf, ev->pc, where, sizeof(where));
		eh_elf_describe(eh_machine_image(m)->elf, ev->addr, from, sizeof(from));
		if (x)
			snprintf(buf, len, "call       %s(x0 0x%" PRIx64 ", x1 0x%" PRIx64 ", x2 0x%" PRIx64
				 ", x3 0x%" PRIx64 ", x4 0x%" PRIx64 ", x5 0x%" PRIx64 ", x6 0x%" PRIx64
				 ", x7 0x%" PRIx64 "): undefined here, the stub returns 0 to %s", where, x[0],
				 x[1], x[2], x[3], x[4], x[5], x[6], x[7], from);
		else
			snprintf(buf, len, "call       %s: undefined here, the stub returns 0 to %s", where, from);
		break;
	}
	case EH_EV_SCREENED:
		snprintf(buf, len, "screened   0x%016" PRIx64 ": 0x%08" PRIx64 " is UNDEFINED on the modelled "
			 "CPUs and Unicorn 2.0.1 aborts on it: runs as UDF #0", ev->pc, ev->value);
		break;
	default:
		snprintf(buf, len, "event %u", ev->kind);
	}
	return buf;
}

/*
 * What identifies an event when a loop repeats it, field by field: where it is
 * (kind, thread, instruction and its class, the window, EL2, the erratum, how a
 * stop or an injection went), and with EH_LOOP_SAME_EVENTS also its addresses
 * and values; never its sequence and instruction numbers.
 */
#define EVENT_KEY_WORDS 8

static void event_key(const struct eh_event *ev, enum eh_loop_match match, uint64_t key[EVENT_KEY_WORDS])
{
	bool values = match == EH_LOOP_SAME_EVENTS;

	key[0] = ev->kind | (uint64_t)ev->thread << 8 | (uint64_t)ev->victim << 16 | (uint64_t)ev->size << 24 |
		 (uint64_t)ev->in_window << 32 | (uint64_t)ev->stop << 40 | (uint64_t)ev->taken << 48 |
		 (uint64_t)ev->el2 << 56;
	key[1] = (uint64_t)ev->flags << 32 | ev->sysreg;
	key[2] = (uint64_t)ev->erratum << 32 | ev->aflags;
	key[3] = ev->pc;
	key[4] = values ? ev->addr : 0;
	key[5] = values ? ev->value : 0;
	key[6] = values ? ev->esr : 0;
	key[7] = values && ev->kind != EH_EV_ACCESS ? ev->count : 0;
}

static uint64_t event_hash(const struct eh_event *ev, enum eh_loop_match match)
{
	uint64_t key[EVENT_KEY_WORDS], h = 0;
	size_t i;

	event_key(ev, match, key);
	for (i = 0; i < EVENT_KEY_WORDS; i++)
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15ull + (h >> 29);
	return h;
}

static bool same_event(const struct eh_event *a, const struct eh_event *b, enum eh_loop_match match)
{
	uint64_t ka[EVENT_KEY_WORDS], kb[EVENT_KEY_WORDS];

	event_key(a, match, ka);
	event_key(b, match, kb);
	return !memcmp(ka, kb, sizeof(ka));
}

/* Whether events [a, a + len) and [b, b + len) are the same, hashes first. */
static bool same_run(const struct eh_trace *tr, enum eh_loop_match match, const uint64_t *h, size_t a,
		     size_t b, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (h[a + k] != h[b + k])
			return false;
	for (k = 0; k < len; k++)
		if (!same_event(&tr->events[a + k], &tr->events[b + k], match))
			return false;
	return true;
}

int eh_trace_loops(const struct eh_trace *tr, enum eh_loop_match match, struct eh_trace_loop **out,
		   size_t *n, struct eh_error *err)
{
	struct eh_trace_loop *loops = NULL;
	uint64_t *h;
	size_t i, cap = 0;

	*out = NULL;
	*n = 0;
	h = eh_alloc((tr->n ? tr->n : 1) * sizeof(*h));
	if (!h)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu events", tr->n);
	for (i = 0; i < tr->n; i++)
		h[i] = event_hash(&tr->events[i], match);
	for (i = 0; i < tr->n;) {
		size_t p, passes = 0;

		for (p = 1; p <= EH_TRACE_LOOP_MAX_PERIOD && i + 2 * p <= tr->n; p++)
			if (h[i] == h[i + p] && same_run(tr, match, h, i, i + p, p))
				break;
		if (p <= EH_TRACE_LOOP_MAX_PERIOD && i + 2 * p <= tr->n)
			for (passes = 2; i + (passes + 1) * p <= tr->n && same_run(tr, match, h, i, i + passes * p, p);)
				passes++;
		if (!passes || (passes - 1) * p < 2) {
			i++;
			continue;
		}
		if (*n == cap) {
			struct eh_trace_loop *more = eh_realloc(loops, (cap = cap ? 2 * cap : 16) * sizeof(*loops));

			if (!more) {
				eh_free(loops);
				eh_free(h);
				*n = 0;
				return eh_error_set(err, EH_ENOMEM, "out of memory for the trace's loops");
			}
			loops = more;
		}
		loops[(*n)++] = (struct eh_trace_loop){ .start = i, .period = p, .passes = passes };
		i += passes * p;
	}
	eh_free(h);
	*out = loops;
	return 0;
}

/* The predicates and sequences erratum modules share (eh/sys/seq.h): one definition each, for rules and behaviours. */
#include "eh/sys/seq.h"

bool eh_seq_insn_dsb_full(const struct eh_insn *in)
{
	return in->flags & EH_INSN_DSB && eh_insn_dsb_full(EH_BARRIER_OPTION(in->word));
}

/* A barrier event's value is the option of its DSB or DMB (bits 11:8 of the word). */
bool eh_seq_event_dsb_full(const struct eh_event *ev)
{
	return ev->kind == EH_EV_BARRIER && ev->flags & EH_INSN_DSB && eh_insn_dsb_full((unsigned)ev->value);
}

bool eh_seq_insn_dsb_broadcast(const struct eh_insn *in)
{
	return in->flags & EH_INSN_DSB && eh_insn_dsb_broadcast(EH_BARRIER_OPTION(in->word));
}

bool eh_seq_event_dsb_broadcast(const struct eh_event *ev)
{
	return ev->kind == EH_EV_BARRIER && ev->flags & EH_INSN_DSB && eh_insn_dsb_broadcast((unsigned)ev->value);
}

bool eh_seq_insn_barrier_sy(const struct eh_insn *in)
{
	return in->flags & (EH_INSN_DMB | EH_INSN_DSB) && EH_BARRIER_OPTION(in->word) == EH_BARRIER_SY;
}

bool eh_seq_event_barrier_sy(const struct eh_event *ev)
{
	return ev->kind == EH_EV_BARRIER && ev->value == EH_BARRIER_SY;
}

const struct eh_rule_trigger eh_seq_ttbr0_write_words[] = { { 0xffffffe0, 0xd5182000 }, { 0 } };
const struct eh_rule_trigger eh_seq_ttbr1_write_words[] = { { 0xffffffe0, 0xd5182020 }, { 0 } };

bool eh_seq_word_ttbr0_write(uint32_t word)
{
	return eh_rule_triggered(eh_seq_ttbr0_write_words, word);
}

bool eh_seq_word_ttbr1_write(uint32_t word)
{
	return eh_rule_triggered(eh_seq_ttbr1_write_words, word);
}

bool eh_seq_word_ret(uint32_t word)
{
	return (word & 0xfffffc1f) == 0xd65f0000;
}

void eh_seq_open(struct eh_seq_state *s, uint64_t pc)
{
	*s = (struct eh_seq_state){ .due = true, .stage = 0, .anchor = pc };
}

static bool op_ok(const struct eh_seq_step *step, uint32_t op)
{
	return !step->op || step->op(op);
}

/* Whether ev is step: each kind is one kind of event, as the engine makes them from the instruction. */
static bool event_is(const struct eh_seq_step *step, const void *what)
{
	const struct eh_event *ev = what;

	switch (step->kind) {
	case EH_SEQ_ISB:
		return ev->kind == EH_EV_CTX_SYNC && ev->flags & EH_INSN_ISB;
	case EH_SEQ_DSB:
		return ev->kind == EH_EV_BARRIER && ev->flags & EH_INSN_DSB && op_ok(step, (uint32_t)ev->value);
	case EH_SEQ_SYS:
		return ev->kind == EH_EV_SYS && op_ok(step, ev->sysreg);
	}
	return false;
}

/* SYS (op0 0b01, L 0): TLBI, DC, IC and AT, the class the engine makes its EH_EV_SYS events of. */
static bool insn_is(const struct eh_seq_step *step, const void *what)
{
	const struct eh_insn *in = what;

	switch (step->kind) {
	case EH_SEQ_ISB:
		return in->flags & EH_INSN_ISB;
	case EH_SEQ_DSB:
		return in->flags & EH_INSN_DSB && op_ok(step, EH_BARRIER_OPTION(in->word));
	case EH_SEQ_SYS:
		return (in->word & 0xfff80000) == 0xd5080000 && op_ok(step, in->sysreg);
	}
	return false;
}

/* The next stage after a step that matched (restart: the first step again), or *stage unchanged. */
static bool advance(const struct eh_seq *q, unsigned *stage, bool (*is)(const struct eh_seq_step *, const void *),
		    const void *what)
{
	if (q->restart && *stage > 0 && is(&q->steps[0], what)) {
		*stage = 1;
		return false;
	}
	if (!is(&q->steps[*stage], what))
		return false;
	return !q->steps[++*stage].missing;
}

bool eh_seq_event(const struct eh_seq *q, struct eh_seq_state *s, const struct eh_event *ev)
{
	if (!s->due || !advance(q, &s->stage, event_is, ev))
		return false;
	s->due = false;
	return true;
}

bool eh_seq_insn(const struct eh_seq *q, unsigned *stage, const struct eh_insn *in)
{
	return advance(q, stage, insn_is, in);
}

int eh_seq_follow(struct eh_rule_ctx *ctx, const struct eh_seq *q, const struct eh_seq_path *path,
		  const struct eh_insn *in, struct eh_insn *last, unsigned *stage)
{
	uint64_t stack[EH_SEQ_MAX_CALL_DEPTH];
	struct eh_insn cur = *in, next;
	unsigned n, depth = 0, max_depth = path->call_depth < EH_SEQ_MAX_CALL_DEPTH ? path->call_depth
									     : EH_SEQ_MAX_CALL_DEPTH;

	*stage = 0;
	for (n = 0; n < path->max_insns; n++) {
		if (cur.flags & EH_INSN_CALL && !(cur.flags & EH_INSN_INDIRECT) && depth < max_depth) {
			stack[depth++] = cur.addr + 4;
			if (eh_rule_insn_at(ctx, cur.target, &next))
				break;
		} else if (eh_seq_word_ret(cur.word) && depth) {
			if (eh_rule_insn_at(ctx, stack[--depth], &next))
				break;
		} else if (eh_rule_next(ctx, &cur, &next)) {
			break;
		}
		cur = next;
		if (cur.flags & path->spares)
			return 0;
		if (eh_seq_insn(q, stage, &cur))
			return 0;
	}
	*last = cur;
	return 1;
}

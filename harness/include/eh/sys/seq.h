/*
 * What erratum modules share: barrier predicates on decoded instructions and on the engine's
 * events, and workaround sequences ("after an anchor, A then B then C, within N instructions")
 * declared once, for the static rule and the dynamic behaviour alike.
 */
#ifndef EH_SYS_SEQ_H
#define EH_SYS_SEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/insn.h"
#include "eh/sys/behaviour.h"
#include "eh/sys/rule.h"
#include "eh/sysreg.h"

/* A DSB that completes a TLBI or an IC (eh_insn_dsb_full): the decoded instruction, or a barrier event. */
bool eh_seq_insn_dsb_full(const struct eh_insn *in);
bool eh_seq_event_dsb_full(const struct eh_event *ev);
/* ... that also completes a broadcast TLBI (eh_insn_dsb_broadcast). */
bool eh_seq_insn_dsb_broadcast(const struct eh_insn *in);
bool eh_seq_event_dsb_broadcast(const struct eh_event *ev);
/* A DMB SY or DSB SY: the full-system barrier (option 0b1111, Arm ARM C6.2 DMB/DSB). */
bool eh_seq_insn_barrier_sy(const struct eh_insn *in);
bool eh_seq_event_barrier_sy(const struct eh_event *ev);

/*
 * MSR TTBR0_EL1, Xt / MSR TTBR1_EL1, Xt as words: every bit but Rt (4:0); op0 3, op1 0, CRn 2, CRm 0,
 * op2 0 / 1. The same as a rule's triggers (eh/sys/rule.h).
 */
bool eh_seq_word_ttbr0_write(uint32_t word);
bool eh_seq_word_ttbr1_write(uint32_t word);
extern const struct eh_rule_trigger eh_seq_ttbr0_write_words[], eh_seq_ttbr1_write_words[];
/* RET Xn: every bit but Rn (9:5). */
bool eh_seq_word_ret(uint32_t word);

/*
 * What one step of a sequence is. The engine makes its events from the decoded
 * instruction (harness/src/engine/machine.c), so a step reads the same on both:
 * an ISB (a context synchronisation event of an ISB), a DSB with an option op
 * accepts (a barrier event), or a SYS instruction (TLBI, DC, IC, AT: the word's
 * class 0xd5080000) whose operation, bits 20:5 (EH_SYSREG), op accepts.
 */
enum eh_seq_kind {
	EH_SEQ_ISB,
	EH_SEQ_DSB,
	EH_SEQ_SYS,
};

struct eh_seq_step {
	enum eh_seq_kind kind;
	bool (*op)(uint32_t op);    /* the DSB's option or the SYS operation; NULL: any */
	const char *missing;        /* the step in a finding when it is missing: "a DSB after the IC IALLU" */
};

/*
 * A workaround sequence: its steps, in the order they must run, ending with { 0 }
 * past the last (a step with no missing text).
 * With restart, meeting the first step again starts over (a second IC IALLU
 * needs a DSB of its own to be complete).
 */
struct eh_seq {
	const struct eh_seq_step *steps;
	bool restart;
};

/* How far a sequence is: the next step due; when that is past the last, it is complete. */
struct eh_seq_state {
	bool due;           /* opened and not complete nor cancelled */
	unsigned stage;     /* steps met so far */
	uint64_t anchor;    /* the PC of what opened it */
};

/* Open (or reopen) the sequence at the instruction at pc: every step is due again. */
void eh_seq_open(struct eh_seq_state *s, uint64_t pc);
/* Advance a due sequence on an engine event; true when that event completed it (it is no longer due). */
bool eh_seq_event(const struct eh_seq *q, struct eh_seq_state *s, const struct eh_event *ev);
/* Advance *stage on a decoded instruction; true when it completed the sequence. */
bool eh_seq_insn(const struct eh_seq *q, unsigned *stage, const struct eh_insn *in);

/*
 * How a rule follows the code after an anchor: at most max_insns instructions on the
 * straight path (eh_rule_next); into direct calls and back from their RETs up to
 * call_depth deep (0: calls end the path like any fork); an instruction with a flag of
 * spares ends the path with nothing missing (a way out the rule does not check).
 */
struct eh_seq_path {
	unsigned max_insns;
	unsigned call_depth;
	uint32_t spares;    /* enum eh_insn_flag */
};

#define EH_SEQ_MAX_CALL_DEPTH 8

/*
 * Follow the path from in: 0 when the sequence completes on it (or a spared
 * instruction ends it first); 1 when it does not, with *last the instruction
 * where the path ended and *stage how far the sequence got (q->steps[*stage].missing
 * names what is missing).
 */
int eh_seq_follow(struct eh_rule_ctx *ctx, const struct eh_seq *q, const struct eh_seq_path *path,
		  const struct eh_insn *in, struct eh_insn *last, unsigned *stage);

#endif

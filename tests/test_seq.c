/* Tests the errata modules' shared kit (eh/sys/seq.h): barrier and word predicates, and workaround sequences over instructions and events alike. */
#include "eh/sys/seq.h"
#include "reports/rows.h"

#define PC 0xffff800008010000ull

/* Encodings as GNU as (binutils-aarch64-linux-gnu) assembles them, checked with objdump -d. */
#define IC_IALLU 0xd508751fu
#define IC_IALLUIS 0xd508711fu
#define DSB_NSH 0xd503379fu
#define DSB_ISH 0xd5033b9fu
#define DSB_ISHST 0xd5033a9fu
#define DSB_SY 0xd5033f9fu
#define DMB_SY 0xd5033fbfu
#define DMB_ISH 0xd5033bbfu
#define ISB 0xd5033fdfu
#define TLBI_VAE1IS_X0 0xd5088320u
#define TLBI_VAE1_X3 0xd5088723u
#define LDR_X0_X1 0xf9400020u
#define RET 0xd65f03c0u
#define RET_X3 0xd65f0060u
#define MSR_TTBR0_X2 0xd5182002u
#define MSR_TTBR1_X5 0xd5182025u
#define ERET 0xd69f03e0u

/* IC IALLU or IC IALLUIS: the whole instruction cache (SYS #0, C7, C5 / C1, #0). */
static bool ic_iallu(uint32_t op)
{
	return op == EH_SYSREG(1, 0, 7, 5, 0) || op == EH_SYSREG(1, 0, 7, 1, 0);
}

/* TLBI VAE1 and VAE1IS (op1 0, CRn 8, CRm 7 / 3, op2 1). */
static bool tlbi_vae1(uint32_t op)
{
	return op == EH_SYSREG(1, 0, 8, 7, 1) || op == EH_SYSREG(1, 0, 8, 3, 1);
}

/* Cavium 27456's: IC IALLU, a full DSB, ISB; a second IC IALLU starts over. */
static const struct eh_seq ic_dsb_isb = {
	.steps = (const struct eh_seq_step[]){
		{ EH_SEQ_SYS, ic_iallu, "IC IALLU" },
		{ EH_SEQ_DSB, eh_insn_dsb_full, "a DSB" },
		{ EH_SEQ_ISB, NULL, "an ISB" },
		{ 0 },
	},
	.restart = true,
};

/* Falkor E1003's: ISB, TLBI VAE1, a full DSB, in order, nothing starting over. */
static const struct eh_seq isb_tlbi_dsb = {
	.steps = (const struct eh_seq_step[]){
		{ EH_SEQ_ISB, NULL, "an ISB" },
		{ EH_SEQ_SYS, tlbi_vae1, "a TLBI VAE1" },
		{ EH_SEQ_DSB, eh_insn_dsb_full, "a DSB" },
		{ 0 },
	},
};

struct row {
	const char *name;
	const struct eh_seq *seq;
	uint32_t words[6];      /* ends with 0 */
	int completes_at;       /* the index of the word that completes it, or -1 */
	unsigned stage;         /* where it stands after the words (when it does not complete) */
};

static const struct row rows[] = {
	{ "ic iallu; dsb nsh; isb", &ic_dsb_isb, { IC_IALLU, DSB_NSH, ISB }, 2, 0 },
	{ "ic ialluis; dsb ish; isb", &ic_dsb_isb, { IC_IALLUIS, DSB_ISH, ISB }, 2, 0 },
	{ "ic iallu; ldr; dsb sy; ldr; isb", &ic_dsb_isb, { IC_IALLU, LDR_X0_X1, DSB_SY, LDR_X0_X1, ISB }, 4, 0 },
	{ "ic iallu; isb: no DSB", &ic_dsb_isb, { IC_IALLU, ISB }, -1, 1 },
	{ "ic iallu; dsb ishst; isb: stores only", &ic_dsb_isb, { IC_IALLU, DSB_ISHST, ISB }, -1, 1 },
	{ "ic iallu; dmb sy; isb: a DMB completes nothing", &ic_dsb_isb, { IC_IALLU, DMB_SY, ISB }, -1, 1 },
	{ "dsb nsh; ic iallu; isb: out of order", &ic_dsb_isb, { DSB_NSH, IC_IALLU, ISB }, -1, 1 },
	{ "ic iallu; dsb nsh; ic iallu; isb: the second IC not completed", &ic_dsb_isb,
	  { IC_IALLU, DSB_NSH, IC_IALLU, ISB }, -1, 1 },
	{ "isb; tlbi vae1is; dsb ish", &isb_tlbi_dsb, { ISB, TLBI_VAE1IS_X0, DSB_ISH }, 2, 0 },
	{ "isb; tlbi vae1; isb; dsb nsh: no restart", &isb_tlbi_dsb, { ISB, TLBI_VAE1_X3, ISB, DSB_NSH }, 3, 0 },
	{ "tlbi vae1; isb; dsb ish: the TLBI first", &isb_tlbi_dsb, { TLBI_VAE1_X3, ISB, DSB_ISH }, -1, 1 },
	{ "isb; ic iallu; dsb ish: another SYS", &isb_tlbi_dsb, { ISB, IC_IALLU, DSB_ISH }, -1, 1 },
	{ "isb; tlbi vae1is: no DSB", &isb_tlbi_dsb, { ISB, TLBI_VAE1IS_X0 }, -1, 2 },
};

static struct eh_decoder *decoder;

static int setup(void **state)
{
	(void)state;
	return eh_decoder_new(&decoder, NULL);
}

static int teardown(void **state)
{
	(void)state;
	eh_decoder_free(decoder);
	return 0;
}

/*
 * The event the engine makes of in (harness/src/engine/machine.c, on_code): a context
 * synchronisation for ISB and ERET, a barrier with its option for DSB and DMB, a SYS
 * event with the operation for the SYS class; an access for a load, as a memory hook sees it.
 */
static struct eh_event event_of(const struct eh_insn *in)
{
	struct eh_event ev = { .pc = in->addr, .flags = in->flags };

	if (in->flags & (EH_INSN_ISB | EH_INSN_ERET))
		ev.kind = EH_EV_CTX_SYNC;
	else if (in->flags & (EH_INSN_DSB | EH_INSN_DMB)) {
		ev.kind = EH_EV_BARRIER;
		ev.value = EH_BARRIER_OPTION(in->word);
	} else if ((in->word & 0xfff80000) == 0xd5080000) {
		ev.kind = EH_EV_SYS;
		ev.sysreg = in->sysreg;
	} else {
		ev.kind = EH_EV_ACCESS;
		ev.flags = EH_INSN_LOAD;
	}
	return ev;
}

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_seq_state s;
	unsigned stage = 0;
	int insn_at = -1, event_at = -1, i;

	eh_seq_open(&s, PC - 4);
	for (i = 0; r->words[i]; i++) {
		struct eh_insn in;
		struct eh_event ev;

		eh_decoder_decode(decoder, PC + 4 * (uint64_t)i, r->words[i], &in);
		ev = event_of(&in);
		if (insn_at < 0 && eh_seq_insn(r->seq, &stage, &in))
			insn_at = i;
		if (eh_seq_event(r->seq, &s, &ev))
			event_at = i;
	}
	if (insn_at != r->completes_at)
		fail_msg("%s: over instructions completes at %d, expected %d (stage %u)", r->name, insn_at,
			 r->completes_at, stage);
	if (event_at != r->completes_at)
		fail_msg("%s: over events completes at %d, expected %d (stage %u)", r->name, event_at,
			 r->completes_at, s.stage);
	if (r->completes_at < 0 && (stage != r->stage || s.stage != r->stage || !s.due))
		fail_msg("%s: stands at %u (events %u, due %d), expected %u missing", r->name, stage, s.stage, s.due,
			 r->stage);
	if (r->completes_at >= 0 && s.due)
		fail_msg("%s: still due after completing", r->name);
	assert_int_equal(s.anchor, PC - 4);
}

struct word_row {
	const char *name;
	uint32_t word;
	bool dsb_full, dsb_broadcast, barrier_sy, ttbr0, ttbr1, ret;
};

/* The Arm ARM's DSB options (C6.2.81): full = every access type (CRm<1:0> 0b11); broadcast = ISH, OSH or SY too. */
static const struct word_row word_rows[] = {
	{ "dsb nsh", DSB_NSH, true, false, false },
	{ "dsb ish", DSB_ISH, true, true, false },
	{ "dsb sy", DSB_SY, true, true, true },
	{ "dsb ishst", DSB_ISHST, false, false, false },
	{ "dmb sy", DMB_SY, false, false, true },
	{ "dmb ish", DMB_ISH, false, false, false },
	{ "msr ttbr0_el1, x2", MSR_TTBR0_X2, .ttbr0 = true },
	{ "msr ttbr1_el1, x5", MSR_TTBR1_X5, .ttbr1 = true },
	{ "ret", RET, .ret = true },
	{ "ret x3", RET_X3, .ret = true },
	{ "eret", ERET },
	{ "isb", ISB },
};

static void run_word_row(void **state)
{
	const struct word_row *r = *state;
	struct eh_insn in;
	struct eh_event ev;

	eh_decoder_decode(decoder, PC, r->word, &in);
	ev = event_of(&in);
	if (eh_seq_insn_dsb_full(&in) != r->dsb_full || eh_seq_event_dsb_full(&ev) != r->dsb_full)
		fail_msg("%s: full DSB should be %d", r->name, r->dsb_full);
	if (eh_seq_insn_dsb_broadcast(&in) != r->dsb_broadcast || eh_seq_event_dsb_broadcast(&ev) != r->dsb_broadcast)
		fail_msg("%s: broadcast DSB should be %d", r->name, r->dsb_broadcast);
	if (eh_seq_insn_barrier_sy(&in) != r->barrier_sy || eh_seq_event_barrier_sy(&ev) != r->barrier_sy)
		fail_msg("%s: full-system barrier should be %d", r->name, r->barrier_sy);
	if (eh_seq_word_ttbr0_write(r->word) != r->ttbr0 || eh_seq_word_ttbr1_write(r->word) != r->ttbr1 ||
	    eh_seq_word_ret(r->word) != r->ret)
		fail_msg("%s: word classes should be ttbr0 %d, ttbr1 %d, ret %d", r->name, r->ttbr0, r->ttbr1, r->ret);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + EH_COUNT(word_rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_ROWS(tests, n, word_rows, run_word_row);
	return EH_RUN_GROUP("seq", tests, n, setup, teardown);
}

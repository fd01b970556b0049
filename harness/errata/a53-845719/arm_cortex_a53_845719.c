/*
 * Arm Cortex-A53 erratum 845719 (r0p0-r0p4; Brahma-B53 r0p0, Kryo 2XX Silver rAp4): after a return
 * from AArch64 EL1 to AArch32 EL0, a load may read incorrect data unless CONTEXTIDR_EL1 was written
 * on the way out, which the kernel does in kernel_exit when the task it returns to is AArch32.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_a53_845719;

/* SPSR_EL1.M[4] (PSR_MODE32_BIT) set and M[3:0] User: an exception return to AArch32 EL0. */
static bool returns_to_aarch32_el0(uint64_t spsr)
{
	return (spsr & 0x1f) == 0x10;
}

struct thread_state {
	bool written;   /* CONTEXTIDR_EL1 written since the thread last entered EL1 (or started) */
};

/*
 * Per thread: an ERET from EL1 to AArch32 EL0 (SPSR_EL1 read as the ERET is about
 * to run) with no write of CONTEXTIDR_EL1 since the thread entered EL1 is the
 * hazard. What goes wrong is a later load at EL0 reading stale data through state
 * the harness does not model, so the hazard is recorded, blamed on the ERET.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	uint64_t spsr;

	switch (ev->kind) {
	case EH_EV_SYSREG_WRITE:
		if (ev->sysreg == EH_CONTEXTIDR_EL1 && !ev->el2)
			s->written = true;
		break;
	case EH_EV_EXCEPTION:
		s->written = false;
		break;
	case EH_EV_CTX_SYNC:
		if (!(ev->flags & EH_INSN_ERET) || ev->el2 || eh_machine_sysreg(m, ev->thread, EH_SPSR_EL1, &spsr))
			break;
		if (returns_to_aarch32_el0(spsr) && !s->written)
			eh_machine_hazard(m, &eh_erratum_a53_845719, ev, spsr);
		s->written = false;
		break;
	default:
		break;
	}
}

static bool writes_contextidr(uint32_t sysreg)
{
	return sysreg == EH_CONTEXTIDR_EL1;
}

static const struct eh_behaviour behaviour = {
	.summary = "an ERET to AArch32 EL0 with no write of CONTEXTIDR_EL1 since the thread entered EL1; recorded "
		   "as a hazard: the stale data a later load reads is not modelled",
	.thread_state = sizeof(struct thread_state),
	.events = EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_EXCEPTION) | EH_EV_BIT(EH_EV_CTX_SYNC),
	.writes = writes_contextidr,
	.on_event = on_event,
};

/*
 * What an AArch32 check starts with: a TBZ/TBNZ of bit 4 (the first, tbz_bit4), or the TST #0x10
 * a B.EQ/B.NE follows (TST Xn or Wn, #0x10: ANDS to ZR of a single bit 4, A64 logical
 * immediate; PSR_MODE32_BIT).
 */
static const struct eh_rule_trigger check_words[] = {
	{ 0xfef80000, 0x36200000 }, { 0xfffffc1f, 0xf27c001f }, { 0xfffffc1f, 0x721c001f }, { 0 },
};

static bool tbz_bit4(uint32_t word)
{
	return (word & check_words[0].mask) == check_words[0].value;
}

/*
 * MSR SPSR_EL1, Xt (op0 3, op1 0, CRn 4, CRm 0, op2 0; Rt in bits 4:0) and ERET, by encoding
 * as harness/src/image/insn.c classifies them: the search for them reads words, not instructions.
 */
#define MSR_SPSR_EL1_WORD 0xd5184000u
#define ERET_WORD 0xd69f03e0u

/* How far the kernel's check may sit from its SPSR_EL1 write, and the AArch32 side may run. */
#define SPSR_MAX_WORDS 256
#define SIDE_MAX_INSNS 32
#define WORDS_AT_ONCE 32  /* divides SPSR_MAX_WORDS */

/*
 * Whether in starts a branch on bit 4 of a register (TBZ/TBNZ #4, or TST #0x10 and a
 * B.EQ/B.NE): *br gets the branch, *reg the register, *aarch32 the start of the side
 * where the bit is set, *native the other.
 */
static bool mode32_check(struct eh_rule_ctx *ctx, const struct eh_insn *in, struct eh_insn *br, unsigned *reg,
			 uint64_t *aarch32, uint64_t *native)
{
	bool set_taken;

	if (tbz_bit4(in->word)) {
		*br = *in;
		*reg = in->word & 0x1f;
		set_taken = (in->word >> 24) & 1;    /* TBNZ */
	} else {
		if (eh_rule_neighbour(ctx, in, 1, br) || (br->word & 0xff00001e) != 0x54000000)
			return false;                /* not a B.EQ or B.NE */
		*reg = (in->word >> 5) & 0x1f;
		set_taken = (br->word & 0xf) == 1;   /* B.NE: Z clear, the bit set */
	}
	*aarch32 = set_taken ? br->target : br->addr + 4;
	*native = set_taken ? br->addr + 4 : br->target;
	return true;
}

/*
 * An AArch32 check is kernel_exit's when the register it tests is the one written to
 * SPSR_EL1 further on in the same straight-line code of its function (symbol), and an
 * ERET follows there: an exception return being prepared (ret_to_user: tst x22, #0x10 ... msr spsr_el1, x22
 * ... eret). KVM's C code that tests a guest's SPSR and writes it back returns to its
 * caller instead, and KVM's nVHE code returns from EL2 into a guest, whose own kernel
 * writes CONTEXTIDR_EL1 before its returns to AArch32 (6.1 does nothing there either):
 * neither is checked. The AArch32 side, followed on its straight path (eh_rule_next)
 * until it joins the native side or reaches an ERET, must write CONTEXTIDR_EL1 (the
 * workaround, an alternative on ARM64_WORKAROUND_845719). A side that forks or leaves
 * first is reported too: the rule cannot show the write is made.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *start)
{
	struct eh_insn cur, next, br;
	const struct eh_insn *in = &br;
	const struct eh_elf_symbol *func;
	uint64_t aarch32, native, spsr_at = 0, end;
	bool eret = false;
	unsigned reg;
	uint32_t w[WORDS_AT_ONCE];
	const char *why;
	long d;
	size_t n;

	if (!mode32_check(ctx, start, &br, &reg, &aarch32, &native) || !eh_rule_runs(ctx, in, &why) ||
	    eh_rule_run_el(ctx, in, &why) == EH_RUN_EL2_NVHE)
		return 0;
	func = eh_elf_symbol_span(eh_rule_elf(ctx), in->addr, &end);
	/* The words read a stretch at a time, as far as the function goes. */
	for (d = 1, n = 0; d <= SPSR_MAX_WORDS && !eret; d++) {
		uint64_t at = in->addr + (uint64_t)d * 4;

		if ((size_t)d > n && (n = d - 1 + eh_rule_neighbour_words(ctx, in, d, WORDS_AT_ONCE, w)) < (size_t)d)
			break;
		if (at >= end && eh_elf_symbol_span(eh_rule_elf(ctx), at, &end) != func)
			break;
		if (!spsr_at && w[(d - 1) % WORDS_AT_ONCE] == (MSR_SPSR_EL1_WORD | reg))
			spsr_at = at;
		eret = spsr_at && w[(d - 1) % WORDS_AT_ONCE] == ERET_WORD;
	}
	if (!eret)
		return 0;
	if (eh_rule_insn_at(ctx, aarch32, &cur))
		return eh_rule_report(ctx, in, spsr_at, "aarch32 return",
				      "the way to an AArch32 EL0 starts outside the code the rule sees: no write of "
				      "CONTEXTIDR_EL1 can be shown on it");
	for (n = 0; n < SIDE_MAX_INSNS; n++) {
		if (cur.flags & EH_INSN_MSR && cur.sysreg == EH_CONTEXTIDR_EL1)
			return 0;
		if (cur.addr == native || cur.flags & EH_INSN_ERET)
			break;
		if (eh_rule_next(ctx, &cur, &next))
			return eh_rule_report(ctx, in, spsr_at, "aarch32 return",
					      "the way to an AArch32 EL0 forks or leaves at %s before any write of "
					      "CONTEXTIDR_EL1", cur.text);
		cur = next;
	}
	return eh_rule_report(ctx, in, spsr_at, "aarch32 return",
			      "no write of CONTEXTIDR_EL1 on the way to an AArch32 EL0: a load there may read "
			      "incorrect data");
}

static const struct eh_rule rule = {
	.summary = "where an exception return from EL1 tests SPSR's AArch32 bit (kernel_exit), a write of "
		   "CONTEXTIDR_EL1 on the AArch32 side, in code that runs on the target",
	.triggers = check_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_845719",
	"Linux arch/arm64/kernel/cpu_errata.c, erratum_845719_list[]",
	"Linux arch/arm64/kernel/entry.S, kernel_exit: msr contextidr_el1 when the task is AArch32 "
	"(alternative on ARM64_WORKAROUND_845719)",
	"Linux Documentation/arm64/silicon-errata.rst: Cortex-A53 #845719",
	"Arm Cortex-A53 MPCore Software Developers Errata Notice (EPM048406)",
	NULL,
};

const struct eh_erratum eh_erratum_a53_845719 = {
	.id = "a53-845719",
	.title = "Cortex-A53 erratum 845719: after a return to AArch32 EL0, a load may read incorrect data "
		 "unless CONTEXTIDR_EL1 was written on the way out",
	.cpus = eh_erratum_845719_cpus,
	.capability = "ARM64_WORKAROUND_845719",
	.kconfig = "CONFIG_ARM64_ERRATUM_845719",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

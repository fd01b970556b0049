/*
 * Arm Cortex-A53 erratum 835769: a 64-bit multiply-accumulate directly after a load, store or
 * prefetch might produce an incorrect result.
 */
#include "arm_cortex_a53_835769.h"
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"

bool eh_a53_mac64(uint32_t word, unsigned *rd, unsigned *rn, unsigned *rm, unsigned *ra)
{
	/* Data-processing (3 source), sf = 1, op54 = 0; op31 000 MADD/MSUB, 001 SMADDL/SMSUBL, 101 UMADDL/UMSUBL */
	unsigned op31 = (word >> 21) & 7;

	if ((word & 0xff000000u) != 0x9b000000u || (op31 != 0 && op31 != 1 && op31 != 5) ||
	    ((word >> 10) & 31) == 31)
		return false;
	*rd = word & 31;
	*rn = (word >> 5) & 31;
	*rm = (word >> 16) & 31;
	*ra = (word >> 10) & 31;
	return true;
}

/* The general-purpose registers a load writes (its destination, and a pair's second one); 0 when it writes none. */
static unsigned loaded(const struct eh_insn *mem, unsigned regs[2])
{
	uint32_t w = mem->word;
	unsigned n = 0;

	/* Loads and stores (Arm ARM C4.1.4: op0 x1x0), V clear: a general-purpose register. */
	if (!(mem->flags & EH_INSN_LOAD) || (w & 0x0a000000u) != 0x08000000u || (w & (1u << 26)))
		return 0;
	regs[n++] = w & 31;
	if ((w & 0x3a000000u) == 0x28000000u || ((w & 0x3f000000u) == 0x08000000u && (w & (1u << 21))))
		regs[n++] = (w >> 10) & 31;  /* LDP, LDNP, LDPSW; LDXP, LDAXP */
	return n;
}

bool eh_a53_835769_pair(const struct eh_insn *mem, uint32_t word)
{
	unsigned rd, rn, rm, ra, regs[2], n, i;

	if (!(mem->flags & (EH_INSN_LOAD | EH_INSN_STORE | EH_INSN_PREFETCH)) ||
	    !eh_a53_mac64(word, &rd, &rn, &rm, &ra))
		return false;
	n = loaded(mem, regs);
	for (i = 0; i < n; i++)
		if (regs[i] != 31 && (regs[i] == rn || regs[i] == rm || regs[i] == ra))
			return false;
	return true;
}

/* Data-processing (3 source) with sf = 1 (eh_a53_mac64's first test), which mac_word narrows. */
static const struct eh_rule_trigger dp3_words[] = { { 0xff000000, 0x9b000000 }, { 0 } };

static bool mac_word(uint32_t word)
{
	unsigned rd, rn, rm, ra;

	return eh_a53_mac64(word, &rd, &rn, &rm, &ra);
}

/*
 * The static rule, over the image as patched: each multiply-accumulate the
 * erratum names whose straight-line predecessor (not data, by the mapping
 * symbols) makes the pair. A load, store or prefetch always falls through to
 * the next instruction, so the pair runs wherever the first one does; whatever
 * built it (C without -mfix-cortex-a53-835769, a .S file, inline assembly). An
 * object's instruction order is final, so objects are judged as they are.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const struct eh_elf *elf = eh_rule_elf(ctx);
	struct eh_insn before;

	if (eh_elf_is_data(elf, in->addr) || eh_rule_neighbour(ctx, in, -1, &before) ||
	    eh_elf_is_data(elf, before.addr) || !eh_a53_835769_pair(&before, in->word))
		return 0;
	return eh_rule_report(ctx, in, before.addr, "multiply-accumulate",
			      "right after the %s `%s`, whose result it does not read: the result may be wrong "
			      "on Cortex-A53 (erratum 835769; a NOP between them removes the pair)",
			      eh_insn_access_name(before.flags), before.text);
}

/* The instructions that can end a pair: a 64-bit multiply-accumulate. */
static bool wants_mac(uint64_t pc, uint32_t word)
{
	(void)pc;
	return mac_word(word);
}

static const struct eh_rule rule = {
	.summary = "no 64-bit multiply-accumulate (MADD, MSUB, SMADDL, SMSUBL, UMADDL, UMSUBL; Ra not XZR) "
		   "directly after a load, store or prefetch whose result it does not read",
	.triggers = dp3_words,
	.wants = wants_mac,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

extern const struct eh_erratum eh_erratum_arm_cortex_a53_835769;

static uint64_t reg(struct eh_machine *m, unsigned thread, unsigned r)
{
	return r == 31 ? 0 : eh_machine_xreg(m, thread, r);
}

/*
 * What the erratum does, as the harness models it: the notice says only that
 * the result "might be incorrect". The model drops the accumulate: Rd gets the
 * product alone (negated for the subtracting forms), which differs from the
 * right result whenever the accumulator is not zero.
 */
static void corrupt(struct eh_machine *m, const struct eh_event *ev)
{
	uint32_t w = (uint32_t)ev->addr;
	unsigned rd, rn, rm, ra, op31 = (w >> 21) & 7;
	uint64_t a, b, product;

	eh_a53_mac64(w, &rd, &rn, &rm, &ra);
	a = reg(m, ev->thread, rn);
	b = reg(m, ev->thread, rm);
	if (op31 == 1)
		product = (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b);
	else if (op31 == 5)
		product = (uint64_t)(uint32_t)a * (uint32_t)b;
	else
		product = a * b;
	if (w & (1u << 15))  /* o0: MSUB, SMSUBL, UMSUBL */
		product = 0 - product;
	if (rd != 31)
		eh_machine_set_after(m, ev->thread, rd, product);
}

static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	const struct eh_erratum *self = &eh_erratum_arm_cortex_a53_835769;
	const struct eh_ran *last = eh_machine_ran(m, ev->thread, 1);
	struct eh_insn mem = { .addr = last->pc, .word = last->word, .flags = last->flags };

	(void)state;
	if (last->pc + 4 == ev->pc && eh_a53_835769_pair(&mem, (uint32_t)ev->addr)) {
		eh_machine_hazard(m, self, ev, last->pc);
		if (eh_erratum_shows(self, eh_machine_thread_core(m, ev->thread)))
			corrupt(m, ev);
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a 64-bit multiply-accumulate run directly after a load, store or prefetch it does not "
		   "depend on: on an affected A53 it loses its accumulate",
	.insns = true,
	.wants = wants_mac,
	.events = EH_EV_BIT(EH_EV_INSN),
	.on_event = on_event,
};

/*
 * Cortex-A53 r0p0-r0p4; REVIDR_EL1 bit 7 marks r0p2, r0p3 and r0p4 parts fixed.
 * Linux has no entry for it (no capability, no Kconfig symbol): the workaround is
 * the compiler's -mfix-cortex-a53-835769 (and GNU ld's --fix-cortex-a53-835769),
 * which the 6.1 build does not pass. The ranges are those of Trusted Firmware-A's
 * check_errata_835769 (lib/cpus/aarch64/cortex_a53.S).
 */
static const struct eh_midr_range cpus[] = {
	{ "Cortex-A53", CORTEX_A53, 0, 0, 0, 4, NULL },
	{ 0 },
};

static const struct eh_midr_fix fixed[] = {
	{ 0, 2, 1u << 7 },
	{ 0, 3, 1u << 7 },
	{ 0, 4, 1u << 7 },
	{ 0 },
};

static const char *const citations[] = {
	"Arm Cortex-A53 MPCore Software Developers Errata Notice (EPM048406), erratum 835769",
	"Trusted Firmware-A lib/cpus/aarch64/cortex_a53.S, check_errata_835769 (r0p0-r0p4, REVIDR_EL1 "
	"bit 7 fixes r0p2-r0p4)",
	"GCC -mfix-cortex-a53-835769 (aarch64_madd_needs_nop); LLVM AArch64A53Fix835769.cpp; GNU ld "
	"--fix-cortex-a53-835769",
	NULL,
};

const struct eh_erratum eh_erratum_arm_cortex_a53_835769 = {
	.id = "a53-835769",
	.title = "Cortex-A53 erratum 835769: a 64-bit multiply-accumulate directly after a load, store "
		 "or prefetch may produce a wrong result",
	.cpus = cpus,
	.fixed = fixed,
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

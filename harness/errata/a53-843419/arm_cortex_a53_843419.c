/*
 * Arm Cortex-A53 erratum 843419: a load or store using the result of an ADRP at page offset
 * 0xff8 or 0xffc, two or three instructions later, might access an incorrect address.
 */
#include <elf.h>

#include "arm_cortex_a53_843419.h"
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"

/*
 * The A64 encoding classes the notice names (Arm ARM C4.1.4 "Loads and Stores"):
 * size/opc/V fields in the same places across the register classes.
 */
#define RT(w) ((w) & 31u)
#define RN(w) (((w) >> 5) & 31u)
#define RT2(w) (((w) >> 10) & 31u)
#define RS(w) (((w) >> 16) & 31u)

bool eh_a53_adrp(uint32_t word, unsigned *rd)
{
	if ((word & 0x9f000000u) != 0x90000000u)
		return false;
	*rd = RT(word);
	return true;
}

/* Load/store register: unscaled, post-indexed, unprivileged, pre-indexed (bit 21 clear), register offset. */
static bool ldst_reg(uint32_t w)
{
	return (w & 0x3b200000u) == 0x38000000u || (w & 0x3b200c00u) == 0x38200800u;
}

/* Load/store register (unsigned immediate). */
static bool ldst_uimm(uint32_t w)
{
	return (w & 0x3b000000u) == 0x39000000u;
}

/* Load register (literal): LDR, LDRSW, PRFM and their SIMD&FP forms. */
static bool ld_literal(uint32_t w)
{
	return (w & 0x3b000000u) == 0x18000000u;
}

/* Load/store exclusive and ordered (LDXR, STXR, LDAR, STLR, their pair forms). */
static bool ldst_exclusive(uint32_t w)
{
	return (w & 0x3f000000u) == 0x08000000u;
}

/* STP and STNP: the pair classes (no-allocate, post-indexed, offset, pre-indexed) with L clear. */
static bool st_pair(uint32_t w)
{
	return (w & 0x3a400000u) == 0x28000000u;
}

/* Advanced SIMD ST1, multiple structures (1 to 4 registers) or single structure, with or without post-index. */
static bool st1(uint32_t w)
{
	unsigned multi = (w >> 12) & 0xf, single = (w >> 13) & 7;

	if ((w & 0xbfff0000u) == 0x0c000000u || (w & 0xbfe00000u) == 0x0c800000u)
		return multi == 2 || multi == 6 || multi == 7 || multi == 10;
	if ((w & 0xbfff0000u) == 0x0d000000u || (w & 0xbfe00000u) == 0x0d800000u)
		return single == 0 || single == 2 || single == 4;
	return false;
}

/* Whether a single-register form loads: opc != 0, except PRFM (size 3, V 0, opc 2) and STR Qt (size 0, V 1, opc 2). */
static bool reg_loads(uint32_t w)
{
	unsigned size = w >> 30, v = (w >> 26) & 1, opc = (w >> 22) & 3;

	return opc && !(size == 3 && !v && opc == 2) && !(size == 0 && v && opc == 2);
}

/* Whether instruction 2 of the sequence, one of the classes above, writes register r. */
static bool writes(uint32_t w, unsigned r)
{
	if (ldst_exclusive(w)) {
		if (w & (1u << 22))  /* L: a load, into Rt and, for a pair (o1), Rt2 */
			return RT(w) == r || ((w & (1u << 21)) && RT2(w) == r);
		return !(w & (1u << 23)) && RS(w) == r;  /* a store exclusive's status (o2 clear) */
	}
	if (ld_literal(w))  /* opc 3 is PRFM; a SIMD&FP load (V) writes no general-purpose register */
		return !(w & (1u << 26)) && (w >> 30) != 3 && RT(w) == r;
	if (ldst_reg(w) || ldst_uimm(w)) {
		/* bits 11:10 = 01 (post-index) or 11 (pre-index) in the unscaled group write back */
		bool wb = !(w & (1u << 24)) && !(w & (1u << 21)) && (w & (1u << 10));

		return (reg_loads(w) && !(w & (1u << 26)) && RT(w) == r) || (wb && RN(w) == r);
	}
	if (st_pair(w))  /* bits 24:23 = 01 (post-index) or 11 (pre-index) write back */
		return (w & (1u << 23)) && RN(w) == r;
	return (w & (1u << 23)) && RN(w) == r;  /* ST1 post-index */
}

static bool second(uint32_t w)
{
	return ldst_reg(w) || ldst_uimm(w) || ld_literal(w) || ldst_exclusive(w) || st_pair(w) || st1(w);
}

/* B, BL, B.cond, CBZ, CBNZ, TBZ, TBNZ, and the branches to a register (BR, BLR, RET, ERET, ...). */
static bool branch(uint32_t w)
{
	return (w & 0x7c000000u) == 0x14000000u || (w & 0x7c000000u) == 0x34000000u ||
	       (w & 0xfe000000u) == 0x54000000u || (w & 0xfe000000u) == 0xd6000000u;
}

bool eh_a53_843419_sequence(const uint32_t *w, unsigned n)
{
	unsigned rn;

	if ((n != 3 && n != 4) || !eh_a53_adrp(w[0], &rn) || rn == 31)
		return false;
	if (!second(w[1]) || writes(w[1], rn))
		return false;
	if (n == 4 && branch(w[2]))
		return false;
	return ldst_uimm(w[n - 1]) && RN(w[n - 1]) == rn;
}

/* ADRP, the encoding eh_a53_adrp tests. */
static const struct eh_rule_trigger adrp_words[] = { { 0x9f000000, 0x90000000 }, { 0 } };

/* Only an ADRP at page offset 0xff8 or 0xffc starts a sequence: 2 of every 1024 words. */
static bool at_page_end(uint64_t addr, uint32_t word)
{
	(void)word;
	return EH_A53_843419_AT(addr);
}

/*
 * The static rule, over the image as patched (an ADRP that an alternative brings
 * over its site is judged where the site is): each ADRP at page offset 0xff8 or
 * 0xffc that starts sequence 1 in straight-line code (not in data, by the
 * mapping symbols) is reported at the load or store that ends the sequence.
 *
 * A relocatable object is left to its final link: its page offsets are not known
 * until then (the harness places its sections where it likes), and a kernel's
 * final link is what applies the workaround, the linker's for vmlinux, the module
 * loader's ADR or veneer for a module. So the rule reports nothing in one, and a
 * correct kernel object (the kernel test's `ld -r` arm64-built-in.o) is never
 * reported; audit the linked image.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const struct eh_elf *elf = eh_rule_elf(ctx);
	struct eh_insn next[3];
	uint32_t w[4] = { in->word };
	unsigned got, n;

	if (elf->type == ET_REL || eh_elf_is_data(elf, in->addr))
		return 0;
	for (got = 0; got < 3; got++) {
		if (eh_rule_neighbour(ctx, in, (long)got + 1, &next[got]) || eh_elf_is_data(elf, next[got].addr))
			break;
		w[got + 1] = next[got].word;
	}
	for (n = 3; n <= 4 && n <= got + 1; n++)
		if (eh_a53_843419_sequence(w, n))
			return eh_rule_report(ctx, &next[n - 2], in->addr, eh_insn_access_name(next[n - 2].flags),
					      "`%s` at page offset 0x%03x, then `%s`: the address may be wrong on "
					      "Cortex-A53 (erratum 843419; --fix-cortex-a53-843419 or an ADR removes the "
					      "sequence)", in->text, (unsigned)EH_A53_843419_PAGE_OFFSET(in->addr),
					      next[0].text);
	return 0;
}

static const struct eh_rule rule = {
	.summary = "no ADRP at page offset 0xff8 or 0xffc followed by the errata notice's load/store "
		   "sequence (sequence 1), in a linked image as patched; a relocatable object is left to "
		   "its final link",
	.triggers = adrp_words,
	.wants = at_page_end,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

extern const struct eh_erratum eh_erratum_arm_cortex_a53_843419;

/* The notice's condition on instruction 2: a load crossing a 64-bit boundary, a store a 128-bit one. */
static bool crosses(const struct eh_ran *r)
{
	unsigned shift = r->aflags & EH_INSN_STORE ? 4 : 3;

	return r->hi > r->lo && (r->lo >> shift) != ((r->hi - 1) >> shift);
}

/*
 * Whether the instruction running now on thread ends an erratum sequence of n instructions, by
 * what ran (eh_machine_ran: 0 is now, n - 1 the ADRP).
 */
static bool ends_sequence(const struct eh_machine *m, unsigned thread, unsigned n)
{
	const struct eh_ran *now = eh_machine_ran(m, thread, 0);
	uint32_t w[4];
	unsigned i;

	for (i = 0; i + 1 < n; i++) {
		const struct eh_ran *r = eh_machine_ran(m, thread, n - 1 - i);

		if (r->pc != now->pc - 4 * (n - 1 - i))
			return false;
		w[i] = r->word;
	}
	w[n - 1] = now->word;
	return EH_A53_843419_AT(eh_machine_ran(m, thread, n - 1)->pc) && crosses(eh_machine_ran(m, thread, n - 2)) &&
	       eh_a53_843419_sequence(w, n);
}

/*
 * The instructions that can end a sequence: a load or store (unsigned immediate), the third or
 * fourth from an ADRP at page offset 0xff8 or 0xffc, so at offset 0x000, 0x004 or 0x008 of the
 * next page.
 */
static bool may_end(uint64_t pc, uint32_t word)
{
	return ldst_uimm(word) && (EH_A53_843419_AT(pc - 8) || EH_A53_843419_AT(pc - 12));
}

/*
 * What the erratum does to the access, as the harness models it: the notice
 * says only that it "might access an incorrect address". The model takes the
 * address one 4 KB page on, as if the ADRP's page had been computed from the
 * next page's PC: a load returns what lies there, a store writes there instead,
 * and where nothing is mapped the access takes a Data Abort. SIMD&FP registers
 * and prefetches are left alone (the hazard is still recorded).
 */
static void misdirect(struct eh_machine *m, const struct eh_event *ev)
{
	const struct eh_erratum *self = &eh_erratum_arm_cortex_a53_843419;
	uint32_t w = (uint32_t)ev->addr;
	unsigned size = w >> 30, opc = (w >> 22) & 3, rt = RT(w);
	uint64_t va = eh_machine_xreg(m, ev->thread, RN(w)) + ((uint64_t)((w >> 10) & 0xfff) << size);
	uint64_t wrong = va + 0x1000, value = 0;
	struct eh_culprit culprit = { .thread = ev->thread, .pc = ev->pc, .va = wrong };

	if (w & (1u << 26) || (size == 3 && opc == 2))
		return;
	if (opc == 0) {
		culprit.flags = EH_INSN_STORE;
		if (rt != 31)
			value = eh_machine_xreg(m, ev->thread, rt);
		if (eh_machine_write(m, wrong, &value, 1u << size, NULL))
			eh_machine_inject_abort(m, self, ev->thread, &culprit);
		else
			eh_machine_skip(m, ev->thread);
		return;
	}
	culprit.flags = EH_INSN_LOAD;
	if (eh_machine_read(m, wrong, &value, 1u << size, NULL)) {
		eh_machine_inject_abort(m, self, ev->thread, &culprit);
		return;
	}
	if (opc & 2 && size < 3) {  /* LDRSB, LDRSH, LDRSW: sign-extend, to 32 bits for opc 3 */
		unsigned bits = 8u << size;

		value = (uint64_t)((int64_t)(value << (64 - bits)) >> (64 - bits));
		if (opc == 3)
			value &= 0xffffffffu;
	}
	if (rt != 31)
		eh_machine_set_after(m, ev->thread, rt, value);
}

static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	const struct eh_erratum *self = &eh_erratum_arm_cortex_a53_843419;
	unsigned n;

	(void)state;
	for (n = 3; n <= 4; n++) {
		if (!ends_sequence(m, ev->thread, n))
			continue;
		eh_machine_hazard(m, self, ev, eh_machine_ran(m, ev->thread, n - 1)->pc);
		if (eh_erratum_shows(self, eh_machine_thread_core(m, ev->thread)))
			misdirect(m, ev);
		return;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "the sequence run from page offset 0xff8/0xffc, instruction 2 crossing a 64-bit (load) "
		   "or 128-bit (store) boundary: on an affected A53 the last load or store uses the address "
		   "one page on",
	.insns = true,
	.wants = may_end,
	.events = EH_EV_BIT(EH_EV_INSN),
	.on_event = on_event,
};

/* arch/arm64/kernel/cpu_errata.c, erratum_843419_list: Cortex-A53 r0p0-r0p4, Brahma-B53 r0p0. */
static const struct eh_midr_range cpus[] = {
	{ "Cortex-A53", CORTEX_A53, 0, 0, 0, 4, NULL },
	{ "Brahma-B53", BRAHMA_B53, 0, 0, 0, 0, NULL },
	{ 0 },
};

/* MIDR_FIXED(0x4, BIT(8)): REVIDR_EL1 bit 8 marks an r0p4 part fixed. */
static const struct eh_midr_fix fixed[] = {
	{ 0, 4, 1u << 8 },
	{ 0 },
};

static const char *const citations[] = {
	"Arm Cortex-A53 MPCore Software Developers Errata Notice (EPM048406), erratum 843419",
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_843419; arch/arm64/Makefile, LDFLAGS_vmlinux += "
	"--fix-cortex-a53-843419",
	"Linux a257e02579e4 (arm64/kernel: don't ban ADRP to work around Cortex-A53 erratum #843419): "
	"modules get ADR or a veneer (arch/arm64/kernel/module.c, module-plts.c)",
	"Linux ca79acca2736 (arm64/kernel: enable A53 erratum #8434319 handling at runtime)",
	"lld/ELF/AArch64ErrataFix.cpp (ld.lld --fix-cortex-a53-843419)",
	NULL,
};

const struct eh_erratum eh_erratum_arm_cortex_a53_843419 = {
	.id = "a53-843419",
	.title = "Cortex-A53 erratum 843419: a load or store after an ADRP at page offset 0xff8/0xffc "
		 "may use a wrong address",
	.cpus = cpus,
	.fixed = fixed,
	.capability = "ARM64_WORKAROUND_843419",
	.kconfig = "CONFIG_ARM64_ERRATUM_843419",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

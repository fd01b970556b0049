/*
 * Qualcomm Falkor erratum E1003 (Falkor v1 r0p0, Qualcomm Kryo parts 0x2XX): while TTBRx_EL1 is written
 * with a new ASID and a new table base, a translation in flight can allocate TLB entries from the new
 * tables under the old ASID. The KPTI trampoline, which switches TTBR1_EL1 from the trampoline's tables
 * and user ASID to the kernel's, invalidates the walk-cache entries of its own page by VA afterwards.
 */
#include <stddef.h>
#include <string.h>

#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_falkor_e1003;

/* TLBI VAE1 and its shareable forms (op1 0, CRn 8, op2 1; CRm 7 local, 3 Inner, 1 Outer Shareable): by VA, every level. */
static bool tlbi_vae1(uint32_t op)
{
	unsigned crm = EH_SYSREG_CRM(op);

	return EH_SYSREG_OP1(op) == 0 && EH_SYSREG_CRN(op) == 8 && EH_SYSREG_OP2(op) == 1 &&
	       (crm == 7 || crm == 3 || crm == 1);
}

/* TTBRn_EL1.ASID (bits 63:48) and BADDR (bits 47:1). */
#define TTBR_ASID(v) ((v) >> 48)
#define TTBR_BADDR(v) ((v) & 0x0000fffffffffffeull)

/* tramp_map_kernel after its TTBR1_EL1 write: ISB, TLBI VAE1, a DSB completing it, in that order. */
static const struct eh_seq workaround = {
	.steps = (const struct eh_seq_step[]){
		{ EH_SEQ_ISB, NULL, "an ISB" },
		{ EH_SEQ_SYS, tlbi_vae1, "a TLBI VAE1 after the ISB" },
		{ EH_SEQ_DSB, eh_insn_dsb_full, "a DSB after the TLBI VAE1" },
		{ 0 },
	},
};

/*
 * Per thread: a write of TTBR1_EL1 at EL1 that changes both its ASID and its table
 * base (read from the register as the MSR is about to run) makes the workaround
 * due. A load or store before it completes is the hazard: the translation it needs
 * may come from an entry allocated under the wrong ASID, which the harness does not
 * model, so it is recorded, blamed on the access, its value the PC of the write. An
 * ERET or an exception ends the due state: 6.1 leaves the way out to EL0
 * (tramp_unmap_kernel) alone.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct eh_seq_state *s = state;
	uint64_t old;

	if (eh_seq_event(&workaround, s, ev))
		return;
	switch (ev->kind) {
	case EH_EV_SYSREG_WRITE:
		if (ev->sysreg != EH_TTBR1_EL1 || ev->el2 || eh_machine_sysreg(m, ev->thread, EH_TTBR1_EL1, &old))
			break;
		if (TTBR_ASID(old) != TTBR_ASID(ev->value) && TTBR_BADDR(old) != TTBR_BADDR(ev->value))
			eh_seq_open(s, ev->pc);
		break;
	case EH_EV_CTX_SYNC:
		if (ev->flags & EH_INSN_ERET)
			s->due = false;
		break;
	case EH_EV_ACCESS:  /* a load or a store (.accesses) */
		if (s->due) {
			eh_machine_hazard(m, &eh_erratum_falkor_e1003, ev, s->anchor);
			s->due = false;
		}
		break;
	case EH_EV_EXCEPTION:
		s->due = false;
		break;
	default:
		break;
	}
}

static bool writes_ttbr1(uint32_t sysreg)
{
	return sysreg == EH_TTBR1_EL1;
}

static const struct eh_behaviour behaviour = {
	.summary = "a load or store after a write of TTBR1_EL1 that changes its ASID and table base, before ISB, "
		   "TLBI VAE1 and a DSB complete; recorded as a hazard: TLB entries under the wrong ASID are not "
		   "modelled",
	.thread_state = sizeof(struct eh_seq_state),
	.events = EH_EV_BIT(EH_EV_SYSREG_WRITE) | EH_EV_BIT(EH_EV_CTX_SYNC) | EH_EV_BIT(EH_EV_SYS) |
		  EH_EV_BIT(EH_EV_BARRIER) | EH_EV_BIT(EH_EV_ACCESS) | EH_EV_BIT(EH_EV_EXCEPTION),
	.accesses = EH_INSN_LOAD | EH_INSN_STORE,
	.gated = true,      /* an access matters only while the workaround is due */
	.writes = writes_ttbr1,
	.on_event = on_event,
};
_Static_assert(offsetof(struct eh_seq_state, due) == 0, ".gated: the thread state starts with its bool");

/*
 * The KPTI trampoline: section .entry.tramp.text in an object, and between the
 * symbols vmlinux.lds.S's TRAMP_TEXT defines around it in a linked image.
 */
static bool in_trampoline(struct eh_rule_ctx *ctx, uint64_t addr)
{
	const struct eh_elf *elf = eh_rule_elf(ctx);
	const struct eh_elf_section *s = eh_elf_section_at(elf, addr);
	const struct eh_elf_symbol *lo, *hi;

	if (s && !strcmp(s->name, ".entry.tramp.text"))
		return true;
	lo = eh_elf_symbol_by_name(elf, "__entry_tramp_text_start");
	hi = eh_elf_symbol_by_name(elf, "__entry_tramp_text_end");
	return lo && hi && addr >= lo->value && addr < hi->value;
}

/*
 * ORR Xd, Xn, #(1 << 48) with Xd = Xn = rt, setting USER_ASID_FLAG: the mask keeps bits
 * 31:10 (sf = 1, opc = 0b01, the logical-immediate class, N = 1, immr = 16, imms = 0);
 * Rn is bits 9:5 and Rd bits 4:0.
 */
static bool sets_user_asid(uint32_t word, unsigned rt)
{
	return (word & 0xfffffc00) == 0xb2500000 && (word & 0x1f) == rt && ((word >> 5) & 0x1f) == rt;
}

/* How far the trampoline's straight path may run from its TTBR1_EL1 write; an ERET is the way out. */
static const struct eh_seq_path path = { .max_insns = 64, .spares = EH_INSN_ERET };

/*
 * Each write of TTBR1_EL1 in the trampoline is followed on its straight path
 * (eh_rule_next) by an ISB, a TLBI VAE1 and a DSB completing it, in that order,
 * before the path ends (the trampoline's RET into the kernel's vectors, SDEI's BR
 * into its handler, or anything the rule cannot follow). The way out, which 6.1
 * leaves without the sequence, is not checked: tramp_unmap_kernel's write, whose
 * value the instruction before sets USER_ASID_FLAG in (back to the task's ASID, on
 * to an ERET to EL0 or, from SDEI's exit trampoline, an SMC or HVC to firmware),
 * and any write whose path reaches an ERET first.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn last, prev;
	const char *why;
	unsigned stage;

	if (!(in->flags & EH_INSN_MSR) || in->sysreg != EH_TTBR1_EL1 || !eh_rule_runs(ctx, in, &why) ||
	    !in_trampoline(ctx, in->addr) ||
	    (!eh_rule_neighbour(ctx, in, -1, &prev) && sets_user_asid(prev.word, in->rt)) ||
	    !eh_seq_follow(ctx, &workaround, &path, in, &last, &stage))
		return 0;
	return eh_rule_report(ctx, in, in->addr, "msr ttbr1_el1",
			      "the trampoline's write of TTBR1_EL1 is not followed by ISB; TLBI VAE1; DSB before it "
			      "leaves at %s (%s missing): TLB entries of the kernel's tables may stay under the user "
			      "ASID", last.text, workaround.steps[stage].missing);
}

static const struct eh_rule rule = {
	.summary = "in the KPTI trampoline, each write of TTBR1_EL1 on the way into the kernel followed by ISB, "
		   "TLBI VAE1 and a DSB before the trampoline leaves (the way out, back to the user ASID, left "
		   "alone as 6.1 leaves it)",
	.triggers = eh_seq_ttbr1_write_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, QCOM_FALKOR_ERRATUM_1003",
	"Linux arch/arm64/kernel/cpu_errata.c, qcom_erratum_1003_list[]",
	"Linux arch/arm64/kernel/entry.S, tramp_map_kernel: isb; tlbi vae1; dsb nsh after the TTBR1_EL1 write "
	"(alternative on ARM64_WORKAROUND_QCOM_FALKOR_E1003)",
	"Linux 38fd94b0275c (arm64: Work around Falkor erratum 1003)",
	"Linux Documentation/arm64/silicon-errata.rst: Qualcomm Kryo/Falkor v1 E1003",
	NULL,
};

const struct eh_erratum eh_erratum_falkor_e1003 = {
	.id = "falkor-e1003",
	.title = "Qualcomm Falkor erratum E1003: a translation during a TTBR1_EL1 write may allocate TLB entries of "
		 "the new tables under the old ASID",
	.cpus = eh_falkor_e1003_cpus,
	.also_affects = eh_cpus_kryo_2xx,
	.also_affects_cpus = "Qualcomm parts 0x2XX (is_kryo_midr)",
	.capability = "ARM64_WORKAROUND_QCOM_FALKOR_E1003",
	.kconfig = "CONFIG_QCOM_FALKOR_ERRATUM_1003",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

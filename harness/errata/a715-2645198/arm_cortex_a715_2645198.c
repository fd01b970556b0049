/*
 * Arm Cortex-A715 erratum 2645198 (every revision): when a page mapping's permissions change from
 * executable to non-executable, the next instruction abort from a permission fault can report a
 * corrupt ESR_ELx and FAR_ELx; Linux 6.12 breaks before make (clears the PTE and invalidates the TLB)
 * for every such change of a user-executable mapping.
 */
#include <string.h>

#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_a715_2645198;

static const char capability[] = "ARM64_WORKAROUND_2645198";

/* Stage-1 descriptor bits (Arm ARM D8.3): valid, the access flag, and UXN (execute-never at EL0). */
#define DESC_VALID (1ull << 0)
#define DESC_AF (1ull << 10)
#define DESC_UXN (1ull << 54)

/* A descriptor EL0 may execute from: valid, accessed, UXN clear (pte_user_exec() tests UXN alone). */
static bool user_exec(uint64_t desc)
{
	return (desc & (DESC_VALID | DESC_AF | DESC_UXN)) == (DESC_VALID | DESC_AF);
}

struct thread_state {
	uint64_t desc_addr;  /* a user-executable descriptor cleared (the break) while the TLB may still hold it; 0: none */
	uint64_t break_pc;   /* the store that cleared it */
	bool tlbi;           /* a TLBI since the break */
};

/*
 * Per thread, the TLB of one descriptor. Arm's notice (Kconfig's ARM64_ERRATUM_2645198 help):
 * when the CPU sees a mapping's permissions change from executable to non-executable, the
 * next instruction abort caused by a permission fault may report a corrupt ESR_ELx and
 * FAR_ELx; break-before-make (the Arm ARM's sequence: an invalid descriptor, a TLBI completed
 * by a DSB, then the new one) keeps the CPU from seeing the change, since no executable entry is
 * left to change. The engine translates nothing (Unicorn 2.0.1's MMU is off:
 * reference/emulator-facts.md), so a descriptor is known by what a 64-bit store replaces,
 * not where it lies: a store over a user-executable descriptor either clears it (the
 * break: the TLB may still hold the old entry until a TLBI and a DSB completing it) or
 * makes it non-executable at once. A store of a valid non-executable descriptor over one
 * the TLB may still hold executable is the change the erratum is about. The corrupt
 * syndrome would show only at a later instruction abort from EL0, which the engine cannot
 * take (Unicorn cannot enter EL1 from EL0) and whose execute permission it does not
 * model: the hazard is recorded, on every model, blamed on that store, its value the PC
 * of the store that broke the entry (0: none did). Any TLBI counts, whichever address it
 * names: the descriptor's VA is not known.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct thread_state *s = state;
	uint64_t old;

	switch (ev->kind) {
	case EH_EV_SYS:
		if (ev->flags & EH_INSN_TLBI && s->desc_addr)
			s->tlbi = true;
		break;
	case EH_EV_BARRIER:
		if (eh_seq_event_dsb_broadcast(ev) && s->tlbi)
			s->desc_addr = 0;
		break;
	case EH_EV_ACCESS:  /* a store (.accesses) */
		/* A valid executable descriptor stored anywhere but over the broken one changes nothing. */
		if (ev->size != 8 ||
		    (ev->addr != s->desc_addr && (ev->value & (DESC_VALID | DESC_UXN)) == DESC_VALID) ||
		    eh_machine_read(m, ev->addr, &old, 8, NULL))
			break;
		if (ev->addr == s->desc_addr) {
			if (ev->value & DESC_VALID) {
				if (ev->value & DESC_UXN)
					eh_machine_hazard(m, &eh_erratum_a715_2645198, ev, s->break_pc);
				s->desc_addr = 0;
			}
		} else if (user_exec(old) && !(ev->value & DESC_VALID)) {
			s->desc_addr = ev->addr;
			s->break_pc = ev->pc;
			s->tlbi = false;
		} else if (user_exec(old) && ev->value & DESC_UXN) {
			eh_machine_hazard(m, &eh_erratum_a715_2645198, ev, 0);
		}
		break;
	default:
		break;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a valid non-executable descriptor stored over a user-executable one with no TLBI and DSB "
		   "completing it since the break; recorded as a hazard: the instruction abort from EL0 that "
		   "would report the corrupt ESR and FAR cannot be taken",
	.thread_state = sizeof(struct thread_state),
	.events = EH_EV_BIT(EH_EV_SYS) | EH_EV_BIT(EH_EV_BARRIER) | EH_EV_BIT(EH_EV_ACCESS),
	.accesses = EH_INSN_STORE,
	.on_event = on_event,
};

/*
 * The functions through which Linux 6.12 changes a user mapping's permissions (mprotect()'s
 * change_pte_range() and its hugetlb twin): arch/arm64/mm/mmu.c and hugetlbpage.c, where
 * alternative_has_cap_unlikely(ARM64_WORKAROUND_2645198) branches to ptep_clear_flush().
 */
static const char *const modify_prot_start[] = { "ptep_modify_prot_start", "huge_ptep_modify_prot_start", NULL };

static const struct eh_elf_symbol *modify_prot_function(const struct eh_rule_ctx *ctx, uint64_t addr)
{
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(eh_rule_elf(ctx), addr, &(uint64_t){ 0 });
	const char *const *name;

	for (name = modify_prot_start; sym && sym->size && *name; name++)
		if (!strcmp(sym->name, *name))
			return sym;
	return NULL;
}

/*
 * At the start of each function so named: the function must hold the
 * alternative on ARM64_WORKAROUND_2645198, and in the patched image it must be applied
 * (the NOP become the branch to the break-before-make path). An image without it lets a
 * user mapping lose execute permission with no TLB invalidation, which the erratum needs.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const struct eh_elf_symbol *fn = modify_prot_function(ctx, in->addr);
	const struct eh_alt_site *site, *found = NULL;
	uint64_t a;

	if (!fn || fn->value != in->addr)
		return 0;
	for (a = fn->value; a < fn->value + fn->size && !found; a += 4) {
		site = eh_rule_site(ctx, a);
		if (site && site->cap_name && !strcmp(site->cap_name, capability))
			found = site;
	}
	if (found && eh_rule_applied(ctx, found))
		return 0;
	if (!found)
		return eh_rule_report(ctx, in, 0, fn->name,
				      "%s has no %s alternative: a user-executable PTE made non-executable without "
				      "break-before-make, and the next permission fault may report a corrupt ESR and FAR",
				      fn->name, capability);
	return eh_rule_report(ctx, in, found->orig, fn->name,
			      "%s's %s alternative is not applied: the break-before-make path is never taken",
			      fn->name, capability);
}

static const struct eh_rule rule = {
	.summary = "ptep_modify_prot_start() and huge_ptep_modify_prot_start() hold the ARM64_WORKAROUND_2645198 "
		   "alternative, applied: break-before-make when a user-executable PTE changes",
	.scan = &(const struct eh_scan_rule){ .visit = visit, .functions = modify_prot_start },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig, ARM64_ERRATUM_2645198",
	"Linux 6.12 arch/arm64/mm/mmu.c ptep_modify_prot_start() and arch/arm64/mm/hugetlbpage.c "
	"huge_ptep_modify_prot_start(): ptep_clear_flush() for a user-executable PTE where the CPU needs it",
	"Arm Cortex-A715 Software Developer Errata Notice, erratum 2645198",
	NULL,
};

const struct eh_erratum eh_erratum_a715_2645198 = {
	.id = "a715-2645198",
	.title = "Cortex-A715 erratum 2645198: a mapping made non-executable can corrupt ESR_ELx and FAR_ELx of "
		 "the next permission fault unless the kernel breaks before make",
	.cpus = eh_erratum_2645198_cpus,
	.capability = capability,
	/* 6.1 has no such workaround: ARM64_WORKAROUND_2645198 is not in its numbering (harness/src/image/cpucaps.c). */
	.since = (const struct eh_erratum_since[]){ { "6.12", capability }, { 0 } },
	.kconfig = "CONFIG_ARM64_ERRATUM_2645198",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

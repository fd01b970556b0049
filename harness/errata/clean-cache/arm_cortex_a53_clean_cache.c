/*
 * CLEAN_CACHE (Arm Cortex-A53 errata 826319, 827319, 824069 to r0p2, 819472 to r0p1): a data cache
 * clean by VA (DC CVAU, DC CVAC) can deadlock, overlap transactions on the interconnect or leave a
 * line dirty; the kernel promotes every such clean to a clean and invalidate, DC CIVAC.
 */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_clean_cache;

/*
 * DC CVAC (SYS #3, C7, C10, #1) and DC CVAU (SYS #3, C7, C11, #1), Arm ARM C5.3, by the
 * operation field (bits 20:5 of the word). DC CVAP and CVADP (CRm 12 and 13) are left
 * alone, as the kernel leaves them (dcache_by_myline_op, user_cache_maint_handler): no
 * part the erratum affects implements them (Armv8.0), and ARM64_HAS_DCPOP, never detected
 * there, keeps dcache_clean_pop() away from its DC CVAP.
 */
static bool clean_by_va(uint32_t op)
{
	return EH_SYSREG_OP1(op) == 3 && EH_SYSREG_CRN(op) == 7 && EH_SYSREG_OP2(op) == 1 &&
	       (EH_SYSREG_CRM(op) == 10 || EH_SYSREG_CRM(op) == 11);
}

/*
 * Per thread: every DC CVAU or CVAC that runs is the hazard. What the erratum does
 * (a deadlock, overlapping interconnect transactions, a line left dirty after a snoop)
 * leaves no architectural trace in one core without caches, so it is recorded, on
 * every model, blamed on the clean itself.
 */
static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	(void)state;
	if (ev->kind == EH_EV_SYS && ev->flags & EH_INSN_MAINT && clean_by_va(ev->sysreg))
		eh_machine_hazard(m, &eh_erratum_clean_cache, ev, 0);
}

static const struct eh_behaviour behaviour = {
	.summary = "a DC CVAU or DC CVAC that runs; recorded as a hazard: a deadlock or a line left dirty has no "
		   "architectural trace in the model",
	.events = EH_EV_BIT(EH_EV_SYS),
	.on_event = on_event,
};

/* DC CVAC or DC CVAU, any register. */
static const struct eh_rule_trigger clean_words[] = { { 0xffffffe0, 0xd50b7a20 }, { 0xffffffe0, 0xd50b7b20 }, { 0 } };

/*
 * Every DC CVAU or CVAC left in the patched image, in code that runs on the target:
 * where the workaround is patched in, dcache_by_line_op and hibernate's copy loop
 * (asm/assembler.h, kernel/hibernate-asm.S) issue DC CIVAC instead, so none remains.
 */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const char *why;

	if (!eh_rule_runs(ctx, in, &why))
		return 0;
	return eh_rule_report(ctx, in, 0, EH_SYSREG_CRM(in->sysreg) == 11 ? "dc cvau" : "dc cvac",
			      "a data cache clean by VA left as it is: on the parts CLEAN_CACHE lists it can deadlock or "
			      "leave the line dirty, and the kernel issues DC CIVAC instead");
}

static const struct eh_rule rule = {
	.summary = "no DC CVAU or DC CVAC left in code that runs on the target (the workaround makes each a DC CIVAC)",
	.triggers = clean_words,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = {
	"Linux arch/arm64/Kconfig: ARM64_ERRATUM_826319, ARM64_ERRATUM_827319, ARM64_ERRATUM_824069, "
	"ARM64_ERRATUM_819472 (all select ARM64_WORKAROUND_CLEAN_CACHE)",
	"Linux arch/arm64/kernel/cpu_errata.c, workaround_clean_cache[]",
	"Linux 301bcfac4289 (arm64: add Cortex-A53 cache errata workaround): DC CVAU and CVAC become DC CIVAC by "
	"alternative, today __dcache_op_workaround_clean_cache in asm/assembler.h",
	"Linux 7dd01aef0557 (arm64: trap userspace \"dc cvau\" cache operation on errata-affected core): EL0's "
	"cleans trapped (SCTLR_EL1.UCI clear) and performed as DC CIVAC (kernel/traps.c)",
	"Arm Cortex-A53 MPCore Software Developers Errata Notice (EPM048406)",
	NULL,
};

const struct eh_erratum eh_erratum_clean_cache = {
	.id = "clean-cache",
	.title = "Cortex-A53 errata 826319, 827319, 824069 and 819472: a data cache clean by VA can deadlock or "
		 "leave a line dirty unless promoted to clean and invalidate",
	.cpus = eh_clean_cache_cpus,
	.capability = "ARM64_WORKAROUND_CLEAN_CACHE",
	.kconfig = "CONFIG_ARM64_WORKAROUND_CLEAN_CACHE",
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};

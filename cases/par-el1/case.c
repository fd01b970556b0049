/* Case par-el1: the spurious EL1 translation fault check over AT S1E1R and PAR_EL1, around 29a0f5ad87e6 and 3813733595c0. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/case.h"
#include "eh/sysreg.h"
#include "eh/walk.h"
#include "eh_phys.h"
#include "par_el1.h"

static const struct eh_commit commits[] = {
	{ "29a0f5ad87e6", "arm64: sysreg: fix incorrect definition of SYS_PAR_EL1_F" },
	{ "3813733595c0", "arm64: mm: fix inverted PAR_EL1.F check" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "SYS_PAR_EL1_F = BIT(1), F == 0 returns false", "spurious_before" },
	{ "bit-fix", "29a0f5ad87e6 alone: F = BIT(0), F == 0 still returns false", "spurious_bit_fix" },
	{ "invert-fix", "3813733595c0 alone: F == 0 returns true, F still BIT(1)",
	  "spurious_invert_fix" },
	{ "after", "both: F = BIT(0), F == 0 returns true", "spurious_after" },
	{ 0 },
};

/* The check is architectural: one model shows it. */
static const struct eh_expect expect[] = {
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "bit-fix", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "invert-fix", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

/*
 * The aborts handed to the check, against the tables of tables.S. A fault
 * PAR_EL1 has FST bit 0 (the walk level's low bit) in bit 1, so the old F mask
 * reads a level-2 fault as a success and a level-3 one as a fault: both levels
 * are probed. PARs worked by hand from D17.2.113 (RES1 bit 11, SH inner = 3 in
 * bits 8:7, MAIR byte 0xff in 63:56; or FST << 1 | F).
 */
static const struct probe {
	const char *what;
	uint64_t va;
	unsigned dfsc;          /* the fault status the original abort reported */
	bool spurious;          /* mapped by the time the check runs */
	uint64_t par;
} probes[] = {
	{ "mapped now", 0xffff000012345000ull, 0x07, true, 0xff00000080345980ull },
	{ "no level-2 entry", 0xffff000012400000ull, 0x06, false, 0x000000000000080dull },
	{ "no level-3 entry", 0xffff000012346000ull, 0x07, false, 0x000000000000080full },
};

#define NPROBES (sizeof(probes) / sizeof(probes[0]))
/* AT S1E1R: SYS with op0 1, op1 0, CRn 7, CRm 8, op2 0, in the MSR field layout of bits 20:5. */
#define AT_S1E1R EH_SYSREG(1, 0, 7, 8, 0)

bool eh_par_el1_spurious(uint64_t esr, uint64_t par)
{
	if (((esr >> 26) & 0x3f) != 0x25 || EH_FSC_TYPE(esr) != EH_FSC_TRANSLATION)
		return false;
	if (!(par & EH_PAR_F))
		return true;
	return EH_FSC_TYPE((par >> EH_PAR_FST_SHIFT) & EH_PAR_FST_MASK) != EH_FSC_TRANSLATION;
}

static const struct eh_mutant mutants[] = {
	{ "wrong-f-mask", "EH_MUTANT_WRONG_F_MASK",
	  "SYS_PAR_EL1_F back to BIT(1): the fixed check reads FST bit 0 for F",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "invert-fix-alone", "EH_MUTANT_INVERT_FIX_ALONE",
	  "`after` with the inverted check fixed but the old F mask: a level-2 fault reads as spurious",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "no-isb", "EH_MUTANT_NO_ISB",
	  "no ISB between AT S1E1R and the PAR_EL1 read: the read sees PAR_EL1 from before the AT",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the AT: nothing changes" },
	{ 0 },
};

struct par_run {
	uint64_t par;           /* what the last AT produced */
	bool pending;           /* ... not yet visible to an MRS of PAR_EL1 */
	unsigned ats;
	int rc;                 /* an error met in a hook */
	struct eh_error err;
};

/*
 * AT S1E1R, performed by the harness's walker (Unicorn's AT ignores the tables with
 * the MMU off). Its result reaches PAR_EL1 at the next context synchronisation: the
 * Arm ARM only guarantees that a direct read of PAR_EL1 sees an AT's result after a
 * context synchronization event, so an MRS before one is modelled reading the old value.
 */
static bool at_s1e1r(struct eh_machine *m, unsigned thread, const struct eh_insn *insn, void *ctx)
{
	struct eh_case_run *r = ctx;
	struct par_run *st = r->priv;
	const struct eh_walk_access read_el1 = { .el = 1 };  /* AT S1E1R ignores PAN (S1E1RP does not) */
	unsigned rt = insn->word & 31;
	struct eh_walk w;

	if (((insn->word >> 5) & 0xffff) != AT_S1E1R || st->rc)
		return false;
	st->rc = eh_walk_machine(&w, m, thread, rt == 31 ? 0 : eh_machine_xreg(m, thread, rt), &read_el1,
				 EH_PHYS_VOFFSET, &st->err);
	if (!st->rc) {
		st->par = eh_walk_par(&w);
		st->pending = true;
		st->ats++;
	}
	return true;
}

/* The context synchronisation that makes the last AT's result visible in PAR_EL1. */
static void publish_par(struct eh_machine *m, const struct eh_event *ev, void *ctx)
{
	struct eh_case_run *r = ctx;
	struct par_run *st = r->priv;

	if (!st || !st->pending || (ev->kind != EH_EV_CTX_SYNC && ev->kind != EH_EV_EXCEPTION))
		return;
	st->pending = false;
	if (eh_machine_set_sysreg(m, ev->thread, EH_PAR_EL1, st->par) && !st->rc)
		st->rc = eh_error_set(&st->err, EH_EEMU, "unicorn: cannot write PAR_EL1 at 0x%016" PRIx64,
				      ev->pc);
}

/* eh_case_call, with an error met in a hook passed on. */
static int call(struct eh_case_run *r, struct par_run *st, const char *sym, const uint64_t *args,
		unsigned nargs, struct eh_error *err)
{
	int rc = eh_case_call(r, sym, args, nargs, NULL, err);

	if (!rc && st->rc) {
		if (err)
			*err = st->err;
		rc = st->rc;
	}
	return rc;
}

static int run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct par_run st = { 0 };
	unsigned wrong = 0;
	size_t i;
	int rc;

	(void)opts;
	r->priv = &st;
	rc = call(r, &st, "setup_translation", NULL, 0, err);
	for (i = 0; !rc && i < NPROBES; i++) {
		const struct probe *p = &probes[i];
		uint64_t args[2] = { p->va, EH_ESR_DABT_CUR(p->dfsc) };
		char par_text[96];
		bool said;

		st.ats = 0;
		rc = call(r, &st, r->v->entry, args, 2, err);
		if (rc)
			break;
		/* The tables and the hand-worked PAR must agree, or the probe tests nothing. */
		if (st.ats != 1 || st.par != p->par || eh_par_el1_spurious(args[1], st.par) != p->spurious) {
			rc = eh_error_set(err, EH_EINPUT, "probe 0x%016" PRIx64 " (%s): %u AT, PAR_EL1 0x%016" PRIx64
					  ", expected 0x%016" PRIx64, p->va, p->what, st.ats, st.par, p->par);
			break;
		}
		said = eh_machine_xreg(r->machine, 0, 0) & 0xff;  /* bool: only w0's low byte is defined */
		wrong += said != p->spurious;
		eh_outcome_append(&r->outcome, "%s0x%016" PRIx64 " %s, PAR_EL1 0x%" PRIx64 " (%s): %s%s",
				  i ? "; " : "", p->va, p->what, st.par,
				  eh_walk_par_describe(st.par, par_text, sizeof(par_text)),
				  said ? "spurious" : "real fault",
				  said == p->spurious ? ", right"
				  : said ? ", WRONG: a real fault is retried forever"
					 : ", WRONG: a spurious fault becomes an oops");
	}
	r->priv = NULL;
	r->outcome.verdict = wrong ? EH_VERDICT_BUG : EH_VERDICT_FIXED;
	return rc;
}

static const struct eh_machine_hooks hooks = {
	.sys = at_s1e1r,
	.event = publish_par,
};

const struct eh_case eh_case_par_el1 = {
	.id = "par-el1",
	.commits = commits,
	.shows = "AT S1E1R through the harness's walker: the spurious-fault check reads PAR_EL1.F right "
		 "only with both fixes",
	.object = "par-el1.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.hooks = &hooks,
	.run = run,
};

/* Case preempt-irq-pan: a task preempted on IRQ return before PAN is enabled resumes with it clear (19c95f261c65). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/case.h"
#include "eh/sysreg.h"
#include "eh/walk.h"
#include "eh_phys.h"
#include "preempt_irq_pan.h"

static const struct eh_commit commits[] = {
	{ "19c95f261c65", "arm64: entry.S: Do not preempt from IRQ before all cpufeatures are enabled" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "el1_irq calls preempt_schedule_irq", "boot_before" },
	{ "after", "el1_irq calls arm64_preempt_schedule_irq, which waits for arm64_const_caps_ready",
	  "boot_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .capability = "ARM64_HAS_PAN" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN }, /* no PAN: nothing in PSTATE goes stale */
	{ "after", { .capability = "ARM64_HAS_PAN" }, EH_VERDICT_FIXED },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-caps-check", "EH_MUTANT_NO_CAPS_CHECK",
	  "arm64_preempt_schedule_irq without its arm64_const_caps_ready check: preempted early again",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP in arm64_preempt_schedule_irq: nothing changes" },
	{ 0 },
};

/* The snippet's harness calls (sched.c). */
enum { SVC_TICK = 0, SVC_KERNEL_LOAD = 1 };
#define PSTATE_PAN_REG EH_SYSREG(3, 0, 4, 2, 3)   /* the PAN special register: PSTATE.PAN in bit 22 */

enum eh_verdict eh_preempt_pan_verdict(bool faulted, bool must_fault, unsigned early_preemptions)
{
	if (faulted != must_fault)
		return EH_VERDICT_BUG;
	return early_preemptions ? EH_VERDICT_BENIGN : EH_VERDICT_FIXED;
}

struct pan_run {
	bool ticked, loaded;
	uint64_t tick_pc, load_pc, va, value;
	bool tick_pan, load_pan;
	bool required_pan;              /* what enable_cpu_features leaves: set where PAN is detected */
	struct eh_walk got, required;   /* under the PAN the load ran with, and the PAN it must have */
	int rc;
	struct eh_error err;
};

/* ID_AA64MMFR1_EL1.PAN (Arm ARM D17.2): 0 means PSTATE.PAN is not implemented. */
static const struct eh_id_field pan_field = { EH_ID_AA64MMFR1_EL1, "PAN", 20, 4, false, 1 };

static bool pstate_pan(struct eh_machine *m, unsigned thread, bool *pan)
{
	uint64_t v;

	*pan = false;
	if (eh_id_field_value(eh_machine_model(m), &pan_field) < 1)
		return true;  /* no PAN register to read: PSTATE.PAN does not exist */
	if (eh_machine_sysreg(m, thread, PSTATE_PAN_REG, &v))
		return false;
	*pan = v & EH_PSTATE_PAN;
	return true;
}

/*
 * SVC #0 is left to the engine's exception entry (the timer interrupt); SVC #1
 * is a kernel load, checked by the walker against the user page's AP bits and
 * the current PSTATE.PAN, since Unicorn's MMU cannot be used.
 */
static bool harness_call(struct eh_machine *m, unsigned thread, uint16_t imm, void *ctx)
{
	struct eh_case_run *r = ctx;
	struct pan_run *st = r->priv;
	struct eh_walk_access acc = { .el = 1 };
	struct eh_walk_access after_enable = { .el = 1, .pan = st->required_pan };
	uint64_t pc = eh_machine_pc(m, thread) - 4;  /* SVC reports the next instruction */

	if (st->rc)
		return false;
	if (imm == SVC_TICK) {
		if (!st->ticked && pstate_pan(m, thread, &st->tick_pan)) {
			st->ticked = true;
			st->tick_pc = pc;
		}
		return false;
	}
	if (imm != SVC_KERNEL_LOAD || st->loaded)
		return false;
	st->loaded = true;
	st->load_pc = pc;
	st->va = eh_machine_xreg(m, thread, 0);
	if (!pstate_pan(m, thread, &st->load_pan)) {
		st->rc = eh_error_set(&st->err, EH_EEMU, "unicorn: cannot read PSTATE.PAN at 0x%016" PRIx64, pc);
		return false;
	}
	acc.pan = st->load_pan;
	st->rc = eh_walk_machine(&st->got, m, thread, st->va, &acc, EH_PHYS_VOFFSET, &st->err);
	if (!st->rc)
		st->rc = eh_walk_machine(&st->required, m, thread, st->va, &after_enable, EH_PHYS_VOFFSET,
					 &st->err);
	if (st->rc)
		return false;
	if (st->got.fault) {
		eh_machine_set_xreg(m, thread, 0, st->got.fsc);
		return true;
	}
	if (eh_machine_read(m, st->got.pa + EH_PHYS_VOFFSET, &st->value, sizeof(st->value), &st->err)) {
		st->rc = EH_EINPUT;
		return false;
	}
	eh_machine_set_xreg(m, thread, 0, 0);
	eh_machine_set_xreg(m, thread, 1, st->value);
	return true;
}

static const char *describe_access(char *buf, size_t len, const struct eh_walk *w, uint64_t value)
{
	char fsc[64];

	if (w->fault)
		snprintf(buf, len, "%s", eh_walk_fsc_name(w->fsc, fsc, sizeof(fsc)));
	else if (value)
		snprintf(buf, len, "allowed, read 0x%016" PRIx64, value);
	else
		snprintf(buf, len, "allowed");
	return buf;
}

static int run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct pan_run st = { 0 };
	const struct eh_target target = { .model = r->model };
	struct eh_outcome *out = &r->outcome;
	const struct eh_thread_result *res;
	char where[256], tick[256], got[96], required[96];
	uint64_t sym, size;
	uint32_t early = 0;
	int rc;

	(void)opts;
	st.required_pan = eh_cap_detected(r->img->rules, &target, "ARM64_HAS_PAN");
	r->priv = &st;
	rc = eh_case_call(r, r->v->entry, NULL, 0, &res, err);
	r->priv = NULL;
	if (!rc && st.rc) {
		if (err)
			*err = st.err;
		rc = st.rc;
	}
	if (!rc)
		rc = eh_case_symbol(r, "early_irq_preemptions", &sym, &size, err);
	if (!rc && size != sizeof(early))
		rc = eh_error_set(err, EH_EINPUT, "early_irq_preemptions: %" PRIu64 " bytes, expected %zu",
				  size, sizeof(early));
	if (!rc)
		rc = eh_machine_read(r->machine, sym, &early, sizeof(early), err);
	if (rc)
		return rc;
	if (!st.ticked || !st.loaded) {
		out->verdict = EH_VERDICT_INCOMPLETE;
		eh_outcome_append(out, "the scenario returned without %s", !st.ticked ? "its timer interrupt"
				  : "the kernel's read of the user page");
		return 0;
	}
	out->verdict = eh_preempt_pan_verdict(st.got.fault, st.required.fault, early);
	eh_outcome_append(out, "IRQ at %s with PSTATE.PAN=%d; preempted on IRQ return before the "
			  "capabilities were ready: %u time%s; ", eh_machine_where(r->machine, st.tick_pc, tick,
			  sizeof(tick)), st.tick_pan, early, early == 1 ? "" : "s");
	eh_outcome_append(out, "kernel read of user 0x%" PRIx64 " (AP[2:1]=%u%u, EL0 %s) at %s with "
			  "PSTATE.PAN=%d: %s; ", st.va, st.got.ap >> 1, st.got.ap & 1,
			  st.got.ap & 1 ? "may access it" : "may not access it",
			  eh_machine_where(r->machine, st.load_pc, where, sizeof(where)), st.load_pan,
			  describe_access(got, sizeof(got), &st.got, st.value));
	eh_outcome_append(out, "with PSTATE.PAN=%d, as the enable step leaves this CPU, it must be: %s",
			  st.required_pan, describe_access(required, sizeof(required), &st.required, 0));
	return 0;
}

static const struct eh_machine_hooks hooks = {
	.svc = harness_call,
};

const struct eh_case eh_case_preempt_irq_pan = {
	.id = "preempt-irq-pan",
	.commits = commits,
	.shows = "a task preempted on IRQ return before PAN is enabled resumes with PSTATE.PAN clear and "
		 "reads a user page; after the fix it is not preempted there",
	.object = "preempt-irq-pan.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.hooks = &hooks,
	.run = run,
};

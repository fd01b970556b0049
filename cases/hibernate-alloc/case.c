/* Case hibernate-alloc: create_safe_exec_page with each allocation failed in turn, before and after 8c551f919a73. */
#include <inttypes.h>
#include <stdio.h>

#include "eh/case.h"
#include "hibernate_alloc.h"
#include "safe_page_abi.h"

#define HIB_PAGE 4096u
#define HIB_ENOMEM 12  /* include/uapi/asm-generic/errno-base.h */

static const struct eh_commit commits[] = {
	{ "8c551f919a73", "arm64: hibernate: check pgd table allocation" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "pgd_offset_raw(allocator(mask), dst_addr): the top-level table used unchecked",
	  "hibernate_before" },
	{ "after", "trans_pgd checked: a failed top-level allocation returns -ENOMEM", "hibernate_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "before", { .model = "thunderx2" }, EH_VERDICT_BUG },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "after", { .model = "thunderx2" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-null-check", "EH_MUTANT_NO_NULL_CHECK",
	  "`after` without the check of the top-level table: its failure is read through NULL again",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP after the top-level allocation: nothing changes" },
	{ 0 },
};

const char *eh_hibernate_alloc_what(unsigned k)
{
	static const char *const what[EH_HIB_ALLOCATIONS + 1] = {
		[1] = "the page for the code",
		[2] = "the top-level table",
		[3] = "the level 1 table",
		[4] = "the level 2 table",
		[5] = "the level 3 table",
	};

	return k >= 1 && k <= EH_HIB_ALLOCATIONS ? what[k] : "an allocation past the walk";
}

uint64_t eh_hibernate_pgd_slot(uint64_t va)
{
	/* 4K granule, 48-bit VA: VA[47:39] indexes the level-0 table of 8-byte descriptors. */
	return ((va >> 39) & 0x1ff) * 8;
}

enum eh_hib_end eh_hibernate_classify(const struct eh_thread_result *res, uint64_t x0)
{
	/* create_safe_exec_page returns an int: only w0 counts. */
	int32_t rc = (int32_t)(uint32_t)x0;

	if (res->stop == EH_STOP_RETURNED)
		return rc == 0 ? EH_HIB_OK : rc == -HIB_ENOMEM ? EH_HIB_ENOMEM : EH_HIB_OTHER;
	if (res->stop == EH_STOP_FAULT && res->addr < HIB_PAGE)
		return EH_HIB_NULL_DEREF;
	return EH_HIB_OTHER;
}

/* The harness's get_safe_page() during one run. */
struct hib_state {
	uint64_t pool, pool_size;  /* the snippet's hib_pool */
	unsigned count;            /* allocations asked for so far */
	unsigned used;             /* pages handed out */
	unsigned fail_at;          /* the allocation that fails, 0 for none */
	bool exhausted;            /* asked for more pages than the pool holds */
};

/* SVC from get_safe_page(): a page of the pool (zeroed before the run), or 0 for allocation fail_at. */
static bool hib_svc(struct eh_machine *m, unsigned thread, uint16_t imm, void *ctx)
{
	struct eh_case_run *r = ctx;
	struct hib_state *st = r->priv;
	uint64_t page = 0;

	if (imm != EH_HIB_SVC_GET_SAFE_PAGE || !st)
		return false;
	if (++st->count != st->fail_at) {
		if ((uint64_t)(st->used + 1) * HIB_PAGE > st->pool_size)
			st->exhausted = true;
		else
			page = st->pool + (uint64_t)st->used++ * HIB_PAGE;
	}
	eh_machine_set_xreg(m, thread, 0, page);
	return true;
}

static const struct eh_machine_hooks hib_hooks = {
	.svc = hib_svc,
};

/* One run of the variant with allocation fail_at failing; zeros: pool_size zero bytes. */
static int hib_call(struct eh_case_run *r, struct hib_state *st, unsigned fail_at, const void *zeros,
		    const struct eh_thread_result **res, struct eh_error *err)
{
	int rc;

	st->count = st->used = 0;
	st->fail_at = fail_at;
	/* get_safe_page() returns zeroed pages: an empty table has no valid entry. */
	rc = eh_machine_write(r->machine, st->pool, zeros, st->pool_size, err);
	if (!rc)
		rc = eh_case_call(r, r->v->entry, NULL, 0, res, err);
	if (!rc && st->exhausted)
		rc = eh_error_set(err, EH_EINPUT, "%s: %s asked for more than the %" PRIu64 " pages of hib_pool",
				  r->elf->path, r->v->entry, st->pool_size / HIB_PAGE);
	return rc;
}

static void report(struct eh_case_run *r, unsigned k, enum eh_hib_end end,
		   const struct eh_thread_result *res, uint64_t dst_addr)
{
	char where[256];

	eh_outcome_append(&r->outcome, "%s allocation %u (%s) ", k > 1 ? "," : "", k,
			  eh_hibernate_alloc_what(k));
	eh_machine_where(r->machine, res->pc, where, sizeof(where));
	switch (end) {
	case EH_HIB_ENOMEM:
		eh_outcome_append(&r->outcome, "-ENOMEM");
		break;
	case EH_HIB_NULL_DEREF:
		eh_outcome_append(&r->outcome, "data abort at 0x%016" PRIx64 " by %s%s", res->addr, where,
				  res->addr == eh_hibernate_pgd_slot(dst_addr)
				  ? " (the top-level entry for the code's address, read through NULL)" : "");
		break;
	case EH_HIB_OK:
		eh_outcome_append(&r->outcome, "returned 0 without the page");
		break;
	default:
		eh_outcome_append(&r->outcome, "%s at %s (x0 0x%" PRIx64 ")", eh_stop_name(res->stop), where,
				  eh_machine_xreg(r->machine, 0, 0));
	}
}

/*
 * A run where nothing fails counts the allocations; then one run per allocation, failing it.
 * The trace keeps every run, so that replay shows each one end.
 */
static int hib_run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct hib_state st = { 0 };
	const struct eh_thread_result *res;
	enum eh_hib_end end;
	uint64_t dst_addr, x0;
	void *zeros;
	bool bug = false;
	unsigned k, n;
	int rc;

	(void)opts;
	rc = eh_case_symbol(r, "hib_pool", &st.pool, &st.pool_size, err);
	if (!rc)
		rc = eh_elf_resolve(r->elf, "hibernate_exit", &dst_addr, err);
	if (rc)
		return rc;
	zeros = eh_alloc(st.pool_size);
	if (!zeros)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the page pool");
	r->priv = &st;
	rc = hib_call(r, &st, 0, zeros, &res, err);
	if (rc)
		goto out;
	x0 = eh_machine_xreg(r->machine, 0, 0);
	if (eh_hibernate_classify(res, x0) != EH_HIB_OK || st.count != EH_HIB_ALLOCATIONS) {
		rc = eh_error_set(err, EH_EINPUT, "%s: with nothing failing, %s ended with %s, x0 0x%" PRIx64
				  ", after %u allocations (empty tables need %d)", r->elf->path, r->v->entry,
				  eh_stop_name(res->stop), x0, st.count, EH_HIB_ALLOCATIONS);
		goto out;
	}
	n = st.count;
	eh_outcome_append(&r->outcome, "%u allocations when none fails; failing each in turn:", n);
	for (k = 1; k <= n; k++) {
		rc = hib_call(r, &st, k, zeros, &res, err);
		if (rc)
			goto out;
		end = eh_hibernate_classify(res, eh_machine_xreg(r->machine, 0, 0));
		bug |= end != EH_HIB_ENOMEM;
		report(r, k, end, res, dst_addr);
	}
	r->outcome.verdict = bug ? EH_VERDICT_BUG : EH_VERDICT_FIXED;
out:
	r->priv = NULL;
	eh_free(zeros);
	return rc;
}

const struct eh_case eh_case_hibernate_alloc = {
	.id = "hibernate-alloc",
	.commits = commits,
	.shows = "create_safe_exec_page with each allocation failed in turn: before, a failed top-level "
		 "table is read through NULL; after, every failure returns -ENOMEM",
	.object = "hibernate-alloc.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN | EH_END_FAULT,
	.mutants = mutants,
	.hooks = &hib_hooks,
	.run = hib_run,
};

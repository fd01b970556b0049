/* Tests the audit's two shapes of static rule with a scan rule and a window rule of the test's own, over tests/objects/rules.S, and the straight paths rules follow (paths.S). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../harness/src/util/alloc_fail.h"
#include "eh/audit.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/model.h"
#include "eh/rule.h"
#include "eh/sysreg.h"
#include "test_objects.h"
#include "reports/rows.h"

/* The scan rule: every MRS of PAR_EL1 between two DMB SY (the shape of Cortex-A77 1508412's workaround). */
static bool mrs_par(uint64_t addr, uint32_t word)
{
	(void)addr;
	return (word & 0xffffffe0) == 0xd5387400;  /* MRS Xt, PAR_EL1 */
}

/* The neighbour delta words from in, as text, or "-" where there is none; whether it is DMB SY. */
static bool dmb_sy_at(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, struct eh_insn *n)
{
	if (eh_rule_neighbour(ctx, in, delta, n)) {
		n->addr = 0;
		snprintf(n->text, sizeof(n->text), "-");
		return false;
	}
	return n->word == 0xd5033fbf;  /* DMB SY */
}

/* A finding anchored at the neighbour that should have been the barrier (before it first), if there is one. */
static int par_visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn before, after;
	bool ok_before = dmb_sy_at(ctx, in, -1, &before), ok_after = dmb_sy_at(ctx, in, 1, &after);

	if (ok_before && ok_after)
		return 0;
	return eh_rule_report(ctx, in, ok_before ? after.addr : before.addr, "mrs par_el1", "before: %s; after: %s",
			      before.text, after.text);
}

static const struct eh_rule par_rule = {
	.wants = mrs_par,
	.scan = &(const struct eh_scan_rule){ .visit = par_visit },
};

/*
 * The window rule: after a write of CONTEXTIDR_EL1 (not of XZR), no store or write of TPIDR_EL1 before the
 * next ISB. Its anchors are named by a trigger (MSR CONTEXTIDR_EL1, Xt), the other rule's by wants alone.
 */
static const struct eh_rule_trigger msr_contextidr[] = { { 0xffffffe0, 0xd518d020 }, { 0 } };

static int contextidr_write(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	(void)ctx;
	if (in->sysreg != EH_CONTEXTIDR_EL1)
		return -1;
	*why = in->rt == 31 ? "the write of xzr" : NULL;
	return in->rt == 31;
}

/* Beyond stores, the window rule finds writes of TPIDR_EL1 (what no class of eh/insn.h names). */
static bool msr_tpidr_el1(const struct eh_insn *in)
{
	return in->flags & EH_INSN_MSR && in->sysreg == EH_SYSREG(3, 0, 13, 0, 4);
}

static const struct eh_window_class contextidr_classes[] = {
	{ .name = "written", .rule = "a value is written: a window", .opens = true },
	{ .name = "cleared", .rule = "zero is written: safe", .opens = false },
	{ 0 },
};

static const struct eh_rule contextidr_rule = {
	.triggers = msr_contextidr,
	.window = &(const struct eh_window_rule){
		.anchor = contextidr_write,
		.classes = contextidr_classes,
		.closes = EH_INSN_ISB,
		.finds = EH_INSN_STORE,
		.found = msr_tpidr_el1,
		.anchors = "CONTEXTIDR_EL1 writes",
		.classified_by = "the value written",
		.explain = "a store before the ISB",
	},
};

static const struct eh_midr_range no_cpus[] = { { 0 } };

static const struct eh_erratum test_par = {
	.id = "test-par", .title = "MRS PAR_EL1 between two DMB SY", .cpus = no_cpus, .rule = &par_rule,
};
static const struct eh_erratum test_contextidr = {
	.id = "test-contextidr", .title = "no store in a CONTEXTIDR_EL1 window", .cpus = no_cpus,
	.rule = &contextidr_rule,
};
static const struct eh_erratum test_no_rule = { .id = "test-no-rule", .title = "no static rule", .cpus = no_cpus };

/* Between the two errata with a rule, one without: the audit leaves it out. */
static const struct eh_erratum *const test_errata[] = { &test_par, &test_no_rule, &test_contextidr, NULL };

struct fixture {
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_audit *audit;
};

/* The test object name patched for model booted at boot (6.1's numbering), audited with errata. */
static void audit_object(struct fixture *f, const char *name, const char *model, enum eh_boot boot,
			 const struct eh_erratum *const *errata)
{
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load(name, &len, path, sizeof(path));
	struct eh_error err = { 0 };

	assert_non_null(buf);
	if (eh_elf_parse(&f->elf, path, buf, len, &err) ||
	    eh_image_new(&f->img, f->elf, eh_cpucaps_builtin("6.1"),
			 &(struct eh_target){ .model = eh_model_find(model), .boot = boot }, &err) ||
	    eh_audit_run(&f->audit, f->img, errata, &err))
		fail_msg("%s on %s: %s", name, model, err.msg);
	free(buf);
}

static void open_audit(struct fixture *f, const char *model)
{
	audit_object(f, "rules", model, EH_BOOT_EL2, test_errata);
}

static void close_audit(struct fixture *f)
{
	eh_audit_free(f->audit);
	eh_image_free(f->img);
	eh_elf_free(f->elf);
}

/* What the two rules must find on one model, worked from tests/objects/rules.S by hand. */
struct rules_row {
	const char *name;
	const char *model;
	const char *par[6];          /* "where kind anchor: explanation", in address order */
	const char *contextidr[8];   /* "where kind anchor", then the open paths */
};

#define PAR_EVERYWHERE \
	"par_first+0x0 mrs par_el1 -: before: -; after: dmb sy", \
	"par_no_before+0x0 mrs par_el1 par_bracketed+0xc: before: ret; after: dmb sy", \
	"par_no_after+0x4 mrs par_el1 par_no_after+0x8: before: dmb sy; after: dmb ish"
#define PAR_LAST "par_last+0x4 mrs par_el1 -: before: dmb sy; after: -"
#define CONTEXTIDR_EVERYWHERE \
	{ "ctx_store+0x8 store ctx_store+0x0", "ctx_store+0x10 msr ctx_store+0x0", "ctx_branches+0x14 store ctx_branches+0x0", \
	  "ctx_helper+0x0 store ctx_branches+0x0", "ctx_branches+0x18 open ctx_branches+0x0" }

static const struct rules_row rows[] = {
	{ "capability 74 not detected: the NOP stays", "cortex-a72", { PAR_EVERYWHERE, PAR_LAST },
	  CONTEXTIDR_EVERYWHERE },
	{ "capability 74 detected: the read of PAR_EL1 patched in is found at its site", "thunderx2",
	  { PAR_EVERYWHERE, "par_patched_in+0x0 mrs par_el1 par_no_after+0xc: before: ret; after: ret", PAR_LAST },
	  CONTEXTIDR_EVERYWHERE },
	{ 0 },
};

static void check_findings(const char *row, const struct eh_audit_result *res, const char *const *expect,
			   bool explained)
{
	size_t i, n;
	char buf[600];

	for (n = 0; expect[n]; n++)
		;
	if (res->nfindings != n)
		fail_msg("%s: %s: %zu findings, expected %zu", row, res->erratum->id, res->nfindings, n);
	for (i = 0; i < n; i++) {
		const struct eh_finding *f = &res->findings[i];

		snprintf(buf, sizeof(buf), "%s %s %s%s%s", f->where, f->kind, f->anchor ? f->anchor_where : "-",
			 explained ? ": " : "", explained ? f->explain : "");
		if (strcmp(buf, expect[i]))
			fail_msg("%s: %s: finding %zu is '%s', expected '%s'", row, res->erratum->id, i, buf, expect[i]);
		if (f->erratum != res->erratum)
			fail_msg("%s: finding %zu names erratum %s", row, i, f->erratum->id);
	}
}

static void run_row(void **state)
{
	const struct rules_row *r = *state;
	struct fixture f = { 0 };
	const struct eh_audit_result *par, *ctx;
	size_t i;

	open_audit(&f, r->model);
	assert_int_equal(f.audit->nresults, 2);
	par = &f.audit->results[0];
	ctx = &f.audit->results[1];
	if (par->erratum != &test_par || ctx->erratum != &test_contextidr)
		fail_msg("%s: results for %s and %s", r->name, par->erratum->id, ctx->erratum->id);
	check_findings(r->name, par, r->par, true);
	check_findings(r->name, ctx, r->contextidr, false);
	for (i = 0; i < par->nfindings; i++)
		if (par->findings[i].window != SIZE_MAX || par->findings[i].open)
			fail_msg("%s: a scan rule's finding %zu belongs to a window", r->name, i);
	/* The window rule's anchors: two of them open windows, the write of XZR none. */
	assert_int_equal(par->nwindows, 0);
	assert_int_equal(ctx->nwindows, 3);
	assert_int_equal(ctx->nclass[0], 2);
	assert_int_equal(ctx->nclass[1], 1);
	assert_int_equal(ctx->nopened, 2);
	assert_int_equal(ctx->nopen, 1);
	assert_string_equal(ctx->windows[1].why, "the write of xzr");
	assert_int_equal(ctx->windows[1].nends + ctx->windows[1].nfindings, 0);
	for (i = 0; i < ctx->nfindings; i++)
		if (!ctx->findings[i].open && strcmp(ctx->findings[i].explain, "a store before the ISB"))
			fail_msg("%s: finding %zu explained as '%s'", r->name, i, ctx->findings[i].explain);
	close_audit(&f);
}

/* The two models' images compared: the PAR_EL1 read patched in is the one finding introduced. */
static void test_diff(void **state)
{
	struct fixture old = { 0 }, new = { 0 };
	struct eh_audit_diff *d = NULL;
	struct eh_error err = { 0 };
	size_t i, n = 0;

	(void)state;
	open_audit(&old, "cortex-a72");
	open_audit(&new, "thunderx2");
	if (eh_audit_diff(&d, old.audit, new.audit, &err))
		fail_msg("%s", err.msg);
	for (i = 0; rows[0].par[i]; i++)
		n++;
	for (i = 0; rows[0].contextidr[i]; i++)
		n++;
	assert_int_equal(d->count[EH_AUDIT_INTRODUCED], 1);
	assert_int_equal(d->count[EH_AUDIT_REMOVED], 0);
	assert_int_equal(d->count[EH_AUDIT_UNCHANGED], n);
	for (i = 0; i < d->n && d->deltas[i].change != EH_AUDIT_INTRODUCED; i++)
		;
	assert_ptr_equal(d->deltas[i].erratum, &test_par);
	assert_string_equal(d->deltas[i].where, "par_patched_in+0x0");
	assert_string_equal(d->deltas[i].anchor, "par_no_after+0xc");
	eh_audit_diff_free(d);
	close_audit(&old);
	close_audit(&new);
}

/* A window rule whose anchor names a class it does not have is the rule's bug: an error naming it. */
static int bad_class(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	(void)ctx;
	(void)why;
	return in->sysreg == EH_CONTEXTIDR_EL1 ? 2 : -1;
}

static const struct eh_rule bad_class_rule = {
	.triggers = msr_contextidr,
	.window = &(const struct eh_window_rule){
		.anchor = bad_class, .classes = contextidr_classes, .closes = EH_INSN_ISB,
		.finds = EH_INSN_STORE, .anchors = "writes", .classified_by = "nothing", .explain = "none",
	},
};

static const struct eh_erratum test_bad_class_erratum = {
	.id = "test-bad", .title = "a class out of range", .cpus = no_cpus, .rule = &bad_class_rule,
};

static void test_bad_class(void **state)
{
	static const struct eh_erratum *const errata[] = { &test_bad_class_erratum, NULL };
	struct fixture f = { 0 };
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("rules", &len, path, sizeof(path));
	struct eh_error err = { 0 };

	(void)state;
	assert_non_null(buf);
	if (eh_elf_parse(&f.elf, path, buf, len, &err) ||
	    eh_image_new(&f.img, f.elf, eh_cpucaps_builtin("6.1"),
			 &(struct eh_target){ .model = eh_model_find("cortex-a72") }, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(eh_audit_run(&f.audit, f.img, errata, &err), EH_EINVAL);
	assert_null(f.audit);
	assert_non_null(strstr(err.msg, "the rule of erratum test-bad failed"));
	assert_non_null(strstr(err.msg, "ctx_store+0x0"));
	close_audit(&f);
	free(buf);
}

/* A window rule with more classes than the audit counts is refused before it runs. */
static const struct eh_window_class nine_classes[] = {
	{ "1", "r", true }, { "2", "r", true }, { "3", "r", true }, { "4", "r", true }, { "5", "r", true },
	{ "6", "r", true }, { "7", "r", true }, { "8", "r", true }, { "9", "r", true }, { 0 },
};

static const struct eh_rule nine_classes_rule = {
	.triggers = msr_contextidr,
	.window = &(const struct eh_window_rule){
		.anchor = contextidr_write, .classes = nine_classes, .closes = EH_INSN_ISB,
		.finds = EH_INSN_STORE, .anchors = "writes", .classified_by = "nothing", .explain = "none",
	},
};

static const struct eh_erratum test_nine_classes = {
	.id = "test-nine", .title = "too many classes", .cpus = no_cpus, .rule = &nine_classes_rule,
};

static void test_too_many_classes(void **state)
{
	static const struct eh_erratum *const errata[] = { &test_nine_classes, NULL };
	struct fixture f = { 0 };
	struct eh_error err = { 0 };
	char want[128];

	(void)state;
	snprintf(want, sizeof(want), "the window rule of erratum test-nine has %zu classes, at most %d",
		 sizeof(nine_classes) / sizeof(nine_classes[0]) - 1, EH_RULE_MAX_CLASSES);
	open_audit(&f, "cortex-a72");
	eh_audit_free(f.audit);
	f.audit = NULL;
	assert_int_equal(eh_audit_run(&f.audit, f.img, errata, &err), EH_EINVAL);
	assert_null(f.audit);
	assert_string_equal(err.msg, want);
	close_audit(&f);
}

/* Every allocation of an audit with both rules fails in turn: EH_ENOMEM each time, never a crash. */
static void test_alloc_failures(void **state)
{
	struct fixture f = { 0 };
	unsigned long n;

	(void)state;
	open_audit(&f, "thunderx2");
	eh_audit_free(f.audit);
	for (n = 1;; n++) {
		struct eh_error err = { 0 };
		int rc;

		f.audit = NULL;
		eh_alloc_fail_at(n);
		rc = eh_audit_run(&f.audit, f.img, test_errata, &err);
		eh_alloc_fail_at(0);
		eh_audit_free(f.audit);
		if (!rc)
			break;
		if (rc != EH_ENOMEM)
			fail_msg("allocation %lu failing gave %d: %s", n, rc, err.msg);
	}
	assert_true(n > 8);
	f.audit = NULL;
	close_audit(&f);
}

/* Every erratum of the registry with a rule has exactly one shape and a summary, and a window rule says what it needs. */
static void test_registry_rules(void **state)
{
	const struct eh_erratum *const *e;
	size_t n;

	(void)state;
	for (e = eh_errata; *e; e++) {
		const struct eh_rule *r = (*e)->rule;

		if (!r)
			continue;
		if (!r->window == !r->scan)
			fail_msg("%s: a rule is a window rule or a scan rule", (*e)->id);
		if (!r->summary)
			fail_msg("%s: a rule says what it checks in a line (summary)", (*e)->id);
		if (r->scan && !r->scan->visit)
			fail_msg("%s: a scan rule without visit", (*e)->id);
		if (!r->window)
			continue;
		for (n = 0; r->window->classes[n].name; n++)
			if (!r->window->classes[n].rule)
				fail_msg("%s: class %s without its rule", (*e)->id, r->window->classes[n].name);
		if (!n || n > EH_RULE_MAX_CLASSES || !r->window->anchor || !r->window->closes ||
		    (!r->window->finds && !r->window->found) || !r->window->anchors || !r->window->classified_by ||
		    !r->window->explain)
			fail_msg("%s: a window rule needs anchor, 1 to %d classes, closes, finds or found, and its words",
				 (*e)->id, EH_RULE_MAX_CLASSES);
	}
}

/* A scan rule that reports, at each MRS of TPIDRRO_EL0, its straight path (mnemonics) and whether its code runs. */
static bool mrs_tpidrro(uint64_t addr, uint32_t word)
{
	(void)addr;
	return (word & 0xffffffe0) == 0xd53bd060;  /* MRS Xt, TPIDRRO_EL0 */
}

static int path_visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn cur = *in, next;
	char path[256] = "";
	size_t n = 0;
	const char *why;
	bool runs = eh_rule_runs(ctx, in, &why);

	while (n < sizeof(path) && !eh_rule_next(ctx, &cur, &next)) {
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%.*s ", (int)strcspn(next.text, " "), next.text);
		cur = next;
	}
	return eh_rule_report(ctx, in, 0, "path", "%s| %s", path, runs ? "runs" : why);
}

static const struct eh_erratum test_path = {
	.id = "test-path", .title = "straight paths", .cpus = no_cpus,
	.rule = &(const struct eh_rule){ .wants = mrs_tpidrro, .scan = &(const struct eh_scan_rule){ .visit = path_visit } },
};

/* Where the paths of tests/objects/paths.S go, and whether the nVHE hyp code runs, by how the kernel booted. */
struct path_row {
	const char *model;
	enum eh_boot boot;
	const char *nvhe;   /* the explanation of the finding in __kvm_nvhe_path_end */
};

static const struct path_row path_rows[] = {
	{ "cortex-a72", EH_BOOT_EL2, "| runs" },  /* no VHE: a host at EL2 runs KVM's nVHE code */
	{ "cortex-a76-r3p0", EH_BOOT_NVHE, "| runs" },
	{ "cortex-a76-r3p0", EH_BOOT_EL2,
	  "| KVM's nVHE hyp code does not run: the kernel runs at EL2 with VHE, and KVM with it" },
	{ "cortex-a72", EH_BOOT_EL1,
	  "| KVM's nVHE hyp code does not run: the kernel was booted at EL1, with no hypervisor" },
	{ 0 },
};

static void test_straight_paths(void **state)
{
	static const struct eh_erratum *const errata[] = { &test_path, NULL };
	const struct path_row *r;

	(void)state;
	for (r = path_rows; r->model; r++) {
		struct fixture f = { 0 };
		const struct eh_audit_result *res;

		audit_object(&f, "paths", r->model, r->boot, errata);
		res = &f.audit->results[0];
		assert_int_equal(res->nfindings, 3);
		assert_string_equal(res->findings[0].where, "path_straight+0x0");
		assert_string_equal(res->findings[0].explain, "b dmb cbz | runs");
		assert_string_equal(res->findings[1].where, "path_call+0x0");
		assert_string_equal(res->findings[1].explain, "bl | runs");
		assert_string_equal(res->findings[2].where, "__kvm_nvhe_path_end+0x4");
		assert_string_equal(res->findings[2].explain, r->nvhe);
		close_audit(&f);
	}
}

/* A scan rule over named functions: how often it was visited, and a finding at each visit. */
static unsigned start_visits;

static int start_visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	start_visits++;
	return eh_rule_report(ctx, in, 0, "start", "0x%08x", in->word);
}

static const char *const start_names[] = { "plain_func", "inner_object", "no_such_function", NULL };

static const struct eh_erratum test_start = {
	.id = "test-start", .title = "named functions", .cpus = no_cpus,
	.rule = &(const struct eh_rule){
		.scan = &(const struct eh_scan_rule){ .visit = start_visit, .functions = start_names } },
};

/*
 * tests/objects/names.S: plain_func (sized, in .text; its first word a NOP) and inner_object
 * (sized, inside vectors_block in .entry.tramp.text, placed after .text; its first word zero,
 * as objdump -d shows it) are visited once each, at their first word, in address order; the
 * missing name is not; with no triggers and no wants the rule is still shown no other word.
 */
static void test_named_functions(void **state)
{
	static const struct eh_erratum *const errata[] = { &test_start, NULL };
	struct fixture f = { 0 };
	const struct eh_audit_result *res;

	(void)state;
	start_visits = 0;
	audit_object(&f, "names", "cortex-a72", EH_BOOT_EL2, errata);
	res = &f.audit->results[0];
	assert_int_equal(start_visits, 2);
	assert_int_equal(res->nfindings, 2);
	assert_string_equal(res->findings[0].where, "plain_func+0x0");
	assert_string_equal(res->findings[0].explain, "0xd503201f");
	assert_string_equal(res->findings[1].where, "inner_object+0x0");
	assert_string_equal(res->findings[1].explain, "0x00000000");
	close_audit(&f);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) - 1 + 7];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_diff);
	EH_ADD_TEST(tests, n, test_bad_class);
	EH_ADD_TEST(tests, n, test_too_many_classes);
	EH_ADD_TEST(tests, n, test_alloc_failures);
	EH_ADD_TEST(tests, n, test_registry_rules);
	EH_ADD_TEST(tests, n, test_straight_paths);
	EH_ADD_TEST(tests, n, test_named_functions);
	return EH_RUN_TESTS("rules", tests, n);
}

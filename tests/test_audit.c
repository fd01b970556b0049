/* Tests erratum 219's window rule through the audit on relocatable objects, and that hostile objects are input errors that name the file. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
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
#include "eh/insn.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "test_objects.h"
#include "reports/rows.h"

struct fixture {
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_audit *audit;
	const struct eh_audit_result *res;   /* erratum 219's */
};

/* The audit runs erratum 219's rule alone, from its module (harness/errata/tx2-219/cavium_tx2_219.c). */
static const struct eh_erratum *const *tx2_219(void)
{
	static const struct eh_erratum *errata[2];

	errata[0] = eh_erratum_find("tx2-219");
	return errata;
}

static void open_object(struct fixture *f, const char *object, const char *model, enum eh_boot boot,
			const char *config_text)
{
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load(object, &len, path, sizeof(path));
	struct eh_kconfig *cfg = NULL;
	struct eh_error err = { 0 };

	assert_non_null(buf);
	assert_non_null(eh_model_find(model));
	if ((config_text && eh_kconfig_parse(&cfg, "test.config", config_text, strlen(config_text), &err)) ||
	    eh_elf_parse(&f->elf, path, buf, len, &err) ||
	    eh_image_new(&f->img, f->elf, eh_cpucaps_builtin("6.1"),
			 &(struct eh_target){ .model = eh_model_find(model), .config = cfg, .boot = boot }, &err) ||
	    eh_audit_run(&f->audit, f->img, tx2_219(), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(f->audit->nresults, 1);
	f->res = &f->audit->results[0];
	eh_kconfig_free(cfg);
	free(buf);
}

static void open_audit(struct fixture *f, const char *model, const char *config_text)
{
	open_object(f, "rel61", model, EH_BOOT_EL2, config_text);
}

static void close_audit(struct fixture *f)
{
	eh_audit_free(f->audit);
	eh_image_free(f->img);
	eh_elf_free(f->elf);
}

/* What one window must hold, worked from tests/objects/rel61.S by hand. */
struct expect_window {
	const char *msr;          /* symbol the MSR is at (offset 0) */
	const char *access[3];    /* "sym+off kind", in address order */
	const char *end[3];       /* "sym+off kind", in address order */
	const char *symbol;       /* the extern an end names */
};

struct window_row {
	const char *name;
	const char *model;
	const char *config;       /* .config text, NULL for every option on */
	const struct expect_window *w;
	size_t nwindows;          /* windows the object has on this model */
	const char *object;       /* tests/objects/NAME.S; NULL: rel61 */
	enum eh_boot boot;
	const char *regime;       /* the class of the regime the write changes (eh_regime_classes), NULL: not checked */
};

static const struct expect_window win_isb = {
	.msr = "win_isb", .end = { "win_isb+0x8 closed" },
};
static const struct expect_window win_prfm_tx2 = {
	.msr = "win_prfm", .access = { "win_prfm+0x4 load" }, .end = { "prfm_site+0x4 closed" },
};
static const struct expect_window win_prfm_plain = {
	.msr = "win_prfm", .access = { "win_prfm+0x4 load", "prfm_site+0x0 prefetch" },
	.end = { "prfm_site+0x4 closed" },
};
static const struct expect_window win_cond = {
	.msr = "win_cond", .access = { "win_cond+0x8 load", "win_cond+0x14 store" },
	.end = { "win_cond+0xc closed", "win_cond+0x18 closed" },
};
static const struct expect_window win_cross = {
	.msr = "win_cross", .access = { "far_away+0x0 store" }, .end = { "far_away+0x4 closed" },
};
static const struct expect_window win_call = {
	.msr = "win_call", .access = { "helper+0x0 load" }, .end = { "win_call+0x8 closed" },
};
static const struct expect_window win_extern = {
	.msr = "win_extern", .end = { "win_extern+0x4 branch out of the object" }, .symbol = "external_fn",
};
static const struct expect_window win_indirect = {
	.msr = "win_indirect", .end = { "win_indirect+0x4 indirect branch" },
};
static const struct expect_window win_patched_in = {
	.msr = "win_patched_in", .end = { "win_patched_in+0x4 closed" },
};

/* tests/objects/regimes.S: a live write's window holds the load after it; a guest write is not followed. */
#define guest_only(sym) ((const struct expect_window){ .msr = sym })
static const struct expect_window kernel_switch = {
	.msr = "kernel_switch", .access = { "kernel_switch+0x4 load" }, .end = { "kernel_switch+0x8 closed" },
};
static const struct expect_window finalise = {
	.msr = "finalise+0x10", .access = { "finalise+0x14 load" }, .end = { "finalise+0x18 closed" },
};
static const struct expect_window stub_unknown = {
	.msr = "stub_unknown", .access = { "stub_unknown+0x4 load" }, .end = { "stub_unknown+0x8 closed" },
};

/* tests/objects/recall.S, on thunderx2 booted at EL2: what the audit must see in each window. */
static const struct expect_window lse = {
	.msr = "lse_in_window", .access = { "lse_in_window+0x4 load+store", "lse_in_window+0x8 load" },
	.end = { "lse_in_window+0xc closed" },
};
static const struct expect_window ldapr = {
	.msr = "ldapr_in_window", .access = { "ldapr_in_window+0x4 load", "ldapr_in_window+0x8 load+store" },
	.end = { "ldapr_in_window+0xc closed" },
};
static const struct expect_window dc_zva = {
	.msr = "dc_zva_in_window", .access = { "dc_zva_in_window+0x4 store" }, .end = { "dc_zva_in_window+0x8 closed" },
};
static const struct expect_window behind_nops = {
	.msr = "behind_nops", .access = { "behind_nops+0x8 load" }, .end = { "behind_nops+0xc closed" },
};
static const struct expect_window two_deep = {
	.msr = "two_deep", .access = { "level1+0x0 store", "level1+0x8 load", "level2+0x0 load" },
	.end = { "two_deep+0x8 closed" },
};
static const struct expect_window returns_first = {
	.msr = "switch_then_return", .access = { "switch_then_return+0x4 store" }, .end = { "caller+0x8 closed" },
};
static const struct expect_window behind_unknown_cb = {
	.msr = "behind_unknown_cb", .end = { "behind_unknown_cb+0x4 uncertain", "behind_unknown_cb+0x8 closed" },
};

static const struct window_row rows[] = {
	{ "straight to ISB", "thunderx2", NULL, &win_isb, 8 },
	{ "PRFM patched away on thunderx2", "thunderx2", NULL, &win_prfm_tx2, 8 },
	{ "PRFM kept on cortex-a72", "cortex-a72", NULL, &win_prfm_plain, 7 },
	{ "PRFM kept with erratum 219 configured out", "thunderx2",
	  "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n", &win_prfm_plain, 7 },
	{ "both ways at CBZ", "thunderx2", NULL, &win_cond, 8 },
	{ "branch to another section", "thunderx2", NULL, &win_cross, 8 },
	{ "into a call and back", "cortex-a72", NULL, &win_call, 7 },
	{ "branch out of the object", "thunderx2", NULL, &win_extern, 8 },
	{ "indirect branch", "thunderx2", NULL, &win_indirect, 8 },
	{ "TTBR write patched in on thunderx2", "thunderx2", NULL, &win_patched_in, 8 },
	{ "kernel code booted at EL2 with VHE", "thunderx2", NULL, &kernel_switch, 7, "regimes", EH_BOOT_EL2,
	  "live EL2&0 (VHE)" },
	{ "kernel code with kvm-arm.mode=nvhe", "thunderx2", NULL, &kernel_switch, 7, "regimes", EH_BOOT_NVHE,
	  "live EL1&0" },
	{ "kernel code on a CPU without VHE", "cortex-a72", NULL, &kernel_switch, 7, "regimes", EH_BOOT_EL2,
	  "live EL1&0" },
	{ "a guest kernel", "thunderx2", NULL, &kernel_switch, 7, "regimes", EH_BOOT_EL1, "live EL1&0" },
	{ "the guest's register through its EL12 alias", "thunderx2", NULL, &guest_only("vhe_guest_write"), 7,
	  "regimes", EH_BOOT_EL2, "guest EL1&0 from EL2" },
	{ "KVM's write_sysreg_el1() without VHE", "thunderx2", NULL, &guest_only("write_el1"), 7, "regimes",
	  EH_BOOT_NVHE, "guest EL1&0 from EL2" },
	{ "KVM's write_sysreg_el1() booted at EL2", "thunderx2", NULL, &guest_only("write_el1"), 7, "regimes",
	  EH_BOOT_EL2, "guest EL1&0 from EL2" },
	{ "the hyp stub after setting E2H", "thunderx2", NULL, &finalise, 7, "regimes", EH_BOOT_NVHE,
	  "live EL2&0 (VHE)" },
	{ "the hyp stub with E2H clear", "thunderx2", NULL, &guest_only("stub_nvhe+0xc"), 7, "regimes", EH_BOOT_EL2,
	  "guest EL1&0 from EL2" },
	{ "EL2 code that does not say: live", "thunderx2", NULL, &stub_unknown, 7, "regimes", EH_BOOT_EL2,
	  "live EL2&0 (VHE)" },
	{ "nVHE hyp code by its __kvm_nvhe_ prefix", "thunderx2", NULL, &guest_only("__kvm_nvhe_restore"), 7,
	  "regimes", EH_BOOT_NVHE, "guest EL1&0 from EL2" },
	{ "nVHE hyp code by its .nvhe.o object", "thunderx2", NULL, &guest_only("__sysreg_restore_el1_state"), 1,
	  "switch.nvhe", EH_BOOT_NVHE, "guest EL1&0 from EL2" },
	{ "an LSE atomic, and the load after it", "thunderx2", NULL, &lse, 7, "recall" },
	{ "LDAPR and CASP, which Capstone 4 cannot decode", "thunderx2", NULL, &ldapr, 7, "recall" },
	{ "DC ZVA writes memory", "thunderx2", NULL, &dc_zva, 7, "recall" },
	{ "a load behind a branch alt_cb_patch_nops removes", "thunderx2", NULL, &behind_nops, 7, "recall" },
	{ "an access two calls deep", "thunderx2", NULL, &two_deep, 7, "recall" },
	{ "a return to the caller, which closes the window", "thunderx2", NULL, &returns_first, 7, "recall" },
	{ "a callback the harness does not emulate", "thunderx2", NULL, &behind_unknown_cb, 7, "recall" },
	{ 0 },
};

static void run_window(void **state)
{
	const struct window_row *r = *state;
	const struct expect_window *x = r->w;
	struct fixture f = { 0 };
	const struct eh_audit_result *res;
	const struct eh_window_rule *rule;
	const struct eh_audit_window *w = NULL;
	char buf[256], loc[160];
	size_t i, n, ninside;

	open_object(&f, r->object ? r->object : "rel61", r->model, r->boot, r->config);
	res = f.res;
	rule = res->erratum->rule->window;
	if (res->nwindows != r->nwindows)
		fail_msg("%s: %zu windows, expected %zu", r->name, res->nwindows, r->nwindows);
	snprintf(buf, sizeof(buf), strchr(x->msr, '+') ? "%s" : "%s+0x0", x->msr);
	for (i = 0; i < res->nwindows; i++)
		if (!strcmp(eh_elf_describe(f.elf, res->windows[i].anchor, loc, sizeof(loc)), buf))
			w = &res->windows[i];
	if (!w)
		fail_msg("%s: no window at %s", r->name, x->msr);
	if (r->regime && strcmp(rule->classes[w->cls].name, r->regime))
		fail_msg("%s: the write changes the %s regime (%s), expected %s", r->name,
			 rule->classes[w->cls].name, w->why, r->regime);
	for (n = 0; n < 3 && x->access[n]; n++)
		;
	for (ninside = 0; ninside < w->nfindings && !res->findings[w->first + ninside].open; ninside++)
		;
	if (ninside != n)
		fail_msg("%s: %zu accesses, expected %zu", r->name, ninside, n);
	for (i = 0; i < n; i++) {
		const struct eh_finding *fi = &res->findings[w->first + i];

		snprintf(buf, sizeof(buf), "%s %s", fi->where, fi->kind);
		if (strcmp(buf, x->access[i]))
			fail_msg("%s: access %zu is '%s', expected '%s'", r->name, i, buf, x->access[i]);
		if (fi->anchor != w->anchor || fi->erratum != res->erratum)
			fail_msg("%s: access %zu is not anchored at its window's write", r->name, i);
	}
	for (n = 0; n < 3 && x->end[n]; n++)
		;
	if (w->nends != n)
		fail_msg("%s: %zu ends, expected %zu", r->name, w->nends, n);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s %s", eh_elf_describe(f.elf, w->ends[i].addr, loc, sizeof(loc)),
			 eh_audit_end_name(w->ends[i].kind));
		if (strcmp(buf, x->end[i]))
			fail_msg("%s: end %zu is '%s', expected '%s'", r->name, i, buf, x->end[i]);
	}
	/* Each end that does not close the window is a finding after its accesses. */
	for (i = 0, n = 0; i < w->nends; i++)
		n += w->ends[i].kind != EH_AUDIT_CLOSED;
	if (w->nfindings - ninside != n)
		fail_msg("%s: %zu open paths among the findings, expected %zu", r->name, w->nfindings - ninside, n);
	if (x->symbol && (!w->ends[0].symbol || strcmp(w->ends[0].symbol, x->symbol)))
		fail_msg("%s: the end should name %s", r->name, x->symbol);
	close_audit(&f);
}

/* The findings of every window, and the windows with an open path (extern, indirect). */
static void totals(const struct eh_audit_result *res, size_t *inside, size_t *open)
{
	size_t i;

	*inside = 0;
	for (i = 0; i < res->nfindings; i++)
		*inside += !res->findings[i].open;
	*open = res->nopen;
}

static void test_totals(void **state)
{
	struct fixture f = { 0 };
	size_t inside, open;

	(void)state;
	open_audit(&f, "thunderx2", NULL);
	totals(f.res, &inside, &open);
	assert_int_equal(inside, 5);  /* ldr literal, ldr + str, stp, callee's ldr */
	assert_int_equal(open, 2);
	close_audit(&f);
	open_audit(&f, "cortex-a72", NULL);
	totals(f.res, &inside, &open);
	assert_int_equal(inside, 6);  /* and the PRFM */
	close_audit(&f);
}

/* How a corrupted copy of rel61.o is rewritten, and what the harness must say about it. */
enum stage { AT_PARSE, AT_IMAGE };

struct hostile {
	const char *name;
	void (*mutate)(unsigned char *buf, size_t *len);
	enum stage stage;
	const char *what;
	const char *kernel;     /* the built-in numbering the image is made with; NULL: 6.1 */
};

static void truncate_header(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len = 40;
}

static void truncate_half(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len /= 2;
}

static void set_machine_x86_64(unsigned char *buf, size_t *len)
{
	(void)len;
	buf[offsetof(Elf64_Ehdr, e_machine)] = EM_X86_64;
	buf[offsetof(Elf64_Ehdr, e_machine) + 1] = 0;
}

static void set_class_32(unsigned char *buf, size_t *len)
{
	(void)len;
	buf[EI_CLASS] = ELFCLASS32;
}

static void text_past_end(unsigned char *buf, size_t *len)
{
	Elf64_Shdr sh;
	size_t at = test_object_shdr(buf, ".text", &sh);

	sh.sh_offset = *len - 8;
	memcpy(buf + at, &sh, sizeof(sh));
}

/* The n-th Elf64_Rela of .rela.altinstructions, to be edited in place. */
static unsigned char *alt_rela(unsigned char *buf, unsigned n)
{
	Elf64_Shdr sh;

	test_object_shdr(buf, ".rela.altinstructions", &sh);
	return buf + sh.sh_offset + n * sizeof(Elf64_Rela);
}

static void edit_rela(unsigned char *buf, unsigned n, int field, uint64_t v)
{
	Elf64_Rela r;

	memcpy(&r, alt_rela(buf, n), sizeof(r));
	if (field == 0)
		r.r_offset = v;
	else if (field == 1)
		r.r_info = v;
	else
		r.r_addend = (int64_t)v;
	memcpy(alt_rela(buf, n), &r, sizeof(r));
}

static uint64_t rela_info(unsigned char *buf, unsigned n)
{
	Elf64_Rela r;

	memcpy(&r, alt_rela(buf, n), sizeof(r));
	return r.r_info;
}

static void reloc_offset_outside(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 0, 0, 0x10000);
}

static void reloc_symbol_outside(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 0, 1, (uint64_t)0xffff << 32 | R_AARCH64_PREL32);
}

static void reloc_type_unknown(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 0, 1, (rela_info(buf, 0) & ~0xffffffffull) | 1000);
}

static void alt_orig_outside(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 0, 2, 0x100000);
}

static void alt_repl_outside(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 1, 2, 0x100000);
}

/* Point the first site's original at the symbol of the callback's entry (undefined here). */
static void alt_orig_extern(unsigned char *buf, size_t *len)
{
	(void)len;
	edit_rela(buf, 0, 1, rela_info(buf, 5));
}

/* The n-th 12-byte struct alt_instr of .altinstructions. */
static unsigned char *alt_entry(unsigned char *buf, unsigned n)
{
	Elf64_Shdr sh;

	test_object_shdr(buf, ".altinstructions", &sh);
	return buf + sh.sh_offset + n * 12;
}

static void alt_bad_length(unsigned char *buf, size_t *len)
{
	(void)len;
	alt_entry(buf, 0)[10] = 6;
}

static void alt_cap_out_of_range(unsigned char *buf, size_t *len)
{
	(void)len;
	alt_entry(buf, 0)[8] = 200;
}

/* The first entry a 6.x callback (ARM64_CB_BIT, bit 15, over callback number 1). */
static void alt_cb_bit(unsigned char *buf, size_t *len)
{
	(void)len;
	alt_entry(buf, 0)[8] = 0x01;
	alt_entry(buf, 0)[9] = 0x80;
}

static const struct hostile hostile[] = {
	{ "truncated ELF header", truncate_header, AT_PARSE, "truncated ELF header" },
	{ "truncated file", truncate_half, AT_PARSE, "past the end" },
	{ "x86-64 ELF", set_machine_x86_64, AT_PARSE, "expected AArch64" },
	{ "32-bit ELF", set_class_32, AT_PARSE, "ELFCLASS64" },
	{ "section contents past the end", text_past_end, AT_PARSE, "past the end of the file" },
	{ "relocation offset outside its section", reloc_offset_outside, AT_PARSE, "is outside .altinstructions" },
	{ "relocation symbol out of range", reloc_symbol_outside, AT_PARSE, "symbol 65535 of" },
	{ "relocation type unknown", reloc_type_unknown, AT_PARSE, "type 1000 is not supported" },
	{ "alternative original outside its section", alt_orig_outside, AT_IMAGE,
	  "outside every executable section" },
	{ "alternative replacement outside its section", alt_repl_outside, AT_IMAGE,
	  "outside every allocated section" },
	{ "alternative original in another object", alt_orig_extern, AT_IMAGE, "does not define" },
	{ "alternative lengths differ", alt_bad_length, AT_IMAGE, "equal multiples of 4" },
	{ "alternative capability out of range", alt_cap_out_of_range, AT_IMAGE,
	  "capability 200 is out of range" },
	{ "a 6.x callback numbered as 5.4", alt_cb_bit, AT_IMAGE, "capability 0x8001 has bit 15 set", "5.4" },
	{ 0 },
};

static void run_hostile(void **state)
{
	const struct hostile *h = *state;
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("rel61", &len, path, sizeof(path));
	struct eh_elf *elf = NULL;
	struct eh_image *img = NULL;
	struct eh_error err = { 0 };
	int rc;

	assert_non_null(buf);
	h->mutate(buf, &len);
	rc = eh_elf_parse(&elf, path, buf, len, &err);
	if (!rc && h->stage == AT_IMAGE)
		rc = eh_image_new(&img, elf, eh_cpucaps_builtin(h->kernel ? h->kernel : "6.1"),
				  &(struct eh_target){ .model = eh_model_find("thunderx2") }, &err);
	if (rc != EH_EINPUT || strncmp(err.msg, path, strlen(path)) || !strstr(err.msg, h->what))
		fail_msg("%s: rc %d, message '%s'; expected EH_EINPUT naming %s and saying '%s'", h->name,
			 rc, err.msg, path, h->what);
	eh_image_free(img);
	eh_elf_free(elf);
	free(buf);
}

/* Two alternatives over one instruction: the kernel would patch it twice. */
static void test_overlap(void **state)
{
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("overlap", &len, path, sizeof(path));
	struct eh_elf *elf = NULL;
	struct eh_image *img = NULL;
	struct eh_error err = { 0 };

	(void)state;
	assert_non_null(buf);
	if (eh_elf_parse(&elf, path, buf, len, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(eh_image_new(&img, elf, eh_cpucaps_builtin("6.1"),
				      &(struct eh_target){ .model = eh_model_find("thunderx2") },
				      &err), EH_EINPUT);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "overlap: twice+0x0"));
	assert_null(img);
	eh_elf_free(elf);
	free(buf);
}

/* Every allocation from load to audit fails in turn: EH_ENOMEM each time, never a crash. */
static void test_alloc_failures(void **state)
{
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("rel61", &len, path, sizeof(path));
	unsigned long n;

	(void)state;
	assert_non_null(buf);
	for (n = 1;; n++) {
		struct fixture f = { 0 };
		struct eh_error err = { 0 };
		int rc;

		eh_alloc_fail_at(n);
		rc = eh_elf_parse(&f.elf, path, buf, len, &err);
		if (!rc)
			rc = eh_image_new(&f.img, f.elf, eh_cpucaps_builtin("6.1"),
					  &(struct eh_target){ .model = eh_model_find("thunderx2") }, &err);
		if (!rc)
			rc = eh_audit_run(&f.audit, f.img, tx2_219(), &err);
		eh_alloc_fail_at(0);
		close_audit(&f);
		if (!rc)
			break;
		if (rc != EH_ENOMEM)
			fail_msg("allocation %lu failing gave %d: %s", n, rc, err.msg);
	}
	assert_true(n > 10);
	free(buf);
}

/*
 * One scan shared by the images of several models (as the audit's matrix shares it) finds in each
 * what an audit of that image alone finds: the TTBR write win_patched_in's alternative brings in on
 * thunderx2 only, after an image without it and before one with it again.
 */
static void test_shared_scan(void **state)
{
	static const char *const models[] = { "thunderx2", "cortex-a72", "thunderx2" };
	char path[4096];
	size_t len, i, w;
	unsigned char *buf = test_object_load("rel61", &len, path, sizeof(path));
	struct eh_audit_scan *scan = NULL;
	struct eh_error err = { 0 };
	struct eh_elf *elf = NULL;

	(void)state;
	assert_non_null(buf);
	if (eh_elf_parse(&elf, path, buf, len, &err) || eh_audit_scan_new(&scan, elf, tx2_219(), &err))
		fail_msg("%s", err.msg);
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct eh_image *img = NULL;
		struct eh_audit *shared = NULL, *alone = NULL;
		bool patched_in = false;

		if (eh_image_new(&img, elf, eh_cpucaps_builtin("6.1"),
				 &(struct eh_target){ .model = eh_model_find(models[i]) }, &err) ||
		    eh_audit_run_scan(&shared, img, scan, NULL, &err) || eh_audit_run(&alone, img, tx2_219(), &err))
			fail_msg("%s: %s", models[i], err.msg);
		assert_int_equal(shared->results[0].nwindows, alone->results[0].nwindows);
		assert_int_equal(shared->results[0].nfindings, alone->results[0].nfindings);
		for (w = 0; w < shared->results[0].nwindows; w++) {
			assert_int_equal(shared->results[0].windows[w].anchor, alone->results[0].windows[w].anchor);
			assert_string_equal(shared->results[0].windows[w].text, alone->results[0].windows[w].text);
			patched_in |= shared->results[0].windows[w].anchor == eh_elf_symbol_by_name(elf, "win_patched_in")->value;
		}
		assert_int_equal(patched_in, !strcmp(models[i], "thunderx2"));
		eh_audit_free(shared);
		eh_audit_free(alone);
		eh_image_free(img);
	}
	eh_audit_scan_free(scan);
	eh_elf_free(elf);
	free(buf);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) - 1 + 1 + EH_COUNT(hostile) - 1 + 3];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_window);
	EH_ADD_TEST(tests, n, test_totals);
	EH_ADD_ROWS(tests, n, hostile, run_hostile);
	EH_ADD_TEST(tests, n, test_overlap);
	EH_ADD_TEST(tests, n, test_alloc_failures);
	EH_ADD_TEST(tests, n, test_shared_scan);
	return EH_RUN_TESTS("audit", tests, n);
}

/* Alternatives: the kernel's fix-up rules for moved instructions, and patching a real table per model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eh/image.h"
#include "eh/insn.h"
#include "eh/model.h"
#include "eh/sysreg.h"
#include "test_objects.h"

#define REPL 0xffff800008012000ull  /* replacement block, 8 bytes */
#define ORIG 0xffff800008010420ull  /* where it is copied to */

struct fixup_row {
	const char *name;
	uint32_t insn;       /* read at REPL + at */
	unsigned at;
	int rc;
	uint32_t expect;     /* the word written at ORIG + at */
};

/* Worked by hand from the B/ADRP encodings (Arm ARM C6.2.26, C6.2.11). */
static const struct fixup_row fixup_rows[] = {
	/* b .+4 from REPL stays inside the 8-byte replacement: copied unchanged. */
	{ "branch inside the replacement", 0x14000001, 0, 0, 0x14000001 },
	/* b .+0x100 from REPL targets REPL+0x100; from ORIG that is +(0x1be0 + 0x100) bytes = 0x738 words. */
	{ "branch out of the replacement", 0x14000040, 0, 0, 0x14000000 | ((REPL + 0x100 - ORIG) / 4) },
	/* cbz x0, .+0x40 (imm19 at bits 23:5) retargeted likewise. */
	{ "cbz out of the replacement", 0xb4000200, 0, 0,
	  0xb4000000 | (uint32_t)(((REPL + 0x40 - ORIG) / 4) << 5) },
	/* adrp x0, REPL page + 1: from ORIG's page (0x...10000) that page is 3 pages away. */
	{ "adrp rebased by page", 0xb0000000, 0, 0, 0x90000000 | (3u << 29) },
	{ "adr refused", 0x10000200, 0, EH_EINPUT, 0 },
	{ "literal load refused", 0x5800021e, 0, EH_EINPUT, 0 },
	{ "plain instruction unchanged", 0xd503201f, 4, 0, 0xd503201f },
};

static void test_fixup_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fixup_rows) / sizeof(fixup_rows[0]); i++) {
		const struct fixup_row *r = &fixup_rows[i];
		struct eh_error err = { 0 };
		uint32_t out = 0;
		int rc = eh_alt_fixup(r->insn, REPL + r->at, ORIG + r->at, REPL, REPL + 8, &out, &err);

		if (rc != r->rc || (!rc && out != r->expect))
			fail_msg("%s: rc %d out 0x%08x, expected rc %d out 0x%08x (%s)", r->name, rc, out,
				 r->rc, r->expect, err.msg);
	}
}

static struct eh_elf *elf;

static int load(void **state)
{
	(void)state;
	return eh_elf_open(&elf, EH_CASES_DIR "/tx2-219-prfm.elf", NULL);
}

static int unload(void **state)
{
	(void)state;
	eh_elf_free(elf);
	return 0;
}

static void test_parse_snippet_table(void **state)
{
	const struct eh_cpucaps *caps = eh_cpucaps_builtin("5.4");
	struct eh_alt_site *sites;
	size_t n;

	(void)state;
	assert_int_equal(eh_alt_parse(&sites, &n, elf, caps, NULL), 0);
	/* cases/tx2-219-prfm/tramp.S: PRFM in "after", ISB and PRFM in "after-kaslr". */
	assert_int_equal(n, 3);
	assert_string_equal(sites[0].cap_name, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM");
	assert_string_equal(sites[1].cap_name, "ARM64_WORKAROUND_QCOM_FALKOR_E1003");
	assert_int_equal(sites[0].orig_len, 4);
	assert_int_equal(sites[0].repl_len, 4);
	assert_false(sites[0].callback);
	eh_free(sites);
}

struct apply_row {
	const char *model;
	uint32_t prfm_site;  /* the word left where the PRFM of tramp_entry_after was */
	uint32_t isb_site;   /* the Falkor E1003 ISB of tramp_entry_after_kaslr */
};

static const struct apply_row apply_rows[] = {
	{ "cortex-a72", 0xf98203c9 /* prfm plil1strm, [x30, #1024] */, 0xd5033fdf /* isb */ },
	{ "thunderx2", 0xd503201f /* nop */, 0xd5033fdf },
	{ "thunderx2-nosmt", 0xd503201f, 0xd5033fdf },
	{ "vulcan", 0xd503201f, 0xd5033fdf },
};

static void test_apply_per_model(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(apply_rows) / sizeof(apply_rows[0]); i++) {
		const struct apply_row *r = &apply_rows[i];
		struct eh_image *img;
		struct eh_error err = { 0 };
		uint32_t prfm, isb;

		if (eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"),
				 &(struct eh_target){ .model = eh_model_find(r->model) }, &err))
			fail_msg("%s: %s", r->model, err.msg);
		assert_int_equal(eh_image_word(img, img->sites[0].orig, &prfm), 0);
		assert_int_equal(eh_image_word(img, img->sites[1].orig, &isb), 0);
		if (prfm != r->prfm_site || isb != r->isb_site)
			fail_msg("%s: PRFM site 0x%08x, ISB site 0x%08x", r->model, prfm, isb);
		assert_int_equal(eh_image_outcome(img, &img->sites[0]).applied, r->prfm_site == 0xd503201f);
		eh_image_free(img);
	}
}

/* A kernel built without CONFIG_CAVIUM_TX2_ERRATUM_219 never detects the capability (603afdc9438a). */
static void test_kconfig_off_keeps_prfm(void **state)
{
	static const char config[] = "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\nCONFIG_ARM64=y\n";
	struct eh_kconfig *cfg;
	struct eh_image *img;
	uint32_t w;

	(void)state;
	assert_int_equal(eh_kconfig_parse(&cfg, ".config", config, strlen(config), NULL), 0);
	assert_int_equal(eh_image_new(&img, elf, eh_cpucaps_builtin("5.4"),
				      &(struct eh_target){ .model = eh_model_find("thunderx2"), .config = cfg },
				      NULL), 0);
	assert_int_equal(eh_image_word(img, img->sites[0].orig, &w), 0);
	assert_int_equal(w, 0xf98203c9);
	eh_image_free(img);
	eh_kconfig_free(cfg);
}

/*
 * The kernel's callbacks on tests/objects/callbacks.S, worked by hand from the
 * kernel's functions (arch/arm64/kernel/alternative.c, kvm/va_layout.c,
 * kernel/proton-pack.c) and the layout alt_cb.c documents (4 GiB of DRAM, so
 * tag_lsb 32; hyp VA bit 47, so tag_val 0x8000; kimage_voffset 0xffff7fffc8000000).
 * A NULL text leaves the word as the object has it.
 */
struct cb_row {
	const char *name;
	const char *symbol;     /* the site is at its start */
	const char *model;
	enum eh_alt_cb_result result;
	const char *text[5];    /* Capstone's text of each patched word */
};

static const struct cb_row cb_rows[] = {
	{ "alt_cb_patch_nops on an always-set capability", "nops_always", "thunderx2", EH_ALT_CB_PATCHED, { "nop" } },
	{ "alt_cb_patch_nops where its capability is detected", "nops_pan", "thunderx2", EH_ALT_CB_PATCHED, { "nop" } },
	{ "alt_cb_patch_nops where it is not: never called", "nops_pan", "cortex-a72", EH_ALT_CB_NOT_RUN, { NULL } },
	{ "kvm_update_va_mask without VHE", "va_mask", "cortex-a72", EH_ALT_CB_PATCHED,
	  { "and x3, x3, #0xffffffff", "ror x3, x3, #0x20", "add x3, x3, #0", "add x3, x3, #8, lsl #12",
	    "ror x3, x3, #0x20" } },
	{ "kvm_get_kimage_voffset", "kimage_voffset", "thunderx2", EH_ALT_CB_PATCHED,
	  { "movz x4, #0", "movk x4, #0xc800, lsl #16", "movk x4, #0x7fff, lsl #32", "movk x4, #0xffff, lsl #48" } },
	{ "smccc_patch_fw_mitigation_conduit: the firmware's", "ssbd+0x8", "thunderx2", EH_ALT_CB_UNCERTAIN, { NULL } },
	{ "BHB loop enable on a CPU without the loop", "bhb", "thunderx2", EH_ALT_CB_KEPT, { NULL } },
	{ "BHB loop enable on A72: the firmware decides", "bhb", "cortex-a72", EH_ALT_CB_UNCERTAIN, { NULL } },
	{ "BHB loop count: none on ThunderX2", "bhb+0x4", "thunderx2", EH_ALT_CB_PATCHED, { "movz x2, #0" } },
	{ "BHB loop count: 8 on A72", "bhb+0x4", "cortex-a72", EH_ALT_CB_PATCHED, { "movz x2, #0x8" } },
	{ "BHB WA3 where only the firmware can mitigate", "bhb+0x8", "thunderx2", EH_ALT_CB_UNCERTAIN, { NULL } },
	{ "BHB WA3 where the loop mitigates", "bhb+0x8", "cortex-a72", EH_ALT_CB_KEPT, { NULL } },
	{ "CLEARBHB without the instruction", "bhb+0xc", "thunderx2", EH_ALT_CB_PATCHED, { "nop", "nop" } },
	{ "a callback the harness does not emulate", "unknown_cb", "thunderx2", EH_ALT_CB_UNCERTAIN, { NULL } },
};

static const struct eh_alt_site *site_of(const struct eh_image *img, uint64_t addr)
{
	size_t i;

	for (i = 0; i < img->nsites; i++)
		if (img->sites[i].orig == addr)
			return &img->sites[i];
	return NULL;
}

/* Open callbacks.o patched for model; *obj and *cb_elf to free by the caller. */
static struct eh_image *callbacks_image(const char *model, struct eh_elf **cb_elf, unsigned char **obj)
{
	char path[4096];
	size_t len;
	struct eh_image *img = NULL; /* fail_msg does not return, which clang cannot see */
	struct eh_error err = { 0 };

	*obj = test_object_load("callbacks", &len, path, sizeof(path));
	assert_non_null(*obj);
	if (eh_elf_parse(cb_elf, path, *obj, len, &err) ||
	    eh_image_new(&img, *cb_elf, eh_cpucaps_builtin("6.1"), &(struct eh_target){ .model = eh_model_find(model) },
			 &err))
		fail_msg("%s: %s", model, err.msg);
	return img;
}

static void check_cb_row(const char *name, const char *symbol, const char *model, enum eh_alt_cb_result result,
			 const char *const *text)
{
	unsigned char *obj;
	struct eh_elf *cb_elf;
	struct eh_image *img = callbacks_image(model, &cb_elf, &obj);
	struct eh_decoder *dec;
	const struct eh_alt_site *s;
	struct eh_alt_outcome o;
	uint64_t addr;
	unsigned i;

	assert_int_equal(eh_decoder_new(&dec, NULL), 0);
	assert_int_equal(eh_elf_resolve(cb_elf, symbol, &addr, NULL), 0);
	s = site_of(img, addr);
	if (!s || !s->callback)
		fail_msg("%s: no callback site at %s", name, symbol);
	o = eh_image_outcome(img, s);
	if (o.cb_result != result)
		fail_msg("%s on %s: result %d (%s), expected %d", name, model, o.cb_result, o.cb_why, result);
	for (i = 0; i < s->orig_len / 4u; i++) {
		uint32_t now, before;
		struct eh_insn in;

		assert_int_equal(eh_image_word(img, addr + 4 * i, &now), 0);
		assert_int_equal(eh_elf_word(cb_elf, addr + 4 * i, &before), 0);
		eh_decoder_decode(dec, addr + 4 * i, now, &in);
		if (i < 5 && text[i] ? strcmp(in.text, text[i]) : now != before)
			fail_msg("%s on %s: word %u is '%s' (0x%08x), expected '%s'", name, model, i, in.text, now,
				 i < 5 && text[i] ? text[i] : "the original");
	}
	assert_int_equal(o.applied, result == EH_ALT_CB_PATCHED);
	eh_decoder_free(dec);
	eh_image_free(img);
	eh_elf_free(cb_elf);
	free(obj);
}

static void test_callback_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cb_rows) / sizeof(cb_rows[0]); i++)
		check_cb_row(cb_rows[i].name, cb_rows[i].symbol, cb_rows[i].model, cb_rows[i].result, cb_rows[i].text);
}

/*
 * The callbacks whose outcome a capability decides, checked against what the
 * capability table says of each model: the value of CTR_EL0 in four pieces,
 * the SSBS and Spectre-v3a choices.
 */
static void test_callbacks_follow_the_model(void **state)
{
	const struct eh_model *const *m;

	(void)state;
	for (m = eh_models; *m; m++) {
		uint64_t ctr;
		char t[4][64];
		const char *text[5] = { NULL };
		const struct eh_target tg = { .model = *m };
		bool v3a = eh_cap_detected(eh_cap_rules_find("6.1"), &tg, "ARM64_SPECTRE_V3A") &&
			   !eh_cap_detected(eh_cap_rules_find("6.1"), &tg, "ARM64_HAS_VIRT_HOST_EXTN");

		if (!eh_model_id_reg(*m, EH_CTR_EL0, &ctr)) {
			for (unsigned k = 0; k < 4; k++) {
				unsigned piece = (unsigned)(ctr >> (16 * k)) & 0xffff;

				if (piece < 10)
					snprintf(t[k], sizeof(t[k]), "%s x5, #%u", k ? "movk" : "movz", piece);
				else
					snprintf(t[k], sizeof(t[k]), "%s x5, #0x%x", k ? "movk" : "movz", piece);
				if (k)
					snprintf(t[k] + strlen(t[k]), sizeof(t[k]) - strlen(t[k]), ", lsl #%u", 16 * k);
				text[k] = t[k];
			}
			check_cb_row("kvm_compute_final_ctr_el0", "final_ctr", (*m)->name, EH_ALT_CB_PATCHED, text);
		} else {
			check_cb_row("kvm_compute_final_ctr_el0", "final_ctr", (*m)->name, EH_ALT_CB_UNCERTAIN, text);
		}
		/* Each check with its own words: the CTR_EL0 ones above are not theirs. */
		memset(text, 0, sizeof(text));
		text[0] = eh_cap_detected(eh_cap_rules_find("6.1"), &tg, "ARM64_SSBS") ? NULL : "nop";
		check_cb_row("spectre_v4_patch_fw_mitigation_enable", "ssbd", (*m)->name,
			     text[0] ? EH_ALT_CB_PATCHED : EH_ALT_CB_KEPT, text);
		text[0] = NULL;
		if (!v3a)
			check_cb_row("kvm_patch_vector_branch", "vector_branch", (*m)->name, EH_ALT_CB_KEPT, text);
		/* Under VHE (booted at EL2, the default) hyp VAs are kernel VAs: five NOPs. */
		if (eh_cap_detected(eh_cap_rules_find("6.1"), &tg, "ARM64_HAS_VIRT_HOST_EXTN")) {
			static const char *const nops[5] = { "nop", "nop", "nop", "nop", "nop" };

			check_cb_row("kvm_update_va_mask under VHE", "va_mask", (*m)->name, EH_ALT_CB_PATCHED, nops);
		}
	}
}

/*
 * An image is the ELF but for its patches: each one a word that differs from the
 * ELF's, in address order, inside an applied site; every other word of every
 * section reads as the ELF's (eh_image_word and eh_image_copy_section agree), and an
 * image made from sites parsed and planned once (eh_image_new_planned) is the same image,
 * sharing them.
 */
static void check_patches(const char *model)
{
	unsigned char *obj;
	struct eh_elf *cb;
	struct eh_image *img = callbacks_image(model, &cb, &obj), *again;
	const struct eh_cpucaps *caps = eh_cpucaps_builtin("6.1");
	struct eh_alt_site *sites;
	struct eh_image_plan *plan;
	struct eh_error err = { 0 };
	size_t i, n, applied = 0;

	for (i = 0; i < img->npatches; i++) {
		uint32_t file;
		const struct eh_alt_site *s = NULL;
		size_t k;

		assert_int_equal(eh_elf_word(cb, eh_image_patch_addr(img, i), &file), 0);
		if (file == img->patches[i].word || (i && eh_image_patch_addr(img, i - 1) >= eh_image_patch_addr(img, i)))
			fail_msg("%s: patch %zu at 0x%llx is the file's word or out of order", model, i,
				 (unsigned long long)eh_image_patch_addr(img, i));
		for (k = 0; k < img->nsites && !s; k++)
			if (eh_image_patch_addr(img, i) - img->sites[k].orig < img->sites[k].orig_len)
				s = &img->sites[k];
		if (!s || !eh_image_outcome(img, s).applied)
			fail_msg("%s: patch %zu is in no applied site", model, i);
	}
	for (i = 0; i < cb->nsections; i++) {
		const struct eh_elf_section *sec = &cb->sections[i];
		unsigned char *copy = sec->size ? malloc(sec->size) : NULL;
		uint64_t off;

		if (!copy || !eh_image_copy_section(img, sec, copy)) {
			free(copy);
			continue;
		}
		for (off = 0; off + 4 <= sec->size; off += 4) {
			uint32_t w;

			assert_int_equal(eh_image_word(img, sec->addr + off, &w), 0);
			assert_int_equal(w, eh_insn_word(copy + off));
		}
		free(copy);
	}
	assert_int_equal(eh_alt_parse(&sites, &n, cb, caps, &err), 0);
	assert_int_equal(eh_image_plan_new(&plan, cb, caps, sites, n, &err), 0);
	if (eh_image_new_planned(&again, cb, plan, &img->target, &err))
		fail_msg("%s: %s", model, err.msg);
	assert_int_equal(again->npatches, img->npatches);
	for (i = 0; i < img->npatches; i++) {
		assert_int_equal(eh_image_patch_addr(again, i), eh_image_patch_addr(img, i));
		assert_int_equal(again->patches[i].word, img->patches[i].word);
	}
	/* The parse's sites are shared, not copied: the image keeps only what it made of them. */
	assert_ptr_equal(again->sites, sites);
	for (i = 0; i < n; i++) {
		struct eh_alt_outcome x = eh_image_outcome(again, &again->sites[i]), y = eh_image_outcome(img, &img->sites[i]);

		assert_int_equal(x.applied, y.applied);
		assert_int_equal(x.cb_result, y.cb_result);
		assert_int_equal(x.state, y.state);
		applied += y.applied;
	}
	if (!applied || !img->npatches)
		fail_msg("%s: nothing patched, the check proves nothing", model);
	eh_image_free(again);
	eh_image_plan_free(plan);
	eh_free(sites);
	eh_image_free(img);
	eh_elf_free(cb);
	free(obj);
}

static void test_patches_are_the_changed_words(void **state)
{
	(void)state;
	check_patches("thunderx2");
	check_patches("cortex-a72");
}

/*
 * eh_image_same_outcomes, over callbacks.o's images for every pair of models from one plan,
 * against the site-by-site comparison it stands for: whether each site applied, and what its
 * callback did, in both.
 */
static void test_same_outcomes(void **state)
{
	const struct eh_cpucaps *caps = eh_cpucaps_builtin("6.1");
	struct eh_image *img[64] = { NULL };
	struct eh_alt_site *sites;
	struct eh_image_plan *plan;
	struct eh_error err = { 0 };
	unsigned char *obj;
	struct eh_elf *cb;
	size_t n, i, j, k, nimg = 0, differ = 0;
	char path[4096];

	(void)state;
	obj = test_object_load("callbacks", &n, path, sizeof(path));
	assert_non_null(obj);
	assert_int_equal(eh_elf_parse(&cb, path, obj, n, &err), 0);
	assert_int_equal(eh_alt_parse(&sites, &n, cb, caps, &err), 0);
	assert_int_equal(eh_image_plan_new(&plan, cb, caps, sites, n, &err), 0);
	for (; eh_models[nimg] && nimg < 64; nimg++)
		if (eh_image_new_planned(&img[nimg], cb, plan, &(struct eh_target){ .model = eh_models[nimg] }, &err))
			fail_msg("%s: %s", eh_models[nimg]->name, err.msg);
	for (i = 0; i < nimg; i++)
		for (j = 0; j < nimg; j++) {
			bool same = true;

			for (k = 0; k < n && same; k++) {
				struct eh_alt_outcome x = eh_image_outcome(img[i], &sites[k]);
				struct eh_alt_outcome y = eh_image_outcome(img[j], &sites[k]);

				same = x.applied == y.applied && x.cb_result == y.cb_result;
			}
			if (eh_image_same_outcomes(img[i], img[j]) != same)
				fail_msg("%s and %s: eh_image_same_outcomes says %d, their sites %d", eh_models[i]->name,
					 eh_models[j]->name, !same, same);
			differ += !same;
		}
	/* The models disagree on some sites, or the check proves nothing. */
	assert_true(differ > 0);
	for (i = 0; i < nimg; i++)
		eh_image_free(img[i]);
	eh_image_plan_free(plan);
	eh_free(sites);
	eh_elf_free(cb);
	free(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixup_rows),
		cmocka_unit_test(test_callback_rows),
		cmocka_unit_test(test_callbacks_follow_the_model),
		cmocka_unit_test(test_same_outcomes),
		cmocka_unit_test(test_parse_snippet_table),
		cmocka_unit_test(test_apply_per_model),
		cmocka_unit_test(test_kconfig_off_keeps_prfm),
		cmocka_unit_test(test_patches_are_the_changed_words),
	};

	return cmocka_run_group_tests(tests, load, unload);
}

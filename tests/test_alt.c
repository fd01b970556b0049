/* Alternatives: the kernel's fix-up rules for moved instructions, and patching a real table per model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/image.h"
#include "eh/insn.h"

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
		assert_int_equal(img->sites[0].applied, r->prfm_site == 0xd503201f);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixup_rows),
		cmocka_unit_test(test_parse_snippet_table),
		cmocka_unit_test(test_apply_per_model),
		cmocka_unit_test(test_kconfig_off_keeps_prfm),
	};

	return cmocka_run_group_tests(tests, load, unload);
}

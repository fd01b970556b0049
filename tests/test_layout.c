/* Tests the placement of relocatable objects: section addresses, absolute symbols, applied and named relocations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "eh/alt.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/insn.h"
#include "test_objects.h"

static struct eh_elf *load_rel61(void)
{
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("rel61", &len, path, sizeof(path));
	struct eh_elf *elf = NULL;
	struct eh_error err = { 0 };

	assert_non_null(buf);
	if (eh_elf_parse(&elf, path, buf, len, &err))
		fail_msg("%s", err.msg);
	free(buf);
	return elf;
}

static uint64_t sym(const struct eh_elf *elf, const char *name)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(elf, name);

	if (!s)
		fail_msg("no symbol %s", name);
	return s->value;
}

static uint32_t word(const struct eh_elf *elf, uint64_t addr)
{
	uint32_t w = 0;

	if (eh_elf_word(elf, addr, &w))
		fail_msg("no word at 0x%llx", (unsigned long long)addr);
	return w;
}

static uint64_t quad(const struct eh_elf *elf, uint64_t addr)
{
	return word(elf, addr) | (uint64_t)word(elf, addr + 4) << 32;
}

/* Every allocated section gets its own page-aligned range above EH_ELF_PLACE_BASE. */
static void test_sections_placed(void **state)
{
	struct eh_elf *elf = load_rel61();
	size_t i, j;

	(void)state;
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *a = &elf->sections[i];

		if (!(a->flags & SHF_ALLOC))
			continue;
		if (a->addr < EH_ELF_PLACE_BASE || a->addr % 4096)
			fail_msg("%s placed at 0x%llx", a->name, (unsigned long long)a->addr);
		for (j = i + 1; j < elf->nsections; j++) {
			const struct eh_elf_section *b = &elf->sections[j];

			if (b->flags & SHF_ALLOC && a->addr < b->addr + b->size && b->addr < a->addr + a->size)
				fail_msg("%s and %s overlap", a->name, b->name);
		}
	}
	assert_int_equal(sym(elf, "win_isb"), eh_elf_section_by_name(elf, ".text")->addr);
	assert_int_equal(sym(elf, "far_away"), eh_elf_section_by_name(elf, ".text.other")->addr);
	assert_int_equal(sym(elf, "win_prfm") - sym(elf, "win_isb"), 0x10);  /* 4 instructions */
	eh_elf_free(elf);
}

/* The relocations the object carries, worked out from the AArch64 ELF ABI by hand. */
static void test_relocations_applied(void **state)
{
	struct eh_elf *elf = load_rel61();
	uint64_t b = sym(elf, "win_cross") + 4, far = sym(elf, "far_away");
	uint32_t w = word(elf, b);
	int64_t imm26 = (int64_t)((uint64_t)(w & 0x03ffffff) << 38) >> 36;  /* sign-extended, x4 */
	uint32_t ldr = word(elf, sym(elf, "win_prfm") + 4);
	int64_t imm19 = (int64_t)((uint64_t)((ldr >> 5) & 0x7ffff) << 45) >> 43;
	uint64_t literal = sym(elf, "win_prfm") + 4 + (uint64_t)imm19;

	(void)state;
	/* R_AARCH64_JUMP26: B with (S + A - P) / 4 in imm26. */
	assert_int_equal(w & 0xfc000000, 0x14000000);
	assert_int_equal(b + (uint64_t)imm26, far);
	/* The literal load was resolved by the assembler; its pool slot holds R_AARCH64_ABS64 vectors_ptr. */
	assert_int_equal(quad(elf, literal), sym(elf, "vectors_ptr"));
	/* .rodata: vectors_ptr holds ABS64 win_isb. */
	assert_int_equal(quad(elf, sym(elf, "vectors_ptr")), sym(elf, "win_isb"));
	eh_elf_free(elf);
}

/* How a relocated field of `relocs` in rel61.S must read, from the ABI's definition of each type. */
enum field_kind {
	TARGET,       /* branch, ADR or literal: the decoder's target is S */
	PAGE,         /* ADRP: the page of S */
	LO12,         /* imm12 << scale is the low 12 bits of S */
	MOVW,         /* imm16 is bits [shift + 15 : shift] of S */
};

struct field_row {
	const char *name;
	unsigned off;             /* from relocs */
	enum field_kind kind;
	const char *symbol;       /* S */
	unsigned scale_or_shift;
};

static const struct field_row field_rows[] = {
	{ "ADR_PREL_PG_HI21", 0x00, PAGE, "vectors_ptr", 0 },
	{ "ADD_ABS_LO12_NC", 0x04, LO12, "vectors_ptr", 0 },
	{ "LDST64_ABS_LO12_NC", 0x08, LO12, "vectors_ptr", 3 },
	{ "MOVW_UABS_G3", 0x0c, MOVW, "vectors_ptr", 48 },
	{ "MOVW_UABS_G2_NC", 0x10, MOVW, "vectors_ptr", 32 },
	{ "MOVW_UABS_G1_NC", 0x14, MOVW, "vectors_ptr", 16 },
	{ "MOVW_UABS_G0_NC", 0x18, MOVW, "vectors_ptr", 0 },
	{ "ADR_PREL_LO21", 0x1c, TARGET, "win_isb", 0 },
	{ "TSTBR14", 0x20, TARGET, "win_isb", 0 },
	{ "CONDBR19", 0x24, TARGET, "win_isb", 0 },
	{ "CALL26", 0x28, TARGET, "win_isb", 0 },
	{ "LD_PREL_LO19", 0x2c, TARGET, "vectors_ptr", 0 },
	{ 0 },
};

static void test_code_relocations(void **state)
{
	struct eh_elf *elf = load_rel61();
	struct eh_decoder *dec = NULL;
	struct eh_error err = { 0 };
	const struct field_row *r;

	(void)state;
	if (eh_decoder_new(&dec, &err))
		fail_msg("%s", err.msg);
	for (r = field_rows; r->name; r++) {
		uint64_t at = sym(elf, "relocs") + r->off, s = sym(elf, r->symbol), got, want;
		struct eh_insn in;

		eh_decoder_decode(dec, at, word(elf, at), &in);
		switch (r->kind) {
		case TARGET: got = in.target; want = s; break;
		case PAGE: got = in.target; want = s & ~0xfffull; break;
		case LO12: got = ((in.word >> 10) & 0xfff) << r->scale_or_shift; want = s & 0xfff; break;
		default: got = (in.word >> 5) & 0xffff; want = (s >> r->scale_or_shift) & 0xffff; break;
		}
		if (got != want)
			fail_msg("%s: %s reads 0x%llx, expected 0x%llx", r->name, in.text,
				 (unsigned long long)got, (unsigned long long)want);
	}
	eh_decoder_free(dec);
	eh_elf_free(elf);
}

/* A relocation against a symbol the object does not define is left alone and named. */
static void test_externs_named(void **state)
{
	struct eh_elf *elf = load_rel61();
	const struct eh_elf_extern *x = eh_elf_extern_at(elf, sym(elf, "win_extern") + 4);

	(void)state;
	assert_non_null(x);
	assert_string_equal(x->symbol, "external_fn");
	assert_int_equal(x->type, R_AARCH64_JUMP26);
	assert_int_equal(word(elf, sym(elf, "win_extern") + 4), 0x14000000);
	assert_null(eh_elf_extern_at(elf, sym(elf, "win_cross") + 4));
	eh_elf_free(elf);
}

/* .rela.altinstructions resolved: each site names its original and replacement. */
static void test_alternatives_resolved(void **state)
{
	struct eh_elf *elf = load_rel61();
	const struct eh_cpucaps *caps = eh_cpucaps_builtin("6.1");
	const struct eh_elf_section *repl = eh_elf_section_by_name(elf, ".altinstr_replacement");
	struct eh_alt_site *sites = NULL;
	struct eh_error err = { 0 };
	size_t n = 0;

	(void)state;
	if (eh_alt_parse(&sites, &n, elf, caps, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(n, 3);
	/* alternative_if_not PRFM: the prfm, replaced by a NOP in .altinstr_replacement. */
	assert_int_equal(sites[0].orig, sym(elf, "prfm_site"));
	assert_int_equal(sites[0].repl, repl->addr);
	assert_int_equal(sites[0].cap, 74);
	assert_string_equal(sites[0].cap_name, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM");
	assert_false(sites[0].callback);
	/* The 6.x subsection-1 replacement: after the code and its literal pool in .text. */
	assert_int_equal(sites[1].orig, sym(elf, "win_patched_in"));
	assert_int_equal(word(elf, sites[1].repl), 0xd5182003);  /* msr ttbr0_el1, x3 */
	/* ARM64_ALWAYS_SYSTEM | ARM64_CB_BIT, calling a function of another object. */
	assert_int_equal(sites[2].orig, sym(elf, "cb_site"));
	assert_true(sites[2].callback);
	assert_int_equal(sites[2].cap, 1);
	assert_string_equal(sites[2].cap_name, "ARM64_ALWAYS_SYSTEM");
	assert_string_equal(sites[2].cb_name, "my_patch_cb");
	eh_free(sites);
	eh_elf_free(elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections_placed),
		cmocka_unit_test(test_relocations_applied),
		cmocka_unit_test(test_code_relocations),
		cmocka_unit_test(test_externs_named),
		cmocka_unit_test(test_alternatives_resolved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Instruction classification: every kind the erratum model and the audit rely on, by encoding. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/insn.h"
#include "eh/sysreg.h"

#define PC 0xffff800008010000ull

struct row {
	const char *name;     /* the instruction as an assembler writes it */
	uint32_t word;        /* its encoding (llvm-mc -triple=aarch64) */
	uint32_t flags;       /* what the Arm ARM says it is */
	uint64_t target;      /* branch / literal / ADR(P) target when placed at PC, else 0 */
	uint32_t sysreg;
};

static const struct row rows[] = {
	{ "ldr x0, [x1]", 0xf9400020, EH_INSN_LOAD },
	{ "ldr x30, #64 (literal)", 0x5800021e, EH_INSN_LOAD | EH_INSN_LITERAL, PC + 64 },
	{ "ldrsw x2, #64 (literal)", 0x98000202, EH_INSN_LOAD | EH_INSN_LITERAL, PC + 64 },
	{ "stur x1, [sp, #-8]", 0xf81f83e1, EH_INSN_STORE },
	{ "ldp x0, x1, [x2]", 0xa9400440, EH_INSN_LOAD },
	{ "stp x29, x30, [sp, #-16]!", 0xa9bf7bfd, EH_INSN_STORE },
	{ "ldxr x0, [x1]", 0xc85f7c20, EH_INSN_LOAD },
	{ "stlr x0, [x1]", 0xc89ffc20, EH_INSN_STORE },
	{ "ldadd x0, x1, [x2]", 0xf8200041, EH_INSN_LOAD | EH_INSN_STORE },
	{ "swp x0, x1, [x2]", 0xf8208041, EH_INSN_LOAD | EH_INSN_STORE },
	{ "cas x0, x1, [x2]", 0xc8a07c41, EH_INSN_LOAD | EH_INSN_STORE },
	{ "prfm plil1strm, [x30, #1024]", 0xf98203c9, EH_INSN_PREFETCH },
	{ "prfm pldl1keep, #64 (literal)", 0xd8000200, EH_INSN_PREFETCH | EH_INSN_LITERAL, PC + 64 },
	{ "prfm pldl1keep, [x0, x1, lsl #3]", 0xf8a17800, EH_INSN_PREFETCH },
	{ "prfum pldl1keep, [x0, #-1]", 0xf89ff000, EH_INSN_PREFETCH },
	{ "isb", 0xd5033fdf, EH_INSN_ISB },
	{ "eret", 0xd69f03e0, EH_INSN_ERET | EH_INSN_BRANCH | EH_INSN_INDIRECT },
	{ "msr ttbr0_el1, x1", 0xd5182001, EH_INSN_MSR | EH_INSN_TTBR_WRITE, 0, EH_TTBR0_EL1 },
	{ "msr ttbr1_el1, x30", 0xd518203e, EH_INSN_MSR | EH_INSN_TTBR_WRITE, 0, EH_TTBR1_EL1 },
	{ "msr ttbr0_el12, x0", 0xd51d2000, EH_INSN_MSR | EH_INSN_TTBR_WRITE, 0, EH_TTBR0_EL12 },
	{ "msr ttbr1_el12, x5", 0xd51d2025, EH_INSN_MSR | EH_INSN_TTBR_WRITE, 0, EH_TTBR1_EL12 },
	{ "msr ttbr0_el2, x2 (not an EL1&0 regime register)", 0xd51c2002, EH_INSN_MSR, 0, EH_SYSREG(3, 4, 2, 0, 0) },
	{ "msr vbar_el1, x0", 0xd518c000, EH_INSN_MSR, 0, EH_VBAR_EL1 },
	{ "mrs x0, midr_el1", 0xd5380000, EH_INSN_MRS, 0, EH_MIDR_EL1 },
	{ "msr hcr_el2, x0", 0xd51c1100, EH_INSN_MSR, 0, EH_HCR_EL2 },
	{ "nop", 0xd503201f, EH_INSN_NOP },
	{ "svc #0", 0xd4000001, EH_INSN_EXC_GEN },
	{ "hvc #0", 0xd4000002, EH_INSN_EXC_GEN },
	{ "brk #1", 0xd4200020, EH_INSN_EXC_GEN },
	{ "b #64", 0x14000010, EH_INSN_BRANCH, PC + 64 },
	{ "bl #64", 0x94000010, EH_INSN_BRANCH | EH_INSN_CALL, PC + 64 },
	{ "b.ne #64", 0x54000201, EH_INSN_BRANCH | EH_INSN_COND, PC + 64 },
	{ "cbz x0, #64", 0xb4000200, EH_INSN_BRANCH | EH_INSN_COND, PC + 64 },
	{ "tbz w0, #3, #64", 0x36180200, EH_INSN_BRANCH | EH_INSN_COND, PC + 64 },
	{ "ret", 0xd65f03c0, EH_INSN_BRANCH | EH_INSN_INDIRECT },
	{ "br x1", 0xd61f0020, EH_INSN_BRANCH | EH_INSN_INDIRECT },
	{ "blr x2", 0xd63f0040, EH_INSN_BRANCH | EH_INSN_INDIRECT | EH_INSN_CALL },
	{ "adrp x0, #4096", 0xb0000000, EH_INSN_ADRP, PC + 4096 },
	{ "adr x0, #64", 0x10000200, EH_INSN_ADR, PC + 64 },
	{ "add x0, x1, #4", 0x91001020, 0 },
	{ "dc civac, x0", 0xd50b7e20, EH_INSN_MAINT },
	{ "dc zva, x0", 0xd50b7420, EH_INSN_STORE },
	{ "ic ivau, x0", 0xd50b7520, EH_INSN_MAINT },
	{ "at s1e1r, x0", 0xd5087800, EH_INSN_TRANSLATE },
	{ "dc cisw, x0 (set/way: no address)", 0xd5087e40, 0 },
	{ "tlbi vae1, x1 (TLB maintenance, no access)", 0xd5088721, EH_INSN_TLBI },
	{ "tlbi vale1is, xzr", 0xd50883bf, EH_INSN_TLBI },
	{ "dsb ish", 0xd5033b9f, EH_INSN_DSB },
	{ "dsb nsh", 0xd503379f, EH_INSN_DSB },
	{ "dmb sy", 0xd5033fbf, EH_INSN_DMB },
	{ "isb (not a DSB or DMB)", 0xd5033fdf, EH_INSN_ISB },
	{ "ic iallu (no address)", 0xd508751f, 0 },
};

static struct eh_decoder *dec;

static int setup(void **state)
{
	(void)state;
	return eh_decoder_new(&dec, NULL);
}

static int teardown(void **state)
{
	(void)state;
	eh_decoder_free(dec);
	return 0;
}

static void test_classify_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct eh_insn in;

		eh_decoder_decode(dec, PC, r->word, &in);
		if (in.flags != r->flags)
			fail_msg("%s (0x%08x): flags 0x%x, expected 0x%x (text '%s')", r->name, r->word,
				 in.flags, r->flags, in.text);
		if (r->target && in.target != r->target)
			fail_msg("%s: target 0x%llx, expected 0x%llx", r->name,
				 (unsigned long long)in.target, (unsigned long long)r->target);
		if (r->sysreg && in.sysreg != r->sysreg)
			fail_msg("%s: sysreg 0x%x, expected 0x%x", r->name, in.sysreg, r->sysreg);
	}
}

/*
 * Accesses Capstone 4 cannot decode, classified and named by the harness from
 * the encoding. Words and text from GNU as and objdump 2.40
 * (-march=armv8.8-a+mops+ls64+memtag), not from the code under test.
 */
struct named_row {
	const char *text;
	uint32_t word;
	uint32_t flags;
};

static const struct named_row named_rows[] = {
	{ "ldadd w1, w2, [x3]", 0xb8210062, EH_INSN_LOAD | EH_INSN_STORE },
	{ "ldaddal x1, x2, [x3]", 0xf8e10062, EH_INSN_LOAD | EH_INSN_STORE },
	{ "stadd w1, [x3]", 0xb821007f, EH_INSN_LOAD | EH_INSN_STORE },
	{ "swp x1, x2, [x3]", 0xf8218062, EH_INSN_LOAD | EH_INSN_STORE },
	{ "swpab w1, w2, [x3]", 0x38a18062, EH_INSN_LOAD | EH_INSN_STORE },
	{ "cas x1, x2, [x3]", 0xc8a17c62, EH_INSN_LOAD | EH_INSN_STORE },
	{ "casp x0, x1, x2, x3, [x4]", 0x48207c82, EH_INSN_LOAD | EH_INSN_STORE },
	{ "caspal w0, w1, w2, w3, [x4]", 0x0860fc82, EH_INSN_LOAD | EH_INSN_STORE },
	{ "ldapr x1, [x2]", 0xf8bfc041, EH_INSN_LOAD },
	{ "ldaprb w1, [x2]", 0x38bfc041, EH_INSN_LOAD },
	{ "ldapur x1, [x2, #-8]", 0xd95f8041, EH_INSN_LOAD },
	{ "ldapur w1, [x2, #-256]", 0x99500041, EH_INSN_LOAD },
	{ "ldapursw x1, [x2, #4]", 0x99804041, EH_INSN_LOAD },
	{ "ldapursh x1, [x2, #2]", 0x59802041, EH_INSN_LOAD },
	{ "stlur x1, [x2, #8]", 0xd9008041, EH_INSN_STORE },
	{ "stlurh w1, [sp, #1]", 0x590013e1, EH_INSN_STORE },
	{ "st64b x0, [x1]", 0xf83f9020, EH_INSN_STORE },
	{ "st64bv x2, x4, [x1]", 0xf822b024, EH_INSN_STORE },
	{ "st64bv0 x2, x4, [x1]", 0xf822a024, EH_INSN_STORE },
	{ "ld64b x0, [x1]", 0xf83fd020, EH_INSN_LOAD },
	{ "stg x0, [x1, #32]", 0xd9202820, EH_INSN_STORE },
	{ "stg x0, [x1], #-16", 0xd93ff420, EH_INSN_STORE },
	{ "st2g x0, [x1, #16]!", 0xd9a01c20, EH_INSN_STORE },
	{ "stzgm x0, [x1]", 0xd9200020, EH_INSN_STORE },
	{ "ldg x2, [x3, #48]", 0xd9603062, EH_INSN_LOAD },
	{ "stgp x0, x1, [x2, #32]", 0x69010440, EH_INSN_STORE },
	{ "stgp x0, x1, [x2], #-32", 0x68bf0440, EH_INSN_STORE },
	{ "cpyfp [x0]!, [x1]!, x2!", 0x19010440, EH_INSN_LOAD | EH_INSN_STORE },
	{ "cpyfprn [x0]!, [x1]!, x2!", 0x19018440, EH_INSN_LOAD | EH_INSN_STORE },
	{ "cpyp [x0]!, [x1]!, x2!", 0x1d010440, EH_INSN_LOAD | EH_INSN_STORE },
	{ "cpyptwn [x0]!, [x1]!, x2!", 0x1d017440, EH_INSN_LOAD | EH_INSN_STORE },
	{ "setp [x0]!, x1!, x2", 0x19c20420, EH_INSN_STORE },
	{ "sete [x0]!, x1!, x2", 0x19c28420, EH_INSN_STORE },
	{ "setgmtn [x0]!, x1!, x2", 0x1dc27420, EH_INSN_STORE },
};

static void test_named_by_encoding(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(named_rows) / sizeof(named_rows[0]); i++) {
		const struct named_row *r = &named_rows[i];
		struct eh_insn in;

		eh_decoder_decode(dec, PC, r->word, &in);
		if (in.flags != r->flags || strcmp(in.text, r->text))
			fail_msg("0x%08x: '%s' flags 0x%x, expected '%s' flags 0x%x", r->word, in.text, in.flags,
				 r->text, r->flags);
	}
}

static void test_capstone_text(void **state)
{
	struct eh_insn in;

	(void)state;
	eh_decoder_decode(dec, PC, 0xf98203c9, &in);
	assert_string_equal(in.text, "prfm plil1strm, [x30, #0x400]");
	eh_decoder_decode(dec, PC, 0xd518203e, &in);
	assert_string_equal(in.text, "msr ttbr1_el1, x30");
	eh_decoder_decode(dec, PC, 0x00000000, &in);  /* UDF #0 is not an instruction to Capstone 4 */
	assert_true(in.flags & EH_INSN_INVALID);
}

/* The cache answers by address and notices when the code at an address changed. */
static void test_cache_by_address(void **state)
{
	const struct eh_insn *a, *b, *c;

	(void)state;
	a = eh_decoder_get(dec, PC, 0xd5033fdf);
	b = eh_decoder_get(dec, PC, 0xd5033fdf);
	assert_ptr_equal(a, b);
	assert_true(b->flags & EH_INSN_ISB);
	c = eh_decoder_get(dec, PC, 0xd503201f);  /* patched to a NOP */
	assert_true(c->flags & EH_INSN_NOP);
	for (uint64_t i = 1; i < 5000; i++)  /* grows past its first size */
		assert_non_null(eh_decoder_get(dec, PC + 4 * i, 0xd503201f));
	/* What the engine holds across growth is still the same, valid entry. */
	assert_ptr_equal(eh_decoder_get(dec, PC, 0xd503201f), c);
	assert_int_equal(c->addr, PC);
	assert_true(eh_decoder_get(dec, PC + 4, 0xd503201f)->flags & EH_INSN_NOP);
}

/* Whether a and b are the same decoding, field by field. */
static bool same_insn(const struct eh_insn *a, const struct eh_insn *b)
{
	return a->addr == b->addr && a->word == b->word && a->flags == b->flags && a->sysreg == b->sysreg &&
	       a->rt == b->rt && a->target == b->target && !strcmp(a->text, b->text);
}

/*
 * The word cache names a word once for every address: for words of every encoding class
 * (splitmix64's, fixed seed, none twice), a decoder that named the word at PC first answers
 * at another address exactly as a decoder that never saw the word does there. Fails if a word
 * whose text carries its address (a branch, ADR(P), a literal load) were named from the cache.
 */
static void test_cache_by_word(void **state)
{
	struct eh_decoder *fresh;
	struct eh_error err = { 0 };
	struct eh_insn at_pc, cached, named;
	uint64_t x = 1;
	unsigned i, pc_relative = 0;

	(void)state;
	assert_int_equal(eh_decoder_new(&fresh, &err), 0);
	for (i = 0; i < 8192; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);
		uint32_t w;
		const uint64_t there = PC + 0x123450 + 4 * i;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		w = (uint32_t)(z ^ (z >> 31));
		eh_decoder_decode(dec, PC, w, &at_pc);
		eh_decoder_decode(dec, there, w, &cached);
		eh_decoder_decode(fresh, there, w, &named);
		if (!same_insn(&cached, &named))
			fail_msg("0x%08x at 0x%016llx: '%s' from the cache, '%s' named there", w,
				 (unsigned long long)there, cached.text, named.text);
		pc_relative += strcmp(at_pc.text, named.text) != 0;
	}
	eh_decoder_free(fresh);
	/* The words cover the classes whose text differs by address. */
	assert_true(pc_relative > 1000);
}

static uint64_t regs(void *ctx, unsigned n)
{
	(void)ctx;
	return n == 30 ? 0x1000 : n == 0 ? 0x2000 : n == 1 ? 3 : 0;
}

/* PRFM makes no memory access, so the address comes from the encoding (Arm ARM C6.2.247..250). */
static void test_prefetch_address(void **state)
{
	struct eh_insn in;

	(void)state;
	eh_decoder_decode(dec, PC, 0xf98203c9, &in);
	assert_int_equal(eh_insn_prefetch_addr(&in, regs, NULL), 0x1000 + 1024);
	eh_decoder_decode(dec, PC, 0xd8000200, &in);
	assert_int_equal(eh_insn_prefetch_addr(&in, regs, NULL), PC + 64);
	eh_decoder_decode(dec, PC, 0xf8a17800, &in);
	assert_int_equal(eh_insn_prefetch_addr(&in, regs, NULL), 0x2000 + (3 << 3));
	eh_decoder_decode(dec, PC, 0xf89ff000, &in);
	assert_int_equal(eh_insn_prefetch_addr(&in, regs, NULL), 0x2000 - 1);
}

struct unsafe_row {
	const char *name;
	uint32_t word;
	bool unsafe;
};

/* Each unsafe word aborted Unicorn 2.0.1 in a probe; the safe ones are their nearest neighbours. */
static const struct unsafe_row unsafe_rows[] = {
	{ "fp16 three-same, fpop 0xb (vector)", 0x0ec31c22, true },
	{ "fp16 three-same, fpop 0x5 (vector, Q=1)", 0x4e432c22, true },
	{ "fadd v0.4h, v1.4h, v2.4h (allocated FP16)", 0x0e421420, false },
	{ "frecpe v0.4h, v1.4h (allocated FP16)", 0x0ef9d820, false },
	{ "fp16 two-reg misc (vector)", 0x0e780822, true },
	{ "fp16 two-reg misc (scalar)", 0x7ef9c822, true },
	{ "msr apiakeylo_el1, x1", 0xd5182101, true },
	{ "mrs x1, apgakeyhi_el1", 0xd5382321, true },
	{ "msr ttbr0_el1, x1 (CRm 0)", 0xd5182001, false },
	{ "mrs x1, S3_0_C2_C4_0", 0xd5382401, false },
	{ "fadd v2.4s, v1.4s, v3.4s", 0x4e23d422, false },
	{ "nop", 0xd503201f, false },
};

static void test_emulator_unsafe_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(unsafe_rows) / sizeof(unsafe_rows[0]); i++)
		if (eh_insn_emulator_unsafe(unsafe_rows[i].word) != unsafe_rows[i].unsafe)
			fail_msg("%s (0x%08x): expected %s", unsafe_rows[i].name, unsafe_rows[i].word,
				 unsafe_rows[i].unsafe ? "unsafe" : "safe");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_rows),
		cmocka_unit_test(test_capstone_text),
		cmocka_unit_test(test_named_by_encoding),
		cmocka_unit_test(test_cache_by_address),
		cmocka_unit_test(test_cache_by_word),
		cmocka_unit_test(test_prefetch_address),
		cmocka_unit_test(test_emulator_unsafe_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

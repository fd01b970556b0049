/* The instruction-sequence predicates of Cortex-A53 errata 843419 and 835769, row by row against the errata notice's conditions. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../harness/errata/a53-835769/arm_cortex_a53_835769.h"
#include "../harness/errata/a53-843419/arm_cortex_a53_843419.h"
#include "reports/rows.h"

#define PC 0xffff800008010ff8ull

/* Encodings from llvm-mc -triple=aarch64 -show-encoding, not from the code under test. */
#define ADRP_X0 0x90000000u            /* adrp x0, #0 */
#define LDR_X1_X1 0xf9400021u          /* ldr x1, [x1] */
#define LDR_X2_X0 0xf9400002u          /* ldr x2, [x0] */
#define ADD_X3 0x91000463u             /* add x3, x3, #1 */
#define MADD 0x9b041460u               /* madd x0, x3, x4, x5 */
#define LDR_X1_X2 0xf9400041u          /* ldr x1, [x2] */

/* Erratum 843419: the words from the ADRP on (3 or 4 of them) and whether they are sequence 1. */
struct seq_row {
	const char *name;
	uint32_t w[4];
	unsigned n;
	bool hit;
};

static const struct seq_row seq_rows[] = {
	{ "adrp x0; ldr x1, [x1]; ldr x0, [x0, #8]", { ADRP_X0, LDR_X1_X1, 0xf9400400u }, 3, true },
	{ "adrp x0; ldr s1, [x1]; ldr x2, [x0]", { ADRP_X0, 0xbd400021u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; ldr q0, [x1] (q0 is not x0); ldr x2, [x0]", { ADRP_X0, 0x3dc00020u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; str x1, [x2], #8; ldr x0, [x0]", { ADRP_X0, 0xf8008441u, 0xf9400000u }, 3, true },
	{ "adrp x0; stp x1, x2, [x3]; str x4, [x0, #16]", { ADRP_X0, 0xa9000861u, 0xf9000804u }, 3, true },
	{ "adrp x0; stnp x1, x2, [x3]; ldr x2, [x0]", { ADRP_X0, 0xa8000861u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; st1 {v0.16b}, [x1]; ldr x2, [x0]", { ADRP_X0, 0x4c007020u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; st1 {v0.s}[1], [x1], #4; ldr x2, [x0]", { ADRP_X0, 0x0d9f9020u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; ldxr x1, [x2]; ldr x2, [x0]", { ADRP_X0, 0xc85f7c41u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; ldr x1, .+64 (literal); ldr x2, [x0]", { ADRP_X0, 0x58000201u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; prfm pldl1keep, [x1]; ldr x2, [x0]", { ADRP_X0, 0xf9800020u, LDR_X2_X0 }, 3, true },
	{ "adrp x0; ldr x1, [x1]; prfm pldl1keep, [x0, #8]", { ADRP_X0, LDR_X1_X1, 0xf9800400u }, 3, true },
	{ "adrp x0; strb w1, [x2]; strb w3, [x0, #1]", { ADRP_X0, 0x39000041u, 0x39000403u }, 3, true },
	{ "adrp x0; ldr x1, [x1]; add x3, x3, #1; ldr x2, [x0]", { ADRP_X0, LDR_X1_X1, ADD_X3, LDR_X2_X0 }, 4, true },
	/* The notice rules out an instruction 3 that writes Rn; the linkers do not, nor does the rule. */
	{ "adrp x0; ldr x1, [x1]; add x0, x0, #1; ldr x2, [x0]",
	  { ADRP_X0, LDR_X1_X1, 0x91000400u, LDR_X2_X0 }, 4, true },
	{ "adrp x0; ldr x0, [x1] (writes Rn); ldr x2, [x0]", { ADRP_X0, 0xf9400020u, LDR_X2_X0 }, 3, false },
	{ "adrp x0; ldr x1, [x0, #8]! (writes Rn back); ldr x2, [x0]", { ADRP_X0, 0xf8408c01u, LDR_X2_X0 }, 3,
	  false },
	{ "adrp x0; stxr w0, x1, [x2] (status in Rn); ldr x3, [x0]", { ADRP_X0, 0xc8007c41u, 0xf9400003u }, 3,
	  false },
	{ "adrp x0; ldp x1, x2, [x3] (a load pair); ldr x4, [x0]", { ADRP_X0, 0xa9400861u, 0xf9400004u }, 3,
	  false },
	{ "adrp x0; st2 {v0.4s, v1.4s}, [x1] (not ST1); ldr x2, [x0]", { ADRP_X0, 0x4c008820u, LDR_X2_X0 }, 3,
	  false },
	{ "adrp x0; add x1, x1, #1 (no access); ldr x2, [x0]", { ADRP_X0, 0x91000421u, LDR_X2_X0 }, 3, false },
	{ "adrp x0; ldr x1, [x1]; ldr x2, [x0, x3] (register offset)", { ADRP_X0, LDR_X1_X1, 0xf8636802u }, 3,
	  false },
	{ "adrp x0; ldr x1, [x1]; ldur x2, [x0, #8] (unscaled)", { ADRP_X0, LDR_X1_X1, 0xf8408002u }, 3, false },
	{ "adrp x0; ldr x1, [x1]; ldr x2, [x3] (another base)", { ADRP_X0, LDR_X1_X1, 0xf9400062u }, 3, false },
	{ "adrp x0; ldr x1, [x1]; b .+8; ldr x2, [x0]", { ADRP_X0, LDR_X1_X1, 0x14000002u, LDR_X2_X0 }, 4, false },
	{ "add x0, x0, #1 (no ADRP); ldr x1, [x1]; ldr x2, [x0]", { 0x91000400u, LDR_X1_X1, LDR_X2_X0 }, 3, false },
};

static void run_seq_row(void **state)
{
	const struct seq_row *r = *state;

	if (eh_a53_843419_sequence(r->w, r->n) != r->hit)
		fail_msg("%s: %s, expected %s", r->name, r->hit ? "not sequence 1" : "sequence 1",
			 r->hit ? "sequence 1" : "not");
}

/* Erratum 835769: the instruction before the multiply-accumulate, and whether the pair is the erratum's. */
struct pair_row {
	const char *name;
	uint32_t mem, mac;
	bool hit;
};

static const struct pair_row pair_rows[] = {
	{ "ldr x1, [x2]; madd x0, x3, x4, x5", LDR_X1_X2, MADD, true },
	{ "str x1, [x2]; madd x0, x3, x4, x5", 0xf9000041u, MADD, true },
	{ "str x1, [sp, #8]; madd x0, x3, x4, x5", 0xf90007e1u, MADD, true },
	{ "prfm pldl1keep, [x2]; madd x0, x3, x4, x5", 0xf9800040u, MADD, true },
	{ "ldr x1, [x2]; msub x0, x3, x4, x5", LDR_X1_X2, 0x9b049460u, true },
	{ "ldr x1, [x2]; smaddl x0, w3, w4, x5", LDR_X1_X2, 0x9b241460u, true },
	{ "ldr x1, [x2]; umsubl x0, w3, w4, x5", LDR_X1_X2, 0x9ba49460u, true },
	{ "ldr d1, [x2] (SIMD&FP); madd x0, x1, x4, x5", 0xfd400041u, 0x9b041420u, true },
	{ "dc zva, x2 (a store); madd x0, x3, x4, x5", 0xd50b7422u, MADD, true },
	{ "str x1, [x2], #8; madd x0, x2, x4, x5 (the written-back base)", 0xf8008441u, 0x9b041440u, true },
	{ "ldr x1, [x2], #8; madd x0, x2, x3, x4 (the written-back base)", 0xf8408441u, 0x9b031040u, true },
	{ "ldr x1, [x2]; madd x0, x1, x4, x5 (Rn loaded)", LDR_X1_X2, 0x9b041420u, false },
	{ "ldr x5, [x2]; madd x0, x3, x4, x5 (Ra loaded)", 0xf9400045u, MADD, false },
	{ "ldp x1, x6, [x2]; madd x0, x3, x6, x5 (Rm loaded second)", 0xa9401841u, 0x9b061460u, false },
	{ "ldr w1, [x2]; smaddl x0, w1, w4, x5 (Wn loaded)", 0xb9400041u, 0x9b241420u, false },
	{ "ldxr x1, [x2]; madd x0, x1, x3, x4 (Rn loaded)", 0xc85f7c41u, 0x9b031020u, false },
	{ "ldxp x1, x2, [x3]; madd x0, x2, x4, x5 (Rn loaded second)", 0xc87f0861u, 0x9b041440u, false },
	{ "ldr x1, [x2]; madd w0, w3, w4, w5 (32-bit)", LDR_X1_X2, 0x1b041460u, false },
	{ "ldr x1, [x2]; mul x0, x3, x4 (Ra = xzr)", LDR_X1_X2, 0x9b047c60u, false },
	{ "ldr x1, [x2]; smulh x0, x3, x4", LDR_X1_X2, 0x9b447c60u, false },
	{ "add x1, x2, #1 (no access); madd x0, x3, x4, x5", 0x91000441u, MADD, false },
};

static struct eh_decoder *dec;

static void run_pair_row(void **state)
{
	const struct pair_row *r = *state;
	struct eh_insn mem;

	eh_decoder_decode(dec, PC, r->mem, &mem);
	if (eh_a53_835769_pair(&mem, r->mac) != r->hit)
		fail_msg("%s: %s, expected %s (first decoded as '%s', flags 0x%x)", r->name,
			 r->hit ? "not the pair" : "the pair", r->hit ? "the pair" : "not", mem.text, mem.flags);
}

/* The page offsets erratum 843419 needs its ADRP at: the last two words of a page, and no others. */
static void test_adrp_offsets(void **state)
{
	uint64_t off;

	(void)state;
	for (off = 0; off < 0x1000; off += 4)
		if (EH_A53_843419_AT(0xffff800008010000ull + off) != (off == 0xff8 || off == 0xffc))
			fail_msg("page offset 0x%llx misjudged", (unsigned long long)off);
}

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

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(seq_rows) + EH_COUNT(pair_rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, seq_rows, run_seq_row);
	EH_ADD_ROWS(tests, n, pair_rows, run_pair_row);
	EH_ADD_TEST(tests, n, test_adrp_offsets);
	return EH_RUN_GROUP("a53_sequences", tests, n, setup, teardown);
}

/* Instruction text as the Arm ARM writes it: the hints, barriers and registers Capstone 4 leaves unnamed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/disasm.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

#define HINT(imm) (0xd503201fu | (uint32_t)(imm) << 5)

struct row {
	const char *name;
	uint32_t word;          /* encoding (Arm ARM C6.2; llvm-mc -triple=aarch64 agrees) */
	const char *text;       /* the whole text as an assembler writes it */
};

static const struct row rows[] = {
	{ "paciasp", HINT(25), "paciasp" },
	{ "autiasp", HINT(29), "autiasp" },
	{ "bti c", HINT(34), "bti c" },
	{ "bti jc", HINT(38), "bti jc" },
	{ "bti (no target)", HINT(32), "bti" },
	{ "clrbhb, the BHB loop's barrier", HINT(22), "clrbhb" },
	{ "csdb", HINT(20), "csdb" },
	{ "esb", HINT(16), "esb" },
	{ "psb csync", HINT(17), "psb csync" },
	{ "xpaclri", HINT(7), "xpaclri" },
	{ "pacia1716", HINT(8), "pacia1716" },
	{ "unallocated hint keeps Capstone's text", HINT(21), "hint #0x15" },
	{ "nop as Capstone names it", HINT(0), "nop" },
	{ "wfi as Capstone names it", HINT(3), "wfi" },
	{ "sb (Capstone 4: an msr)", 0xd50330ff, "sb" },
	{ "ssbb (Capstone 4: dsb #0)", 0xd503309f, "ssbb" },
	{ "pssbb (Capstone 4: dsb #4)", 0xd503349f, "pssbb" },
	{ "dsb ish unchanged", 0xd5033b9f, "dsb ish" },
	{ "msr apiakeylo_el1, x0", 0xd5182100, "msr apiakeylo_el1, x0" },
	{ "mrs x22, tfsre0_el1", 0xd5385636, "mrs x22, tfsre0_el1" },
	{ "msr tfsre0_el1, xzr", 0xd518563f, "msr tfsre0_el1, xzr" },
	{ "mrs x0, id_aa64zfr0_el1", 0xd5380480, "mrs x0, id_aa64zfr0_el1" },
	{ "mrs x1, rndr", 0xd53b2401, "mrs x1, rndr" },
	{ "msr hfgwtr_el2, x0", 0xd51c11a0, "msr hfgwtr_el2, x0" },
	{ "msr ttbr1_el1, x30 as Capstone names it", 0xd518203e, "msr ttbr1_el1, x30" },
	{ "msr daif, x0 as Capstone names it", 0xd51b4220, "msr daif, x0" },
	{ "IMPLEMENTATION DEFINED register keeps the generic name", 0xd539f200, "mrs x0, s3_1_c15_c2_0" },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_decoder *d;
	struct eh_insn in;
	char buf[96];
	const char *text;

	assert_int_equal(eh_decoder_new(&d, NULL), 0);
	eh_decoder_decode(d, 0xffff800008010000ull, r->word, &in);
	text = eh_disasm_text(&in, buf, sizeof(buf));
	if (strcmp(text, r->text))
		fail_msg("%s: 0x%08x reads \"%s\" (Capstone \"%s\"), expected \"%s\"", r->name, r->word, text,
			 in.text, r->text);
	eh_decoder_free(d);
}

/* The names the trace gives register writes ("msr DAIF <- ...") come from the same table. */
static void test_event_names(void **state)
{
	static const struct {
		uint32_t reg;
		const char *name;
	} regs[] = {
		{ EH_SYSREG(3, 3, 4, 2, 1), "DAIF" },
		{ EH_SYSREG(3, 0, 2, 1, 0), "APIAKeyLo_EL1" },
		{ EH_SYSREG(3, 0, 4, 1, 0), "SP_EL0" },
		{ EH_TTBR1_EL1, "TTBR1_EL1" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		assert_string_equal(eh_sysreg_name(regs[i].reg, buf, sizeof(buf)), regs[i].name);
	assert_string_equal(eh_sysreg_name(EH_SYSREG(3, 1, 15, 2, 0), buf, sizeof(buf)), "S3_1_C15_C2_0");
	assert_null(eh_sysreg_known(EH_SYSREG(3, 1, 15, 2, 0)));
}

int main(void)
{
	struct CMUnitTest tests[sizeof(rows) / sizeof(rows[0]) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_event_names);
	return EH_RUN_TESTS("disasm", tests, n);
}

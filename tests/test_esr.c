/* ESR_ELx of trapped MSR/MRS (EC 0x18): the ISS field order, checked against values worked by hand and the instruction encoding. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "eh/error.h"
#include "eh/insn.h"
#include "eh/sysreg.h"
#include "reports/rows.h"

struct row {
	const char *name;
	unsigned op0, op1, crn, crm, op2;
	unsigned rt;
	bool read;
	uint64_t esr;   /* 0x62000000 (EC 0x18, IL) | Op0<<20 | Op2<<17 | Op1<<14 | CRn<<10 | Rt<<5 | CRm<<1 | dir */
};

/*
 * Every VM register HCR_EL2.TVM traps (the list d3ec3a08fa70 handles), each with
 * a different Rt so that no field hides another, then reads, XZR, and registers
 * with a non-zero Op1 (the field the instruction and the ISS place differently).
 */
static const struct row rows[] = {
	{ "msr sctlr_el1, x1", 3, 0, 1, 0, 0, 1, false, 0x62300420 },
	{ "msr ttbr0_el1, x0", 3, 0, 2, 0, 0, 0, false, 0x62300800 },
	{ "msr ttbr1_el1, x2", 3, 0, 2, 0, 1, 2, false, 0x62320840 },
	{ "msr tcr_el1, x3", 3, 0, 2, 0, 2, 3, false, 0x62340860 },
	{ "msr afsr0_el1, x4", 3, 0, 5, 1, 0, 4, false, 0x62301482 },
	{ "msr afsr1_el1, x5", 3, 0, 5, 1, 1, 5, false, 0x623214a2 },
	{ "msr esr_el1, x6", 3, 0, 5, 2, 0, 6, false, 0x623014c4 },
	{ "msr far_el1, x7", 3, 0, 6, 0, 0, 7, false, 0x623018e0 },
	{ "msr mair_el1, x8", 3, 0, 10, 2, 0, 8, false, 0x62302904 },
	{ "msr amair_el1, x9", 3, 0, 10, 3, 0, 9, false, 0x62302926 },
	{ "msr contextidr_el1, x30", 3, 0, 13, 0, 1, 30, false, 0x623237c0 },
	{ "msr sctlr_el1, xzr", 3, 0, 1, 0, 0, 31, false, 0x623007e0 },
	{ "mrs x1, ttbr0_el1", 3, 0, 2, 0, 0, 1, true, 0x62300821 },
	/* Linux's ESR_ELx_SYS64_ISS_SYS_CTR_READ (0x32c001) with Rt 0. */
	{ "mrs x0, ctr_el0", 3, 3, 0, 0, 1, 0, true, 0x6232c001 },
	{ "msr hcr_el2, x2", 3, 4, 1, 1, 0, 2, false, 0x62310442 },
};

/* MSR/MRS (register), Arm ARM C6.2: L at 21, op0 20:19, op1 18:16, CRn 15:12, CRm 11:8, op2 7:5, Rt 4:0. */
static uint32_t encode(const struct row *r)
{
	return 0xd5000000u | (unsigned)r->read << 21 | r->op0 << 19 | r->op1 << 16 | r->crn << 12 |
	       r->crm << 8 | r->op2 << 5 | r->rt;
}

static void run_row(void **state)
{
	const struct row *r = *state;
	uint32_t sysreg = EH_SYSREG(r->op0, r->op1, r->crn, r->crm, r->op2), back = 0;
	uint64_t esr = eh_sysreg_trap_esr(sysreg, r->rt, r->read);
	struct eh_decoder *d;
	struct eh_insn in;
	unsigned rt = 99;
	bool read = !r->read;

	if (esr != r->esr)
		fail_msg("%s: ESR 0x%08llx, expected 0x%08llx", r->name, (unsigned long long)esr,
			 (unsigned long long)r->esr);
	if (eh_sysreg_trap_decode(esr, &back, &rt, &read) || back != sysreg || rt != r->rt || read != r->read)
		fail_msg("%s: decoding 0x%08llx gave sysreg 0x%x rt %u read %d", r->name,
			 (unsigned long long)esr, back, rt, read);

	/* Round trip from the instruction: what the decoder reads gives the same syndrome. */
	assert_int_equal(eh_decoder_new(&d, NULL), 0);
	eh_decoder_decode(d, 0x1000, encode(r), &in);
	if (!(in.flags & (r->read ? EH_INSN_MRS : EH_INSN_MSR)) || in.sysreg != sysreg || in.rt != r->rt ||
	    eh_sysreg_trap_esr(in.sysreg, in.rt, in.flags & EH_INSN_MRS) != r->esr)
		fail_msg("%s: instruction 0x%08x decoded as \"%s\" (sysreg 0x%x rt %u)", r->name, encode(r),
			 in.text, in.sysreg, in.rt);
	eh_decoder_free(d);
}

/* The one encoding reference/emulator-facts.md gives, against the row builder above. */
static void test_encoding_reference(void **state)
{
	(void)state;
	assert_int_equal(encode(&rows[1]), 0xd5182000);
}

static void test_decode_rejects_other_classes(void **state)
{
	uint32_t sysreg;
	unsigned rt;
	bool read;

	(void)state;
	/* A data abort from a lower EL (EC 0x24) and an HVC (EC 0x16) are not MSR/MRS traps. */
	assert_int_equal(eh_sysreg_trap_decode(0x92000045, &sysreg, &rt, &read), EH_EINVAL);
	assert_int_equal(eh_sysreg_trap_decode(0x5a000000, &sysreg, &rt, &read), EH_EINVAL);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 2];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_encoding_reference);
	EH_ADD_TEST(tests, n, test_decode_rejects_other_classes);
	return EH_RUN_TESTS("esr", tests, n);
}

/*
 * The walker differential test's host side: every case of walk_cases.h through harness/src/engine/walk.c,
 * against the PAR_EL1 (or the exception) QEMU gave for it (probe/walk-bare.c's output).
 *
 *   walk_diff QEMU_OUTPUT
 *
 * Prints "agree N of M", and for each case that differs after the masks below a line
 * "differ CLASS INDEX CASE qemu=... harness=..." where CLASS ("qemu-KIND/harness-KIND", each KIND
 * ok, exception or fault-FST; two oks name the bits that differ and the MAIR_EL1 attribute) is what tests/qemu/walk-diff.sh looks up in docs/testing.md. Exit 0 when it
 * could compare, 2 on bad input.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/walk.h"
#include "walk_cases.h"

#define TABLES 0x40400000ull   /* where probe/walk-bare.c lays the tables out */
#define MAX_CASES 1024

/*
 * Bits of PAR_EL1 whose value the architecture leaves to the implementation (Arm ARM DDI 0487,
 * D17.2.113 PAR_EL1): with F 0, bit 9 (NS: UNKNOWN for a result of a Non-secure translation regime)
 * and bit 10 (IMPLEMENTATION DEFINED); with F 1, bits 63:56 (IMPLEMENTATION DEFINED).
 */
#define MASK_OK ((1ull << 9) | (1ull << 10))
#define MASK_FAULT (0xffull << 56)

static uint64_t tables[4 * 512];

static bool read_desc(void *ctx, uint64_t pa, uint64_t *desc)
{
	(void)ctx;
	if (pa < TABLES || pa >= TABLES + sizeof(tables) || (pa & 7))
		return false;
	*desc = tables[(pa - TABLES) / 8];
	return true;
}

static const char *const op_names[OP_COUNT] = { "S1E1R", "S1E1W", "S1E0R", "S1E0W", "S1E1RP", "S1E1WP" };

static void kind(char *buf, size_t len, bool exception, uint64_t par)
{
	if (exception)
		snprintf(buf, len, "exception");
	else if (par & EH_PAR_F)
		snprintf(buf, len, "fault-0x%02x", (unsigned)((par >> EH_PAR_FST_SHIFT) & EH_PAR_FST_MASK));
	else
		snprintf(buf, len, "ok");
}

int main(int argc, char **argv)
{
	static uint64_t qemu[MAX_CASES];
	static bool qemu_exc[MAX_CASES], seen[MAX_CASES];
	/* ID_AA64MMFR0_EL1.PARange as bits (Arm ARM), capped at the walker's 48 as walk.c does. */
	static const unsigned pa_size_bits[16] = { 32, 36, 40, 42, 44, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48 };
	uint64_t mmfr0 = 0;
	bool have_mmfr0 = false;
	struct walk_case c;
	unsigned i, agree = 0, total = 0;
	char line[256];
	FILE *f;

	if (argc != 2)
		return fprintf(stderr, "usage: walk_diff QEMU_OUTPUT\n"), 2;
	f = fopen(argv[1], "r");
	if (!f)
		return fprintf(stderr, "walk_diff: %s: cannot open\n", argv[1]), 2;
	for (unsigned n = 1; fgets(line, sizeof(line), f); n++) {
		uint64_t v;
		char what[32];

		if (sscanf(line, "# ID_AA64MMFR0_EL1=0x%" SCNx64, &mmfr0) == 1)
			have_mmfr0 = true;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %31[^=]=0x%" SCNx64, &i, what, &v) != 3 || i >= MAX_CASES ||
		    (strcmp(what, "PAR_EL1") && strcmp(what, "exception ESR_EL2"))) {
			fclose(f);
			return fprintf(stderr, "walk_diff: %s:%u: not 'INDEX PAR_EL1=0x...'\n", argv[1], n), 2;
		}
		qemu[i] = v;
		qemu_exc[i] = what[0] == 'e';
		seen[i] = true;
	}
	fclose(f);
	if (!have_mmfr0)
		return fprintf(stderr, "walk_diff: %s: no '# ID_AA64MMFR0_EL1=' line\n", argv[1]), 2;
	for (i = 0; walk_case_get(i, &c); i++) {
		struct walk_case_regs r = walk_case_build(&c, tables, TABLES);
		const struct eh_walk_regs regs = { r.ttbr0, r.ttbr1, r.tcr, r.mair, pa_size_bits[mmfr0 & 0xf] };
		/* S1E0*: an EL0 access; S1E1RP/WP: the PAN check, PSTATE.PAN being 1 (probe/walk-bare.c). */
		const struct eh_walk_access acc = {
			.el = c.op == OP_S1E0R || c.op == OP_S1E0W ? 0 : 1,
			.write = c.op == OP_S1E1W || c.op == OP_S1E0W || c.op == OP_S1E1WP,
			.pan = c.op == OP_S1E1RP || c.op == OP_S1E1WP,
		};
		struct eh_error err = { 0 };
		struct eh_walk w;
		uint64_t par, mask;
		char qk[32], hk[32];

		if (!seen[i])
			return fprintf(stderr, "walk_diff: %s: no line for case %u\n", argv[1], i), 2;
		if (eh_walk_translate(&w, &regs, c.va, &acc, read_desc, NULL, &err))
			return fprintf(stderr, "walk_diff: case %u: %s\n", i, err.msg), 2;
		par = eh_walk_par(&w);
		total++;
		mask = par & EH_PAR_F ? MASK_FAULT : MASK_OK;
		if (!qemu_exc[i] && (qemu[i] & EH_PAR_F) == (par & EH_PAR_F) && (qemu[i] & ~mask) == (par & ~mask)) {
			agree++;
			continue;
		}
		kind(qk, sizeof(qk), qemu_exc[i], qemu[i]);
		kind(hk, sizeof(hk), false, par);
		/* Two successful walks differ in some field: the class names the bits and the memory type. */
		if (!qemu_exc[i] && !(qemu[i] & EH_PAR_F) && !(par & EH_PAR_F))
			snprintf(hk, sizeof(hk), "ok:xor-0x%" PRIx64 ":attr-0x%02x", (qemu[i] ^ par) & ~mask,
				 WALK_MAIR_BYTE(c.attr));
		printf("differ qemu-%s/harness-%s %u %s va=0x%016" PRIx64 " leaf=%u brk=%u@%u ap=%u af=%u attr=%u sh=%u "
		       "pxn=%u uxn=%u aptable=%u ips=%u oa=0x%" PRIx64 " table+0x%" PRIx64 " qemu=0x%016" PRIx64
		       " harness=0x%016" PRIx64 "\n", qk, hk, i, op_names[c.op], c.va, c.leaf, c.brk, c.break_level,
		       c.ap, c.af, c.attr, c.sh, c.pxn, c.uxn, c.aptable, c.ips, c.oa, c.table_oa_high, qemu[i], par);
	}
	printf("agree %u of %u\n", agree, total);
	return 0;
}

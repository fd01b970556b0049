/* Classifies AArch64 instructions from their encoding (Arm ARM C4.1) and names them with Capstone. */
#include "eh/insn.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/sysreg.h"

#define EH_DECODER_CHUNK 1024

_Static_assert(sizeof(((struct eh_insn *)0)->text) >= 64, "name_insn writes up to 63 characters and a NUL");

/*
 * Words whose naming does not depend on their address (no PC-relative operand: pc_relative)
 * are named by Capstone once and copied after: a kernel repeats a few thousand such words (NOP,
 * RET, PACIASP, barriers, the same MSRs and TLBIs), and Capstone takes some 4,000 host
 * instructions to name one. Direct-mapped by a hash of the word.
 */
#define WORD_CACHE 4096u  /* a power of two */

/*
 * Decoded instructions live in fixed chunks that never move, so a pointer the
 * engine or the audit holds stays valid while the cache grows; the hash table
 * holds their numbers (plus one; 0 is an empty slot).
 */
struct eh_decoder {
	csh cs;
	struct eh_insn **chunks;
	size_t nchunks, used;
	uint32_t *slots;
	size_t nslots;
	/* The word cache: what each slot holds, as 1 << 32 | word (0: nothing), and its decoding. */
	uint64_t *word_keys;
	struct eh_insn *by_word;
};

static struct eh_insn *entry(const struct eh_decoder *d, size_t k)
{
	return &d->chunks[k / EH_DECODER_CHUNK][k % EH_DECODER_CHUNK];
}

int eh_decoder_new(struct eh_decoder **out, struct eh_error *err)
{
	struct eh_decoder *d;
	cs_err ce;

	*out = NULL;
	d = eh_alloc(sizeof(*d));
	if (!d)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the decoder");
	ce = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &d->cs);
	if (ce != CS_ERR_OK) {
		eh_free(d);
		return eh_error_set(err, EH_EEMU, "capstone: cs_open(ARM64): %s", cs_strerror(ce));
	}
	d->nslots = 2 * EH_DECODER_CHUNK;
	d->slots = eh_alloc(d->nslots * sizeof(*d->slots));
	d->word_keys = eh_alloc(WORD_CACHE * sizeof(*d->word_keys));
	/* Not zeroed: an entry is written whole before its key says it is there. */
	d->by_word = eh_alloc_array(WORD_CACHE, sizeof(*d->by_word));
	if (!d->slots || !d->word_keys || !d->by_word) {
		eh_decoder_free(d);
		return eh_error_set(err, EH_ENOMEM, "out of memory for the decoder cache");
	}
	*out = d;
	return 0;
}

void eh_decoder_free(struct eh_decoder *d)
{
	if (!d)
		return;
	cs_close(&d->cs);
	while (d->nchunks)
		eh_free(d->chunks[--d->nchunks]);
	eh_free(d->chunks);
	eh_free(d->slots);
	eh_free(d->word_keys);
	eh_free(d->by_word);
	eh_free(d);
}

size_t eh_decoder_size(const struct eh_decoder *d)
{
	return d->used;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (1ull << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

/*
 * SYS (op0 = 1) with CRn = 7: cache maintenance and address translation
 * (Arm ARM C5.3, "System instructions"). DC ZVA, GVA and GZVA write memory.
 * DC by VA (op1 = 3, or op1 = 0 with CRm = 6 and an odd op2: IVAC, IGVAC,
 * IGDVAC) and IC IVAU are translated by the current regime and report a fault
 * as a Data Abort; AT (CRm = 8, or 9 for S1E1RP/WP) walks a regime's tables.
 * DC by set/way (op1 = 0, even op2) and IC IALLU(IS) name no address.
 */
static uint32_t sys_access(unsigned op1, unsigned crn, unsigned crm, unsigned op2)
{
	if (crn != 7)
		return 0;
	if (crm == 8 || (crm == 9 && op1 == 0 && op2 <= 1))
		return EH_INSN_TRANSLATE;
	if (op1 == 3 && crm == 4)  /* ZVA (1), GVA (3), GZVA (4) */
		return op2 == 1 || op2 == 3 || op2 == 4 ? EH_INSN_STORE : 0;
	if (op1 == 3 && (crm == 5 || crm >= 10) && op2 % 2 == 1)
		return EH_INSN_MAINT;  /* IC IVAU; DC CVAC, CVAU, CVAP, CVADP, CIVAC and tag forms */
	if (op1 == 0 && crm == 6 && op2 % 2 == 1)
		return EH_INSN_MAINT;  /* DC IVAC, IGVAC, IGDVAC */
	return 0;
}

/* "w3", "x3", "wzr", "xzr"; base registers say "sp" for 31. */
static const char *reg(char *buf, unsigned n, bool x, bool base)
{
	if (n == 31)
		return base ? "sp" : x ? "xzr" : "wzr";
	snprintf(buf, 8, "%c%u", x ? 'x' : 'w', n);
	return buf;
}

/* "[x1]", "[x1, #16]" (index 2: signed offset), "[x1], #16" (1: post-index), "[x1, #16]!" (3: pre-index). */
static const char *address(char *buf, size_t len, unsigned rn, int64_t imm, unsigned index)
{
	char r[8];

	if (index == 1)
		snprintf(buf, len, "[%s], #%" PRId64, reg(r, rn, true, true), imm);
	else if (imm || index == 3)
		snprintf(buf, len, "[%s, #%" PRId64 "]%s", reg(r, rn, true, true), imm, index == 3 ? "!" : "");
	else
		snprintf(buf, len, "[%s]", reg(r, rn, true, true));
	return buf;
}

static const char *const acq_rel[4] = { "", "l", "a", "al" };   /* by A:R (or L:o0 for CAS) */
static const char *const bh[4] = { "b", "h", "", "" };            /* by size */

/*
 * Loads and stores of extensions after Armv8.0 that Capstone 4 does not decode,
 * from their encodings (Arm ARM C4.1.4, "Loads and Stores"): LSE atomics (ST<op>
 * where Rt is XZR), SWP, LDAPR and LS64's LD64B/ST64B*, CAS, CASP, the RCpc
 * unscaled LDAPUR/STLUR family, MTE's tag loads and stores, and MOPS. Returns
 * the class (0 when none matches) and writes the assembler text into buf.
 */
static uint32_t ld_st_by_encoding(uint32_t w, char *buf, size_t len)
{
	static const char *const lse_ops[8] = { "add", "clr", "eor", "set", "smax", "smin", "umax", "umin" };
	static const char *const cpy_opt[16] = { "", "wt", "rt", "t", "wn", "wtwn", "rtwn", "twn",
						 "rn", "wtrn", "rtrn", "trn", "n", "wtn", "rtn", "tn" };
	static const char *const set_opt[4] = { "", "t", "n", "tn" };
	static const char *const pme = "pme";
	unsigned size = w >> 30, rt = w & 31, rn = (w >> 5) & 31, rs = (w >> 16) & 31;
	char a[8], b[8], c[32], d[8], e[8], scratch[64];
	bool x = size == 3;

	if (!buf) {
		buf = scratch;
		len = sizeof(scratch);
	}
	if ((w & 0x3f200c00) == 0x38200000) {  /* atomic memory operations: size 111 V=0 A R 1 Rs o3 opc 00 */
		unsigned ar = (w >> 22) & 3, o3 = (w >> 15) & 1, opc = (w >> 12) & 7;

		if ((w & 0xffe08000) == 0xf8208000 && opc >= 1 && opc <= 5 && opc != 4 && ar == 0) {
			/* LS64 (size 11, A = R = 0, o3 = 1): ST64B (opc 1), ST64BV0 (2), ST64BV (3), LD64B (5) */
			if (opc == 5) {
				snprintf(buf, len, "ld64b %s, [%s]", reg(a, rt, true, false), reg(b, rn, true, true));
				return EH_INSN_LOAD;
			}
			if (opc == 1)
				snprintf(buf, len, "st64b %s, [%s]", reg(a, rt, true, false), reg(b, rn, true, true));
			else
				snprintf(buf, len, "st64bv%s %s, %s, [%s]", opc == 2 ? "0" : "",
					 reg(a, rs, true, false), reg(b, rt, true, false), reg(c, rn, true, true));
			return EH_INSN_STORE;
		}
		if (o3 && opc == 4 && ar == 2 && rs == 31) {  /* LDAPR */
			snprintf(buf, len, "ldapr%s %s, [%s]", bh[size], reg(a, rt, x, false), reg(b, rn, true, true));
			return EH_INSN_LOAD;
		}
		if (o3 && opc)
			return 0;
		if (!o3 && rt == 31 && !(ar & 2))  /* ST<op>: the load's result discarded, still a read-modify-write */
			snprintf(buf, len, "st%s%s%s %s, [%s]", lse_ops[opc], acq_rel[ar], bh[size],
				 reg(a, rs, x, false), reg(b, rn, true, true));
		else
			snprintf(buf, len, "%s%s%s%s %s, %s, [%s]", o3 ? "swp" : "ld", o3 ? "" : lse_ops[opc],
				 acq_rel[ar], bh[size], reg(a, rs, x, false), reg(b, rt, x, false),
				 reg(c, rn, true, true));
		return EH_INSN_LOAD | EH_INSN_STORE;
	}
	if ((w & 0x3fa07c00) == 0x08a07c00) {  /* CAS: size 001000 1 L 1 Rs o0 11111 */
		snprintf(buf, len, "cas%s%s %s, %s, [%s]", acq_rel[((w >> 21) & 2) | ((w >> 15) & 1)], bh[size],
			 reg(a, rs, x, false), reg(b, rt, x, false), reg(c, rn, true, true));
		return EH_INSN_LOAD | EH_INSN_STORE;
	}
	if ((w & 0xbfa07c00) == 0x08207c00 && !(rs & 1) && !(rt & 1)) {  /* CASP: 0 sz 001000 0 L 1 Rs o0 11111 */
		bool px = (w >> 30) & 1;

		snprintf(buf, len, "casp%s %s, %s, %s, %s, [%s]", acq_rel[((w >> 21) & 2) | ((w >> 15) & 1)],
			 reg(a, rs, px, false), reg(b, rs + 1, px, false), reg(c, rt, px, false),
			 reg(d, rt + 1, px, false), reg(e, rn, true, true));
		return EH_INSN_LOAD | EH_INSN_STORE;
	}
	if ((w & 0x3f200c00) == 0x19000000) {  /* LDAPUR/STLUR: size 011001 opc 0 imm9 00 */
		static const char *const names[4][4] = {
			{ "stlurb", "ldapurb", "ldapursb", "ldapursb" },
			{ "stlurh", "ldapurh", "ldapursh", "ldapursh" },
			{ "stlur", "ldapur", "ldapursw", NULL },
			{ "stlur", "ldapur", NULL, NULL },
		};
		unsigned opc = (w >> 22) & 3;

		if (!names[size][opc])
			return 0;
		snprintf(buf, len, "%s %s, %s", names[size][opc], reg(a, rt, size == 3 || opc == 2, false),
			 address(c, sizeof(c), rn, sext(w >> 12, 9), 2));
		return opc ? EH_INSN_LOAD : EH_INSN_STORE;
	}
	if ((w & 0xff200000) == 0xd9200000) {  /* MTE tag loads and stores: 11011001 opc 1 imm9 op2 */
		static const char *const names[4][2] = {
			{ "stzgm", "stg" }, { "ldg", "stzg" }, { "stgm", "st2g" }, { "ldgm", "stz2g" },
		};
		unsigned opc = (w >> 22) & 3, op2 = (w >> 10) & 3;
		const char *name = names[opc][op2 != 0];
		int64_t imm = opc == 0 && op2 == 0 ? 0 : sext(w >> 12, 9) * 16;  /* tag granules */

		snprintf(buf, len, "%s %s, %s", name, reg(a, rt, true, false),
			 address(c, sizeof(c), rn, imm, op2 == 0 ? 2 : op2));
		return name[0] == 'l' ? EH_INSN_LOAD : EH_INSN_STORE;
	}
	if ((w & 0xfe400000) == 0x68000000 && ((w >> 23) & 3)) {  /* STGP: 0110100 index L=0 imm7 */
		snprintf(buf, len, "stgp %s, %s, %s", reg(a, rt, true, false), reg(b, (w >> 10) & 31, true, false),
			 address(c, sizeof(c), rn, sext(w >> 15, 7) * 16, (w >> 23) & 3));
		return EH_INSN_STORE;
	}
	if ((w & 0x3b200c00) == 0x19000400 && size == 0) {  /* MOPS: sz 011 o0 01 op1 0 Rs op2 01 */
		unsigned op1 = (w >> 22) & 3, op2 = (w >> 12) & 15, o0 = (w >> 26) & 1;

		if (op1 == 3) {  /* SET{G}P/M/E: op2 3:2 says which, op2 1:0 the options */
			if (op2 >> 2 == 3)
				return 0;
			snprintf(buf, len, "set%s%c%s [%s]!, %s!, %s", o0 ? "g" : "", pme[op2 >> 2], set_opt[op2 & 3],
				 reg(a, rt, true, false), reg(b, rn, true, false), reg(c, rs, true, false));
			return EH_INSN_STORE;
		}
		snprintf(buf, len, "cpy%s%c%s [%s]!, [%s]!, %s!", o0 ? "" : "f", pme[op1], cpy_opt[op2],
			 reg(a, rt, true, false), reg(b, rs, true, false), reg(c, rn, true, false));
		return EH_INSN_LOAD | EH_INSN_STORE;
	}
	return 0;
}

/* Flags that follow from the encoding alone, so they hold whatever Capstone's version. */
static void classify(struct eh_insn *in, const char *mnemonic)
{
	uint32_t w = in->word;
	uint64_t pc = in->addr;

	if ((w & 0xffc00000) == 0xd5000000) {  /* system instruction class */
		if (w == 0xd503201f)
			in->flags |= EH_INSN_NOP;
		else if ((w & 0xfffff0ff) == 0xd50330df)
			in->flags |= EH_INSN_ISB;
		else if ((w & 0xfffff0ff) == 0xd503309f)
			in->flags |= EH_INSN_DSB;
		else if ((w & 0xfffff0ff) == 0xd50330bf)
			in->flags |= EH_INSN_DMB;
		else if ((w & 0xfff80000) == 0xd5080000) {  /* SYS: DC, IC, AT, TLBI, ... */
			in->sysreg = (w >> 5) & 0xffff;
			in->rt = w & 31;
			/* TLBI is SYS with CRn 8 (Arm ARM C5.5). */
			in->flags |= ((w >> 12) & 15) == 8 ? EH_INSN_TLBI
				     : sys_access((w >> 16) & 7, (w >> 12) & 15, (w >> 8) & 15, (w >> 5) & 7);
		}
		else if ((w & 0xfff00000) == 0xd5100000 || (w & 0xfff00000) == 0xd5300000) {
			in->sysreg = (w >> 5) & 0xffff;
			in->rt = w & 31;
			in->flags |= (w & (1u << 21)) ? EH_INSN_MRS : EH_INSN_MSR;
			if (!(w & (1u << 21)) && EH_SYSREG_IS_TTBR(in->sysreg))
				in->flags |= EH_INSN_TTBR_WRITE;
		}
		return;
	}
	if (w == 0xd69f03e0) {
		in->flags |= EH_INSN_ERET | EH_INSN_BRANCH | EH_INSN_INDIRECT;
		return;
	}
	if ((w & 0xff000000) == 0xd4000000 && ((w & 0x1f) == 0 ? (w & 0x00e00000) == 0x00200000
							 : (w & 0x00e0001c) == 0)) {
		in->flags |= EH_INSN_EXC_GEN;  /* SVC/HVC/SMC (LL = 1..3) or BRK */
		return;
	}
	if ((w & 0x7c000000) == 0x14000000) {  /* B, BL */
		in->flags |= EH_INSN_BRANCH | ((w >> 31) ? EH_INSN_CALL : 0);
		in->target = pc + (uint64_t)(sext(w, 26) * 4);
		return;
	}
	if ((w & 0xff000010) == 0x54000000 || (w & 0x7e000000) == 0x34000000) {  /* B.cond, CBZ/CBNZ */
		in->flags |= EH_INSN_BRANCH | EH_INSN_COND;
		in->target = pc + (uint64_t)(sext(w >> 5, 19) * 4);
		return;
	}
	if ((w & 0x7e000000) == 0x36000000) {  /* TBZ/TBNZ */
		in->flags |= EH_INSN_BRANCH | EH_INSN_COND;
		in->target = pc + (uint64_t)(sext(w >> 5, 14) * 4);
		return;
	}
	if ((w & 0xff9ffc1f) == 0xd61f0000) {  /* BR, BLR, RET */
		in->flags |= EH_INSN_BRANCH | EH_INSN_INDIRECT | (((w >> 21) & 3) == 1 ? EH_INSN_CALL : 0);
		return;
	}
	if ((w & 0x1f000000) == 0x10000000) {  /* ADR, ADRP */
		int64_t imm = sext(((w >> 3) & 0x1ffffc) | ((w >> 29) & 3), 21);

		if (w >> 31) {
			in->flags |= EH_INSN_ADRP;
			in->target = (pc & ~0xfffull) + (uint64_t)(imm * 4096);
		} else {
			in->flags |= EH_INSN_ADR;
			in->target = pc + (uint64_t)imm;
		}
		return;
	}
	if ((w & 0x0a000000) != 0x08000000)
		return;  /* not in the loads-and-stores encoding group */
	if ((w & 0x3b000000) == 0x18000000) {  /* LDR (literal), LDRSW (literal), PRFM (literal) */
		in->flags |= EH_INSN_LITERAL | ((w >> 30) == 3 ? EH_INSN_PREFETCH : EH_INSN_LOAD);
		in->target = pc + (uint64_t)(sext(w >> 5, 19) * 4);
		return;
	}
	if ((w & 0xffc00000) == 0xf9800000 ||  /* PRFM (immediate) */
	    (w & 0xffe00c00) == 0xf8a00800 ||  /* PRFM (register) */
	    (w & 0xffe00c00) == 0xf8800000) {  /* PRFUM */
		in->flags |= EH_INSN_PREFETCH;
		return;
	}
	/*
	 * Capstone 4 names none of the later extensions' accesses (LSE, RCpc, LS64,
	 * MTE, MOPS): their classes come from the encoding (ld_st_by_encoding).
	 * Anything else Capstone cannot name in this group counts as a load and a
	 * store, the conservative answer for a hazard.
	 */
	if (!mnemonic[0]) {
		uint32_t f = ld_st_by_encoding(w, NULL, 0);

		in->flags |= f ? f : EH_INSN_LOAD | EH_INSN_STORE;
		return;
	}
	if (mnemonic[0] == 'l')
		in->flags |= EH_INSN_LOAD;
	else if (mnemonic[0] == 's')
		in->flags |= EH_INSN_STORE;
}

static void decode(struct eh_decoder *d, uint64_t addr, uint32_t word, struct eh_insn *out);

/*
 * Whether in's text names an address computed from its own (Capstone prints the targets of
 * B, BL, B.cond, CBZ, TBZ, and ADR, ADRP and literal loads absolute): the words classify gives a target.
 */
static bool pc_relative(const struct eh_insn *in)
{
	return in->flags & (EH_INSN_ADR | EH_INSN_ADRP | EH_INSN_LITERAL) ||
	       (in->flags & (EH_INSN_BRANCH | EH_INSN_INDIRECT)) == EH_INSN_BRANCH;
}

void eh_decoder_decode(struct eh_decoder *d, uint64_t addr, uint32_t word, struct eh_insn *out)
{
	size_t k = (word * 0x9e3779b1u) >> (32 - __builtin_ctz(WORD_CACHE));
	uint64_t key = 1ull << 32 | word;

	if (d->word_keys[k] == key) {
		*out = d->by_word[k];
		out->addr = addr;
		return;
	}
	decode(d, addr, word, out);
	if (!pc_relative(out)) {
		d->by_word[k] = *out;
		d->word_keys[k] = key;
	}
}

/* Characters of s before its NUL, at most max (s holds at least max bytes). */
static size_t bounded_len(const char *s, size_t max)
{
	const char *nul = memchr(s, 0, max);

	return nul ? (size_t)(nul - s) : max;
}

/*
 * Capstone's "mnemonic operands" into text (zeroed, 64 bytes), each cut at 31
 * characters so both fit: copied, where formatting it cost a third of a decode.
 */
static void name_insn(char *text, const cs_insn *ci)
{
	size_t m = bounded_len(ci->mnemonic, 31), o = bounded_len(ci->op_str, 31);

	memcpy(text, ci->mnemonic, m);
	if (o) {
		text[m] = ' ';
		memcpy(text + m + 1, ci->op_str, o);
	}
}

static void decode(struct eh_decoder *d, uint64_t addr, uint32_t word, struct eh_insn *out)
{
	cs_insn *ci = NULL;
	uint8_t bytes[4] = { word, word >> 8, word >> 16, word >> 24 };
	const char *mnemonic = "";

	memset(out, 0, sizeof(*out));
	out->addr = addr;
	out->word = word;
	if (cs_disasm(d->cs, bytes, 4, addr, 1, &ci) == 1) {
		name_insn(out->text, ci);
		mnemonic = ci->mnemonic;
	} else if (!ld_st_by_encoding(word, out->text, sizeof(out->text))) {
		snprintf(out->text, sizeof(out->text), ".inst 0x%08x", word);
	}
	classify(out, mnemonic);
	/* An access the harness knows by its encoding is an instruction, whatever Capstone says. */
	if (!ci && !(out->flags & EH_INSN_ACCESS))
		out->flags |= EH_INSN_INVALID;
	if (ci)
		cs_free(ci, 1);
}

/*
 * Fibonacci hashing: the product's top bits. Its middle bits, taken before, step by a
 * multiple of 4 between consecutive words, so a run of code filled a quarter of the
 * table and probed long.
 */
static size_t slot_of(const struct eh_decoder *d, uint64_t addr)
{
	return (size_t)((addr >> 2) * 0x9e3779b97f4a7c15ull >> (64 - __builtin_ctzll(d->nslots)));
}

/* Double the hash table, keeping it at most half full. */
static int grow_slots(struct eh_decoder *d)
{
	uint32_t *old = d->slots;
	size_t n = d->nslots, i;

	d->slots = eh_alloc(2 * n * sizeof(*d->slots));
	if (!d->slots) {
		d->slots = old;
		return EH_ENOMEM;
	}
	d->nslots = 2 * n;
	for (i = 0; i < n; i++) {
		size_t j;

		if (!old[i])
			continue;
		for (j = slot_of(d, entry(d, old[i] - 1)->addr); d->slots[j]; j = (j + 1) & (d->nslots - 1))
			;
		d->slots[j] = old[i];
	}
	eh_free(old);
	return 0;
}

static int add_chunk(struct eh_decoder *d)
{
	struct eh_insn **chunks = eh_realloc(d->chunks, (d->nchunks + 1) * sizeof(*chunks));

	if (!chunks)
		return EH_ENOMEM;
	d->chunks = chunks;
	/* Not zeroed: decode() writes an entry whole before it is used (zeroing was 100 KB a machine). */
	d->chunks[d->nchunks] = eh_alloc_array(EH_DECODER_CHUNK, sizeof(**chunks));
	if (!d->chunks[d->nchunks])
		return EH_ENOMEM;
	d->nchunks++;
	return 0;
}

const struct eh_insn *eh_decoder_get(struct eh_decoder *d, uint64_t addr, uint32_t word)
{
	struct eh_insn *in;
	size_t i;

	for (i = slot_of(d, addr); d->slots[i]; i = (i + 1) & (d->nslots - 1)) {
		in = entry(d, d->slots[i] - 1);
		if (in->addr != addr)
			continue;
		if (in->word != word)  /* the code was rewritten */
			eh_decoder_decode(d, addr, word, in);
		return in;
	}
	if (d->used == d->nchunks * EH_DECODER_CHUNK && add_chunk(d))
		return NULL;
	if (2 * (d->used + 1) > d->nslots) {
		if (grow_slots(d))
			return NULL;
		for (i = slot_of(d, addr); d->slots[i]; i = (i + 1) & (d->nslots - 1))
			;
	}
	in = entry(d, d->used);
	eh_decoder_decode(d, addr, word, in);
	d->slots[i] = (uint32_t)++d->used;
	return in;
}

uint64_t eh_insn_prefetch_addr(const struct eh_insn *in, uint64_t (*xreg)(void *ctx, unsigned n),
			       void *ctx)
{
	uint32_t w = in->word;
	uint64_t base = xreg(ctx, (w >> 5) & 31);  /* register 31 is SP in an address base */

	if (!(in->flags & EH_INSN_PREFETCH))
		return 0;
	if (in->flags & EH_INSN_LITERAL)
		return in->target;
	if ((w & 0xffc00000) == 0xf9800000)
		return base + (((w >> 10) & 0xfff) << 3);
	if ((w & 0xffe00c00) == 0xf8800000)
		return base + (uint64_t)sext(w >> 12, 9);
	if ((w & 0xffe00c00) == 0xf8a00800) {
		unsigned m = (w >> 16) & 31, option = (w >> 13) & 7, s = (w >> 12) & 1;
		uint64_t idx = m == 31 ? 0 : xreg(ctx, m);

		if (option == 2)
			idx = (uint32_t)idx;
		else if (option == 6)
			idx = (uint64_t)(int64_t)(int32_t)idx;
		return base + (idx << (s ? 3 : 0));
	}
	return 0;
}

const char *eh_insn_access_name(uint32_t flags)
{
	if ((flags & (EH_INSN_LOAD | EH_INSN_STORE)) == (EH_INSN_LOAD | EH_INSN_STORE))
		return "load+store";
	if (flags & EH_INSN_LOAD)
		return "load";
	if (flags & EH_INSN_STORE)
		return "store";
	if (flags & EH_INSN_PREFETCH)
		return "prefetch";
	if (flags & EH_INSN_MAINT)
		return "maintenance";
	if (flags & EH_INSN_TRANSLATE)
		return "translation";
	return "none";
}

/*
 * The unallocated AdvSIMD FP16 encodings Unicorn 2.0.1 aborts on, found by running
 * every (U, a, opcode) in a child process: bit n set when opcode n aborts. They are
 * exactly the unallocated ones, so valid FP16 instructions still run.
 */
static const uint32_t fp16_misc_vector[4] = { 0xc0ffffff, 0xd0ff0fff, 0xc0ffffff, 0x51ff4fff };
static const uint32_t fp16_misc_scalar[4] = { 0xc0ffffff, 0x50ff8fff, 0xc0ffffff, 0xd1ff4fff };
static const uint32_t fp16_three_same_vector = 0x8a023820;  /* by fpop = U:a:opcode */

bool eh_insn_emulator_unsafe(uint32_t w)
{
	uint32_t reg = (w >> 5) & 0xffff;
	unsigned ua = ((w >> 28) & 2) | ((w >> 23) & 1);  /* U (bit 29), a (bit 23) */

	/* MRS/MSR of APIAKey..APGAKey (S3_0_C2_C1_0 .. S3_0_C2_C3_1), found by a sweep of every encoding. */
	if ((w & 0xffd00000) == 0xd5100000 && EH_SYSREG_OP0(reg) == 3 && EH_SYSREG_OP1(reg) == 0 &&
	    EH_SYSREG_CRN(reg) == 2 && EH_SYSREG_CRM(reg) >= 1 && EH_SYSREG_CRM(reg) <= 3)
		return true;
	if ((w & 0x9f60c400) == 0x0e400400)  /* AdvSIMD three same (FP16), vector */
		return fp16_three_same_vector >> ((ua << 3) | ((w >> 11) & 7)) & 1;
	if ((w & 0x9f7e0c00) == 0x0e780800)  /* AdvSIMD two-register misc (FP16), vector */
		return fp16_misc_vector[ua] >> ((w >> 12) & 31) & 1;
	if ((w & 0xdf7e0c00) == 0x5e780800)  /* ... scalar */
		return fp16_misc_scalar[ua] >> ((w >> 12) & 31) & 1;
	return false;
}

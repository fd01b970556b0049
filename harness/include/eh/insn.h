/* AArch64 instruction classification for the erratum models and the audit: Capstone text, encoding facts. */
#ifndef EH_INSN_H
#define EH_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/error.h"

/* The instruction word at p as AArch64 stores it: little-endian, whatever the host. */
static inline uint32_t eh_insn_word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* What an instruction does that the harness cares about (several may apply). */
enum eh_insn_flag {
	EH_INSN_LOAD = 1u << 0,
	EH_INSN_STORE = 1u << 1,
	EH_INSN_PREFETCH = 1u << 2,
	EH_INSN_ISB = 1u << 3,
	EH_INSN_ERET = 1u << 4,
	EH_INSN_EXC_GEN = 1u << 5,  /* SVC, HVC, SMC, BRK */
	EH_INSN_MSR = 1u << 6,      /* write of a system register: .sysreg, .rt */
	EH_INSN_MRS = 1u << 7,      /* read of a system register: .sysreg, .rt */
	EH_INSN_TTBR_WRITE = 1u << 8, /* MSR TTBR0_EL1 / TTBR1_EL1, or their EL12 aliases (eh/regime.h) */
	EH_INSN_NOP = 1u << 9,
	EH_INSN_BRANCH = 1u << 10,  /* any change of flow; .target when direct */
	EH_INSN_COND = 1u << 11,    /* the branch may fall through */
	EH_INSN_CALL = 1u << 12,    /* BL, BLR */
	EH_INSN_INDIRECT = 1u << 13,/* BR, BLR, RET: no static target */
	EH_INSN_LITERAL = 1u << 14, /* PC-relative load (LDR/PRFM literal) */
	EH_INSN_ADR = 1u << 15,     /* ADR */
	EH_INSN_ADRP = 1u << 16,    /* ADRP */
	EH_INSN_INVALID = 1u << 17, /* neither Capstone nor the harness's encoding classes know it */
	EH_INSN_MAINT = 1u << 18,   /* cache maintenance by VA: DC C*VA*, DC I*VAC, IC IVAU */
	EH_INSN_TRANSLATE = 1u << 19, /* AT: an address translation (a table walk) */
	EH_INSN_TLBI = 1u << 20,    /* TLB maintenance: .sysreg the operation, .rt its operand */
	EH_INSN_DSB = 1u << 21,     /* the barrier's option in bits 11:8 of .word (EH_BARRIER_*) */
	EH_INSN_DMB = 1u << 22,
};

/* A DSB or DMB's option (CRm): the shareability domain and the accesses it orders. */
#define EH_BARRIER_OPTION(word) (((word) >> 8) & 0xf)
enum eh_barrier_option {
	EH_BARRIER_OSHLD = 1, EH_BARRIER_OSHST = 2, EH_BARRIER_OSH = 3,
	EH_BARRIER_NSHLD = 5, EH_BARRIER_NSHST = 6, EH_BARRIER_NSH = 7,
	EH_BARRIER_ISHLD = 9, EH_BARRIER_ISHST = 10, EH_BARRIER_ISH = 11,
	EH_BARRIER_LD = 13, EH_BARRIER_ST = 14, EH_BARRIER_SY = 15,
};

/*
 * Whether a DSB with this option waits for every kind of access, as completing a
 * TLBI or an IC needs. The Arm ARM's DSB option encodings (A64 DSB, CRm, bits 11:8)
 * give the domain in CRm<3:2> (OSH, NSH, ISH, full system) and the accesses in
 * CRm<1:0> (0b01 reads, 0b10 writes, 0b11 all): the four options ending in 0b11.
 * CRm 0b0000 and 0b0100 are SSBB and PSSBB, not DSBs.
 */
static inline bool eh_insn_dsb_full(unsigned option)
{
	return option == EH_BARRIER_NSH || option == EH_BARRIER_ISH || option == EH_BARRIER_OSH ||
	       option == EH_BARRIER_SY;
}

/*
 * Whether such a DSB also completes a broadcast TLBI (TLBI ...IS) on every PE it reaches:
 * the Arm ARM completes TLB maintenance only for the shareability domain the DSB names, so
 * a full one over the Inner Shareable domain or more (ISH, OSH or SY), not NSH.
 */
static inline bool eh_insn_dsb_broadcast(unsigned option)
{
	return eh_insn_dsb_full(option) && option != EH_BARRIER_NSH;
}

/* Context-synchronisation events (Arm ARM: ISB, exception entry and exception return). */
#define EH_INSN_CTX_SYNC (EH_INSN_ISB | EH_INSN_ERET | EH_INSN_EXC_GEN)
/*
 * What goes through the translation regime and can take a Data Abort: loads,
 * stores (DC ZVA/GVA/GZVA write memory, so they are stores), prefetches, cache
 * maintenance by VA and IC IVAU (translated like a load; a fault is a Data
 * Abort), and AT (walks the tables of a regime). DC by set/way, IC IALLU(IS)
 * and TLBI name no VA and are not accesses.
 */
#define EH_INSN_ACCESS (EH_INSN_LOAD | EH_INSN_STORE | EH_INSN_PREFETCH | EH_INSN_MAINT | EH_INSN_TRANSLATE)

struct eh_insn {
	uint64_t addr;
	uint32_t word;
	uint32_t flags;     /* enum eh_insn_flag */
	uint32_t sysreg;    /* EH_SYSREG() encoding (bits 20:5) for MSR/MRS and SYS (DC, IC, AT, TLBI) */
	uint8_t rt;         /* their transfer or operand register, 31 = XZR */
	uint64_t target;    /* direct branch target, literal address, ADR(P) result */
	char text[64];      /* "prfm plil1strm, [x30, #0x400]" */
};

struct eh_decoder;

int eh_decoder_new(struct eh_decoder **out, struct eh_error *err);
void eh_decoder_free(struct eh_decoder *d);
/* How many instructions d holds decoded. */
size_t eh_decoder_size(const struct eh_decoder *d);

/*
 * Decode one instruction; the result is cached by address (and re-decoded if the
 * word at that address changed), so a loop is decoded once, not once per pass.
 * The pointer stays valid until the decoder is freed; NULL when out of memory.
 */
const struct eh_insn *eh_decoder_get(struct eh_decoder *d, uint64_t addr, uint32_t word);
/* Decode without caching into *out. */
void eh_decoder_decode(struct eh_decoder *d, uint64_t addr, uint32_t word, struct eh_insn *out);

/* The address a PRFM names, given a register reader; 0 when the form is not modelled. */
uint64_t eh_insn_prefetch_addr(const struct eh_insn *insn, uint64_t (*xreg)(void *ctx, unsigned n),
			       void *ctx);

/*
 * Whether Unicorn 2.0.1 may abort the whole process on this word. Its `max` CPU
 * (QEMU 5) hits g_assert_not_reached() translating unallocated encodings in the
 * AdvSIMD FP16 groups (three-same and two-register-misc), which are UNDEFINED on
 * every CPU, and an assertion on MRS/MSR of the pointer authentication key
 * registers (an access QEMU routes to EL3), which no modelled CPU implements.
 */
bool eh_insn_emulator_unsafe(uint32_t word);

/* Short text for a flag set: "load", "store", "prefetch", "load+store", "maintenance", "translation". */
const char *eh_insn_access_name(uint32_t flags);

#endif

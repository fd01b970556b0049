/* The harness's stage-1 translation model (EL1&0 regime, 4K granule, 48-bit VA): walks, AT, PAR_EL1, permissions, PAN. */
#ifndef EH_WALK_H
#define EH_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/error.h"

struct eh_machine;

/*
 * Fault status codes, the same in ESR_ELx.DFSC and PAR_EL1.FST (Arm ARM
 * D17.2.40): the type in bits 5:2, the level of the walk in bits 1:0.
 */
#define EH_FSC_ADDRESS_SIZE 0x00u
#define EH_FSC_TRANSLATION 0x04u
#define EH_FSC_ACCESS_FLAG 0x08u
#define EH_FSC_PERMISSION 0x0cu
#define EH_FSC_WALK_ABORT 0x14u   /* synchronous External abort on a table walk */
#define EH_FSC_TYPE(fsc) ((fsc) & 0x3cu)
#define EH_FSC_LEVEL(fsc) ((fsc) & 3u)

/* PAR_EL1 after an AT instruction (Arm ARM D17.2.113). */
#define EH_PAR_F (1ull << 0)            /* the translation faulted */
#define EH_PAR_FST_SHIFT 1              /* F = 1: fault status, bits 6:1 */
#define EH_PAR_FST_MASK 0x3full
#define EH_PAR_SH_SHIFT 7               /* F = 0: shareability, bits 8:7 */
#define EH_PAR_RES1 (1ull << 11)        /* RES1 in both formats */
#define EH_PAR_PA_MASK 0x0000fffffffff000ull
#define EH_PAR_ATTR_SHIFT 56            /* F = 0: the MAIR_EL1 attribute byte */

/* The registers of the EL1&0 stage-1 regime, as the walk reads them, and the CPU's PA size. */
struct eh_walk_regs {
	uint64_t ttbr0, ttbr1, tcr, mair;
	unsigned pa_bits;   /* ID_AA64MMFR0_EL1.PARange as bits; 0: 48, the most the walker models */
};

/* The access being translated: which EL makes it, read or write, and PSTATE.PAN. */
struct eh_walk_access {
	unsigned el;        /* 0 or 1 */
	bool write;
	bool pan;           /* only meaningful at EL1 */
};

/* Reads the 8-byte descriptor at physical address pa; false when no memory is there. */
typedef bool (*eh_walk_read_fn)(void *ctx, uint64_t pa, uint64_t *desc);

/* One walk: its result and the descriptors it read, level by level, for reports. */
struct eh_walk {
	uint64_t va;
	bool fault;
	uint8_t fsc;            /* when fault: EH_FSC_* | level */
	unsigned level;         /* the level that faulted, or that held the leaf */
	uint64_t pa;            /* when !fault */
	uint8_t attr;           /* the leaf's MAIR_EL1 byte */
	unsigned sh;            /* the leaf's SH[1:0] */
	unsigned ap;            /* the leaf's AP[2:1] with every APTable above it applied */
	unsigned ndesc;
	uint64_t desc[4], desc_pa[4];
};

/*
 * Translate va for acc under regs, reading tables through read(ctx, ...), with
 * address size faults against TCR_EL1.IPS or the CPU's PA size, the smaller
 * (at most 48 bits). Not modelled:
 * hardware access flag and dirty updates, execute permissions, stage 2. A fault
 * is a result (out->fault), not an error; an error means regs ask for a
 * configuration the model does not cover (another granule or VA size).
 */
int eh_walk_translate(struct eh_walk *out, const struct eh_walk_regs *regs, uint64_t va,
		      const struct eh_walk_access *acc, eh_walk_read_fn read, void *ctx,
		      struct eh_error *err);

/* PAR_EL1 as AT S1E1R/W (or S1E0R/W) leaves it after the walk w. */
uint64_t eh_walk_par(const struct eh_walk *w);

/* "translation fault, level 2" */
const char *eh_walk_fsc_name(unsigned fsc, char *buf, size_t len);
/* "F=1 FST=0x06 (translation fault, level 2)" or "F=0 PA=0x... ATTR=0xff SH=inner". */
const char *eh_walk_par_describe(uint64_t par, char *buf, size_t len);

/*
 * Walk with thread t's TTBR0/TTBR1/TCR/MAIR_EL1, reading descriptors from the
 * machine's memory: snippet memory stands for physical memory at
 * PA = VA - phys_voffset (the harness maps it flat at kernel VAs).
 */
int eh_walk_machine(struct eh_walk *out, struct eh_machine *m, unsigned t, uint64_t va,
		    const struct eh_walk_access *acc, uint64_t phys_voffset, struct eh_error *err);

#endif

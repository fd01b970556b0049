/* Stage-1 EL1&0 translation table walks (4K granule, 48-bit VA) with the permission and PAN checks, and PAR_EL1. */
#include "eh/walk.h"

#include <inttypes.h>
#include <stdio.h>

#include "eh/machine.h"
#include "eh/model.h"
#include "eh/sysreg.h"

/* TCR_EL1 fields (Arm ARM D17.2.131). */
#define TCR_T0SZ(t) ((t) & 0x3f)
#define TCR_EPD0 (1ull << 7)
#define TCR_TG0(t) (((t) >> 14) & 3)
#define TCR_T1SZ(t) (((t) >> 16) & 0x3f)
#define TCR_EPD1 (1ull << 23)
#define TCR_TG1(t) (((t) >> 30) & 3)
#define TCR_TBI0 (1ull << 37)
#define TCR_TBI1 (1ull << 38)
#define TCR_IPS(t) (((t) >> 32) & 7)
#define TG0_4K 0
#define TG1_4K 2
#define VA_BITS 48

/* VMSAv8-64 descriptors, 4K granule (Arm ARM D8.3). */
#define DESC_VALID (1ull << 0)
#define DESC_TABLE (1ull << 1)     /* levels 0-2: table (1) or block (0); level 3: must be 1 (page) */
#define DESC_ADDR 0x0000fffffffff000ull
#define DESC_ATTRINDX(d) (((d) >> 2) & 7)
#define DESC_AP(d) (((d) >> 6) & 3)   /* AP[2:1] */
#define DESC_SH(d) (((d) >> 8) & 3)
#define DESC_AF (1ull << 10)
#define DESC_APTABLE0 (1ull << 61)   /* no EL0 access below this table */
#define DESC_APTABLE1 (1ull << 62)   /* no write access below this table */
#define AP_EL0 1u                    /* AP[1]: EL0 has access */
#define AP_RO 2u                     /* AP[2]: read-only */

static unsigned level_shift(unsigned level)
{
	return 39 - 9 * level;
}

/*
 * The PA sizes the 3-bit TCR_EL1.IPS and ID_AA64MMFR0_EL1.PARange encode: 32, 36, 40, 42, 44, 48
 * bits, and 52 only with TCR_EL1.DS (FEAT_LPA2), which the walker does not model, so 48 (a
 * 4K-granule descriptor holds OA[47:12]; the reserved value 7 is taken as 48 too).
 */
static const unsigned pa_size_bits[8] = { 32, 36, 40, 42, 44, 48, 48, 48 };

/* The output address size: IPS, or the CPU's PA size when IPS asks for more (Arm ARM, TCR_EL1.IPS). */
static uint64_t oa_limit(const struct eh_walk_regs *regs)
{
	unsigned bits = pa_size_bits[TCR_IPS(regs->tcr)];

	if (regs->pa_bits && regs->pa_bits < bits)
		bits = regs->pa_bits;
	return 1ull << bits;
}

static void fault(struct eh_walk *w, unsigned type, unsigned level)
{
	w->fault = true;
	w->fsc = (uint8_t)(type | level);
	w->level = level;
}

/*
 * Stage-1 permissions (Arm ARM D8.4): AP[1] grants EL0 access, AP[2] makes the
 * page read-only at every EL. With PSTATE.PAN set, an EL1 data access to a page
 * EL0 can access is a permission fault (ARMv8.1-PAN, D8.4.2).
 */
static bool permitted(unsigned ap, const struct eh_walk_access *acc)
{
	if (acc->write && (ap & AP_RO))
		return false;
	if (acc->el == 0)
		return ap & AP_EL0;
	return !(acc->pan && (ap & AP_EL0));
}

int eh_walk_translate(struct eh_walk *out, const struct eh_walk_regs *regs, uint64_t va,
		      const struct eh_walk_access *acc, eh_walk_read_fn read, void *ctx,
		      struct eh_error *err)
{
	bool upper = (va >> 55) & 1;   /* VA[55] selects TTBR1 (D8.2.4), with or without TBI */
	uint64_t tcr = regs->tcr, table, desc = 0, top_mask;
	unsigned level;
	bool no_el0 = false, read_only = false;

	*out = (struct eh_walk){ .va = va };
	if (upper ? TCR_TG1(tcr) != TG1_4K || TCR_T1SZ(tcr) != 64 - VA_BITS
		  : TCR_TG0(tcr) != TG0_4K || TCR_T0SZ(tcr) != 64 - VA_BITS)
		return eh_error_set(err, EH_EINVAL, "TCR_EL1 0x%016" PRIx64 ": the walker models the 4K "
				    "granule with %d-bit VAs (T%cSZ = %d) only, for 0x%016" PRIx64,
				    tcr, VA_BITS, upper ? '1' : '0', 64 - VA_BITS, va);
	/* Bits above the VA size must all equal VA[55], except the top byte under TBI. */
	top_mask = (tcr & (upper ? TCR_TBI1 : TCR_TBI0)) ? 0x00ff000000000000ull : 0xffff000000000000ull;
	if ((va & top_mask) != (upper ? top_mask : 0) || (tcr & (upper ? TCR_EPD1 : TCR_EPD0))) {
		fault(out, EH_FSC_TRANSLATION, 0);
		return 0;
	}
	table = (upper ? regs->ttbr1 : regs->ttbr0) & DESC_ADDR;
	/*
	 * An address beyond the output size, in the TTBR or a descriptor, is an Address size fault at
	 * the level of the lookup it was to be used for, level 0 for the TTBR (Arm ARM D8.3, "Address
	 * size fault"; QEMU 7.2 agrees, tests/qemu/walk-diff.sh).
	 */
	if (table >= oa_limit(regs)) {
		fault(out, EH_FSC_ADDRESS_SIZE, 0);
		return 0;
	}
	for (level = 0; level < 4; level++) {
		uint64_t pa = table + ((va >> level_shift(level)) & 511) * 8;

		out->desc_pa[out->ndesc] = pa;
		if (!read(ctx, pa, &desc)) {
			fault(out, EH_FSC_WALK_ABORT, level);
			return 0;
		}
		out->desc[out->ndesc++] = desc;
		/* A level-0 block and a level-3 "block" are invalid encodings with the 4K granule. */
		if (!(desc & DESC_VALID) || ((level == 0 || level == 3) && !(desc & DESC_TABLE))) {
			fault(out, EH_FSC_TRANSLATION, level);
			return 0;
		}
		if ((desc & DESC_ADDR) >= oa_limit(regs)) {
			fault(out, EH_FSC_ADDRESS_SIZE, level);
			return 0;
		}
		if (level == 3 || !(desc & DESC_TABLE))
			break;
		/* Hierarchical permissions limit everything below the table (D8.4.1). */
		no_el0 |= !!(desc & DESC_APTABLE0);
		read_only |= !!(desc & DESC_APTABLE1);
		table = desc & DESC_ADDR;
	}
	out->level = level;
	out->ap = DESC_AP(desc);
	if (no_el0)
		out->ap &= ~AP_EL0;
	if (read_only)
		out->ap |= AP_RO;
	out->attr = (uint8_t)(regs->mair >> (8 * DESC_ATTRINDX(desc)));
	out->sh = (unsigned)DESC_SH(desc);
	/* The access flag is checked before permissions (fault priority, D8.5); no hardware AF update. */
	if (!(desc & DESC_AF)) {
		fault(out, EH_FSC_ACCESS_FLAG, level);
		return 0;
	}
	if (!permitted(out->ap, acc)) {
		fault(out, EH_FSC_PERMISSION, level);
		return 0;
	}
	out->pa = (desc & DESC_ADDR & ~((1ull << level_shift(level)) - 1)) |
		  (va & ((1ull << level_shift(level)) - 1));
	return 0;
}

uint64_t eh_walk_par(const struct eh_walk *w)
{
	unsigned sh = w->sh;

	if (w->fault)
		return EH_PAR_RES1 | (uint64_t)w->fsc << EH_PAR_FST_SHIFT | EH_PAR_F;
	/* Device and Normal Non-cacheable memory report Outer Shareable whatever SH says. */
	if (!(w->attr & 0xf0) || w->attr == 0x44)
		sh = 2;
	return (uint64_t)w->attr << EH_PAR_ATTR_SHIFT | (w->pa & EH_PAR_PA_MASK) | EH_PAR_RES1 |
	       (uint64_t)sh << EH_PAR_SH_SHIFT;
}

const char *eh_walk_fsc_name(unsigned fsc, char *buf, size_t len)
{
	const char *type;

	switch (EH_FSC_TYPE(fsc)) {
	case 0x00: type = "address size fault"; break;
	case EH_FSC_TRANSLATION: type = "translation fault"; break;
	case EH_FSC_ACCESS_FLAG: type = "access flag fault"; break;
	case EH_FSC_PERMISSION: type = "permission fault"; break;
	case EH_FSC_WALK_ABORT: type = "external abort on a table walk"; break;
	default:
		snprintf(buf, len, "fault status 0x%02x", fsc);
		return buf;
	}
	snprintf(buf, len, "%s, level %u", type, EH_FSC_LEVEL(fsc));
	return buf;
}

const char *eh_walk_par_describe(uint64_t par, char *buf, size_t len)
{
	static const char *const sh_names[] = { "non-shareable", "reserved", "outer", "inner" };
	char fsc[64];

	if (par & EH_PAR_F) {
		unsigned fst = (unsigned)((par >> EH_PAR_FST_SHIFT) & EH_PAR_FST_MASK);

		snprintf(buf, len, "F=1 FST=0x%02x (%s)", fst, eh_walk_fsc_name(fst, fsc, sizeof(fsc)));
	} else {
		snprintf(buf, len, "F=0 PA=0x%012" PRIx64 " ATTR=0x%02x SH=%s", (uint64_t)(par & EH_PAR_PA_MASK),
			 (unsigned)(par >> EH_PAR_ATTR_SHIFT), sh_names[(par >> EH_PAR_SH_SHIFT) & 3]);
	}
	return buf;
}

struct machine_mem {
	struct eh_machine *m;
	uint64_t voffset;
};

static bool read_machine(void *ctx, uint64_t pa, uint64_t *desc)
{
	const struct machine_mem *mm = ctx;
	uint8_t b[8];
	unsigned i;

	if (eh_machine_read(mm->m, pa + mm->voffset, b, sizeof(b), NULL))
		return false;
	for (*desc = 0, i = 0; i < 8; i++)  /* descriptors are little-endian (SCTLR_EL1.EE = 0) */
		*desc |= (uint64_t)b[i] << (8 * i);
	return true;
}

int eh_walk_machine(struct eh_walk *out, struct eh_machine *m, unsigned t, uint64_t va,
		    const struct eh_walk_access *acc, uint64_t phys_voffset, struct eh_error *err)
{
	struct eh_walk_regs regs = { 0 };
	struct machine_mem mm = { .m = m, .voffset = phys_voffset };
	uint64_t mmfr0;

	if (eh_machine_sysreg(m, t, EH_TTBR0_EL1, &regs.ttbr0) ||
	    eh_machine_sysreg(m, t, EH_TTBR1_EL1, &regs.ttbr1) ||
	    eh_machine_sysreg(m, t, EH_TCR_EL1, &regs.tcr) ||
	    eh_machine_sysreg(m, t, EH_MAIR_EL1, &regs.mair))
		return eh_error_set(err, EH_EEMU, "unicorn: cannot read the translation registers of thread %u", t);
	/* The PA size of the thread's core (a model that lists no ID_AA64MMFR0_EL1: the walker's 48 bits). */
	if (!eh_model_id_reg(eh_machine_thread_core(m, t), EH_ID_AA64MMFR0_EL1, &mmfr0))
		regs.pa_bits = pa_size_bits[(mmfr0 & 0xf) < 8 ? mmfr0 & 0xf : 7];
	return eh_walk_translate(out, &regs, va, acc, read_machine, &mm, err);
}

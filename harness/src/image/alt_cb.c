/* The kernel's alternative callbacks (alt_cb_patch_nops, KVM's, the Spectre mitigations'), reimplemented from what they write. */
#include "image/alt_cb.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/sysreg.h"
#include "eh_phys.h"

#define NOP 0xd503201fu

/*
 * The instructions the callbacks write, as the kernel's aarch64_insn_gen_*
 * (arch/arm64/lib/insn.c) encode them for 64-bit registers (Arm ARM C6.2).
 */
static uint32_t movz(unsigned rd, uint16_t imm, unsigned shift)
{
	return 0xd2800000u | (shift / 16) << 21 | (uint32_t)imm << 5 | rd;
}

static uint32_t movk(unsigned rd, uint16_t imm, unsigned shift)
{
	return 0xf2800000u | (shift / 16) << 21 | (uint32_t)imm << 5 | rd;
}

/* ADD (immediate): imm < 4096, or a multiple of 4096 below 2^24 (LSL #12). */
static uint32_t add_imm(unsigned rd, unsigned rn, uint64_t imm)
{
	bool shift = imm >= 4096;

	return 0x91000000u | (uint32_t)shift << 22 | (uint32_t)((shift ? imm >> 12 : imm) & 0xfff) << 10 |
	       rn << 5 | rd;
}

/* EXTR; ROR Rd, Rn, #lsb is EXTR Rd, Rn, Rn, #lsb. */
static uint32_t extr(unsigned rd, unsigned rn, unsigned rm, unsigned lsb)
{
	return 0x93c00000u | rm << 16 | lsb << 10 | rn << 5 | rd;
}

static uint64_t ror(uint64_t v, unsigned r, unsigned size)
{
	uint64_t mask = size == 64 ? ~0ull : (1ull << size) - 1;

	r %= size;
	return r ? ((v >> r) | (v << (size - r))) & mask : v;
}

/*
 * A logical (immediate) instruction, base the opcode with sf, for a value that
 * is one rotated run of ones as wide as the register (the element size the
 * callbacks' masks need); 0 when v is not such a run.
 */
static uint32_t logical_imm(uint32_t base, unsigned size, uint64_t v, unsigned rd, unsigned rn)
{
	uint64_t mask = size == 64 ? ~0ull : (1ull << size) - 1;
	unsigned ones = (unsigned)__builtin_popcountll(v & mask), r;

	if (!ones || ones == size)
		return 0;
	for (r = 0; r < size; r++)
		if (ror((1ull << ones) - 1, r, size) == (v & mask))
			return base | (size == 64) << 22 | r << 16 | (ones - 1) << 10 | rn << 5 | rd;
	return 0;
}

static unsigned reg_rd(uint32_t insn)
{
	return insn & 31;
}

static unsigned reg_rn(uint32_t insn)
{
	return (insn >> 5) & 31;
}

/* generate_mov_q (arch/arm64/kvm/va_layout.c): MOVZ and three MOVK of val into the first word's Rd. */
static void mov_q(uint32_t *w, uint64_t val)
{
	unsigned rd = reg_rd(w[0]);

	w[0] = movz(rd, (uint16_t)val, 0);
	w[1] = movk(rd, (uint16_t)(val >> 16), 16);
	w[2] = movk(rd, (uint16_t)(val >> 32), 32);
	w[3] = movk(rd, (uint16_t)(val >> 48), 48);
}

/*
 * The boot-time values of KVM's layout for the machine the harness describes:
 * 48-bit VAs, 4 GiB of DRAM linear-mapped from PAGE_OFFSET, the kernel image
 * at PA = VA - EH_PHYS_VOFFSET (so below bit 47), and no random tag bits
 * (kvm_compute_layout's get_random_long() taken as 0, deterministic). They only
 * fill immediates of MOVZ/MOVK, AND, ADD and ROR: no access and no branch turns
 * on them.
 */
#define VA_BITS 48
#define PAGE_OFFSET (~0ull << VA_BITS)
#define DRAM_SIZE (4ull << 30)

struct hyp_layout {
	unsigned tag_lsb;
	uint64_t va_mask, tag_val;
};

/* kvm_compute_layout() (arch/arm64/kvm/va_layout.c). */
static struct hyp_layout hyp_layout(void)
{
	struct hyp_layout l;
	uint64_t hyp_va_msb = 1ull << (VA_BITS - 1);  /* the idmap (the image's PA) has bit 47 clear */

	l.tag_lsb = 64 - (unsigned)__builtin_clzll(DRAM_SIZE - 1);  /* fls64(start ^ (end - 1)) */
	l.va_mask = (1ull << l.tag_lsb) - 1;
	l.tag_val = hyp_va_msb >> l.tag_lsb;
	return l;
}

static uint64_t early_kern_hyp_va(const struct hyp_layout *l, uint64_t addr)
{
	return (addr & l->va_mask) | l->tag_val << l->tag_lsb;
}

struct cb_ctx {
	const struct eh_image *img;
	const struct eh_alt_cb_env *env;
	const struct eh_alt_site *site;
	struct eh_alt_outcome *out;
	uint32_t *w;
	unsigned n;
};

static enum eh_alt_cb_result result(struct cb_ctx *c, enum eh_alt_cb_result r, const char *why)
{
	c->out->cb_why = why;
	return r;
}

static enum eh_alt_cb_result nops(struct cb_ctx *c, const char *why)
{
	unsigned i;

	for (i = 0; i < c->n; i++)
		c->w[i] = NOP;
	return result(c, EH_ALT_CB_PATCHED, why);
}

/* alt_cb_patch_nops (arch/arm64/kernel/alternative.c): every instruction a NOP. */
static enum eh_alt_cb_result cb_patch_nops(struct cb_ctx *c)
{
	return nops(c, "every instruction a NOP");
}

/* kvm_update_va_mask (arch/arm64/kvm/va_layout.c): kern_hyp_va's AND, ROR, ADD, ADD, ROR. */
static enum eh_alt_cb_result cb_update_va_mask(struct cb_ctx *c)
{
	struct hyp_layout l = hyp_layout();
	unsigned i;

	if (c->env->vhe)
		return nops(c, "VHE: hyp VAs are kernel VAs, every instruction a NOP");
	for (i = 0; i < c->n; i++) {
		unsigned rd = reg_rd(c->w[i]), rn = reg_rn(c->w[i]);

		if (!l.tag_val && i > 0) {
			c->w[i] = NOP;
			continue;
		}
		switch (i) {
		case 0: c->w[i] = logical_imm(0x92000000u, 64, l.va_mask, rd, rn); break;
		case 1: c->w[i] = extr(rd, rn, rn, l.tag_lsb); break;
		case 2: c->w[i] = add_imm(rd, rn, l.tag_val & 0xfff); break;
		case 3: c->w[i] = add_imm(rd, rn, l.tag_val & 0xfff000); break;
		default: c->w[i] = extr(rd, rn, rn, 64 - l.tag_lsb); break;
		}
	}
	return result(c, EH_ALT_CB_PATCHED, "the hyp VA mask and tag of the modelled layout");
}

/* kvm_patch_vector_branch (arch/arm64/kvm/va_layout.c): a MOVZ/MOVK of the hyp vector and BR x0. */
static enum eh_alt_cb_result cb_patch_vector_branch(struct cb_ctx *c)
{
	/* CHOOSE_HYP_SYM(__kvm_hyp_vector) without VHE: the nVHE one (its own name in a lone object). */
	static const char *const vectors[] = { "__kvm_nvhe___kvm_hyp_vector", "__kvm_hyp_vector", NULL };
	const struct eh_elf_symbol *sym = NULL;
	const char *const *v;
	struct hyp_layout l = hyp_layout();
	uint64_t addr;

	if (!c->env->spectre_v3a)
		return result(c, EH_ALT_CB_KEPT, "kept: no ARM64_SPECTRE_V3A");
	if (c->env->vhe)
		return result(c, EH_ALT_CB_KEPT, "kept: VHE");
	for (v = vectors; *v && !sym; v++)
		sym = eh_elf_symbol_by_name(c->img->elf, *v);
	if (!sym)
		return result(c, EH_ALT_CB_UNCERTAIN, "the hyp vectors (__kvm_hyp_vector) are not in this file");
	/*
	 * kvm_ksym_ref() without VHE is the linear-map alias; PC[10:7] picks the
	 * same vector; KVM_VECTOR_PREAMBLE (two instructions) is skipped.
	 */
	addr = early_kern_hyp_va(&l, sym->value - EH_PHYS_VOFFSET + PAGE_OFFSET) | (c->site->orig & 0x780);
	addr += 8;
	c->w[0] = movz(0, (uint16_t)addr, 0);
	c->w[1] = movk(0, (uint16_t)(addr >> 16), 16);
	c->w[2] = movk(0, (uint16_t)(addr >> 32), 32);
	c->w[3] = 0xd61f0000u;  /* br x0 */
	return result(c, EH_ALT_CB_PATCHED, "a branch to the hyp vectors through x0");
}

/* kvm_get_kimage_voffset (arch/arm64/kvm/va_layout.c). */
static enum eh_alt_cb_result cb_get_kimage_voffset(struct cb_ctx *c)
{
	mov_q(c->w, EH_PHYS_VOFFSET);
	return result(c, EH_ALT_CB_PATCHED, "kimage_voffset of the modelled layout");
}

/* kvm_compute_final_ctr_el0 (arch/arm64/kvm/va_layout.c): the sanitised CTR_EL0 (a system's, combined across its cores). */
static enum eh_alt_cb_result cb_compute_final_ctr_el0(struct cb_ctx *c)
{
	uint64_t ctr;

	if (eh_model_id_reg(c->img->target.model, EH_CTR_EL0, &ctr))
		return result(c, EH_ALT_CB_UNCERTAIN, "the model gives no CTR_EL0");
	mov_q(c->w, ctr);
	return result(c, EH_ALT_CB_PATCHED, "the model's CTR_EL0");
}

/* spectre_v4_patch_fw_mitigation_enable (arch/arm64/kernel/proton-pack.c), with the default command line. */
static enum eh_alt_cb_result cb_spectre_v4_enable(struct cb_ctx *c)
{
	if (c->env->ssbs)
		return result(c, EH_ALT_CB_KEPT, "kept: the CPU has SSBS");
	c->w[0] = NOP;
	return result(c, EH_ALT_CB_PATCHED, "a NOP: the dynamic Spectre-v4 mitigation is on (default)");
}

/* smccc_patch_fw_mitigation_conduit (arch/arm64/kernel/proton-pack.c). */
static enum eh_alt_cb_result cb_smccc_conduit(struct cb_ctx *c)
{
	return result(c, EH_ALT_CB_UNCERTAIN, "the SMCCC conduit (SMC, HVC or none) is the firmware's: not modelled");
}

/* MIDR implementer and part, all variants and revisions (MIDR_ALL_VERSIONS in asm/cputype.h). */
struct midr_part {
	uint8_t implementer;
	uint16_t part;
};

static bool midr_in(uint32_t midr, const struct midr_part *list)
{
	for (; list->implementer; list++)
		if (EH_MIDR_IMPL(midr) == list->implementer && EH_MIDR_PART(midr) == list->part)
			return true;
	return false;
}

/* The lists of arch/arm64/kernel/proton-pack.c (6.1.192). */
static const struct midr_part spectre_v2_safe[] = {
	{ 0x41, 0xd04 }, { 0x41, 0xd03 }, { 0x41, 0xd05 }, { 0x42, 0x100 }, { 0x48, 0xd01 },
	{ 0x51, 0x801 }, { 0x51, 0x803 }, { 0x51, 0x805 }, { 0 },
};

static const struct midr_part spectre_bhb_safe[] = {
	{ 0x41, 0xd04 }, { 0x41, 0xd03 }, { 0x41, 0xd05 }, { 0x41, 0xd46 }, { 0x41, 0xd80 },
	{ 0x42, 0x100 }, { 0x51, 0x801 }, { 0x51, 0x803 }, { 0x51, 0x805 }, { 0 },
};

/* spectre_bhb_loop_affected(): the loop's iteration count k by CPU. */
static const struct {
	uint8_t k;
	struct midr_part cpus[11];
} spectre_bhb_k[] = {
	{ 132, { { 0x41, 0xd4e }, { 0x41, 0xd4f } } },
	{ 38, { { 0x41, 0xd4d }, { 0x41, 0xd81 } } },
	{ 32, { { 0x41, 0xd41 }, { 0x41, 0xd42 }, { 0x41, 0xd4b }, { 0x41, 0xd44 }, { 0x41, 0xd4c },
		{ 0x41, 0xd47 }, { 0x41, 0xd48 }, { 0x41, 0xd49 }, { 0x41, 0xd40 }, { 0x48, 0xd01 } } },
	{ 24, { { 0x41, 0xd0b }, { 0x41, 0xd0e }, { 0x41, 0xd0d }, { 0x41, 0xd0c }, { 0x51, 0x804 },
		{ 0x48, 0xd02 } } },
	{ 11, { { 0xc0, 0xac3 } } },
	{ 8, { { 0x41, 0xd08 }, { 0x41, 0xd07 } } },
};

static unsigned bhb_loop_k(uint32_t midr)
{
	size_t i;

	for (i = 0; i < sizeof(spectre_bhb_k) / sizeof(spectre_bhb_k[0]); i++)
		if (midr_in(midr, spectre_bhb_k[i].cpus))
			return spectre_bhb_k[i].k;
	return 0;
}

static unsigned id_field(const struct eh_model *m, uint32_t reg, unsigned shift)
{
	uint64_t v = 0;

	eh_model_id_reg(m, reg, &v);  /* an ID register a model does not list reads as zero (RAZ) */
	return (unsigned)(v >> shift) & 0xf;
}

/* Whether a Spectre-BHB mitigation is the one the kernel picks: no, yes, or the firmware decides. */
enum tri { NO, YES, FIRMWARE };

enum bhb { BHB_HW, BHB_INSN, BHB_LOOP, BHB_FW };

/*
 * spectre_bhb_enable_mitigation() for a system of one kind of CPU, with the
 * default command line. The firmware's answers to SMCCC ARCH_WORKAROUND_1 and
 * _3 are not modelled: where the kernel's choice turns on them the answer is
 * FIRMWARE. Also gives max_bhb_k, which needs no firmware.
 */
static enum tri core_bhb_mitigation(const struct eh_image *img, const struct eh_model *m, enum bhb which,
				    unsigned *max_k)
{
	bool clearbhb = id_field(m, EH_ID_AA64ISAR2_EL1, 28), v2_known;
	enum bhb chosen;

	*max_k = 0;
	if (id_field(m, EH_ID_AA64PFR0_EL1, 56) == 3 || midr_in(m->midr, spectre_bhb_safe))
		return NO;  /* CSV2_3, or a safe CPU: not affected */
	if (!clearbhb)
		*max_k = bhb_loop_k(m->midr);
	/* Spectre-v2 is unaffected with CSV2 or on a safe CPU; otherwise the firmware's WA1 decides. */
	v2_known = id_field(m, EH_ID_AA64PFR0_EL1, 56) || midr_in(m->midr, spectre_v2_safe);
	if (!eh_kconfig_enabled(img->target.config, "CONFIG_MITIGATE_SPECTRE_BRANCH_HISTORY"))
		return NO;
	if (id_field(m, EH_ID_AA64MMFR1_EL1, 60))
		chosen = BHB_HW;
	else if (clearbhb)
		chosen = BHB_INSN;
	else if (bhb_loop_k(m->midr))
		chosen = BHB_LOOP;
	else
		chosen = BHB_FW;
	if (chosen != which)
		return NO;
	return v2_known && chosen != BHB_FW ? YES : FIRMWARE;
}

/*
 * The same for the whole target: each CPU picks its own mitigation, and the callbacks read
 * system_bhb_mitigations (a bit set by any CPU) and max_bhb_k (the largest of any CPU's k);
 * a system's cores are taken in turn, the strongest answer winning (yes, then firmware).
 */
static enum tri bhb_mitigation(const struct eh_image *img, enum bhb which, unsigned *max_k)
{
	const struct eh_model *one[] = { img->target.model, NULL };
	const struct eh_model *const *m = img->target.model->cores ? img->target.model->cores : one;
	enum tri best = NO, got;
	unsigned k;

	*max_k = 0;
	for (; *m; m++) {
		got = core_bhb_mitigation(img, *m, which, &k);
		if (k > *max_k)
			*max_k = k;
		if (got == YES || (got == FIRMWARE && best == NO))
			best = got;
	}
	return best;
}

static const char bhb_firmware[] = "turns on the firmware's SMCCC ARCH_WORKAROUND answers: not modelled";

/* spectre_bhb_patch_loop_mitigation_enable: a NOP when the branchy loop is the mitigation. */
static enum eh_alt_cb_result cb_bhb_loop_enable(struct cb_ctx *c)
{
	unsigned k;

	switch (bhb_mitigation(c->img, BHB_LOOP, &k)) {
	case YES: c->w[0] = NOP; return result(c, EH_ALT_CB_PATCHED, "a NOP: the BHB loop mitigates");
	case NO: return result(c, EH_ALT_CB_KEPT, "kept: the BHB loop is not the mitigation");
	default: return result(c, EH_ALT_CB_UNCERTAIN, bhb_firmware);
	}
}

/* spectre_bhb_patch_loop_iter: MOVZ Rd, #max_bhb_k. */
static enum eh_alt_cb_result cb_bhb_loop_iter(struct cb_ctx *c)
{
	unsigned k;

	if (!eh_kconfig_enabled(c->img->target.config, "CONFIG_MITIGATE_SPECTRE_BRANCH_HISTORY"))
		return result(c, EH_ALT_CB_KEPT, "kept: CONFIG_MITIGATE_SPECTRE_BRANCH_HISTORY off");
	bhb_mitigation(c->img, BHB_LOOP, &k);
	c->w[0] = movz(reg_rd(c->w[0]), (uint16_t)k, 0);
	return result(c, EH_ALT_CB_PATCHED, "the BHB loop count of the CPU");
}

/* spectre_bhb_patch_wa3: ORR Wd, WZR, #ARM_SMCCC_ARCH_WORKAROUND_3 when the firmware mitigates. */
static enum eh_alt_cb_result cb_bhb_wa3(struct cb_ctx *c)
{
	unsigned k;

	switch (bhb_mitigation(c->img, BHB_FW, &k)) {
	case NO: return result(c, EH_ALT_CB_KEPT, "kept: the firmware call is not the BHB mitigation");
	default: return result(c, EH_ALT_CB_UNCERTAIN, bhb_firmware);
	}
}

/* spectre_bhb_patch_clearbhb: two NOPs unless CLEARBHB is the mitigation. */
static enum eh_alt_cb_result cb_bhb_clearbhb(struct cb_ctx *c)
{
	unsigned k;

	switch (bhb_mitigation(c->img, BHB_INSN, &k)) {
	case YES: return result(c, EH_ALT_CB_KEPT, "kept: CLEARBHB mitigates");
	case NO: return nops(c, "NOPs: CLEARBHB is not the mitigation");
	default: return result(c, EH_ALT_CB_UNCERTAIN, bhb_firmware);
	}
}

/*
 * A kernel callback the harness emulates, with the length its BUG_ON requires (0: any), and
 * whether what it writes turns on the target (or only on the site's own words).
 */
struct callback {
	const char *name;
	unsigned ninsns;
	enum eh_alt_cb_result (*run)(struct cb_ctx *c);
	bool reads_target;
};

static const struct callback callbacks[] = {
	{ "alt_cb_patch_nops", 0, cb_patch_nops, false },
	{ "kvm_update_va_mask", 5, cb_update_va_mask, true },
	{ "kvm_patch_vector_branch", 4, cb_patch_vector_branch, true },
	{ "kvm_get_kimage_voffset", 4, cb_get_kimage_voffset, true },
	{ "kvm_compute_final_ctr_el0", 4, cb_compute_final_ctr_el0, true },
	{ "spectre_v4_patch_fw_mitigation_enable", 1, cb_spectre_v4_enable, true },
	{ "smccc_patch_fw_mitigation_conduit", 1, cb_smccc_conduit, true },
	{ "spectre_bhb_patch_loop_mitigation_enable", 1, cb_bhb_loop_enable, true },
	{ "spectre_bhb_patch_loop_iter", 1, cb_bhb_loop_iter, true },
	{ "spectre_bhb_patch_wa3", 1, cb_bhb_wa3, true },
	{ "spectre_bhb_patch_clearbhb", 2, cb_bhb_clearbhb, true },
	{ 0 },
};

uint8_t eh_alt_cb_kind(const char *name)
{
	uint8_t k;

	for (k = 0; name && callbacks[k].name; k++)
		if (!strcmp(callbacks[k].name, name))
			return (uint8_t)(k + 1);
	return 0;
}

bool eh_alt_cb_fixed(const struct eh_alt_site *s, uint32_t *words, struct eh_alt_outcome *out)
{
	struct cb_ctx c = { NULL, NULL, s, out, words, s->orig_len / 4u };
	const struct callback *cb = s->cb_kind ? &callbacks[s->cb_kind - 1] : NULL;

	if (!cb || cb->reads_target || (cb->ninsns && c.n != cb->ninsns))
		return false;
	out->cb_result = cb->run(&c);
	return true;
}

void eh_alt_cb_env_of(const struct eh_image *img, struct eh_alt_cb_env *env)
{
	env->vhe = eh_image_has_cap(img, "ARM64_HAS_VIRT_HOST_EXTN");
	env->spectre_v3a = eh_image_has_cap(img, "ARM64_SPECTRE_V3A");
	env->ssbs = eh_image_has_cap(img, "ARM64_SSBS");
}

int eh_alt_cb_run(const struct eh_image *img, const struct eh_alt_cb_env *env, const struct eh_alt_site *s,
		  struct eh_alt_outcome *out, uint32_t *words, struct eh_error *err)
{
	struct cb_ctx c = { img, env, s, out, words, s->orig_len / 4u };
	const struct callback *cb = s->cb_kind ? &callbacks[s->cb_kind - 1] : NULL;

	if (!cb) {
		out->cb_result = result(&c, EH_ALT_CB_UNCERTAIN, "not emulated");
		return 0;
	}
	if (cb->ninsns && c.n != cb->ninsns)
		return eh_error_set(err, EH_EINPUT,
				    "%s: callback %s at 0x%" PRIx64 " patches %u instructions, the kernel's needs %u",
				    img->elf->path, cb->name, s->orig, c.n, cb->ninsns);
	out->cb_result = cb->run(&c);
	return 0;
}

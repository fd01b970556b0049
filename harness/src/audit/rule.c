/* What a static rule may look at in the image it audits: instructions and their neighbours, names, alternatives, where code runs. */
#include "eh/rule.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit_ctx.h"

bool eh_rule_triggered(const struct eh_rule_trigger *triggers, uint32_t word)
{
	for (; triggers->mask; triggers++)
		if ((word & triggers->mask) == triggers->value)
			return true;
	return false;
}

const struct eh_elf *eh_rule_elf(const struct eh_rule_ctx *ctx)
{
	return ctx->img->elf;
}

const char *eh_rule_where(const struct eh_rule_ctx *ctx, uint64_t addr, char *buf, size_t len)
{
	return eh_elf_describe(ctx->img->elf, addr, buf, len);
}

/* Index of the last of n sites (sorted by key) whose key is <= addr, or n if none. */
static size_t last_at_or_below(const struct eh_alt_site *const *v, size_t n, uint64_t addr, bool repl)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((repl ? v[mid]->repl : v[mid]->orig) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : n;
}

/* eh_alt_parse made sure the sites' original ranges do not overlap. */
const struct eh_alt_site *eh_audit__site(const struct eh_rule_ctx *ctx, uint64_t addr)
{
	size_t n = ctx->img->nsites, i = last_at_or_below(ctx->by_orig, n, addr, false);

	if (i == n || addr - ctx->by_orig[i]->orig >= ctx->by_orig[i]->orig_len)
		return NULL;
	return ctx->by_orig[i];
}

bool eh_audit__touches_site(const struct eh_rule_ctx *ctx, uint64_t lo, uint64_t hi)
{
	size_t n = ctx->img->nsites, i = last_at_or_below(ctx->by_orig, n, hi - 1, false);

	return i < n && ctx->by_orig[i]->orig + ctx->by_orig[i]->orig_len > lo;
}

bool eh_audit__sites_agree(const struct eh_rule_ctx *ctx, const struct eh_image *img, uint64_t lo, uint64_t hi)
{
	size_t n = ctx->img->nsites, i = last_at_or_below(ctx->by_orig, n, lo, false);

	if (i == n)
		i = 0;
	for (; i < n && ctx->by_orig[i]->orig < hi; i++) {
		const struct eh_alt_site *s = ctx->by_orig[i];
		struct eh_alt_outcome x, y;

		if (s->orig + s->orig_len <= lo)
			continue;
		x = eh_image_outcome(ctx->img, s);
		y = eh_image_outcome(img, &img->sites[s - ctx->img->sites]);
		if (x.applied != y.applied || x.cb_result != y.cb_result || x.state != y.state || x.rule != y.rule ||
		    x.cb_why != y.cb_why)
			return false;
	}
	return true;
}

/* What the image's alternatives did differs between images: a verdict that asks holds where they agree. */
const struct eh_alt_site *eh_rule_site(const struct eh_rule_ctx *ctx, uint64_t addr)
{
	struct eh_rule_ctx *c = (struct eh_rule_ctx *)ctx;

	if (c->tracking) {
		c->site_asked = true;
		c->lo = addr < c->lo ? addr : c->lo;
		c->hi = addr > c->hi ? addr : c->hi;
	}
	return eh_audit__site(ctx, addr);
}

bool eh_rule_applied(const struct eh_rule_ctx *ctx, const struct eh_alt_site *s)
{
	return eh_image_applied(ctx->img, s);
}

bool eh_audit__replacement_in(const struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr)
{
	int bit = s && ctx->bits ? eh_audit__bit(ctx->bits->repl, ctx->img->elf, s, addr) : -1;
	size_t i;

	if (bit >= 0)
		return bit;
	/* Replacement ranges are under 256 bytes. */
	for (i = last_at_or_below(ctx->by_repl, ctx->nrepl, addr, true); i < ctx->nrepl && addr - ctx->by_repl[i]->repl < 256;
	     i--)
		if (addr - ctx->by_repl[i]->repl < ctx->by_repl[i]->repl_len)
			return true;
	return false;
}

bool eh_audit__is_replacement(const struct eh_rule_ctx *ctx, uint64_t addr)
{
	return eh_audit__replacement_in(ctx, eh_elf_section_at(ctx->img->elf, addr), addr);
}

int eh_audit__word_in(struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr, bool patched,
		      uint32_t *word)
{
	const uint8_t *p;
	int rc;

	if (!s)
		return EH_ENOENT;
	if (patched) {
		rc = eh_image_word_in(ctx->img, s, addr, &ctx->code, word);
	} else {
		rc = eh_elf_windows_at(ctx->img->elf, &ctx->code, s, addr - s->addr, &p);
		if (!rc)
			*word = eh_insn_word(p);
	}
	if ((rc == EH_EIO || rc == EH_ENOMEM) && !ctx->read_rc) {
		ctx->read_rc = rc;
		ctx->read_errno = errno;
	}
	return rc;
}

/*
 * The word at addr of section s (which holds it, or NULL), into *word: the instruction insn_in
 * decodes. One no alternative covers is the file's.
 */
static int word_in(struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr, uint32_t *word)
{
	uint64_t off = addr - (s ? s->addr : 0);

	if (ctx->tracking) {
		ctx->lo = addr < ctx->lo ? addr : ctx->lo;
		ctx->hi = addr > ctx->hi ? addr : ctx->hi;
	}
	if (!s || !(s->flags & SHF_EXECINSTR) || off >= s->size || s->size - off < 4 || addr & 3 ||
	    eh_audit__word_in(ctx, s, addr, !ctx->bits || !s->data || eh_audit__bit(ctx->bits->orig, ctx->img->elf, s, addr),
			      word))
		return EH_ENOENT;
	return eh_audit__replacement_in(ctx, s, addr) ? EH_ENOENT : 0;
}

/* The instruction at addr of section s (which holds it, or NULL), into *out. */
static int insn_in(struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t addr, struct eh_insn *out)
{
	const struct eh_insn *cached;
	uint32_t word;

	if (word_in(ctx, s, addr, &word))
		return EH_ENOENT;
	cached = eh_decoder_get(ctx->dec, addr, word);
	if (cached)
		*out = *cached;
	else
		eh_decoder_decode(ctx->dec, addr, word, out);
	return 0;
}

int eh_rule_neighbour(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, struct eh_insn *out)
{
	return insn_in(ctx, eh_elf_section_at(ctx->img->elf, in->addr), in->addr + (uint64_t)(delta * 4), out);
}

int eh_rule_neighbour_word(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, uint32_t *word)
{
	return word_in(ctx, eh_elf_section_at(ctx->img->elf, in->addr), in->addr + (uint64_t)(delta * 4), word);
}

size_t eh_rule_neighbour_words(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, size_t n,
			       uint32_t *words)
{
	const struct eh_elf *elf = ctx->img->elf;
	const struct eh_elf_section *s = eh_elf_section_at(elf, in->addr);
	uint64_t first = in->addr + (uint64_t)(delta * 4), off = first - (s ? s->addr : 0), addr, end = 0;
	const uint8_t *run = NULL;
	size_t k, p;

	/*
	 * A run in code the site bits cover, read straight, to the end of the chunk its first word
	 * is in (eh_elf_windows_at): the file's word unless a site's original range holds it, the
	 * patches walked in step; the bits say where a replacement ends the run. Else (and at the
	 * run's end, which tracking records) a word at a time.
	 */
	if (ctx->bits && s && s->data && (s->flags & SHF_EXECINSTR) && !(first & 3) && off < s->size &&
	    eh_audit__bit(ctx->bits->orig, elf, s, first) >= 0 && !eh_elf_windows_at(elf, &ctx->code, s, off, &run))
		end = (off / EH_ELF_CURSOR_CHUNK + 1) * EH_ELF_CURSOR_CHUNK;
	if (!run)
		k = 0;
	else
		for (k = 0, p = eh_image_patch_from(ctx->img, first); k < n; k++) {
			addr = first + 4 * k;
			if (addr - s->addr >= s->size || s->size - (addr - s->addr) < 4 || addr - s->addr + 4 > end ||
			    eh_audit__bit(ctx->bits->repl, elf, s, addr))
				break;
			words[k] = eh_insn_word(run + 4 * k);
			if (!eh_audit__bit(ctx->bits->orig, elf, s, addr))
				continue;
			while (p < ctx->img->npatches && eh_image_patch_addr(ctx->img, p) < addr)
				p++;
			if (p < ctx->img->npatches && eh_image_patch_addr(ctx->img, p) == addr)
				words[k] = ctx->img->patches[p].word;
		}
	if (k && ctx->tracking) {
		ctx->lo = first < ctx->lo ? first : ctx->lo;
		ctx->hi = first + 4 * (k - 1) > ctx->hi ? first + 4 * (k - 1) : ctx->hi;
	}
	for (; k < n && !word_in(ctx, s, first + 4 * k, &words[k]); k++)
		;
	return k;
}

int eh_rule_insn_at(struct eh_rule_ctx *ctx, uint64_t addr, struct eh_insn *out)
{
	return insn_in(ctx, eh_elf_section_at(ctx->img->elf, addr), addr, out);
}

int eh_rule_next(struct eh_rule_ctx *ctx, const struct eh_insn *in, struct eh_insn *out)
{
	if (in->flags & (EH_INSN_COND | EH_INSN_INDIRECT | EH_INSN_CALL | EH_INSN_ERET | EH_INSN_EXC_GEN |
			 EH_INSN_INVALID))
		return EH_ENOENT;
	if (in->flags & EH_INSN_BRANCH)
		return eh_rule_insn_at(ctx, in->target, out);
	return eh_rule_neighbour(ctx, in, 1, out);
}

int eh_rule_report(struct eh_rule_ctx *ctx, const struct eh_insn *in, uint64_t anchor, const char *kind,
		   const char *fmt, ...)
{
	struct eh_finding *f = eh_audit__add_finding(ctx, in->addr, anchor);
	va_list ap;

	if (!f)
		return EH_ENOMEM;
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	snprintf(f->text, sizeof(f->text), "%s", in->text);
	va_start(ap, fmt);
	vsnprintf(f->explain, sizeof(f->explain), fmt, ap);
	va_end(ap);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * KVM's write_sysreg_el1() (asm/kvm_hyp.h): MSR of the EL1 encoding, an
 * alternative on ARM64_HAS_VIRT_HOST_EXTN to the same register's EL12
 * encoding. The EL1 form is what runs without VHE, and then the code runs at
 * EL2 with E2H clear: only KVM's hyp code uses the macro.
 */
static bool is_write_sysreg_el1(const struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const struct eh_alt_site *s = eh_audit__site(ctx, in->addr);
	uint32_t repl;

	return s && !s->callback && !eh_rule_applied(ctx, s) && s->cap_name && (in->flags & EH_INSN_MSR) &&
	       !strcmp(s->cap_name, "ARM64_HAS_VIRT_HOST_EXTN") &&
	       !eh_elf_word(ctx->img->elf, s->repl + (in->addr - s->orig), &repl) &&
	       repl == (in->word | 5u << 16);  /* op1 0 -> 5: the EL1 encoding -> the EL12 one */
}

/* The image's word at addr, or 0 (UDF) where it has none. */
static uint32_t word_at(struct eh_rule_ctx *ctx, uint64_t addr)
{
	uint32_t w = 0;

	eh_audit__word_in(ctx, eh_elf_section_at(ctx->img->elf, addr), addr, true, &w);
	return w;
}

/*
 * The constant a MOVZ (or MOVN) and MOVKs right before addr put in Xrt, as the
 * kernel's mov_q writes one; -1 when they do not.
 */
static int64_t mov_q_value(struct eh_rule_ctx *ctx, uint64_t addr, unsigned rt, uint64_t lo)
{
	uint64_t v = 0, set = 0, a;

	for (a = addr - 4; a >= lo && a < addr && addr - a <= 4 * 4; a -= 4) {  /* MOVZ and 3 MOVKs */
		uint32_t w = word_at(ctx, a);
		unsigned hw = (w >> 21) & 3;
		uint64_t imm = (uint64_t)((w >> 5) & 0xffff) << (16 * hw);

		if ((w & 31) != rt)
			return -1;
		if ((w & 0xff800000) == 0xf2800000) {  /* MOVK Xd: this halfword, unless a later one set it */
			if (!(set & 0xffffull << (16 * hw)))
				v |= imm;
			set |= 0xffffull << (16 * hw);
			continue;
		}
		if ((w & 0xff800000) == 0xd2800000)  /* MOVZ Xd */
			return (int64_t)((v & set) | (imm & ~set));
		if ((w & 0xff800000) == 0x92800000)  /* MOVN Xd */
			return (int64_t)((v & set) | (~imm & ~set));
		return -1;
	}
	return -1;
}

/* How far before an instruction its function's write of HCR_EL2 is looked for. */
#define E2H_LOOKBACK 256

/*
 * Whether EL2 code at addr runs with HCR_EL2.E2H set: from the nearest write
 * of HCR_EL2 before it in its function, within E2H_LOOKBACK instructions (the
 * hyp stub's __finalise_el2 sets HCR_HOST_VHE_FLAGS with mov_q; msr hcr_el2;
 * isb, some 30 instructions before). 1 set, 0 clear, -1 unknown.
 */
static int e2h_before(struct eh_rule_ctx *ctx, uint64_t addr)
{
	uint64_t off = 0, a;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(ctx->img->elf, addr, &off);
	uint64_t lo = addr - off;

	for (a = addr - 4; sym && a >= lo && a < addr && addr - a <= 4 * E2H_LOOKBACK; a -= 4) {
		uint32_t w = word_at(ctx, a);
		int64_t v;

		if ((w & 0xffffffe0) != 0xd51c1100)  /* MSR HCR_EL2, Xt */
			continue;
		v = mov_q_value(ctx, a, w & 31, lo);
		return v < 0 ? -1 : (int)((uint64_t)v >> 34 & 1);  /* HCR_EL2.E2H, bit 34 */
	}
	return -1;
}

/* KVM's nVHE hyp code, which runs at EL2 with E2H clear: its symbol prefix, its objects; NULL when in is not. */
static const char *kvm_nvhe(const struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	const struct eh_elf *elf = ctx->img->elf;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, in->addr, NULL);

	if (sym && !strncmp(sym->name, "__kvm_nvhe_", 11))
		return "nVHE hyp code (a __kvm_nvhe_ symbol)";
	if (ends_with(elf->path, ".nvhe.o"))
		return "nVHE hyp code (a .nvhe.o object)";
	return NULL;
}

enum eh_run_el eh_rule_run_el(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	const struct eh_elf_section *sec = eh_elf_section_at(ctx->img->elf, in->addr);

	/* What images differ in: an alternative's outcome, the words before, the target's VHE. */
	if ((*why = kvm_nvhe(ctx, in)))
		return EH_RUN_EL2_NVHE;
	if (eh_audit__site(ctx, in->addr))
		ctx->varies = true;
	if (is_write_sysreg_el1(ctx, in))
		return *why = "KVM's write_sysreg_el1() without VHE: hyp code at EL2", EH_RUN_EL2_NVHE;
	/* Other EL2 code (__hyp_text: the hyp stub): E2H as its own write of HCR_EL2 set it. */
	ctx->varies |= sec && !strncmp(sec->name, ".hyp.", 5);
	ctx->vhe_dep = true;
	if (sec && !strncmp(sec->name, ".hyp.", 5)) {
		switch (e2h_before(ctx, in->addr)) {
		case 1: return *why = "EL2 code (section .hyp.*) after its write of HCR_EL2 with E2H", EH_RUN_EL2_VHE;
		case 0: return *why = "EL2 code (section .hyp.*) after its write of HCR_EL2 without E2H",
			       EH_RUN_EL2_NVHE;
		default: return *why = "EL2 code (section .hyp.*), E2H not known: taken as live", EH_RUN_EL2_VHE;
		}
	}
	if (eh_target_vhe(&ctx->img->target))
		return *why = "kernel code, booted at EL2 with VHE", EH_RUN_EL2_VHE;
	return *why = "kernel code at EL1", EH_RUN_EL1;
}

bool eh_rule_runs(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why)
{
	const struct eh_target *t = &ctx->img->target;

	*why = NULL;
	if (!kvm_nvhe(ctx, in))
		return true;
	ctx->varies = true;  /* the target's boot decides the rest */
	/* Protected KVM (which keeps nVHE on a VHE CPU) is assumed off, as the capability tables assume it. */
	if (!eh_target_hyp_mode(t))
		*why = "KVM's nVHE hyp code does not run: the kernel was booted at EL1, with no hypervisor";
	else if (eh_target_vhe(t))
		*why = "KVM's nVHE hyp code does not run: the kernel runs at EL2 with VHE, and KVM with it";
	return !*why;
}

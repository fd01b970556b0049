/* Finds TTBR writes in patched kernel code and every load, store or prefetch before the next context synchronisation. */
#include "eh/audit.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/insn.h"
#include "eh/regime.h"
#include "eh/sysreg.h"

/*
 * A point to follow: an address, and the return stack there (a frame of the
 * window's frame table; frame 0 is the stack the window started with, whose
 * returns go to the callers the call graph knows).
 */
struct step {
	uint64_t addr;
	uint32_t frame;
};

/* A call the window made: where its RET goes, and the frame below it. */
struct frame {
	uint64_t ret;
	uint32_t parent;
	uint32_t depth;
};

/* How deep calls nest inside one window before the audit gives up (recursion). */
#define MAX_DEPTH 32

/*
 * The steps one window has queued, as an open-addressed set emptied by bumping
 * gen. A window queues at most MAX_QUEUED steps, so the table stays at most
 * half full and a large image costs linear time.
 */
#define SEEN_SLOTS 8192
#define MAX_QUEUED (SEEN_SLOTS / 2)

/* A direct call (BL) or tail call (B to another function's start) in the image, for returns. */
struct call_edge {
	uint64_t target, site;
	bool tail;
};

struct seen_slot {
	struct step st;
	unsigned gen;
};

struct walk {
	const struct eh_image *img;
	struct eh_decoder *dec;
	struct eh_audit_window *w;
	struct step *todo;
	size_t ntodo, cap_todo, cap_acc, cap_end, cap_site, nqueued;
	struct seen_slot *seen;
	unsigned gen;
	struct frame *frames;
	size_t nframes, cap_frames;
	/* Every direct call and tail call of the image by target, built when a return needs it. */
	struct call_edge *calls;
	size_t ncalls;
	bool calls_built;
	/* The image's sites sorted by original address, and the non-callback ones by replacement. */
	const struct eh_alt_site **by_orig, **by_repl;
	size_t nrepl;
};

/* Make room for one more element of size elem in *p (holding n of *cap). */
static int grow(void *p, size_t *cap, size_t n, size_t elem)
{
	void **pp = p;
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	q = eh_realloc(*pp, c * elem);
	if (!q)
		return EH_ENOMEM;
	*pp = q;
	*cap = c;
	return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_access(const void *a, const void *b)
{
	return cmp_u64(((const struct eh_audit_access *)a)->addr, ((const struct eh_audit_access *)b)->addr);
}

static int cmp_end(const void *a, const void *b)
{
	return cmp_u64(((const struct eh_audit_end *)a)->addr, ((const struct eh_audit_end *)b)->addr);
}

static int cmp_site(const void *a, const void *b)
{
	return cmp_u64((*(const struct eh_alt_site *const *)a)->orig,
		       (*(const struct eh_alt_site *const *)b)->orig);
}

static int cmp_repl(const void *a, const void *b)
{
	return cmp_u64((*(const struct eh_alt_site *const *)a)->repl,
		       (*(const struct eh_alt_site *const *)b)->repl);
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

/* The site whose original range holds addr (eh_alt_parse made sure they do not overlap). */
static const struct eh_alt_site *site_at(const struct walk *wk, uint64_t addr)
{
	size_t i = last_at_or_below(wk->by_orig, wk->img->nsites, addr, false);

	if (i == wk->img->nsites || addr - wk->by_orig[i]->orig >= wk->by_orig[i]->orig_len)
		return NULL;
	return wk->by_orig[i];
}

/* Replacement code is only executed once copied over its site; ranges are under 256 bytes. */
static bool is_replacement(const struct walk *wk, uint64_t addr)
{
	size_t i = last_at_or_below(wk->by_repl, wk->nrepl, addr, true);

	for (; i < wk->nrepl && addr - wk->by_repl[i]->repl < 256; i--)
		if (addr - wk->by_repl[i]->repl < wk->by_repl[i]->repl_len)
			return true;
	return false;
}

static int index_sites(struct walk *wk)
{
	const struct eh_image *img = wk->img;
	size_t i, n = img->nsites ? img->nsites : 1;

	wk->by_orig = eh_alloc(n * sizeof(*wk->by_orig));
	wk->by_repl = eh_alloc(n * sizeof(*wk->by_repl));
	wk->seen = eh_alloc(SEEN_SLOTS * sizeof(*wk->seen));
	if (!wk->by_orig || !wk->by_repl || !wk->seen)
		return EH_ENOMEM;
	for (i = 0; i < img->nsites; i++) {
		wk->by_orig[i] = &img->sites[i];
		if (!img->sites[i].callback)
			wk->by_repl[wk->nrepl++] = &img->sites[i];
	}
	if (img->nsites)
		qsort(wk->by_orig, img->nsites, sizeof(*wk->by_orig), cmp_site);
	if (wk->nrepl)
		qsort(wk->by_repl, wk->nrepl, sizeof(*wk->by_repl), cmp_repl);
	return 0;
}

const char *eh_audit_end_name(enum eh_audit_end_kind kind)
{
	static const char *const names[] = {
		[EH_AUDIT_CLOSED] = "closed",
		[EH_AUDIT_INDIRECT] = "indirect branch",
		[EH_AUDIT_EXTERN] = "branch out of the object",
		[EH_AUDIT_LEFT] = "left the code",
		[EH_AUDIT_BOUND] = "too long to follow",
		[EH_AUDIT_UNCERTAIN] = "uncertain",
		[EH_AUDIT_NO_CALLER] = "return to unknown callers",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static int push(struct walk *wk, uint64_t addr, uint32_t frame)
{
	size_t i = (size_t)(((addr >> 2) ^ ((uint64_t)frame * 31)) * 0x9e3779b97f4a7c15ull >> 51) & (SEEN_SLOTS - 1);

	for (; wk->seen[i].gen == wk->gen; i = (i + 1) & (SEEN_SLOTS - 1))
		if (wk->seen[i].st.addr == addr && wk->seen[i].st.frame == frame)
			return 0;
	if (wk->nqueued == MAX_QUEUED)
		return 0;  /* audit_window reports the window too long to follow */
	if (grow(&wk->todo, &wk->cap_todo, wk->ntodo, sizeof(*wk->todo)))
		return EH_ENOMEM;
	wk->seen[i] = (struct seen_slot){ { addr, frame }, wk->gen };
	wk->todo[wk->ntodo++] = (struct step){ addr, frame };
	wk->nqueued++;
	return 0;
}

/* The frame of a call returning to ret from frame parent, the same one for the same stack. */
static int frame_of(struct walk *wk, uint64_t ret, uint32_t parent, uint32_t *out)
{
	size_t i;

	for (i = 1; i < wk->nframes; i++)
		if (wk->frames[i].ret == ret && wk->frames[i].parent == parent) {
			*out = (uint32_t)i;
			return 0;
		}
	if (grow(&wk->frames, &wk->cap_frames, wk->nframes, sizeof(*wk->frames)))
		return EH_ENOMEM;
	wk->frames[wk->nframes] = (struct frame){ ret, parent, wk->frames[parent].depth + 1 };
	*out = (uint32_t)wk->nframes++;
	return 0;
}

static int add_end(struct walk *wk, enum eh_audit_end_kind kind, uint64_t addr, const char *symbol,
		   const char *text)
{
	struct eh_audit_window *w = wk->w;
	struct eh_audit_end *e;
	size_t i;

	for (i = 0; i < w->nends; i++)
		if (w->ends[i].addr == addr && w->ends[i].kind == kind)
			return 0;
	if (grow(&w->ends, &wk->cap_end, w->nends, sizeof(*w->ends)))
		return EH_ENOMEM;
	e = &w->ends[w->nends++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->addr = addr;
	e->symbol = symbol;
	snprintf(e->text, sizeof(e->text), "%s", text);
	return 0;
}

static int note_site(struct walk *wk, uint64_t addr)
{
	const struct eh_alt_site *s = site_at(wk, addr);
	struct eh_audit_window *w = wk->w;
	size_t i;

	if (!s)
		return 0;
	if (s->callback && s->cb_result == EH_ALT_CB_UNCERTAIN) {
		char text[sizeof(w->ends->text)];
		int rc;

		snprintf(text, sizeof(text), "callback %s %s", eh_alt_cb_name(s) ? eh_alt_cb_name(s) : "?",
			 s->cb_why);
		rc = add_end(wk, EH_AUDIT_UNCERTAIN, s->orig, NULL, text);
		if (rc)
			return rc;
	}
	for (i = 0; i < w->nsites; i++)
		if (w->sites[i] == s)
			return 0;
	if (grow(&w->sites, &wk->cap_site, w->nsites, sizeof(*w->sites)))
		return EH_ENOMEM;
	w->sites[w->nsites++] = s;
	return 0;
}

static bool in_code(const struct eh_image *img, uint64_t addr)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	return s && s->flags & SHF_EXECINSTR;
}

/* Follow one step; queue what comes after it unless it closes the window. */
static int cmp_call(const void *a, const void *b)
{
	const struct call_edge *x = a, *y = b;

	return x->target != y->target ? cmp_u64(x->target, y->target) : cmp_u64(x->site, y->site);
}

/* The start of the function (the symbol) that holds addr, or 0. */
static uint64_t function_start(const struct eh_elf *elf, uint64_t addr)
{
	uint64_t off = 0;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, addr, &off);

	return sym ? addr - off : 0;
}

/*
 * Every BL of the patched image's code, and every B to the start of another
 * function (a tail call: that function returns to the caller's callers);
 * replacement code and calls out of a relocatable object are left out.
 */
static int build_calls(struct walk *wk)
{
	const struct eh_image *img = wk->img;
	const struct eh_elf *elf = img->elf;
	size_t i, cap = 0;

	wk->calls_built = true;
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint64_t off;

		if (!(s->flags & SHF_ALLOC) || !(s->flags & SHF_EXECINSTR) || !img->data[i])
			continue;
		for (off = 0; off + 4 <= s->size; off += 4) {
			const uint8_t *p = img->data[i] + off;
			uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
			uint64_t site = s->addr + off, target;
			bool tail = (w & 0xfc000000) == 0x14000000;

			if (!tail && (w & 0xfc000000) != 0x94000000)
				continue;
			if (is_replacement(wk, site) || eh_elf_extern_at(elf, site))
				continue;
			target = site + (uint64_t)((int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36);
			if (tail && (function_start(elf, target) != target ||
				     function_start(elf, site) == target))
				continue;
			if (grow(&wk->calls, &cap, wk->ncalls, sizeof(*wk->calls)))
				return EH_ENOMEM;
			wk->calls[wk->ncalls++] = (struct call_edge){ target, site, tail };
		}
	}
	if (wk->ncalls)
		qsort(wk->calls, wk->ncalls, sizeof(*wk->calls), cmp_call);
	return 0;
}

/* How many functions one return may look through for tail calls (cycles included). */
#define MAX_TAIL_FUNCS 64

/*
 * A RET with the window's own stack (frame 0) in the function that starts at
 * f: follow every return site of its callers, through the callers of any
 * function that reaches f by a tail call; *n counts them.
 */
static int return_to_callers(struct walk *wk, uint64_t f, size_t *n)
{
	uint64_t funcs[MAX_TAIL_FUNCS];
	size_t nfuncs = 1, k;
	int rc = 0;

	if (!wk->calls_built && (rc = build_calls(wk)))
		return rc;
	funcs[0] = f;
	for (k = 0; k < nfuncs && !rc; k++) {
		size_t lo = 0, hi = wk->ncalls, j;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (wk->calls[mid].target < funcs[k])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < wk->ncalls && wk->calls[j].target == funcs[k] && !rc && wk->nqueued < MAX_QUEUED;
		     j++) {
			const struct call_edge *c = &wk->calls[j];
			uint64_t g = function_start(wk->img->elf, c->site);
			size_t m;

			if (!c->tail) {
				rc = push(wk, c->site + 4, 0);
				++*n;
				continue;
			}
			for (m = 0; m < nfuncs && funcs[m] != g; m++)
				;
			if (m == nfuncs && nfuncs < MAX_TAIL_FUNCS)
				funcs[nfuncs++] = g;
		}
	}
	return rc;
}

/* A RET of x30 with the window's own stack: the callers of its function, when they are known. */
static int follow_return(struct walk *wk, const struct eh_insn *in)
{
	const struct eh_elf *elf = wk->img->elf;
	uint64_t off = 0;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, in->addr, &off);
	char text[sizeof(wk->w->ends->text)];
	size_t n = 0;
	int rc;

	if (!sym)
		return add_end(wk, EH_AUDIT_NO_CALLER, in->addr, NULL, "ret outside every function");
	rc = return_to_callers(wk, in->addr - off, &n);
	if (rc)
		return rc;
	/* A relocatable object does not hold the callers a global function has elsewhere. */
	if (elf->type == ET_REL && sym->bind != STB_LOCAL)
		snprintf(text, sizeof(text), "ret: %s may be called from outside this object", sym->name);
	else if (!n)
		snprintf(text, sizeof(text), "ret: no call of %s in this file", sym->name);
	else
		return 0;
	return add_end(wk, EH_AUDIT_NO_CALLER, in->addr, NULL, text);
}

/* Follow one step; queue what comes after it unless it closes the window. */
static int follow(struct walk *wk, struct step st)
{
	const struct eh_image *img = wk->img;
	const struct eh_elf_extern *x;
	const struct eh_insn *in;
	uint32_t word, frame;
	int rc;

	if (!in_code(img, st.addr) || eh_image_word(img, st.addr, &word))
		return add_end(wk, EH_AUDIT_LEFT, st.addr, NULL, "");
	in = eh_decoder_get(wk->dec, st.addr, word);
	if (!in)
		return EH_ENOMEM;
	wk->w->ninsns++;
	rc = note_site(wk, st.addr);
	if (rc)
		return rc;
	if (in->flags & EH_INSN_CTX_SYNC)
		return add_end(wk, EH_AUDIT_CLOSED, st.addr, NULL, in->text);
	/* An access first: one that Capstone cannot name is still an access (eh/insn.h). */
	if (in->flags & EH_INSN_ACCESS) {
		struct eh_audit_window *w = wk->w;
		struct eh_audit_access *a;

		if (grow(&w->accesses, &wk->cap_acc, w->naccesses, sizeof(*w->accesses)))
			return EH_ENOMEM;
		a = &w->accesses[w->naccesses++];
		a->addr = st.addr;
		a->flags = in->flags & EH_INSN_ACCESS;
		a->site = site_at(wk, st.addr);
		snprintf(a->text, sizeof(a->text), "%s", in->text);
	}
	if (in->flags & EH_INSN_INVALID)
		return add_end(wk, EH_AUDIT_LEFT, st.addr, NULL, in->text);
	if (!(in->flags & EH_INSN_BRANCH))
		return push(wk, st.addr + 4, st.frame);
	if (in->flags & EH_INSN_INDIRECT) {
		/* RET (x30): back to the call the window made, or to its function's callers. */
		if ((in->word & 0xfffffc1f) == 0xd65f0000 && ((in->word >> 5) & 31) == 30)
			return st.frame ? push(wk, wk->frames[st.frame].ret, wk->frames[st.frame].parent)
					: follow_return(wk, in);
		return add_end(wk, EH_AUDIT_INDIRECT, st.addr, NULL, in->text);
	}
	/* In a relocatable object a branch to another object keeps a zero offset: name it. */
	x = eh_elf_extern_at(img->elf, st.addr);
	if (x) {
		rc = add_end(wk, EH_AUDIT_EXTERN, st.addr, x->symbol, in->text);
		if (rc || !(in->flags & (EH_INSN_COND | EH_INSN_CALL)))
			return rc;
		return push(wk, st.addr + 4, st.frame);
	}
	if (in->flags & EH_INSN_CALL) {
		if (wk->frames[st.frame].depth == MAX_DEPTH)
			return add_end(wk, EH_AUDIT_BOUND, st.addr, NULL, in->text);
		rc = frame_of(wk, st.addr + 4, st.frame, &frame);
		return rc ? rc : push(wk, in->target, frame);
	}
	rc = push(wk, in->target, st.frame);
	if (!rc && in->flags & EH_INSN_COND)
		rc = push(wk, st.addr + 4, st.frame);
	return rc;
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
static bool is_write_sysreg_el1(const struct walk *wk, uint64_t addr, uint32_t word)
{
	const struct eh_alt_site *s = site_at(wk, addr);
	uint32_t repl;

	return s && !s->callback && !s->applied && s->cap_name &&
	       !strcmp(s->cap_name, "ARM64_HAS_VIRT_HOST_EXTN") &&
	       !eh_elf_word(wk->img->elf, s->repl + (addr - s->orig), &repl) &&
	       repl == (word | 5u << 16);  /* op1 0 -> 5: TTBRn_EL1 -> TTBRn_EL12 */
}

/* The image's word at addr, or 0 (UDF) where it has none. */
static uint32_t word_at(const struct walk *wk, uint64_t addr)
{
	uint32_t w = 0;

	eh_image_word(wk->img, addr, &w);
	return w;
}

/*
 * The constant a MOVZ (or MOVN) and MOVKs right before addr put in Xrt, as the
 * kernel's mov_q writes one; -1 when they do not.
 */
static int64_t mov_q_value(const struct walk *wk, uint64_t addr, unsigned rt, uint64_t lo)
{
	uint64_t v = 0, set = 0, a;

	for (a = addr - 4; a >= lo && a < addr && addr - a <= 4 * 4; a -= 4) {  /* MOVZ and 3 MOVKs */
		uint32_t w = word_at(wk, a);
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

/* How far before a TTBR write its function's write of HCR_EL2 is looked for. */
#define E2H_LOOKBACK 256

/*
 * Whether EL2 code at addr runs with HCR_EL2.E2H set: from the nearest write
 * of HCR_EL2 before it in its function, within E2H_LOOKBACK instructions (the
 * hyp stub's __finalise_el2 sets HCR_HOST_VHE_FLAGS with mov_q; msr hcr_el2;
 * isb, some 30 instructions before). 1 set, 0 clear, -1 unknown.
 */
static int e2h_before(const struct walk *wk, uint64_t addr)
{
	uint64_t off = 0, a;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(wk->img->elf, addr, &off);
	uint64_t lo = addr - off;

	for (a = addr - 4; sym && a >= lo && a < addr && addr - a <= 4 * E2H_LOOKBACK; a -= 4) {
		uint32_t w = word_at(wk, a);
		int64_t v;

		if ((w & 0xffffffe0) != 0xd51c1100)  /* MSR HCR_EL2, Xt */
			continue;
		v = mov_q_value(wk, a, w & 31, lo);
		return v < 0 ? -1 : (int)((uint64_t)v >> 34 & 1);  /* HCR_EL2.E2H, bit 34 */
	}
	return -1;
}

/* Where the code at addr runs, and what says so. */
static enum eh_run_el run_el(const struct walk *wk, uint64_t addr, uint32_t word, const char **why)
{
	const struct eh_elf *elf = wk->img->elf;
	const struct eh_elf_section *sec = eh_elf_section_at(elf, addr);
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, addr, NULL);

	/* KVM's nVHE hyp code runs at EL2 with E2H clear: its symbol prefix, its objects. */
	if (sym && !strncmp(sym->name, "__kvm_nvhe_", 11))
		return *why = "nVHE hyp code (a __kvm_nvhe_ symbol)", EH_RUN_EL2_NVHE;
	if (ends_with(elf->path, ".nvhe.o"))
		return *why = "nVHE hyp code (a .nvhe.o object)", EH_RUN_EL2_NVHE;
	if (is_write_sysreg_el1(wk, addr, word))
		return *why = "KVM's write_sysreg_el1() without VHE: hyp code at EL2", EH_RUN_EL2_NVHE;
	/* Other EL2 code (__hyp_text: the hyp stub): E2H as its own write of HCR_EL2 set it. */
	if (sec && !strncmp(sec->name, ".hyp.", 5)) {
		switch (e2h_before(wk, addr)) {
		case 1: return *why = "EL2 code (section .hyp.*) after its write of HCR_EL2 with E2H", EH_RUN_EL2_VHE;
		case 0: return *why = "EL2 code (section .hyp.*) after its write of HCR_EL2 without E2H",
			       EH_RUN_EL2_NVHE;
		default: return *why = "EL2 code (section .hyp.*), E2H not known: taken as live", EH_RUN_EL2_VHE;
		}
	}
	if (eh_target_vhe(&wk->img->target))
		return *why = "kernel code, booted at EL2 with VHE", EH_RUN_EL2_VHE;
	return *why = "kernel code at EL1", EH_RUN_EL1;
}

static int audit_window(struct walk *wk, uint64_t msr, const struct eh_insn *in)
{
	struct eh_audit_window *w = wk->w;
	int rc;

	memset(w, 0, sizeof(*w));
	w->msr = msr;
	w->sysreg = in->sysreg;
	snprintf(w->text, sizeof(w->text), "%s", in->text);
	w->regime = eh_regime_of_ttbr_write(in->sysreg, run_el(wk, msr, in->word, &w->run_why));
	/* Only a write of the regime the code runs in opens a window (eh/regime.h). */
	if (!eh_regime_live(w->regime))
		return 0;
	wk->ntodo = wk->nqueued = 0;
	wk->gen++;
	wk->cap_acc = wk->cap_end = wk->cap_site = 0;
	wk->nframes = 0;
	rc = grow(&wk->frames, &wk->cap_frames, 0, sizeof(*wk->frames));
	if (rc)
		return rc;
	wk->frames[wk->nframes++] = (struct frame){ 0 };
	rc = push(wk, msr + 4, 0);
	while (!rc && wk->ntodo) {
		if (w->ninsns == EH_AUDIT_MAX_INSNS || wk->nqueued == MAX_QUEUED) {
			rc = add_end(wk, EH_AUDIT_BOUND, wk->todo[wk->ntodo - 1].addr, NULL, "");
			break;
		}
		rc = follow(wk, wk->todo[--wk->ntodo]);
	}
	if (rc)
		return rc;
	/* qsort with a NULL base is undefined even for zero elements. */
	if (w->naccesses)
		qsort(w->accesses, w->naccesses, sizeof(*w->accesses), cmp_access);
	if (w->nends)
		qsort(w->ends, w->nends, sizeof(*w->ends), cmp_end);
	if (w->nsites)
		qsort(w->sites, w->nsites, sizeof(*w->sites), cmp_site);
	return 0;
}

static bool window_open(const struct eh_audit_window *w)
{
	size_t i;

	for (i = 0; i < w->nends; i++)
		if (w->ends[i].kind != EH_AUDIT_CLOSED)
			return true;
	return false;
}

static void free_window(struct eh_audit_window *w)
{
	eh_free(w->accesses);
	eh_free(w->ends);
	eh_free(w->sites);
}

int eh_audit_run(struct eh_audit **out, const struct eh_image *img, struct eh_error *err)
{
	const struct eh_elf *elf = img->elf;
	struct walk wk = { .img = img };
	struct eh_audit *a;
	size_t i, cap = 0;
	int rc;

	*out = NULL;
	a = eh_alloc(sizeof(*a));
	if (!a)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	a->img = img;
	rc = eh_decoder_new(&wk.dec, err);
	if (rc)
		goto out;
	rc = index_sites(&wk);
	for (i = 0; i < elf->nsections && !rc; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint64_t off;

		if (!(s->flags & SHF_ALLOC) || !(s->flags & SHF_EXECINSTR) || !img->data[i])
			continue;
		for (off = 0; off + 4 <= s->size && !rc; off += 4) {
			const uint8_t *p = img->data[i] + off;
			uint32_t word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
					(uint32_t)p[3] << 24;
			const struct eh_insn *in;

			/* MSR TTBR0/1_EL1, Xt (op0 3, op1 0, CRn 2, CRm 0, op2 0 / 1), or the EL12 form (op1 5). */
			if ((word & 0xffffffc0) != 0xd5182000 && (word & 0xffffffc0) != 0xd51d2000)
				continue;
			if (is_replacement(&wk, s->addr + off))
				continue;
			in = eh_decoder_get(wk.dec, s->addr + off, word);
			if (!in) {
				rc = EH_ENOMEM;
				break;
			}
			if (!(in->flags & EH_INSN_TTBR_WRITE))
				continue;
			if (grow(&a->windows, &cap, a->nwindows, sizeof(*a->windows))) {
				rc = EH_ENOMEM;
				break;
			}
			wk.w = &a->windows[a->nwindows++];
			rc = audit_window(&wk, s->addr + off, in);
			if (rc)
				break;
			a->naccesses += wk.w->naccesses;
			a->nopen += window_open(wk.w);
			a->nregime[wk.w->regime]++;
		}
	}
	if (rc) {
		if (rc == EH_ENOMEM)
			eh_error_set(err, rc, "%s: out of memory auditing TTBR windows", elf->path);
		goto out;
	}
	*out = a;
	a = NULL;
out:
	eh_free(wk.todo);
	eh_free(wk.seen);
	eh_free(wk.frames);
	eh_free(wk.calls);
	eh_free(wk.by_orig);
	eh_free(wk.by_repl);
	eh_decoder_free(wk.dec);
	eh_audit_free(a);
	return rc;
}

void eh_audit_free(struct eh_audit *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nwindows; i++)
		free_window(&a->windows[i]);
	eh_free(a->windows);
	eh_free(a);
}

const char *eh_audit_change_name(enum eh_audit_change c)
{
	static const char *const names[] = {
		[EH_AUDIT_INTRODUCED] = "introduced",
		[EH_AUDIT_REMOVED] = "removed",
		[EH_AUDIT_UNCHANGED] = "unchanged",
	};

	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* Findings of one audit, named by symbol+offset; change says which side they come from. */
static int collect(struct eh_audit_finding **v, size_t *n, const struct eh_audit *a,
		   enum eh_audit_change side)
{
	const struct eh_elf *elf = a->img->elf;
	size_t i, j, cap = 0;

	*v = NULL;
	*n = 0;
	for (i = 0; i < a->nwindows; i++) {
		const struct eh_audit_window *w = &a->windows[i];

		for (j = 0; j < w->naccesses + w->nends; j++) {
			bool open = j >= w->naccesses;
			const struct eh_audit_access *x = open ? NULL : &w->accesses[j];
			const struct eh_audit_end *e = open ? &w->ends[j - w->naccesses] : NULL;
			struct eh_audit_finding *f;

			if (open && e->kind == EH_AUDIT_CLOSED)
				continue;
			if (grow(v, &cap, *n, sizeof(**v)))
				return EH_ENOMEM;
			f = &(*v)[(*n)++];
			memset(f, 0, sizeof(*f));
			f->change = side;
			f->open = open;
			f->flags = open ? (uint32_t)e->kind : x->flags;
			eh_elf_describe(elf, w->msr, f->window, sizeof(f->window));
			eh_elf_describe(elf, open ? e->addr : x->addr, f->where, sizeof(f->where));
			snprintf(f->text, sizeof(f->text), "%s", open ? e->text : x->text);
			if (side == EH_AUDIT_REMOVED)
				f->old_addr = open ? e->addr : x->addr;
			else
				f->new_addr = open ? e->addr : x->addr;
		}
	}
	return 0;
}

/* "sym+0x1c" before "sym+0x100": by symbol, then by offset as a number. */
static int cmp_where(const char *a, const char *b)
{
	const char *pa = strrchr(a, '+'), *pb = strrchr(b, '+');
	size_t la = pa ? (size_t)(pa - a) : strlen(a), lb = pb ? (size_t)(pb - b) : strlen(b);
	int c = strncmp(a, b, la < lb ? la : lb);
	uint64_t oa, ob;

	if (c || la != lb)
		return c ? c : la < lb ? -1 : 1;
	oa = pa ? strtoull(pa + 1, NULL, 16) : 0;
	ob = pb ? strtoull(pb + 1, NULL, 16) : 0;
	return oa != ob ? (oa < ob ? -1 : 1) : strcmp(a, b);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct eh_audit_finding *x = a, *y = b;
	int c = cmp_where(x->window, y->window);

	if (!c)
		c = cmp_where(x->where, y->where);
	if (!c)
		c = (x->open > y->open) - (x->open < y->open);
	if (!c)
		c = (x->flags > y->flags) - (x->flags < y->flags);
	return c;
}

/* Sort and drop repeats: a window reached along two paths lists an instruction once. */
static void sort_unique(struct eh_audit_finding *v, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), cmp_finding);
	for (i = 1; i < *n; i++)
		if (cmp_finding(&v[k], &v[i]))
			v[++k] = v[i];
	*n = k + 1;
}

int eh_audit_diff(struct eh_audit_diff **out, const struct eh_audit *old, const struct eh_audit *new,
		  struct eh_error *err)
{
	struct eh_audit_finding *o = NULL, *nw = NULL;
	struct eh_audit_diff *d;
	size_t no, nn, i = 0, j = 0;
	int rc;

	*out = NULL;
	d = eh_alloc(sizeof(*d));
	rc = d ? collect(&o, &no, old, EH_AUDIT_REMOVED) : EH_ENOMEM;
	if (!rc)
		rc = collect(&nw, &nn, new, EH_AUDIT_INTRODUCED);
	if (!rc && no + nn)
		rc = (d->findings = eh_alloc((no + nn) * sizeof(*d->findings))) ? 0 : EH_ENOMEM;
	if (rc) {
		rc = eh_error_set(err, EH_ENOMEM, "out of memory comparing %s with %s", old->img->elf->path,
				  new->img->elf->path);
		goto out;
	}
	sort_unique(o, &no);
	sort_unique(nw, &nn);
	/* A merge of the two sorted lists: equal keys are the same finding in both builds. */
	while (i < no || j < nn) {
		int c = i == no ? 1 : j == nn ? -1 : cmp_finding(&o[i], &nw[j]);
		struct eh_audit_finding *f = &d->findings[d->n++];

		if (c < 0) {
			*f = o[i++];
		} else if (c > 0) {
			*f = nw[j++];
		} else {
			*f = nw[j++];
			f->change = EH_AUDIT_UNCHANGED;
			f->old_addr = o[i++].old_addr;
		}
		d->count[f->change]++;
	}
	*out = d;
	d = NULL;
out:
	eh_free(o);
	eh_free(nw);
	eh_audit_diff_free(d);
	return rc;
}

void eh_audit_diff_free(struct eh_audit_diff *d)
{
	if (!d)
		return;
	eh_free(d->findings);
	eh_free(d);
}

/* Runs the errata's static rules over a patched image in one pass, following the code from each window rule's anchors. */
#include "eh/audit.h"

#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_ctx.h"
#include "eh/insn.h"
#include "eh/sort.h"

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

/*
 * A direct call (BL) or tail call (B to another function's start) in the image, for
 * returns: key its target, val its site, with bit 0 set for a tail call (file_edge takes
 * sites on the 4-byte grid only).
 */
#define call_edge eh_sort_pair

static uint64_t edge_site(const struct call_edge *e)
{
	return e->val & ~(uint64_t)1;
}

static bool edge_tail(const struct call_edge *e)
{
	return e->val & 1;
}

struct seen_slot {
	struct step st;
	unsigned gen;
};

struct eh_audit__walk {
	const struct eh_window_rule *rule;
	struct eh_audit_window *w;
	size_t iw;              /* w's index in the result */
	struct step *todo;
	size_t ntodo, cap_todo, cap_end, cap_site, nqueued;
	struct seen_slot *seen;
	unsigned gen;
	struct frame *frames;
	size_t nframes, cap_frames;
	/*
	 * Every direct call and tail call of the image by target, built when a return needs it:
	 * those of the words no alternative covers (the scan's, shared by its images) and those
	 * of the words inside alternatives as this image has them (calls).
	 */
	const struct call_edge *base;
	size_t nbase;
	struct call_edge *calls;
	size_t ncalls;
	bool calls_built;
};

int eh_audit__grow(void *p, size_t *cap, size_t n, size_t elem)
{
	void **pp = p;
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 2;  /* most windows end in one or two places and pass no site */
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

static int cmp_finding_addr(const void *a, const void *b)
{
	return cmp_u64(((const struct eh_finding *)a)->addr, ((const struct eh_finding *)b)->addr);
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

/* The executable sections with contents are the ones audited. */
static bool audited(const struct eh_elf_section *s)
{
	return (s->flags & SHF_ALLOC) && (s->flags & SHF_EXECINSTR) && s->data;
}

/* The scan's order of the sites by original and by replacement address, and their bits, for an image of its numbering. */
/* The scan's index of the sites, kept for its first parse and numbering (struct eh_audit_scan). */
static struct site_index *scan_index(struct eh_audit_scan *scan);

static void free_bits(uint64_t **bits, size_t n);

/* Set the bit of each word of bits that [lo, lo + len) covers, in whichever sections it crosses. */
static void mark_words(uint64_t *const *bits, const struct eh_elf *elf, uint64_t lo, uint64_t len)
{
	uint64_t a = lo, hi = lo + len;

	while (a < hi) {
		const struct eh_elf_section *s = eh_elf_section_at(elf, a);
		uint64_t *b, k, end;

		if (!s) {
			a++;  /* a gap between sections: ranges are under 256 bytes */
			continue;
		}
		end = s->addr + s->size < hi ? s->addr + s->size : hi;
		b = bits[s - elf->sections];
		for (k = (a - s->addr + 3) / 4; b && s->addr + 4 * k < end; k++)
			b[k / 64] |= 1ull << (k % 64);
		a = end;
	}
}

/* A bit array for each audited section whose words lie on a 4-byte grid, zeroed (eh_audit__site_bits); NULL when out of memory. */
static uint64_t **new_bits(const struct eh_elf *elf)
{
	uint64_t **bits = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*bits));
	size_t i;

	for (i = 0; bits && i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (!audited(s) || s->addr % 4)
			continue;
		bits[i] = eh_alloc((size_t)(s->size / 4 / 64 + 1) * sizeof(**bits));
		if (!bits[i]) {
			free_bits(bits, elf->nsections);
			return NULL;
		}
	}
	return bits;
}

static void free_bits(uint64_t **bits, size_t n)
{
	size_t i;

	for (i = 0; bits && i < n; i++)
		eh_free(bits[i]);
	eh_free(bits);
}

void eh_audit__free_site_bits(struct eh_audit__site_bits *b)
{
	free_bits(b->orig, b->n);
	free_bits(b->repl, b->n);
	*b = (struct eh_audit__site_bits){ 0 };
}

/* The bits of img's sites (eh_audit__site_bits), for its audited sections whose words lie on a 4-byte grid. */
static int build_site_bits(struct eh_audit__site_bits *b, const struct eh_image *img)
{
	const struct eh_elf *elf = img->elf;
	size_t i;

	b->n = elf->nsections;
	b->orig = new_bits(elf);
	b->repl = new_bits(elf);
	if (!b->orig || !b->repl) {
		eh_audit__free_site_bits(b);
		return EH_ENOMEM;
	}
	for (i = 0; i < img->nsites; i++) {
		const struct eh_alt_site *site = &img->sites[i];

		mark_words(b->orig, elf, site->orig, site->orig_len);
		if (!site->callback)
			mark_words(b->repl, elf, site->repl, site->repl_len);
	}
	return 0;
}

/* Bits of the words of audited code where a symbol eh_elf_symbol_at may name starts (eh_elf_symbol_starts). */
static uint64_t **symbol_starts(const struct eh_elf *elf)
{
	uint64_t **bits = new_bits(elf);
	size_t i;

	for (i = 0; bits && i < elf->nby_addr; i++) {
		const struct eh_elf_symbol *sym = elf->by_addr[i];
		const struct eh_elf_section *s = sym->shndx < elf->nsections ? &elf->sections[sym->shndx] : NULL;
		uint64_t off = s ? sym->value - s->addr : 1;

		if (s && bits[sym->shndx] && off % 4 == 0 && off < s->size)
			bits[sym->shndx][off / 4 / 64] |= 1ull << (off / 4 % 64);
	}
	return bits;
}

/*
 * The sites of one parse by original address (their ranks) and the non-callback ones by
 * replacement address, and (for one numbering) their bits: what an audit searches them by.
 */
struct site_index {
	const struct eh_alt_site *sites;    /* the parse they index */
	const struct eh_alt_site **by_orig, **by_repl;
	size_t nrepl;
	const struct eh_cpucaps *caps;      /* the numbering of the bits */
	struct eh_audit__site_bits bits;
	bool has_bits;
};

static void free_index(struct site_index *x)
{
	eh_free(x->by_orig);
	eh_free(x->by_repl);
	eh_audit__free_site_bits(&x->bits);
	*x = (struct site_index){ 0 };
}

/* x for img's sites: sorted when x holds another parse's; its bits built when for another numbering. */
static int index_for(struct site_index *x, const struct eh_image *img)
{
	struct eh_sort_pair *repl = NULL;
	size_t i, n = img->nsites ? img->nsites : 1;

	if (x->sites != img->sites || !x->by_orig) {
		free_index(x);
		x->by_orig = eh_alloc(n * sizeof(*x->by_orig));
		x->by_repl = eh_alloc(n * sizeof(*x->by_repl));
		repl = eh_alloc(n * sizeof(*repl));
		if (!x->by_orig || !x->by_repl || !repl) {
			eh_free(repl);
			free_index(x);
			return EH_ENOMEM;
		}
		for (i = 0; i < img->nsites; i++) {
			x->by_orig[i] = &img->sites[img->sites[i].rank_site];
			if (!img->sites[i].callback)
				repl[x->nrepl++] = (struct eh_sort_pair){ img->sites[i].repl, i };
		}
		if (eh_sort_pairs(repl, x->nrepl)) {
			eh_free(repl);
			free_index(x);
			return EH_ENOMEM;
		}
		for (i = 0; i < x->nrepl; i++)
			x->by_repl[i] = &img->sites[repl[i].val];
		eh_free(repl);
		x->sites = img->sites;
	}
	if (!x->has_bits || x->caps != img->caps) {
		eh_audit__free_site_bits(&x->bits);
		x->caps = img->caps;
		x->has_bits = !build_site_bits(&x->bits, img);  /* else none: every read searches */
	}
	return 0;
}

/*
 * The image's sites, searched through the scan's index when it holds the same parse
 * and numbering (every image of one report), else through an index of the audit's own.
 */
static int index_sites(struct eh_rule_ctx *ctx, struct site_index *own)
{
	struct site_index *x = scan_index(ctx->scan);
	int rc;

	if (x->sites && (x->sites != ctx->img->sites || x->caps != ctx->img->caps))
		x = own;
	rc = index_for(x, ctx->img);
	if (rc)
		return rc;
	ctx->by_orig = x->by_orig;
	ctx->by_repl = x->by_repl;
	ctx->nrepl = x->nrepl;
	ctx->bits = x->has_bits ? &x->bits : NULL;
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

struct eh_finding *eh_audit__add_finding(struct eh_rule_ctx *ctx, uint64_t addr, uint64_t anchor)
{
	struct eh_audit_result *res = ctx->res;
	const struct eh_elf *elf = ctx->img->elf;
	struct eh_finding *f;

	if (eh_audit__grow(&res->findings, &ctx->state->cap_findings, res->nfindings, sizeof(*res->findings)))
		return NULL;
	f = &res->findings[res->nfindings++];
	memset(f, 0, sizeof(*f));
	f->erratum = res->erratum;
	f->addr = addr;
	f->anchor = anchor;
	f->window = SIZE_MAX;
	f->site = eh_audit__site(ctx, addr);
	eh_elf_describe(elf, addr, f->where, sizeof(f->where));
	if (anchor)
		eh_elf_describe(elf, anchor, f->anchor_where, sizeof(f->anchor_where));
	return f;
}

static int push(struct eh_audit__walk *wk, uint64_t addr, uint32_t frame)
{
	size_t i = (size_t)(((addr >> 2) ^ ((uint64_t)frame * 31)) * 0x9e3779b97f4a7c15ull >> 51) & (SEEN_SLOTS - 1);

	for (; wk->seen[i].gen == wk->gen; i = (i + 1) & (SEEN_SLOTS - 1))
		if (wk->seen[i].st.addr == addr && wk->seen[i].st.frame == frame)
			return 0;
	if (wk->nqueued == MAX_QUEUED)
		return 0;  /* follow_window reports the window too long to follow */
	if (eh_audit__grow(&wk->todo, &wk->cap_todo, wk->ntodo, sizeof(*wk->todo)))
		return EH_ENOMEM;
	wk->seen[i] = (struct seen_slot){ { addr, frame }, wk->gen };
	wk->todo[wk->ntodo++] = (struct step){ addr, frame };
	wk->nqueued++;
	return 0;
}

/* The frame of a call returning to ret from frame parent, the same one for the same stack. */
static int frame_of(struct eh_audit__walk *wk, uint64_t ret, uint32_t parent, uint32_t *out)
{
	size_t i;

	for (i = 1; i < wk->nframes; i++)
		if (wk->frames[i].ret == ret && wk->frames[i].parent == parent) {
			*out = (uint32_t)i;
			return 0;
		}
	if (eh_audit__grow(&wk->frames, &wk->cap_frames, wk->nframes, sizeof(*wk->frames)))
		return EH_ENOMEM;
	wk->frames[wk->nframes] = (struct frame){ ret, parent, wk->frames[parent].depth + 1 };
	*out = (uint32_t)wk->nframes++;
	return 0;
}

static int add_end(struct eh_audit__walk *wk, enum eh_audit_end_kind kind, uint64_t addr, const char *symbol,
		   const char *text)
{
	struct eh_audit_window *w = wk->w;
	struct eh_audit_end *e;
	size_t i;

	for (i = 0; i < w->nends; i++)
		if (w->ends[i].addr == addr && w->ends[i].kind == kind)
			return 0;
	if (eh_audit__grow(&w->ends, &wk->cap_end, w->nends, sizeof(*w->ends)))
		return EH_ENOMEM;
	e = &w->ends[w->nends++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->addr = addr;
	e->symbol = symbol;
	snprintf(e->text, sizeof(e->text), "%s", text);
	return 0;
}

static int note_site(struct eh_rule_ctx *ctx, uint64_t addr)
{
	struct eh_audit__walk *wk = ctx->walk;
	const struct eh_alt_site *s = eh_audit__site(ctx, addr);
	struct eh_audit_window *w = wk->w;
	size_t i;

	if (!s)
		return 0;
	if (s->callback && eh_image_outcome(ctx->img, s).cb_result == EH_ALT_CB_UNCERTAIN) {
		char text[sizeof(w->ends->text)];
		int rc;

		snprintf(text, sizeof(text), "callback %s %s", eh_alt_cb_name(s) ? eh_alt_cb_name(s) : "?",
			 eh_image_outcome(ctx->img, s).cb_why);
		rc = add_end(wk, EH_AUDIT_UNCERTAIN, s->orig, NULL, text);
		if (rc)
			return rc;
	}
	for (i = 0; i < w->nsites; i++)
		if (w->sites[i] == s)
			return 0;
	if (eh_audit__grow(&w->sites, &wk->cap_site, w->nsites, sizeof(*w->sites)))
		return EH_ENOMEM;
	w->sites[w->nsites++] = s;
	return 0;
}

static bool in_code(const struct eh_image *img, uint64_t addr)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	return s && s->flags & SHF_EXECINSTR;
}

/* The start of the function (the symbol) that holds addr, or 0. */
static uint64_t function_start(const struct eh_elf *elf, uint64_t addr)
{
	uint64_t off = 0;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, addr, &off);

	return sym ? addr - off : 0;
}

/*
 * The image's word at addr inside site, one it applied: its patch there, found from *p (an index
 * in the patches at or below addr's, moved up to it: a run of ascending addresses walks them once
 * instead of searching them per word), else the file's, as the site keeps it (the code's pages
 * are not read again for it).
 */
static uint32_t site_word(const struct eh_image *img, const struct eh_alt_site *site, uint64_t addr, size_t *p)
{
	for (; *p < img->npatches && eh_image_patch_addr(img, *p) < addr; ++*p)
		;
	if (*p < img->npatches && eh_image_patch_addr(img, *p) == addr)
		return img->patches[*p].word;
	return site->words[(addr - site->orig) / 4];
}

static bool is_b_or_bl(uint32_t w)
{
	return (w & 0x7c000000) == 0x14000000;
}

/*
 * The call edge of word w (a B or BL) at site, as the file has it, if it is one: a BL, or
 * a B to the start of another function (a tail call: that function returns to the
 * caller's callers); calls out of a relocatable object are left out. starts, when it
 * says (eh_audit__bit), whether a symbol starts at a word: most B's stay in their function.
 */
static bool file_edge(const struct eh_elf *elf, uint64_t *const *starts, uint64_t site, uint32_t w,
		      struct call_edge *out)
{
	bool tail = (w & 0xfc000000) == 0x14000000;
	uint64_t target = site + (uint64_t)((int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36);

	if (site % 4 || eh_elf_extern_at(elf, site))
		return false;
	if (tail) {
		const struct eh_elf_section *t = starts ? eh_elf_section_at(elf, target) : NULL;
		int start = t ? eh_audit__bit(starts, elf, t, target) : -1;

		if (start < 0)
			start = eh_elf_symbol_starts(elf, target);
		if (!start || function_start(elf, target) != target || function_start(elf, site) == target)
			return false;
	}
	*out = (struct call_edge){ target, site | tail };
	return true;
}

/* The same in the patched image: replacement code, which only runs once copied, is left out. */
static bool call_edge_of(const struct eh_rule_ctx *ctx, const struct eh_elf_section *s, uint64_t site, uint32_t w,
			 struct call_edge *out)
{
	return is_b_or_bl(w) && !eh_audit__replacement_in(ctx, s, site) && file_edge(ctx->img->elf, NULL, site, w, out);
}

static int add_edge(struct call_edge **v, size_t *n, size_t *cap, const struct call_edge *e)
{
	if (eh_audit__grow(v, cap, *n, sizeof(**v)))
		return EH_ENOMEM;
	(*v)[(*n)++] = *e;
	return 0;
}

/*
 * Sort v[0..n) by target, then site: a stable sort by target of edges in site order, sorted
 * by site first when they are not (a relocatable object's sections need not lie in address
 * order). Linear: the 320,000 of Debian's 6.1 vmlinux cost qsort 6% of a report when it
 * needed them all.
 */
static int sort_calls(struct call_edge *v, size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 1; i < n && v[i - 1].val < v[i].val; i++)
		;
	if (i < n) {
		for (i = 0; i < n; i++)
			v[i] = (struct call_edge){ v[i].val, v[i].key };
		rc = eh_sort_pairs(v, n);
		for (i = 0; i < n; i++)
			v[i] = (struct call_edge){ v[i].val, v[i].key };
	}
	return rc ? rc : eh_sort_pairs(v, n);
}

/* The scan's call edges of the file's words, sorted by target (found when first asked). */
static int scan_calls(struct eh_audit_scan *scan, const struct call_edge **base, size_t *nbase);

/*
 * Every BL and tail call of the patched image: the scan's edges of the file's words
 * (return_to_callers leaves out those in replacement code or in an alternative the
 * image applies), and those of the words inside the alternatives it applies, as it has them.
 */
static int build_calls(struct eh_rule_ctx *ctx)
{
	struct eh_audit__walk *wk = ctx->walk;
	const struct eh_image *img = ctx->img;
	size_t i, cap = 0, p = 0;
	int rc;

	wk->calls_built = true;
	rc = scan_calls(ctx->scan, &wk->base, &wk->nbase);
	for (i = 0; i < img->napplied && !rc; i++) {
		const struct eh_alt_site *site = &img->sites[img->applied[i]];
		const struct eh_elf_section *s = eh_elf_section_at(img->elf, site->orig);
		uint64_t a;

		if (!s || !audited(s))
			continue;
		for (a = site->orig; a + 4 <= site->orig + site->orig_len && a + 4 <= s->addr + s->size && !rc;
		     a += 4) {
			struct call_edge e;

			if (call_edge_of(ctx, s, a, site_word(img, site, a, &p), &e))
				rc = add_edge(&wk->calls, &wk->ncalls, &cap, &e);
		}
	}
	return rc ? rc : sort_calls(wk->calls, wk->ncalls);
}

/* Whether e, one of the scan's edges of the file's words, is one of the image's: not replaced, not replacement code. */
static bool base_edge_holds(const struct eh_rule_ctx *ctx, const struct call_edge *e)
{
	uint64_t at = edge_site(e);
	const struct eh_elf_section *s = eh_elf_section_at(ctx->img->elf, at);
	const struct eh_alt_site *site;
	int inside = s && ctx->bits ? eh_audit__bit(ctx->bits->orig, ctx->img->elf, s, at) : -1;

	if (inside && (site = eh_audit__site(ctx, at)) && eh_image_applied(ctx->img, site))
		return false;
	return !eh_audit__replacement_in(ctx, s, at);
}

/* The first of v[0..n) (sorted by target) whose target is at or above t. */
static size_t first_edge(const struct call_edge *v, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].key < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How many functions one return may look through for tail calls (cycles included). */
#define MAX_TAIL_FUNCS 64

/*
 * A RET with the window's own stack (frame 0) in the function that starts at
 * f: follow every return site of its callers, through the callers of any
 * function that reaches f by a tail call; *n counts them.
 */
static int return_to_callers(struct eh_rule_ctx *ctx, uint64_t f, size_t *n)
{
	struct eh_audit__walk *wk = ctx->walk;
	uint64_t funcs[MAX_TAIL_FUNCS];
	size_t nfuncs = 1, k;
	int rc = 0;

	if (!wk->calls_built && (rc = build_calls(ctx)))
		return rc;
	funcs[0] = f;
	for (k = 0; k < nfuncs && !rc; k++) {
		size_t b = first_edge(wk->base, wk->nbase, funcs[k]), c = first_edge(wk->calls, wk->ncalls, funcs[k]);

		/* The edges to funcs[k] of both lists, merged in the order of their sites. */
		while (!rc && wk->nqueued < MAX_QUEUED) {
			bool in_b = b < wk->nbase && wk->base[b].key == funcs[k];
			bool in_c = c < wk->ncalls && wk->calls[c].key == funcs[k];
			const struct call_edge *e;
			uint64_t g;
			size_t m;

			if (!in_b && !in_c)
				break;
			e = in_b && (!in_c || wk->base[b].val < wk->calls[c].val) ? &wk->base[b++] : &wk->calls[c++];
			if (e >= wk->base && e < wk->base + wk->nbase && !base_edge_holds(ctx, e))
				continue;
			if (!edge_tail(e)) {
				rc = push(wk, edge_site(e) + 4, 0);
				++*n;
				continue;
			}
			g = function_start(ctx->img->elf, edge_site(e));
			for (m = 0; m < nfuncs && funcs[m] != g; m++)
				;
			if (m == nfuncs && nfuncs < MAX_TAIL_FUNCS)
				funcs[nfuncs++] = g;
		}
	}
	return rc;
}

/* A RET of x30 with the window's own stack: the callers of its function, when they are known. */
static int follow_return(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_audit__walk *wk = ctx->walk;
	const struct eh_elf *elf = ctx->img->elf;
	uint64_t off = 0;
	const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, in->addr, &off);
	char text[sizeof(wk->w->ends->text)];
	size_t n = 0;
	int rc;

	if (!sym)
		return add_end(wk, EH_AUDIT_NO_CALLER, in->addr, NULL, "ret outside every function");
	rc = return_to_callers(ctx, in->addr - off, &n);
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

/* An instruction the window rule finds inside the window. */
static int add_inside(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_audit__walk *wk = ctx->walk;
	struct eh_finding *f = eh_audit__add_finding(ctx, in->addr, wk->w->anchor);
	uint32_t found = in->flags & wk->rule->finds;

	if (!f)
		return EH_ENOMEM;
	f->window = wk->iw;
	if (found & EH_INSN_ACCESS)
		snprintf(f->kind, sizeof(f->kind), "%s", eh_insn_access_name(found));
	else
		snprintf(f->kind, sizeof(f->kind), "%.*s", (int)strcspn(in->text, " "), in->text);
	snprintf(f->text, sizeof(f->text), "%s", in->text);
	snprintf(f->explain, sizeof(f->explain), "%s", wk->rule->explain);
	return 0;
}

/* Follow one step; queue what comes after it unless it closes the window. */
static int follow(struct eh_rule_ctx *ctx, struct step st)
{
	struct eh_audit__walk *wk = ctx->walk;
	const struct eh_image *img = ctx->img;
	const struct eh_elf_extern *x;
	const struct eh_insn *in;
	uint32_t word, frame;
	int rc;

	if (!in_code(img, st.addr) || eh_audit__word_in(ctx, eh_elf_section_at(img->elf, st.addr), st.addr, true, &word))
		return add_end(wk, EH_AUDIT_LEFT, st.addr, NULL, "");
	in = eh_decoder_get(ctx->dec, st.addr, word);
	if (!in)
		return EH_ENOMEM;
	wk->w->ninsns++;
	rc = note_site(ctx, st.addr);
	if (rc)
		return rc;
	if (in->flags & wk->rule->closes)
		return add_end(wk, EH_AUDIT_CLOSED, st.addr, NULL, in->text);
	/* What the rule finds first: an access Capstone cannot name is still one (eh/insn.h). */
	if ((in->flags & wk->rule->finds || (wk->rule->found && wk->rule->found(in))) && (rc = add_inside(ctx, in)))
		return rc;
	if (in->flags & EH_INSN_INVALID)
		return add_end(wk, EH_AUDIT_LEFT, st.addr, NULL, in->text);
	if (!(in->flags & EH_INSN_BRANCH))
		return push(wk, st.addr + 4, st.frame);
	if (in->flags & EH_INSN_INDIRECT) {
		/* RET (x30): back to the call the window made, or to its function's callers. */
		if ((in->word & 0xfffffc1f) == 0xd65f0000 && ((in->word >> 5) & 31) == 30)
			return st.frame ? push(wk, wk->frames[st.frame].ret, wk->frames[st.frame].parent)
					: follow_return(ctx, in);
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

/* Sort the window's findings by address, an instruction reached along two paths listed once. */
static void sort_inside(struct eh_audit_result *res, struct eh_audit_window *w)
{
	size_t n = res->nfindings - w->first, i, k = 0;
	struct eh_finding *v;

	if (!n)
		return;  /* findings may still be NULL: no offset from it (C11 6.5.6) */
	v = res->findings + w->first;
	qsort(v, n, sizeof(*v), cmp_finding_addr);
	for (i = 1; i < n; i++)
		if (v[i].addr != v[k].addr)
			v[++k] = v[i];
	res->nfindings = w->first + k + 1;
}

/* Each path out of the window that does not close it, as a finding after the window's instructions. */
static int add_open_paths(struct eh_rule_ctx *ctx)
{
	struct eh_audit__walk *wk = ctx->walk;
	struct eh_audit_window *w = wk->w;
	bool open = false;
	size_t i;

	for (i = 0; i < w->nends; i++) {
		const struct eh_audit_end *e = &w->ends[i];
		struct eh_finding *f;

		if (e->kind == EH_AUDIT_CLOSED)
			continue;
		f = eh_audit__add_finding(ctx, e->addr, w->anchor);
		if (!f)
			return EH_ENOMEM;
		f->open = true;
		f->end = e->kind;
		f->window = wk->iw;
		f->symbol = e->symbol;
		snprintf(f->kind, sizeof(f->kind), "open");
		snprintf(f->text, sizeof(f->text), "%s%s%s", eh_audit_end_name(e->kind), e->text[0] ? ", " : "",
			 e->text);
		snprintf(f->explain, sizeof(f->explain), "the window cannot be followed to its close: what "
			 "follows is not known to be safe");
		open = true;
	}
	ctx->res->nopen += open;
	return 0;
}

/* Follow the code from the window's anchor to its closes, on every path. */
static int follow_window(struct eh_rule_ctx *ctx)
{
	struct eh_audit__walk *wk = ctx->walk;
	struct eh_audit_window *w = wk->w;
	int rc;

	wk->ntodo = wk->nqueued = 0;
	wk->gen++;
	wk->cap_end = wk->cap_site = 0;
	wk->nframes = 0;
	rc = eh_audit__grow(&wk->frames, &wk->cap_frames, 0, sizeof(*wk->frames));
	if (rc)
		return rc;
	wk->frames[wk->nframes++] = (struct frame){ 0 };
	rc = push(wk, w->anchor + 4, 0);
	while (!rc && wk->ntodo) {
		if (w->ninsns == EH_AUDIT_MAX_INSNS || wk->nqueued == MAX_QUEUED) {
			rc = add_end(wk, EH_AUDIT_BOUND, wk->todo[wk->ntodo - 1].addr, NULL, "");
			break;
		}
		rc = follow(ctx, wk->todo[--wk->ntodo]);
	}
	if (rc)
		return rc;
	sort_inside(ctx->res, w);
	/* qsort with a NULL base is undefined even for zero elements. */
	if (w->nends)
		qsort(w->ends, w->nends, sizeof(*w->ends), cmp_end);
	if (w->nsites)
		qsort(w->sites, w->nsites, sizeof(*w->sites), cmp_site);
	return add_open_paths(ctx);
}

/* in, which the window rule wants: an anchor of some class or none; a window followed when the class opens one. */
static int window_anchor(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_audit_result *res = ctx->res;
	const struct eh_window_rule *rule = res->erratum->rule->window;
	struct eh_audit__walk *wk = ctx->walk;
	struct eh_audit_window *w;
	const char *why = NULL;
	int cls = rule->anchor(ctx, in, &why);
	int rc;

	if (cls < 0)
		return 0;
	if ((size_t)cls >= ctx->state->nclasses)
		return EH_EINVAL;
	if (eh_audit__grow(&res->windows, &ctx->state->cap_windows, res->nwindows, sizeof(*res->windows)))
		return EH_ENOMEM;
	w = &res->windows[res->nwindows];
	memset(w, 0, sizeof(*w));
	w->anchor = in->addr;
	snprintf(w->text, sizeof(w->text), "%s", in->text);
	w->cls = (unsigned)cls;
	w->why = why;
	w->first = res->nfindings;
	res->nclass[cls]++;
	wk->rule = rule;
	wk->w = w;
	wk->iw = res->nwindows++;
	if (rule->classes[cls].opens) {
		res->nopened++;
		rc = follow_window(ctx);
		if (rc)
			return rc;
	}
	w->nfindings = res->nfindings - w->first;
	return 0;
}

static void free_result(struct eh_audit_result *res)
{
	size_t i;

	for (i = 0; i < res->nwindows; i++) {
		eh_free(res->windows[i].ends);
		eh_free(res->windows[i].sites);
	}
	eh_free(res->windows);
	eh_free(res->findings);
}

void eh_audit_free(struct eh_audit *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; a->results && i < a->nresults; i++)
		free_result(&a->results[i]);
	eh_free(a->results);
	eh_free(a);
}

/* The results (and the audit's state) of every erratum of errata that has a rule; those run marks (NULL: all) to run. */
static int start_results(struct eh_audit *a, struct eh_audit__rule_state **states,
			 const struct eh_erratum *const *errata, const bool *run, struct eh_error *err)
{
	size_t n = 0, i;

	for (i = 0; errata[i]; i++)
		n += errata[i]->rule != NULL;
	a->results = eh_alloc((n ? n : 1) * sizeof(*a->results));
	*states = eh_alloc((n ? n : 1) * sizeof(**states));
	if (!a->results || !*states)
		return EH_ENOMEM;
	for (i = 0; errata[i]; i++) {
		const struct eh_rule *rule = errata[i]->rule;
		struct eh_audit__rule_state *st = &(*states)[a->nresults];

		if (!rule)
			continue;
		a->results[a->nresults].ran = !run || run[i];
		a->results[a->nresults++].erratum = errata[i];
		for (st->nclasses = 0; rule->window && rule->window->classes[st->nclasses].name; st->nclasses++)
			;
		if (st->nclasses > EH_RULE_MAX_CLASSES)
			return eh_error_set(err, EH_EINVAL, "the window rule of erratum %s has %zu classes, at most %d",
					    errata[i]->id, st->nclasses, EH_RULE_MAX_CLASSES);
	}
	return 0;
}

/*
 * A word some rule wants, as every image has it that leaves it alone (no alternative
 * it applies covers it). Its first visit decodes it for itself; most are settled then
 * (a candidate of NOP, B or RET for a715-2645198 is one of 300,000 in Debian's 6.1
 * vmlinux), and only the others, visited again, go through the decoder's cache.
 */
struct candidate {
	uint64_t wants;         /* the rules that want it, by result (the first 64) */
	uint32_t slot;          /* its first verdict pair in the section's verdicts (verdict_of) */
	uint32_t word;          /* the file's word there: an image's visit reads no page of the code for it */
	bool decoded;           /* visited once */
	bool settled;           /* nothing to do in an image that leaves it alone: every rule that
	                           wants it is a scan rule whose verdict is every image's, no finding */
	int8_t repl;            /* whether it is replacement code: -1 not known yet */
};

/* How many values a word's top 16 bits take: the slots of the scan's trigger table. */
#define TOP_SLOTS 65536u
/* How many sets may have a table of low halves (low_of), and the words of one. */
#define LOW_TABLES 16u
#define LOW_WORDS (TOP_SLOTS / 64)

struct eh_audit_scan {
	const struct eh_elf *elf;
	const struct eh_erratum *const *errata;
	const struct eh_rule **rules;  /* by result: the errata's rules */
	size_t nrules;
	/*
	 * By a word's top 16 bits, the rules whose triggers it may match (result_bit), as
	 * an index in the few distinct sets (top_sets[0] is none): most words of a kernel
	 * match none, and cost one look-up in a table of 64 KB.
	 */
	uint8_t *top_set;
	uint64_t top_sets[256];
	/*
	 * By set, 1 + its table in lows of the low 16 bits its rules' triggers may match, or
	 * 0 for none: the hints (NOP, BTI, PACIASP) share TSB CSYNC's top half, and are most
	 * of the words the top half alone stops at.
	 */
	uint8_t low_of[256];
	uint64_t *lows;         /* LOW_TABLES tables of TOP_SLOTS bits */
	struct eh_decoder *dec;
	uint64_t **wanted;      /* per section: the offsets of the words some rule wants, ascending */
	struct candidate **cands;  /* per section: by wanted's index */
	size_t *nwanted;
	/*
	 * Every BL and tail call of the file's words, sorted by target: found when a return
	 * first needs callers (each image leaves out those it replaced), which most audits
	 * never do (Debian's 6.1 vmlinux has 320,000, and its report needs none).
	 */
	struct call_edge *calls;
	size_t ncalls;
	bool calls_found;
	/* The numbering of the first image audited: what depends on the alternatives' places is kept for it. */
	const struct eh_cpucaps *caps;
	/*
	 * Scan rules' verdicts on candidates, shared by the images that leave them alone:
	 * per section, by candidate, the results that want it (a pair from the candidate's
	 * slot, verdict_of), then the target's VHE (eh_target_vhe); 0 not known yet, VARIES
	 * to visit in every image, else 2 + an index in shared, whose findings the visit
	 * appended (pool). nslots: the pairs of each section.
	 */
	uint32_t **verdicts;
	size_t *nslots;
	/*
	 * Per section, the candidates not settled after the last image of the scan's
	 * numbering, ascending (NULL until one has been audited): the next such image
	 * visits only those.
	 */
	uint32_t **live;
	size_t *nlive;
	struct shared_verdict *shared;
	size_t nshared, cap_shared;
	struct eh_finding *pool;
	size_t npool, cap_pool;
	struct site_index index;
	/* The steps a window queued (struct eh_audit__walk), for every audit: emptied by a new gen. */
	struct seen_slot *seen;
	unsigned seen_gen;
};

#define VARIES 1u

static struct site_index *scan_index(struct eh_audit_scan *scan)
{
	return &scan->index;
}

/*
 * The findings one visit appended, in the scan's pool: every image's (img NULL),
 * or, where the visit read words an alternative covers or asked for a site, those
 * of the images that have the same words and site outcomes over [lo, hi) as img
 * (which the scan's audits keep alive); next: another such view of the same
 * candidate (0: none).
 */
struct shared_verdict {
	size_t first, n;
	const struct eh_image *img;
	uint64_t lo, hi;
	uint32_t next;
};

/* How many views of one candidate a scan keeps before the images visit it each. */
#define MAX_VIEWS 8

/* The window at base of a pass through section s, a chunk or the rest of s (*n bytes), through c: eh_elf_cursor_at. */
static int pass_window(const struct eh_elf *elf, struct eh_elf_cursor *c, const struct eh_elf_section *s,
		       uint64_t base, size_t *n, const uint8_t **p)
{
	*n = s->size - base < EH_ELF_CURSOR_CHUNK ? (size_t)(s->size - base) : EH_ELF_CURSOR_CHUNK;
	return eh_elf_cursor_at(elf, c, s, base, *n, p);
}

/* The scan's call edges (struct eh_audit_scan): one pass over the audited words, then sorted by target. */
static int find_calls(struct eh_audit_scan *scan)
{
	const struct eh_elf *elf = scan->elf;
	uint64_t **starts = symbol_starts(elf);  /* NULL: file_edge searches */
	struct eh_elf_cursor c = { 0 };
	size_t i, cap = 0, n, off;
	uint64_t base;
	int rc = 0;

	for (i = 0; i < elf->nsections && !rc; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		for (base = 0; audited(s) && base < s->size && !rc; base += EH_ELF_CURSOR_CHUNK) {
			const uint8_t *p;

			rc = pass_window(elf, &c, s, base, &n, &p);
			for (off = 0; !rc && off + 4 <= n; off += 4) {
				uint32_t word = eh_insn_word(p + off);
				struct call_edge e;

				if (is_b_or_bl(word) && file_edge(elf, starts, s->addr + base + off, word, &e))
					rc = add_edge(&scan->calls, &scan->ncalls, &cap, &e);
			}
		}
	}
	eh_elf_cursor_free(&c);
	free_bits(starts, elf->nsections);
	return rc ? rc : sort_calls(scan->calls, scan->ncalls);
}

static int scan_calls(struct eh_audit_scan *scan, const struct call_edge **base, size_t *nbase)
{
	int rc = scan->calls_found ? 0 : find_calls(scan);

	scan->calls_found = !rc;
	*base = scan->calls;
	*nbase = rc ? 0 : scan->ncalls;
	return rc;
}
/* Whether rule wants word (eh/rule.h): a rule over named functions wants none. */
static bool wants_word(const struct eh_rule *rule, uint64_t addr, uint32_t word)
{
	if (rule->scan && rule->scan->functions)
		return false;
	return (!rule->triggers || eh_rule_triggered(rule->triggers, word)) && (!rule->wants || rule->wants(addr, word));
}

/* A bit of a mask by result: the rules past the 63rd share bit 63. */
static uint64_t result_bit(size_t r)
{
	return 1ull << (r < 63 ? r : 63);
}

/*
 * Into bits, the low halves that the triggers of the rules of set may match; false when a
 * rule of it has no triggers or one that leaves more than 12 of the low bits free: the
 * table would let most words through.
 */
static bool index_lows(const struct eh_audit_scan *scan, uint64_t set, uint64_t *bits)
{
	size_t r;

	for (r = 0; r < scan->nrules; r++) {
		const struct eh_rule *rule = scan->rules[r];
		const struct eh_rule_trigger *t;

		if (!(set & result_bit(r)) || (rule->scan && rule->scan->functions))
			continue;
		if (!rule->triggers)
			return false;
		for (t = rule->triggers; t->mask; t++) {
			uint32_t fixed = t->mask & 0xffffu, free = ~fixed & 0xffffu, sub = 0, lo;

			if (__builtin_popcount(free) > 12)
				return false;
			do {
				lo = (t->value & fixed) | sub;
				bits[lo / 64] |= 1ull << (lo % 64);
				sub = (sub - free) & free;
			} while (sub);
		}
	}
	return true;
}

/*
 * The scan's table of the rules whose triggers a word with these top 16 bits may match
 * (top_set, top_sets), and of the low halves of the sets that allow few (low_of). Past 255
 * distinct sets, the last holds every rule: each word's rules still test it.
 */
static int index_triggers(struct eh_audit_scan *scan)
{
	uint64_t *may = eh_alloc(TOP_SLOTS * sizeof(*may));
	size_t r, nsets = 1, k;
	uint32_t hi;

	scan->top_set = eh_alloc(TOP_SLOTS);
	if (!may || !scan->top_set) {
		eh_free(may);
		return EH_ENOMEM;
	}
	for (r = 0; r < scan->nrules; r++) {
		const struct eh_rule *rule = scan->rules[r];
		const struct eh_rule_trigger *t;

		if (rule->scan && rule->scan->functions)
			continue;
		for (hi = 0; !rule->triggers && hi < TOP_SLOTS; hi++)
			may[hi] |= result_bit(r);
		/* Each trigger's top halves: its value's bits under its mask, any of the others (subsets of free). */
		for (t = rule->triggers; t && t->mask; t++) {
			uint32_t fixed = t->mask >> 16, free = ~fixed & 0xffffu, sub = 0;

			do {
				may[(t->value >> 16 & fixed) | sub] |= result_bit(r);
				sub = (sub - free) & free;
			} while (sub);
		}
	}
	for (hi = 0, k = 0; hi < TOP_SLOTS; hi++) {
		/* Neighbouring halves mostly share a set: the one found last is tried first. */
		if (k < nsets && scan->top_sets[k] == may[hi]) {
			scan->top_set[hi] = (uint8_t)k;
			continue;
		}
		for (k = 0; k < nsets && scan->top_sets[k] != may[hi]; k++)
			;
		if (k == nsets && nsets < 255)
			scan->top_sets[nsets++] = may[hi];
		else if (k == nsets)
			k = 255;
		scan->top_set[hi] = (uint8_t)k;
	}
	for (r = 0; r < scan->nrules; r++)
		scan->top_sets[255] |= result_bit(r);
	eh_free(may);
	scan->lows = eh_alloc_array(LOW_TABLES * LOW_WORDS, sizeof(*scan->lows));
	if (!scan->lows)
		return EH_ENOMEM;
	for (k = 1, r = 0; k < nsets && r < LOW_TABLES; k++) {
		uint64_t *bits = scan->lows + r * LOW_WORDS;

		memset(bits, 0, LOW_WORDS * sizeof(*bits));
		if (index_lows(scan, scan->top_sets[k], bits))
			scan->low_of[k] = (uint8_t)++r;
	}
	return 0;
}

/* The rules that want word, by result (a rule past the 63rd: bit 63); 0 when none does. */
static uint64_t wanted(const struct eh_audit_scan *scan, uint64_t addr, uint32_t word)
{
	uint64_t may = scan->top_sets[scan->top_set[word >> 16]], low = may & ~(1ull << 63), mask = 0;
	size_t r;

	for (; low; low &= low - 1) {
		r = (size_t)__builtin_ctzll(low);
		if (wants_word(scan->rules[r], addr, word))
			mask |= result_bit(r);
	}
	for (r = 63; may >> 63 && r < scan->nrules && !(mask >> 63); r++)
		if (wants_word(scan->rules[r], addr, word))
			mask |= result_bit(r);
	return mask;
}

/* How many of nrules rules a candidate wanted by mask may visit: past the 63rd the mask does not say. */
static size_t wanting(uint64_t mask, size_t nrules)
{
	return (size_t)__builtin_popcountll(mask & ~(1ull << 63)) + (mask >> 63 && nrules > 63 ? nrules - 63 : 0);
}

/* Result r's verdict pair of candidate c, in its section's verdicts. */
static uint32_t *verdict_of(uint32_t *verdicts, const struct candidate *c, size_t r)
{
	uint64_t below = r < 63 ? (1ull << r) - 1 : ~(1ull << 63);

	return verdicts + 2 * (c->slot + (size_t)__builtin_popcountll(c->wants & below) + (r < 63 ? 0 : r - 63));
}

/* Room for one more candidate of section i in the scan's wanted and cands (cap of each). */
static int grow_candidates(struct eh_audit_scan *scan, size_t i, size_t *cap)
{
	size_t c = *cap;
	int rc = eh_audit__grow(&scan->wanted[i], &c, scan->nwanted[i], sizeof(*scan->wanted[i]));

	if (!rc)
		rc = eh_audit__grow(&scan->cands[i], cap, scan->nwanted[i], sizeof(*scan->cands[i]));
	return rc;
}

/* The top half of the little-endian word at data + off: one load. */
static unsigned top_half(const uint8_t *data, size_t off)
{
	uint16_t h;

	memcpy(&h, data + off + 2, sizeof(h));
	return le16toh(h);
}

/*
 * The offset of the first word of data from off (below end) whose top half has a set: most
 * words of a kernel are nothing a rule wants, and this loop is the one that reads them all,
 * two bytes each, four words a round.
 */
static size_t next_in_set(const uint8_t *top_set, const uint8_t *data, size_t off, size_t end)
{
	for (; off + 16 <= end; off += 16)
		if (top_set[top_half(data, off)] | top_set[top_half(data, off + 4)] | top_set[top_half(data, off + 8)] |
		    top_set[top_half(data, off + 12)])
			break;
	while (off + 4 <= end && !top_set[top_half(data, off)])
		off += 4;
	return off;
}

/* Whether a rule may want the word at data + off, which next_in_set found, by its low half too. */
static bool low_may(const struct eh_audit_scan *scan, const uint8_t *data, size_t off)
{
	unsigned k = scan->low_of[scan->top_set[top_half(data, off)]], lo = data[off] | (unsigned)data[off + 1] << 8;

	return !k || scan->lows[(k - 1) * LOW_WORDS + lo / 64] >> (lo % 64) & 1;
}

/* The offset of the first word of data from off (below end) that a rule may want, by both its halves. */
static size_t next_candidate(const struct eh_audit_scan *scan, const uint8_t *data, size_t off, size_t end)
{
	while ((off = next_in_set(scan->top_set, data, off, end)) + 4 <= end && !low_may(scan, data, off))
		off += 4;
	return off;
}

/* The candidates of section i, read a window at a time through c. */
static int scan_section(struct eh_audit_scan *scan, size_t i, struct eh_elf_cursor *c, struct eh_error *err)
{
	const struct eh_elf *elf = scan->elf;
	const struct eh_elf_section *s = &elf->sections[i];
	size_t cap = 0, base, off, n;
	int rc = 0;

	for (base = 0; base < s->size && !rc; base += EH_ELF_CURSOR_CHUNK) {
		const uint8_t *p;

		rc = pass_window(elf, c, s, base, &n, &p);
		if (rc)  /* EH_ENOMEM: the caller says so */
			return rc != EH_EIO ? rc
					    : eh_error_set(err, rc, "%s: cannot read %s at offset 0x%" PRIx64 ": %s",
							   elf->path, s->name, s->offset + base, strerror(errno));
		for (off = 0; !rc && (off = next_candidate(scan, p, off, n)) + 4 <= n; off += 4) {
			uint32_t word = eh_insn_word(p + off);
			uint64_t mask = wanted(scan, s->addr + base + off, word);
			struct candidate *cand;

			if (!mask)
				continue;
			rc = grow_candidates(scan, i, &cap);
			if (rc)
				break;
			scan->wanted[i][scan->nwanted[i]] = base + off;
			cand = &scan->cands[i][scan->nwanted[i]++];
			*cand = (struct candidate){ .wants = mask, .slot = (uint32_t)scan->nslots[i], .word = word, .repl = -1 };
			scan->nslots[i] += wanting(mask, scan->nrules);
		}
	}
	return rc;
}

int eh_audit_scan_new(struct eh_audit_scan **out, const struct eh_elf *elf, const struct eh_erratum *const *errata,
		      struct eh_error *err)
{
	struct eh_audit_scan *scan = eh_alloc(sizeof(*scan));
	size_t n = elf->nsections ? elf->nsections : 1, i, nrules = 0;
	struct eh_elf_cursor cursor = { 0 };
	int rc;

	*out = NULL;
	if (!scan)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	scan->elf = elf;
	scan->errata = errata;
	scan->wanted = eh_alloc(n * sizeof(*scan->wanted));
	scan->nwanted = eh_alloc(n * sizeof(*scan->nwanted));
	scan->cands = eh_alloc(n * sizeof(*scan->cands));
	scan->verdicts = eh_alloc(n * sizeof(*scan->verdicts));
	scan->nslots = eh_alloc(n * sizeof(*scan->nslots));
	scan->live = eh_alloc(n * sizeof(*scan->live));
	scan->nlive = eh_alloc(n * sizeof(*scan->nlive));
	rc = scan->wanted && scan->nwanted && scan->cands && scan->verdicts && scan->nslots && scan->live &&
			     scan->nlive
		     ? eh_decoder_new(&scan->dec, err)
		     : EH_ENOMEM;
	for (i = 0; errata[i]; i++)
		nrules += errata[i]->rule != NULL;
	if (!rc && !(scan->rules = eh_alloc((nrules + 1) * sizeof(*scan->rules))))
		rc = EH_ENOMEM;
	for (i = 0; errata[i] && !rc; i++)
		if (errata[i]->rule)
			scan->rules[scan->nrules++] = errata[i]->rule;
	if (!rc)
		rc = index_triggers(scan);
	for (i = 0; i < elf->nsections && !rc; i++)
		if (audited(&elf->sections[i]))
			rc = scan_section(scan, i, &cursor, err);
	eh_elf_cursor_free(&cursor);
	if (rc) {
		eh_audit_scan_free(scan);
		return rc == EH_ENOMEM ? eh_error_set(err, rc, "%s: out of memory", elf->path) : rc;
	}
	*out = scan;
	return 0;
}

void eh_audit_scan_free(struct eh_audit_scan *scan)
{
	size_t i;

	if (!scan)
		return;
	for (i = 0; scan->wanted && i < scan->elf->nsections; i++)
		eh_free(scan->wanted[i]);
	for (i = 0; scan->cands && i < scan->elf->nsections; i++)
		eh_free(scan->cands[i]);
	for (i = 0; scan->verdicts && i < scan->elf->nsections; i++)
		eh_free(scan->verdicts[i]);
	for (i = 0; scan->live && i < scan->elf->nsections; i++)
		eh_free(scan->live[i]);
	eh_free(scan->verdicts);
	eh_free(scan->nslots);
	eh_free(scan->live);
	eh_free(scan->nlive);
	eh_free(scan->shared);
	eh_free(scan->pool);
	free_index(&scan->index);
	eh_free(scan->seen);
	eh_free(scan->wanted);
	eh_free(scan->cands);
	eh_free(scan->calls);
	eh_free(scan->nwanted);
	eh_free(scan->rules);
	eh_free(scan->top_set);
	eh_free(scan->lows);
	eh_decoder_free(scan->dec);
	eh_free(scan);
}

/* Append the findings a visit in another image appended for the same verdict. */
static int replay(struct eh_rule_ctx *ctx, const struct shared_verdict *v)
{
	struct eh_audit_result *res = ctx->res;
	size_t i;

	for (i = 0; i < v->n; i++) {
		struct eh_finding *f;

		if (eh_audit__grow(&res->findings, &ctx->state->cap_findings, res->nfindings, sizeof(*res->findings)))
			return EH_ENOMEM;
		f = &res->findings[res->nfindings++];
		*f = ctx->scan->pool[v->first + i];
		/* The same site of this image: the one parse's images share it, others of the numbering copy it in order. */
		if (f->site)
			f->site = ctx->img->sites + (f->site - v->img->sites);
	}
	return 0;
}

/* Whether the image has the words and site outcomes of v's over v's range. */
static bool same_view(const struct eh_rule_ctx *ctx, const struct shared_verdict *v)
{
	const struct eh_image *x = v->img, *y = ctx->img;
	size_t i = eh_image_patch_from(x, v->lo), j = eh_image_patch_from(y, v->lo);

	for (; i < x->npatches && eh_image_patch_addr(x, i) < v->hi; i++, j++)
		if (j == y->npatches || eh_image_patch_addr(y, j) != eh_image_patch_addr(x, i) ||
		    y->patches[j].word != x->patches[i].word)
			return false;
	if (j < y->npatches && eh_image_patch_addr(y, j) < v->hi)
		return false;
	return eh_audit__sites_agree(ctx, x, v->lo, v->hi);
}

/*
 * A scan rule's visit of candidate addr, tracked: when it read nothing an
 * alternative covers and asked nothing images differ in, its findings (from the
 * result's first) are every image's, kept for the others in verdict[0] (images
 * without VHE) and verdict[1] (with); when it asked only about VHE, in the one
 * of this image; when it read words alternatives cover or asked for a site, in
 * the one of this image as a view, for the images that agree with this one there.
 */
static int visit_tracked(struct eh_rule_ctx *ctx, const struct eh_rule *rule, const struct eh_insn *in,
			 uint32_t *verdict, unsigned vhe)
{
	struct eh_audit_scan *scan = ctx->scan;
	struct eh_audit_result *res = ctx->res;
	size_t first = res->nfindings, i;
	bool keyed;
	int rc;

	ctx->tracking = true;
	ctx->varies = ctx->vhe_dep = ctx->site_asked = false;
	ctx->lo = ctx->hi = in->addr;
	rc = rule->scan->visit(ctx, in);
	ctx->tracking = false;
	if (rc)
		return rc;
	if (ctx->varies) {
		verdict[0] = verdict[1] = VARIES;
		return 0;
	}
	keyed = ctx->site_asked || eh_audit__touches_site(ctx, ctx->lo, ctx->hi + 4);
	for (i = first; i < res->nfindings; i++)
		keyed |= res->findings[i].site != NULL;
	if (eh_audit__grow(&scan->shared, &scan->cap_shared, scan->nshared, sizeof(*scan->shared)))
		return EH_ENOMEM;
	for (i = first; i < res->nfindings; i++) {
		if (eh_audit__grow(&scan->pool, &scan->cap_pool, scan->npool, sizeof(*scan->pool)))
			return EH_ENOMEM;
		scan->pool[scan->npool++] = res->findings[i];
	}
	scan->shared[scan->nshared] = (struct shared_verdict){ scan->npool - (res->nfindings - first),
							       res->nfindings - first };
	if (keyed) {
		struct shared_verdict *v = &scan->shared[scan->nshared];

		v->img = ctx->img;
		v->lo = ctx->lo;
		v->hi = ctx->hi + 4;
		v->next = verdict[vhe] >= 2 ? verdict[vhe] : 0;
		verdict[vhe] = 2 + (uint32_t)scan->nshared++;
	} else if (ctx->vhe_dep) {  /* a verdict that turned on VHE is the one of the images that agree on it */
		verdict[vhe] = 2 + (uint32_t)scan->nshared++;
	} else {
		verdict[0] = verdict[1] = 2 + (uint32_t)scan->nshared++;
	}
	return 0;
}

/* A scan rule on a candidate: its verdict shared from another image when one holds here, else a visit. */
static int scan_verdict(struct eh_rule_ctx *ctx, const struct eh_rule *rule, const struct eh_insn *in,
			uint32_t *verdict, unsigned vhe)
{
	const struct shared_verdict *v = NULL;
	uint32_t k = verdict[vhe];
	unsigned views = 0;

	if (k == VARIES)
		return rule->scan->visit(ctx, in);
	for (; k >= 2; k = v->next, views++) {
		v = &ctx->scan->shared[k - 2];
		if (!v->img || same_view(ctx, v))
			return replay(ctx, v);
	}
	if (views >= MAX_VIEWS)
		return rule->scan->visit(ctx, in);
	return visit_tracked(ctx, rule, in, verdict, vhe);
}

/* Whether every rule that wants c has one verdict for every image, with no finding. */
static bool settled(const struct eh_audit_scan *scan, const struct eh_audit *a, const struct candidate *c,
		    uint32_t *verdicts)
{
	size_t r;

	for (r = 0; r < a->nresults; r++) {
		const struct shared_verdict *v;
		const uint32_t *verdict;

		if (r >= 63 || !(c->wants >> r & 1))
			continue;  /* past the 63rd the mask does not say: such a rule is never settled */
		verdict = verdict_of(verdicts, c, r);
		if (a->results[r].erratum->rule->window || verdict[0] < 2 || verdict[0] != verdict[1])
			return false;
		v = &scan->shared[verdict[0] - 2];
		if (v->img || v->n)
			return false;
	}
	return c->wants >> 63 == 0;
}

/* The first result from r on that mask (by result_bit) may want; SIZE_MAX when none. */
static size_t next_wanting(uint64_t mask, size_t r)
{
	uint64_t low = r < 63 ? mask & ~(1ull << 63) & ~((1ull << r) - 1) : 0;

	if (low)
		return (size_t)__builtin_ctzll(low);
	return mask >> 63 ? (r < 63 ? 63 : r) : SIZE_MAX;
}

/*
 * Hand the word at addr to every rule that wants it, decoded once: into c when it
 * is one of the scan's candidates as the file has it (verdicts its section's
 * scan-rule verdicts), else through the decoder's cache.
 */
static int visit_word(struct eh_rule_ctx *ctx, struct eh_audit *a, struct eh_audit__rule_state *states,
		      uint64_t addr, uint32_t word, struct candidate *c, uint32_t *verdicts)
{
	const struct eh_insn *in = NULL;
	struct eh_insn first;
	bool cached = c && ctx->img->caps == ctx->scan->caps;
	uint64_t mask = (c ? c->wants : wanted(ctx->scan, addr, word)) & ctx->ran;
	size_t r;
	int rc;

	for (r = next_wanting(mask, 0); r < a->nresults; r = next_wanting(mask, r + 1)) {
		const struct eh_rule *rule = a->results[r].erratum->rule;

		if (r >= 63 && (!(mask >> 63) || !a->results[r].ran || !wants_word(rule, addr, word)))
			continue;
		if (!in) {
			if (cached && c->repl < 0)
				c->repl = eh_audit__is_replacement(ctx, addr);
			if (cached ? c->repl : eh_audit__is_replacement(ctx, addr))
				return 0;
			if (c && !c->decoded) {
				eh_decoder_decode(ctx->dec, addr, word, &first);
				c->decoded = true;
				in = &first;
			} else {
				in = eh_decoder_get(ctx->dec, addr, word);
			}
			if (!in)
				return EH_ENOMEM;
		}
		ctx->res = &a->results[r];
		ctx->state = &states[r];
		if (rule->window)
			rc = window_anchor(ctx, in);
		else if (!cached || !verdicts)
			rc = rule->scan->visit(ctx, in);
		else
			rc = scan_verdict(ctx, rule, in, verdict_of(verdicts, c, r), ctx->vhe);
		if (rc)
			return rc;
	}
	if (cached && verdicts)
		c->settled = settled(ctx->scan, a, c, verdicts);
	return 0;
}

/*
 * Keep section i's candidates that are not settled after an image of the scan's
 * numbering (from live, or every one the first time; none kept when out of memory).
 * A settled candidate stays so: such images no longer visit it.
 */
static void keep_live(struct eh_audit_scan *scan, size_t i)
{
	uint32_t *live = scan->live[i];
	size_t n = live ? scan->nlive[i] : scan->nwanted[i], k, m = 0;
	bool first = !live;

	if (first && !(live = scan->live[i] = eh_alloc((n ? n : 1) * sizeof(*live))))
		return;
	for (k = 0; k < n; k++) {
		uint32_t x = first ? (uint32_t)k : live[k];

		if (!scan->cands[i][x].settled)
			live[m++] = x;
	}
	scan->nlive[i] = m;
}

/*
 * The words of section i to visit in img, in address order: the scan's candidates
 * outside the alternatives img applies (the file's words; for an image of the scan's
 * numbering, those not settled), and every word inside them (img->applied, by
 * original address). *at: the address visited last, for errors.
 */
static int visit_section(struct eh_rule_ctx *ctx, struct eh_audit *a, struct eh_audit__rule_state *states,
			 struct eh_audit_scan *scan, size_t i, uint64_t *at)
{
	const struct eh_elf_section *s = &scan->elf->sections[i];
	const struct eh_image *img = ctx->img;
	const uint64_t *w = scan->wanted[i];
	bool own = img->caps == scan->caps;
	const uint32_t *live = own ? scan->live[i] : NULL;
	size_t nw = live ? scan->nlive[i] : scan->nwanted[i], k = 0, j, x, p;
	uint64_t done = 0, off;
	uint32_t *verdicts;
	int rc = 0;

	if (scan->nslots[i] && !scan->verdicts[i])
		scan->verdicts[i] = eh_alloc(2 * scan->nslots[i] * sizeof(*scan->verdicts[i]));
	verdicts = scan->verdicts[i];  /* NULL when out of memory: every image visits */

	/* The sites the image applied in the section, then (site NULL) the rest of its candidates. */
	for (j = eh_image_applied_from(img, s->addr), p = eh_image_patch_from(img, s->addr); !rc; j++) {
		const struct eh_alt_site *site = j < img->napplied ? &img->sites[img->applied[j]] : NULL;
		uint64_t lo = s->size, hi = s->size;

		if (site && site->orig - s->addr >= s->size)
			site = NULL;  /* past the section */
		if (site) {
			lo = site->orig - s->addr;
			hi = lo + site->orig_len < s->size ? lo + site->orig_len : s->size;
		}
		for (; k < nw && w[x = live ? live[k] : k] < lo && !rc; k++) {
			if (w[x] >= done && !(scan->cands[i][x].settled && own) && scan->cands[i][x].wants & ctx->ran)
				rc = visit_word(ctx, a, states, *at = s->addr + w[x], scan->cands[i][x].word,
						&scan->cands[i][x], verdicts);
		}
		for (off = lo > done ? lo : done; off + 4 <= hi && !rc; off += 4) {
			uint32_t word = site_word(img, site, s->addr + off, &p);

			/* Most words inside an alternative match no trigger of a rule that runs here. */
			if (scan->top_sets[scan->top_set[word >> 16]] & ctx->ran)
				rc = visit_word(ctx, a, states, *at = s->addr + off, word, NULL, NULL);
		}
		done = hi > done ? hi : done;
		if (!site)
			break;
	}
	if (!rc && own && verdicts)
		keep_live(scan, i);
	return rc;
}

static int cmp_symbol_value(const void *a, const void *b)
{
	return cmp_u64((*(const struct eh_elf_symbol *const *)a)->value, (*(const struct eh_elf_symbol *const *)b)->value);
}

/*
 * Result res's rule over named functions: a visit at the first instruction of each
 * sized symbol of those names that starts in audited code, in address order, each
 * address once. *at: the address visited last, for errors.
 */
static int visit_functions(struct eh_rule_ctx *ctx, struct eh_audit_result *res, struct eh_audit__rule_state *st,
			   uint64_t *at)
{
	const struct eh_scan_rule *rule = res->erratum->rule->scan;
	const struct eh_elf *elf = ctx->img->elf;
	const struct eh_elf_symbol **fns = NULL;
	size_t nfns = 0, cap = 0, i, n;
	const char *const *name;
	int rc = 0;

	for (name = rule->functions; *name && !rc; name++) {
		const struct eh_elf_symbol *const *v = eh_elf_symbols_named(elf, *name, &n);

		for (i = 0; i < n && !rc; i++)
			if (v[i]->size && !(rc = eh_audit__grow(&fns, &cap, nfns, sizeof(*fns))))
				fns[nfns++] = v[i];
	}
	if (nfns > 1)
		qsort(fns, nfns, sizeof(*fns), cmp_symbol_value);
	ctx->res = res;
	ctx->state = st;
	for (i = 0; i < nfns && !rc; i++) {
		const struct eh_elf_section *s = eh_elf_section_at(elf, fns[i]->value);
		struct eh_insn in;

		if ((i && fns[i]->value == fns[i - 1]->value) || !s || !audited(s) ||
		    eh_rule_insn_at(ctx, *at = fns[i]->value, &in))
			continue;
		rc = rule->visit(ctx, &in);
	}
	eh_free(fns);
	return rc;
}

/*
 * Give back what the result's arrays grew beyond what they hold: the audits of every
 * image of a report live until it is written, and doubling left a third of their
 * findings' memory unused (Debian's 6.1 vmlinux: 30 images, 21,000 findings).
 */
static void fit_result(struct eh_audit_result *res)
{
	res->findings = eh_shrink(res->findings, res->nfindings * sizeof(*res->findings));
	res->windows = eh_shrink(res->windows, res->nwindows * sizeof(*res->windows));
}

int eh_audit_run_scan(struct eh_audit **out, const struct eh_image *img, struct eh_audit_scan *scan,
		      const bool *run, struct eh_error *err)
{
	const struct eh_elf *elf = img->elf;
	struct eh_audit__walk wk = { 0 };
	struct eh_rule_ctx ctx = { .img = img, .walk = &wk, .dec = scan->dec, .scan = scan,
				   .vhe = eh_target_vhe(&img->target) };
	struct eh_audit__rule_state *states = NULL;
	struct site_index own = { 0 };
	struct eh_audit *a;
	size_t i;
	uint64_t at = 0;
	int rc;

	*out = NULL;
	if (elf != scan->elf)
		return eh_error_set(err, EH_EINVAL, "%s: an image audited with the scan of %s", elf->path,
				    scan->elf->path);
	a = eh_alloc(sizeof(*a));
	if (!a)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	a->img = img;
	if (!scan->caps)
		scan->caps = img->caps;
	rc = start_results(a, &states, scan->errata, run, err);
	for (i = 0; !rc && i < a->nresults; i++)
		ctx.ran |= a->results[i].ran ? result_bit(i) : 0;
	if (!rc)
		rc = index_sites(&ctx, &own);
	if (!rc && !scan->seen && !(scan->seen = eh_alloc(SEEN_SLOTS * sizeof(*scan->seen))))
		rc = EH_ENOMEM;
	wk.seen = scan->seen;
	wk.gen = scan->seen_gen;
	for (i = 0; i < elf->nsections && !rc && ctx.ran; i++)
		if (audited(&elf->sections[i]))
			rc = visit_section(&ctx, a, states, scan, i, &at);
	for (i = 0; i < a->nresults && !rc; i++) {
		const struct eh_rule *rule = a->results[i].erratum->rule;

		if (rule->scan && rule->scan->functions && a->results[i].ran)
			rc = visit_functions(&ctx, &a->results[i], &states[i], &at);
	}
	if (!rc && ctx.read_rc) {
		rc = ctx.read_rc;
		errno = ctx.read_errno;
	}
	if (rc == EH_ENOMEM) {
		eh_error_set(err, rc, "%s: out of memory auditing", elf->path);
	} else if (rc == EH_EIO) {
		eh_error_set(err, rc, "%s: cannot read its code: %s", elf->path, strerror(errno));
	} else if (rc && ctx.res) {
		char where[EH_AUDIT_WHERE_MAX];

		eh_error_set(err, rc, "%s: the rule of erratum %s failed (%d) at %s", elf->path,
			     ctx.res->erratum->id, rc, eh_elf_describe(elf, at, where, sizeof(where)));
	}
	if (rc)
		goto out;
	for (i = 0; i < a->nresults; i++)
		fit_result(&a->results[i]);
	*out = a;
	a = NULL;
out:
	scan->seen_gen = wk.gen;
	eh_elf_windows_free(&ctx.code);
	eh_free(states);
	eh_free(wk.todo);
	eh_free(wk.frames);
	eh_free(wk.calls);
	free_index(&own);
	eh_audit_free(a);
	return rc;
}

int eh_audit_run(struct eh_audit **out, const struct eh_image *img, const struct eh_erratum *const *errata,
		 struct eh_error *err)
{
	struct eh_audit_scan *scan;
	int rc = eh_audit_scan_new(&scan, img->elf, errata, err);

	*out = NULL;
	if (!rc)
		rc = eh_audit_run_scan(out, img, scan, NULL, err);
	eh_audit_scan_free(scan);
	return rc;
}

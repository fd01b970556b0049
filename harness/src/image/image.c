/* Builds the patched memory image of an ELF for a model: the kernel's boot-time alternatives applied. */
#include "eh/image.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "image/alt_cb.h"
#include "eh/insn.h"

/*
 * The image being built: the sites are applied in the order of their original
 * address, so the patches are appended in address order. That is the kernel's
 * result though it applies them in entry order: eh_alt_parse made sure no two
 * original ranges overlap, so each word is written by one site at most, and a
 * callback reads only its own range, which no other site touches.
 */
struct patching {
	struct eh_image *img;
	const struct eh_image_plan *plan;
	struct eh_alt_cb_env env;
	size_t last;    /* the outcome a callback site kept last */
	const struct eh_alt_outcome *kept_from;  /* ... the decision it copied, when it ran no callback */
};

/* Append the n patches v (above every patch so far): the plan sized patches for every word a site may write. */
static void append(struct patching *p, const struct eh_image_patch *v, size_t n)
{
	struct eh_image *img = p->img;

	memcpy(img->patches + img->npatches, v, n * sizeof(*v));
	img->npatches += n;
}

/* Append word at addr (above every patch so far), unless it is file, the ELF's. */
static void set_word(struct patching *p, uint64_t addr, uint32_t word, uint32_t file)
{
	struct eh_image *img = p->img;

	if (file != word)
		img->patches[img->npatches++] = (struct eh_image_patch){ (uint32_t)(addr - img->patch_base), word };
}

static int no_contents(const struct eh_image *img, const char *what, uint64_t addr, struct eh_error *err)
{
	return eh_error_set(err, EH_EINPUT, "%s: %s at 0x%" PRIx64 " has no contents", img->elf->path, what, addr);
}

size_t eh_image_patch_from(const struct eh_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->npatches;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (eh_image_patch_addr(img, mid) < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t eh_image_applied_from(const struct eh_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->napplied;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->sites[img->applied[mid]].orig < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int eh_image_word_in(const struct eh_image *img, const struct eh_elf_section *s, uint64_t addr,
		     struct eh_elf_windows *ws, uint32_t *word)
{
	const uint8_t *p;
	size_t i;
	int rc;

	if (!s->data || addr - s->addr >= s->size || s->size - (addr - s->addr) < 4)
		return EH_ENOENT;
	i = eh_image_patch_from(img, addr);
	if (i < img->npatches && eh_image_patch_addr(img, i) == addr) {
		*word = img->patches[i].word;
		return 0;
	}
	p = s->data + (addr - s->addr);
	if (ws && (rc = eh_elf_windows_at(img->elf, ws, s, addr - s->addr, &p)))
		return rc;
	*word = eh_insn_word(p);
	return 0;
}

int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	return s ? eh_image_word_in(img, s, addr, NULL, word) : EH_ENOENT;
}

bool eh_image_copy_section(const struct eh_image *img, const struct eh_elf_section *s, uint8_t *dst)
{
	size_t i;

	if (!(s->flags & SHF_ALLOC) || !s->data)
		return false;
	memcpy(dst, s->data, s->size);
	for (i = eh_image_patch_from(img, s->addr); i < img->npatches && eh_image_patch_addr(img, i) - s->addr < s->size;
	     i++) {
		uint8_t *p = dst + (eh_image_patch_addr(img, i) - s->addr);
		uint32_t w = img->patches[i].word;

		p[0] = (uint8_t)w;
		p[1] = (uint8_t)(w >> 8);
		p[2] = (uint8_t)(w >> 16);
		p[3] = (uint8_t)(w >> 24);
	}
	return true;
}

bool eh_image_has_cap(const struct eh_image *img, const char *name)
{
	return eh_cap_detected(img->rules, &img->target, name);
}

/*
 * A site of a plan, in the order images apply them (by original address): what image_new
 * reads of it for most sites, without a look at the site itself.
 */
struct plan_step {
	uint32_t site;          /* its index in the parse */
	uint32_t cap;           /* its capability number, when caps numbers it; else UNNUMBERED */
	uint32_t cb_index;      /* a callback's */
	uint32_t first, n;      /* what applying it writes, where the plan knows it (eh_image_plan.fixed) */
	/*
	 * The steps from it on that an image applying it applies alike (itself included): fixed
	 * ones, and gated callbacks that patch, of one capability, their words adjacent in fixed.
	 */
	uint32_t run;
	/*
	 * fixed: the words are the plan's. gated: a callback whose outcome is its capability's
	 * decision and the words the plan holds (gated_callback), kept by no image.
	 */
	enum { STEP_FIXED, STEP_APPLY, STEP_CALLBACK, STEP_GATED } kind;
};

#define UNNUMBERED UINT32_MAX

struct eh_image_plan {
	const struct eh_alt_site *sites;  /* borrowed */
	size_t nsites;
	const struct eh_cpucaps *caps;
	uint64_t patch_base;    /* the images' (struct eh_image) */
	struct plan_step *steps;          /* nsites of them */
	/*
	 * What the sites of a number, and the callbacks whose outcome turns on nothing of the
	 * target (cb_fixed), write that differs from the file; by step, in order.
	 */
	struct eh_image_patch *fixed;
	size_t nfixed;
	size_t most;            /* the patches an image may have: every word of every site */
	/*
	 * The steps an image visits (image_new), as bits by step: those of a capability number
	 * (fixed, to apply, gated) only when the image's kernel detects it, by_cap[by_cap_from[cap]]
	 * up to by_cap[by_cap_from[cap + 1]]; the other callbacks, and sites of a name the parse
	 * did not number, always. A site with neither (no capability) changes no image.
	 */
	uint64_t *always;
	size_t nwords;          /* of always, and of an image's bits */
	uint32_t *by_cap, *by_cap_from;
	uint32_t *decide_site;  /* by capability number: a site of it, whose name decides it; UNNUMBERED for none */
};

/* A callback reads the original and writes the site (__apply_alternatives calls alt_cb); st is its step. */
static int run_callback(struct patching *p, const struct plan_step *st, const struct eh_alt_site *s,
			struct eh_alt_outcome *out, struct eh_error *err)
{
	struct eh_image *img = p->img;
	uint32_t words[256 / 4];
	unsigned i, n = s->orig_len / 4u;
	int rc;

	if (!s->words)
		return no_contents(img, "alternative", s->orig, err);
	if (s->cb_fixed) {  /* what it writes turns on nothing of the target: the plan's */
		out->cb_result = s->cb_fixed;
		out->cb_why = s->cb_fixed_why;
		out->applied = out->cb_result == EH_ALT_CB_PATCHED;
		if (out->applied)
			append(p, p->plan->fixed + st->first, st->n);
		return 0;
	}
	memcpy(words, s->words, n * sizeof(*words));
	rc = eh_alt_cb_run(img, &p->env, s, out, words, err);
	if (rc || out->cb_result != EH_ALT_CB_PATCHED)
		return rc;
	for (i = 0; i < n; i++)
		set_word(p, s->orig + 4 * i, words[i], s->words[i]);
	out->applied = true;
	return 0;
}

/*
 * __apply_alternatives(): copy the replacement over the original, each word fixed up as
 * the parse moved it; a word it could not read or move fails here, as the kernel's would.
 */
static int apply_site(struct patching *p, const struct eh_alt_site *s, struct eh_error *err)
{
	struct eh_image *img = p->img;
	unsigned i, n = s->orig_len / 4u;

	if (!s->words)
		return no_contents(img, "alternative", s->orig, err);
	if (s->unfixed) {
		uint64_t at = s->repl + 4u * (s->unfixed - 1u);
		uint32_t insn, out;

		/* Read from the ELF, not from img: an earlier site may have patched the replacement. */
		if (eh_elf_word(img->elf, at, &insn))
			return no_contents(img, "replacement", at, err);
		eh_alt_fixup(insn, at, s->orig + (at - s->repl), s->repl, s->repl + s->repl_len, &out, err);
		return eh_error_prefix(err, "%s: alternative on %s: ", img->elf->path, s->cap_name ? s->cap_name : "?");
	}
	for (i = 0; i < n; i++)
		set_word(p, s->orig + 4 * i, s->words[n + i], s->words[i]);
	return 0;
}

static bool same_outcome(const struct eh_alt_outcome *x, const struct eh_alt_outcome *o)
{
	return x->applied == o->applied && x->state == o->state && x->rule == o->rule && x->cb_result == o->cb_result &&
	       x->cb_why == o->cb_why;
}

/* Callback site s's outcome o, kept once among the image's distinct ones. */
static int keep_outcome(struct patching *p, const struct eh_alt_site *s, const struct eh_alt_outcome *o,
			struct eh_error *err)
{
	struct eh_image *img = p->img;
	size_t i = p->last;
	void *v;

	/* Callback sites come in runs of one callback: the outcome kept last is the likely one. */
	if (i >= img->noutcomes || !same_outcome(&img->outcomes[i], o))
		for (i = 0; i < img->noutcomes && !same_outcome(&img->outcomes[i], o); i++)
			;
	p->last = i;
	if (i == img->noutcomes) {
		v = eh_realloc(img->outcomes, (i + 1) * sizeof(*img->outcomes));
		if (!v)
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory", img->elf->path);
		img->outcomes = v;
		img->outcomes[img->noutcomes++] = *o;
	}
	img->callbacks[s->cb_index] = (uint32_t)i;
	return 0;
}

/*
 * Whether callback site s of a parse numbered by caps is gated: a 6.x kernel runs it only once
 * its capability (a number) is detected, and what it writes turns on nothing of the target
 * (cb_fixed). Its outcome is then its capability's decision with the plan's result, which no
 * image keeps (eh_image_outcome).
 */
static bool gated_callback(const struct eh_cpucaps *caps, const struct eh_alt_site *s)
{
	return s->callback && caps->cb_style != EH_ALT_CB_NCAPS && s->cap_name && s->cap < caps->ncaps && s->cb_fixed &&
	       s->words;
}

struct eh_alt_outcome eh_image_outcome(const struct eh_image *img, const struct eh_alt_site *s)
{
	struct eh_alt_outcome o;

	if (gated_callback(img->caps, s)) {  /* as run_callback and visit_step make it */
		o = img->decided[s->cap];
		o.applied = false;
		if (o.state == EH_CAP_DETECTED) {
			o.cb_result = s->cb_fixed;
			o.cb_why = s->cb_fixed_why;
			o.applied = o.cb_result == EH_ALT_CB_PATCHED;
		}
		return o;
	}
	if (s->callback)
		return img->outcomes[img->callbacks[s->cb_index]];
	if (!s->cap_name)
		return (struct eh_alt_outcome){ .state = EH_CAP_UNKNOWN, .cb_why = "" };
	return img->decided[s->cap];  /* eh_alt_parse made sure cap < ncaps */
}

bool eh_image_applied(const struct eh_image *img, const struct eh_alt_site *s)
{
	if (s->callback)
		return eh_image_outcome(img, s).applied;
	return s->cap_name && img->decided[s->cap].applied;
}

bool eh_image_same_outcomes(const struct eh_image *x, const struct eh_image *y)
{
	size_t i;

	for (i = 0; i < x->nsites; i++) {
		const struct eh_alt_site *s = &x->sites[i];
		struct eh_alt_outcome a, b;

		/*
		 * A site of a capability, and a gated callback (whose cb_fixed is a result, not
		 * EH_ALT_CB_NOT_RUN), differ exactly where the capability's decision does.
		 */
		if (!s->callback || gated_callback(x->caps, s)) {
			if (s->cap_name && x->decided[s->cap].applied != y->decided[s->cap].applied)
				return false;
			continue;
		}
		a = eh_image_outcome(x, s);
		b = eh_image_outcome(y, s);
		if (a.applied != b.applied || a.cb_result != b.cb_result)
			return false;
	}
	return true;
}

size_t eh_image_napplied(const struct eh_image *img)
{
	return img->napplied;
}

/* Whether the kernel of img's target detects s's capability, into *o. */
static void decide(const struct eh_image *img, const struct eh_alt_site *s, struct eh_alt_outcome *o)
{
	*o = (struct eh_alt_outcome){ .cb_why = "" };
	o->state = eh_cap_decide(img->rules, &img->target, s->cap_name, &o->rule);
	o->applied = o->state == EH_CAP_DETECTED;
}

/*
 * Whether site s of a parse numbered by caps patches the same words in every image that applies
 * it: no callback, a capability it numbers, contents, every word moved. Whether an image
 * applies it is its capability's decision.
 */
static bool fixed_site(const struct eh_cpucaps *caps, const struct eh_alt_site *s)
{
	return !s->callback && s->cap_name && s->cap < caps->ncaps && s->words && !s->unfixed;
}

/* Whether an image that applies st copies the plan's words for it and nothing else (plan_step.run). */
static bool batched(const struct eh_image_plan *plan, const struct plan_step *st)
{
	return st->kind == STEP_FIXED ||
	       (st->kind == STEP_GATED && plan->sites[st->site].cb_fixed == EH_ALT_CB_PATCHED);
}

/*
 * The plan's always, by_cap, by_cap_from and decide_site (struct eh_image_plan), and each step's
 * run, from its steps; EH_ENOMEM.
 */
static int index_visits(struct eh_image_plan *plan)
{
	const unsigned ncaps = plan->caps->ncaps;
	size_t i;
	unsigned c;

	plan->nwords = (plan->nsites + 63) / 64;
	plan->always = eh_alloc((plan->nwords + 1) * sizeof(*plan->always));
	plan->by_cap_from = eh_alloc((ncaps + 2) * sizeof(*plan->by_cap_from));
	plan->decide_site = eh_alloc_array(ncaps + 1, sizeof(*plan->decide_site));
	plan->by_cap = eh_alloc_array(plan->nsites + 1, sizeof(*plan->by_cap));
	if (!plan->always || !plan->by_cap_from || !plan->decide_site || !plan->by_cap)
		return EH_ENOMEM;
	for (c = 0; c < ncaps; c++)
		plan->decide_site[c] = UNNUMBERED;
	/* Counted into by_cap_from[cap + 2], summed into starts at by_cap_from[cap + 1], filled. */
	for (i = 0; i < plan->nsites; i++) {
		const struct plan_step *st = &plan->steps[i];

		if (st->cap != UNNUMBERED && plan->decide_site[st->cap] == UNNUMBERED)
			plan->decide_site[st->cap] = st->site;
		if (st->cap != UNNUMBERED && st->kind != STEP_CALLBACK)
			plan->by_cap_from[st->cap + 2]++;
		else if (st->kind == STEP_CALLBACK || plan->sites[st->site].cap_name)
			plan->always[i / 64] |= 1ull << (i % 64);
	}
	for (i = plan->nsites; i-- > 0;) {
		struct plan_step *st = &plan->steps[i];

		st->run = 1;
		if (i + 1 < plan->nsites && batched(plan, st) && batched(plan, st + 1) && st[1].cap == st->cap)
			st->run += st[1].run;
	}
	for (c = 1; c <= ncaps; c++)
		plan->by_cap_from[c + 1] += plan->by_cap_from[c];
	for (i = 0; i < plan->nsites; i++)
		if (plan->steps[i].cap != UNNUMBERED && plan->steps[i].kind != STEP_CALLBACK)
			plan->by_cap[plan->by_cap_from[plan->steps[i].cap + 1]++] = (uint32_t)i;
	return 0;
}

int eh_image_plan_new(struct eh_image_plan **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		      const struct eh_alt_site *sites, size_t nsites, struct eh_error *err)
{
	struct eh_image_plan *plan = eh_alloc(sizeof(*plan));
	size_t i, k, total = 0;

	*out = NULL;
	if (plan)
		plan->steps = eh_alloc_array(nsites + 1, sizeof(*plan->steps));
	for (i = 0; i < nsites; i++)
		total += sites[i].orig_len / 4u;  /* an image patches no more */
	if (plan && plan->steps)
		plan->fixed = eh_alloc_array(total + 1, sizeof(*plan->fixed));
	if (!plan || !plan->steps || !plan->fixed) {
		eh_image_plan_free(plan);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	}
	*plan = (struct eh_image_plan){ sites, nsites, caps, 0, plan->steps, plan->fixed, 0, total };
	if (nsites) {  /* sorted by address: the first and last by rank bound them */
		const struct eh_alt_site *lo = &sites[sites[0].rank_site], *hi = &sites[sites[nsites - 1].rank_site];

		plan->patch_base = lo->orig;
		if (hi->orig - lo->orig > UINT32_MAX - hi->orig_len) {
			eh_image_plan_free(plan);
			return eh_error_set(err, EH_EINPUT, "%s: alternatives from 0x%" PRIx64 " to 0x%" PRIx64
					    " span more than 4 GiB", elf->path, lo->orig, hi->orig);
		}
	}
	for (i = 0; i < nsites; i++) {
		const struct eh_alt_site *s = &sites[sites[i].rank_site];
		struct plan_step *st = &plan->steps[i];
		unsigned n = s->orig_len / 4u;

		*st = (struct plan_step){
			.site = sites[i].rank_site,
			.cap = s->cap_name && s->cap < caps->ncaps ? s->cap : UNNUMBERED,
			.cb_index = s->cb_index,
			.first = (uint32_t)plan->nfixed,
			.kind = gated_callback(caps, s) ? STEP_GATED
				: s->callback		? STEP_CALLBACK
				: fixed_site(caps, s)	? STEP_FIXED
							: STEP_APPLY,
		};
		if (st->kind == STEP_APPLY || (st->kind == STEP_CALLBACK && (!s->cb_fixed || !s->words)))
			continue;  /* (a gated callback has both) */
		for (k = 0; k < n; k++)
			if (s->words[n + k] != s->words[k])
				plan->fixed[plan->nfixed++] =
					(struct eh_image_patch){ (uint32_t)(s->orig + 4 * k - plan->patch_base), s->words[n + k] };
		st->n = (uint32_t)(plan->nfixed - st->first);
	}
	if (index_visits(plan)) {
		eh_image_plan_free(plan);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	}
	*out = plan;
	return 0;
}

void eh_image_plan_free(struct eh_image_plan *plan)
{
	if (!plan)
		return;
	eh_free(plan->steps);
	eh_free(plan->fixed);
	eh_free(plan->always);
	eh_free(plan->by_cap);
	eh_free(plan->by_cap_from);
	eh_free(plan->decide_site);
	eh_free(plan);
}

/* The capability rules an image of caps follows (struct eh_image.rules), or an error naming elf. */
static int rules_of(const struct eh_elf *elf, const struct eh_cpucaps *caps, const struct eh_cap_rules **rules,
		    struct eh_error *err)
{
	*rules = caps->rules ? caps->rules : eh_cap_rules_find(caps->kernel);
	return *rules ? 0 : eh_error_set(err, EH_EINVAL, "%s: no capability rules for Linux %s", elf->path, caps->kernel);
}

/* The first step at or after from whose bit visit (nwords of them) has; past the steps for none. */
static size_t next_visit(const uint64_t *visit, size_t nwords, size_t from)
{
	size_t w = from / 64;
	uint64_t bits;

	if (w >= nwords)
		return nwords * 64;
	for (bits = visit[w] & (~0ull << (from % 64)); !bits; bits = visit[w])
		if (++w == nwords)
			return nwords * 64;
	return w * 64 + (size_t)__builtin_ctzll(bits);
}

/*
 * What step st does to the image p builds (every capability decided, img->decided): a site
 * of a detected capability is applied, a callback run or its outcome kept. *took: the steps
 * it saw to, st's run when it applied one.
 */
static int visit_step(struct patching *p, const struct plan_step *st, size_t *ncallbacks, size_t *took,
		      struct eh_error *err)
{
	struct eh_image *img = p->img;
	const struct eh_alt_site *s = &img->sites[st->site];  /* read only where the step does not say */
	struct eh_alt_outcome o = { .state = EH_CAP_UNKNOWN, .cb_why = "" };
	const struct eh_alt_outcome *d = st->cap != UNNUMBERED ? &img->decided[st->cap] : &o;
	bool run;
	int rc = 0;

	if (st->cap == UNNUMBERED && s->cap_name)
		decide(img, s, &o);
	*took = 1;
	if (st->kind != STEP_CALLBACK) {
		const struct plan_step *last = st + st->run - 1;

		if (d->state != EH_CAP_DETECTED || (st->kind == STEP_GATED && s->cb_fixed != EH_ALT_CB_PATCHED))
			return 0;
		if (st->kind == STEP_APPLY) {
			rc = apply_site(p, s, err);
			img->applied[img->napplied++] = st->site;
			return rc;
		}
		/* The run's steps are of one capability, every one of them visited: taken at once. */
		append(p, p->plan->fixed + st->first, last->first + last->n - st->first);
		for (*took = st->run; st <= last; st++)
			img->applied[img->napplied++] = st->site;
		return 0;
	}
	if (st->cb_index >= *ncallbacks)
		*ncallbacks = st->cb_index + 1;
	/* 5.x calls every callback (its capability is ARM64_NCAPS); 6.x those of detected ones. */
	run = p->plan->caps->cb_style == EH_ALT_CB_NCAPS || d->state == EH_CAP_DETECTED;
	if (!run && d != &o && d == p->kept_from) {  /* the outcome a site of its capability kept */
		img->callbacks[st->cb_index] = (uint32_t)p->last;
		return 0;
	}
	o = *d;
	o.applied = false;
	if (run)
		rc = run_callback(p, st, s, &o, err);
	if (o.applied)
		img->applied[img->napplied++] = st->site;
	rc = rc ? rc : keep_outcome(p, s, &o, err);
	p->kept_from = run ? NULL : d;
	return rc;
}

/* eh_image_new, from plan: the sites eh_alt_parse found, borrowed. */
static int image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_image_plan *plan,
		     const struct eh_target *target, struct eh_error *err)
{
	const struct eh_cpucaps *caps = plan->caps;
	uint64_t *visit = NULL;
	struct patching p = { 0 };
	struct eh_image *img;
	size_t i, took, ncallbacks = 0;
	unsigned c;
	int rc;

	*out = NULL;
	img = eh_alloc(sizeof(*img));
	if (!img)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	img->elf = elf;
	img->caps = caps;
	rc = rules_of(elf, caps, &img->rules, err);
	if (rc)
		goto fail;
	img->target = *target;
	img->sites = plan->sites;
	img->nsites = plan->nsites;
	img->patch_base = plan->patch_base;
	p.img = img;
	eh_alt_cb_env_of(img, &p.env);
	img->decided = eh_alloc((caps->ncaps + 1) * sizeof(*img->decided));
	/* By cb_index, fewer than the sites: cut to the callbacks' number once they are known. */
	img->callbacks = eh_alloc_array(img->nsites + 1, sizeof(*img->callbacks));
	img->applied = eh_alloc_array(img->nsites + 1, sizeof(*img->applied));
	/* As many as the image may have: cut to what it has at the end. */
	img->patches = eh_alloc_array(plan->most + 1, sizeof(*img->patches));
	p.plan = plan;
	visit = eh_alloc_array(plan->nwords + 1, sizeof(*visit));
	if (!img->decided || !img->callbacks || !img->applied || !img->patches || !visit) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		goto fail;
	}
	memcpy(visit, plan->always, plan->nwords * sizeof(*visit));
	for (c = 0; c < caps->ncaps; c++) {
		if (plan->decide_site[c] == UNNUMBERED)
			continue;
		decide(img, &img->sites[plan->decide_site[c]], &img->decided[c]);
		if (img->decided[c].state != EH_CAP_DETECTED)
			continue;
		for (i = plan->by_cap_from[c]; i < plan->by_cap_from[c + 1]; i++)
			visit[plan->by_cap[i] / 64] |= 1ull << (plan->by_cap[i] % 64);
	}
	for (i = next_visit(visit, plan->nwords, 0); i < plan->nsites && !rc;
	     i = next_visit(visit, plan->nwords, i + took))
		rc = visit_step(&p, &plan->steps[i], &ncallbacks, &took, err);
	if (rc)
		goto fail;
	/* A report keeps every image: what the arrays hold, not what they grew to or were sized for. */
	img->patches = eh_shrink(img->patches, img->npatches * sizeof(*img->patches));
	img->applied = eh_shrink(img->applied, img->napplied * sizeof(*img->applied));
	img->callbacks = eh_shrink(img->callbacks, ncallbacks * sizeof(*img->callbacks));
	eh_free(visit);
	*out = img;
	return 0;
fail:
	eh_free(visit);
	eh_image_free(img);
	return rc;
}

int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err)
{
	const struct eh_cap_rules *rules;
	struct eh_alt_site *sites = NULL;
	struct eh_image_plan *plan = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	rc = rules_of(elf, caps, &rules, err);
	if (!rc)
		rc = eh_alt_parse(&sites, &n, elf, caps, err);
	if (!rc)
		rc = eh_image_plan_new(&plan, elf, caps, sites, n, err);
	if (!rc)
		rc = image_new(out, elf, plan, target, err);
	eh_image_plan_free(plan);
	if (rc) {
		eh_free(sites);
		return rc;
	}
	(*out)->owned = sites;
	return 0;
}

int eh_image_new_planned(struct eh_image **out, const struct eh_elf *elf, const struct eh_image_plan *plan,
			 const struct eh_target *target, struct eh_error *err)
{
	return image_new(out, elf, plan, target, err);
}

void eh_image_free(struct eh_image *img)
{
	if (!img)
		return;
	eh_free(img->patches);
	eh_free(img->owned);
	eh_free(img->decided);
	eh_free(img->callbacks);
	eh_free(img->outcomes);
	eh_free(img->applied);
	eh_free(img);
}

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
	size_t cap;
	struct eh_alt_cb_env env;
	size_t last;    /* the outcome a callback site kept last */
	const struct eh_alt_outcome *kept_from;  /* ... the decision it copied, when it ran no callback */
};

/* Append word at addr (above every patch so far), unless it is file, the ELF's. */
static int set_word(struct patching *p, uint64_t addr, uint32_t word, uint32_t file)
{
	struct eh_image *img = p->img;
	void *v;

	if (file == word)
		return 0;
	if (img->npatches == p->cap) {
		v = eh_realloc(img->patches, (p->cap ? 2 * p->cap : 256) * sizeof(*img->patches));
		if (!v)
			return EH_ENOMEM;
		img->patches = v;
		p->cap = p->cap ? 2 * p->cap : 256;
	}
	img->patches[img->npatches++] = (struct eh_image_patch){ (uint32_t)(addr - img->patch_base), word };
	return 0;
}

static int no_contents(const struct eh_image *img, const char *what, uint64_t addr, bool oom,
		       struct eh_error *err)
{
	if (oom)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory patching 0x%" PRIx64, img->elf->path, addr);
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

int eh_image_word_in(const struct eh_image *img, const struct eh_elf_section *s, uint64_t addr, uint32_t *word)
{
	size_t i;

	if (!s->data || addr - s->addr >= s->size || s->size - (addr - s->addr) < 4)
		return EH_ENOENT;
	i = eh_image_patch_from(img, addr);
	if (i < img->npatches && eh_image_patch_addr(img, i) == addr)
		*word = img->patches[i].word;
	else
		*word = eh_insn_word(s->data + (addr - s->addr));
	return 0;
}

int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	return s ? eh_image_word_in(img, s, addr, word) : EH_ENOENT;
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

/* A callback reads the original and writes the site (__apply_alternatives calls alt_cb). */
static int run_callback(struct patching *p, const struct eh_alt_site *s, struct eh_alt_outcome *out,
			struct eh_error *err)
{
	struct eh_image *img = p->img;
	uint32_t words[256 / 4];
	unsigned i, n = s->orig_len / 4u;
	int rc;

	if (!s->words)
		return no_contents(img, "alternative", s->orig, false, err);
	if (s->cb_fixed) {  /* what it writes turns on nothing of the target: the parse's */
		out->cb_result = s->cb_fixed;
		out->cb_why = s->cb_fixed_why;
		memcpy(words, s->words + n, n * sizeof(*words));
	} else {
		memcpy(words, s->words, n * sizeof(*words));
		rc = eh_alt_cb_run(img, &p->env, s, out, words, err);
		if (rc)
			return rc;
	}
	if (out->cb_result != EH_ALT_CB_PATCHED)
		return 0;
	for (i = 0; i < n; i++)
		if (set_word(p, s->orig + 4 * i, words[i], s->words[i]))
			return no_contents(img, "alternative", s->orig, true, err);
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
		return no_contents(img, "alternative", s->orig, false, err);
	if (s->unfixed) {
		uint64_t at = s->repl + 4u * (s->unfixed - 1u);
		uint32_t insn, out;

		/* Read from the ELF, not from img: an earlier site may have patched the replacement. */
		if (eh_elf_word(img->elf, at, &insn))
			return no_contents(img, "replacement", at, false, err);
		eh_alt_fixup(insn, at, s->orig + (at - s->repl), s->repl, s->repl + s->repl_len, &out, err);
		return eh_error_prefix(err, "%s: alternative on %s: ", img->elf->path, s->cap_name ? s->cap_name : "?");
	}
	for (i = 0; i < n; i++)
		if (set_word(p, s->orig + 4 * i, s->words[n + i], s->words[i]))
			return no_contents(img, "alternative", s->orig, true, err);
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

struct eh_alt_outcome eh_image_outcome(const struct eh_image *img, const struct eh_alt_site *s)
{
	if (s->callback)
		return img->outcomes[img->callbacks[s->cb_index]];
	if (!s->cap_name)
		return (struct eh_alt_outcome){ .state = EH_CAP_UNKNOWN, .cb_why = "" };
	return img->decided[s->cap];  /* eh_alt_parse made sure cap < ncaps */
}

bool eh_image_applied(const struct eh_image *img, const struct eh_alt_site *s)
{
	if (s->callback)
		return img->outcomes[img->callbacks[s->cb_index]].applied;
	return s->cap_name && img->decided[s->cap].applied;
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

/* eh_image_new, with the sites eh_alt_parse found (borrowed) or, when parse is set, parsing them. */
static int image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps, bool parse,
		     const struct eh_alt_site *parsed, size_t nparsed, const struct eh_target *target,
		     struct eh_error *err)
{
	bool *asked = NULL;
	struct patching p = { 0 };
	struct eh_image *img;
	size_t i, ncallbacks = 0;
	int rc;

	*out = NULL;
	img = eh_alloc(sizeof(*img));
	if (!img)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	img->elf = elf;
	img->caps = caps;
	img->rules = caps->rules ? caps->rules : eh_cap_rules_find(caps->kernel);
	if (!img->rules) {
		rc = eh_error_set(err, EH_EINVAL, "%s: no capability rules for Linux %s", elf->path, caps->kernel);
		goto fail;
	}
	img->target = *target;
	p.img = img;
	eh_alt_cb_env_of(img, &p.env);
	if (parse) {
		rc = eh_alt_parse(&img->owned, &img->nsites, elf, caps, err);
		img->sites = img->owned;
	} else {
		img->sites = parsed;
		img->nsites = nparsed;
		rc = 0;
	}
	img->decided = eh_alloc((caps->ncaps + 1) * sizeof(*img->decided));
	/* By cb_index, fewer than the sites: cut to the callbacks' number once they are known. */
	img->callbacks = eh_alloc_array(img->nsites + 1, sizeof(*img->callbacks));
	img->applied = eh_alloc_array(img->nsites + 1, sizeof(*img->applied));
	asked = eh_alloc((caps->ncaps + 1) * sizeof(*asked));
	if (!rc && (!img->decided || !img->callbacks || !img->applied || !asked))
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	if (rc)
		goto fail;
	if (img->nsites) {  /* sorted by address: the first and last by rank bound them */
		const struct eh_alt_site *lo = &img->sites[img->sites[0].rank_site];
		const struct eh_alt_site *hi = &img->sites[img->sites[img->nsites - 1].rank_site];

		img->patch_base = lo->orig;
		if (hi->orig - lo->orig > UINT32_MAX - hi->orig_len) {
			rc = eh_error_set(err, EH_EINPUT, "%s: alternatives from 0x%" PRIx64 " to 0x%" PRIx64
					  " span more than 4 GiB", elf->path, lo->orig, hi->orig);
			goto fail;
		}
	}
	for (i = 0; i < img->nsites && !rc; i++) {
		const uint32_t k = img->sites[i].rank_site;
		const struct eh_alt_site *s = &img->sites[k];
		struct eh_alt_outcome o;
		const struct eh_alt_outcome *d = &o;
		bool run;

		if (s->cap_name && s->cap < caps->ncaps) {
			d = &img->decided[s->cap];  /* the sites of one capability are decided once */
			if (!asked[s->cap]) {
				decide(img, s, &img->decided[s->cap]);
				asked[s->cap] = true;
			}
		} else if (s->cap_name) {
			decide(img, s, &o);
		} else {
			o = (struct eh_alt_outcome){ .state = EH_CAP_UNKNOWN, .cb_why = "" };
		}
		if (!s->callback) {
			if (d->state == EH_CAP_DETECTED) {
				rc = apply_site(&p, s, err);
				img->applied[img->napplied++] = k;
			}
			continue;
		}
		if (s->cb_index >= ncallbacks)
			ncallbacks = s->cb_index + 1;
		/* 5.x calls every callback (its capability is ARM64_NCAPS); 6.x those of detected ones. */
		run = caps->cb_style == EH_ALT_CB_NCAPS || d->state == EH_CAP_DETECTED;
		if (!run && d != &o && d == p.kept_from) {  /* the outcome a site of its capability kept */
			img->callbacks[s->cb_index] = (uint32_t)p.last;
			continue;
		}
		o = *d;
		o.applied = false;
		if (run)
			rc = run_callback(&p, s, &o, err);
		if (o.applied)
			img->applied[img->napplied++] = k;
		rc = rc ? rc : keep_outcome(&p, s, &o, err);
		p.kept_from = run ? NULL : d;
	}
	if (rc)
		goto fail;
	/* A report keeps every image: what the arrays hold, not what they grew to or were sized for. */
	img->patches = eh_shrink(img->patches, img->npatches * sizeof(*img->patches));
	img->applied = eh_shrink(img->applied, img->napplied * sizeof(*img->applied));
	img->callbacks = eh_shrink(img->callbacks, ncallbacks * sizeof(*img->callbacks));
	eh_free(asked);
	*out = img;
	return 0;
fail:
	eh_free(asked);
	eh_image_free(img);
	return rc;
}

int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err)
{
	return image_new(out, elf, caps, true, NULL, 0, target, err);
}

int eh_image_new_parsed(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
			const struct eh_alt_site *sites, size_t nsites, const struct eh_target *target,
			struct eh_error *err)
{
	return image_new(out, elf, caps, false, sites, nsites, target, err);
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

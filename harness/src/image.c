/* Builds the patched memory image of an ELF for a model: the kernel's boot-time alternatives applied. */
#include "eh/image.h"

#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "alt_cb.h"
#include "eh/insn.h"

static const uint8_t *bytes_at(const struct eh_image *img, uint64_t addr, uint64_t len)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	if (!s || !img->data[s->index] || len > s->size - (addr - s->addr))
		return NULL;
	return img->data[s->index] + (addr - s->addr);
}

/*
 * The same bytes, to be patched: their section is copied the first time one is written, so an
 * image costs the sections its alternatives patch (.text), not every allocated one (.rodata, .data,
 * .BTF). NULL without contents; *oom when the copy cannot be made.
 */
static uint8_t *patch_at(struct eh_image *img, uint64_t addr, uint64_t len, bool *oom)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);
	uint8_t *copy;

	if (!bytes_at(img, addr, len))
		return NULL;
	if (!img->own[s->index]) {
		copy = eh_alloc(s->size);
		if (!copy) {
			*oom = true;
			return NULL;
		}
		memcpy(copy, img->data[s->index], s->size);
		img->data[s->index] = copy;
		img->own[s->index] = true;
	}
	return img->data[s->index] + (addr - s->addr);
}

static int no_contents(const struct eh_image *img, const char *what, uint64_t addr, bool oom,
		       struct eh_error *err)
{
	if (oom)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory patching 0x%" PRIx64, img->elf->path, addr);
	return eh_error_set(err, EH_EINPUT, "%s: %s at 0x%" PRIx64 " has no contents", img->elf->path, what, addr);
}

int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word)
{
	const uint8_t *p = bytes_at(img, addr, 4);

	if (!p)
		return EH_ENOENT;
	*word = eh_insn_word(p);
	return 0;
}

bool eh_image_has_cap(const struct eh_image *img, const char *name)
{
	return eh_cap_detected(img->rules, &img->target, name);
}

/* A callback reads the original and writes the site (__apply_alternatives calls alt_cb). */
static int run_callback(struct eh_image *img, struct eh_alt_site *s, struct eh_error *err)
{
	const uint8_t *p = bytes_at(img, s->orig, s->orig_len);
	uint8_t *dst;
	uint32_t words[256 / 4];
	unsigned i, n = s->orig_len / 4u;
	bool oom = false;
	int rc;

	if (!p)
		return no_contents(img, "alternative", s->orig, false, err);
	for (i = 0; i < n; i++)
		words[i] = eh_insn_word(p + 4 * i);
	rc = eh_alt_cb_run(img, s, words, err);
	if (rc || s->cb_result != EH_ALT_CB_PATCHED)
		return rc;
	dst = patch_at(img, s->orig, s->orig_len, &oom);
	if (!dst)
		return no_contents(img, "alternative", s->orig, oom, err);
	for (i = 0; i < n; i++) {
		dst[4 * i] = (uint8_t)words[i];
		dst[4 * i + 1] = (uint8_t)(words[i] >> 8);
		dst[4 * i + 2] = (uint8_t)(words[i] >> 16);
		dst[4 * i + 3] = (uint8_t)(words[i] >> 24);
	}
	s->applied = true;
	return 0;
}

/* __apply_alternatives(): copy the replacement over the original, fixing up each word. */
static int apply_site(struct eh_image *img, struct eh_alt_site *s, struct eh_error *err)
{
	bool oom = false;
	uint8_t *dst = patch_at(img, s->orig, s->orig_len, &oom);
	unsigned i;

	if (!dst)
		return no_contents(img, "alternative", s->orig, oom, err);
	for (i = 0; i < s->repl_len; i += 4) {
		uint32_t insn, out;
		int rc;

		/* Read from the ELF, not from img: an earlier site may have patched the replacement. */
		if (eh_elf_word(img->elf, s->repl + i, &insn))
			return no_contents(img, "replacement", s->repl + i, false, err);
		rc = eh_alt_fixup(insn, s->repl + i, s->orig + i, s->repl, s->repl + s->repl_len,
				      &out, err);

		if (rc)
			return eh_error_prefix(err, "%s: alternative on %s: ", img->elf->path,
					       s->cap_name ? s->cap_name : "?");
		dst[i] = out;
		dst[i + 1] = out >> 8;
		dst[i + 2] = out >> 16;
		dst[i + 3] = out >> 24;
	}
	s->applied = true;
	return 0;
}

/* What eh_cap_decide() said of one capability number. */
struct decision {
	bool asked;
	enum eh_cap_state state;
	const struct eh_capability *rule;
};

int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err)
{
	struct decision *decided = NULL;
	struct eh_image *img;
	size_t i;
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
	img->data = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*img->data));
	img->own = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*img->own));
	if (!img->data || !img->own) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		goto fail;
	}
	/* SHT_NOBITS (.bss) holds no code to patch, and its size is not backed by the file. */
	for (i = 0; i < elf->nsections; i++)
		if (elf->sections[i].flags & SHF_ALLOC)
			img->data[i] = elf->sections[i].data;
	rc = eh_alt_parse(&img->sites, &img->nsites, elf, caps, err);
	decided = eh_alloc((caps->ncaps + 1) * sizeof(*decided));
	if (!rc && !decided)
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	if (rc)
		goto fail;
	for (i = 0; i < img->nsites; i++) {
		struct eh_alt_site *s = &img->sites[i];

		if (!s->cap_name) {
			s->state = EH_CAP_UNKNOWN;
		} else if (s->cap < caps->ncaps && decided[s->cap].asked) {
			s->state = decided[s->cap].state;   /* the sites of one capability are decided once */
			s->rule = decided[s->cap].rule;
		} else {
			s->state = eh_cap_decide(img->rules, target, s->cap_name, &s->rule);
			if (s->cap < caps->ncaps)
				decided[s->cap] = (struct decision){ true, s->state, s->rule };
		}
		/* 5.x calls every callback (its capability is ARM64_NCAPS); 6.x those of detected ones. */
		if (s->callback && (caps->cb_style == EH_ALT_CB_NCAPS || s->state == EH_CAP_DETECTED))
			rc = run_callback(img, s, err);
		else if (!s->callback && s->state == EH_CAP_DETECTED)
			rc = apply_site(img, s, err);
		if (rc)
			goto fail;
	}
	eh_free(decided);
	*out = img;
	return 0;
fail:
	eh_free(decided);
	eh_image_free(img);
	return rc;
}

void eh_image_free(struct eh_image *img)
{
	size_t i;

	if (!img)
		return;
	for (i = 0; img->data && img->own && i < img->elf->nsections; i++)
		if (img->own[i])
			eh_free(img->data[i]);
	eh_free(img->data);
	eh_free(img->own);
	eh_free(img->sites);
	eh_free(img);
}

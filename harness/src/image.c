/* Builds the patched memory image of an ELF for a model: the kernel's boot-time alternatives applied. */
#include "eh/image.h"

#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "alt_cb.h"

static uint8_t *bytes_at(const struct eh_image *img, uint64_t addr, uint64_t len)
{
	const struct eh_elf_section *s = eh_elf_section_at(img->elf, addr);

	if (!s || !img->data[s->index] || len > s->size - (addr - s->addr))
		return NULL;
	return img->data[s->index] + (addr - s->addr);
}

int eh_image_word(const struct eh_image *img, uint64_t addr, uint32_t *word)
{
	const uint8_t *p = bytes_at(img, addr, 4);

	if (!p)
		return EH_ENOENT;
	*word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return 0;
}

bool eh_image_has_cap(const struct eh_image *img, const char *name)
{
	return eh_cap_detected(img->rules, &img->target, name);
}

/* A callback reads the original and writes the site (__apply_alternatives calls alt_cb). */
static int run_callback(struct eh_image *img, struct eh_alt_site *s, struct eh_error *err)
{
	uint8_t *p = bytes_at(img, s->orig, s->orig_len);
	uint32_t words[256 / 4];
	unsigned i, n = s->orig_len / 4u;
	int rc;

	if (!p)
		return eh_error_set(err, EH_EINPUT, "%s: alternative at 0x%" PRIx64 " has no contents",
				    img->elf->path, s->orig);
	for (i = 0; i < n; i++)
		words[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
			   (uint32_t)p[4 * i + 3] << 24;
	rc = eh_alt_cb_run(img, s, words, err);
	if (rc || s->cb_result != EH_ALT_CB_PATCHED)
		return rc;
	for (i = 0; i < n; i++) {
		p[4 * i] = (uint8_t)words[i];
		p[4 * i + 1] = (uint8_t)(words[i] >> 8);
		p[4 * i + 2] = (uint8_t)(words[i] >> 16);
		p[4 * i + 3] = (uint8_t)(words[i] >> 24);
	}
	s->applied = true;
	return 0;
}

/* __apply_alternatives(): copy the replacement over the original, fixing up each word. */
static int apply_site(struct eh_image *img, struct eh_alt_site *s, struct eh_error *err)
{
	uint8_t *dst = bytes_at(img, s->orig, s->orig_len);
	unsigned i;

	if (!dst)
		return eh_error_set(err, EH_EINPUT, "%s: alternative at 0x%" PRIx64 " has no contents",
				    img->elf->path, s->orig);
	for (i = 0; i < s->repl_len; i += 4) {
		/* Read from the ELF, not from img: an earlier site may have patched the replacement. */
		const struct eh_elf_section *rs = eh_elf_section_at(img->elf, s->repl + i);
		const uint8_t *w = rs && rs->data ? rs->data + (s->repl + i - rs->addr) : NULL;
		uint32_t insn, out;
		int rc;

		if (!w)
			return eh_error_set(err, EH_EINPUT, "%s: replacement at 0x%" PRIx64 " has no contents",
					    img->elf->path, s->repl + i);
		insn = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 |
				(uint32_t)w[3] << 24;
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

int eh_image_new(struct eh_image **out, const struct eh_elf *elf, const struct eh_cpucaps *caps,
		 const struct eh_target *target, struct eh_error *err)
{
	struct eh_image *img;
	size_t i;
	int rc;

	*out = NULL;
	img = eh_alloc(sizeof(*img));
	if (!img)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	img->elf = elf;
	img->caps = caps;
	img->rules = eh_cap_rules_find(caps->kernel);
	if (!img->rules) {
		rc = eh_error_set(err, EH_EINVAL, "%s: no capability rules for Linux %s", elf->path, caps->kernel);
		goto fail;
	}
	img->target = *target;
	img->data = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*img->data));
	if (!img->data) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		goto fail;
	}
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		/* SHT_NOBITS (.bss) holds no code to patch, and its size is not backed by the file. */
		if (!(s->flags & SHF_ALLOC) || !s->data)
			continue;
		img->data[i] = eh_alloc(s->size);
		if (!img->data[i]) {
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory for %s", elf->path, s->name);
			goto fail;
		}
		memcpy(img->data[i], s->data, s->size);
	}
	rc = eh_alt_parse(&img->sites, &img->nsites, elf, caps, err);
	if (rc)
		goto fail;
	for (i = 0; i < img->nsites; i++) {
		struct eh_alt_site *s = &img->sites[i];

		s->state = s->cap_name ? eh_cap_decide(img->rules, target, s->cap_name, &s->rule) : EH_CAP_UNKNOWN;
		/* 5.x calls every callback (its capability is ARM64_NCAPS); 6.x those of detected ones. */
		if (s->callback && (caps->cb_style == EH_ALT_CB_NCAPS || s->state == EH_CAP_DETECTED))
			rc = run_callback(img, s, err);
		else if (!s->callback && s->state == EH_CAP_DETECTED)
			rc = apply_site(img, s, err);
		if (rc)
			goto fail;
	}
	*out = img;
	return 0;
fail:
	eh_image_free(img);
	return rc;
}

void eh_image_free(struct eh_image *img)
{
	size_t i;

	if (!img)
		return;
	for (i = 0; img->data && i < img->elf->nsections; i++)
		eh_free(img->data[i]);
	eh_free(img->data);
	eh_free(img->sites);
	eh_free(img);
}

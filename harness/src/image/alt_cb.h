/* The kernel's alternative callbacks, reimplemented: the image patcher's side of alt_cb.c. */
#ifndef EH_ALT_CB_H
#define EH_ALT_CB_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/alt.h"
#include "eh/image.h"

/* Which emulated callback the kernel function name is (struct eh_alt_site.cb_kind): its index + 1, 0 for none. */
uint8_t eh_alt_cb_kind(const char *name);

/*
 * What site s's callback writes over words (its original instructions) and its outcome's
 * cb_result and cb_why, when they turn on nothing of the target (alt_cb_patch_nops): the
 * parse computes them once for every image. false, touching nothing, for the others.
 */
bool eh_alt_cb_fixed(const struct eh_alt_site *s, uint32_t *words, struct eh_alt_outcome *out);

/* What the callbacks read of the kernel's decisions on the image's target, made once an image (eh_alt_cb_env_of). */
struct eh_alt_cb_env {
	bool vhe;          /* ARM64_HAS_VIRT_HOST_EXTN */
	bool spectre_v3a;  /* ARM64_SPECTRE_V3A */
	bool ssbs;         /* ARM64_SSBS */
};

void eh_alt_cb_env_of(const struct eh_image *img, struct eh_alt_cb_env *env);

/*
 * Run site s's callback (env: img's) as the kernel calls it at boot (__apply_alternatives in
 * arch/arm64/kernel/alternative.c, once its capability is detected): words
 * holds the s->orig_len / 4 original instructions and gets what the callback
 * writes. Sets out->cb_result and out->cb_why. A site whose length the kernel's
 * function would BUG_ON is EH_EINPUT naming it.
 */
int eh_alt_cb_run(const struct eh_image *img, const struct eh_alt_cb_env *env, const struct eh_alt_site *s,
		  struct eh_alt_outcome *out, uint32_t *words, struct eh_error *err);

#endif

/* An image's own capability tables: their entries as read, and the rules they state (harness/src/image/cap_image.c). */
#ifndef EH_CAP_IMAGE_H
#define EH_CAP_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "eh/cap.h"
#include "eh/elf.h"
#include "eh/error.h"
#include "eh/ktype.h"

/* The largest struct arm64_cpu_capabilities read (72 bytes in 6.12). */
#define EH_CAP_IMAGE_ENTRY_MAX 128

/* One entry of arm64_features[] or arm64_errata[], as the loaded image holds it. */
struct eh_cap_image_entry {
	const char *table;      /* "arm64_features" */
	size_t index;
	uint64_t addr;
	unsigned cap, type;
	const char *desc;       /* NULL: none */
	const char *matches;    /* the .matches function's symbol, NULL when the image does not name it */
	uint32_t field_reg;     /* has_cpuid_feature's register (EH_SYSREG()) and field_pos, 0 when the layout has none */
	uint8_t field_shift;
	uint8_t bytes[EH_CAP_IMAGE_ENTRY_MAX];  /* k->cap_size of them, pointers relocated */
};

/*
 * Append the entries of table sym (without its empty sentinel) to *v (eh_free it), read
 * with layout k. Nothing when elf has no such symbol; EH_EINPUT naming the file, the
 * table and the entry when it cannot be read.
 */
int eh_cap_image_read_table(struct eh_cap_image_entry **v, size_t *n, const struct eh_elf *elf,
			    const struct eh_ktypes *k, const char *sym, struct eh_error *err);

/*
 * The rules the n entries state, entry i under the capability name names[i]: an entry whose
 * .matches is one of the kernel's data predicates (has_always, has_cpuid_feature,
 * is_affected_midr_range, is_affected_midr_range_list, cpucap_multi_entry_cap_matches over
 * such entries) is decided from its own data (EH_CAP_FROM_IMAGE); any other by the rule
 * of hand that names it with the same .matches (EH_CAP_FROM_HAND), else it is
 * EH_CAP_UNCERTAIN. The result owns everything it points to; free it with
 * eh_cap_rules_free.
 */
int eh_cap_rules_from_image(struct eh_cap_rules **out, const struct eh_elf *elf, const struct eh_ktypes *k,
			    const struct eh_cap_image_entry *v, const char *const *names, size_t n,
			    const struct eh_cap_rules *hand, struct eh_error *err);
void eh_cap_rules_free(struct eh_cap_rules *rules);

#endif

/* The layouts of the kernel structs the harness reads out of an image, taken from the image's own BTF or DWARF. */
#ifndef EH_KTYPE_H
#define EH_KTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/elf.h"
#include "eh/error.h"

/* An offset of a field the struct does not have in this kernel (6.1 has no max_field_value). */
#define EH_KTYPE_NONE UINT32_MAX

/* Where each was read from. */
enum eh_ktype_source {
	EH_KTYPE_BTF,       /* the image's .BTF, through libbpf */
	EH_KTYPE_DWARF,     /* its .debug_info, through libdw */
	EH_KTYPE_BUILTIN,   /* neither: the fixed layout of a known kernel version */
};

/* Sizes and byte offsets, as the kernel's asm/cpufeature.h, asm/cputype.h and asm/alternative.h declare them. */
struct eh_ktypes {
	enum eh_ktype_source source;
	const char *kernel;  /* EH_KTYPE_BUILTIN, or filled: the version whose fixed layout it is ("6.1") */
	bool filled;         /* some structs were only declared there and take kernel's fixed layout */
	/* struct arm64_cpu_capabilities */
	uint32_t cap_size;
	uint32_t desc, capability, type, matches;
	uint32_t midr_range, fixed_revs, midr_range_list;    /* the errata half of its union */
	uint32_t sys_reg, field_pos, field_width, min_field_value, max_field_value, sign;  /* the feature half */
	uint32_t match_list;
	/* struct midr_range */
	uint32_t midr_size, midr_model, midr_rv_min, midr_rv_max;
	/* struct arm64_midr_revidr */
	uint32_t revidr_size, revidr_midr_rv, revidr_mask;
	/* struct alt_instr */
	uint32_t alt_size, alt_orig, alt_repl, alt_cap, alt_orig_len, alt_alt_len;
};

/* "BTF", "DWARF", "the built-in layout of Linux 6.1". */
const char *eh_ktype_source_name(const struct eh_ktypes *k, char *buf, size_t len);

/*
 * The layouts of elf: from its .BTF where it has one, else from its DWARF (a file
 * eh_elf_open opened, linked or relocatable), else the fixed layout of the kernel
 * version given ("5.4", "6.1"; NULL or a later version: 6.1's, the newest the harness
 * has). A struct the type information only declares (reduced debug information) takes
 * that fixed layout (filled); a field a struct lacks that every kernel has is EH_EINPUT
 * naming the file, the struct and the field; fields that only some versions have
 * (field_width, max_field_value) are EH_KTYPE_NONE where absent.
 */
int eh_ktype_read(struct eh_ktypes *out, const struct eh_elf *elf, const char *kernel, struct eh_error *err);

/* The fixed layout of a kernel version ("5.4" has only the fields every kernel has), or NULL. */
const struct eh_ktypes *eh_ktype_builtin(const char *kernel);

#endif

/* Reads the layouts of struct arm64_cpu_capabilities, midr_range, arm64_midr_revidr and alt_instr from an image's BTF or DWARF. */
#include "eh/ktype.h"

#include "eh/kversion.h"

#include <bpf/btf.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/*
 * One field read from the type information: the struct, the member (a second name for
 * one renamed between versions: alt_instr.cpufeature became cpucap in 6.3), where it
 * goes, and whether every kernel has it. A NULL member stands for the struct's size.
 */
struct field_row {
	const char *type, *member, *renamed;
	size_t at;        /* offsetof(struct eh_ktypes, ...) */
	bool required;
};

#define SIZE_ROW(type, f) { (type), NULL, NULL, offsetof(struct eh_ktypes, f), true }
#define ROW(type, m, f, req) { (type), (m), NULL, offsetof(struct eh_ktypes, f), (req) }

static const struct field_row rows[] = {
	SIZE_ROW("arm64_cpu_capabilities", cap_size),
	ROW("arm64_cpu_capabilities", "desc", desc, true),
	ROW("arm64_cpu_capabilities", "capability", capability, true),
	ROW("arm64_cpu_capabilities", "type", type, true),
	ROW("arm64_cpu_capabilities", "matches", matches, true),
	ROW("arm64_cpu_capabilities", "midr_range", midr_range, true),
	ROW("arm64_cpu_capabilities", "fixed_revs", fixed_revs, true),
	ROW("arm64_cpu_capabilities", "midr_range_list", midr_range_list, true),
	ROW("arm64_cpu_capabilities", "sys_reg", sys_reg, true),
	ROW("arm64_cpu_capabilities", "field_pos", field_pos, true),
	/* 5.10 (field_width came with "arm64: cpufeature: Add field width") and 6.12 (max_field_value). */
	ROW("arm64_cpu_capabilities", "field_width", field_width, false),
	ROW("arm64_cpu_capabilities", "min_field_value", min_field_value, true),
	ROW("arm64_cpu_capabilities", "max_field_value", max_field_value, false),
	ROW("arm64_cpu_capabilities", "sign", sign, true),
	ROW("arm64_cpu_capabilities", "match_list", match_list, true),
	SIZE_ROW("midr_range", midr_size),
	ROW("midr_range", "model", midr_model, true),
	ROW("midr_range", "rv_min", midr_rv_min, true),
	ROW("midr_range", "rv_max", midr_rv_max, true),
	SIZE_ROW("arm64_midr_revidr", revidr_size),
	ROW("arm64_midr_revidr", "midr_rv", revidr_midr_rv, true),
	ROW("arm64_midr_revidr", "revidr_mask", revidr_mask, true),
	SIZE_ROW("alt_instr", alt_size),
	ROW("alt_instr", "orig_offset", alt_orig, true),
	ROW("alt_instr", "alt_offset", alt_repl, true),
	{ "alt_instr", "cpufeature", "cpucap", offsetof(struct eh_ktypes, alt_cap), true },
	ROW("alt_instr", "orig_len", alt_orig_len, true),
	ROW("alt_instr", "alt_len", alt_alt_len, true),
};

/*
 * Linux 6.1 (Debian's 6.1.192, as pahole reads its vmlinux's BTF; tests/test_ktype.c
 * checks it against the BTF of the kernel test's image): the entry is 64 bytes, the union
 * at 32 holds either the errata fields or the feature fields.
 */
static const struct eh_ktypes linux_6_1 = {
	.source = EH_KTYPE_BUILTIN, .kernel = "6.1",
	.cap_size = 64, .desc = 0, .capability = 8, .type = 10, .matches = 16,
	.midr_range = 32, .fixed_revs = 48, .midr_range_list = 32,
	.sys_reg = 32, .field_pos = 36, .field_width = 37, .min_field_value = 38,
	.max_field_value = EH_KTYPE_NONE, .sign = 40, .match_list = 56,
	.midr_size = 12, .midr_model = 0, .midr_rv_min = 4, .midr_rv_max = 8,
	.revidr_size = 8, .revidr_midr_rv = 0, .revidr_mask = 4,
	.alt_size = 12, .alt_orig = 0, .alt_repl = 4, .alt_cap = 8, .alt_orig_len = 10, .alt_alt_len = 11,
};

/*
 * Linux 6.12 (Debian's 6.12.118, as pahole reads its vmlinux's BTF): 72 bytes, the feature
 * fields gain max_field_value at 39 (sign moves to 41) and a trailing cpus pointer at 64.
 */
static const struct eh_ktypes linux_6_12 = {
	.source = EH_KTYPE_BUILTIN, .kernel = "6.12",
	.cap_size = 72, .desc = 0, .capability = 8, .type = 10, .matches = 16,
	.midr_range = 32, .fixed_revs = 48, .midr_range_list = 32,
	.sys_reg = 32, .field_pos = 36, .field_width = 37, .min_field_value = 38,
	.max_field_value = 39, .sign = 41, .match_list = 56,
	.midr_size = 12, .midr_model = 0, .midr_rv_min = 4, .midr_rv_max = 8,
	.revidr_size = 8, .revidr_midr_rv = 0, .revidr_mask = 4,
	.alt_size = 12, .alt_orig = 0, .alt_repl = 4, .alt_cap = 8, .alt_orig_len = 10, .alt_alt_len = 11,
};

/*
 * Linux 5.4: only what the harness has checked on 5.4 objects (desc, capability, type and
 * matches of a 64-byte entry, the 12-byte alt_instr); the union is left unread, so 5.4's
 * entries are decided by its hand-written rules.
 */
static const struct eh_ktypes linux_5_4 = {
	.source = EH_KTYPE_BUILTIN, .kernel = "5.4",
	.cap_size = 64, .desc = 0, .capability = 8, .type = 10, .matches = 16,
	.midr_range = EH_KTYPE_NONE, .fixed_revs = EH_KTYPE_NONE, .midr_range_list = EH_KTYPE_NONE,
	.sys_reg = EH_KTYPE_NONE, .field_pos = EH_KTYPE_NONE, .field_width = EH_KTYPE_NONE,
	.min_field_value = EH_KTYPE_NONE, .max_field_value = EH_KTYPE_NONE, .sign = EH_KTYPE_NONE,
	.match_list = EH_KTYPE_NONE,
	.midr_size = 12, .midr_model = 0, .midr_rv_min = 4, .midr_rv_max = 8,
	.revidr_size = 8, .revidr_midr_rv = 0, .revidr_mask = 4,
	.alt_size = 12, .alt_orig = 0, .alt_repl = 4, .alt_cap = 8, .alt_orig_len = 10, .alt_alt_len = 11,
};

const struct eh_ktypes *eh_ktype_builtin(const char *kernel)
{
	if (kernel && !strcmp(kernel, "5.4"))
		return &linux_5_4;
	if (kernel && !strcmp(kernel, "6.1"))
		return &linux_6_1;
	if (kernel && !strcmp(kernel, "6.12"))
		return &linux_6_12;
	return NULL;
}

const char *eh_ktype_source_name(const struct eh_ktypes *k, char *buf, size_t len)
{
	switch (k->source) {
	case EH_KTYPE_BTF:
	case EH_KTYPE_DWARF:
		snprintf(buf, len, "%s%s%s", k->source == EH_KTYPE_BTF ? "BTF" : "DWARF",
			 k->filled ? " and the built-in layout of Linux " : "", k->filled ? k->kernel : "");
		break;
	default:
		snprintf(buf, len, "the built-in layout of Linux %s", k->kernel);
	}
	return buf;
}

static void put_field(struct eh_ktypes *k, const struct field_row *r, uint32_t v)
{
	memcpy((char *)k + r->at, &v, sizeof(v));
}

/*
 * A struct the type information only declares (CONFIG_DEBUG_INFO_REDUCED keeps struct midr_range
 * a declaration in most units): its rows from the fixed layout, from row i on. Returns the last
 * row of that struct.
 */
static size_t fill_struct(struct eh_ktypes *k, const struct eh_ktypes *fixed, size_t i)
{
	size_t j;

	for (j = i; j < sizeof(rows) / sizeof(rows[0]) && !strcmp(rows[j].type, rows[i].type); j++) {
		uint32_t v;

		memcpy(&v, (const char *)fixed + rows[j].at, sizeof(v));
		put_field(k, &rows[j], v);
	}
	k->filled = true;
	k->kernel = fixed->kernel;
	return j - 1;
}

static int missing(const struct eh_elf *elf, const char *from, const struct field_row *r, struct eh_error *err)
{
	if (!r->member)
		return eh_error_set(err, EH_EINPUT, "%s: its %s has no struct %s", elf->path, from, r->type);
	return eh_error_set(err, EH_EINPUT, "%s: its %s has no member %s in struct %s", elf->path, from, r->member,
			    r->type);
}

/* The byte offset of member name in BTF struct or union t, looking into anonymous members; -1 if none. */
static long btf_member_offset(const struct btf *btf, const struct btf_type *t, const char *name)
{
	const struct btf_member *m = btf_members(t);
	unsigned i, n = btf_vlen(t);

	for (i = 0; i < n; i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		uint32_t bits = btf_member_bit_offset(t, i);

		if (mname && mname[0]) {
			if (!strcmp(mname, name))
				return bits / 8;
			continue;
		}
		{
			int id = btf__resolve_type(btf, m->type);
			const struct btf_type *inner = id < 0 ? NULL : btf__type_by_id(btf, (uint32_t)id);
			long off;

			if (inner && (btf_is_struct(inner) || btf_is_union(inner)) &&
			    (off = btf_member_offset(btf, inner, name)) >= 0)
				return (long)bits / 8 + off;
		}
	}
	return -1;
}

static int read_btf(struct eh_ktypes *k, const struct eh_elf *elf, const struct eh_elf_section *sec,
		    const struct eh_ktypes *fixed, struct eh_error *err)
{
	struct btf *btf = btf__new(sec->data, (uint32_t)sec->size);
	size_t i;
	int rc = 0, id;

	if (!btf)
		return eh_error_set(err, EH_EINPUT, "%s: its .BTF cannot be read: %s", elf->path, strerror(errno));
	eh_elf_section_drop(elf, sec);  /* libbpf works on a copy of its own */
	/* Type information of other code (a snippet's, a module's) says nothing of these layouts. */
	id = btf__find_by_name_kind(btf, rows[0].type, BTF_KIND_STRUCT);
	if (id <= 0) {
		btf__free(btf);
		return EH_ENOENT;
	}
	for (i = 0; !rc && i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct field_row *r = &rows[i];
		const struct btf_type *t;
		long off;

		/* A search of every type by name (libbpf's is linear): once a struct, its rows are consecutive. */
		if (i && strcmp(r->type, rows[i - 1].type))
			id = btf__find_by_name_kind(btf, r->type, BTF_KIND_STRUCT);
		t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;

		if (!t) {
			i = fill_struct(k, fixed, i);
			continue;
		}
		if (!r->member) {
			put_field(k, r, t->size);
			continue;
		}
		off = btf_member_offset(btf, t, r->member);
		if (off < 0 && r->renamed)
			off = btf_member_offset(btf, t, r->renamed);
		if (off >= 0)
			put_field(k, r, (uint32_t)off);
		else if (r->required)
			rc = missing(elf, "BTF", r, err);
		else
			put_field(k, r, EH_KTYPE_NONE);
	}
	btf__free(btf);
	k->source = EH_KTYPE_BTF;
	return rc;
}

/*
 * The units that hold the kernel's own instances of the four structs (its errata and feature
 * tables, its alternatives): a struct is looked for in those, when the image has them, instead of
 * in all of its thousands of units. Under CONFIG_DEBUG_INFO_REDUCED they define a struct whose
 * header is named as they are (asm/cpufeature.h, asm/alternative.h) and only declare the others.
 */
static const char *const user_units[] = {
	"arch/arm64/kernel/cpu_errata.c",
	"arch/arm64/kernel/cpufeature.c",
	"arch/arm64/kernel/alternative.c",
};

#define EH_KTYPE_UNITS (sizeof(user_units) / sizeof(user_units[0]))

/* The units a struct is looked for in: the user units the image has, or every unit. */
struct dwarf_units {
	Dwarf *dw;
	Dwarf_Die user[EH_KTYPE_UNITS];
	size_t nuser;
};

static bool is_user_unit(Dwarf_Die *cu)
{
	const char *n = dwarf_diename(cu);
	size_t i, len = n ? strlen(n) : 0;

	for (i = 0; i < EH_KTYPE_UNITS; i++) {
		size_t ulen = strlen(user_units[i]);

		if (len >= ulen && !strcmp(n + len - ulen, user_units[i]) && (len == ulen || n[len - ulen - 1] == '/'))
			return true;
	}
	return false;
}

static void find_user_units(struct dwarf_units *u)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;

	while (u->nuser < EH_KTYPE_UNITS && !dwarf_get_units(u->dw, cu, &cu, NULL, NULL, &cudie, NULL))
		if (is_user_unit(&cudie))
			u->user[u->nuser++] = cudie;
}

/* The DWARF struct type named name (a definition, not a declaration) among the top-level DIEs of unit cu. */
static bool unit_find_struct(Dwarf_Die *cu, const char *name, Dwarf_Die *out)
{
	Dwarf_Die d;

	if (dwarf_child(cu, &d))
		return false;
	do {
		const char *n;

		if (dwarf_tag(&d) != DW_TAG_structure_type || dwarf_hasattr(&d, DW_AT_declaration))
			continue;
		n = dwarf_diename(&d);
		if (n && !strcmp(n, name)) {
			*out = d;
			return true;
		}
	} while (!dwarf_siblingof(&d, &d));
	return false;
}

static bool dwarf_find_struct(struct dwarf_units *u, const char *name, Dwarf_Die *out)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	size_t i;

	for (i = 0; i < u->nuser; i++)
		if (unit_find_struct(&u->user[i], name, out))
			return true;
	if (u->nuser)
		return false;
	while (!dwarf_get_units(u->dw, cu, &cu, NULL, NULL, &cudie, NULL))
		if (unit_find_struct(&cudie, name, out))
			return true;
	return false;
}

/* As btf_member_offset, over a DWARF struct or union. */
static long dwarf_member_offset(Dwarf_Die *t, const char *name)
{
	Dwarf_Die m;

	if (dwarf_child(t, &m))
		return -1;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc = 0;
		const char *n;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		/* A union's members carry no location: they are all at 0. */
		if (dwarf_attr(&m, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &loc))
			continue;
		n = dwarf_diename(&m);
		if (n) {
			if (!strcmp(n, name))
				return (long)loc;
			continue;
		}
		{
			Dwarf_Die inner;
			long off;

			if (dwarf_attr(&m, DW_AT_type, &a) && dwarf_formref_die(&a, &inner) &&
			    (dwarf_tag(&inner) == DW_TAG_structure_type || dwarf_tag(&inner) == DW_TAG_union_type) &&
			    (off = dwarf_member_offset(&inner, name)) >= 0)
				return (long)loc + off;
		}
	} while (!dwarf_siblingof(&m, &m));
	return -1;
}

static int read_dwarf_units(struct eh_ktypes *k, const struct eh_elf *elf, Dwarf *dw,
			    const struct eh_ktypes *fixed, struct eh_error *err)
{
	struct dwarf_units u = { .dw = dw };
	size_t i;
	Dwarf_Die t;

	find_user_units(&u);
	if (!dwarf_find_struct(&u, rows[0].type, &t))
		return EH_ENOENT;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct field_row *r = &rows[i];
		Dwarf_Attribute a;
		Dwarf_Word size;
		long off;

		/* Each struct's rows start with its size row: one search of the CUs a struct. */
		if (!r->member && i && !dwarf_find_struct(&u, r->type, &t)) {
			i = fill_struct(k, fixed, i);
			continue;
		}
		if (!r->member) {
			if (!dwarf_attr(&t, DW_AT_byte_size, &a) || dwarf_formudata(&a, &size))
				return eh_error_set(err, EH_EINPUT, "%s: its DWARF gives struct %s no size", elf->path,
						    r->type);
			put_field(k, r, (uint32_t)size);
			continue;
		}
		off = dwarf_member_offset(&t, r->member);
		if (off < 0 && r->renamed)
			off = dwarf_member_offset(&t, r->renamed);
		if (off >= 0)
			put_field(k, r, (uint32_t)off);
		else if (r->required)
			return missing(elf, "DWARF", r, err);
		else
			put_field(k, r, EH_KTYPE_NONE);
	}
	k->source = EH_KTYPE_DWARF;
	return 0;
}

/* libdwfl applies a relocatable object's .rela.debug_* as it loads the DWARF, which plain libdw does not. */
static const Dwfl_Callbacks offline = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int read_dwarf(struct eh_ktypes *k, const struct eh_elf *elf, const struct eh_ktypes *fixed,
		      struct eh_error *err)
{
	Dwfl *dwfl = dwfl_begin(&offline);
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw = NULL;
	int rc;

	if (!dwfl)
		return eh_error_set(err, EH_ENOMEM, "%s: libdw: %s", elf->path, dwfl_errmsg(-1));
	mod = dwfl_report_offline(dwfl, "image", elf->path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !(dw = dwfl_module_getdwarf(mod, &bias)))
		rc = eh_error_set(err, EH_EINPUT, "%s: its DWARF cannot be read: %s", elf->path, dwfl_errmsg(-1));
	else
		rc = read_dwarf_units(k, elf, dw, fixed, err);
	dwfl_end(dwfl);
	return rc;
}

int eh_ktype_read(struct eh_ktypes *out, const struct eh_elf *elf, const char *kernel, struct eh_error *err)
{
	const struct eh_elf_section *btf = eh_elf_section_by_name(elf, ".BTF");
	const struct eh_ktypes *fixed = eh_ktype_builtin(kernel && eh_kversion_cmp(kernel, "6.12") >= 0 ? "6.12" :
							 kernel && eh_kversion_cmp(kernel, "6") < 0 ? "5.4" : "6.1");
	int rc = EH_ENOENT;

	*out = (struct eh_ktypes){ 0 };
	if (btf && btf->data && btf->size)
		rc = read_btf(out, elf, btf, fixed, err);
	/* Only a file opened from disk can be handed to libdw (eh_elf_parse's buffers have no path). */
	if (rc == EH_ENOENT && elf->map.data && eh_elf_section_by_name(elf, ".debug_info"))
		rc = read_dwarf(out, elf, fixed, err);
	if (rc != EH_ENOENT)
		return rc;
	*out = *fixed;
	return 0;
}

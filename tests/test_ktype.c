/* Tests the struct layouts read from an image's type information: BTF, DWARF, and the fixed fallback by kernel version. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/elf.h"
#include "eh/ktype.h"
#include "reports/rows.h"

/*
 * Linux 6.12 as pahole prints Debian's 6.12.118 cloud vmlinux (struct arm64_cpu_capabilities,
 * midr_range, arm64_midr_revidr, alt_instr): 72 bytes, max_field_value at 39 moves sign to 41.
 */
static const struct eh_ktypes linux_6_12 = {
	.cap_size = 72, .desc = 0, .capability = 8, .type = 10, .matches = 16,
	.midr_range = 32, .fixed_revs = 48, .midr_range_list = 32,
	.sys_reg = 32, .field_pos = 36, .field_width = 37, .min_field_value = 38,
	.max_field_value = 39, .sign = 41, .match_list = 56,
	.midr_size = 12, .midr_model = 0, .midr_rv_min = 4, .midr_rv_max = 8,
	.revidr_size = 8, .revidr_midr_rv = 0, .revidr_mask = 4,
	.alt_size = 12, .alt_orig = 0, .alt_repl = 4, .alt_cap = 8, .alt_orig_len = 10, .alt_alt_len = 11,
};

/* Linux 6.1 as pahole prints Debian's 6.1.0-57 cloud vmlinux: 64 bytes, no max_field_value, sign at 40. */
static const struct eh_ktypes linux_6_1 = {
	.cap_size = 64, .desc = 0, .capability = 8, .type = 10, .matches = 16,
	.midr_range = 32, .fixed_revs = 48, .midr_range_list = 32,
	.sys_reg = 32, .field_pos = 36, .field_width = 37, .min_field_value = 38,
	.max_field_value = EH_KTYPE_NONE, .sign = 40, .match_list = 56,
	.midr_size = 12, .midr_model = 0, .midr_rv_min = 4, .midr_rv_max = 8,
	.revidr_size = 8, .revidr_midr_rv = 0, .revidr_mask = 4,
	.alt_size = 12, .alt_orig = 0, .alt_repl = 4, .alt_cap = 8, .alt_orig_len = 10, .alt_alt_len = 11,
};

struct row {
	const char *name;
	const char *path;      /* under EH_TEST_OBJ_DIR, or absolute */
	const char *kernel;    /* the version its banner would name, for the fallback */
	enum eh_ktype_source source;
	const struct eh_ktypes *want;
};

static const struct row rows[] = {
	{ "6.12 shape, DWARF of a relocatable object", "ktypes612.o", NULL, EH_KTYPE_DWARF, &linux_6_12 },
	{ "6.12 shape, BTF added by pahole -J", "ktypes612-btf.o", NULL, EH_KTYPE_BTF, &linux_6_12 },
	{ "6.12 shape, DWARF of a linked image", "ktypes612.elf", NULL, EH_KTYPE_DWARF, &linux_6_12 },
	{ "DWARF of the kernel's own unit, not of a unit linked before it", "ktypes-units.elf", NULL, EH_KTYPE_DWARF,
	  &linux_6_12 },
	{ "no type information, a 6.x kernel: 6.1's fixed layout", "captables.o", "6.1", EH_KTYPE_BUILTIN, &linux_6_1 },
	{ "no type information, 6.12: 6.12's fixed layout", "captables.o", "6.12", EH_KTYPE_BUILTIN, &linux_6_12 },
	{ "no type information, an unknown newer kernel: 6.12's, the newest", "captables.o", "7.0",
	  EH_KTYPE_BUILTIN, &linux_6_12 },
};

#define FIELD(f) { #f, offsetof(struct eh_ktypes, f) }
static const struct { const char *name; size_t at; } fields[] = {
	FIELD(cap_size), FIELD(desc), FIELD(capability), FIELD(type), FIELD(matches), FIELD(midr_range),
	FIELD(fixed_revs), FIELD(midr_range_list), FIELD(sys_reg), FIELD(field_pos), FIELD(field_width),
	FIELD(min_field_value), FIELD(max_field_value), FIELD(sign), FIELD(match_list), FIELD(midr_size),
	FIELD(midr_model), FIELD(midr_rv_min), FIELD(midr_rv_max), FIELD(revidr_size), FIELD(revidr_midr_rv),
	FIELD(revidr_mask), FIELD(alt_size), FIELD(alt_orig), FIELD(alt_repl), FIELD(alt_cap),
	FIELD(alt_orig_len), FIELD(alt_alt_len),
};

static uint32_t get(const struct eh_ktypes *k, size_t at)
{
	uint32_t v;

	memcpy(&v, (const char *)k + at, sizeof(v));
	return v;
}

static void same_layout(const char *row, const struct eh_ktypes *got, const struct eh_ktypes *want)
{
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (get(got, fields[i].at) != get(want, fields[i].at))
			fail_msg("%s: %s is %u, want %u", row, fields[i].name, get(got, fields[i].at),
				 get(want, fields[i].at));
}

static void read_layout(const char *row, const char *path, const char *kernel, struct eh_ktypes *out,
			enum eh_ktype_source source)
{
	struct eh_elf *elf = NULL;
	struct eh_error err = { 0 };

	if (eh_elf_open(&elf, path, &err))
		fail_msg("%s: %s", row, err.msg);
	if (eh_ktype_read(out, elf, kernel, &err))
		fail_msg("%s: %s", row, err.msg);
	if (out->source != source)
		fail_msg("%s: read from source %d, want %d", row, out->source, source);
	eh_elf_free(elf);
}

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_ktypes got;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", EH_TEST_OBJ_DIR, r->path);
	read_layout(r->name, path, r->kernel, &got, r->source);
	same_layout(r->name, &got, r->want);
}

/* The fixed 6.1 and 6.12 layouts are pahole's readings of Debian's 6.1 and 6.12 vmlinux. */
static void test_builtin_6_1(void **state)
{
	(void)state;
	same_layout("built-in 6.1", eh_ktype_builtin("6.1"), &linux_6_1);
	same_layout("built-in 6.12", eh_ktype_builtin("6.12"), &linux_6_12);
	assert_null(eh_ktype_builtin("6.6"));
}

/*
 * With EH_KTYPE_VMLINUX61 set (tests/kernel/ktype-6.1.sh, behind the kernel label): the
 * fixed 6.1 layout agrees with what libbpf reads from that image's own BTF.
 */
static void test_builtin_agrees_with_btf(void **state)
{
	const char *path = getenv("EH_KTYPE_VMLINUX61");
	struct eh_ktypes got;

	(void)state;
	if (!path) {
		skip();
		return;
	}
	read_layout(path, path, NULL, &got, EH_KTYPE_BTF);
	same_layout(path, eh_ktype_builtin("6.1"), &got);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 2];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_builtin_6_1);
	EH_ADD_TEST(tests, n, test_builtin_agrees_with_btf);
	return EH_RUN_TESTS("ktype", tests, n);
}

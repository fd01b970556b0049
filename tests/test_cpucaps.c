/* Tests capability numbering: the built-in tables, the cpucaps.h parser (hostile headers included), and an image's own tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../harness/src/util/alloc_fail.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "reports/rows.h"

/* The numbers the case snippets assemble with, each kernel's in its own header. */
#include "eh_cpucaps_5_4.h"
/* The numbers both headers name, each kernel's kept before the other's header redefines it. */
enum { FALKOR_E1003_5_4 = ARM64_WORKAROUND_QCOM_FALKOR_E1003 };
#undef ARM64_WORKAROUND_QCOM_FALKOR_E1003
#include "eh_cpucaps_6_1.h"
#include "eh_cpucaps_6_12.h"

struct known_cap {
	const char *kernel, *name;
	unsigned number;
};

/*
 * 5.4: asm/cpucaps.h after 9405447ef79b. 6.1: arch/arm64/tools/cpucaps counted
 * by hand (entries in file order from 0, comment lines skipped). 6.12: the tree's generated header.
 */
static const struct known_cap known[] = {
	{ "5.4", "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 18 },
	{ "5.4", "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 45 },
	{ "5.4", "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 46 },
	{ "6.1", "ARM64_ALWAYS_BOOT", 0 },
	{ "6.1", "ARM64_ALWAYS_SYSTEM", 1 },
	{ "6.1", "ARM64_HAS_32BIT_EL0_DO_NOT_USE", 3 },
	{ "6.1", "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 74 },
	{ "6.1", "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 75 },
	{ "6.1", "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 79 },
	{ "6.1", "ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT", 84 },
	/* 6.12: include/generated/asm/cpucap-defs.h of linux-source-6.12 (6.12.118) after make prepare. */
	{ "6.12", "ARM64_ALWAYS_BOOT", 0 },
	{ "6.12", "ARM64_HAS_FPSIMD", 25 },
	{ "6.12", "ARM64_HAS_GIC_PRIO_MASKING", 31 },
	{ "6.12", "ARM64_WORKAROUND_2645198", 82 },
	{ "6.12", "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 91 },
	{ "6.12", "ARM64_WORKAROUND_REPEAT_TLBI", 97 },
	{ 0 },
};

/* cases/include/eh_cpucaps*.h, which snippets assemble with: the kernel's numbers, or they patch the wrong sites. */
#define SNIPPET_CAP(kernel, name) { kernel, #name, name }
static const struct known_cap snippet_caps[] = {
	SNIPPET_CAP("5.4", ARM64_HAS_PAN),
	{ "5.4", "ARM64_WORKAROUND_QCOM_FALKOR_E1003", FALKOR_E1003_5_4 },
	SNIPPET_CAP("5.4", ARM64_WORKAROUND_CAVIUM_TX2_219_TVM),
	SNIPPET_CAP("5.4", ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_845719),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_1508412),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_CAVIUM_27456),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_QCOM_FALKOR_E1003),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_REPEAT_TLBI),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_TSB_FLUSH_FAILURE),
	SNIPPET_CAP("6.1", ARM64_WORKAROUND_SPECULATIVE_AT),
	SNIPPET_CAP("6.12", ARM64_WORKAROUND_2645198),
	{ 0 },
};

static void check_known(const struct known_cap *k)
{
	const struct eh_cpucaps *t = eh_cpucaps_builtin(k->kernel);
	const char *name = eh_cpucaps_name(t, k->number);
	unsigned n = 0;

	if (!name || strcmp(name, k->name) || eh_cpucaps_number(t, k->name, &n) || n != k->number)
		fail_msg("%s: %s should be %u, table says %s", k->kernel, k->name, k->number, name ? name : "nothing");
}

static void test_builtin_tables(void **state)
{
	const struct known_cap *k;
	const struct eh_cpucaps *v54 = eh_cpucaps_builtin("5.4"), *v61 = eh_cpucaps_builtin("6.1");
	const struct eh_cpucaps *v612 = eh_cpucaps_builtin("6.12");

	(void)state;
	assert_non_null(v54);
	assert_non_null(v61);
	assert_int_equal(v54->ncaps, 47);
	assert_int_equal(v54->cb_style, EH_ALT_CB_NCAPS);
	assert_int_equal(v61->ncaps, 85);
	assert_int_equal(v61->cb_style, EH_ALT_CB_BIT15);
	assert_int_equal(v61->ncap_entries, 85);
	assert_non_null(v612);
	assert_int_equal(v612->ncaps, 102);
	assert_int_equal(v612->cb_style, EH_ALT_CB_BIT15);
	assert_int_equal(v612->ncap_entries, 102);
	assert_null(eh_cpucaps_builtin("4.19"));
	for (k = known; k->kernel; k++)
		check_known(k);
	for (k = snippet_caps; k->kernel; k++)
		check_known(k);
}

/* The shape of 5.x's hand-written header. */
static const char header_5x[] =
	"/* SPDX-License-Identifier: GPL-2.0-only */\n"
	"/*\n"
	" * arch/arm64/include/asm/cpucaps.h\n"
	" *\n"
	" * Copyright (C) 2014 ARM Ltd.\n"
	" */\n"
	"#ifndef __ASM_CPUCAPS_H\n"
	"#define __ASM_CPUCAPS_H\n"
	"\n"
	"#define ARM64_WORKAROUND_CLEAN_CACHE\t\t0\n"
	"#define ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE\t1\n"
	"#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM\t2 /* trailing comment */\n"
	"\n"
	"#define ARM64_NCAPS\t\t\t\t3\n"
	"\n"
	"#endif /* __ASM_CPUCAPS_H */\n";

/* The shape of 6.x's generated header (gen-cpucaps.awk). */
static const char header_6x[] =
	"#ifndef __ASM_CPUCAPS_H\n"
	"#define __ASM_CPUCAPS_H\n"
	"\n"
	"/* Generated file - do not edit */\n"
	"\n"
	"#define ARM64_ALWAYS_BOOT                   \t0\n"
	"#define ARM64_ALWAYS_SYSTEM                 \t1\n"
	"#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM\t2\n"
	"#define ARM64_NCAPS\t\t\t\t3\n"
	"\n"
	"#endif /* __ASM_CPUCAPS_H */\n";

/* ... as 6.12 numbers it: ARM64_HAS_FPSIMD and ARM64_HAS_GIC_PRIO_MASKING are 6.12's names. */
static const char header_612[] =
	"#define ARM64_ALWAYS_BOOT\t0\n"
	"#define ARM64_ALWAYS_SYSTEM\t1\n"
	"#define ARM64_HAS_FPSIMD\t2\n"
	"#define ARM64_HAS_GIC_PRIO_MASKING\t3\n"
	"#define ARM64_NCAPS\t4\n";

static void test_parse_headers(void **state)
{
	struct eh_cpucaps *t = NULL;
	struct eh_error err = { 0 };
	unsigned n = 0;

	(void)state;
	if (eh_cpucaps_parse(&t, "5x/cpucaps.h", header_5x, strlen(header_5x), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t->ncaps, 3);
	assert_int_equal(t->ncap_entries, 3);
	assert_int_equal(t->cb_style, EH_ALT_CB_NCAPS);
	assert_string_equal(t->source, "5x/cpucaps.h");
	assert_int_equal(eh_cpucaps_number(t, "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", &n), 0);
	assert_int_equal(n, 2);
	eh_cpucaps_free(t);

	if (eh_cpucaps_parse(&t, "6x/cpucaps.h", header_6x, strlen(header_6x), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t->ncaps, 3);
	assert_int_equal(t->cb_style, EH_ALT_CB_BIT15);
	assert_string_equal(eh_cpucaps_name(t, 1), "ARM64_ALWAYS_SYSTEM");
	assert_string_equal(t->kernel, "6.1");
	eh_cpucaps_free(t);

	/* Names only 6.12 has (renamed in 6.2 and 6.9) make its rules the ones that decide. */
	if (eh_cpucaps_parse(&t, "612/cpucap-defs.h", header_612, strlen(header_612), &err))
		fail_msg("%s", err.msg);
	assert_string_equal(t->kernel, "6.12");
	eh_cpucaps_free(t);
}

struct bad_header {
	const char *name;
	const char *text;
	const char *where;   /* the file:line (or file) the message must start with */
	const char *what;    /* and a phrase it must hold */
};

static const struct bad_header bad[] = {
	{ "duplicate name", "#define ARM64_A 0\n#define ARM64_A 1\n#define ARM64_NCAPS 2\n",
	  "h:2:", "defined twice" },
	{ "duplicate number", "#define ARM64_A 0\n#define ARM64_B 0\n#define ARM64_NCAPS 2\n",
	  "h:2:", "already used" },
	{ "garbage line", "#define ARM64_A 0\nint x;\n#define ARM64_NCAPS 1\n", "h:2:",
	  "expected a preprocessor line" },
	{ "number not decimal", "#define ARM64_A zero\n#define ARM64_NCAPS 1\n", "h:1:",
	  "not a decimal number" },
	{ "number with junk", "#define ARM64_A 1x\n#define ARM64_NCAPS 2\n", "h:1:",
	  "not a decimal number" },
	{ "number too large", "#define ARM64_A 70000\n#define ARM64_NCAPS 70001\n", "h:1:",
	  "below 32768" },
	{ "out of range", "#define ARM64_A 0\n#define ARM64_B 5\n#define ARM64_NCAPS 2\n", "h:2:",
	  "out of range" },
	{ "no ARM64_NCAPS", "#define ARM64_A 0\n", "h:", "ARM64_NCAPS" },
	{ "ARM64_NCAPS twice", "#define ARM64_A 0\n#define ARM64_NCAPS 1\n#define ARM64_NCAPS 1\n",
	  "h:3:", "twice" },
	{ "unterminated comment", "#define ARM64_A 0\n/* open\n#define ARM64_NCAPS 1\n", "h:3:",
	  "unterminated comment" },
	{ "empty", "", "h:", "not a cpucaps.h" },
	{ "binary", "\x7f" "ELF\x02\x01\x01", "h:1:", "expected a preprocessor line" },
	{ 0 },
};

static void run_bad(void **state)
{
	const struct bad_header *b = *state;
	struct eh_cpucaps *t = (struct eh_cpucaps *)1;
	struct eh_error err = { 0 };
	int rc = eh_cpucaps_parse(&t, "h", b->text, strlen(b->text), &err);

	if (rc != EH_EINPUT || t || strncmp(err.msg, b->where, strlen(b->where)) ||
	    !strstr(err.msg, b->what))
		fail_msg("%s: rc %d, message '%s', expected EH_EINPUT with '%s ... %s'", b->name, rc,
			 err.msg, b->where, b->what);
}

/* A constructor of a numbering, and what it needs. */
typedef int make_fn(struct eh_cpucaps **out, const void *ctx, struct eh_error *err);

/* Every allocation of make fails in turn: each failure is EH_ENOMEM and leaves nothing; more than least are made. */
static void alloc_sweep(make_fn *make, const void *ctx, unsigned long least)
{
	unsigned long n;

	for (n = 1;; n++) {
		struct eh_cpucaps *t = NULL;
		struct eh_error err = { 0 };
		int rc;

		eh_alloc_fail_at(n);
		rc = make(&t, ctx, &err);
		eh_alloc_fail_at(0);
		if (!rc) {
			eh_cpucaps_free(t);
			break;
		}
		if (rc != EH_ENOMEM || t)
			fail_msg("allocation %lu failing gave %d: %s", n, rc, err.msg);
	}
	assert_true(n > least);
}

static int parse_5x(struct eh_cpucaps **out, const void *ctx, struct eh_error *err)
{
	(void)ctx;
	return eh_cpucaps_parse(out, "5x", header_5x, strlen(header_5x), err);
}

static void test_alloc_failures(void **state)
{
	(void)state;
	alloc_sweep(parse_5x, NULL, 2);
}

#define OBJ(name) EH_TEST_OBJ_DIR "/" name

/* What tests/objects/captables.S numbers: a stable release with one capability the harness has no rule for. */
static const struct known_cap captables[] = {
	{ "6.1", "ARM64_ALWAYS_BOOT", 0 },         /* no desc: named by has_always() and its type */
	{ "6.1", "ARM64_ALWAYS_SYSTEM", 1 },
	{ "6.1", "ARM64_HAS_LSE_ATOMICS", 26 },
	{ "6.1", "ARM64_HAS_VIRT_HOST_EXTN", 37 },
	{ "6.1", "\"Frobnicator erratum 42\"", 74 },
	{ "6.1", "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 75 },
	{ "6.1", "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 76 },
	{ 0 },
};

static struct eh_cpucaps *image_numbering(const char *path)
{
	struct eh_elf *elf;
	struct eh_cpucaps *t = NULL;
	struct eh_error err = { 0 };

	if (eh_elf_open(&elf, path, &err) || eh_cpucaps_from_image(&t, elf, &err))
		fail_msg("%s", err.msg);
	eh_elf_free(elf);
	return t;
}

/* The same tables read from the object and from the image linked with --no-apply-dynamic-relocs. */
static void run_image(void **state)
{
	const char *path = *state;
	struct eh_cpucaps *t = image_numbering(path);
	const struct known_cap *k;
	size_t n = 0;

	assert_string_equal(t->kernel, "6.1");
	assert_int_equal(t->cb_style, EH_ALT_CB_BIT15);
	assert_int_equal(t->ncaps, 90);  /* cpu_hwcaps_ptrs[] holds 90 pointers */
	for (k = captables; k->name; k++, n++) {
		const char *name = eh_cpucaps_name(t, k->number);

		if (!name || strcmp(name, k->name))
			fail_msg("%s: capability %u should be %s, is %s", path, k->number, k->name, name ? name : "nothing");
	}
	assert_int_equal(t->ncap_entries, n);
	eh_cpucaps_free(t);
}

/* In the linked image the desc pointers really are zero in the file: the relocations are needed. */
static void test_image_pointers_relocated(void **state)
{
	struct eh_elf *elf;
	const struct eh_elf_symbol *errata;
	const uint8_t *p;
	uint64_t desc;

	(void)state;
	assert_int_equal(eh_elf_open(&elf, OBJ("captables.elf"), NULL), 0);
	errata = eh_elf_symbol_by_name(elf, "arm64_errata");
	assert_non_null(errata);
	p = eh_elf_bytes(elf, errata->value, 8);
	assert_non_null(p);
	assert_memory_equal(p, "\0\0\0\0\0\0\0\0", 8);
	assert_int_equal(eh_elf_pointers(elf, errata->value, 1, &desc, NULL), 0);
	assert_string_equal(eh_elf_string(elf, desc), "Frobnicator erratum 42");
	eh_elf_free(elf);
}

/* A header that numbers the image's capabilities as it does, and two that do not. */
static const char header_agrees[] =
	"#define ARM64_ALWAYS_BOOT 0\n#define ARM64_ALWAYS_SYSTEM 1\n#define ARM64_HAS_LSE_ATOMICS 26\n"
	"#define ARM64_HAS_VIRT_HOST_EXTN 37\n#define ARM64_WORKAROUND_FROB 74\n"
	"#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM 75\n#define ARM64_WORKAROUND_CAVIUM_TX2_219_TVM 76\n"
	"#define ARM64_NCAPS 90\n";
static const char header_lacks_tvm[] =
	"#define ARM64_ALWAYS_BOOT 0\n#define ARM64_ALWAYS_SYSTEM 1\n#define ARM64_HAS_LSE_ATOMICS 26\n"
	"#define ARM64_HAS_VIRT_HOST_EXTN 37\n#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM 75\n"
	"#define ARM64_NCAPS 90\n";

struct check_row {
	const char *name;
	const char *header;     /* NULL: the built-in 6.1 numbering */
	const char *says;       /* NULL: agrees */
};

static const struct check_row check_rows[] = {
	{ "a header that agrees is accepted", header_agrees, NULL },
	{ "the built-in 6.1 numbering is refused at the first that differs", NULL,
	  "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM is capability 75 in " OBJ("captables.o")
	  " (its arm64_features[] and arm64_errata[]), but 74 in linux-6.1" },
	{ "a header without a capability the image numbers is refused", header_lacks_tvm,
	  "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM is capability 76 in " OBJ("captables.o")
	  " (its arm64_features[] and arm64_errata[]), but lacks.h does not number it" },
};

static void run_check(void **state)
{
	const struct check_row *r = *state;
	struct eh_cpucaps *image = image_numbering(OBJ("captables.o")), *header = NULL;
	const struct eh_cpucaps *given = eh_cpucaps_builtin("6.1");
	struct eh_error err = { 0 };
	int rc;

	if (r->header) {
		assert_int_equal(eh_cpucaps_parse(&header, "lacks.h", r->header, strlen(r->header), NULL), 0);
		given = header;
	}
	rc = eh_cpucaps_check(given, image, &err);
	if (r->says ? rc != EH_EINPUT || strcmp(err.msg, r->says) : rc != 0)
		fail_msg("%s: rc %d, '%s'", r->name, rc, err.msg);
	eh_cpucaps_free(header);
	eh_cpucaps_free(image);
}

/* Which numbering a file gets: its own, a given one checked against it, or a given one for an object without tables. */
static void test_for_elf(void **state)
{
	struct eh_elf *with, *without;
	struct eh_cpucaps *owned;
	const struct eh_cpucaps *used, *v61 = eh_cpucaps_builtin("6.1");
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_elf_open(&with, OBJ("captables.elf"), NULL), 0);
	assert_int_equal(eh_elf_open(&without, OBJ("rel61.o"), NULL), 0);
	assert_int_equal(eh_cpucaps_for_elf(&owned, &used, with, NULL, &err), 0);
	assert_ptr_equal(used, owned);
	assert_string_equal(eh_cpucaps_name(used, 75), "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM");
	eh_cpucaps_free(owned);
	assert_int_equal(eh_cpucaps_for_elf(&owned, &used, with, v61, &err), EH_EINPUT);
	assert_null(used);
	assert_null(owned);
	assert_non_null(strstr(err.msg, "but 74 in linux-6.1"));
	assert_int_equal(eh_cpucaps_for_elf(&owned, &used, without, v61, &err), 0);
	assert_ptr_equal(used, v61);
	assert_null(owned);
	assert_int_equal(eh_cpucaps_for_elf(&owned, &used, without, NULL, &err), EH_EINVAL);
	assert_string_equal(err.msg, OBJ("rel61.o") " has no capability tables (arm64_features[], arm64_errata[]): "
			    "give its capability numbering (a cpucaps.h or a kernel version)");
	eh_elf_free(with);
	eh_elf_free(without);
}

/* A .matches against a symbol the object does not define names the entry by that symbol's name. */
static void test_image_extern_matches(void **state)
{
	struct eh_elf *elf = NULL;
	struct eh_cpucaps *t = NULL;
	struct eh_error err = { 0 };
	unsigned n = 0;

	(void)state;
	assert_int_equal(eh_elf_open(&elf, OBJ("captables-extern.o"), NULL), 0);
	assert_non_null(eh_elf_extern_at(elf, eh_elf_symbol_by_name(elf, "arm64_errata")->value + 16));
	if (eh_cpucaps_from_image(&t, elf, &err))
		fail_msg("%s", err.msg);
	/* cpu_errata.c: .desc = "Spectre-v2", .capability = ARM64_SPECTRE_V2 (46 in 6.1's numbering). */
	assert_int_equal(eh_cpucaps_number(t, "ARM64_SPECTRE_V2", &n), 0);
	assert_int_equal(n, 46);
	eh_cpucaps_free(t);
	eh_elf_free(elf);
}

static void test_image_bad_table(void **state)
{
	struct eh_elf *elf;
	struct eh_cpucaps *t = NULL;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_elf_open(&elf, OBJ("captables-bad.o"), NULL), 0);
	assert_int_equal(eh_cpucaps_from_image(&t, elf, &err), EH_EINPUT);
	assert_null(t);
	assert_string_equal(err.msg, OBJ("captables-bad.o") ": arm64_errata is 100 bytes, not a whole number of "
			    "64-byte struct arm64_cpu_capabilities (as the built-in layout of Linux 6.1 lays it out)");
	eh_elf_free(elf);
}

static int from_image(struct eh_cpucaps **out, const void *elf, struct eh_error *err)
{
	return eh_cpucaps_from_image(out, elf, err);
}

/* Every allocation of the image reader fails in turn, as the parser's. */
static void test_image_alloc_failures(void **state)
{
	struct eh_elf *elf;

	(void)state;
	assert_int_equal(eh_elf_open(&elf, OBJ("captables.elf"), NULL), 0);
	alloc_sweep(from_image, elf, 3);
	eh_elf_free(elf);
}

int main(void)
{
	static const char *const images[] = { OBJ("captables.o"), OBJ("captables.elf") };
	struct CMUnitTest tests[3 + EH_COUNT(bad) - 1 + EH_COUNT(images) + EH_COUNT(check_rows) + 5];
	size_t i, n = 0;

	EH_ADD_TEST(tests, n, test_builtin_tables);
	EH_ADD_TEST(tests, n, test_parse_headers);
	EH_ADD_TEST(tests, n, test_alloc_failures);
	EH_ADD_ROWS(tests, n, bad, run_bad);
	for (i = 0; i < EH_COUNT(images); i++)
		EH_ADD(tests, n, images[i], run_image, images[i]);
	EH_ADD_ROWS(tests, n, check_rows, run_check);
	EH_ADD_TEST(tests, n, test_image_pointers_relocated);
	EH_ADD_TEST(tests, n, test_for_elf);
	EH_ADD_TEST(tests, n, test_image_bad_table);
	EH_ADD_TEST(tests, n, test_image_extern_matches);
	EH_ADD_TEST(tests, n, test_image_alloc_failures);
	return EH_RUN_TESTS("cpucaps", tests, n);
}

/*
 * ELF loading: sections and symbols of a real snippet, every kind of broken file answered cleanly,
 * a mapped file's code given back (eh_elf_section_drop), and read through windows that map none of
 * it (eh_elf_cursor_at, eh_elf_windows_at).
 */
#include <elf.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <unistd.h>

#include "eh/elf.h"
#include "reports/rows.h"
#include "test_objects.h"

#define SNIPPET EH_CASES_DIR "/tx2-219-prfm.elf"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_snippet_sections_and_symbols(void **state)
{
	struct eh_elf *elf;
	const struct eh_elf_section *text, *alt;
	const struct eh_elf_symbol *sym;
	struct eh_error err = { 0 };
	uint64_t off, addr;
	char buf[64];

	(void)state;
	assert_int_equal(eh_elf_open(&elf, SNIPPET, &err), 0);
	assert_int_equal(elf->type, ET_EXEC);
	text = eh_elf_section_by_name(elf, ".text");
	assert_non_null(text);
	assert_int_equal(text->addr, 0xffff800008010000ull);  /* cases/snippet.ld */
	assert_true(text->flags & SHF_EXECINSTR);
	alt = eh_elf_section_by_name(elf, ".altinstructions");
	assert_non_null(alt);
	assert_int_equal(alt->size % 12, 0);  /* struct alt_instr entries */
	sym = eh_elf_symbol_by_name(elf, "tramp_entry_before");
	assert_non_null(sym);
	assert_int_equal(sym->value, 0xffff800008010400ull);  /* the 0x400 slot of the first table */
	assert_ptr_equal(eh_elf_symbol_at(elf, sym->value + 0x1c, &off), sym);
	assert_int_equal(off, 0x1c);
	assert_string_equal(eh_elf_describe(elf, sym->value + 0x1c, buf, sizeof(buf)),
			    "tramp_entry_before+0x1c");
	assert_string_equal(eh_elf_describe(elf, 0x1234, buf, sizeof(buf)), "0x0000000000001234");
	assert_int_equal(eh_elf_resolve(elf, "tramp_entry_before+0x8", &addr, &err), 0);
	assert_int_equal(addr, sym->value + 8);
	assert_int_equal(eh_elf_resolve(elf, "no_such_symbol", &addr, &err), EH_ENOENT);
	assert_non_null(strstr(err.msg, "no_such_symbol"));
	eh_elf_free(elf);
}

/* What names an address: tests/objects/names.S, worked out by hand. */
struct name_row {
	const char *name;
	const char *at;        /* SYMBOL+OFF to describe, resolved by name */
	const char *expect;
};

static const struct name_row name_rows[] = {
	{ "a sized block, not the section marker at its start", "__marker_start+0x4", "vectors_block+0x4" },
	{ "the block, not a label inside it", "inner_label+0x0", "vectors_block+0x8" },
	{ "the innermost: an object inside the block", "inner_object+0x4", "inner_object+0x4" },
	{ "past the block: the label after it", "after_block+0x0", "after_block+0x0" },
	{ "a function, not __kvm_nvhe_$x at its start", "__kvm_nvhe_func+0x8", "__kvm_nvhe_func+0x8" },
	{ "in a gap no sized symbol covers: the last label", "plain_func+0x0", "plain_func+0x0" },
	{ "the gap itself: the function before it, as a label", "__kvm_nvhe_func+0xc", "__kvm_nvhe_func+0xc" },
};

static void test_names(void **state)
{
	char path[4096], buf[160];
	size_t len, i;
	unsigned char *obj = test_object_load("names", &len, path, sizeof(path));
	struct eh_elf *elf;
	struct eh_error err = { 0 };

	(void)state;
	assert_non_null(obj);
	if (eh_elf_parse(&elf, path, obj, len, &err))
		fail_msg("%s", err.msg);
	for (i = 0; i < sizeof(name_rows) / sizeof(name_rows[0]); i++) {
		const struct name_row *r = &name_rows[i];
		uint64_t addr;

		if (eh_elf_resolve(elf, r->at, &addr, &err))
			fail_msg("%s: %s", r->name, err.msg);
		if (strcmp(eh_elf_describe(elf, addr, buf, sizeof(buf)), r->expect))
			fail_msg("%s: %s is named '%s', expected '%s'", r->name, r->at, buf, r->expect);
	}
	/* Its mapping symbols mark places (test_data_in_code) and are no names to look up. */
	for (i = 0; i < elf->nsymbols; i++) {
		const char *name = elf->symbols[i].name;
		bool mapping = strstr(name, "$x") || strstr(name, "$d");
		size_t n = 0;

		if (elf->symbols[i].shndx == SHN_UNDEF)
			continue;
		eh_elf_symbols_named(elf, name, &n);
		if (!eh_elf_symbol_by_name(elf, name) != mapping || !n != mapping)
			fail_msg("%s is%s found by name", name, mapping ? "" : " not");
	}
	eh_elf_free(elf);
	free(obj);
}

/* Data inside code, as the mapping symbols of names.o mark it: the .quad in vectors_block. */
struct data_row {
	const char *name;
	const char *at;
	bool data;
};

static const struct data_row data_rows[] = {
	{ "code before the object ($x)", "vectors_block+0x8", false },
	{ "the object's first word ($d)", "inner_object+0x0", true },
	{ "the object's second word", "inner_object+0x4", true },
	{ "the nop after the object ($x again)", "inner_object+0x8", false },
	{ "a function of another section", "plain_func+0x4", false },
	{ "after __kvm_nvhe_$x, the prefixed mapping symbol", "__kvm_nvhe_func+0x0", false },
};

static void test_data_in_code(void **state)
{
	char path[4096];
	size_t len, i;
	unsigned char *obj = test_object_load("names", &len, path, sizeof(path));
	struct eh_elf *elf;
	struct eh_error err = { 0 };

	(void)state;
	assert_non_null(obj);
	if (eh_elf_parse(&elf, path, obj, len, &err))
		fail_msg("%s", err.msg);
	for (i = 0; i < sizeof(data_rows) / sizeof(data_rows[0]); i++) {
		const struct data_row *r = &data_rows[i];
		uint64_t addr;

		if (eh_elf_resolve(elf, r->at, &addr, &err))
			fail_msg("%s: %s", r->name, err.msg);
		if (eh_elf_is_data(elf, addr) != r->data)
			fail_msg("%s: %s is %s, expected %s", r->name, r->at, r->data ? "code" : "data",
				 r->data ? "data" : "code");
	}
	eh_elf_free(elf);
	free(obj);
}

enum mutation { TRUNCATE, SET_BYTE, SET_U16, SET_U64 };

struct bad_row {
	const char *name;
	enum mutation how;
	size_t at;            
/* offset, or length for TRUNCATE */
	uint64_t value;
	const char *expect;   /* in the message */
};

static const struct bad_row bad_rows[] = {
	{ "empty file", TRUNCATE, 0, 0, "not an ELF file" },
	{ "truncated in e_ident", TRUNCATE, 10, 0, "not an ELF file" },
	{ "truncated ELF header", TRUNCATE, 40, 0, "truncated ELF header" },
	{ "32-bit class", SET_BYTE, EI_CLASS, ELFCLASS32, "expected 64-bit" },
	{ "big-endian", SET_BYTE, EI_DATA, ELFDATA2MSB, "expected little-endian" },
	{ "x86-64 machine", SET_U16, offsetof(Elf64_Ehdr, e_machine), EM_X86_64, "expected AArch64" },
	{ "core file", SET_U16, offsetof(Elf64_Ehdr, e_type), ET_CORE, "ELF type 4" },
	{ "section headers past the end", SET_U64, offsetof(Elf64_Ehdr, e_shoff), 0x7fffffff,
	  "runs past the end" },
	{ "truncated before the section headers", TRUNCATE, 4096, 0, "past the end" },
};

static void test_bad_files(void **state)
{
	size_t len, i;
	uint8_t *orig = slurp(SNIPPET, &len);

	(void)state;
	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *r = &bad_rows[i];
		uint8_t *buf = malloc(len);
		size_t n = len;
		struct eh_elf *elf = (struct eh_elf *)1;
		struct eh_error err = { 0 };
		int rc;

		memcpy(buf, orig, len);
		switch (r->how) {
		case TRUNCATE: n = r->at; break;
		case SET_BYTE: buf[r->at] = (uint8_t)r->value; break;
		case SET_U16: memcpy(buf + r->at, &(uint16_t){ (uint16_t)r->value }, 2); break;
		case SET_U64: memcpy(buf + r->at, &r->value, 8); break;
		}
		rc = eh_elf_parse(&elf, "bad.elf", buf, n, &err);
		if (rc != EH_EINPUT || elf != NULL || !strstr(err.msg, r->expect) || !strstr(err.msg, "bad.elf"))
			fail_msg("%s: rc %d, message '%s', expected EH_EINPUT and '%s'", r->name, rc, err.msg,
				 r->expect);
		free(buf);
	}
	free(orig);
}

/* Cutting a real file anywhere must give an answer, never a crash. */
static void test_truncation_sweep(void **state)
{
	size_t len, n;
	uint8_t *orig = slurp(SNIPPET, &len);

	(void)state;
	for (n = 0; n < len; n += 64) {
		struct eh_elf *elf = NULL;
		struct eh_error err = { 0 };
		int rc = eh_elf_parse(&elf, "cut.elf", orig, n, &err);

		if (rc == 0)
			eh_elf_free(elf);
		else if (rc != EH_EINPUT)
			fail_msg("cut at %zu: rc %d (%s)", n, rc, err.msg);
	}
	free(orig);
}

static void test_missing_file(void **state)
{
	struct eh_elf *elf;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_elf_open(&elf, "/nonexistent/vmlinux", &err), EH_EIO);
	assert_null(elf);
	assert_non_null(strstr(err.msg, "/nonexistent/vmlinux"));
}

#define MIB ((uint64_t)1 << 20)
#define CODE (6 * MIB)        /* the size of the code section drop_rows and cursor_rows read */
#define CODE_OFF 0x10000      /* where it starts in the file */
#define PAGE 4096

/* A file's code, every page read, then given back whole: what is held after. */
struct drop_row {
	const char *name;
	uint16_t type;          /* ET_EXEC or ET_REL */
	bool gone;              /* its pages given back; else kept */
};

static const struct drop_row drop_rows[] = {
	{ "a mapped file's code is given back, and reads as the file has it", ET_EXEC, true },
	{ "an object's code, relocated in memory, is kept", ET_REL, false },
};

static uint8_t code_byte(uint64_t off)
{
	return (uint8_t)(off * 13 + off / PAGE);
}

/* An AArch64 ELF of the given type at path: CODE bytes of .text and its section names. */
static void write_code_elf(const char *path, uint16_t type)
{
	static const char names[] = "\0.text\0.shstrtab";
	Elf64_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
			  .e_type = type, .e_machine = EM_AARCH64, .e_version = EV_CURRENT,
			  .e_shoff = CODE_OFF + CODE + sizeof(names), .e_ehsize = sizeof(Elf64_Ehdr),
			  .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 3, .e_shstrndx = 2 };
	Elf64_Shdr sh[3] = {
		{ 0 },
		{ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		  .sh_addr = type == ET_EXEC ? EH_ELF_PLACE_BASE : 0, .sh_offset = CODE_OFF, .sh_size = CODE, .sh_addralign = 4 },
		{ .sh_name = 7, .sh_type = SHT_STRTAB, .sh_offset = CODE_OFF + CODE, .sh_size = sizeof(names), .sh_addralign = 1 },
	};
	uint8_t *buf = calloc(1, eh.e_shoff + sizeof(sh));
	uint64_t i;
	FILE *f;

	assert_non_null(buf);
	memcpy(buf, &eh, sizeof(eh));
	for (i = 0; i < CODE; i++)
		buf[CODE_OFF + i] = code_byte(i);
	memcpy(buf + CODE_OFF + CODE, names, sizeof(names));
	memcpy(buf + eh.e_shoff, sh, sizeof(sh));
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(buf, 1, eh.e_shoff + sizeof(sh), f), eh.e_shoff + sizeof(sh));
	fclose(f);
	free(buf);
}

/* Whether the page at p is in this process's page tables (/proc/self/pagemap bit 63), without touching it. */
static bool present(const uint8_t *p)
{
	uint64_t entry = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &entry, sizeof(entry), (off_t)((uintptr_t)p / PAGE * sizeof(entry))), sizeof(entry));
	close(fd);
	return entry >> 63 & 1;
}

/* A file of write_code_elf's, in a directory of its own, opened: what a row of drop_rows or cursor_rows reads. */
struct code_file {
	char dir[sizeof("/tmp/eh-test-elf-XXXXXX")], path[64];
	struct eh_elf *elf;
	const struct eh_elf_section *text;
};

static void code_file_open(struct code_file *f, const char *row, uint16_t type)
{
	struct eh_error err = { 0 };

	memcpy(f->dir, "/tmp/eh-test-elf-XXXXXX", sizeof(f->dir));
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/code.elf", f->dir);
	write_code_elf(f->path, type);
	if (eh_elf_open(&f->elf, f->path, &err))
		fail_msg("%s: %s", row, err.msg);
	assert_non_null(f->text = eh_elf_section_by_name(f->elf, ".text"));
}

static void code_file_close(struct code_file *f)
{
	eh_elf_free(f->elf);
	unlink(f->path);
	rmdir(f->dir);
}

static void run_drop_row(void **state)
{
	const struct drop_row *r = *state;
	struct code_file f;
	const struct eh_elf_section *text;
	uint64_t off;

	code_file_open(&f, r->name, r->type);
	text = f.text;
	for (off = 0; off < CODE; off += PAGE)  /* every page read once */
		(void)*(const volatile uint8_t *)(text->data + off);
	eh_elf_section_drop(f.elf, text);
	/* Above the file's first 2 MiB, which its headers' huge page (where the file system has them) maps. */
	for (off = 2 * MIB; off < CODE; off += PAGE)
		if (present(text->data + off) == r->gone)
			fail_msg("%s: the page at 0x%" PRIx64 " is %s", r->name, off, r->gone ? "still held" : "given back");
	for (off = 0; off < CODE; off++)  /* what was given back reads as the file has it */
		if (text->data[off] != code_byte(off))
			fail_msg("%s: byte 0x%" PRIx64 " is 0x%02x, expected 0x%02x", r->name, off, text->data[off],
				 code_byte(off));
	code_file_close(&f);
}

/* A reader's windows on a file's code: where it asks, in order, and what comes back. */
struct cursor_row {
	const char *name;
	uint16_t type;          /* ET_EXEC or ET_REL */
	uint64_t offs[4];       /* the windows asked for, of len bytes each, up to the first UINT64_MAX */
	size_t len;
	bool held;              /* every window is inside the code: the bytes come back */
	bool own;               /* they are the section's own bytes, not a copy */
};

static const struct cursor_row cursor_rows[] = {
	{ "a mapped file's code is read, never mapped", ET_EXEC, { 0, 2 * MIB, 5 * MIB + 12, UINT64_MAX },
	  EH_ELF_CURSOR_CHUNK, true, false },
	{ "a window inside the last one is the same read", ET_EXEC, { MIB, MIB + 4, MIB + 4096, UINT64_MAX }, 256,
	  true, false },
	{ "a window that ends the code is whole", ET_EXEC, { CODE - 256, UINT64_MAX }, 256, true, false },
	{ "past the end of the code there is none", ET_EXEC, { CODE - 252, UINT64_MAX }, 256, false, false },
	{ "more than a window at once is refused", ET_EXEC, { 0, UINT64_MAX }, EH_ELF_CURSOR_CHUNK + 4, false, false },
	{ "an object's code, relocated in memory, is its own", ET_REL, { 0, 3 * MIB, UINT64_MAX }, 4096, true, true },
};

static void run_cursor_row(void **state)
{
	const struct cursor_row *r = *state;
	struct code_file f;
	const struct eh_elf_section *text;
	struct eh_elf_cursor c = { 0 };
	const uint8_t *last = NULL;
	uint64_t off, last_off = 0;
	size_t i, k;

	code_file_open(&f, r->name, r->type);
	text = f.text;
	for (i = 0; i < EH_COUNT(r->offs) && r->offs[i] != UINT64_MAX; i++) {
		const uint8_t *p = NULL;
		int rc = eh_elf_cursor_at(f.elf, &c, text, r->offs[i], r->len, &p);

		if (rc && (rc != EH_ENOENT || r->held))
			fail_msg("%s: a window at 0x%" PRIx64 " fails with %d", r->name, r->offs[i], rc);
		/* A window inside the one read last is served from it. */
		if (p && last && r->offs[i] >= last_off && r->offs[i] + r->len <= last_off + EH_ELF_CURSOR_CHUNK &&
		    p != last + (r->offs[i] - last_off))
			fail_msg("%s: the window at 0x%" PRIx64 " is read again", r->name, r->offs[i]);
		if (p && (!last || p != last + (r->offs[i] - last_off))) {
			last = p;
			last_off = r->offs[i];
		}

		if (!r->held) {
			if (p)
				fail_msg("%s: a window at 0x%" PRIx64 " of %zu bytes", r->name, r->offs[i], r->len);
			continue;
		}
		if (!p)
			fail_msg("%s: no window at 0x%" PRIx64, r->name, r->offs[i]);
		if ((p == text->data + r->offs[i]) != r->own)
			fail_msg("%s: the window at 0x%" PRIx64 " is %s", r->name, r->offs[i],
				 r->own ? "a copy" : "the section's own bytes");
		for (k = 0; k < r->len; k++)
			if (p[k] != code_byte(r->offs[i] + k))
				fail_msg("%s: byte 0x%" PRIx64 " is 0x%02x, expected 0x%02x", r->name, r->offs[i] + k, p[k],
					 code_byte(r->offs[i] + k));
	}
	/* Above the file's first 2 MiB, which its headers' huge page (where the file system has them) maps. */
	for (off = 2 * MIB; !r->own && off < CODE; off += PAGE)
		if (present(text->data + off))
			fail_msg("%s: the page at 0x%" PRIx64 " is mapped", r->name, off);
	eh_elf_cursor_free(&c);
	code_file_close(&f);
}

/*
 * A reader's windows (eh_elf_windows_at): the file's bytes wherever it jumps, each chunk in the
 * window of its number (chunks EH_ELF_WINDOWS apart take turns in one), kept while the reader
 * reads other chunks, none past the end, and no page of the code mapped.
 */
static void test_windows(void **state)
{
	const uint64_t chunk = EH_ELF_CURSOR_CHUNK, far = EH_ELF_WINDOWS * chunk;
	/* Chunks in windows 0, 1, 5 and 15, then 0's again, back and forth. */
	static const uint64_t offs[] = { 2 * MIB + 8, 2 * MIB + EH_ELF_CURSOR_CHUNK + 4, 2 * MIB + 4,
					 2 * MIB + 5 * EH_ELF_CURSOR_CHUNK + 12, CODE - 4, 2 * MIB + 100 };
	struct eh_elf_windows ws = { 0 };
	const struct eh_elf_cursor *w0 = &ws.w[2 * MIB / chunk % EH_ELF_WINDOWS];
	struct code_file f;
	const uint8_t *p;
	uint64_t off;
	size_t i, k;

	(void)state;
	assert_int_equal(2 * MIB / chunk % EH_ELF_WINDOWS, 0);
	code_file_open(&f, "windows", ET_EXEC);
	for (i = 0; i < EH_COUNT(offs); i++) {
		assert_int_equal(eh_elf_windows_at(f.elf, &ws, f.text, offs[i], &p), 0);
		for (k = 0; k < 4; k++)
			if (p[k] != code_byte(offs[i] + k))
				fail_msg("byte 0x%" PRIx64 " is 0x%02x, expected 0x%02x", offs[i] + k, p[k],
					 code_byte(offs[i] + k));
		assert_int_equal(w0->lo, 2 * MIB);  /* the other chunks went to other windows */
	}
	assert_int_equal(ws.w[5].lo, 2 * MIB + 5 * chunk);
	assert_int_equal(ws.w[15].lo, (CODE - 4) / chunk * chunk);
	/* A chunk that falls to the same window takes its place. */
	assert_int_equal(eh_elf_windows_at(f.elf, &ws, f.text, 2 * MIB + far + 8, &p), 0);
	assert_int_equal(w0->lo, 2 * MIB + far);
	for (k = 0; k < 4; k++)
		assert_int_equal(p[k], code_byte(2 * MIB + far + 8 + k));
	assert_int_equal(eh_elf_windows_at(f.elf, &ws, f.text, CODE - 2, &p), EH_ENOENT);
	for (off = 2 * MIB; off < CODE; off += PAGE)
		if (present(f.text->data + off))
			fail_msg("the page at 0x%" PRIx64 " is mapped", off);
	eh_elf_windows_free(&ws);
	code_file_close(&f);
}

int main(void)
{
	struct CMUnitTest tests[7 + EH_COUNT(drop_rows) + EH_COUNT(cursor_rows)];
	size_t n = 0;

	EH_ADD_TEST(tests, n, test_snippet_sections_and_symbols);
	EH_ADD_TEST(tests, n, test_names);
	EH_ADD_TEST(tests, n, test_data_in_code);
	EH_ADD_TEST(tests, n, test_bad_files);
	EH_ADD_TEST(tests, n, test_truncation_sweep);
	EH_ADD_TEST(tests, n, test_missing_file);
	EH_ADD_TEST(tests, n, test_windows);
	EH_ADD_ROWS(tests, n, drop_rows, run_drop_row);
	EH_ADD_ROWS(tests, n, cursor_rows, run_cursor_row);
	return EH_RUN_TESTS("elf", tests, n);
}

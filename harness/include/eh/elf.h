/* AArch64 ELF files (snippet objects, vmlinux images, kernel objects) read through libelf. */
#ifndef EH_ELF_H
#define EH_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/error.h"
#include "eh/file.h"

struct eh_elf_section {
	const char *name;
	unsigned index;
	uint32_t type;      /* SHT_* */
	uint64_t flags;     /* SHF_* */
	uint64_t addr;
	uint64_t size;
	uint32_t link, info;
	uint64_t entsize;
	uint64_t addralign;
	uint64_t offset;    /* of its contents in the file (sh_offset) */
	uint8_t *data;      /* the contents (in the file's private mapping, or an owned copy); NULL for SHT_NOBITS */
};

struct eh_elf_symbol {
	const char *name;
	uint64_t value;
	uint64_t size;
	unsigned shndx;
	uint8_t type;       /* STT_* */
	uint8_t bind;       /* STB_* */
};

/*
 * A relocation of a relocatable object against a symbol it does not define
 * (a callback or function of another object): left unapplied, and named.
 */
struct eh_elf_extern {
	uint64_t where;     /* placed address of the relocated field */
	const char *symbol;
	int64_t addend;
	uint32_t type;      /* R_AARCH64_* */
};

/*
 * A harness stub: the page that stands in for a symbol a relocatable object
 * uses but does not define, once eh_elf_bind_stubs has linked it there.
 */
struct eh_elf_stub {
	const char *symbol;
	uint64_t addr;      /* EH_ELF_STUB_SIZE bytes of its own */
};

#define EH_ELF_STUB_SIZE 0x1000ull

struct eh_elf {
	const char *path;   /* as given to eh_elf_open / eh_elf_parse */
	uint16_t type;      /* ET_REL, ET_EXEC, ET_DYN */
	uint64_t entry;
	struct eh_elf_section *sections;
	size_t nsections;
	struct eh_elf_symbol *symbols;
	size_t nsymbols;
	char *strings;      /* owned storage behind every name above that does not point into map */
	struct eh_elf_extern *externs;  /* ET_REL only, sorted by where */
	size_t nexterns;
	struct eh_elf_stub *stubs;      /* after eh_elf_bind_stubs: contiguous, in address order */
	size_t nstubs;
	/* The symbols that name code or data, by section, address, global first: for eh_elf_symbol_at. */
	const struct eh_elf_symbol **by_addr;
	size_t nby_addr;
	const struct eh_elf_symbol **sized;   /* those of them with a size (functions, objects) */
	size_t nsized;
	/*
	 * Every defined symbol but the mapping symbols (a fifth of a kernel's, which name no place
	 * anyone looks up) by a hash of its name, then name, then table order (symbols of one
	 * name are adjacent, the table's first first): for eh_elf_symbol_by_name.
	 */
	const struct eh_elf_symbol **by_name;
	size_t nby_name;
	/* The mapping symbols ($x, $d, $x.12, KVM's __kvm_nvhe_$d), by section and address: for eh_elf_is_data. */
	const struct eh_elf_symbol **mapping;
	size_t nmapping;
	struct eh_elf_lookup *lookup;  /* image/elf_index.c's indexes by address, for eh_elf_section_at and eh_elf_symbol_at */
	struct eh_file_map map;  /* the file as eh_elf_open mapped it, which sections' data point into; data NULL: owned copies */
};

/*
 * Relocatable objects (ET_REL) have every section at address 0. Parsing one
 * places each allocated section at its own kernel-like address (from
 * EH_ELF_PLACE_BASE, page-aligned, in section order), makes symbol values
 * absolute, and applies the relocations of allocated sections against the
 * symbols the object defines, so the rest of the harness sees a linked image.
 */
#define EH_ELF_PLACE_BASE 0xffff800008000000ull

/* Parse an ELF image held in memory; name is used in messages only. */
int eh_elf_parse(struct eh_elf **out, const char *name, const void *buf, size_t len,
		 struct eh_error *err);
int eh_elf_open(struct eh_elf **out, const char *path, struct eh_error *err);
void eh_elf_free(struct eh_elf *elf);

const struct eh_elf_section *eh_elf_section_by_name(const struct eh_elf *elf, const char *name);
/*
 * Give back the memory of section s of a file eh_elf_open mapped (read whole, see its load_whole, or
 * touched page by page) once nothing reads it end to end again: .BTF once libbpf has copied it. Its
 * bytes stay as they were, read from the file again if touched. Sections under 1 MiB are left as
 * they are, and so are an object's allocated ones (relocated in memory).
 */
void eh_elf_section_drop(const struct eh_elf *elf, const struct eh_elf_section *s);
/*
 * A reader's window on a section of a file, for a pass that goes through it in order (the
 * audit's scan of the code, the alternatives' words, the symbol table, the relocations): the
 * window of a section that eh_elf_section_drop gives back is read from the file into buf
 * (EH_ELF_CURSOR_CHUNK bytes, allocated when first needed), so that the pass maps none of its
 * pages: on a virtual machine a fault on a page of the file costs twice a read of it. Zero it
 * to start.
 */
#define EH_ELF_CURSOR_CHUNK ((size_t)64 << 10)
struct eh_elf_cursor {
	const struct eh_elf_section *s;  /* the section of the window, NULL for none */
	uint64_t lo, n;                  /* the window: offsets [lo, lo + n) of s, in buf */
	uint8_t *buf;
};
/* eh_elf_cursor_at past c's window (elf.c). */
int eh_elf__cursor_move(const struct eh_elf *elf, struct eh_elf_cursor *c, const struct eh_elf_section *s,
			uint64_t off, size_t len, const uint8_t **p);
/*
 * Bytes [off, off + len) of section s (len at most EH_ELF_CURSOR_CHUNK) through c, into *p: valid
 * until c moves. 0; EH_ENOENT when s does not hold them all; EH_ENOMEM, or EH_EIO when the file
 * cannot be read, with errno saying why. Inline: a pass asks once a symbol or relocation, and all
 * but one ask in 2,700 are inside the window.
 */
static inline int eh_elf_cursor_at(const struct eh_elf *elf, struct eh_elf_cursor *c, const struct eh_elf_section *s,
				   uint64_t off, size_t len, const uint8_t **p)
{
	if (c->s == s && off >= c->lo && off - c->lo <= c->n && len <= c->n - (off - c->lo)) {
		*p = c->buf + (off - c->lo);
		return 0;
	}
	return eh_elf__cursor_move(elf, c, s, off, len, p);
}
void eh_elf_cursor_free(struct eh_elf_cursor *c);
/*
 * A reader's windows on a section of a file, for one that comes back and jumps about (the audit's
 * visits, around their candidates and along their walks): EH_ELF_WINDOWS cursors, each holding the
 * EH_ELF_CURSOR_CHUNK-aligned chunk of the offsets that fall to it, so that a word read twice is
 * read from the file once while its chunk stays, and no page of the file is mapped. Zero it to start.
 */
#define EH_ELF_WINDOWS 16
struct eh_elf_windows {
	struct eh_elf_cursor w[EH_ELF_WINDOWS];
};
/*
 * Where offset off of s is, through ws, into *p: at least 4 bytes, valid to the end of its chunk
 * (or of s) until ws moves. eh_elf_cursor_at's returns.
 */
int eh_elf_windows_at(const struct eh_elf *elf, struct eh_elf_windows *ws, const struct eh_elf_section *s,
		      uint64_t off, const uint8_t **p);
void eh_elf_windows_free(struct eh_elf_windows *ws);
/* The allocated section that holds addr, or NULL. */
const struct eh_elf_section *eh_elf_section_at(const struct eh_elf *elf, uint64_t addr);
/* The first defined symbol named name, in table order; NULL for none, and for a mapping symbol's name ($x, $d). */
const struct eh_elf_symbol *eh_elf_symbol_by_name(const struct eh_elf *elf, const char *name);
/* Every defined symbol named name (*n of them, in table order; local symbols may share a name; none for $x or $d). */
const struct eh_elf_symbol *const *eh_elf_symbols_named(const struct eh_elf *elf, const char *name, size_t *n);
/* How many functions a defines that b defines too, by name (two builds of one source share most). */
int eh_elf_shared_functions(const struct eh_elf *a, const struct eh_elf *b, size_t *shared, struct eh_error *err);
/*
 * The symbol that names addr; *off gets addr - value. A symbol with a size
 * that covers addr (a function or object, the innermost) comes first;
 * otherwise the last label at or before addr in its section. Never a mapping
 * symbol ($x, __kvm_nvhe_$x), a section or a file symbol.
 */
const struct eh_elf_symbol *eh_elf_symbol_at(const struct eh_elf *elf, uint64_t addr, uint64_t *off);
/*
 * Whether a symbol eh_elf_symbol_at may name starts at addr: when none does, no
 * function starts there (a search of one index, where eh_elf_symbol_at searches two).
 */
bool eh_elf_symbol_starts(const struct eh_elf *elf, uint64_t addr);
/*
 * The same symbol, and in *end the first address above addr where eh_elf_symbol_at
 * may answer otherwise (it answers the same for every address of [addr, *end)): a
 * walk over consecutive addresses looks the symbol up again only there.
 */
const struct eh_elf_symbol *eh_elf_symbol_span(const struct eh_elf *elf, uint64_t addr, uint64_t *end);
/*
 * Whether addr holds data rather than instructions, by the mapping symbols of
 * its section (AAELF64: $d starts data, $x code, until the next one; KVM's
 * nVHE objects prefix them with __kvm_nvhe_): a literal pool or a table inside
 * code. An address no mapping symbol precedes in its section is code.
 */
bool eh_elf_is_data(const struct eh_elf *elf, uint64_t addr);
/* "sym+0x10" or "0xffff..." into buf; returns buf. */
const char *eh_elf_describe(const struct eh_elf *elf, uint64_t addr, char *buf, size_t len);
/* The 32-bit little-endian word at addr in the (unpatched) ELF; -ENOENT outside every section with contents. */
int eh_elf_word(const struct eh_elf *elf, uint64_t addr, uint32_t *word);
/* The unapplied relocation whose field starts at where, or NULL. */
const struct eh_elf_extern *eh_elf_extern_at(const struct eh_elf *elf, uint64_t where);

/*
 * Link a relocatable object against harness stubs, so that it runs as if
 * linked: every symbol it uses but does not define gets a page of its own
 * after its last section (in reach of CALL26), and the relocations against it
 * are applied with that address. The externs stay listed for the audit. A
 * relocation that cannot be applied is EH_EINPUT naming its type, section and
 * offset. Nothing to do for a linked image.
 */
int eh_elf_bind_stubs(struct eh_elf *elf, struct eh_error *err);
/* The stub whose page holds addr, or NULL. */
const struct eh_elf_stub *eh_elf_stub_at(const struct eh_elf *elf, uint64_t addr);

/* The len bytes at addr in one section with contents (unpatched), or NULL. */
const uint8_t *eh_elf_bytes(const struct eh_elf *elf, uint64_t addr, uint64_t len);
/* The NUL-terminated string at addr, or NULL when its section ends first. */
const char *eh_elf_string(const struct eh_elf *elf, uint64_t addr);
/*
 * The n 64-bit pointers from addr as the loaded image holds them: in a linked image
 * whose dynamic relocations were not applied (an arm64 vmlinux), through its
 * R_AARCH64_RELATIVE relocations. EH_EINPUT outside every section.
 */
int eh_elf_pointers(const struct eh_elf *elf, uint64_t addr, size_t n, uint64_t *out, struct eh_error *err);

/* Resolve "SYM", "SYM+OFF" or a hexadecimal address. */
int eh_elf_resolve(const struct eh_elf *elf, const char *spec, uint64_t *addr, struct eh_error *err);

#endif

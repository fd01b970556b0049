/* Loads an AArch64 ELF through libelf into owned, validated section and symbol tables. */
#include "eh/elf.h"
#include "eh/file.h"
#include "eh/insn.h"
#include "image/elf_index.h"
#include "image/layout.h"

#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

struct strbuf {
	char *buf;
	size_t len, cap;
};

static size_t strbuf_add(struct strbuf *sb, const char *s, int *oom)
{
	size_t n = strlen(s) + 1, at = sb->len;

	if (sb->len + n > sb->cap) {
		size_t cap = sb->cap ? sb->cap * 2 : 4096;
		char *p;

		while (cap < sb->len + n)
			cap *= 2;
		p = eh_realloc(sb->buf, cap);
		if (!p) {
			*oom = 1;
			return 0;
		}
		sb->buf = p;
		sb->cap = cap;
	}
	memcpy(sb->buf + at, s, n);
	sb->len += n;
	return at;
}

static int elf_fail(struct eh_error *err, int code, const char *name, const char *what)
{
	return eh_error_set(err, code, "%s: %s%s%s", name, what,
			    elf_errno() ? ": " : "", elf_errno() ? elf_errmsg(-1) : "");
}

/* Sections' contents are copied from buf, or point into it when it is the file's mapping (map). */
static int read_sections(struct eh_elf *elf, Elf *e, const char *name, const uint8_t *buf, size_t len,
			 uint8_t *map, struct strbuf *sb, size_t *name_off, struct eh_error *err)
{
	size_t shnum, shstrndx, i;
	int oom = 0;

	if (elf_getshdrnum(e, &shnum) || elf_getshdrstrndx(e, &shstrndx))
		return elf_fail(err, EH_EINPUT, name, "cannot read the section header table");
	if (shnum == 0)
		return 0;
	elf->sections = eh_alloc(shnum * sizeof(*elf->sections));
	if (!elf->sections)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for %zu sections", name, shnum);
	elf->nsections = shnum;

	for (i = 0; i < shnum; i++) {
		struct eh_elf_section *s = &elf->sections[i];
		Elf_Scn *scn = elf_getscn(e, i);
		GElf_Shdr sh;
		const char *sname;

		if (!scn || !gelf_getshdr(scn, &sh))
			return eh_error_set(err, EH_EINPUT, "%s: section %zu: unreadable header", name, i);
		sname = i ? elf_strptr(e, shstrndx, sh.sh_name) : "";
		if (!sname)
			return eh_error_set(err, EH_EINPUT,
					    "%s: section %zu: name offset 0x%x is outside the section name table",
					    name, i, sh.sh_name);
		name_off[i] = strbuf_add(sb, sname, &oom);
		if (oom)
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory for section names", name);
		s->index = (unsigned)i;
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->link = sh.sh_link;
		s->info = sh.sh_info;
		s->entsize = sh.sh_entsize;
		s->addralign = sh.sh_addralign;
		s->offset = sh.sh_offset;
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL || sh.sh_size == 0)
			continue;
		if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
			return eh_error_set(err, EH_EINPUT,
					    "%s: section %s: contents at 0x%" PRIx64 "+0x%" PRIx64
					    " run past the end of the file (0x%zx bytes)",
					    name, sname, (uint64_t)sh.sh_offset, (uint64_t)sh.sh_size, len);
		if (sh.sh_flags & SHF_ALLOC && sh.sh_addr + sh.sh_size < sh.sh_addr)
			return eh_error_set(err, EH_EINPUT,
					    "%s: section %s: address range 0x%" PRIx64 "+0x%" PRIx64
					    " wraps around", name, sname, (uint64_t)sh.sh_addr,
					    (uint64_t)sh.sh_size);
		if (map) {
			s->data = map + sh.sh_offset;
			continue;
		}
		s->data = eh_alloc(sh.sh_size);
		if (!s->data)
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory for section %s", name, sname);
		memcpy(s->data, buf + sh.sh_offset, sh.sh_size);
	}
	return 0;
}

/* The little-endian numbers at p (ELFDATA2LSB, whatever the host). */
static uint16_t rd_le16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t rd_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t rd_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * The symbols, read straight from .symtab (ELFCLASS64, little-endian: parse checked) a window
 * at a time (eh_elf_cursor_at); each name points into the section data of its string table,
 * which lives as long as elf.
 */
static int read_symbols(struct eh_elf *elf, const char *name, struct eh_error *err)
{
	const struct eh_elf_section *symtab = NULL, *strtab;
	struct eh_elf_cursor c = { 0 };
	size_t i, j, total;
	bool ends_nul;
	int rc = 0;

	for (i = 0; i < elf->nsections && !symtab; i++)
		if (elf->sections[i].type == SHT_SYMTAB)
			symtab = &elf->sections[i];
	if (!symtab)
		return 0;
	if (symtab->link >= elf->nsections)
		return eh_error_set(err, EH_EINPUT,
				    "%s: .symtab links to string table %u of %zu sections",
				    name, symtab->link, elf->nsections);
	if (!symtab->data)
		return eh_error_set(err, EH_EINPUT, "%s: cannot read .symtab", name);
	total = symtab->size / sizeof(Elf64_Sym);
	if (!total)
		return 0;
	strtab = &elf->sections[symtab->link];
	/* A table that ends in a NUL terminates every name that starts inside it. */
	ends_nul = strtab->data && strtab->size && !strtab->data[strtab->size - 1];
	elf->symbols = eh_alloc_array(total, sizeof(*elf->symbols));
	if (!elf->symbols)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for %zu symbols", name, total);
	for (j = 0; j < total && !rc; j++) {
		struct eh_elf_symbol *s = &elf->symbols[elf->nsymbols];
		const uint8_t *p;
		uint32_t st_name;

		rc = eh_elf_cursor_at(elf, &c, symtab, j * sizeof(Elf64_Sym), sizeof(Elf64_Sym), &p);
		if (rc) {
			rc = eh_error_set(err, rc, "%s: cannot read symbol %zu: %s", name, j, strerror(errno));
			break;
		}
		st_name = rd_le32(p);
		/* What elf_strptr accepts: a string table, and a name NUL-terminated inside it. */
		if (strtab->type != SHT_STRTAB || !strtab->data || st_name >= strtab->size ||
		    (!ends_nul && !memchr(strtab->data + st_name, 0, strtab->size - st_name)))
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: symbol %zu: name offset 0x%x is outside its string table",
					  name, j, st_name);
		*s = (struct eh_elf_symbol){ .name = (const char *)strtab->data + st_name, .value = rd_le64(p + 8),
					     .size = rd_le64(p + 16), .shndx = rd_le16(p + 6),
					     .type = ELF64_ST_TYPE(p[4]), .bind = ELF64_ST_BIND(p[4]) };
		elf->nsymbols += !rc;
	}
	eh_elf_cursor_free(&c);
	return rc;
}

/* The smallest section load_whole reads at once: below it the faults cost little. */
#define LOAD_MIN ((size_t)1 << 20)

/*
 * The sections of the file name (mapped as map) that readers hold whole, read at once
 * (eh_file_map_load): the symbols' names (the index hashes them all, and they live as long as
 * the ELF), .BTF (libbpf copies it whole). Section names are in names. The symbol table and the
 * code are read a window at a time (eh_elf_cursor_at, eh_elf_windows_at), not mapped.
 */
static int load_whole(const struct eh_elf *elf, const char *name, const struct eh_file_map *map, const char *names,
		      const size_t *name_off, struct eh_error *err)
{
	struct eh_file_range *r;
	size_t i, n = 0, strtab = SIZE_MAX;
	int rc;

	for (i = 0; i < elf->nsections; i++)
		if (elf->sections[i].type == SHT_SYMTAB)
			strtab = elf->sections[i].link;
	r = eh_alloc_array(elf->nsections + 1, sizeof(*r));
	if (!r)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (s->data && s->size >= LOAD_MIN && (i == strtab || !strcmp(names + name_off[i], ".BTF")))
			r[n++] = (struct eh_file_range){ s->offset, s->size };
	}
	rc = eh_file_map_load(name, map, r, n, err);
	eh_free(r);
	return rc;
}

/* eh_elf_parse; map: buf is the file's mapping, which the sections borrow and the result keeps. */
static int parse(struct eh_elf **out, const char *name, const void *buf, size_t len, const struct eh_file_map *map,
		 struct eh_error *err)
{
	struct eh_elf *elf = NULL;
	struct strbuf sb = { 0 };
	size_t *sec_name_off = NULL, i;
	Elf *e = NULL;
	GElf_Ehdr eh;
	const unsigned char *ident = buf;
	int rc;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return eh_error_set(err, EH_EEMU, "libelf is out of date");
	if (len < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return eh_error_set(err, EH_EINPUT, "%s: not an ELF file (%zu bytes, no ELF magic)",
				    name, len);
	if (ident[EI_CLASS] != ELFCLASS64)
		return eh_error_set(err, EH_EINPUT, "%s: ELF class %u, expected 64-bit (ELFCLASS64)",
				    name, ident[EI_CLASS]);
	if (ident[EI_DATA] != ELFDATA2LSB)
		return eh_error_set(err, EH_EINPUT,
				    "%s: ELF data encoding %u, expected little-endian (ELFDATA2LSB)",
				    name, ident[EI_DATA]);
	if (len < sizeof(Elf64_Ehdr))
		return eh_error_set(err, EH_EINPUT,
				    "%s: truncated ELF header (%zu bytes, expected at least %zu)",
				    name, len, sizeof(Elf64_Ehdr));

	e = elf_memory((char *)buf, len);
	if (!e)
		return elf_fail(err, EH_EINPUT, name, "libelf cannot read the file");
	rc = EH_EINPUT;
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		rc = elf_fail(err, EH_EINPUT, name, "unreadable ELF header");
		goto out;
	}
	if (eh.e_machine != EM_AARCH64) {
		rc = eh_error_set(err, EH_EINPUT, "%s: ELF machine %u, expected AArch64 (EM_AARCH64 = %u)",
				  name, eh.e_machine, EM_AARCH64);
		goto out;
	}
	if (eh.e_type != ET_REL && eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		rc = eh_error_set(err, EH_EINPUT,
				  "%s: ELF type %u, expected a relocatable object or a linked image",
				  name, eh.e_type);
		goto out;
	}
	if (eh.e_shoff > len || (uint64_t)eh.e_shnum * eh.e_shentsize > len - eh.e_shoff) {
		rc = eh_error_set(err, EH_EINPUT,
				  "%s: section header table at 0x%" PRIx64 " (%u entries) runs past the end of the file (0x%zx bytes)",
				  name, (uint64_t)eh.e_shoff, eh.e_shnum, len);
		goto out;
	}

	elf = eh_alloc(sizeof(*elf));
	if (!elf) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
		goto out;
	}
	elf->map.fd = -1;
	elf->type = eh.e_type;
	elf->entry = eh.e_entry;
	{
		size_t shnum = 0;

		if (elf_getshdrnum(e, &shnum)) {
			rc = elf_fail(err, EH_EINPUT, name, "cannot count sections");
			goto out;
		}
		sec_name_off = eh_alloc((shnum ? shnum : 1) * sizeof(*sec_name_off));
		if (!sec_name_off) {
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
			goto out;
		}
	}
	rc = read_sections(elf, e, name, buf, len, map ? map->data : NULL, &sb, sec_name_off, err);
	if (!rc && map)
		rc = load_whole(elf, name, map, sb.buf, sec_name_off, err);
	if (map)
		elf->map = *map;  /* for eh_elf_cursor_at; a failed parse hands it back below */
	if (rc)
		goto out;
	rc = read_symbols(elf, name, err);
	if (rc)
		goto out;
	{
		int oom = 0;
		size_t off = strbuf_add(&sb, name, &oom);

		if (oom || !sb.buf) {
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
			goto out;
		}
		elf->strings = sb.buf;
		sb.buf = NULL;
		elf->path = elf->strings + off;
	}
	for (i = 0; i < elf->nsections; i++)
		elf->sections[i].name = elf->strings + sec_name_off[i];
	if (elf->type == ET_REL) {
		rc = eh_elf_place(elf, err);
		if (rc)
			goto out;
	}
	rc = eh_elf__index(elf, err);
	if (rc)
		goto out;
	*out = elf;
	elf = NULL;
	rc = 0;
out:
	/* A failed parse leaves the mapping to its caller: nothing here may free what points into it. */
	for (i = 0; map && elf && i < elf->nsections; i++)
		elf->sections[i].data = NULL;
	if (elf)
		elf->map = (struct eh_file_map){ .fd = -1 };
	eh_free(sec_name_off);
	eh_free(sb.buf);
	eh_elf_free(elf);
	if (e)
		elf_end(e);
	return rc;
}

int eh_elf_parse(struct eh_elf **out, const char *name, const void *buf, size_t len,
		 struct eh_error *err)
{
	return parse(out, name, buf, len, NULL, err);
}

int eh_elf_open(struct eh_elf **out, const char *path, struct eh_error *err)
{
	struct eh_file_map map;
	int rc;

	*out = NULL;
	/* Mapped, not read: a -dbg vmlinux is mostly DWARF, which the harness never touches. */
	rc = eh_file_map(path, EH_FILE_MAX_ELF, "kernel ELF", &map, err);
	if (rc)
		return rc;
	rc = parse(out, path, map.data, map.len, &map, err);
	if (rc)
		eh_file_unmap(&map);
	return rc;
}

void eh_elf_free(struct eh_elf *elf)
{
	size_t i;

	if (!elf)
		return;
	for (i = 0; !elf->map.data && i < elf->nsections; i++)
		eh_free(elf->sections[i].data);
	eh_file_unmap(&elf->map);
	eh_free(elf->sections);
	eh_free(elf->symbols);
	eh_elf__index_free(elf);
	eh_free(elf->strings);
	eh_free(elf->externs);
	eh_free(elf->stubs);
	eh_free(elf);
}

/*
 * Whether s's pages can be given back, or read from the file: mapped, large, and as the file has
 * them (an object's placed sections are relocated in memory).
 */
static bool droppable(const struct eh_elf *elf, const struct eh_elf_section *s)
{
	return elf->map.data && s->data && s->size >= LOAD_MIN && !(elf->type == ET_REL && s->flags & SHF_ALLOC);
}

void eh_elf_section_drop(const struct eh_elf *elf, const struct eh_elf_section *s)
{
	if (droppable(elf, s))
		eh_file_map_drop(&elf->map, s->offset, s->size);
}

/* eh_elf_cursor_at outside c's window: the mapping's bytes, or the window moved to off. */
int eh_elf__cursor_move(const struct eh_elf *elf, struct eh_elf_cursor *c, const struct eh_elf_section *s,
			uint64_t off, size_t len, const uint8_t **p)
{
	size_t got;
	ssize_t r;

	if (!s->data || off > s->size || len > s->size - off || len > EH_ELF_CURSOR_CHUNK)
		return EH_ENOENT;
	if (!droppable(elf, s)) {
		*p = s->data + off;
		return 0;
	}
	if (!c->buf && !(c->buf = eh_alloc(EH_ELF_CURSOR_CHUNK))) {
		errno = ENOMEM;
		return EH_ENOMEM;
	}
	c->s = NULL;
	c->n = s->size - off < EH_ELF_CURSOR_CHUNK ? s->size - off : EH_ELF_CURSOR_CHUNK;
	for (got = 0; got < c->n; got += (size_t)r) {
		r = pread(elf->map.fd, c->buf + got, c->n - got, (off_t)(s->offset + off + got));
		if (r <= 0) {
			errno = r ? errno : EIO;  /* the file shrank under the mapping */
			return EH_EIO;
		}
	}
	c->s = s;
	c->lo = off;
	*p = c->buf;
	return 0;
}

void eh_elf_cursor_free(struct eh_elf_cursor *c)
{
	eh_free(c->buf);
	*c = (struct eh_elf_cursor){ 0 };
}

int eh_elf_windows_at(const struct eh_elf *elf, struct eh_elf_windows *ws, const struct eh_elf_section *s,
		      uint64_t off, const uint8_t **p)
{
	uint64_t chunk = off / EH_ELF_CURSOR_CHUNK, base = chunk * EH_ELF_CURSOR_CHUNK;
	const uint8_t *at;
	int rc;

	if (off > s->size || s->size - off < 4)
		return EH_ENOENT;
	rc = eh_elf_cursor_at(elf, &ws->w[chunk % EH_ELF_WINDOWS], s, base,
			      s->size - base < EH_ELF_CURSOR_CHUNK ? (size_t)(s->size - base) : EH_ELF_CURSOR_CHUNK, &at);
	if (!rc)
		*p = at + (off - base);
	return rc;
}

void eh_elf_windows_free(struct eh_elf_windows *ws)
{
	size_t i;

	for (i = 0; i < EH_ELF_WINDOWS; i++)
		eh_elf_cursor_free(&ws->w[i]);
}

const struct eh_elf_section *eh_elf_section_by_name(const struct eh_elf *elf, const char *name)
{
	size_t i;

	for (i = 0; i < elf->nsections; i++)
		if (!strcmp(elf->sections[i].name, name))
			return &elf->sections[i];
	return NULL;
}

int eh_elf_word(const struct eh_elf *elf, uint64_t addr, uint32_t *word)
{
	const struct eh_elf_section *s = eh_elf_section_at(elf, addr);
	const uint8_t *p;

	if (!s || !s->data || s->size - (addr - s->addr) < 4)
		return EH_ENOENT;
	p = s->data + (addr - s->addr);
	*word = eh_insn_word(p);
	return 0;
}

/*
 * A lower-bound search, as eh_image_patch_from's over the patches: bsearch() finds only
 * an equal key, and a search generic over element types would cost a callback a step.
 */
const struct eh_elf_extern *eh_elf_extern_at(const struct eh_elf *elf, uint64_t where)
{
	size_t lo = 0, hi = elf->nexterns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (elf->externs[mid].where < where)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < elf->nexterns && elf->externs[lo].where == where ? &elf->externs[lo] : NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Whether s names code or a label the object defines (what two builds of the same
 * source share): functions, and assembly labels (no type), not mapping symbols.
 */
static bool defined_function(const struct eh_elf_symbol *s)
{
	return s->shndx != SHN_UNDEF && s->shndx < SHN_LORESERVE && (s->type == STT_FUNC || s->type == STT_NOTYPE) &&
	       s->name[0] && s->name[0] != '$';
}

int eh_elf_shared_functions(const struct eh_elf *a, const struct eh_elf *b, size_t *shared, struct eh_error *err)
{
	const char **names;
	size_t i, n = 0;

	*shared = 0;
	names = eh_alloc((b->nsymbols + 1) * sizeof(*names));
	if (!names)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the symbols of %s", b->path);
	for (i = 0; i < b->nsymbols; i++)
		if (defined_function(&b->symbols[i]))
			names[n++] = b->symbols[i].name;
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < a->nsymbols; i++)
		*shared += defined_function(&a->symbols[i]) &&
			   bsearch(&a->symbols[i].name, names, n, sizeof(*names), by_name);
	eh_free(names);
	return 0;
}

const struct eh_elf_stub *eh_elf_stub_at(const struct eh_elf *elf, uint64_t addr)
{
	uint64_t k;

	if (!elf->nstubs || addr < elf->stubs[0].addr)
		return NULL;
	k = (addr - elf->stubs[0].addr) / EH_ELF_STUB_SIZE;
	return k < elf->nstubs ? &elf->stubs[k] : NULL;
}

const char *eh_elf_describe(const struct eh_elf *elf, uint64_t addr, char *buf, size_t len)
{
	uint64_t off = 0;
	const struct eh_elf_symbol *s = elf ? eh_elf_symbol_at(elf, addr, &off) : NULL;
	const struct eh_elf_stub *stub = elf && !s ? eh_elf_stub_at(elf, addr) : NULL;

	if (s)
		snprintf(buf, len, "%s+0x%" PRIx64, s->name, off);
	else if (stub)
		snprintf(buf, len, "%s+0x%" PRIx64 " (stub)", stub->symbol, addr - stub->addr);
	else
		snprintf(buf, len, "0x%016" PRIx64, addr);
	return buf;
}

int eh_elf_resolve(const struct eh_elf *elf, const char *spec, uint64_t *addr,
		   struct eh_error *err)
{
	char name[256];
	const char *plus = strchr(spec, '+');
	size_t n = plus ? (size_t)(plus - spec) : strlen(spec);
	const struct eh_elf_symbol *s;
	uint64_t off = 0;
	char *end;

	if (!strncmp(spec, "0x", 2)) {
		*addr = strtoull(spec, &end, 16);
		if (*end)
			return eh_error_set(err, EH_EINVAL, "%s: bad address '%s'", elf->path, spec);
		return 0;
	}
	if (n == 0 || n >= sizeof(name))
		return eh_error_set(err, EH_EINVAL, "%s: bad symbol '%s'", elf->path, spec);
	memcpy(name, spec, n);
	name[n] = 0;
	if (plus) {
		off = strtoull(plus + 1, &end, 0);
		if (!plus[1] || *end)
			return eh_error_set(err, EH_EINVAL, "%s: bad offset in '%s'", elf->path, spec);
	}
	s = eh_elf_symbol_by_name(elf, name);
	if (!s)
		return eh_error_set(err, EH_ENOENT, "%s: no symbol '%s'", elf->path, name);
	*addr = s->value + off;
	return 0;
}

const uint8_t *eh_elf_bytes(const struct eh_elf *elf, uint64_t addr, uint64_t len)
{
	const struct eh_elf_section *s = eh_elf_section_at(elf, addr);

	if (!s || !s->data || len > s->size - (addr - s->addr))
		return NULL;
	return s->data + (addr - s->addr);
}

const char *eh_elf_string(const struct eh_elf *elf, uint64_t addr)
{
	const struct eh_elf_section *s = eh_elf_section_at(elf, addr);
	const uint8_t *p;

	if (!s || !s->data)
		return NULL;
	p = s->data + (addr - s->addr);
	return memchr(p, 0, s->size - (addr - s->addr)) ? (const char *)p : NULL;
}

int eh_elf_pointers(const struct eh_elf *elf, uint64_t addr, size_t n, uint64_t *out, struct eh_error *err)
{
	const uint8_t *p = n <= SIZE_MAX / 8 ? eh_elf_bytes(elf, addr, n * 8) : NULL;
	size_t i, k;

	if (!p)
		return eh_error_set(err, EH_EINPUT, "%s: 0x%" PRIx64 ": %zu pointers lie outside every section",
				    elf->path, addr, n);
	for (i = 0; i < n; i++)
		out[i] = rd_le64(p + i * 8);
	if (elf->type == ET_REL)
		return 0;
	/*
	 * An arm64 vmlinux is linked with --no-apply-dynamic-relocs: its pointers are
	 * zero in the file and set at boot by R_AARCH64_RELATIVE relocations (value =
	 * addend, the image being linked at its run address) in an allocated SHT_RELA.
	 */
	for (k = 0; k < elf->nsections; k++) {
		const struct eh_elf_section *s = &elf->sections[k];
		uint32_t whole[2] = { 0, (uint32_t)(s->size / sizeof(Elf64_Rela)) };
		const uint32_t *runs = whole;
		size_t nruns, j, r;

		if (s->type != SHT_RELA || !(s->flags & SHF_ALLOC) || !s->data)
			continue;
		nruns = eh_elf__rela_runs(elf, s, &runs);
		for (j = 0; j < (nruns ? nruns : 1); j++) {
			/* In a run, from the first relocation at addr to the first past the pointers; unsorted, all. */
			for (r = nruns ? eh_elf__rela_from(s, runs[j], runs[j + 1], addr) : 0; r < runs[j + 1]; r++) {
				Elf64_Rela rela;

				memcpy(&rela, s->data + r * sizeof(rela), sizeof(rela));
				if (nruns && rela.r_offset - addr >= n * 8)
					break;
				if (ELF64_R_TYPE(rela.r_info) == R_AARCH64_RELATIVE && rela.r_offset >= addr &&
				    rela.r_offset - addr < n * 8 && !((rela.r_offset - addr) % 8))
					out[(rela.r_offset - addr) / 8] = (uint64_t)rela.r_addend;
			}
		}
	}
	return 0;
}

/*
 * The look-up indexes of a parsed ELF: symbols by address and by name, sorted by radix
 * rather than comparison (a vmlinux has some 155k symbols), and per-page starting points
 * so that eh_elf_symbol_at searches a page's few symbols, not the whole table.
 */
#include "image/elf_index.h"

#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "eh/sort.h"

/* The page of the symbol index: small enough that a page holds a handful of symbols. */
#define PAGE_SHIFT 12
/* How many runs in r_offset order an allocated relocation section may hold before it is searched whole. */
#define RELA_RUNS_MAX 16
/* Sections past this many pages in all get no page index (a malformed size must not cost memory): they search whole. */
#define PAGES_MAX (1u << 22)

/* s's name past KVM's nVHE prefix (tested a byte first: most names do not start with an underscore). */
static const char *unprefixed(const struct eh_elf_symbol *s)
{
	return s->name[0] == '_' && !strncmp(s->name, "__kvm_nvhe_", 11) ? s->name + 11 : s->name;
}

/*
 * Mapping symbols ($x, $d, $x.12) and section or file symbols describe nothing
 * to a reader. KVM's nVHE objects prefix every symbol with __kvm_nvhe_
 * (arch/arm64/kvm/hyp/nvhe/Makefile), mapping symbols included.
 */
static int symbol_names_code(const struct eh_elf_symbol *s)
{
	const char *name = unprefixed(s);

	if (!name[0] || name[0] == '$')
		return 0;
	return s->type == STT_FUNC || s->type == STT_NOTYPE || s->type == STT_OBJECT;
}

/* The mapping symbol's letter ('x', 'd'), past KVM's nVHE prefix, or 0 for any other symbol. */
static char mapping_kind(const struct eh_elf_symbol *s)
{
	const char *name = unprefixed(s);

	if (name[0] != '$' || (name[1] != 'x' && name[1] != 'd') || (name[2] && name[2] != '.'))
		return 0;
	return name[1];
}

/*
 * The by-name index's order: any hash would do, ties fall back to the name. Eight bytes a
 * step, each mixed by a multiply (the constants of MurmurHash3's finaliser), where a
 * byte a step cost a fifth of reading a kernel's symbols.
 */
static uint32_t name_hash(const char *s)
{
	size_t n = strlen(s);
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(h ^ h >> 33);
}

/*
 * The indexes by address: sections through buckets of the allocated address
 * range, symbols through the pages of their section.
 */
struct eh_elf_lookup {
	const struct eh_elf_section **by_vaddr;  /* allocated sections by address; NULL when two overlap */
	size_t nby_vaddr;
	uint64_t base;       /* the lowest allocated address */
	unsigned shift;      /* log2 of a bucket's size */
	size_t nbuckets;
	uint32_t *bucket;    /* per bucket: the first of by_vaddr that ends past the bucket's start */
	/*
	 * Per allocated section and 4 KiB page from its start: where the symbols at or
	 * past the page's start begin in by_addr (pages[page_base[i] + 2 * p]) and in
	 * sized (the entry after); one more pair for the section's end.
	 */
	uint32_t *pages;
	size_t *page_base;   /* by section index; SIZE_MAX: a section without pages */
	/* By section index: an allocated SHT_RELA's runs in r_offset order (index_relas). */
	uint32_t (*rela_runs)[RELA_RUNS_MAX + 1];
	uint8_t *nrela_runs;
};

/*
 * The most buckets of the section index: a sparse address space gets larger buckets, not more;
 * nor more than BUCKETS_PER_SECTION a section, so that a snippet's few sections, however far
 * apart, make a small table.
 */
#define BUCKETS_MAX (1u << 16)
#define BUCKETS_PER_SECTION 64

/* Within each run of one hash (k's keys), names in order, stably: a run of two names is a collision, and rare. */
static void order_collisions(const struct eh_elf_symbol **v, const struct eh_sort_pair *k, size_t n)
{
	size_t lo = 0, hi, i, j;

	for (; lo < n; lo = hi) {
		bool mixed = false;

		for (hi = lo + 1; hi < n && k[hi].key == k[lo].key; hi++)
			mixed |= strcmp(v[hi]->name, v[lo]->name) != 0;
		for (i = lo + 1; mixed && i < hi; i++) {
			const struct eh_elf_symbol *s = v[i];

			for (j = i; j > lo && strcmp(v[j - 1]->name, s->name) > 0; j--)
				v[j] = v[j - 1];
			v[j] = s;
		}
	}
}

/* by_addr's first key of s: its value, or (one) its section above the low 48 bits of its value. */
static uint64_t addr_key(const struct eh_elf_symbol *s, bool one)
{
	return one ? (uint64_t)s->shndx << 48 | (s->value & ((1ull << 48) - 1)) : s->value;
}

/*
 * Sort v[0..n), symbols of elf in table order: by_name's order (hash, then name, then
 * table order), or by_addr's (section, value, globals first, then table order), by stable
 * radix sorts: globals put first, then by value, then by section; by one sort of section
 * and value together when every value has the same top 16 bits (a kernel's do).
 */
static int sort_symbols(const struct eh_elf *elf, const struct eh_elf_symbol **v, size_t n, bool by_hash)
{
	struct eh_sort_pair *k;
	size_t i, m = 0;
	uint64_t differ = 0;
	bool one = !by_hash;
	int rc;

	if (n < 2)
		return 0;
	k = eh_alloc_array(n, sizeof(*k));
	if (!k)
		return EH_ENOMEM;
	for (i = 0; one && i < n; i++) {
		differ |= v[i]->value ^ v[0]->value;
		one = v[i]->shndx <= 0xffff;
	}
	one = one && !(differ >> 48);
	for (i = 0; i < n; i++)
		if (by_hash)
			k[i] = (struct eh_sort_pair){ name_hash(v[i]->name), (uint64_t)(v[i] - elf->symbols) };
		else if (v[i]->bind == STB_GLOBAL)
			k[m++] = (struct eh_sort_pair){ addr_key(v[i], one), (uint64_t)(v[i] - elf->symbols) };
	for (i = 0; !by_hash && i < n; i++)
		if (v[i]->bind != STB_GLOBAL)
			k[m++] = (struct eh_sort_pair){ addr_key(v[i], one), (uint64_t)(v[i] - elf->symbols) };
	rc = eh_sort_pairs(k, n);
	for (i = 0; !rc && !by_hash && !one && i < n; i++)
		k[i].key = elf->symbols[k[i].val].shndx;
	if (!rc && !by_hash && !one)
		rc = eh_sort_pairs(k, n);
	for (i = 0; !rc && i < n; i++)
		v[i] = &elf->symbols[k[i].val];
	if (!rc && by_hash)
		order_collisions(v, k, n);
	eh_free(k);
	return rc;
}

static int cmp_section_addr(const void *a, const void *b)
{
	const struct eh_elf_section *x = *(const struct eh_elf_section *const *)a;
	const struct eh_elf_section *y = *(const struct eh_elf_section *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static bool allocated(const struct eh_elf_section *s)
{
	return s->flags & SHF_ALLOC && s->size;
}

/* by_vaddr and its buckets: the allocated sections by address, or none when two overlap. */
static int index_sections(const struct eh_elf *elf, struct eh_elf_lookup *l)
{
	size_t i, n = 0, b, k;
	uint64_t span;

	l->by_vaddr = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*l->by_vaddr));
	if (!l->by_vaddr)
		return EH_ENOMEM;
	for (i = 0; i < elf->nsections; i++)
		if (allocated(&elf->sections[i]))
			l->by_vaddr[n++] = &elf->sections[i];
	qsort(l->by_vaddr, n, sizeof(*l->by_vaddr), cmp_section_addr);
	for (i = 0; i < n; i++)  /* none may overlap the one before or wrap past the top of the address space */
		if ((i && l->by_vaddr[i]->addr - l->by_vaddr[i - 1]->addr < l->by_vaddr[i - 1]->size) ||
		    l->by_vaddr[i]->addr + l->by_vaddr[i]->size < l->by_vaddr[i]->addr)
			break;
	if (i < n || !n) {
		eh_free(l->by_vaddr);
		l->by_vaddr = NULL;
		return 0;
	}
	l->nby_vaddr = n;
	l->base = l->by_vaddr[0]->addr;
	span = l->by_vaddr[n - 1]->addr + l->by_vaddr[n - 1]->size - l->base;
	while (l->shift < 63 && (span >> l->shift >= BUCKETS_MAX || span >> l->shift >= BUCKETS_PER_SECTION * n))
		l->shift++;
	l->nbuckets = (size_t)(span >> l->shift) + 1;
	l->bucket = eh_alloc(l->nbuckets * sizeof(*l->bucket));
	if (!l->bucket)
		return EH_ENOMEM;
	for (b = 0, k = 0; b < l->nbuckets; b++) {
		uint64_t start = l->base + ((uint64_t)b << l->shift);

		while (k < n && l->by_vaddr[k]->addr + l->by_vaddr[k]->size <= start)
			k++;
		l->bucket[b] = (uint32_t)k;
	}
	return 0;
}

/* The first of v[*k..n) at or past (sec, addr), from *k on (the walk goes up only). */
static uint32_t advance(const struct eh_elf_symbol *const *v, size_t n, size_t *k, unsigned sec, uint64_t addr)
{
	while (*k < n && (v[*k]->shndx < sec || (v[*k]->shndx == sec && v[*k]->value < addr)))
		(*k)++;
	return (uint32_t)*k;
}

/* pages and page_base: where each page of each allocated section starts in by_addr and sized. */
static int index_pages(const struct eh_elf *elf, struct eh_elf_lookup *l)
{
	size_t i, total = 0, ka = 0, ks = 0, p;

	l->page_base = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*l->page_base));
	if (!l->page_base)
		return EH_ENOMEM;
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint64_t npages = (s->size >> PAGE_SHIFT) + 2;  /* rounded up, and the pair for the end */

		l->page_base[i] = SIZE_MAX;
		if (!allocated(s) || s->addr + s->size < s->addr || npages > PAGES_MAX - total / 2)
			continue;
		l->page_base[i] = total;
		total += 2 * npages;
	}
	l->pages = eh_alloc((total ? total : 1) * sizeof(*l->pages));
	if (!l->pages)
		return EH_ENOMEM;
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		size_t npages = (size_t)(s->size >> PAGE_SHIFT) + 2;
		uint32_t *pg;

		if (l->page_base[i] == SIZE_MAX)
			continue;
		pg = l->pages + l->page_base[i];
		for (p = 0; p < npages; p++) {
			uint64_t start = s->addr + ((uint64_t)p << PAGE_SHIFT);

			if (start < s->addr)
				start = UINT64_MAX;  /* past the top of the address space */
			pg[2 * p] = advance(elf->by_addr, elf->nby_addr, &ka, s->index, start);
			pg[2 * p + 1] = advance(elf->sized, elf->nsized, &ks, s->index, start);
		}
	}
	return 0;
}

static uint64_t rela_offset(const struct eh_elf_section *s, size_t at)
{
	Elf64_Rela rela;

	memcpy(&rela, s->data + at, sizeof(rela));
	return rela.r_offset;
}

/*
 * rela_runs: where each allocated relocation section (a vmlinux's .rela.dyn, read for its
 * pointers) breaks into runs in r_offset order; none past RELA_RUNS_MAX. Debian's 6.1
 * vmlinux has two: 129,661 R_AARCH64_RELATIVE, then the R_AARCH64_NONE that follow. Read
 * a window at a time (eh_elf_cursor_at): 3.3 MiB that only this pass reads whole.
 */
static int index_relas(const struct eh_elf *elf, struct eh_elf_lookup *l)
{
	struct eh_elf_cursor c = { 0 };
	size_t i, r;
	int rc = 0;

	l->rela_runs = eh_alloc((elf->nsections ? elf->nsections : 1) * sizeof(*l->rela_runs));
	l->nrela_runs = eh_alloc(elf->nsections ? elf->nsections : 1);
	if (!l->rela_runs || !l->nrela_runs)
		return EH_ENOMEM;
	for (i = 0; i < elf->nsections && !rc; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint32_t *runs = l->rela_runs[i];
		uint64_t last = 0;
		size_t n = 1;

		if (s->type != SHT_RELA || !(s->flags & SHF_ALLOC) || !s->data || s->size / sizeof(Elf64_Rela) > UINT32_MAX)
			continue;
		runs[0] = 0;
		for (r = 0; r + sizeof(Elf64_Rela) <= s->size && n <= RELA_RUNS_MAX; r += sizeof(Elf64_Rela)) {
			const uint8_t *p;
			uint64_t off;

			if ((rc = eh_elf_cursor_at(elf, &c, s, r, sizeof(Elf64_Rela), &p)))
				break;
			memcpy(&off, p, sizeof(off));  /* r_offset: little-endian, as parse checked */
			if (r && off < last)
				runs[n++] = (uint32_t)(r / sizeof(Elf64_Rela));
			last = off;
		}
		if (n > RELA_RUNS_MAX || rc)
			continue;
		runs[n] = (uint32_t)(s->size / sizeof(Elf64_Rela));
		l->nrela_runs[i] = (uint8_t)n;
	}
	eh_elf_cursor_free(&c);
	return rc;
}

size_t eh_elf__rela_runs(const struct eh_elf *elf, const struct eh_elf_section *s, const uint32_t **runs)
{
	if (!elf->lookup || !elf->lookup->nrela_runs || !elf->lookup->nrela_runs[s->index])
		return 0;
	*runs = elf->lookup->rela_runs[s->index];
	return elf->lookup->nrela_runs[s->index];
}

size_t eh_elf__rela_from(const struct eh_elf_section *s, size_t lo, size_t hi, uint64_t addr)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rela_offset(s, mid * sizeof(Elf64_Rela)) < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int eh_elf__index(struct eh_elf *elf, struct eh_error *err)
{
	size_t i, n = elf->nsymbols ? elf->nsymbols : 1;
	int rc;

	elf->by_addr = eh_alloc_array(n, sizeof(*elf->by_addr));
	elf->sized = eh_alloc_array(n, sizeof(*elf->sized));
	elf->mapping = eh_alloc_array(n, sizeof(*elf->mapping));
	elf->by_name = eh_alloc_array(n, sizeof(*elf->by_name));
	if (!elf->by_addr || !elf->sized || !elf->mapping || !elf->by_name)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for the symbol index", elf->path);
	for (i = 0; i < elf->nsymbols; i++) {
		const struct eh_elf_symbol *s = &elf->symbols[i];
		bool mapping = mapping_kind(s);

		if (s->shndx != SHN_UNDEF && !mapping)
			elf->by_name[elf->nby_name++] = s;
		if (s->shndx == SHN_UNDEF || s->shndx >= SHN_LORESERVE)
			continue;
		if (mapping)
			elf->mapping[elf->nmapping++] = s;
		if (symbol_names_code(s))
			elf->by_addr[elf->nby_addr++] = s;
	}
	rc = sort_symbols(elf, elf->by_addr, elf->nby_addr, false);
	if (!rc)
		rc = sort_symbols(elf, elf->mapping, elf->nmapping, false);
	if (!rc)
		rc = sort_symbols(elf, elf->by_name, elf->nby_name, true);
	if (!rc) {
		for (i = 0; i < elf->nby_addr; i++)  /* in by_addr's order, as the one sort would give */
			if (elf->by_addr[i]->size)
				elf->sized[elf->nsized++] = elf->by_addr[i];
		/* Sized for every symbol, they hold fewer: the rest goes back to the heap the audit fills next. */
		elf->by_addr = eh_shrink(elf->by_addr, elf->nby_addr * sizeof(*elf->by_addr));
		elf->sized = eh_shrink(elf->sized, elf->nsized * sizeof(*elf->sized));
		elf->mapping = eh_shrink(elf->mapping, elf->nmapping * sizeof(*elf->mapping));
		elf->by_name = eh_shrink(elf->by_name, elf->nby_name * sizeof(*elf->by_name));
		elf->lookup = eh_alloc(sizeof(*elf->lookup));
		rc = elf->lookup ? index_sections(elf, elf->lookup) : EH_ENOMEM;
	}
	if (!rc)
		rc = index_pages(elf, elf->lookup);
	if (!rc)
		rc = index_relas(elf, elf->lookup);
	if (rc == EH_EIO)
		return eh_error_set(err, rc, "%s: cannot read its relocations: %s", elf->path, strerror(errno));
	if (rc)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for the symbol index", elf->path);
	return 0;
}

void eh_elf__index_free(struct eh_elf *elf)
{
	eh_free(elf->by_addr);
	eh_free(elf->by_name);
	eh_free(elf->sized);
	eh_free(elf->mapping);
	if (elf->lookup) {
		eh_free(elf->lookup->by_vaddr);
		eh_free(elf->lookup->bucket);
		eh_free(elf->lookup->pages);
		eh_free(elf->lookup->page_base);
		eh_free(elf->lookup->rela_runs);
		eh_free(elf->lookup->nrela_runs);
		eh_free(elf->lookup);
	}
}

const struct eh_elf_section *eh_elf_section_at(const struct eh_elf *elf, uint64_t addr)
{
	const struct eh_elf_lookup *l = elf->lookup;
	size_t i, b;

	if (!l || !l->by_vaddr) {  /* before the index, or sections that overlap: the table's first */
		for (i = 0; i < elf->nsections; i++) {
			const struct eh_elf_section *s = &elf->sections[i];

			if (allocated(s) && addr - s->addr < s->size)
				return s;
		}
		return NULL;
	}
	b = (size_t)((addr - l->base) >> l->shift);
	if (addr < l->base || b >= l->nbuckets)
		return NULL;
	/* The first section that ends past addr, from the first that ends past the bucket's start. */
	for (i = l->bucket[b]; i < l->nby_vaddr && addr - l->by_vaddr[i]->addr >= l->by_vaddr[i]->size; i++)
		if (l->by_vaddr[i]->addr > addr)
			return NULL;
	return i < l->nby_vaddr ? l->by_vaddr[i] : NULL;
}

/* Whether by_name's p sorts before name (of hash h). */
static bool named_before(const struct eh_elf_symbol *p, const char *name, uint32_t h)
{
	uint32_t ph = name_hash(p->name);

	return ph != h ? ph < h : strcmp(p->name, name) < 0;
}

/* The index in by_name of the first symbol named name, or of where it would be. */
static size_t first_named(const struct eh_elf *elf, const char *name)
{
	size_t lo = 0, hi = elf->nby_name;
	uint32_t h = name_hash(name);

	while (lo < hi) {   /* the first of those named name: the table's first */
		size_t mid = lo + (hi - lo) / 2;

		if (named_before(elf->by_name[mid], name, h))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct eh_elf_symbol *eh_elf_symbol_by_name(const struct eh_elf *elf, const char *name)
{
	size_t lo = first_named(elf, name);

	return lo < elf->nby_name && !strcmp(elf->by_name[lo]->name, name) ? elf->by_name[lo] : NULL;
}

const struct eh_elf_symbol *const *eh_elf_symbols_named(const struct eh_elf *elf, const char *name, size_t *n)
{
	size_t lo = first_named(elf, name), hi = lo;

	while (hi < elf->nby_name && !strcmp(elf->by_name[hi]->name, name))
		hi++;
	*n = hi - lo;
	return elf->by_name + lo;
}

/*
 * Index just past the last of v[0..n) in section sec at or below addr; which: 0 for
 * by_addr, 1 for sized, to start from addr's page (addr lies in sec), -1 for no page index.
 */
static size_t after_last_at_or_below(const struct eh_elf *elf, const struct eh_elf_symbol *const *v, size_t n,
				     int which, const struct eh_elf_section *sec, uint64_t addr)
{
	size_t lo = 0, hi = n;

	if (which >= 0 && elf->lookup && elf->lookup->page_base && elf->lookup->page_base[sec->index] != SIZE_MAX) {
		const uint32_t *pg = elf->lookup->pages + elf->lookup->page_base[sec->index] +
				     2 * ((addr - sec->addr) >> PAGE_SHIFT) + which;

		lo = pg[0];  /* the answer lies between the page's first symbol and the next page's */
		hi = pg[2];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->shndx < sec->index || (v[mid]->shndx == sec->index && v[mid]->value <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool eh_elf_is_data(const struct eh_elf *elf, uint64_t addr)
{
	const struct eh_elf_section *sec = eh_elf_section_at(elf, addr);
	size_t lo;

	if (!sec)
		return false;
	lo = after_last_at_or_below(elf, elf->mapping, elf->nmapping, -1, sec, addr);
	return lo && elf->mapping[lo - 1]->shndx == sec->index && mapping_kind(elf->mapping[lo - 1]) == 'd';
}

/* Sized symbols nest rarely and shallowly: how many to look back for one that covers addr. */
#define EH_ELF_COVER_LOOKBACK 16

/*
 * eh_elf_symbol_at's answer for addr in sec; with end, also the first address above addr
 * where it may change: the next start of a symbol of the section, the end of a sized one
 * that covers addr, or the section's end (its look-back window moves only at starts).
 */
static const struct eh_elf_symbol *symbol_in(const struct eh_elf *elf, const struct eh_elf_section *sec,
					     uint64_t addr, uint64_t *off, uint64_t *end)
{
	const struct eh_elf_symbol *best = NULL;
	size_t lo, k, next;

	if (end)
		*end = sec->addr + sec->size;
	/* A function or object (any symbol with a size) that covers addr names it, innermost first. */
	lo = after_last_at_or_below(elf, elf->sized, elf->nsized, 1, sec, addr);
	if (end && lo < elf->nsized && elf->sized[lo]->shndx == sec->index && elf->sized[lo]->value < *end)
		*end = elf->sized[lo]->value;
	for (k = 0; k < EH_ELF_COVER_LOOKBACK && lo > k && elf->sized[lo - k - 1]->shndx == sec->index; k++) {
		const struct eh_elf_symbol *s = elf->sized[lo - k - 1];

		if (addr - s->value >= s->size)
			continue;
		if (end && s->value + s->size < *end)
			*end = s->value + s->size;
		if (best)
			continue;
		best = s;
		/* At one address the table order puts a global first. */
		while (lo - k > 1 && elf->sized[lo - k - 2]->shndx == sec->index &&
		       elf->sized[lo - k - 2]->value == s->value &&
		       addr - elf->sized[lo - k - 2]->value < elf->sized[lo - k - 2]->size)
			best = elf->sized[lo - ++k - 1];
		if (!end)
			break;
	}
	/* Otherwise the last label at or below addr, the first (global) one at its value. */
	next = best && !end ? 0 : after_last_at_or_below(elf, elf->by_addr, elf->nby_addr, 0, sec, addr);
	if (end && next < elf->nby_addr && elf->by_addr[next]->shndx == sec->index && elf->by_addr[next]->value < *end)
		*end = elf->by_addr[next]->value;
	lo = best ? 0 : next;
	if (lo && elf->by_addr[lo - 1]->shndx == sec->index) {
		best = elf->by_addr[lo - 1];
		while (lo > 1 && elf->by_addr[lo - 2]->shndx == sec->index &&
		       elf->by_addr[lo - 2]->value == best->value)
			best = elf->by_addr[--lo - 1];
	}
	if (best && off)
		*off = addr - best->value;
	return best;
}

const struct eh_elf_symbol *eh_elf_symbol_at(const struct eh_elf *elf, uint64_t addr, uint64_t *off)
{
	const struct eh_elf_section *sec = eh_elf_section_at(elf, addr);

	return sec ? symbol_in(elf, sec, addr, off, NULL) : NULL;
}

bool eh_elf_symbol_starts(const struct eh_elf *elf, uint64_t addr)
{
	const struct eh_elf_section *sec = eh_elf_section_at(elf, addr);
	size_t lo = sec ? after_last_at_or_below(elf, elf->by_addr, elf->nby_addr, 0, sec, addr) : 0;

	return lo && elf->by_addr[lo - 1]->shndx == sec->index && elf->by_addr[lo - 1]->value == addr;
}

const struct eh_elf_symbol *eh_elf_symbol_span(const struct eh_elf *elf, uint64_t addr, uint64_t *end)
{
	const struct eh_elf_section *sec = eh_elf_section_at(elf, addr);

	*end = addr + 1;
	return sec ? symbol_in(elf, sec, addr, NULL, end) : NULL;
}

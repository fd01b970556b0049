/* The engine's memory: the image's sections mapped at their addresses, zero pages on demand, screened words. */
#include "engine/machine_internal.h"

#include <sys/mman.h>

/* The host bytes of addr..+len in one of the n regions from r, or NULL. */
static uint8_t *region_ptr(const struct region *r, size_t n, uint64_t addr, uint64_t len)
{
	for (; n--; r++)
		if (addr >= r->addr && addr - r->addr < r->size && len <= r->size - (addr - r->addr))
			return r->host + (addr - r->addr);
	return NULL;
}

uint8_t *eh_machine__host_ptr(struct eh_machine *m, uint64_t addr, uint64_t len)
{
	return region_ptr(m->regions, m->nregions, addr, len);
}

static uint8_t *page_align(void *raw)
{
	return (uint8_t *)(((uintptr_t)raw + EH_PAGE - 1) & ~(uintptr_t)(EH_PAGE - 1));
}

/*
 * Map one zero page at page into every thread: 0; EH_EINVAL past
 * EH_ZERO_PAGES_MAX, EH_ENOMEM or EH_EEMU on failure.
 */
static int map_zero_page(struct eh_machine *m, uint64_t page)
{
	struct region *r;
	unsigned i;

	if (m->nzero == EH_ZERO_PAGES_MAX)
		return EH_EINVAL;
	r = eh_realloc(m->regions, (m->nregions + 1) * sizeof(*m->regions));
	if (!r)
		return EH_ENOMEM;
	m->regions = r;
	r = &m->regions[m->nregions];
	*r = (struct region){ .addr = page, .size = EH_PAGE, .raw = eh_alloc(2 * EH_PAGE) };
	if (!r->raw)
		return EH_ENOMEM;
	r->host = page_align(r->raw);
	/* Threads without an engine yet map it when they get one. */
	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].uc &&
		    uc_mem_map_ptr(m->threads[i].uc, page, EH_PAGE, UC_PROT_READ | UC_PROT_WRITE, r->host) != UC_ERR_OK) {
			/* Unmap what was mapped: no thread may keep a view of freed memory. */
			while (i--)
				if (m->threads[i].uc)
					uc_mem_unmap(m->threads[i].uc, page, EH_PAGE);
			eh_free(r->raw);
			return EH_EEMU;
		}
	m->nregions++;
	m->nzero++;
	for (i = 0; i < m->nthreads; i++)
		if (m->threads[i].uc)
			m->threads[i].nmapped = m->nregions;
	return 0;
}

bool eh_machine__on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
			void *user)
{
	struct eh_thread *t = ((const struct engine *)user)->t;
	struct eh_event ev = {
		.kind = EH_EV_PAGE, .thread = (uint8_t)t->id, .pc = t->cur ? t->cur->addr : 0,
		.addr = addr & ~(EH_PAGE - 1),
		.flags = type == UC_MEM_WRITE_UNMAPPED ? EH_INSN_STORE : EH_INSN_LOAD,
	};
	int rc;

	(void)uc;
	(void)size;
	(void)value;
	t->fault_addr = addr;
	if (!t->m->opts.zero_fill || (type != UC_MEM_READ_UNMAPPED && type != UC_MEM_WRITE_UNMAPPED))
		return false;
	/* Past EH_ZERO_PAGES_MAX the access faults, as without zero_fill: a runaway stops. */
	rc = map_zero_page(t->m, ev.addr);
	if (rc == EH_ENOMEM || rc == EH_EEMU)
		eh_machine__hook_fail(t->m, rc, "%s mapping a zero page at 0x%016" PRIx64 " for the access at 0x%016" PRIx64,
			  rc == EH_ENOMEM ? "out of memory" : "unicorn failed", ev.addr, ev.pc);
	if (rc)
		return false;
	/* Unicorn retries the access once the hook has mapped its page and returned true. */
	eh_machine__emit(t->m, &ev);
	return true;
}

/*
 * Unicorn translates a block ahead of running it, and some encodings abort the
 * process while being translated (eh_insn_emulator_unsafe). They are UNDEFINED on
 * every modelled CPU, so they are replaced by UDF #0, which is too, before any
 * thread can reach them, and the trace says where. Whether addr..+len holds any
 * executable section's words.
 */
static bool screen_code(struct eh_machine *m, uint64_t addr, uint64_t len)
{
	uint64_t a = addr & ~3ull, end = addr + len;
	bool code = false;

	while (a + 4 <= end) {
		const struct eh_elf_section *s = eh_elf_section_at(m->img->elf, a);
		uint64_t stop;

		if (!s) {
			a += 4;
			continue;
		}
		/* The rest of this section at once: a data write (a sweep's inputs) costs one look-up. */
		stop = s->addr + s->size < end ? s->addr + s->size : end;
		if (!(s->flags & SHF_EXECINSTR)) {
			a = (stop + 3) & ~3ull;
			continue;
		}
		code = true;
		for (; a < stop && a + 4 <= end; a += 4) {
			uint8_t *p = eh_machine__host_ptr(m, a, 4);
			uint32_t w;

			if (!p)
				continue;
			memcpy(&w, p, 4);
			if (eh_insn_emulator_unsafe(w)) {
				struct eh_event ev = { .kind = EH_EV_SCREENED, .pc = a, .value = w };

				memset(p, 0, 4);
				eh_machine__emit(m, &ev);
			}
		}
	}
	return code;
}

/*
 * The fixed regions' memory: one block per host thread, which its machines hold in turn, so that
 * pooled engines keep it mapped from one machine to the next (unmapping a megabyte of stacks costs
 * Unicorn a TLB flush a page, and mapping it again a rebuild of its memory map: more than most
 * scenarios run). A machine made while another holds it gets a block of its own.
 */
static _Thread_local struct {
	void *raw;
	uint8_t *host;
	bool held;
} shared_fixed;

/* The block m's fixed regions live in, with the stacks zeroed: 0, or EH_ENOMEM. */
static int fixed_take(struct eh_machine *m)
{
	if (shared_fixed.held || !shared_fixed.raw) {
		void *raw = eh_alloc(EH_FIXED_SIZE + EH_PAGE);  /* zeroed */

		if (!raw)
			return EH_ENOMEM;
		if (shared_fixed.held) {
			m->fixed_raw = raw;
			m->fixed = page_align(raw);
			return 0;
		}
		shared_fixed.raw = raw;
		shared_fixed.host = page_align(raw);
	} else if (madvise(shared_fixed.host, EH_FIXED_RETURN, MADV_DONTNEED)) {
		memset(shared_fixed.host, 0, EH_FIXED_RETURN);
	}
	/*
	 * MADV_DONTNEED drops the pages the last machine touched; on private anonymous memory they
	 * read as zeros again (madvise(2)), so only what a run dirtied costs anything to reset.
	 */
	shared_fixed.held = true;
	m->fixed = shared_fixed.host;
	return 0;
}

void eh_machine__fixed_release(struct eh_machine *m)
{
	/* A machine freed on another host thread leaves its thread's block held: no longer shared, still right. */
	if (m->fixed && m->fixed == shared_fixed.host)
		shared_fixed.held = false;
	eh_free(m->fixed_raw);
	m->fixed = NULL;
	m->fixed_raw = NULL;
}

/*
 * The most memory of image regions an engine keeps: every snippet's fits many times over, and an
 * image larger than this is not run often enough to be worth holding on to.
 */
#define EH_KEEP_MAX ((uint64_t)4 << 20)

bool eh_machine__keep(struct eh_machine *m, struct kept_code *kept)
{
	size_t i, n = 0;
	uint64_t bytes = 0;

	kept->n = 0;
	for (i = 0; i < m->nregions; i++)
		if (eh_machine__image_region(m, i)) {
			n++;
			bytes += m->regions[i].size;
		}
	if (!n || n > EH_KEPT_REGIONS || bytes > EH_KEEP_MAX)
		return false;
	for (i = 0; i < m->nregions; i++)
		if (eh_machine__image_region(m, i)) {
			kept->regions[kept->n++] = m->regions[i];
			m->regions[i].raw = NULL;  /* the engine's now */
		}
	return true;
}

bool eh_machine__kept_fits(const struct eh_machine *m, const struct kept_code *kept)
{
	size_t i, k = 0;

	if (!kept->n || m->regions_mapped)
		return false;
	for (i = 0; i < m->nregions; i++) {
		if (!eh_machine__image_region(m, i))
			continue;
		if (k == kept->n || kept->regions[k].addr != m->regions[i].addr ||
		    kept->regions[k].size != m->regions[i].size)
			return false;
		k++;
	}
	return k == kept->n;
}

/* Drop what uc translated from addr..+size of m if kept holds other bytes there. */
static uc_err drop_if_changed(struct eh_machine *m, uc_engine *uc, const struct kept_code *kept, uint64_t addr,
			      uint64_t size)
{
	const uint8_t *was = region_ptr(kept->regions, kept->n, addr, size), *now = eh_machine__host_ptr(m, addr, size);

	if (!size || (was && now && !memcmp(was, now, size)))
		return UC_ERR_OK;
	return uc_ctl_remove_cache(uc, addr, addr + size);
}

/*
 * Drop what uc translated from m's code (its executable sections and its stubs) wherever the words
 * kept holds there differ. Nothing else needs to match: on_code stops a thread before it runs
 * anything outside those, whatever was translated from it.
 */
static uc_err drop_changed(struct eh_machine *m, uc_engine *uc, const struct kept_code *kept)
{
	const struct eh_elf *elf = m->img->elf;
	uc_err e = UC_ERR_OK;
	size_t i;

	for (i = 0; i < elf->nsections && e == UC_ERR_OK; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if ((s->flags & (SHF_ALLOC | SHF_EXECINSTR)) == (SHF_ALLOC | SHF_EXECINSTR))
			e = drop_if_changed(m, uc, kept, s->addr, s->size);
	}
	if (e == UC_ERR_OK && elf->nstubs)
		e = drop_if_changed(m, uc, kept, elf->stubs[0].addr, elf->nstubs * EH_ELF_STUB_SIZE);
	return e;
}

int eh_machine__adopt(struct eh_machine *m, uc_engine *uc, struct kept_code *kept)
{
	size_t i, k;

	/* What was translated from words that differ now goes first: nothing has changed if it cannot. */
	if (drop_changed(m, uc, kept) != UC_ERR_OK)
		return EH_EEMU;
	for (i = 0, k = 0; i < m->nregions; i++) {
		struct region *r = &m->regions[i], *o;

		if (!eh_machine__image_region(m, i))
			continue;
		o = &kept->regions[k++];
		memcpy(o->host, r->host, r->size);
		eh_free(r->raw);
		r->raw = o->raw;
		r->host = o->host;
	}
	kept->n = 0;
	m->cost.kept_code++;
	return 0;
}

uc_err eh_machine__kept_unmap(uc_engine *uc, const struct kept_code *kept)
{
	uc_err e = UC_ERR_OK;
	size_t i;

	/* Translations first, while the words are mapped: unmapping leaves them for whatever maps there next. */
	for (i = 0; i < kept->n && e == UC_ERR_OK; i++)
		e = uc_ctl_remove_cache(uc, kept->regions[i].addr, kept->regions[i].addr + kept->regions[i].size);
	for (i = 0; i < kept->n && e == UC_ERR_OK; i++)
		e = uc_mem_unmap(uc, kept->regions[i].addr, kept->regions[i].size);
	return e;
}

void eh_machine__kept_free(struct kept_code *kept)
{
	size_t i;

	for (i = 0; i < kept->n; i++)
		eh_free(kept->regions[i].raw);
	kept->n = 0;
}

int eh_machine__map_image(struct eh_machine *m, struct eh_error *err)
{
	const struct eh_elf *elf = m->img->elf;
	size_t i, j, n = 0;
	static const struct { uint64_t addr, size, offset; } fixed[] = {
		{ EH_STACK_TOP - EH_MAX_THREADS * EH_STACK_SIZE, EH_MAX_THREADS * EH_STACK_SIZE, EH_FIXED_STACKS },
		{ EH_HYP_STACK_TOP - EH_MAX_THREADS * EH_STACK_SIZE, EH_MAX_THREADS * EH_STACK_SIZE, EH_FIXED_HYP_STACKS },
		{ EH_RETURN_ADDR, EH_PAGE, EH_FIXED_RETURN },
	};

	m->regions = eh_alloc((elf->nsections + 4) * sizeof(*m->regions));
	if (!m->regions)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the memory map");
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];
		uint64_t lo, hi;

		if (!(s->flags & SHF_ALLOC) || !s->size)
			continue;
		/* Host memory backs every mapped byte: refuse what no snippet or kernel needs. */
		if (s->size > EH_MAX_SECTION)
			return eh_error_set(err, EH_EINPUT, "%s: section %s is 0x%" PRIx64 " bytes, more than "
					    "the 0x%llx the harness maps", elf->path, s->name, s->size, EH_MAX_SECTION);
		lo = s->addr & ~(EH_PAGE - 1);
		hi = (s->addr + s->size + EH_PAGE - 1) & ~(EH_PAGE - 1);
		if (hi <= lo)
			return eh_error_set(err, EH_EINPUT, "%s: section %s at 0x%016" PRIx64
					    " cannot be mapped (it wraps around)", elf->path, s->name, s->addr);
		for (j = 0; j < n; j++)  /* merge with a region it touches */
			if (lo <= m->regions[j].addr + m->regions[j].size && hi >= m->regions[j].addr)
				break;
		if (j == n) {
			m->regions[n].addr = lo;
			m->regions[n++].size = hi - lo;
		} else {
			uint64_t nlo = lo < m->regions[j].addr ? lo : m->regions[j].addr;
			uint64_t end = m->regions[j].addr + m->regions[j].size;

			m->regions[j].addr = nlo;
			m->regions[j].size = (hi > end ? hi : end) - nlo;
		}
	}
	if (fixed_take(m))
		return eh_error_set(err, EH_ENOMEM, "out of memory for the stacks");
	for (j = 0; j < sizeof(fixed) / sizeof(fixed[0]); j++)
		m->regions[n++] = (struct region){ .addr = fixed[j].addr, .size = fixed[j].size,
						   .host = m->fixed + fixed[j].offset, .fixed = true };
	if (elf->nstubs) {  /* zero-filled: a load through a stub's address reads 0 */
		m->regions[n].addr = elf->stubs[0].addr;
		m->regions[n++].size = elf->nstubs * EH_ELF_STUB_SIZE;
	}
	m->nregions = n;
	for (i = 0; i < n; i++) {
		struct region *r = &m->regions[i];

		if (r->fixed)
			continue;
		r->raw = eh_alloc(r->size + EH_PAGE);
		if (!r->raw)
			return eh_error_set(err, EH_ENOMEM, "out of memory for 0x%" PRIx64 " bytes at 0x%016" PRIx64,
					    r->size, r->addr);
		r->host = page_align(r->raw);
	}
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (eh_image_copy_section(m->img, s, eh_machine__host_ptr(m, s->addr, s->size)))
			screen_code(m, s->addr, s->size);
	}
	for (i = 0; i < EH_PAGE; i += 4)  /* BRK #0: never executed, EH_RETURN_ADDR ends the run */
		memcpy(eh_machine__host_ptr(m, EH_RETURN_ADDR + i, 4), &(uint32_t){ 0xd4200000 }, 4);
	return 0;
}

int eh_machine_read(struct eh_machine *m, uint64_t addr, void *buf, size_t len, struct eh_error *err)
{
	const uint8_t *p = eh_machine__host_ptr(m, addr, len);

	if (!p)
		return eh_error_set(err, EH_ENOENT, "0x%016" PRIx64 "+%zu is not mapped", addr, len);
	memcpy(buf, p, len);
	return 0;
}

int eh_machine_write(struct eh_machine *m, uint64_t addr, const void *buf, size_t len,
		     struct eh_error *err)
{
	size_t done, n;
	unsigned i;
	bool code;

	/* Page by page: the range may span regions (a section and the zero pages after it). */
	for (done = 0; done < len; done += n) {
		n = (size_t)(EH_PAGE - ((addr + done) & (EH_PAGE - 1)));
		if (n > len - done)
			n = len - done;
		if (!eh_machine__host_ptr(m, addr + done, n))
			return eh_error_set(err, EH_ENOENT, "0x%016" PRIx64 "+%zu is not mapped", addr, len);
	}
	for (done = 0; done < len; done += n) {
		n = (size_t)(EH_PAGE - ((addr + done) & (EH_PAGE - 1)));
		if (n > len - done)
			n = len - done;
		memcpy(eh_machine__host_ptr(m, addr + done, n), (const uint8_t *)buf + done, n);
	}
	/*
	 * Code written: drop what the threads translated from it. Only an executable section's words
	 * run (on_code stops a thread anywhere else), so a write of data alone keeps the translations.
	 */
	code = screen_code(m, addr, len);
	for (i = 0; code && i < m->nthreads; i++)
		if (m->threads[i].uc) {
			m->cost.cache_drops++;
			uc_ctl_remove_cache(m->threads[i].uc, addr & ~(EH_PAGE - 1),
					    (addr + len + EH_PAGE - 1) & ~(EH_PAGE - 1));
		}
	return 0;
}

int eh_machine_map_zero(struct eh_machine *m, uint64_t addr, size_t len, struct eh_error *err)
{
	uint64_t page, end = addr + len;

	if (!len)
		return 0;
	if (end < addr)
		return eh_error_set(err, EH_EINVAL, "0x%016" PRIx64 "+%zu wraps around", addr, len);
	for (page = addr & ~(EH_PAGE - 1); page < end && page >= (addr & ~(EH_PAGE - 1)); page += EH_PAGE) {
		int rc = eh_machine__host_ptr(m, page, 1) ? 0 : map_zero_page(m, page);

		if (rc)
			return eh_error_set(err, rc, "cannot map a page at 0x%016" PRIx64 ": %s", page,
					    rc == EH_EINVAL ? "past the most zero pages a run maps"
					    : rc == EH_ENOMEM ? "out of memory" : "unicorn failed");
	}
	return 0;
}

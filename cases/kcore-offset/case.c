/* Case kcore-offset: kernel VA <-> /proc/kcore offset conversions for VA_BITS 48 and 52, before and after 86109a691a45. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "eh/case.h"
#include "kcore_offset.h"

#define SZ_64K 0x10000ull
#define SZ_2M 0x200000ull
#define SZ_16M 0x1000000ull
#define SZ_128M 0x8000000ull
#define STRUCT_PAGE_MAX_SHIFT 6  /* struct page rounded up to 64 bytes (asm/memory.h) */
#define KCORE_RANDOM 32          /* seeded addresses between the named ones, per VA size */
#define KCORE_NAMED 6            /* see named_points() */
#define KCORE_MAX (KCORE_NAMED + KCORE_RANDOM)

static const struct eh_commit commits[] = {
	{ "86109a691a45", "arm64: Fix kcore macros after 52-bit virtual addressing fallout" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "arm64 kc_vaddr_to_offset/kc_offset_to_vaddr: mask with ~PAGE_END, OR with PAGE_END",
	  "kcore_before" },
	{ "after", "the generic ones from fs/proc/kcore.c: relative to PAGE_OFFSET", "kcore_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "before", { .model = "thunderx2" }, EH_VERDICT_BUG },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "after", { .model = "thunderx2" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "macros-swapped", "EH_MUTANT_MACROS_SWAPPED",
	  "each variant built with the other's macros: the old ones now fail `after`, the new ones pass `before`",
	  (const struct eh_row[]){ { "before" }, { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP in the conversion loop: nothing changes" },
	{ 0 },
};

/* The layouts the commit message names: 48-bit VA with 4K pages, 52-bit VA (64K pages only in 5.4). */
static const struct eh_kcore_config configs[] = {
	{ .va_bits = 48, .page_shift = 12, .pud_shift = 30 },  /* 4 levels */
	{ .va_bits = 52, .page_shift = 16, .pud_shift = 42 },  /* 3 levels: PUD folded into the PGD */
};

void eh_kcore_layout(const struct eh_kcore_config *cfg, struct eh_kcore_layout *out)
{
	unsigned va_bits_min = cfg->va_bits > 48 ? 48 : cfg->va_bits;
	uint64_t vmemmap_size, vmemmap_start;

	out->va_bits = cfg->va_bits;
	out->range_size = 1ull << cfg->va_bits;
	out->page_offset = -(1ull << cfg->va_bits);
	out->page_end = -(1ull << (va_bits_min - 1));
	/* Without KASAN the BPF JIT region starts at PAGE_END; 128M of it, 128M of modules, then the image. */
	out->kimage_vaddr = out->page_end + SZ_128M + SZ_128M;
	/* vmemmap covers the linear map with one struct page per page, at the top of the range. */
	vmemmap_size = (out->page_end - out->page_offset) >> (cfg->page_shift - STRUCT_PAGE_MAX_SHIFT);
	vmemmap_start = -vmemmap_size - SZ_2M;
	/* Below vmemmap: a 2M gap, 16M of PCI I/O, a 2M gap, then the fixmap (asm/memory.h). */
	out->fixaddr_top = vmemmap_start - SZ_2M - SZ_16M - SZ_2M;
	/* VMALLOC_END = -PUD_SIZE - VMEMMAP_SIZE - SZ_64K (asm/pgtable.h). */
	out->vmalloc_end = -(1ull << cfg->pud_shift) - vmemmap_size - SZ_64K;
}

const char *eh_kcore_check_name(enum eh_kcore_check check)
{
	static const char *const names[EH_KCORE_NCHECKS] = {
		[EH_KCORE_ZERO] = "offset(PAGE_OFFSET) == 0",
		[EH_KCORE_MONOTONIC] = "monotonic",
		[EH_KCORE_ROUND_TRIP] = "vaddr(offset(v)) == v",
		[EH_KCORE_IN_RANGE] = "offset inside the TTBR1 range",
	};

	return (unsigned)check < EH_KCORE_NCHECKS ? names[check] : "?";
}

static void fail(struct eh_kcore_result *out, enum eh_kcore_check check, size_t i)
{
	if (!out->failures[check]++)
		out->first[check] = i;
}

void eh_kcore_check(const struct eh_kcore_layout *l, const uint64_t *vaddr, const uint64_t *offset,
		    const uint64_t *back, size_t n, struct eh_kcore_result *out)
{
	size_t i;

	*out = (struct eh_kcore_result){ 0 };
	for (i = 0; i < n; i++) {
		if (vaddr[i] == l->page_offset && offset[i] != 0)
			fail(out, EH_KCORE_ZERO, i);
		if (i > 0 && offset[i] <= offset[i - 1])
			fail(out, EH_KCORE_MONOTONIC, i);
		if (back[i] != vaddr[i])
			fail(out, EH_KCORE_ROUND_TRIP, i);
		if (offset[i] >= l->range_size)
			fail(out, EH_KCORE_IN_RANGE, i);
	}
}

/* An address of the layout worth naming in a report. */
struct point {
	const char *name;
	uint64_t v;
};

/* PAGE_OFFSET, PAGE_END, the kernel image start, the ends of vmalloc and fixmap, the last address. */
static void named_points(const struct eh_kcore_layout *l, struct point p[KCORE_NAMED])
{
	p[0] = (struct point){ "PAGE_OFFSET", l->page_offset };
	p[1] = (struct point){ "PAGE_END", l->page_end };
	p[2] = (struct point){ "KIMAGE_VADDR", l->kimage_vaddr };
	p[3] = (struct point){ "VMALLOC_END", l->vmalloc_end };
	p[4] = (struct point){ "FIXADDR_TOP", l->fixaddr_top };
	p[5] = (struct point){ "the last TTBR1 address", UINT64_MAX };
}

static void describe(struct eh_outcome *out, const struct eh_kcore_layout *l, uint64_t v)
{
	struct point p[KCORE_NAMED];
	unsigned i;

	eh_outcome_append(out, "0x%016" PRIx64, v);
	named_points(l, p);
	for (i = 0; i < KCORE_NAMED; i++)
		if (p[i].v == v)
			eh_outcome_append(out, " (%s)", p[i].name);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The named points and seeded random addresses of the TTBR1 range, sorted, each once. */
static size_t make_inputs(struct eh_machine *m, const struct eh_kcore_layout *l, uint64_t v[KCORE_MAX])
{
	struct point p[KCORE_NAMED];
	size_t i, j, n = 0;

	named_points(l, p);
	for (i = 0; i < KCORE_NAMED; i++)
		v[n++] = p[i].v;
	for (i = 0; i < KCORE_RANDOM; i++)
		v[n++] = l->page_offset + (eh_machine_random(m) & (l->range_size - 1));
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 1, j = 1; i < n; i++)
		if (v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

static void report(struct eh_outcome *out, const struct eh_kcore_layout *l, const uint64_t *v,
		   const uint64_t *off, const uint64_t *back, size_t n, const struct eh_kcore_result *res)
{
	unsigned c;
	size_t i;
	bool any = false;

	eh_outcome_append(out, "%sVA_BITS %u:", out->evidence[0] ? "; " : "", l->va_bits);
	for (c = 0; c < EH_KCORE_NCHECKS; c++) {
		if (!res->failures[c])
			continue;
		i = res->first[c];
		eh_outcome_append(out, "%s %s fails (%zu of %zu) at ", any ? "," : "",
				  eh_kcore_check_name(c), res->failures[c], n);
		describe(out, l, v[i]);
		eh_outcome_append(out, ": ");
		any = true;
		if (c == EH_KCORE_MONOTONIC)
			eh_outcome_append(out, "offset 0x%" PRIx64 " not above 0x%" PRIx64 ", the offset of 0x%016" PRIx64,
					  off[i], off[i - 1], v[i - 1]);
		else if (c == EH_KCORE_ROUND_TRIP)
			eh_outcome_append(out, "vaddr(0x%" PRIx64 ") = 0x%016" PRIx64, off[i], back[i]);
		else
			eh_outcome_append(out, "offset 0x%" PRIx64, off[i]);
	}
	if (!any)
		eh_outcome_append(out, " all four checks hold over %zu addresses from PAGE_OFFSET 0x%016" PRIx64
				  " (offset(PAGE_END) = 0x%" PRIx64 ", last offset 0x%" PRIx64 ")", n,
				  l->page_offset, l->page_end - l->page_offset, off[n - 1]);
}

/* For each VA size: run the variant's conversions over the inputs in one call, then check them. */
static int kcore_run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	uint64_t v[KCORE_MAX], off[KCORE_MAX], back[KCORE_MAX], buf, size, part, args[4];
	struct eh_kcore_layout l;
	struct eh_kcore_result checks;
	bool bug = false;
	char sym[64];
	size_t i, n;
	unsigned c;
	int rc;

	(void)opts;
	rc = eh_case_symbol(r, "kcore_buf", &buf, &size, err);
	if (rc)
		return rc;
	part = size / 3;
	if (part < sizeof(v))
		return eh_error_set(err, EH_EINPUT, "%s: kcore_buf holds %" PRIu64 " addresses, %zu needed",
				    r->elf->path, part / 8, sizeof(v) / 8);
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		eh_kcore_layout(&configs[i], &l);
		n = make_inputs(r->machine, &l, v);
		snprintf(sym, sizeof(sym), "%s_va%u", r->v->entry, l.va_bits);
		args[0] = buf;
		args[1] = buf + part;
		args[2] = buf + 2 * part;
		args[3] = n;
		rc = eh_machine_write(r->machine, buf, v, n * 8, err);
		if (!rc)
			rc = eh_case_call(r, sym, args, 4, NULL, err);
		if (rc)
			return rc;
		rc = eh_machine_read(r->machine, args[1], off, n * 8, err);
		if (!rc)
			rc = eh_machine_read(r->machine, args[2], back, n * 8, err);
		if (rc)
			return rc;
		eh_kcore_check(&l, v, off, back, n, &checks);
		for (c = 0; c < EH_KCORE_NCHECKS; c++)
			bug |= checks.failures[c] != 0;
		report(&r->outcome, &l, v, off, back, n, &checks);
	}
	r->outcome.verdict = bug ? EH_VERDICT_BUG : EH_VERDICT_FIXED;
	return 0;
}

const struct eh_case eh_case_kcore_offset = {
	.id = "kcore-offset",
	.commits = commits,
	.shows = "/proc/kcore offsets after the VA flip: the arm64 macros lose monotonicity and the round "
		 "trip for 48- and 52-bit VAs; the generic ones pass all four checks",
	.object = "kcore-offset.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.run = kcore_run,
};

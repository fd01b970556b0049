/* Parses `struct alt_instr` tables and re-encodes replacement instructions as the kernel's patcher does. */
#include "eh/alt.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eh/sort.h"
#include "image/alt_cb.h"

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int range_in_section(const struct eh_elf *elf, uint64_t addr, uint64_t len, bool exec)
{
	const struct eh_elf_section *s = eh_elf_section_at(elf, addr);

	if (!s || (exec && !(s->flags & SHF_EXECINSTR)))
		return 0;
	return len <= s->size - (addr - s->addr);
}

/* Rank the sites by original address (rank_site), and refuse two whose original ranges overlap. */
static int rank_sites(const struct eh_elf *elf, struct eh_alt_site *sites, size_t n, struct eh_error *err)
{
	struct eh_sort_pair *sorted = eh_alloc((n ? n : 1) * sizeof(*sorted));
	size_t i;
	int rc = 0;

	if (!sorted)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	for (i = 0; i < n; i++)
		sorted[i] = (struct eh_sort_pair){ sites[i].orig, i };
	if (eh_sort_pairs(sorted, n)) {
		eh_free(sorted);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
	}
	for (i = 0; i < n && !rc; i++) {
		const struct eh_alt_site *a = i ? &sites[sorted[i - 1].val] : NULL, *b = &sites[sorted[i].val];
		char da[128], db[128];

		sites[i].rank_site = (unsigned)sorted[i].val;
		if (a && a->orig + a->orig_len > b->orig)
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: alternative sites overlap: %s (%u bytes) and %s",
					  elf->path, eh_elf_describe(elf, a->orig, da, sizeof(da)),
					  a->orig_len, eh_elf_describe(elf, b->orig, db, sizeof(db)));
	}
	eh_free(sorted);
	return rc;
}

/*
 * Words [at, at + n) of the ELF into w, through c: 0, 1 when a section with contents does not
 * hold them all, or EH_ENOMEM or EH_EIO when the file cannot be read.
 */
static int read_range(const struct eh_elf *elf, struct eh_elf_cursor *c, uint64_t at, unsigned n, uint32_t *w,
		      struct eh_error *err)
{
	const struct eh_elf_section *s = eh_elf_section_at(elf, at);
	const uint8_t *p;
	unsigned i;
	int rc = s ? eh_elf_cursor_at(elf, c, s, at - s->addr, (size_t)n * 4, &p) : EH_ENOENT;

	if (rc == EH_ENOENT)
		return 1;
	if (rc)
		return eh_error_set(err, rc, "%s: cannot read %s at offset 0x%" PRIx64 ": %s", elf->path, s->name,
				    s->offset + (at - s->addr), strerror(errno));
	for (i = 0; i < n; i++)
		w[i] = rd32(p + 4 * i);
	return 0;
}

/*
 * Each site's words (struct eh_alt_site.words), kept after the sites in one block, so
 * that the images of a parse copy and compare words instead of reading and moving
 * them each: Debian's 6.1 vmlinux has 28,000 sites and 40 models. Read by original
 * address (rank_sites), so that the code is read a window at a time (eh_elf_cursor_at).
 */
static int read_words(const struct eh_elf *elf, struct eh_alt_site **sites, size_t n, struct eh_error *err)
{
	struct eh_elf_cursor c = { 0 };
	size_t r, total = 0;
	struct eh_alt_site *v;
	uint32_t *w;
	int rc = 0, got;

	for (r = 0; r < n; r++)
		total += 2 * ((*sites)[r].orig_len / 4u);  /* repl_len == orig_len but for callbacks */
	v = eh_realloc(*sites, (n ? n : 1) * sizeof(*v) + total * sizeof(*w));
	if (!v)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for %zu alternatives", elf->path, n);
	*sites = v;
	w = (uint32_t *)(v + (n ? n : 1));
	for (r = 0; r < n && !rc; r++) {
		struct eh_alt_site *s = &v[v[r].rank_site];
		unsigned k, norig = s->orig_len / 4u;
		uint32_t *fixed = w + norig;

		if ((got = read_range(elf, &c, s->orig, norig, w, err)) != 0) {
			rc = got < 0 ? got : 0;
			continue;  /* words NULL: the image that needs them says so */
		}
		s->words = w;
		w += 2 * norig;
		if (s->callback) {
			struct eh_alt_outcome o = { .cb_why = "" };

			memcpy(fixed, s->words, norig * sizeof(*fixed));
			if (eh_alt_cb_fixed(s, fixed, &o)) {
				s->cb_fixed = (uint8_t)o.cb_result;
				s->cb_fixed_why = o.cb_why;
			}
			continue;
		}
		for (k = 0; k < norig && !s->unfixed && !rc; k++)
			if ((got = read_range(elf, &c, s->repl + 4 * k, 1, &fixed[k], err)) ||
			    eh_alt_fixup(fixed[k], s->repl + 4 * k, s->orig + 4 * k, s->repl, s->repl + s->repl_len,
					 &fixed[k], NULL)) {
				rc = got < 0 ? got : 0;
				s->unfixed = (uint8_t)(k + 1);
			}
	}
	eh_elf_cursor_free(&c);
	return rc;
}

int eh_alt_parse(struct eh_alt_site **out, size_t *nout, const struct eh_elf *elf,
		 const struct eh_cpucaps *caps, struct eh_error *err)
{
	const struct eh_elf_section *sec = eh_elf_section_by_name(elf, ".altinstructions");
	struct eh_alt_site *sites;
	const char **names;
	size_t n, i;
	unsigned ncallbacks = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	if (!sec || !sec->size)
		return 0;
	if (!sec->data)
		return eh_error_set(err, EH_EINPUT, "%s: .altinstructions has no contents", elf->path);
	if (sec->size % EH_ALT_ENTRY_SIZE)
		return eh_error_set(err, EH_EINPUT,
				    "%s: .altinstructions is 0x%" PRIx64 " bytes, not a multiple of the %d-byte struct alt_instr",
				    elf->path, sec->size, EH_ALT_ENTRY_SIZE);
	n = sec->size / EH_ALT_ENTRY_SIZE;
	sites = eh_alloc(n * sizeof(*sites));
	/* Each number's name (eh_cpucaps_name's: its first entry's), looked up once, not once a site. */
	names = eh_alloc((caps->ncaps + 1) * sizeof(*names));
	if (!sites || !names) {
		eh_free(sites);
		eh_free(names);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for %zu alternatives", elf->path, n);
	}
	for (i = caps->ncap_entries; i-- > 0;)
		if (caps->caps[i].number < caps->ncaps)
			names[caps->caps[i].number] = caps->caps[i].name;

	for (i = 0; i < n; i++) {
		const uint8_t *e = sec->data + i * EH_ALT_ENTRY_SIZE;
		struct eh_alt_site *s = &sites[i];
		unsigned raw = e[8] | e[9] << 8;
		const struct eh_elf_extern *orig_x, *repl_x;

		s->entry = sec->addr + i * EH_ALT_ENTRY_SIZE;
		s->orig = s->entry + (uint64_t)(int64_t)(int32_t)rd32(e);
		s->repl = s->entry + 4 + (uint64_t)(int64_t)(int32_t)rd32(e + 4);
		orig_x = eh_elf_extern_at(elf, s->entry);
		repl_x = eh_elf_extern_at(elf, s->entry + 4);
		s->orig_len = e[10];
		s->repl_len = e[11];
		if (caps->cb_style == EH_ALT_CB_BIT15) {
			s->callback = raw & 0x8000;
			s->cap = raw & 0x7fff;
		} else {
			s->callback = raw == caps->ncaps;
			s->cap = raw;
		}
		if (s->cap >= caps->ncaps && !s->callback && caps->cb_style == EH_ALT_CB_NCAPS && (raw & 0x8000)) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: capability 0x%x has bit 15 set, which marks a "
					  "callback in Linux 6.x: the object looks built from a 6.x tree, not numbered "
					  "as %s",
					  elf->path, i * EH_ALT_ENTRY_SIZE, raw, caps->source);
			goto fail;
		}
		if (s->cap >= caps->ncaps && !s->callback) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: capability %u is out of range for %s (ARM64_NCAPS = %u)",
					  elf->path, i * EH_ALT_ENTRY_SIZE, s->cap, caps->source, caps->ncaps);
			goto fail;
		}
		s->cb_index = s->callback ? ncallbacks++ : 0;
		s->cap_name = s->callback && caps->cb_style == EH_ALT_CB_NCAPS ? NULL
			      : s->cap < caps->ncaps ? names[s->cap] : eh_cpucaps_name(caps, s->cap);
		if (s->orig_len % 4 || s->repl_len % 4 ||
		    (!s->callback && s->repl_len != s->orig_len)) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: lengths %u (original) and %u (replacement) must be equal multiples of 4",
					  elf->path, i * EH_ALT_ENTRY_SIZE, s->orig_len, s->repl_len);
			goto fail;
		}
		if (orig_x || (repl_x && !s->callback)) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: %s instructions are in %s, which this object does not define",
					  elf->path, i * EH_ALT_ENTRY_SIZE, orig_x ? "original" : "replacement",
					  orig_x ? orig_x->symbol : repl_x->symbol);
			goto fail;
		}
		if (repl_x) {
			/* A callback defined elsewhere (spectre_bhb_patch_loop_iter, ...): name it. */
			s->repl = 0;
			s->cb_name = repl_x->symbol;
		} else if (s->callback) {
			uint64_t off = 0;
			const struct eh_elf_symbol *sym = eh_elf_symbol_at(elf, s->repl, &off);

			s->cb_name = sym && !off ? sym->name : NULL;
		}
		s->cb_kind = s->callback ? eh_alt_cb_kind(eh_alt_cb_name(s)) : 0;
		if (!range_in_section(elf, s->orig, s->orig_len ? s->orig_len : 4, true)) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: original range 0x%" PRIx64 "+%u lies outside every executable section",
					  elf->path, i * EH_ALT_ENTRY_SIZE, s->orig, s->orig_len);
			goto fail;
		}
		if (!repl_x && !range_in_section(elf, s->repl, s->repl_len ? s->repl_len : 4, s->callback)) {
			rc = eh_error_set(err, EH_EINPUT,
					  "%s: .altinstructions+0x%zx: %s at 0x%" PRIx64 "+%u lies outside every %s section",
					  elf->path, i * EH_ALT_ENTRY_SIZE,
					  s->callback ? "callback" : "replacement", s->repl, s->repl_len,
					  s->callback ? "executable" : "allocated");
			goto fail;
		}
	}
	rc = rank_sites(elf, sites, n, err);
	if (!rc)
		rc = read_words(elf, &sites, n, err);
	if (rc)
		goto fail;
	eh_free(names);
	*out = sites;
	*nout = n;
	return 0;
fail:
	eh_free(names);
	eh_free(sites);
	return rc;
}

const char *eh_alt_cb_name(const struct eh_alt_site *s)
{
	if (!s->cb_name)
		return NULL;
	return strncmp(s->cb_name, "__kvm_nvhe_", 11) ? s->cb_name : s->cb_name + 11;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (1ull << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Re-encode an immediate branch for a new byte offset; -1 if out of range. */
static int set_branch_offset(uint32_t insn, int64_t off, uint32_t *out)
{
	unsigned bits, shift;
	uint32_t mask;

	if ((insn & 0x7c000000) == 0x14000000)
		bits = 26, shift = 0;
	else if ((insn & 0x7e000000) == 0x36000000)
		bits = 14, shift = 5;
	else
		bits = 19, shift = 5;
	if (off % 4 || off / 4 < -(1ll << (bits - 1)) || off / 4 >= (1ll << (bits - 1)))
		return -1;
	mask = ((1u << bits) - 1) << shift;
	*out = (insn & ~mask) | (((uint32_t)(off / 4) << shift) & mask);
	return 0;
}

int eh_alt_fixup(uint32_t insn, uint64_t repl_pc, uint64_t orig_pc, uint64_t repl_start,
		 uint64_t repl_end, uint32_t *out, struct eh_error *err)
{
	int is_branch_imm = (insn & 0x7c000000) == 0x14000000 || (insn & 0xff000010) == 0x54000000 ||
			    (insn & 0x7e000000) == 0x34000000 || (insn & 0x7e000000) == 0x36000000;

	*out = insn;
	if (is_branch_imm) {
		int64_t off;
		uint64_t target;

		if ((insn & 0x7c000000) == 0x14000000)
			off = sext(insn, 26) * 4;
		else if ((insn & 0x7e000000) == 0x36000000)
			off = sext(insn >> 5, 14) * 4;
		else
			off = sext(insn >> 5, 19) * 4;
		target = repl_pc + (uint64_t)off;
		/* A branch inside the replacement moves with it; one that leaves it is retargeted. */
		if (target >= repl_start && target < repl_end)
			return 0;
		if (set_branch_offset(insn, (int64_t)(target - orig_pc), out))
			return eh_error_set(err, EH_EINPUT,
					    "replacement branch at 0x%" PRIx64 " cannot reach 0x%" PRIx64 " from 0x%" PRIx64,
					    repl_pc, target, orig_pc);
		return 0;
	}
	if ((insn & 0x9f000000) == 0x90000000) {  /* ADRP: keep the page it names */
		int64_t imm = sext(((insn >> 3) & 0x1ffffc) | ((insn >> 29) & 3), 21);
		uint64_t page = (repl_pc & ~0xfffull) + (uint64_t)(imm * 4096);
		int64_t new_imm = (int64_t)(page - (orig_pc & ~0xfffull)) / 4096;

		if (new_imm < -(1ll << 20) || new_imm >= (1ll << 20))
			return eh_error_set(err, EH_EINPUT,
					    "replacement ADRP at 0x%" PRIx64 " cannot reach page 0x%" PRIx64,
					    repl_pc, page);
		*out = (insn & 0x9f00001f) | ((uint32_t)(new_imm & 3) << 29) |
		       ((uint32_t)((new_imm >> 2) & 0x7ffff) << 5);
		return 0;
	}
	/* The kernel refuses PC-relative literals in a replacement (aarch64_insn_uses_literal). */
	if ((insn & 0x9f000000) == 0x10000000 || (insn & 0x3b000000) == 0x18000000)
		return eh_error_set(err, EH_EINPUT,
				    "replacement instruction 0x%08x at 0x%" PRIx64
				    " is PC-relative (ADR or literal load), which alternatives cannot move",
				    insn, repl_pc);
	return 0;
}

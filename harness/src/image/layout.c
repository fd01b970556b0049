/* Places the sections of a relocatable AArch64 object at kernel-like addresses and applies its relocations. */
#include "image/layout.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Elf64_Rela: r_offset, r_info (symbol << 32 | type), r_addend; 24 bytes, little-endian. */
#define RELA_SIZE 24

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr(uint8_t *p, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static int fits_signed(int64_t v, unsigned bits)
{
	return v >= -(1ll << (bits - 1)) && v < (1ll << (bits - 1));
}

/* Replace bits [shift, shift + bits) of the instruction word at field with v. */
static void set_bits(uint8_t *field, unsigned shift, unsigned bits, uint64_t v)
{
	uint32_t mask = (uint32_t)(((1ull << bits) - 1) << shift);

	wr(field, (rd32(field) & ~mask) | (((uint32_t)v << shift) & mask), 4);
}

/* ADR and ADRP split their 21-bit immediate: immlo in bits 30:29, immhi in bits 23:5. */
static void set_adr_imm(uint8_t *field, int64_t imm)
{
	set_bits(field, 29, 2, (uint64_t)imm & 3);
	set_bits(field, 5, 19, (uint64_t)imm >> 2);
}

enum fit { FITS, OVERFLOW, UNKNOWN_TYPE };

/*
 * One relocation of the AArch64 ELF ABI (ELF for the Arm 64-bit Architecture,
 * relocation operations): S + A - P for PC-relative forms, Page(S + A) - Page(P)
 * for ADRP, the low 12 bits scaled by the access size for the LO12 forms, 16-bit
 * groups for MOVW. The _NC forms are not checked for overflow, as in a real link.
 */
static enum fit apply(uint8_t *field, uint32_t type, uint64_t s_a, uint64_t p)
{
	int64_t pcrel = (int64_t)(s_a - p);
	int64_t pages = (int64_t)((s_a & ~0xfffull) - (p & ~0xfffull)) / 4096;
	unsigned g;

	switch (type) {
	case R_AARCH64_ABS64:
		wr(field, s_a, 8);
		return FITS;
	case R_AARCH64_ABS32:
		wr(field, s_a, 4);
		return s_a <= UINT32_MAX || (int64_t)s_a >= INT32_MIN ? FITS : OVERFLOW;
	case R_AARCH64_PREL64:
		wr(field, (uint64_t)pcrel, 8);
		return FITS;
	case R_AARCH64_PREL32:
		wr(field, (uint64_t)pcrel, 4);
		return fits_signed(pcrel, 32) ? FITS : OVERFLOW;
	case R_AARCH64_PREL16:
		wr(field, (uint64_t)pcrel, 2);
		return fits_signed(pcrel, 16) ? FITS : OVERFLOW;
	case R_AARCH64_CALL26:
	case R_AARCH64_JUMP26:
		set_bits(field, 0, 26, (uint64_t)(pcrel >> 2));
		return fits_signed(pcrel, 28) ? FITS : OVERFLOW;
	case R_AARCH64_CONDBR19:
	case R_AARCH64_LD_PREL_LO19:
		set_bits(field, 5, 19, (uint64_t)(pcrel >> 2));
		return fits_signed(pcrel, 21) ? FITS : OVERFLOW;
	case R_AARCH64_TSTBR14:
		set_bits(field, 5, 14, (uint64_t)(pcrel >> 2));
		return fits_signed(pcrel, 16) ? FITS : OVERFLOW;
	case R_AARCH64_ADR_PREL_LO21:
		set_adr_imm(field, pcrel);
		return fits_signed(pcrel, 21) ? FITS : OVERFLOW;
	case R_AARCH64_ADR_PREL_PG_HI21:
		set_adr_imm(field, pages);
		return fits_signed(pages, 21) ? FITS : OVERFLOW;
	case R_AARCH64_ADR_PREL_PG_HI21_NC:
		set_adr_imm(field, pages);
		return FITS;
	case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC:
		set_bits(field, 10, 12, s_a & 0xfff);
		return FITS;
	case R_AARCH64_LDST16_ABS_LO12_NC:
		set_bits(field, 10, 12, (s_a & 0xfff) >> 1);
		return FITS;
	case R_AARCH64_LDST32_ABS_LO12_NC:
		set_bits(field, 10, 12, (s_a & 0xfff) >> 2);
		return FITS;
	case R_AARCH64_LDST64_ABS_LO12_NC:
		set_bits(field, 10, 12, (s_a & 0xfff) >> 3);
		return FITS;
	case R_AARCH64_LDST128_ABS_LO12_NC:
		set_bits(field, 10, 12, (s_a & 0xfff) >> 4);
		return FITS;
	case R_AARCH64_MOVW_UABS_G0:
	case R_AARCH64_MOVW_UABS_G0_NC:
	case R_AARCH64_MOVW_UABS_G1:
	case R_AARCH64_MOVW_UABS_G1_NC:
	case R_AARCH64_MOVW_UABS_G2:
	case R_AARCH64_MOVW_UABS_G2_NC:
	case R_AARCH64_MOVW_UABS_G3:
		g = (type - R_AARCH64_MOVW_UABS_G0) / 2;  /* G0, G0_NC, G1, G1_NC, G2, G2_NC, G3 */
		set_bits(field, 5, 16, s_a >> (16 * g));
		/* The checked forms: the value must fit the groups up to this one. */
		if ((type - R_AARCH64_MOVW_UABS_G0) % 2 == 0 && g < 3 && s_a >> (16 * (g + 1)))
			return OVERFLOW;
		return FITS;
	default:
		return UNKNOWN_TYPE;
	}
}

static unsigned field_size(uint32_t type)
{
	switch (type) {
	case R_AARCH64_ABS64:
	case R_AARCH64_PREL64:
		return 8;
	case R_AARCH64_PREL16:
		return 2;
	default:
		return 4;
	}
}

static int cmp_extern(const void *a, const void *b)
{
	const struct eh_elf_extern *x = a, *y = b;

	return x->where < y->where ? -1 : x->where > y->where;
}

static int add_extern(struct eh_elf *elf, size_t *cap, const struct eh_elf_extern *x)
{
	if (elf->nexterns == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct eh_elf_extern *p = eh_realloc(elf->externs, n * sizeof(*p));

		if (!p)
			return EH_ENOMEM;
		elf->externs = p;
		*cap = n;
	}
	elf->externs[elf->nexterns++] = *x;
	return 0;
}

/* Apply one relocation at target+off; an error names its type, section, offset and symbol. */
static int apply_named(const struct eh_elf *elf, const struct eh_elf_section *target, uint64_t off,
		       uint32_t type, uint64_t s_a, const char *symbol, struct eh_error *err)
{
	switch (apply(target->data + off, type, s_a, target->addr + off)) {
	case OVERFLOW:
		return eh_error_set(err, EH_EINPUT,
				    "%s: %s+0x%" PRIx64 ": relocation type %u against %s does not fit its field",
				    elf->path, target->name, off, type, symbol);
	case UNKNOWN_TYPE:
		return eh_error_set(err, EH_EINPUT,
				    "%s: %s+0x%" PRIx64 ": relocation type %u is not supported (against %s)",
				    elf->path, target->name, off, type, symbol);
	default:
		return 0;
	}
}

/* Apply one SHT_RELA section to the allocated section it relocates. */
static int relocate(struct eh_elf *elf, const struct eh_elf_section *rela, size_t *cap,
		    struct eh_error *err)
{
	struct eh_elf_section *target;
	size_t i, n;

	if (rela->info >= elf->nsections)
		return eh_error_set(err, EH_EINPUT, "%s: %s relocates section %u of %zu",
				    elf->path, rela->name, rela->info, elf->nsections);
	target = &elf->sections[rela->info];
	if (!(target->flags & SHF_ALLOC))
		return 0;  /* debugging information: nothing the harness reads */
	if (!rela->data || rela->size % RELA_SIZE)
		return eh_error_set(err, EH_EINPUT,
				    "%s: %s is 0x%" PRIx64 " bytes, not a whole number of 24-byte Elf64_Rela",
				    elf->path, rela->name, rela->size);
	if (!target->data)
		return eh_error_set(err, EH_EINPUT, "%s: %s relocates %s, which has no contents",
				    elf->path, rela->name, target->name);
	n = rela->size / RELA_SIZE;
	for (i = 0; i < n; i++) {
		const uint8_t *r = rela->data + i * RELA_SIZE;
		uint64_t off = rd64(r), info = rd64(r + 8);
		int64_t addend = (int64_t)rd64(r + 16);
		uint32_t type = (uint32_t)info, symi = (uint32_t)(info >> 32);
		const struct eh_elf_symbol *sym;
		int rc;

		if (type == R_AARCH64_NONE)
			continue;
		if (off > target->size || field_size(type) > target->size - off)
			return eh_error_set(err, EH_EINPUT,
					    "%s: %s entry %zu: offset 0x%" PRIx64 " is outside %s (0x%" PRIx64 " bytes)",
					    elf->path, rela->name, i, off, target->name, target->size);
		if (symi >= elf->nsymbols)
			return eh_error_set(err, EH_EINPUT,
					    "%s: %s entry %zu: symbol %u of %zu", elf->path, rela->name,
					    i, symi, elf->nsymbols);
		sym = &elf->symbols[symi];
		if (sym->shndx == SHN_UNDEF || sym->shndx == SHN_COMMON) {
			struct eh_elf_extern x = {
				.where = target->addr + off, .symbol = sym->name,
				.addend = addend, .type = type,
			};

			if (add_extern(elf, cap, &x))
				return eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
			continue;
		}
		rc = apply_named(elf, target, off, type, sym->value + (uint64_t)addend,
				 sym->name[0] ? sym->name : "a section", err);
		if (rc)
			return rc;
	}
	return 0;
}

int eh_elf_place(struct eh_elf *elf, struct eh_error *err)
{
	uint64_t next = EH_ELF_PLACE_BASE;
	size_t i, cap = 0;
	int rc;

	for (i = 0; i < elf->nsections; i++) {
		struct eh_elf_section *s = &elf->sections[i];
		uint64_t align = s->addralign > 4096 ? s->addralign : 4096;

		if (!(s->flags & SHF_ALLOC))
			continue;
		if (align & (align - 1) || align > (1ull << 30))
			return eh_error_set(err, EH_EINPUT, "%s: section %s: alignment 0x%" PRIx64
					    " is not a power of two up to 1 GiB", elf->path, s->name, align);
		if (s->size > (1ull << 32))
			return eh_error_set(err, EH_EINPUT, "%s: section %s: 0x%" PRIx64
					    " bytes is too large for a relocatable object", elf->path,
					    s->name, s->size);
		/* Page alignment keeps ADRP page arithmetic the same as in any real link. */
		s->addr = align_up(next, align);
		next = s->addr + s->size;
	}
	for (i = 0; i < elf->nsymbols; i++) {
		struct eh_elf_symbol *sym = &elf->symbols[i];

		if (sym->shndx == SHN_UNDEF || sym->shndx >= SHN_LORESERVE)
			continue;
		if (sym->shndx >= elf->nsections)
			return eh_error_set(err, EH_EINPUT, "%s: symbol %s: section %u of %zu", elf->path,
					    sym->name, sym->shndx, elf->nsections);
		if (elf->sections[sym->shndx].flags & SHF_ALLOC)
			sym->value += elf->sections[sym->shndx].addr;
	}
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (s->type == SHT_REL && s->info < elf->nsections &&
		    elf->sections[s->info].flags & SHF_ALLOC)
			return eh_error_set(err, EH_EINPUT,
					    "%s: %s: SHT_REL relocations are not used on AArch64", elf->path,
					    s->name);
		if (s->type != SHT_RELA)
			continue;
		rc = relocate(elf, s, &cap, err);
		if (rc)
			return rc;
	}
	if (elf->nexterns)
		qsort(elf->externs, elf->nexterns, sizeof(*elf->externs), cmp_extern);
	return 0;
}

int eh_elf_bind_stubs(struct eh_elf *elf, struct eh_error *err)
{
	uint64_t next = 0;
	size_t i, j;
	int rc;

	if (elf->stubs || !elf->nexterns)
		return 0;
	for (i = 0; i < elf->nsections; i++) {
		const struct eh_elf_section *s = &elf->sections[i];

		if (s->flags & SHF_ALLOC && s->addr + s->size > next)
			next = s->addr + s->size;
	}
	elf->stubs = eh_alloc(elf->nexterns * sizeof(*elf->stubs));
	if (!elf->stubs)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for stubs", elf->path);
	next = align_up(next, EH_ELF_STUB_SIZE);
	for (i = 0; i < elf->nexterns; i++) {
		const struct eh_elf_extern *x = &elf->externs[i];
		const struct eh_elf_section *target = eh_elf_section_at(elf, x->where);

		/* One stub per symbol, however many relocations name it. */
		for (j = 0; j < elf->nstubs && strcmp(elf->stubs[j].symbol, x->symbol); j++)
			;
		if (j == elf->nstubs) {
			elf->stubs[j].symbol = x->symbol;
			elf->stubs[j].addr = next + j * EH_ELF_STUB_SIZE;
			elf->nstubs++;
		}
		rc = apply_named(elf, target, x->where - target->addr, x->type,
				 elf->stubs[j].addr + (uint64_t)x->addend, x->symbol, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Places the sections of a relocatable AArch64 object at kernel-like addresses and applies its relocations. */
#include "eh/elf.h"

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

/*
 * One relocation of the AArch64 ELF ABI (ELF for the Arm 64-bit Architecture,
 * section 5.7): S + A - P for PC-relative forms, Page(S + A) - Page(P) for ADRP,
 * the low 12 bits scaled by the access size for the LO12 forms. Returns 0, or
 * 1 when the value does not fit the field.
 */
static int apply(uint8_t *field, uint32_t type, uint64_t s_a, uint64_t p, int *known)
{
	int64_t pcrel = (int64_t)(s_a - p);
	uint32_t insn;
	unsigned shift;

	*known = 1;
	switch (type) {
	case R_AARCH64_NONE:
		return 0;
	case R_AARCH64_ABS64:
		wr(field, s_a, 8);
		return 0;
	case R_AARCH64_ABS32:
		wr(field, s_a, 4);
		return s_a > UINT32_MAX && (int64_t)s_a < INT32_MIN;
	case R_AARCH64_PREL64:
		wr(field, (uint64_t)pcrel, 8);
		return 0;
	case R_AARCH64_PREL32:
		wr(field, (uint64_t)pcrel, 4);
		return !fits_signed(pcrel, 32);
	case R_AARCH64_PREL16:
		wr(field, (uint64_t)pcrel, 2);
		return !fits_signed(pcrel, 16);
	}
	insn = rd32(field);
	switch (type) {
	case R_AARCH64_CALL26:
	case R_AARCH64_JUMP26:
		insn = (insn & ~0x03ffffffu) | ((uint32_t)(pcrel >> 2) & 0x03ffffffu);
		break;
	case R_AARCH64_CONDBR19:
	case R_AARCH64_LD_PREL_LO19:
		insn = (insn & ~(0x7ffffu << 5)) | (((uint32_t)(pcrel >> 2) & 0x7ffffu) << 5);
		break;
	case R_AARCH64_TSTBR14:
		insn = (insn & ~(0x3fffu << 5)) | (((uint32_t)(pcrel >> 2) & 0x3fffu) << 5);
		break;
	case R_AARCH64_ADR_PREL_LO21:
		insn = (insn & 0x9f00001fu) | ((uint32_t)(pcrel & 3) << 29) |
		       ((uint32_t)((pcrel >> 2) & 0x7ffff) << 5);
		break;
	case R_AARCH64_ADR_PREL_PG_HI21:
	case R_AARCH64_ADR_PREL_PG_HI21_NC:
		pcrel = (int64_t)((s_a & ~0xfffull) - (p & ~0xfffull)) >> 12;
		insn = (insn & 0x9f00001fu) | ((uint32_t)(pcrel & 3) << 29) |
		       ((uint32_t)((pcrel >> 2) & 0x7ffff) << 5);
		wr(field, insn, 4);
		return type == R_AARCH64_ADR_PREL_PG_HI21 && !fits_signed(pcrel, 21);
	case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC:
	case R_AARCH64_LDST16_ABS_LO12_NC:
	case R_AARCH64_LDST32_ABS_LO12_NC:
	case R_AARCH64_LDST64_ABS_LO12_NC:
	case R_AARCH64_LDST128_ABS_LO12_NC:
		shift = type == R_AARCH64_LDST16_ABS_LO12_NC ? 1 : type == R_AARCH64_LDST32_ABS_LO12_NC ? 2
			: type == R_AARCH64_LDST64_ABS_LO12_NC ? 3 : type == R_AARCH64_LDST128_ABS_LO12_NC ? 4 : 0;
		insn = (insn & ~(0xfffu << 10)) | ((uint32_t)((s_a & 0xfff) >> shift) << 10);
		wr(field, insn, 4);
		return 0;
	case R_AARCH64_MOVW_UABS_G0:
	case R_AARCH64_MOVW_UABS_G0_NC:
	case R_AARCH64_MOVW_UABS_G1:
	case R_AARCH64_MOVW_UABS_G1_NC:
	case R_AARCH64_MOVW_UABS_G2:
	case R_AARCH64_MOVW_UABS_G2_NC:
	case R_AARCH64_MOVW_UABS_G3:
		shift = 16 * ((type - R_AARCH64_MOVW_UABS_G0) / 2);
		insn = (insn & ~(0xffffu << 5)) | ((uint32_t)((s_a >> shift) & 0xffff) << 5);
		wr(field, insn, 4);
		return 0;
	default:
		*known = 0;
		return 0;
	}
	wr(field, insn, 4);
	switch (type) {
	case R_AARCH64_CALL26:
	case R_AARCH64_JUMP26:
		return !fits_signed(pcrel, 28);
	case R_AARCH64_TSTBR14:
		return !fits_signed(pcrel, 16);
	case R_AARCH64_ADR_PREL_LO21:
		return !fits_signed(pcrel, 21);
	default:
		return !fits_signed(pcrel, 21);
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
		int known;

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
		if (apply(target->data + off, type, sym->value + (uint64_t)addend, target->addr + off,
			  &known))
			return eh_error_set(err, EH_EINPUT,
					    "%s: %s+0x%" PRIx64 ": relocation type %u against %s does not fit its field",
					    elf->path, target->name, off, type, sym->name[0] ? sym->name : "a section");
		if (!known)
			return eh_error_set(err, EH_EINPUT,
					    "%s: %s+0x%" PRIx64 ": relocation type %u is not supported",
					    elf->path, target->name, off, type);
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

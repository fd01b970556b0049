/* Reads an image's arm64_features[] and arm64_errata[] entries and turns the data they hold into capability rules. */
#include "image/cap_image.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/sysreg.h"

static uint32_t field_at(const uint8_t *e, uint32_t off, unsigned bytes)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint32_t)e[off + i] << (8 * i);
	return v;
}

static uint64_t pointer_at(const uint8_t *e, uint32_t off)
{
	return (uint64_t)field_at(e, off + 4, 4) << 32 | field_at(e, off, 4);
}

/* The kernel's sys_reg() encoding at off (op0 << 19 | op1 << 16 | CRn << 12 | CRm << 8 | op2 << 5, asm/sysreg.h). */
static uint32_t sysreg_at(const uint8_t *e, uint32_t off)
{
	uint32_t sr = field_at(e, off, 4);

	return EH_SYSREG(sr >> 19 & 3, sr >> 16 & 7, sr >> 12 & 0xf, sr >> 8 & 0xf, sr >> 5 & 7);
}

/*
 * The count entries of k->cap_size bytes at addr, as the loaded image holds them (pointers
 * relocated: eh_elf_pointers), into *out (eh_free it).
 */
static int read_entries(uint8_t **out, const struct eh_elf *elf, const struct eh_ktypes *k, uint64_t addr,
			size_t count, const char *sym, struct eh_error *err)
{
	size_t words = count * k->cap_size / 8, i, b;
	uint64_t *w = eh_alloc(words * sizeof(*w));
	uint8_t *bytes = eh_alloc(words * 8);
	int rc;

	*out = NULL;
	if (!w || !bytes) {
		eh_free(w);
		eh_free(bytes);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for %s", elf->path, sym);
	}
	rc = eh_elf_pointers(elf, addr, words, w, err);
	for (i = 0; i < words; i++)
		for (b = 0; b < 8; b++)
			bytes[i * 8 + b] = (uint8_t)(w[i] >> (8 * b));
	eh_free(w);
	if (rc) {
		eh_free(bytes);
		return rc;
	}
	*out = bytes;
	return 0;
}

/*
 * The function an entry's .matches names: the symbol its pointer lands on, or, in an object,
 * the symbol its relocation names when that symbol is defined elsewhere (cpu_errata.o's
 * has_spectre_v2 lives in proton-pack.o: its name is still the function's).
 */
static const char *matches_name(const struct eh_elf *elf, uint64_t ptr, uint64_t field)
{
	const struct eh_elf_extern *x;
	const struct eh_elf_symbol *fn;
	uint64_t off = 1;

	if (!ptr) {
		x = eh_elf_extern_at(elf, field);
		return x && !x->addend ? x->symbol : NULL;
	}
	fn = eh_elf_symbol_at(elf, ptr, &off);
	return fn && !off ? fn->name : NULL;
}

int eh_cap_image_read_table(struct eh_cap_image_entry **v, size_t *n, const struct eh_elf *elf,
			    const struct eh_ktypes *k, const char *sym, struct eh_error *err)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_by_name(elf, sym);
	char from[64];
	uint8_t *w = NULL;
	size_t count, i;
	int rc;

	if (!s)
		return 0;
	count = s->size / k->cap_size;
	if (!count || s->size % k->cap_size || k->cap_size % 8 || k->cap_size > EH_CAP_IMAGE_ENTRY_MAX)
		return eh_error_set(err, EH_EINPUT, "%s: %s is %" PRIu64 " bytes, not a whole number of %u-byte "
				    "struct arm64_cpu_capabilities (as %s lays it out)", elf->path, sym, s->size,
				    k->cap_size, eh_ktype_source_name(k, from, sizeof(from)));
	rc = read_entries(&w, elf, k, s->value, count, sym, err);
	if (!rc) {
		const uint8_t *last = w + (count - 1) * k->cap_size;

		if (pointer_at(last, k->desc) || pointer_at(last, k->matches) ||
		    eh_elf_extern_at(elf, s->value + (count - 1) * k->cap_size + k->matches))
			rc = eh_error_set(err, EH_EINPUT, "%s: %s does not end with an empty entry", elf->path, sym);
	}
	if (!rc) {
		struct eh_cap_image_entry *p = eh_realloc(*v, (*n + count - 1) * sizeof(*p));

		if (!p)
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory for %s", elf->path, sym);
		else
			*v = p;
	}
	for (i = 0; !rc && i + 1 < count; i++) {
		const uint8_t *e = w + i * k->cap_size;
		uint64_t at = s->value + i * k->cap_size, desc = pointer_at(e, k->desc);
		struct eh_cap_image_entry *x = &(*v)[(*n)++];

		*x = (struct eh_cap_image_entry){
			.table = sym, .index = i, .addr = at, .cap = field_at(e, k->capability, 2),
			.type = field_at(e, k->type, 2),
			.matches = matches_name(elf, pointer_at(e, k->matches), at + k->matches),
		};
		memcpy(x->bytes, e, k->cap_size);
		if (k->sys_reg != EH_KTYPE_NONE && k->field_pos != EH_KTYPE_NONE) {
			x->field_reg = sysreg_at(e, k->sys_reg);
			x->field_shift = e[k->field_pos];
		}
		if (desc && !(x->desc = eh_elf_string(elf, desc)))
			rc = eh_error_set(err, EH_EINPUT, "%s: %s[%zu]: its desc 0x%" PRIx64 " is not a string in the file",
					  elf->path, sym, i, desc);
		else if (!pointer_at(e, k->matches) && !x->matches)
			rc = eh_error_set(err, EH_EINPUT, "%s: %s[%zu] has no matches function", elf->path, sym, i);
	}
	eh_free(w);
	return rc;
}


/* The rules and everything they point to: one list of allocations, freed together. */
struct rules_owned {
	struct eh_cap_rules r;
	void **held;
	size_t nheld, cap;
};

static void *hold(struct rules_owned *o, size_t size)
{
	void *p;

	if (o->nheld == o->cap) {
		size_t n = o->cap ? o->cap * 2 : 64;
		void **q = eh_realloc(o->held, n * sizeof(*q));

		if (!q)
			return NULL;
		o->held = q;
		o->cap = n;
	}
	p = eh_alloc(size);
	if (p)
		o->held[o->nheld++] = p;
	return p;
}

static const char *hold_str(struct rules_owned *o, const char *s)
{
	char *p;

	if (!s)
		return NULL;
	p = hold(o, strlen(s) + 1);
	if (p)
		memcpy(p, s, strlen(s) + 1);
	return p;
}

void eh_cap_rules_free(struct eh_cap_rules *rules)
{
	struct rules_owned *o = (struct rules_owned *)rules;
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nheld; i++)
		eh_free(o->held[i]);
	eh_free(o->held);
	eh_free(o);
}

/* What the decoding of one entry needs. */
struct decoder {
	struct rules_owned *o;
	const struct eh_elf *elf;
	const struct eh_ktypes *k;
	const struct eh_cap_rules *hand;
	struct eh_error *err;
};

enum { NOT_DATA = 0, DECODED = 1 };

/* The name hand's rules give the CPU of MIDR model, else "MIDR 0x...". */
static const char *cpu_name(const struct decoder *d, uint32_t model)
{
	const struct eh_capability *c, *e;
	const struct eh_midr_range *r;
	char buf[32];

	for (c = d->hand ? d->hand->caps : NULL; c && c->name; c++) {
		for (r = c->midr; r && r->model; r++)
			if (r->model == model)
				return r->cpu;
		for (e = c->any; e && e->matches; e++)
			for (r = e->midr; r && r->model; r++)
				if (r->model == model)
					return r->cpu;
	}
	snprintf(buf, sizeof(buf), "MIDR 0x%08x", model);
	return hold_str(d->o, buf);
}

/* The Arm ARM name hand's rules give the field at shift of reg, else "field". */
static const char *field_name(const struct decoder *d, uint32_t reg, unsigned shift)
{
	const struct eh_capability *c;

	for (c = d->hand ? d->hand->caps : NULL; c && c->name; c++)
		if (c->field.reg == reg && c->field.shift == shift && c->field.name)
			return c->field.name;
	return "field";
}

/* One struct midr_range at e into r: rv_min/rv_max are variant << 20 | revision (asm/cputype.h MIDR_RANGE). */
static int midr_at(const struct decoder *d, const uint8_t *e, struct eh_midr_range *r)
{
	const struct eh_ktypes *k = d->k;
	uint32_t model = field_at(e, k->midr_model, 4), lo = field_at(e, k->midr_rv_min, 4),
		 hi = field_at(e, k->midr_rv_max, 4);

	*r = (struct eh_midr_range){
		.cpu = cpu_name(d, model), .model = model,
		.var_min = (uint8_t)(lo >> 20 & 0xf), .rev_min = (uint8_t)(lo & 0xf),
		.var_max = (uint8_t)(hi >> 20 & 0xf), .rev_max = (uint8_t)(hi & 0xf),
	};
	return r->cpu ? 0 : EH_ENOMEM;
}

/* Entries of size bytes from addr up to the one whose 32-bit field at off is 0, at most max: their count. */
static int count_to_zero(const struct decoder *d, uint64_t addr, uint32_t size, uint32_t off, size_t max,
			 size_t *n, const char *what)
{
	const uint8_t *p;

	for (*n = 0; *n < max; (*n)++) {
		p = eh_elf_bytes(d->elf, addr + *n * size, size);
		if (!p)
			return eh_error_set(d->err, EH_EINPUT, "%s: %s at 0x%" PRIx64 " runs outside every section",
					    d->elf->path, what, addr);
		if (!field_at(p, off, 4))
			return 0;
	}
	return eh_error_set(d->err, EH_EINPUT, "%s: %s at 0x%" PRIx64 " has no terminating entry in %zu",
			    d->elf->path, what, addr, max);
}

static int midr_list(const struct decoder *d, uint64_t addr, const struct eh_midr_range **out)
{
	struct eh_midr_range *r;
	size_t n, i;
	int rc = count_to_zero(d, addr, d->k->midr_size, d->k->midr_model, 256, &n, "a struct midr_range list");

	if (rc)
		return rc;
	r = hold(d->o, (n + 1) * sizeof(*r));
	if (!r)
		return EH_ENOMEM;
	for (i = 0; !rc && i < n; i++)
		rc = midr_at(d, eh_elf_bytes(d->elf, addr + i * d->k->midr_size, d->k->midr_size), &r[i]);
	*out = r;
	return rc;
}

/* struct arm64_midr_revidr fixed_revs[], up to the entry with no revidr_mask (is_affected_midr_range()). */
static int revidr_list(const struct decoder *d, uint64_t addr, const struct eh_midr_fix **out)
{
	const struct eh_ktypes *k = d->k;
	struct eh_midr_fix *f;
	size_t n, i;
	int rc = count_to_zero(d, addr, k->revidr_size, k->revidr_mask, 64, &n, "a struct arm64_midr_revidr list");

	if (rc)
		return rc;
	f = hold(d->o, (n + 1) * sizeof(*f));
	if (!f)
		return EH_ENOMEM;
	for (i = 0; i < n; i++) {
		const uint8_t *p = eh_elf_bytes(d->elf, addr + i * k->revidr_size, k->revidr_size);
		uint32_t rv = field_at(p, k->revidr_midr_rv, 4);

		f[i] = (struct eh_midr_fix){ (uint8_t)(rv >> 20 & 0xf), (uint8_t)(rv & 0xf),
					     field_at(p, k->revidr_mask, 4) };
	}
	*out = f;
	return 0;
}

/* A field value as cpuid_feature_extract_field_width() reads it: sign-extended from width bits when signed. */
static int field_value(unsigned raw, unsigned width, bool sign)
{
	if (sign && width < 32 && (raw >> (width - 1)) & 1)
		return (int)(raw | ~((1u << width) - 1));
	return (int)raw;
}

/*
 * has_cpuid_feature(): the register (sysreg_at), field_pos, field_width, sign and min_field_value
 * (6.1's feature_matches(): val >= min); 6.12 adds max_field_value, both read as fields
 * (val >= min && val <= max).
 */
static int cpuid_field(const struct decoder *d, const uint8_t *e, struct eh_id_field *f)
{
	const struct eh_ktypes *k = d->k;
	unsigned width, min;
	int lo, hi = 0;

	if (k->sys_reg == EH_KTYPE_NONE || k->field_pos == EH_KTYPE_NONE || k->min_field_value == EH_KTYPE_NONE ||
	    k->sign == EH_KTYPE_NONE)
		return NOT_DATA;
	width = k->field_width == EH_KTYPE_NONE ? 4 : e[k->field_width];
	min = e[k->min_field_value];
	*f = (struct eh_id_field){
		.reg = sysreg_at(e, k->sys_reg), .shift = e[k->field_pos], .width = (uint8_t)width, .sign = e[k->sign] != 0,
	};
	if (!width || width > 8 || f->shift + width > 64)
		return NOT_DATA;
	f->name = field_name(d, f->reg, f->shift);
	if (k->max_field_value == EH_KTYPE_NONE) {
		lo = (int)min;
	} else {
		lo = field_value(min, width, f->sign);
		hi = field_value(e[k->max_field_value], width, f->sign);
		f->bounded = true;
	}
	if (lo < INT8_MIN || lo > INT8_MAX || hi < INT8_MIN || hi > INT8_MAX)
		return NOT_DATA;
	f->min = (int8_t)lo;
	f->max = (int8_t)hi;
	return DECODED;
}

static int decode(const struct decoder *d, const uint8_t *e, const char *matches, struct eh_capability *c,
		  bool top);

/* cpucap_multi_entry_cap_matches(): the entries of match_list up to the one with no .matches (at most 64). */
static int match_list(const struct decoder *d, uint64_t addr, struct eh_capability *c)
{
	const struct eh_ktypes *k = d->k;
	struct eh_capability *any = hold(d->o, 65 * sizeof(*any));
	size_t i;
	int rc = DECODED;

	if (!any)
		return EH_ENOMEM;
	for (i = 0; rc == DECODED; i++) {
		uint64_t at = addr + i * k->cap_size;
		uint8_t *e = NULL;
		int got;

		if (i == 64)
			return eh_error_set(d->err, EH_EINPUT, "%s: the match_list at 0x%" PRIx64 " has no empty entry "
					    "in 64", d->elf->path, addr);
		got = read_entries(&e, d->elf, k, at, 1, "a match_list", d->err);
		if (got)
			return got;
		any[i] = (struct eh_capability){ .name = c->name, .type = c->type,
						 .kernel_matches = matches_name(d->elf, pointer_at(e, k->matches),
										at + k->matches) };
		if (!pointer_at(e, k->matches) && !eh_elf_extern_at(d->elf, at + k->matches)) {
			any[i] = (struct eh_capability){ 0 };
			eh_free(e);
			break;
		}
		rc = any[i].kernel_matches ? decode(d, e, any[i].kernel_matches, &any[i], false) : NOT_DATA;
		eh_free(e);
	}
	if (rc != DECODED)
		return rc;
	c->any = any;
	c->matches = eh_cap_any;
	return DECODED;
}

/*
 * Decide c from the data of the entry e whose .matches is the function matches:
 * DECODED, NOT_DATA when matches is not one of the data predicates (or its data cannot be
 * restated), or a negative error.
 */
static int decode(const struct decoder *d, const uint8_t *e, const char *matches, struct eh_capability *c,
		  bool top)
{
	const struct eh_ktypes *k = d->k;
	struct eh_midr_range *one;
	int rc;

	if (!strcmp(matches, "has_always")) {
		c->matches = eh_cap_always;
		return DECODED;
	}
	if (!strcmp(matches, "has_cpuid_feature")) {
		rc = cpuid_field(d, e, &c->field);
		if (rc == DECODED)
			c->matches = eh_cap_has_field;
		return rc;
	}
	if (k->midr_range == EH_KTYPE_NONE)
		return NOT_DATA;
	if (!strcmp(matches, "is_affected_midr_range")) {
		uint64_t fixed = pointer_at(e, k->fixed_revs);

		one = hold(d->o, 2 * sizeof(*one));
		if (!one || midr_at(d, e + k->midr_range, one))
			return EH_ENOMEM;
		c->midr = one;
		if (fixed && (rc = revidr_list(d, fixed, &c->fixed)))
			return rc;
		c->matches = eh_cap_midr_affected;
		return DECODED;
	}
	if (!strcmp(matches, "is_affected_midr_range_list")) {
		uint64_t list = pointer_at(e, k->midr_range_list);

		if (!list)
			return NOT_DATA;  /* a list another object defines */
		if ((rc = midr_list(d, list, &c->midr)))
			return rc;
		c->matches = eh_cap_midr_affected;
		return DECODED;
	}
	if (top && !strcmp(matches, "cpucap_multi_entry_cap_matches")) {
		uint64_t list = pointer_at(e, k->match_list);

		return list ? match_list(d, list, c) : NOT_DATA;
	}
	return NOT_DATA;
}

/* The kernel's predicates decided by an entry's data alone (decode()). */
static bool data_predicate(const char *fn)
{
	static const char *const data[] = {
		"has_always", "has_cpuid_feature", "is_affected_midr_range", "is_affected_midr_range_list",
		"cpucap_multi_entry_cap_matches",
	};
	size_t i;

	for (i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		if (!strcmp(fn, data[i]))
			return true;
	return false;
}

/* The ordinal-th rule of hand for capability name with .matches fn (5.x lists some more than once), else the first. */
static const struct eh_capability *hand_rule(const struct eh_cap_rules *hand, const char *name, const char *fn,
					     size_t ordinal)
{
	const struct eh_capability *c, *first = NULL;

	for (c = hand ? hand->caps : NULL; c && c->name; c++) {
		if (strcmp(c->name, name) || !c->kernel_matches || !fn || strcmp(c->kernel_matches, fn))
			continue;
		if (!ordinal--)
			return c;
		if (!first)
			first = c;
	}
	return first;
}

static bool in_image(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

int eh_cap_rules_from_image(struct eh_cap_rules **out, const struct eh_elf *elf, const struct eh_ktypes *k,
			    const struct eh_cap_image_entry *v, const char *const *names, size_t n,
			    const struct eh_cap_rules *hand, struct eh_error *err)
{
	struct rules_owned *o = eh_alloc(sizeof(*o));
	struct decoder d = { o, elf, k, hand, err };
	struct eh_capability *caps;
	const struct eh_capability *h;
	size_t i, j, extra = 0;
	int rc = 0;

	*out = NULL;
	if (!o)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for its capability rules", elf->path);
	for (h = hand ? hand->caps : NULL; h && h->name; h++)
		extra += !in_image(names, n, h->name);
	caps = hold(o, (n + extra + 1) * sizeof(*caps));
	if (!caps) {
		eh_cap_rules_free(&o->r);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory for its capability rules", elf->path);
	}
	o->r.kernel = hand ? hand->kernel : "?";
	o->r.caps = caps;
	for (i = 0; !rc && i < n; i++) {
		struct eh_capability *c = &caps[i];
		char why[160];
		size_t before = 0;

		*c = (struct eh_capability){
			.name = hold_str(o, names[i]), .desc = hold_str(o, v[i].desc), .type = v[i].type,
			.kernel_matches = hold_str(o, v[i].matches ? v[i].matches : "?"), .source = EH_CAP_FROM_IMAGE,
		};
		if (!c->name || !c->kernel_matches || (v[i].desc && !c->desc)) {
			rc = EH_ENOMEM;
			break;
		}
		rc = v[i].matches ? decode(&d, v[i].bytes, v[i].matches, c, true) : NOT_DATA;
		if (rc < 0)
			break;
		if (rc == DECODED) {
			rc = 0;
			continue;
		}
		rc = 0;
		for (j = 0; j < i; j++)
			before += !strcmp(names[j], names[i]) && v[j].matches && v[i].matches &&
				  !strcmp(v[j].matches, v[i].matches);
		h = hand_rule(hand, names[i], v[i].matches, before);
		if (h) {
			*c = *h;
			c->source = EH_CAP_FROM_HAND;
			continue;
		}
		if (data_predicate(c->kernel_matches))
			snprintf(why, sizeof(why), "%s() over data the image does not hold", c->kernel_matches);
		else
			snprintf(why, sizeof(why), "%s(), code the harness has no rule for", c->kernel_matches);
		c->matches = eh_cap_uncertain;
		c->rule = hold_str(o, why);
		c->assumed = "not detected";
		c->source = EH_CAP_UNCERTAIN;
		if (!c->rule)
			rc = EH_ENOMEM;
	}
	/* What the image has no entry for (its #ifdef off) stays the hand rules', configured out as before. */
	for (h = hand ? hand->caps : NULL, j = n; !rc && h && h->name; h++)
		if (!in_image(names, n, h->name))
			caps[j++] = *h;
	if (rc) {
		eh_cap_rules_free(&o->r);
		if (rc == EH_ENOMEM)
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory for its capability rules", elf->path);
		return rc;
	}
	*out = &o->r;
	return 0;
}

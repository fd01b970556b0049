/* The capability rule engine: the kernel's generic predicates, deciding a capability, and saying why. */
#include "eh/cap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eh/kconfig.h"
#include "eh/sysreg.h"

/* MIDR_EL1 masks (asm/cputype.h MIDR_CPU_MODEL_MASK and the variant/revision pair). */
#define MIDR_MODEL_MASK 0xff0ffff0u
#define MIDR_VAR_REV_MASK 0x00f0000fu
#define MIDR_VAR_REV(var, rev) (((uint32_t)(var) << 20) | (rev))

/* A config condition: one CONFIG_ symbol, or several separated by '|' of which one must be on. */
static bool config_on(const char *expr, const struct eh_target *t)
{
	char sym[128];
	const char *p = expr, *bar;

	if (!expr)
		return true;
	for (;;) {
		size_t n;

		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (n < sizeof(sym)) {
			memcpy(sym, p, n);
			sym[n] = 0;
			if (eh_kconfig_enabled(t->config, sym))
				return true;
		}
		if (!bar)
			return false;
		p = bar + 1;
	}
}

const struct eh_cap_rules *eh_cap_rules_find(const char *kernel)
{
	const struct eh_cap_rules *const *r;

	for (r = eh_cap_rules_all; *r; r++)
		if (!strcmp((*r)->kernel, kernel))
			return *r;
	return NULL;
}

const char *eh_cap_scope_name(enum eh_cap_type type)
{
	switch (type & 7) {
	case 1: return "local CPU";
	case 2: return "system";
	default: return "boot CPU";
	}
}

int64_t eh_id_field_value(const struct eh_model *model, const struct eh_id_field *f)
{
	uint64_t reg = 0, v;

	eh_model_id_reg(model, f->reg, &reg);
	v = f->width >= 64 ? reg : (reg >> f->shift) & ((1ull << f->width) - 1);
	/* cpuid_feature_extract_signed_field_width(): a signed field is sign-extended from its top bit. */
	if (f->sign && f->width < 64 && (v >> (f->width - 1)) & 1)
		return (int64_t)(v | ~((1ull << f->width) - 1));
	return (int64_t)v;
}

bool eh_cap_always(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	(void)t;
	return true;
}

bool eh_cap_has_field(const struct eh_capability *cap, const struct eh_target *t)
{
	int64_t v = eh_id_field_value(t->model, &cap->field);

	return v >= cap->field.min && (!cap->field.bounded || v <= cap->field.max);
}

bool eh_cap_uncertain(const struct eh_capability *cap, const struct eh_target *t)
{
	(void)cap;
	(void)t;
	return false;
}

const char *eh_cap_source_name(enum eh_cap_source source)
{
	switch (source) {
	case EH_CAP_FROM_IMAGE: return "image data";
	case EH_CAP_UNCERTAIN: return "uncertain";
	default: return "hand rule";
	}
}

bool eh_cap_midr_in(const struct eh_midr_range *ranges, const struct eh_target *t)
{
	uint32_t midr = eh_model_boot_core(t->model)->midr;
	const struct eh_midr_range *r;

	for (r = ranges; r && r->model; r++) {
		uint32_t rv = midr & MIDR_VAR_REV_MASK;

		if (!config_on(r->config, t))
			continue;
		if ((midr & MIDR_MODEL_MASK) == r->model && rv >= MIDR_VAR_REV(r->var_min, r->rev_min) &&
		    rv <= MIDR_VAR_REV(r->var_max, r->rev_max))
			return true;
	}
	return false;
}

bool eh_midr_affected(const struct eh_midr_range *ranges, const struct eh_midr_fix *fixed,
		      const struct eh_target *t)
{
	const struct eh_midr_fix *f;
	const struct eh_model *cpu = eh_model_boot_core(t->model);
	uint32_t rv = cpu->midr & MIDR_VAR_REV_MASK;

	if (!eh_cap_midr_in(ranges, t))
		return false;
	for (f = fixed; f && f->revidr_mask; f++)
		if (rv == MIDR_VAR_REV(f->var, f->rev) && (cpu->revidr & f->revidr_mask))
			return false;
	return true;
}

bool eh_cap_midr_affected(const struct eh_capability *cap, const struct eh_target *t)
{
	return eh_midr_affected(cap->midr, cap->fixed, t);
}

bool eh_cap_any(const struct eh_capability *cap, const struct eh_target *t)
{
	const struct eh_capability *e;

	for (e = cap->any; e && e->matches; e++)
		if (config_on(e->config, t) && e->matches(e, t))
			return true;
	return false;
}

/*
 * Whether entry c matches on target t. On a system of cores, at the scope of its type, as
 * Linux detects capabilities (cpufeature.c): a local-CPU entry (errata, weak local features)
 * is checked on each CPU as it comes up and set when any matches (update_cpu_capabilities()
 * with SCOPE_LOCAL_CPU); a boot-CPU entry on the boot CPU alone (setup_boot_cpu_capabilities());
 * a system entry once, on the sanitised ID registers (eh_model_id_reg() of the system).
 */
static bool entry_matches(const struct eh_capability *c, const struct eh_target *t)
{
	struct eh_target core = *t;
	const struct eh_model *const *m;

	if (!t->model->cores)
		return c->matches(c, t);
	switch (c->type & 7) {
	case 1:
		for (m = t->model->cores; *m; m++) {
			core.model = *m;
			if (c->matches(c, &core))
				return true;
		}
		return false;
	case 4:
		core.model = eh_model_boot_core(t->model);
		return c->matches(c, &core);
	default:
		return c->matches(c, t);
	}
}

enum eh_cap_state eh_cap_decide(const struct eh_cap_rules *rules, const struct eh_target *t, const char *name,
				const struct eh_capability **rule)
{
	const struct eh_capability *c, *first = NULL, *built = NULL;

	for (c = rules->caps; c->name; c++) {
		if (strcmp(c->name, name))
			continue;
		if (!first)
			first = c;
		if (!config_on(c->config, t))
			continue;
		if (!built)
			built = c;
		if (entry_matches(c, t)) {
			if (rule)
				*rule = c;
			return EH_CAP_DETECTED;
		}
	}
	if (rule)
		*rule = built ? built : first;
	if (!first)
		return EH_CAP_UNKNOWN;
	return built ? EH_CAP_NOT_DETECTED : EH_CAP_CONFIGURED_OUT;
}

bool eh_cap_detected(const struct eh_cap_rules *rules, const struct eh_target *t, const char *name)
{
	return eh_cap_decide(rules, t, name, NULL) == EH_CAP_DETECTED;
}

/* Append to buf at *pos, never past len. */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t)n < len ? *pos + (size_t)n : len;
}

static void explain_field(const struct eh_id_field *f, const struct eh_target *t, char *buf, size_t len, size_t *pos)
{
	char name[32];

	put(buf, len, pos, "%s.%s [%u:%u]%s >= %d", eh_sysreg_name(f->reg, name, sizeof(name)), f->name,
	    f->shift + f->width - 1, f->shift, f->sign ? " (signed)" : "", f->min);
	if (f->bounded)
		put(buf, len, pos, " and <= %d", f->max);
	if (t)
		put(buf, len, pos, " (is %" PRId64 ")", eh_id_field_value(t->model, f));
}

static void explain_midr(const struct eh_capability *cap, char *buf, size_t len, size_t *pos)
{
	const struct eh_midr_range *r;
	const struct eh_midr_fix *f;

	put(buf, len, pos, "MIDR_EL1 in");
	for (r = cap->midr; r && r->model; r++) {
		put(buf, len, pos, "%s %s", r == cap->midr ? "" : ",", r->cpu);
		if (r->var_min == r->var_max && r->rev_min == r->rev_max)
			put(buf, len, pos, " r%up%u", r->var_min, r->rev_min);
		else if (r->var_min || r->rev_min || r->var_max != 0xf || r->rev_max != 0xf)
			put(buf, len, pos, " r%up%u-r%up%u", r->var_min, r->rev_min, r->var_max, r->rev_max);
		/* A run of lines under one #ifdef names it once, after its last line. */
		if (r->config && !(r[1].model && r[1].config && !strcmp(r[1].config, r->config)))
			put(buf, len, pos, " (%s)", r->config);
	}
	for (f = cap->fixed; f && f->revidr_mask; f++)
		put(buf, len, pos, ", r%up%u fixed where REVIDR_EL1 & 0x%x", f->var, f->rev, f->revidr_mask);
}

static void explain(const struct eh_capability *cap, const struct eh_target *t, char *buf, size_t len,
		    size_t *pos)
{
	const struct eh_capability *e;

	if (cap->matches == eh_cap_has_field) {
		explain_field(&cap->field, t, buf, len, pos);
	} else if (cap->matches == eh_cap_midr_affected) {
		explain_midr(cap, buf, len, pos);
	} else if (cap->matches == eh_cap_any) {
		put(buf, len, pos, "any of: ");
		for (e = cap->any; e && e->matches; e++) {
			put(buf, len, pos, "%s", e == cap->any ? "" : "; ");
			explain(e, NULL, buf, len, pos);
			if (e->config)
				put(buf, len, pos, " (%s)", e->config);
		}
	} else if (cap->matches == eh_cap_always) {
		put(buf, len, pos, "always");
	} else {
		put(buf, len, pos, "%s", cap->rule ? cap->rule : "?");
	}
}

const char *eh_cap_explain(const struct eh_capability *cap, const struct eh_target *t, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = 0;
	explain(cap, t, buf, len, &pos);
	if (t && cap->matches == eh_cap_midr_affected)
		put(buf, len, &pos, " (MIDR_EL1 0x%08x)", eh_model_boot_core(t->model)->midr);
	if (cap->assumed)
		put(buf, len, &pos, "; assumed: %s", cap->assumed);
	return buf;
}

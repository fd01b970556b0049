/* Kernel capabilities decided as the kernel decides them: one declarative rule table per kernel version. */
#ifndef EH_CAP_H
#define EH_CAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/model.h"

/*
 * The kernel's ARM64_CPUCAP_* types (asm/cpufeature.h): the scope in bits 2:0
 * (1 local CPU, 2 system, 4 boot CPU) and the late-CPU and conflict flags above.
 * Two of the kernel's names share a value.
 */
enum eh_cap_type {
	EH_CAP_LOCAL_CPU_ERRATUM = 0x21,              /* SCOPE_LOCAL_CPU | OPTIONAL_FOR_LATE_CPU */
	EH_CAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE = 0x21,
	EH_CAP_SYSTEM_FEATURE = 0x12,                 /* SCOPE_SYSTEM | PERMITTED_FOR_LATE_CPU */
	EH_CAP_WEAK_LOCAL_CPU_FEATURE = 0x31,         /* SCOPE_LOCAL_CPU | both late-CPU flags */
	EH_CAP_STRICT_BOOT_CPU_FEATURE = 0x44,        /* SCOPE_BOOT_CPU | PANIC_ON_CONFLICT */
	EH_CAP_BOOT_CPU_FEATURE = 0x14,               /* SCOPE_BOOT_CPU | PERMITTED_FOR_LATE_CPU */
};

/* "local CPU", "system" or "boot CPU": the scope of a type. */
const char *eh_cap_scope_name(enum eh_cap_type type);

/* An ID register field and the least value that detects a feature (the kernel's feature_matches()). */
struct eh_id_field {
	uint32_t reg;       /* EH_SYSREG() encoding, 0 when the rule reads no field */
	const char *name;   /* the field's name in the Arm ARM: "Atomic" */
	uint8_t shift, width;
	bool sign;          /* FTR_SIGNED: the field is a two's complement number */
	int8_t min;         /* min_field_value */
	bool bounded;       /* 6.12's feature_matches(): also at most max (max_field_value) */
	int8_t max;
};

/* The field's value in the model's register (a register the model does not list reads as 0). */
int64_t eh_id_field_value(const struct eh_model *model, const struct eh_id_field *f);

/*
 * CPUs by MIDR_EL1 (struct midr_range): one implementer and part, from variant
 * var_min revision rev_min to var_max rev_max inclusive.
 */
struct eh_midr_range {
	const char *cpu;     /* "Cortex-A53", for people */
	uint32_t model;      /* EH_MIDR(implementer, 0, part, 0) */
	uint8_t var_min, rev_min, var_max, rev_max;
	const char *config;  /* a Kconfig symbol of this line alone (an #ifdef inside the list), or NULL */
};

#define EH_MIDR_ALL_VERSIONS(name, m) { (name), (m), 0, 0, 0xf, 0xf, NULL }

/* A revision that REVIDR_EL1 marks fixed (struct arm64_midr_revidr): bits of revidr_mask set. */
struct eh_midr_fix {
	uint8_t var, rev;
	uint32_t revidr_mask;
};

/* Where a capability's rule came from. */
enum eh_cap_source {
	EH_CAP_FROM_HAND,      /* a rule of models/caps_linux_*.c, restated from one kernel version's source */
	EH_CAP_FROM_IMAGE,     /* the image's own entry: its MIDR ranges, REVIDR fixes or ID register field */
	EH_CAP_UNCERTAIN,      /* the image's entry names a .matches the harness has no rule for */
};

/* "hand rule", "image data", "uncertain". */
const char *eh_cap_source_name(enum eh_cap_source source);

/*
 * How one kernel version detects one capability: an entry of arm64_features[]
 * (cpufeature.c) or arm64_errata[] (cpu_errata.c), restated. A capability may
 * have several entries (5.x lists some errata once per CPU range); it is detected
 * when any of them matches.
 */
struct eh_capability {
	const char *name;           /* "ARM64_HAS_LSE_ATOMICS" */
	const char *desc;           /* the kernel's .desc, exactly (an image's tables name entries by it); NULL: none */
	const char *config;         /* the #ifdef around the entry; NULL: always built */
	enum eh_cap_type type;
	const char *kernel_matches; /* the kernel's .matches function: names entries without a desc in an image */
	bool (*matches)(const struct eh_capability *cap, const struct eh_target *t);
	struct eh_id_field field;             /* for eh_cap_has_field */
	const struct eh_midr_range *midr;     /* for eh_cap_midr_affected; ends with { 0 } */
	const struct eh_midr_fix *fixed;      /* revisions fixed by a REVIDR bit; ends with { 0 } */
	const struct eh_capability *any;      /* for eh_cap_any (a match_list); ends with { 0 } */
	const char *rule;           /* what a predicate of its own decides from, for people */
	const char *assumed;        /* NULL when modelled; else what the harness assumes, and why */
	enum eh_cap_source source;
};

/* The rules of one kernel version, in the order of arm64_features[] then arm64_errata[]. */
struct eh_cap_rules {
	const char *kernel;                /* "6.1" */
	const struct eh_capability *caps;  /* ends with { 0 } */
	const char *checked;               /* the tree the table was compared with and how; NULL: never checked */
};

/* Every kernel version with rules (models/caps_linux_*.c), NULL-terminated. */
extern const struct eh_cap_rules *const eh_cap_rules_all[];
const struct eh_cap_rules *eh_cap_rules_find(const char *kernel);
/* Whether c is the first entry of its capability in rules (a capability may have several): to list each once. */
bool eh_cap_rules_first(const struct eh_cap_rules *rules, const struct eh_capability *c);

/* The predicates a table's entries name, with the kernel's meaning. */
bool eh_cap_always(const struct eh_capability *cap, const struct eh_target *t);     /* has_always */
bool eh_cap_has_field(const struct eh_capability *cap, const struct eh_target *t);  /* has_cpuid_feature */
bool eh_cap_midr_affected(const struct eh_capability *cap, const struct eh_target *t);  /* is_affected_midr_range{,_list} */
bool eh_cap_any(const struct eh_capability *cap, const struct eh_target *t);        /* cpucap_multi_entry_cap_matches */
/* An entry of an image whose .matches the harness cannot decide (EH_CAP_UNCERTAIN): treated as not detected. */
bool eh_cap_uncertain(const struct eh_capability *cap, const struct eh_target *t);
/* Whether the model's MIDR lies in one of the ranges (is_midr_in_range_list); configs of lines are checked. */
bool eh_cap_midr_in(const struct eh_midr_range *ranges, const struct eh_target *t);
/* ... and its revision is not one that REVIDR_EL1 marks fixed (is_affected_midr_range). */
bool eh_midr_affected(const struct eh_midr_range *ranges, const struct eh_midr_fix *fixed,
		      const struct eh_target *t);

/* Why a kernel built with a given .config would or would not detect a capability on a target. */
enum eh_cap_state {
	EH_CAP_DETECTED,
	EH_CAP_NOT_DETECTED,     /* the target does not match */
	EH_CAP_CONFIGURED_OUT,   /* its CONFIG_ symbol is off */
	EH_CAP_UNKNOWN,          /* the kernel version's rules have no such capability: treated as not detected */
};

/*
 * Decide capability name for target t under rules; *rule (may be NULL) gets the
 * entry that decided it (the one that matched, else the first), NULL when unknown.
 */
enum eh_cap_state eh_cap_decide(const struct eh_cap_rules *rules, const struct eh_target *t, const char *name,
				const struct eh_capability **rule);
bool eh_cap_detected(const struct eh_cap_rules *rules, const struct eh_target *t, const char *name);

/*
 * The rule of cap as one line ("ID_AA64ISAR0_EL1.Atomic [23:20] >= 2"); with a target,
 * with what it reads there ("= 2"). Returns buf.
 */
const char *eh_cap_explain(const struct eh_capability *cap, const struct eh_target *t, char *buf, size_t len);

#endif

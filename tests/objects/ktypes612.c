/*
 * The structs the harness reads out of a kernel image, shaped as Linux 6.12 shapes them
 * (arch/arm64/include/asm/cpufeature.h, cputype.h, alternative-macros.h), and an
 * arm64_features[] of such entries: compiled with -g for their DWARF, and given .BTF by
 * pahole -J, for tests/test_ktype.c (the layouts) and tests/test_cap_image.c (the rules
 * the entries state). The offsets the static assertions hold are pahole's of Debian's
 * 6.12.118 cloud vmlinux.
 */
#include <stddef.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;

struct midr_range {
	u32 model;
	u32 rv_min;
	u32 rv_max;
};

struct cpumask;

struct arm64_cpu_capabilities {
	const char *desc;
	u16 capability;
	u16 type;
	_Bool (*matches)(const struct arm64_cpu_capabilities *caps, int scope);
	void (*cpu_enable)(const struct arm64_cpu_capabilities *cap);
	union {
		struct {
			struct midr_range midr_range;
			const struct arm64_midr_revidr {
				u32 midr_rv;
				u32 revidr_mask;
			} *const fixed_revs;
		};
		const struct midr_range *midr_range_list;
		struct {
			u32 sys_reg;
			u8 field_pos;
			u8 field_width;
			u8 min_field_value;
			u8 max_field_value;
			u8 hwcap_type;
			_Bool sign;
			unsigned long hwcap;
		};
	};
	const struct arm64_cpu_capabilities *match_list;
	const struct cpumask *cpus;
};

struct alt_instr {
	int orig_offset;
	int alt_offset;
	u16 cpucap;
	u8 orig_len;
	u8 alt_len;
};

_Static_assert(sizeof(struct arm64_cpu_capabilities) == 72, "pahole: size 72");
_Static_assert(offsetof(struct arm64_cpu_capabilities, fixed_revs) == 48, "pahole: fixed_revs at 48");
_Static_assert(offsetof(struct arm64_cpu_capabilities, max_field_value) == 39, "pahole: max_field_value at 39");
_Static_assert(offsetof(struct arm64_cpu_capabilities, sign) == 41, "pahole: sign at 41");
_Static_assert(offsetof(struct arm64_cpu_capabilities, cpus) == 64, "pahole: cpus at 64");

const struct alt_instr ktypes_alt[1];

/* The kernel's predicates, by name only: the harness knows them by their symbols. */
_Bool has_cpuid_feature(const struct arm64_cpu_capabilities *caps, int scope) { (void)caps; return scope; }
_Bool is_affected_midr_range(const struct arm64_cpu_capabilities *caps, int scope) { (void)caps; return scope; }
_Bool is_affected_midr_range_list(const struct arm64_cpu_capabilities *caps, int scope) { (void)caps; return scope; }
_Bool cpucap_multi_entry_cap_matches(const struct arm64_cpu_capabilities *caps, int scope) { (void)caps; return scope; }
_Bool has_frobnicator(const struct arm64_cpu_capabilities *caps, int scope) { (void)caps; return scope; }

/* asm/sysreg.h sys_reg(op0, op1, CRn, CRm, op2); asm/cputype.h MIDR_CPU_MODEL, MIDR_CPU_VAR_REV. */
#define SYS_REG(op0, op1, crn, crm, op2) ((op0) << 19 | (op1) << 16 | (crn) << 12 | (crm) << 8 | (op2) << 5)
#define MODEL(imp, part) ((imp) << 24 | 0xf << 16 | (part) << 4)
#define VAR_REV(var, rev) ((var) << 20 | (rev))
#define ALL_VERSIONS(m) { (m), 0, VAR_REV(0xf, 0xf) }

static const struct midr_range a57[] = { ALL_VERSIONS(MODEL(0x41, 0xd07)), { 0 } };
static const struct arm64_midr_revidr a53_fixed[] = { { VAR_REV(0, 4), 1 << 8 }, { 0 } };

static const struct arm64_cpu_capabilities a57_or_a72[] = {
	{ .matches = is_affected_midr_range_list, .midr_range_list = a57 },
	{ .matches = is_affected_midr_range, .midr_range = ALL_VERSIONS(MODEL(0x41, 0xd08)) },
	{ 0 },
};

/* Types: 0x12 system (SCOPE_SYSTEM | PERMITTED_FOR_LATE_CPU), 0x21 a local-CPU erratum. */
const struct arm64_cpu_capabilities arm64_features[] = {
	{ .desc = "Test atomics", .capability = 1, .type = 0x12, .matches = has_cpuid_feature,
	  /* ID_AA64ISAR0_EL1.Atomic [23:20], 2 to 15 (ARM64_CPUID_FIELDS(..., ATOMIC, IMP)) */
	  .sys_reg = SYS_REG(3, 0, 0, 6, 0), .field_pos = 20, .field_width = 4, .min_field_value = 2,
	  .max_field_value = 15 },
	{ .desc = "Test no FP", .capability = 2, .type = 0x12, .matches = has_cpuid_feature,
	  /* ID_AA64PFR0_EL1.FP [19:16], signed, -8 to -1 (ARM64_CPUID_FIELDS_NEG(..., FP, NI)) */
	  .sys_reg = SYS_REG(3, 0, 0, 4, 0), .field_pos = 16, .field_width = 4, .sign = 1, .min_field_value = 0x8,
	  .max_field_value = 0xf },
	{ .desc = "Test FP", .capability = 3, .type = 0x12, .matches = has_cpuid_feature,
	  /* the same field, 0 to 7 (ARM64_CPUID_FIELDS(..., FP, IMP)) */
	  .sys_reg = SYS_REG(3, 0, 0, 4, 0), .field_pos = 16, .field_width = 4, .sign = 1, .min_field_value = 0,
	  .max_field_value = 7 },
	{ .desc = "Test A53 to r0p4", .capability = 4, .type = 0x21, .matches = is_affected_midr_range,
	  .midr_range = { MODEL(0x41, 0xd03), VAR_REV(0, 0), VAR_REV(0, 4) }, .fixed_revs = a53_fixed },
	{ .desc = "Test A57 or A72", .capability = 5, .type = 0x21, .matches = cpucap_multi_entry_cap_matches,
	  .match_list = a57_or_a72 },
	{ .desc = "Test code", .capability = 6, .type = 0x21, .matches = has_frobnicator },
	{ 0 },
};

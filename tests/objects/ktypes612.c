/*
 * The structs the harness reads out of a kernel image, shaped as Linux 6.12 shapes them
 * (arch/arm64/include/asm/cpufeature.h, cputype.h, alternative-macros.h): compiled with -g
 * for their DWARF, and given .BTF by pahole -J, for tests/test_ktype.c. The offsets the
 * static assertions hold are pahole's of Debian's 6.12.118 cloud vmlinux.
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

const struct arm64_cpu_capabilities ktypes_caps[1];
const struct alt_instr ktypes_alt[1];

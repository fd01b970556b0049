/*
 * A unit that is none of the kernel's users of the structs the harness reads, with structs of
 * their names shaped otherwise: tests/test_ktype.c links it ahead of ktypes612.c compiled under the
 * name arch/arm64/kernel/cpu_errata.c, and the layouts must come from that unit, not from this one.
 */
struct arm64_cpu_capabilities {
	int desc;
};

struct alt_instr {
	char orig_offset;
};

struct arm64_cpu_capabilities decoy_caps;
struct alt_instr decoy_alt;

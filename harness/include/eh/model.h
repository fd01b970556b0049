/* CPU models (identity, ID registers, topology, errata) and the targets a kernel boots on. */
#ifndef EH_MODEL_H
#define EH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "eh/error.h"

#define EH_MAX_THREADS 8

/* MIDR_EL1 fields (Arm ARM D17.2): implementer 31:24, variant 23:20, arch 19:16, part 15:4, rev 3:0. */
#define EH_MIDR(impl, var, part, rev) \
	((uint32_t)(((impl) << 24) | ((var) << 20) | (0xfu << 16) | ((part) << 4) | (rev)))
#define EH_MIDR_IMPL(m) (((m) >> 24) & 0xff)
#define EH_MIDR_PART(m) (((m) >> 4) & 0xfff)

struct eh_model;
struct eh_machine;
struct eh_event;

/* An identity or ID register value the model serves to MRS. */
struct eh_id_reg {
	uint32_t reg;       /* EH_SYSREG() encoding */
	uint64_t value;
};

struct eh_model {
	const char *name;           /* "thunderx2" */
	const char *desc;
	uint32_t midr;
	uint32_t revidr;
	unsigned threads_per_core;  /* MPIDR_EL1.Aff0 numbers the thread */
	int uc_cpu;                 /* the Unicorn CPU the model runs on (UC_CPU_ARM64_*) */
	const struct eh_id_reg *id_regs;          /* every ID register the kernel reads; ends with { 0 } */
	const char *id_source;                    /* where the values come from (a TRM and its section) */
	/*
	 * A system of several cores (big.LITTLE): its cores, the boot CPU first, NULL-terminated;
	 * NULL for one core. A system lists no identity or ID registers of its own: each of its
	 * hardware threads is one of its cores' (eh_model_thread_core), and what the kernel reads
	 * system-wide is the cores' sanitised value (eh_model_id_reg). Its threads_per_core is 0.
	 */
	const struct eh_model *const *cores;
};

/*
 * How the kernel combines one ID register field across CPUs (struct arm64_ftr_bits of
 * cpufeature.c, the safe value of update_cpu_ftr_reg() when two CPUs differ).
 */
enum eh_id_ftr_type {
	EH_ID_FTR_LOWER_SAFE = 0,     /* the smaller (signed fields as numbers): a feature every CPU has */
	EH_ID_FTR_EXACT,              /* safe, a fixed value, when they differ */
	EH_ID_FTR_HIGHER_SAFE,        /* the larger */
	EH_ID_FTR_HIGHER_OR_ZERO_SAFE,/* 0 when either is 0, else the larger */
};

struct eh_id_ftr {
	uint32_t reg;               /* EH_SYSREG() encoding */
	uint8_t shift, width;
	bool sign;                  /* S_ARM64_FTR_BITS */
	enum eh_id_ftr_type type;
	int8_t safe;                /* safe_val, for EH_ID_FTR_EXACT */
};

/*
 * The fields of the ID registers models list, for one kernel (models/ftr_linux_6_1.c), ends
 * with { 0 }. Bits of a listed register that no entry describes read as 0 system-wide, as
 * the kernel's sanitised registers do; a register with no entry is combined 4 bits at a
 * time, unsigned, lower safe.
 */
extern const struct eh_id_ftr eh_id_ftrs[];

/* A kernel configuration: which CONFIG_ symbols are on (NULL means every known one). */
struct eh_kconfig;

/*
 * How the kernel was booted, an input of capability detection (the kernel's
 * is_hyp_mode_available() and is_kernel_in_hyp_mode()).
 */
enum eh_boot {
	EH_BOOT_EL2 = 0,  /* entered at EL2, a host: VHE where the CPU has it (the kernel's default) */
	EH_BOOT_NVHE,     /* entered at EL2 with kvm-arm.mode=nvhe: the kernel at EL1, KVM's hyp code at EL2 */
	EH_BOOT_EL1,      /* entered at EL1: a guest kernel; no hyp mode, KVM code never runs */
};

/* "el2", "nvhe", "el1", indexed by enum eh_boot; NULL-terminated. */
extern const char *const eh_boot_names[];
/* The boot mode called name; EH_EINVAL when there is none. */
int eh_boot_parse(const char *name, enum eh_boot *out);

/* What a kernel runs on: the CPU, the .config the kernel was built with, how it was booted. */
struct eh_target {
	const struct eh_model *model;
	const struct eh_kconfig *config;  /* NULL: every option on */
	enum eh_boot boot;                /* EH_BOOT_EL2 unless told */
};

/* Whether the kernel was entered at EL2, so KVM has a hypervisor (is_hyp_mode_available()). */
bool eh_target_hyp_mode(const struct eh_target *t);
/*
 * Whether the kernel's EL1 code runs at EL2 with HCR_EL2.E2H set (is_kernel_in_hyp_mode()):
 * booted at EL2 on a CPU with VHE (ID_AA64MMFR1_EL1.VH != 0). There, accesses to *_EL1
 * registers reach the EL2 ones, and *_EL12 encodings reach the EL1 (guest) ones.
 */
bool eh_target_vhe(const struct eh_target *t);

/* Registries, NULL-terminated, in models/. */
extern const struct eh_model *const eh_models[];

const struct eh_model *eh_model_find(const char *name);
/*
 * MPIDR_EL1 of hardware thread t: Aff0 = the thread within its core, Aff1 = the core's
 * place in a system (0 for one core), U = 0, MT set on SMT cores.
 */
uint64_t eh_model_mpidr(const struct eh_model *model, unsigned thread);
/*
 * The value of an identity or ID register, or -ENOENT. On a system: MIDR_EL1 and REVIDR_EL1
 * of the boot CPU (what a system-wide check reads on the CPU that makes it), and every other
 * register sanitised across the cores by eh_id_ftrs[] (read_sanitised_ftr_reg()); a core
 * that does not list a register another lists reads it as 0.
 */
int eh_model_id_reg(const struct eh_model *model, uint32_t reg, uint64_t *value);
/* The boot CPU of a system (its first core), or model itself. */
const struct eh_model *eh_model_boot_core(const struct eh_model *model);
/* How many hardware threads a model has: threads_per_core, or the sum over a system's cores. */
unsigned eh_model_threads(const struct eh_model *model);
/*
 * The core hardware thread t belongs to (model itself for one core), with the thread's
 * number within that core in *local (may be NULL) and the core's place in *core (may be
 * NULL); NULL when there is no thread t.
 */
const struct eh_model *eh_model_thread_core(const struct eh_model *model, unsigned t, unsigned *local,
					    unsigned *core);
/* Whether the erratum called id affects the model (eh/erratum.h). */
bool eh_model_has_erratum(const struct eh_model *model, const char *id);

#endif

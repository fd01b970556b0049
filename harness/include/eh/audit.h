/* Static audit of patched kernel code: every TTBR write and the accesses before the next context synchronisation. */
#ifndef EH_AUDIT_H
#define EH_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/alt.h"
#include "eh/error.h"
#include "eh/image.h"
#include "eh/regime.h"

/* How one path out of a TTBR window ends. */
enum eh_audit_end_kind {
	EH_AUDIT_CLOSED,     /* ISB, ERET or an exception-generating instruction */
	EH_AUDIT_INDIRECT,   /* BR, BLR, or RET of a register other than x30: no known target */
	EH_AUDIT_EXTERN,     /* a branch to a symbol the object does not define */
	EH_AUDIT_LEFT,       /* ran out of executable code, or into words that do not decode */
	EH_AUDIT_BOUND,      /* EH_AUDIT_MAX_INSNS instructions followed without closing, too many
	                        paths queued, or calls nested too deep */
	EH_AUDIT_UNCERTAIN,  /* through a callback site the kernel may rewrite (EH_ALT_CB_UNCERTAIN):
	                        what follows it cannot close the window */
	EH_AUDIT_NO_CALLER,  /* RET of the window's own function, with callers the file does not hold:
	                        none, or (a global in a relocatable object) others elsewhere */
};

/* How many distinct instructions one window may hold before the audit gives up on it. */
#define EH_AUDIT_MAX_INSNS 512

struct eh_audit_end {
	enum eh_audit_end_kind kind;
	uint64_t addr;          /* the closing or branching instruction */
	const char *symbol;     /* EH_AUDIT_EXTERN: the symbol */
	char text[160];         /* its disassembly, or (EH_AUDIT_UNCERTAIN) which callback and why */
};

/* A load, store or prefetch inside a window: the erratum 219 hazard. */
struct eh_audit_access {
	uint64_t addr;
	uint32_t flags;                   /* EH_INSN_LOAD / _STORE / _PREFETCH */
	const struct eh_alt_site *site;   /* the alternative whose original range holds it, or NULL */
	char text[64];
};

struct eh_audit_window {
	uint64_t msr;           /* the MSR TTBR0_EL1 / TTBR1_EL1 (or _EL12) */
	uint32_t sysreg;
	char text[64];
	enum eh_regime regime;  /* what it changes; only a live one is followed (the rest are empty) */
	const char *run_why;    /* what says where the code runs: "nVHE hyp code (section .hyp.*)", ... */
	size_t ninsns;          /* distinct instructions followed after the MSR */
	struct eh_audit_access *accesses;  /* sorted by address */
	size_t naccesses;
	struct eh_audit_end *ends;         /* sorted by address */
	size_t nends;
	const struct eh_alt_site **sites;  /* alternatives the window runs through, sorted */
	size_t nsites;
};

struct eh_audit {
	const struct eh_image *img;        /* borrowed */
	struct eh_audit_window *windows;   /* in address order */
	size_t nwindows;
	size_t naccesses;       /* hazards over every window */
	size_t nopen;           /* windows with a path that does not reach a context synchronisation */
	size_t nregime[3];      /* TTBR writes by enum eh_regime */
};

/*
 * Find every MSR TTBR0/1_EL1 and TTBR0/1_EL12 in the executable sections of
 * the patched image (a word-level scan of the encoding, then the decoder to
 * confirm), skipping replacement code that only runs once copied to its site,
 * and classify each by the regime it changes (eh/regime.h): where the code
 * runs follows from KVM's nVHE hyp code (a section .hyp.*, a __kvm_nvhe_
 * symbol, a *.nvhe.o object, KVM's write_sysreg_el1() alternative) and from
 * the image's target (VHE when booted at EL2 on a CPU with it). From each
 * write to the regime the code runs in, follow the code: straight on, through
 * direct branches, both ways at conditional ones, into direct calls and back
 * (a return stack), and from a RET of the window's own function to every
 * return site of its callers (the file's calls, through tail calls), up to a
 * context synchronisation event (Arm ARM: ISB, exception entry, exception
 * return). Callers through function pointers are not known.
 */
int eh_audit_run(struct eh_audit **out, const struct eh_image *img, struct eh_error *err);
void eh_audit_free(struct eh_audit *a);

const char *eh_audit_end_name(enum eh_audit_end_kind kind);

/*
 * Comparing two builds. A finding is a hazard (an access inside a window) or
 * a path out of a window that does not reach a context synchronisation; it is
 * named by where its TTBR write is and where it is, each as symbol+offset, so
 * that it matches across builds whose code moved (not by raw address).
 */
enum eh_audit_change {
	EH_AUDIT_INTRODUCED,    /* in the new build only */
	EH_AUDIT_REMOVED,       /* in the baseline only */
	EH_AUDIT_UNCHANGED,     /* in both */
};

#define EH_AUDIT_WHERE_MAX 160

struct eh_audit_finding {
	enum eh_audit_change change;
	bool open;                      /* an unclosed path (flags = enum eh_audit_end_kind), else an access */
	uint32_t flags;                 /* the access: EH_INSN_LOAD / _STORE / _PREFETCH */
	char window[EH_AUDIT_WHERE_MAX];/* the TTBR write, symbol+offset */
	char where[EH_AUDIT_WHERE_MAX]; /* the access or the end of the path, symbol+offset */
	char text[160];                 /* its disassembly in the new build (the baseline's when removed) */
	uint64_t old_addr, new_addr;    /* 0 in the build it is missing from */
};

struct eh_audit_diff {
	struct eh_audit_finding *findings;  /* sorted by window, then where */
	size_t n;
	size_t count[3];                    /* by enum eh_audit_change */
};

/* Match the findings of a baseline audit and a new one. */
int eh_audit_diff(struct eh_audit_diff **out, const struct eh_audit *old, const struct eh_audit *new,
		  struct eh_error *err);
void eh_audit_diff_free(struct eh_audit_diff *d);
const char *eh_audit_change_name(enum eh_audit_change c);

#endif

/* Static audit of patched kernel code: every erratum's rule (eh/rule.h) run over one image, and what they found. */
#ifndef EH_AUDIT_H
#define EH_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/alt.h"
#include "eh/erratum.h"
#include "eh/error.h"
#include "eh/image.h"
#include "eh/rule.h"

/* How one path out of a window ends. */
enum eh_audit_end_kind {
	EH_AUDIT_CLOSED,     /* an instruction the rule's closes names */
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

/* One anchor of a window rule, and (when its class opens one) the window followed from it. */
struct eh_audit_window {
	uint64_t anchor;
	char text[64];
	unsigned cls;           /* index in the rule's classes */
	const char *why;        /* what decided the class, or NULL */
	size_t ninsns;          /* distinct instructions followed after the anchor */
	struct eh_audit_end *ends;         /* sorted by address; closing ones too */
	size_t nends;
	const struct eh_alt_site **sites;  /* alternatives the window runs through, sorted */
	size_t nsites;
	size_t first, nfindings;           /* its findings in the result's: instructions, then open paths */
};

#define EH_AUDIT_WHERE_MAX 160

/*
 * What a rule reports: an instruction, or (window rules) a path out of a
 * window that cannot be followed to its close, which is a finding as well:
 * what lies behind it is not known to be safe.
 */
struct eh_finding {
	const struct eh_erratum *erratum;
	bool open;                      /* a path not followed to its close: end says how it ends */
	enum eh_audit_end_kind end;
	uint64_t addr;
	uint64_t anchor;                /* the window's anchor, or what a scan rule names; 0: none */
	size_t window;                  /* index in the result's windows; SIZE_MAX for a scan rule's */
	const struct eh_alt_site *site; /* the alternative whose original range holds addr, or NULL */
	const char *symbol;             /* open and EH_AUDIT_EXTERN: the symbol branched to */
	char kind[32];                  /* what the instruction is to the rule: "load", "prefetch", ... */
	char where[EH_AUDIT_WHERE_MAX];         /* addr as symbol+offset */
	char anchor_where[EH_AUDIT_WHERE_MAX];  /* anchor as symbol+offset, "" without one */
	char text[160];                 /* the disassembly; for an open path why it cannot be followed */
	char explain[256];              /* the rule's explanation */
};

/* What one erratum's rule found in an image. */
struct eh_audit_result {
	const struct eh_erratum *erratum;
	bool ran;                          /* false: not run on the image (eh_audit_run_scan's run), nothing found */
	struct eh_audit_window *windows;   /* window rules: every anchor, in address order */
	size_t nwindows;
	size_t nclass[EH_RULE_MAX_CLASSES];/* anchors by class */
	size_t nopened;                    /* anchors whose class opens a window */
	struct eh_finding *findings;       /* by window, then address; a scan rule's in address order */
	size_t nfindings;
	size_t nopen;                      /* windows with a path that does not reach a close */
};

struct eh_audit {
	const struct eh_image *img;        /* borrowed */
	struct eh_audit_result *results;   /* one per erratum audited, in the order given */
	size_t nresults;
};

/*
 * What the audits of every image patched from one ELF share: the words some
 * rule of errata (NULL-terminated, borrowed) wants, found in one pass over the
 * file's executable sections and each decoded once (an image differs from the
 * file only inside the alternatives it applies, whose words each audit looks at
 * again); the call graph of the words outside every alternative; a scan rule's
 * verdict on a word, where its visit read nothing an alternative covers and
 * asked nothing images differ in (then the images of the scan's first
 * numbering take its findings instead of visiting again, or those that agree
 * with the image it visited on the words and sites it read); and one decoder,
 * whose cache re-decodes a word an image changed. The images audited with a
 * scan must outlive it.
 */
struct eh_audit_scan;
int eh_audit_scan_new(struct eh_audit_scan **out, const struct eh_elf *elf, const struct eh_erratum *const *errata,
		      struct eh_error *err);
void eh_audit_scan_free(struct eh_audit_scan *scan);

/*
 * Run the rules of the scan's errata (those without a rule are left out) over
 * the executable sections of img, patched from the scan's ELF: every word a rule
 * wants, in address order, except replacement code, which only runs once copied
 * to its site. run, when set, says by the errata's index which rules to run: the
 * others' results are empty, and not ran.
 */
int eh_audit_run_scan(struct eh_audit **out, const struct eh_image *img, struct eh_audit_scan *scan,
		      const bool *run, struct eh_error *err);
/* The same for one image: a scan of its ELF made for it alone. */
int eh_audit_run(struct eh_audit **out, const struct eh_image *img, const struct eh_erratum *const *errata,
		 struct eh_error *err);
void eh_audit_free(struct eh_audit *a);

const char *eh_audit_end_name(enum eh_audit_end_kind kind);

/*
 * Comparing two builds. A finding is named by its erratum, where its anchor is
 * and where it is, each as symbol+offset, so that it matches across builds
 * whose code moved (not by raw address).
 */
enum eh_audit_change {
	EH_AUDIT_INTRODUCED,    /* in the new build only */
	EH_AUDIT_REMOVED,       /* in the baseline only */
	EH_AUDIT_UNCHANGED,     /* in both */
};

struct eh_audit_delta {
	enum eh_audit_change change;
	const struct eh_erratum *erratum;
	bool open;                      /* a path not followed to its close */
	char kind[32];                  /* the finding's kind; an open path: how it ends */
	char anchor[EH_AUDIT_WHERE_MAX];/* symbol+offset, "" without one */
	char where[EH_AUDIT_WHERE_MAX];
	char text[160];                 /* its disassembly in the new build (the baseline's when removed) */
	uint64_t old_addr, new_addr;    /* 0 in the build it is missing from */
};

struct eh_audit_diff {
	struct eh_audit_delta *deltas;      /* by erratum id, anchor, then where */
	size_t n;
	size_t count[3];                    /* by enum eh_audit_change */
};

/* Match the findings of a baseline audit and a new one (the same errata, in the same order). */
int eh_audit_diff(struct eh_audit_diff **out, const struct eh_audit *old, const struct eh_audit *new,
		  struct eh_error *err);
void eh_audit_diff_free(struct eh_audit_diff *d);
const char *eh_audit_change_name(enum eh_audit_change c);

#endif

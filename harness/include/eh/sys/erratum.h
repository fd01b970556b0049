/*
 * What an erratum module (harness/errata/<id>/) declares: its datasheet line, and
 * the CPU lists and predicates it may share with the kernel's capability tables.
 */
#ifndef EH_SYS_ERRATUM_H
#define EH_SYS_ERRATUM_H

#include <stdbool.h>
#include <stddef.h>

#include "eh/cap.h"
#include "eh/model.h"
#include "eh/sys/cputype.h"

struct eh_rule;        /* a static rule the audit runs over a patched image (eh/sys/rule.h) */

/* From a kernel version on, the name of an erratum's capability there (it may be renamed later). */
struct eh_erratum_since {
	const char *kernel;      /* "6.12": this version and the later ones, up to the next line's */
	const char *capability;  /* ARM64_WORKAROUND_... in that version */
};
struct eh_behaviour;   /* a dynamic behaviour the engine runs with a machine (eh/sys/behaviour.h) */

/*
 * One CPU erratum, as a datasheet line: which parts it affects (MIDR ranges and
 * the revisions REVIDR marks fixed, as cpu_errata.c writes them), the kernel's
 * workaround (its capability and Kconfig symbol; a compiler or linker flag has
 * neither), where it is documented, and what the harness can do with it: a
 * static rule, a dynamic behaviour, or both. The harness knows no erratum by
 * name: everything it does with one goes through this table.
 *
 * Every module ends with the same three tables (its struct eh_behaviour, struct
 * eh_rule and struct eh_erratum) and its on_event a switch over event kinds, so
 * `duplicates` pairs them by shape: that likeness is the declarative layout, as
 * in the kernel's cpu_errata.c, not logic written twice. Logic two modules share
 * lives in eh/sys/seq.h.
 */
struct eh_erratum {
	const char *id;                         /* kebab-case: "tx2-219" */
	const char *title;                      /* one line */
	const struct eh_midr_range *cpus;       /* affected parts; ends with { 0 } */
	const struct eh_midr_fix *fixed;        /* revisions REVIDR_EL1 marks fixed; ends with { 0 }; may be NULL */
	/*
	 * Parts no MIDR range can name, as cpu_errata.c matches them with a predicate of
	 * its own (is_kryo_midr(): any Qualcomm part 0x2XX); NULL: none.
	 */
	bool (*also_affects)(const struct eh_model *model);
	const char *also_affects_cpus;          /* those parts in words, with also_affects */
	const char *capability;                 /* ARM64_WORKAROUND_..., or NULL */
	/*
	 * The kernel versions that carry the workaround, oldest first, with the capability's
	 * name in each, ending with { 0 }; NULL: every version the harness has rules for, as
	 * .capability. A kernel older than the first line has no workaround to look for.
	 */
	const struct eh_erratum_since *since;
	const char *kconfig;                    /* CONFIG_..., or NULL */
	const char *const *citations;           /* NULL-terminated */
	/* Whether it shows on an affected model (erratum 219 needs SMT siblings); NULL: it does. */
	bool (*shows)(const struct eh_model *model);
	const char *shows_when;                 /* that condition in words, with shows */
	const struct eh_rule *rule;
	const struct eh_behaviour *behaviour;
};

/* Whether e affects model and shows there. */
bool eh_erratum_shows(const struct eh_erratum *e, const struct eh_model *model);

/*
 * The CPU lists of Linux 6.1 errata (the same in 6.12) that an erratum module and the kernel's
 * capability tables (models/caps_linux_6.h) both name: defined once there, so that the two cannot
 * drift. An erratum whose list no capability table needs keeps its list in its own folder.
 */
extern const struct eh_midr_range eh_clean_cache_cpus[];      /* ARM64_WORKAROUND_CLEAN_CACHE */
extern const struct eh_midr_range eh_repeat_tlbi_cpus[];      /* ARM64_WORKAROUND_REPEAT_TLBI, less is_kryo_midr */
extern const struct eh_midr_range eh_erratum_1508412_cpus[];  /* ARM64_WORKAROUND_1508412 */
extern const struct eh_midr_range eh_erratum_2966298_cpus[];  /* ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD */
extern const struct eh_midr_range eh_tsb_flush_fail_cpus[];   /* ARM64_WORKAROUND_TSB_FLUSH_FAILURE */
extern const struct eh_midr_range eh_speculative_at_cpus[];   /* ARM64_WORKAROUND_SPECULATIVE_AT */
extern const struct eh_midr_range eh_erratum_845719_cpus[];   /* ARM64_WORKAROUND_845719 */
extern const struct eh_midr_range eh_falkor_e1003_cpus[];     /* ARM64_WORKAROUND_QCOM_FALKOR_E1003, less is_kryo_midr */
extern const struct eh_midr_range eh_cavium_27456_cpus[];     /* ARM64_WORKAROUND_CAVIUM_27456 */
/* ... of the errata 6.12 adds (models/caps_linux_6.h, under EH_LINUX 612). */
extern const struct eh_midr_range eh_erratum_2645198_cpus[];  /* ARM64_WORKAROUND_2645198 */
/* The ThunderX2 family, every variant and revision (cpu_errata.c tx2_family_cpus[]). */
extern const struct eh_midr_range eh_tx2_family_cpus[];

/* is_kryo_midr(): whether model's boot core is a Qualcomm part 0x2XX, any variant and revision. */
bool eh_cpus_kryo_2xx(const struct eh_model *model);

#endif

/* Errata as modules: what each one declares (models/errata/<id>.c), and which CPU models it affects. */
#ifndef EH_ERRATUM_H
#define EH_ERRATUM_H

#include <stdbool.h>
#include <stddef.h>

#include "eh/cap.h"
#include "eh/model.h"

struct eh_rule;        /* a static rule the audit runs over a patched image (eh/rule.h) */

/* From a kernel version on, the name of an erratum's capability there (it may be renamed later). */
struct eh_erratum_since {
	const char *kernel;      /* "6.12": this version and the later ones, up to the next line's */
	const char *capability;  /* ARM64_WORKAROUND_... in that version */
};
struct eh_behaviour;   /* a dynamic behaviour the engine runs with a machine (eh/machine.h) */

/*
 * One CPU erratum, as a datasheet line: which parts it affects (MIDR ranges and
 * the revisions REVIDR marks fixed, as cpu_errata.c writes them), the kernel's
 * workaround (its capability and Kconfig symbol; a compiler or linker flag has
 * neither), where it is documented, and what the harness can do with it: a
 * static rule, a dynamic behaviour, or both. The harness knows no erratum by
 * name: everything it does with one goes through this table.
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

/* Every erratum, NULL-terminated (models/registry.c). */
extern const struct eh_erratum *const eh_errata[];

const struct eh_erratum *eh_erratum_find(const char *id);
/* Whether model is one of the parts e affects: its MIDR in e->cpus, its revision not fixed by REVIDR, or also_affects. */
bool eh_erratum_affects(const struct eh_erratum *e, const struct eh_model *model);
/* Whether e affects model and shows there. */
bool eh_erratum_shows(const struct eh_erratum *e, const struct eh_model *model);
/*
 * The name of e's capability in kernel version kernel ("6.1"; NULL: unknown, taken as the
 * newest), NULL when that version has no such workaround (or e none at all).
 */
const char *eh_erratum_capability(const struct eh_erratum *e, const char *kernel);
/* Whether kernel carries e's workaround: true for an unknown version (NULL) and for e->since NULL. */
bool eh_erratum_in_kernel(const struct eh_erratum *e, const char *kernel);

#endif

/* Case hibernate-alloc: what each allocation of create_safe_exec_page is for, and how a run under a failed one ended. */
#ifndef EH_CASE_HIBERNATE_ALLOC_H
#define EH_CASE_HIBERNATE_ALLOC_H

#include <stdint.h>

#include "eh/machine.h"

/* 4K pages, 48-bit VA: four levels of tables. */
#define EH_HIB_LEVELS 4
/* With empty tables: the page for the code, the top-level table, one table per lower level. */
#define EH_HIB_ALLOCATIONS (1 + EH_HIB_LEVELS)

/* What allocation k (1-based, in the order of a run where none fails) is for. */
const char *eh_hibernate_alloc_what(unsigned k);
/* Where a top-level table at address 0 would be read for va: its level-0 entry's offset. */
uint64_t eh_hibernate_pgd_slot(uint64_t va);

enum eh_hib_end {
	EH_HIB_OK,          /* returned 0 */
	EH_HIB_ENOMEM,      /* returned -ENOMEM */
	EH_HIB_NULL_DEREF,  /* a data abort in the page at address 0 */
	EH_HIB_OTHER,       /* anything else: another return value, another stop */
};

/* How a run of create_safe_exec_page ended: its stop (res) and x0 at the stop. */
enum eh_hib_end eh_hibernate_classify(const struct eh_thread_result *res, uint64_t x0);

#endif

/* CPU models built from what a running arm64 Linux shows of its CPUs: sysfs identification registers, an ID register dump, or a boot log. */
#ifndef EH_MODEL_FROM_H
#define EH_MODEL_FROM_H

#include <stddef.h>

#include "eh/error.h"
#include "eh/model.h"

/* A model built from a machine's registers, with everything it points to. */
struct eh_model_from;

/*
 * Build a model from path, one of:
 *  - a directory: /sys/devices/system/cpu (its cpuN/regs/identification/midr_el1 and
 *    revidr_el1), one CPU's regs/identification directory, or a copy of either;
 *  - a captured listing, `grep . /sys/devices/system/cpu/cpuN/regs/identification/...` for every N:
 *    lines PATH:VALUE, the CPU numbered by the cpuN of PATH;
 *  - an ID register dump: lines NAME=VALUE (MIDR_EL1, REVIDR_EL1, ID_AA64PFR0_EL1, ...,
 *    CTR_EL0, DCZID_EL0; any case), of the boot CPU, as tests/qemu/probe/ prints them;
 *  - a boot log holding the kernel's `Booting Linux on physical CPU 0x... [0x...]` line
 *    (setup.c) and its `CPUn: Booted secondary processor 0x... [0x...]` lines (smp.c); every
 *    other line of a log is ignored.
 * Blank lines and lines starting with '#' are ignored. Values are hexadecimal (0x optional).
 * Each distinct identity (MIDR_EL1, REVIDR_EL1, dumped registers) is one core, the boot CPU
 * (cpu0) first; two or more make a system (eh_model.cores). A core's ID registers are those
 * the file gives, and for the others the known core model (eh_models[]) with the same
 * implementer and part number, the nearest revision (none: they read as 0).
 * A line that is none of these is EH_EINPUT naming path and the line.
 */
int eh_model_from_path(struct eh_model_from **out, const char *path, struct eh_error *err);
/* The same from text already read (len bytes of it), named path in messages and in the model. */
int eh_model_from_text(struct eh_model_from **out, const char *path, const char *text, size_t len,
		       struct eh_error *err);
/* The model built. */
const struct eh_model *eh_model_from_model(const struct eh_model_from *f);
/* The known model core i's unlisted ID registers came from, or NULL (none had its part number). */
const struct eh_model *eh_model_from_base(const struct eh_model_from *f, unsigned core);
void eh_model_from_free(struct eh_model_from *f);

#endif

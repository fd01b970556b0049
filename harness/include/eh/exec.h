/* Running code straight out of a user's vmlinux or kernel object on one thread of a CPU model. */
#ifndef EH_EXEC_H
#define EH_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/cpucaps.h"
#include "eh/error.h"
#include "eh/image.h"
#include "eh/kconfig.h"
#include "eh/machine.h"
#include "eh/model.h"

/* An initial register value: n is 0..30 for x0..x30, 31 for SP. */
struct eh_exec_reg {
	unsigned n;
	uint64_t value;
};

/* "xN=VALUE" or "sp=VALUE", VALUE decimal or 0x-hexadecimal; EH_EINVAL names what is wrong. */
int eh_exec_parse_reg(const char *spec, struct eh_exec_reg *out, struct eh_error *err);

struct eh_exec_opts {
	const char *symbol;                 /* where thread 0 starts: SYM, SYM+OFF or 0xADDR */
	const char *until;                  /* optional: SYM, SYM+OFF or 0xADDR where it stops */
	const char *range;                  /* optional "FROM:TO" (each as symbol): the code it may run,
	                                       instead of the entry's section */
	const struct eh_exec_reg *regs;     /* set after the harness's own (x30, SP) */
	size_t nregs;
	const char *const *mems;            /* "ADDR=FILE": the file's bytes at ADDR (SYM+OFF or 0xADDR) */
	size_t nmems;
	uint64_t seed, budget;              /* budget 0: the engine's default */
	bool trace_insns;                   /* every instruction in the trace (for the text trace and SVG) */
};

/* A finished run and everything its report needs. */
struct eh_exec {
	struct eh_elf *elf;
	const struct eh_cpucaps *caps;         /* the numbering used (eh_cpucaps_for_elf) */
	struct eh_cpucaps *owned_caps;         /* the ELF's own, when it is the one used */
	struct eh_image *img;
	struct eh_machine *machine;
	uint64_t entry;
	const struct eh_elf_section *section;  /* the entry's */
	uint64_t code_lo, code_hi;             /* leaving [code_lo, code_hi) stops the run */
	uint64_t until;                        /* 0: none */
	const struct eh_thread_result *res;    /* thread 0 */
};

/*
 * Load path (a linked image, or an ET_REL object linked against harness stubs:
 * eh_elf_bind_stubs), patch its alternatives for target (its model, .config and
 * boot mode; caps numbers the capabilities, or NULL for the ELF's own numbering, which
 * caps is also checked against: eh_cpucaps_for_elf), and run thread 0 from o->symbol until ERET, a return to the
 * harness, leaving the entry's section (or o->range), o->until, an exception or
 * the budget.
 * Loads and stores outside the image are served from zero pages (EH_EV_PAGE).
 * Bad input is EH_EINPUT/EH_EINVAL/EH_ENOENT with a message naming the file,
 * symbol or address.
 */
int eh_exec_run(struct eh_exec **out, const char *path, const struct eh_target *target,
		const struct eh_cpucaps *caps, const struct eh_exec_opts *o, struct eh_error *err);
void eh_exec_free(struct eh_exec *x);

#endif

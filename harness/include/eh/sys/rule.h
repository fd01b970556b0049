/* Static rules: what an erratum module gives the audit to run over a patched image, and the helpers a rule uses. */
#ifndef EH_SYS_RULE_H
#define EH_SYS_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eh/alt.h"
#include "eh/elf.h"
#include "eh/error.h"
#include "eh/insn.h"
#include "eh/regime.h"

/* The audit of one patched image as a rule sees it (harness/src/audit/audit.c). */
struct eh_rule_ctx;

/*
 * A class of window anchors, as a window rule sorts them: its name, the rule
 * (from the architecture) that puts an anchor in it, and whether an anchor of
 * the class opens a window. Anchors that open none are still listed.
 */
struct eh_window_class {
	const char *name;   /* "live EL1&0" */
	const char *rule;   /* "the accesses that follow ... : a window" */
	bool opens;
};

/* How many classes a window rule may have (the audit counts anchors by class). */
#define EH_RULE_MAX_CLASSES 8

/*
 * The translation regimes of eh/regime.h as window classes, by enum
 * eh_regime, for a rule whose anchors are TTBR writes: only a write of the
 * regime the code runs in opens a window.
 */
extern const struct eh_window_class eh_regime_classes[];

/*
 * "After an anchor (a write of register R), before an instruction that closes
 * (event E), nothing that finds (class C)." The audit follows the patched code
 * from each anchor whose class opens a window: straight on, both ways at
 * conditional branches, into calls with a return stack, from a RET of the
 * anchor's own function to its callers' return sites, through alternatives as
 * patched; a path that cannot be followed to a close (an indirect branch, a
 * branch out of the object, a callback site the harness does not emulate, a
 * RET to unknown callers, too long a path) is a finding of its own.
 */
struct eh_window_rule {
	/*
	 * The class of in (an index into classes), or -1 when in is no anchor;
	 * *why says what decided the class ("kernel code at EL1"), or is NULL.
	 */
	int (*anchor)(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why);
	const struct eh_window_class *classes;  /* at most EH_RULE_MAX_CLASSES, ends with { 0 } */
	uint32_t closes;          /* enum eh_insn_flag: an instruction with any of these closes the window */
	uint32_t finds;           /* ... one with any of these inside the window is a finding */
	/*
	 * ... and one this picks, when set: what no class of eh/insn.h names (a
	 * write of one system register, say). NULL: finds alone.
	 */
	bool (*found)(const struct eh_insn *in);
	const char *anchors;      /* what the anchors are, plural: "TTBR writes" */
	const char *classified_by;/* what their class says: "the regime they change" */
	const char *explain;      /* why an instruction that finds is a hazard inside the window */
};

/*
 * A rule over single instructions and their straight-line neighbours: the
 * audit calls visit on every executable instruction of the patched image that
 * the rule wants (replacement code, which only runs once copied over its site,
 * is skipped); visit reports what it finds with eh_rule_report.
 */
struct eh_scan_rule {
	int (*visit)(struct eh_rule_ctx *ctx, const struct eh_insn *in);  /* 0, or a negative enum eh_err */
	/*
	 * When set (NULL-terminated): a rule about a few functions, by name. visit is
	 * called once for each sized symbol of those names, at its first instruction,
	 * in address order, and never for the words wants picks (which it leaves NULL):
	 * the names are looked up once an image, where testing every word would hand
	 * the rule most of the kernel.
	 */
	const char *const *functions;
};

/* The encodings a rule starts from: a word whose bits under mask are value's. */
struct eh_rule_trigger {
	uint32_t mask, value;
};

/* Whether word is one of triggers' encodings (a list ending with a zero mask). */
bool eh_rule_triggered(const struct eh_rule_trigger *triggers, uint32_t word);

/*
 * An erratum's static rule (struct eh_erratum.rule): exactly one of window and
 * scan. Every rule runs in one pass over the image's code, which decodes only
 * the words some rule wants (Capstone on every word of a kernel costs seconds):
 * those its triggers name and wants, when set, accepts. The pass finds them
 * through a table of the triggers by a word's top 16 bits, so most words cost
 * one look-up whatever the number of rules.
 */
struct eh_rule {
	const char *summary;            /* what it checks, in one line (list --errata, the table of docs/errata.md) */
	const struct eh_rule_trigger *triggers;  /* ends with { 0 }; NULL: every word (none for scan->functions) */
	/*
	 * What triggers cannot say, of the word and its address alone (a53-843419: an ADRP at
	 * page offset 0xff8 or 0xffc); NULL: no more. Every word it refuses is one fewer to decode.
	 */
	bool (*wants)(uint64_t addr, uint32_t word);
	const struct eh_window_rule *window;
	const struct eh_scan_rule *scan;
};

/*
 * What a rule may look at. The audit patches one image for every model whose
 * capabilities give the same code, so a rule sees the code, its alternatives
 * and where it runs (the boot mode), never the model itself.
 */

/* The ELF the image was patched from: its path, sections and symbols (eh/elf.h). */
const struct eh_elf *eh_rule_elf(const struct eh_rule_ctx *ctx);

/*
 * The instruction delta words after in (before it when delta is negative), in
 * straight-line order in in's section of the patched image, into *out;
 * EH_ENOENT past the section's ends or in replacement code.
 */
int eh_rule_neighbour(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, struct eh_insn *out);

/*
 * The word of the instruction eh_rule_neighbour gives, undecoded, for a rule that tests
 * encodings alone: Capstone costs thousands of host instructions a word.
 */
int eh_rule_neighbour_word(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, uint32_t *word);

/*
 * Up to n words from the one delta words after in on, as eh_rule_neighbour_word gives them
 * one by one, into words[]: how many, fewer where the run leaves in's section or meets
 * replacement code. A rule reading a long stretch of code costs a call, not one a word.
 */
size_t eh_rule_neighbour_words(struct eh_rule_ctx *ctx, const struct eh_insn *in, long delta, size_t n,
			       uint32_t *words);

/* The instruction at addr of the patched image, into *out; EH_ENOENT outside code or in replacement code. */
int eh_rule_insn_at(struct eh_rule_ctx *ctx, uint64_t addr, struct eh_insn *out);

/*
 * The instruction that runs after in on its straight path, into *out: the next one, or
 * the target of an unconditional direct branch. EH_ENOENT where the path forks or
 * leaves what the rule sees: a conditional, indirect or call branch, a return, an
 * ERET, an exception-generating or unknown instruction, the end of the code.
 */
int eh_rule_next(struct eh_rule_ctx *ctx, const struct eh_insn *in, struct eh_insn *out);

/* "sym+0x1c" (eh_elf_describe) into buf. */
const char *eh_rule_where(const struct eh_rule_ctx *ctx, uint64_t addr, char *buf, size_t len);

/* The alternative whose original range holds addr, as patched for the image; NULL when none. */
const struct eh_alt_site *eh_rule_site(const struct eh_rule_ctx *ctx, uint64_t addr);

/* Whether the image applied s, a site eh_rule_site returned (the sites are every image's; this is its own). */
bool eh_rule_applied(const struct eh_rule_ctx *ctx, const struct eh_alt_site *s);

/*
 * Where the code of in runs, and (*why) what says so: KVM's nVHE hyp code (a
 * __kvm_nvhe_ symbol, a *.nvhe.o object, KVM's write_sysreg_el1() alternative
 * from an EL1 to the EL12 encoding) at EL2 with E2H clear; other EL2 code
 * (section .hyp.*) as its own write of HCR_EL2 sets E2H; kernel code at EL2
 * with VHE when the image's target boots at EL2 on a CPU with it, else at EL1.
 */
enum eh_run_el eh_rule_run_el(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why);

/*
 * Whether the code of in runs at all on the image's target; when it does not, *why
 * says so: KVM's nVHE hyp code does not run in a kernel booted at EL1 (no hypervisor),
 * nor in one that runs at EL2 with VHE (KVM runs its VHE code there).
 */
bool eh_rule_runs(struct eh_rule_ctx *ctx, const struct eh_insn *in, const char **why);

/*
 * A scan rule's finding at in: kind names what in is to the rule ("adrp"),
 * anchor the instruction that makes in a hazard (0: none), and the rest a
 * printf explanation. 0, or EH_ENOMEM.
 */
int eh_rule_report(struct eh_rule_ctx *ctx, const struct eh_insn *in, uint64_t anchor, const char *kind,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif

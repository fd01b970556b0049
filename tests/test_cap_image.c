/* Tests the capability rules an image's own entries state: ID register fields, MIDR ranges with REVIDR fixes, match lists, and uncertain code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "reports/rows.h"

/*
 * tests/objects/ktypes612.c's arm64_features[], 6.12-shaped (72-byte entries, max_field_value),
 * decided on models whose registers are known by hand: thunderx2 has LSE (ID_AA64ISAR0_EL1.Atomic
 * 2), cortex-a72 has not (0); every model implements FP (ID_AA64PFR0_EL1.FP 0); the A53 models are
 * 0x410fd032 and 0x410fd034, the -fixed one with REVIDR_EL1 bit 8; cortex-a57-r1p2 is 0x411fd072.
 */
struct row {
	const char *name;
	const char *object;   /* under EH_TEST_OBJ_DIR */
	const char *cap;      /* the entry's desc, in quotes: no rule table names these */
	const char *model;
	enum eh_cap_state want;
	enum eh_cap_source source;
	const char *rule;     /* eh_cap_explain() without a target */
};

static const struct row rows[] = {
	{ "unsigned field within [min, max]", "ktypes612.o", "\"Test atomics\"", "thunderx2", EH_CAP_DETECTED,
	  EH_CAP_FROM_IMAGE, "ID_AA64ISAR0_EL1.Atomic [23:20] >= 2 and <= 15" },
	{ "unsigned field below min", "ktypes612.o", "\"Test atomics\"", "cortex-a72", EH_CAP_NOT_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
	{ "signed field: max -1 excludes an implemented FP", "ktypes612.o", "\"Test no FP\"", "cortex-a72",
	  /* The image holds no field names; 6.12's hand rule for HAS_FPSIMD names [19:16] of ID_AA64PFR0_EL1 FP. */
	  EH_CAP_NOT_DETECTED, EH_CAP_FROM_IMAGE, "ID_AA64PFR0_EL1.FP [19:16] (signed) >= -8 and <= -1" },
	{ "signed field within [0, 7]", "ktypes612.o", "\"Test FP\"", "cortex-a72", EH_CAP_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
	{ "MIDR range: A53 r0p2 inside", "ktypes612.o", "\"Test A53 to r0p4\"", "cortex-a53-r0p2", EH_CAP_DETECTED,
	  EH_CAP_FROM_IMAGE, "MIDR_EL1 in Cortex-A53 r0p0-r0p4, r0p4 fixed where REVIDR_EL1 & 0x100" },
	{ "MIDR range: A53 r0p4 without the REVIDR fix", "ktypes612.o", "\"Test A53 to r0p4\"", "cortex-a53-r0p4",
	  EH_CAP_DETECTED, EH_CAP_FROM_IMAGE, NULL },
	{ "MIDR range: A53 r0p4 with REVIDR bit 8 is fixed", "ktypes612.o", "\"Test A53 to r0p4\"",
	  "cortex-a53-r0p4-fixed", EH_CAP_NOT_DETECTED, EH_CAP_FROM_IMAGE, NULL },
	{ "MIDR range: another part", "ktypes612.o", "\"Test A53 to r0p4\"", "cortex-a72", EH_CAP_NOT_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
	{ "match list: its range-list entry", "ktypes612.o", "\"Test A57 or A72\"", "cortex-a57-r1p2",
	  EH_CAP_DETECTED, EH_CAP_FROM_IMAGE, "any of: MIDR_EL1 in Cortex-A57; MIDR_EL1 in Cortex-A72" },
	{ "match list: its range entry", "ktypes612.o", "\"Test A57 or A72\"", "cortex-a72", EH_CAP_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
	{ "match list: neither", "ktypes612.o", "\"Test A57 or A72\"", "thunderx2", EH_CAP_NOT_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
	{ "code the harness has no rule for: uncertain", "ktypes612.o", "\"Test code\"", "thunderx2",
	  EH_CAP_NOT_DETECTED, EH_CAP_UNCERTAIN,
	  "has_frobnicator(), code the harness has no rule for; assumed: not detected" },
	{ "the same entries through BTF", "ktypes612-btf.o", "\"Test A53 to r0p4\"", "cortex-a53-r0p4-fixed",
	  EH_CAP_NOT_DETECTED, EH_CAP_FROM_IMAGE, NULL },
	{ "... and a field through BTF", "ktypes612-btf.o", "\"Test atomics\"", "thunderx2", EH_CAP_DETECTED,
	  EH_CAP_FROM_IMAGE, NULL },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_elf *elf = NULL;
	struct eh_cpucaps *caps = NULL;
	struct eh_error err = { 0 };
	const struct eh_capability *rule = NULL;
	struct eh_target t = { .model = eh_model_find(r->model), .boot = EH_BOOT_EL2 };
	enum eh_cap_state got;
	char path[4096], why[512];

	snprintf(path, sizeof(path), "%s/%s", EH_TEST_OBJ_DIR, r->object);
	if (!t.model)
		fail_msg("%s: no model %s", r->name, r->model);
	if (eh_elf_open(&elf, path, &err) || eh_cpucaps_from_image(&caps, elf, &err))
		fail_msg("%s: %s", r->name, err.msg);
	if (!caps->rules)
		fail_msg("%s: %s gives no rules of its own", r->name, path);
	got = eh_cap_decide(caps->rules, &t, r->cap, &rule);
	if (got != r->want || !rule || rule->source != r->source)
		fail_msg("%s: %s on %s: state %d (want %d), source %s (want %s)", r->name, r->cap, r->model, got,
			 r->want, rule ? eh_cap_source_name(rule->source) : "none", eh_cap_source_name(r->source));
	if (r->rule && strcmp(eh_cap_explain(rule, NULL, why, sizeof(why)), r->rule))
		fail_msg("%s: rule '%s', want '%s'", r->name, why, r->rule);
	eh_cpucaps_free(caps);
	eh_elf_free(elf);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	return EH_RUN_TESTS("cap_image", tests, n);
}

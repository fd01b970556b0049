/* Capability detection inputs: boot modes, and what each means for hyp mode and VHE on each model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/model.h"

struct boot_row {
	const char *name;
	const char *model;
	enum eh_boot boot;
	bool hyp_mode;  /* the kernel was entered at EL2 */
	bool vhe;       /* and its EL1 code runs at EL2 with E2H */
};

static const struct boot_row boot_rows[] = {
	{ "thunderx2 el2: a VHE host", "thunderx2", EH_BOOT_EL2, true, true },
	{ "thunderx2 nvhe: hyp code at EL2, kernel at EL1", "thunderx2", EH_BOOT_NVHE, true, false },
	{ "thunderx2 el1: a guest", "thunderx2", EH_BOOT_EL1, false, false },
	{ "vulcan el2: a VHE host", "vulcan", EH_BOOT_EL2, true, true },
	{ "cortex-a72 el2: Armv8.0, no VHE", "cortex-a72", EH_BOOT_EL2, true, false },
	{ "cortex-a72 el1: a guest", "cortex-a72", EH_BOOT_EL1, false, false },
	{ "sve2-capable el2: a VHE host", "sve2-capable", EH_BOOT_EL2, true, true },
};

static void run_boot_row(void **state)
{
	const struct boot_row *r = *state;
	const struct eh_target t = { .model = eh_model_find(r->model), .boot = r->boot };
	bool hyp, vhe;

	assert_non_null(t.model);
	hyp = eh_target_hyp_mode(&t);
	vhe = eh_target_vhe(&t);
	if (hyp != r->hyp_mode || vhe != r->vhe)
		fail_msg("%s: hyp mode %d, VHE %d; expected %d, %d", r->name, hyp, vhe, r->hyp_mode, r->vhe);
}

struct parse_row {
	const char *name;
	const char *text;
	int rc;
	enum eh_boot boot;
};

static const struct parse_row parse_rows[] = {
	{ "parse el2", "el2", 0, EH_BOOT_EL2 },
	{ "parse nvhe", "nvhe", 0, EH_BOOT_NVHE },
	{ "parse el1", "el1", 0, EH_BOOT_EL1 },
	{ "parse EL2 (case matters)", "EL2", EH_EINVAL, 0 },
	{ "parse vhe (not a mode)", "vhe", EH_EINVAL, 0 },
	{ "parse empty", "", EH_EINVAL, 0 },
};

static void run_parse_row(void **state)
{
	const struct parse_row *r = *state;
	enum eh_boot boot = EH_BOOT_EL1;
	int rc = eh_boot_parse(r->text, &boot);

	if (rc != r->rc || (!rc && boot != r->boot))
		fail_msg("%s: '%s' gave %d (mode %d); expected %d (mode %d)", r->name, r->text, rc, boot, r->rc,
			 r->boot);
	if (!rc && strcmp(eh_boot_names[boot], r->text))
		fail_msg("%s: the name of mode %d is '%s'", r->name, boot, eh_boot_names[boot]);
}

#define NBOOT (sizeof(boot_rows) / sizeof(boot_rows[0]))
#define NPARSE (sizeof(parse_rows) / sizeof(parse_rows[0]))

int main(void)
{
	struct CMUnitTest tests[NBOOT + NPARSE];
	size_t i, n = 0;

	for (i = 0; i < NBOOT; i++)
		tests[n++] = (struct CMUnitTest){
			.name = boot_rows[i].name, .test_func = run_boot_row, .initial_state = (void *)&boot_rows[i],
		};
	for (i = 0; i < NPARSE; i++)
		tests[n++] = (struct CMUnitTest){
			.name = parse_rows[i].name, .test_func = run_parse_row,
			.initial_state = (void *)&parse_rows[i],
		};
	return _cmocka_run_group_tests("capabilities", tests, n, NULL, NULL);
}

/* zfr0-raz's reference computations: the kernel's ZFR0 sanitising and the architecture's RAZ rule, against hand-worked values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../cases/zfr0-raz/zfr0_raz.h"

#define SVE_ON "CONFIG_ARM64_SVE=y\n"
#define SVE_OFF "# CONFIG_ARM64_SVE is not set\nCONFIG_ARM64_PAN=y\n"

/* SVEver 1, AES 2, BitPerm 1, SHA3 1, SM4 1: 0x1 | 0x2 << 4 | 0x1 << 16 | 0x1 << 32 | 0x1 << 40. */
#define SVE2_ALL 0x0000010100010021ull
/* The same with bits the 5.4 kernel does not know (63:60 and 59:56) set. */
#define SVE2_UNKNOWN_BITS 0xff00010100010021ull

struct row {
	const char *name;
	bool fixed;            /* which table */
	const char *config;
	uint64_t hw;
	uint64_t user;         /* what EL0 reads through that table */
	uint64_t required;     /* what the architecture asks for */
};

static const struct row rows[] = {
	{ "before, SVE off, SVE2 CPU", false, SVE_OFF, SVE2_ALL, SVE2_ALL, 0 },
	{ "after, SVE off, SVE2 CPU", true, SVE_OFF, SVE2_ALL, 0, 0 },
	{ "before, SVE on, SVE2 CPU", false, SVE_ON, SVE2_ALL, SVE2_ALL, SVE2_ALL },
	{ "after, SVE on, SVE2 CPU", true, SVE_ON, SVE2_ALL, SVE2_ALL, SVE2_ALL },
	{ "before, SVE on, unknown bits hidden", false, SVE_ON, SVE2_UNKNOWN_BITS, SVE2_ALL, SVE2_ALL },
	{ "after, SVE on, unknown bits hidden", true, SVE_ON, SVE2_UNKNOWN_BITS, SVE2_ALL, SVE2_ALL },
	/* Only SM4 (43:40 = 1): 0x100 << 32. */
	{ "before, SVE off, SM4 alone", false, SVE_OFF, 0x0000010000000000ull, 0x0000010000000000ull, 0 },
	{ "before, SVE off, no SVE", false, SVE_OFF, 0, 0, 0 },
	{ "after, SVE on, no SVE", true, SVE_ON, 0, 0, 0 },
};

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_kconfig *config;
	uint64_t user, required;

	assert_int_equal(eh_kconfig_parse(&config, r->name, r->config, strlen(r->config), NULL), 0);
	user = eh_zfr0_user_value(r->fixed ? eh_zfr0_fields_after : eh_zfr0_fields_before, r->hw, config);
	required = eh_zfr0_required(r->hw, config);
	eh_kconfig_free(config);
	if (user != r->user || required != r->required)
		fail_msg("%s: hw 0x%016llx: EL0 reads 0x%016llx (expected 0x%016llx), required 0x%016llx "
			 "(expected 0x%016llx)", r->name, (unsigned long long)r->hw, (unsigned long long)user,
			 (unsigned long long)r->user, (unsigned long long)required,
			 (unsigned long long)r->required);
}

/* The tables hold the five 4-bit fields of the Arm ARM at their shifts, and nothing else. */
static void test_tables_cover_known_fields(void **state)
{
	const struct eh_ftr_field *const tables[] = { eh_zfr0_fields_before, eh_zfr0_fields_after };
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++) {
		const struct eh_ftr_field *f;
		uint64_t mask = 0;

		for (f = tables[i]; f->name; f++)
			mask |= ((1ull << f->width) - 1) << f->shift;
		assert_int_equal(mask, EH_ZFR0_KNOWN_FIELDS);
	}
	assert_int_equal(EH_ZFR0_KNOWN_FIELDS, 0xfull | 0xfull << 4 | 0xfull << 16 | 0xfull << 32 | 0xfull << 40);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(rows) / sizeof(rows[0]) + 1];
	size_t i, n = 0;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		tests[n++] = (struct CMUnitTest){ .name = rows[i].name, .test_func = run_row,
						  .initial_state = (void *)&rows[i] };
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_tables_cover_known_fields);
	return _cmocka_run_group_tests("zfr0-raz", tests, n, NULL, NULL);
}

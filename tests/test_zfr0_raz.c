/* zfr0-raz's reference computations: the snippet's field tables through the kernel's sanitising, and the architecture's RAZ rule, against hand-worked values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../cases/zfr0-raz/zfr0_raz.h"
#include "reports/rows.h"

#define SVE_ON "CONFIG_ARM64_SVE=y\n"
#define SVE_OFF "# CONFIG_ARM64_SVE is not set\nCONFIG_ARM64_PAN=y\n"

/* SVEver 1, AES 2, BitPerm 1, SHA3 1, SM4 1: 0x1 | 0x2 << 4 | 0x1 << 16 | 0x1 << 32 | 0x1 << 40. */
#define SVE2_ALL 0x0000010100010021ull
/* The same with bits the 5.4 kernel does not know (63:60 and 59:56) set. */
#define SVE2_UNKNOWN_BITS 0xff00010100010021ull

struct row {
	const char *name;
	const char *table;     /* the snippet's symbol */
	const char *config;
	uint64_t hw;
	uint64_t user;         /* what EL0 reads through that table */
	uint64_t required;     /* what the architecture asks for */
};

static const struct row rows[] = {
	{ "before, SVE off, SVE2 CPU", "ftr_id_aa64zfr0_before", SVE_OFF, SVE2_ALL, SVE2_ALL, 0 },
	{ "after, SVE off, SVE2 CPU", "ftr_id_aa64zfr0_after", SVE_OFF, SVE2_ALL, 0, 0 },
	{ "before, SVE on, SVE2 CPU", "ftr_id_aa64zfr0_before", SVE_ON, SVE2_ALL, SVE2_ALL, SVE2_ALL },
	{ "after, SVE on, SVE2 CPU", "ftr_id_aa64zfr0_after", SVE_ON, SVE2_ALL, SVE2_ALL, SVE2_ALL },
	{ "before, SVE on, unknown bits hidden", "ftr_id_aa64zfr0_before", SVE_ON, SVE2_UNKNOWN_BITS,
	  SVE2_ALL, SVE2_ALL },
	{ "after, SVE on, unknown bits hidden", "ftr_id_aa64zfr0_after", SVE_ON, SVE2_UNKNOWN_BITS,
	  SVE2_ALL, SVE2_ALL },
	/* Only SM4 (43:40 = 1): 0x100 << 32. */
	{ "before, SVE off, SM4 alone", "ftr_id_aa64zfr0_before", SVE_OFF, 0x0000010000000000ull,
	  0x0000010000000000ull, 0 },
	{ "before, SVE off, no SVE", "ftr_id_aa64zfr0_before", SVE_OFF, 0, 0, 0 },
	{ "after, SVE on, no SVE", "ftr_id_aa64zfr0_after", SVE_ON, 0, 0, 0 },
	/* Every bit set: the tables must expose exactly SVEver, AES, BitPerm, SHA3 and SM4. */
	{ "before, SVE on, every bit set", "ftr_id_aa64zfr0_before", SVE_ON, ~0ull, 0x00000f0f000f00ffull,
	  0x00000f0f000f00ffull },
	{ "after, SVE off, every bit set", "ftr_id_aa64zfr0_after", SVE_OFF, ~0ull, 0, 0 },
};

static struct eh_elf *snippet;

static int open_snippet(void **state)
{
	(void)state;
	return eh_elf_open(&snippet, EH_CASES_DIR "/zfr0-raz.elf", NULL);
}

static int close_snippet(void **state)
{
	(void)state;
	eh_elf_free(snippet);
	return 0;
}

static void run_row(void **state)
{
	const struct row *r = *state;
	struct eh_ftr_field table[EH_ZFR0_FIELDS_MAX];
	struct eh_kconfig *config;
	struct eh_error err = { 0 };
	uint64_t user, required;

	if (eh_zfr0_read_table(snippet, r->table, table, &err))
		fail_msg("%s: %s", r->name, err.msg);
	assert_int_equal(eh_kconfig_parse(&config, r->name, r->config, strlen(r->config), NULL), 0);
	user = eh_zfr0_user_value(table, r->hw, config);
	required = eh_zfr0_required(r->hw, config);
	eh_kconfig_free(config);
	if (user != r->user || required != r->required)
		fail_msg("%s: hw 0x%016llx: EL0 reads 0x%016llx (expected 0x%016llx), required 0x%016llx "
			 "(expected 0x%016llx)", r->name, (unsigned long long)r->hw, (unsigned long long)user,
			 (unsigned long long)r->user, (unsigned long long)required,
			 (unsigned long long)r->required);
}

/* A table the snippet does not have, or one without its end entry, is bad input that names it. */
static void test_bad_table(void **state)
{
	struct eh_ftr_field table[EH_ZFR0_FIELDS_MAX];
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_zfr0_read_table(snippet, "zfr0_read_el0", table, &err), EH_EINPUT);
	assert_non_null(strstr(err.msg, "zfr0_read_el0"));
	assert_int_equal(eh_zfr0_read_table(snippet, "no_such_table", table, &err), EH_EINPUT);
	assert_non_null(strstr(err.msg, "no_such_table"));
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_bad_table);
	return EH_RUN_GROUP("zfr0-raz", tests, n, open_snippet, close_snippet);
}

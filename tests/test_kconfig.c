/* The .config parser: what a kernel build writes, and every malformed line named by file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "eh/kconfig.h"

struct row {
	const char *name;
	const char *text;
	int rc;
	const char *symbol;     /* asked of a parsed config */
	bool enabled;
	const char *message;    /* in the error */
};

static const struct row rows[] = {
	{ "y is on", "CONFIG_CAVIUM_TX2_ERRATUM_219=y\n", 0, "CONFIG_CAVIUM_TX2_ERRATUM_219", true },
	{ "m is on", "CONFIG_FOO=m\n", 0, "CONFIG_FOO", true },
	{ "not set is off", "# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n", 0,
	  "CONFIG_CAVIUM_TX2_ERRATUM_219", false },
	{ "absent is off", "CONFIG_ARM64=y\n", 0, "CONFIG_ARM64_SVE", false },
	{ "n is off", "CONFIG_ARM64_SVE=n\n", 0, "CONFIG_ARM64_SVE", false },
	{ "strings and numbers are not on", "CONFIG_LOCALVERSION=\"-y\"\nCONFIG_NR_CPUS=64\n", 0,
	  "CONFIG_NR_CPUS", false },
	{ "prefix of a longer name", "CONFIG_ARM64_SVE_EXTRA=y\n", 0, "CONFIG_ARM64_SVE", false },
	{ "CRLF line ends", "CONFIG_ARM64_PAN=y\r\n", 0, "CONFIG_ARM64_PAN", true },
	{ "no final newline", "CONFIG_ARM64_PAN=y", 0, "CONFIG_ARM64_PAN", true },
	{ "blank lines and comments", "\n#\n# Kernel Features\n#\nCONFIG_A=y\n", 0, "CONFIG_A", true },
	{ "empty file", "", 0, "CONFIG_A", false },
	{ "not a CONFIG_ line", "CONFIG_A=y\nfoo=y\n", EH_EINPUT, NULL, false, "x.config:2: expected" },
	{ "missing value", "CONFIG_A\n", EH_EINPUT, NULL, false, "x.config:1: expected" },
	{ "bare prefix", "CONFIG_=y\n", EH_EINPUT, NULL, false, "x.config:1:" },
	{ "space before =", "CONFIG_A =y\n", EH_EINPUT, NULL, false, "x.config:1:" },
};

static void test_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct eh_kconfig *cfg = (struct eh_kconfig *)1;
		struct eh_error err = { 0 };
		int rc = eh_kconfig_parse(&cfg, "x.config", r->text, strlen(r->text), &err);

		if (rc != r->rc)
			fail_msg("%s: rc %d, expected %d (%s)", r->name, rc, r->rc, err.msg);
		if (rc) {
			if (cfg || !strstr(err.msg, r->message))
				fail_msg("%s: message '%s', expected '%s'", r->name, err.msg, r->message);
			continue;
		}
		if (eh_kconfig_enabled(cfg, r->symbol) != r->enabled)
			fail_msg("%s: %s should be %s", r->name, r->symbol, r->enabled ? "on" : "off");
		eh_kconfig_free(cfg);
	}
}

/* No configuration given stands for a kernel with every option on. */
static void test_null_is_all_on(void **state)
{
	(void)state;
	assert_true(eh_kconfig_enabled(NULL, "CONFIG_CAVIUM_TX2_ERRATUM_219"));
}

static void test_missing_file(void **state)
{
	struct eh_kconfig *cfg;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_kconfig_open(&cfg, "/nonexistent/.config", &err), EH_EIO);
	assert_null(cfg);
	assert_non_null(strstr(err.msg, "/nonexistent/.config"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_null_is_all_on),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The inputs audit and exec share: a given capability numbering (a header or a built-in table), a .config and the boot mode. */
#include <string.h>

#include "cli.h"

#include "eh/cpucaps.h"
#include "eh/file.h"
#include "eh/kconfig.h"
#include "eh/model.h"

/* "2 GiB", "64 MiB": the limits are whole powers of 1024. */
static const char *size_text(size_t n, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && n >= 1024 && !(n % 1024)) {
		n /= 1024;
		u++;
	}
	snprintf(buf, len, "%zu %s", n, units[u]);
	return buf;
}

/* Each input and its limit, and the commands that read it. */
static const struct {
	const char *what;
	size_t max;
	const char *cmds;     /* "audit exec" */
} input_limits[] = {
	{ "FILE", EH_FILE_MAX_ELF, "audit exec" },
	{ "--config", EH_FILE_MAX_CONFIG, "audit exec" },
	{ "--cpucaps", EH_FILE_MAX_CPUCAPS, "audit exec" },
	{ "--suppress", EH_FILE_MAX_SUPPRESS, "audit" },
	{ "--mem", EH_FILE_MAX_MEM, "exec" },
};

void cli_print_input_limits(FILE *f, const char *cmd)
{
	char size[32];
	size_t i, n = 0;

	fputs("\n  Every input is a regular file (not a directory, FIFO or device) of at most\n  ", f);
	for (i = 0; i < sizeof(input_limits) / sizeof(input_limits[0]); i++)
		if (strstr(input_limits[i].cmds, cmd))
			fprintf(f, "%s%s (%s)", n++ ? ", " : "", size_text(input_limits[i].max, size, sizeof(size)),
				input_limits[i].what);
	fputs(";\n  others are refused before they are read.\n", f);
}

int cli_inputs_open(struct cli_inputs *in, const char *cmd, const char *cpucaps, const char *kernel,
		    const char *config, const char *boot)
{
	struct eh_error err = { 0 };

	*in = (struct cli_inputs){ 0 };
	if (boot && eh_boot_parse(boot, &in->boot)) {
		fprintf(stderr, "errata-harness %s: --boot: '%s' is none of el2, nvhe, el1\n", cmd, boot);
		return EXIT_BAD_INPUT;
	}
	if (cpucaps && kernel) {
		fprintf(stderr, "errata-harness %s: --cpucaps and --kernel both give the capability numbering: "
			"one of them\n", cmd);
		return EXIT_BAD_INPUT;
	}
	if (kernel) {
		in->caps = eh_cpucaps_builtin(kernel);
		if (!in->caps) {
			fprintf(stderr, "errata-harness %s: --kernel: no built-in capability table for '%s' "
				"(see %s --help)\n", cmd, kernel, cmd);
			return EXIT_BAD_INPUT;
		}
	} else if (cpucaps && eh_cpucaps_open(&in->owned_caps, cpucaps, &err)) {
		goto fail;
	} else {
		in->caps = in->owned_caps;
	}
	if (config && eh_kconfig_open(&in->config, config, &err))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "errata-harness %s: %s\n", cmd, err.msg);
	cli_inputs_close(in);
	return EXIT_BAD_INPUT;
}

void cli_inputs_close(struct cli_inputs *in)
{
	eh_kconfig_free(in->config);
	eh_cpucaps_free(in->owned_caps);
	*in = (struct cli_inputs){ 0 };
}

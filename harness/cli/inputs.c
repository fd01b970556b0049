/* The inputs audit and exec share: the capability numbering (a header or a built-in table) and a .config. */
#include "cli.h"

#include "eh/cpucaps.h"
#include "eh/file.h"
#include "eh/kconfig.h"

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

void cli_print_input_limits(FILE *f, bool mem)
{
	char elf[32], config[32], cpucaps[32], image[32];

	fprintf(f, "\n  Every input is a regular file (not a directory, FIFO or device) of at most\n"
		"  %s (FILE), %s (--config), %s (--cpucaps)%s%s%s; others are refused\n"
		"  before they are read.\n", size_text(EH_FILE_MAX_ELF, elf, sizeof(elf)),
		size_text(EH_FILE_MAX_CONFIG, config, sizeof(config)),
		size_text(EH_FILE_MAX_CPUCAPS, cpucaps, sizeof(cpucaps)), mem ? ", " : "",
		mem ? size_text(EH_FILE_MAX_MEM, image, sizeof(image)) : "", mem ? " (--mem)" : "");
}

int cli_inputs_open(struct cli_inputs *in, const char *cmd, const char *cpucaps, const char *kernel,
		    const char *config)
{
	struct eh_error err = { 0 };

	*in = (struct cli_inputs){ 0 };
	if (!cpucaps == !kernel) {
		fprintf(stderr, "errata-harness %s: give the capability numbering: --cpucaps HEADER or "
			"--kernel VERSION, one of them\n", cmd);
		return EXIT_BAD_INPUT;
	}
	if (kernel) {
		in->caps = eh_cpucaps_builtin(kernel);
		if (!in->caps) {
			fprintf(stderr, "errata-harness %s: --kernel: no built-in capability table for '%s' "
				"(see %s --help)\n", cmd, kernel, cmd);
			return EXIT_BAD_INPUT;
		}
	} else if (eh_cpucaps_open(&in->owned_caps, cpucaps, &err)) {
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

/* The inputs audit and exec share: a given capability numbering (a header or a built-in table), a .config and the boot mode. */
#include "cli.h"

#include "eh/cpucaps.h"
#include "eh/kconfig.h"
#include "eh/model.h"

const char cli_boot_help[] =
	"  --boot el2|nvhe|el1 how the kernel was booted (default el2): el2 a host, VHE where the\n"
	"                      CPU has it (the kernel's default); nvhe a host with kvm-arm.mode=nvhe,\n"
	"                      the kernel at EL1 and KVM's hyp code at EL2; el1 a guest kernel, where\n"
	"                      KVM's code never runs\n";

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

/* The inputs audit and exec share: a given capability numbering (a header or a built-in table), a .config and the boot mode. */
#include <string.h>

#include "cli.h"

#include "eh/cpucaps.h"
#include "eh/erratum.h"
#include "eh/file.h"
#include "eh/json.h"
#include "eh/kimage.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/suppress.h"
#include "eh/text.h"

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

static void add_model(struct cli_pick *p, const struct eh_model *m)
{
	size_t i;

	for (i = 0; i < p->nmodels; i++)
		if (p->models[i] == m)
			return;
	p->models[p->nmodels++] = m;
}

/* A --model name, or all; a model named twice counts once. */
static int pick_model(struct cli_pick *p, const char *cmd, const char *name)
{
	const struct eh_model *const *all;
	const struct eh_model *m;

	if (!strcmp(name, "all")) {
		for (all = eh_models; *all; all++)
			add_model(p, *all);
		return 0;
	}
	m = eh_model_find(name);
	if (!m) {
		return cli_error(cmd, "unknown model '%s' (see errata-harness models)", name);
	}
	add_model(p, m);
	return 0;
}

/* An --erratum id: an erratum with a static rule, marked in chosen (by index in eh_errata). */
static int pick_erratum(bool *chosen, const char *cmd, const char *id)
{
	size_t i;

	for (i = 0; eh_errata[i] && strcmp(eh_errata[i]->id, id); i++)
		;
	if (!eh_errata[i])
		return cli_error(cmd, "unknown erratum '%s' (see %s --help)", id, cmd);
	if (!eh_errata[i]->rule)
		return cli_error(cmd, "erratum %s has no static rule to audit with (see %s --help)", id, cmd);
	chosen[i] = true;
	return 0;
}

/* Each name of the comma lists in turn, picked as a model or (chosen) an erratum. */
static int pick_names(struct cli_pick *p, bool *chosen, const char *cmd, const char *opt, const char *const *lists,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = lists[i];

		for (;;) {
			size_t len = strcspn(s, ",");
			char name[64];
			int rc;

			if (!len || len >= sizeof(name))
				return cli_error(cmd, "%s: '%s' is not a list of names", opt, lists[i]);
			memcpy(name, s, len);
			name[len] = 0;
			rc = chosen ? pick_erratum(chosen, cmd, name) : pick_model(p, cmd, name);
			if (rc)
				return rc;
			if (!s[len])
				break;
			s += len + 1;
		}
	}
	return 0;
}

int cli_pick(struct cli_pick *p, const char *cmd, const char *const *models, size_t nmodels,
	     const char *const *errata, size_t nerrata)
{
	const struct eh_model *const *m;
	size_t i, n = 0, nmodel = 0;
	bool *chosen;
	int rc;

	*p = (struct cli_pick){ 0 };
	for (m = eh_models; *m; m++)
		nmodel++;
	while (eh_errata[n])
		n++;
	p->models = eh_alloc((nmodel + 1) * sizeof(*p->models));
	p->errata = eh_alloc((n + 1) * sizeof(*p->errata));
	chosen = eh_alloc((n + 1) * sizeof(*chosen));
	if (!p->models || !p->errata || !chosen)
		rc = cli_error(cmd, "out of memory");
	else
		rc = pick_names(p, NULL, cmd, "--model", models, nmodels);
	if (!rc)
		rc = pick_names(p, chosen, cmd, "--erratum", errata, nerrata);
	for (i = 0; !rc && eh_errata[i]; i++)
		if (eh_errata[i]->rule && (!nerrata || chosen[i]))
			p->errata[p->nerrata++] = eh_errata[i];
	eh_free(chosen);
	if (rc)
		cli_pick_free(p);
	return rc;
}

void cli_pick_free(struct cli_pick *p)
{
	eh_free(p->models);
	eh_free(p->errata);
	*p = (struct cli_pick){ 0 };
}

int cli_suppress_open(struct eh_suppressions **out, const char *cmd, const char *path)
{
	struct eh_error err = { 0 };
	const char **ids;
	size_t n = 0;
	int rc;

	*out = NULL;
	if (!path)
		return 0;
	while (eh_errata[n])
		n++;
	ids = eh_alloc((n + 1) * sizeof(*ids));
	for (n = 0; ids && eh_errata[n]; n++)
		ids[n] = eh_errata[n]->id;
	if (!ids)
		rc = eh_error_set(&err, EH_ENOMEM, "out of memory");
	else
		rc = eh_suppress_open(out, path, ids, &err);
	eh_free(ids);
	return rc ? cli_error(cmd, "%s", err.msg) : 0;
}

int cli_config_choose(struct cli_config *c, const struct cli_inputs *in, const char *path, const struct eh_elf *elf,
		      struct eh_error *err)
{
	struct eh_error none = { 0 };
	int rc;

	*c = (struct cli_config){ 0 };
	if (in->config) {
		c->config = in->config;
		snprintf(c->source, sizeof(c->source), "%s", path);
		return 0;
	}
	rc = eh_kimage_config(&c->embedded, elf, &none);
	if (rc == EH_ENOENT) {
		snprintf(c->source, sizeof(c->source), "with every option on");
		return 0;
	}
	if (rc) {
		if (err)
			*err = none;
		return rc;
	}
	c->config = c->embedded;
	snprintf(c->source, sizeof(c->source), "%s's own (CONFIG_IKCONFIG)", elf->path);
	return 0;
}


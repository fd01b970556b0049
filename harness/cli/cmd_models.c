/* errata-harness models: each CPU model's identity and ID registers, and the capabilities a kernel detects on it and why. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "eh/cap.h"
#include "eh/erratum.h"
#include "eh/json.h"
#include "eh/image.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/model_from.h"
#include "eh/report_audit.h"
#include "eh/sysreg.h"
#include "eh/text.h"

static const struct eh_text_style wrap = { .width = EH_TEXT_WIDTH };

struct models_opts {
	const char *kernel, *boot, *config, *from;
	struct eh_selection sel;
	bool rules, json;
};

static const struct cli_option opt_from = { "from", 0, "FILE",
	"a model of the machine FILE describes: /sys/devices/system/cpu (or a copy), a "
	"listing of its cpu*/regs/identification files, an ID register dump (NAME=VALUE "
	"lines, tests/qemu/probe/) or a boot log (docs/capabilities.md)" };
static const struct cli_option opt_rules = { "rules", 0, NULL,
	"the kernel version's capability rules instead of the models" };

/* The rows of models's option table. */
enum models_opt {
	MODELS_MODEL = 1,
	MODELS_KERNEL,
	MODELS_BOOT,
	MODELS_CONFIG,
	MODELS_FROM,
	MODELS_RULES,
	MODELS_FORMAT,
};

static const struct cli_use models_uses[] = {
	{ &cli_opt_model, MODELS_MODEL, true, "only these models: NAME,NAME,... or the option repeated" },
	{ &cli_opt_kernel, MODELS_KERNEL, false, "the kernel version whose rules decide: 5.4, 6.1 (default) or 6.12" },
	{ &cli_opt_boot, MODELS_BOOT },
	{ &cli_opt_config, MODELS_CONFIG },
	{ &opt_from, MODELS_FROM, false,
	  "instead of the known models, the model of the machine FILE describes: /sys/devices/system/cpu "
	  "(or a copy), a listing of its cpuN/regs/identification files, an ID register dump (NAME=VALUE "
	  "lines, tests/qemu/probe/) or a boot log's 'Booting Linux on physical CPU' lines; registers it "
	  "does not give come from the known model of the same part (docs/capabilities.md)" },
	{ &opt_rules, MODELS_RULES, false,
	  "print the kernel version's rules instead: how each capability is detected (arm64_features[], "
	  "arm64_errata[] restated)" },
	{ &cli_opt_format, MODELS_FORMAT, false, "text (default), or json for --rules" },
	{ &cli_opt_help },
	{ 0 },
};

const struct cli_usage cmd_models_usage = {
	.args = "",
	.about = "Describes each CPU model: MIDR_EL1, REVIDR_EL1, threads, errata, every ID register the "
		 "kernel reads and where its value comes from, and each capability the kernel version "
		 "detects on it when booted as --boot says, with the rule that detected it and what it read "
		 "there.",
	.exit_status = "0, or 2 on bad usage or input.",
	.uses = models_uses,
};

static int on_option(void *ctx, int id, const char *value)
{
	struct models_opts *o = ctx;

	switch ((enum models_opt)id) {
	case MODELS_MODEL: return cli_add_selection(&o->sel, EH_SELECT_MODEL, value);
	case MODELS_KERNEL: o->kernel = value; return 0;
	case MODELS_BOOT: o->boot = value; return 0;
	case MODELS_CONFIG: o->config = value; return 0;
	case MODELS_FROM: o->from = value; return 0;
	case MODELS_RULES: o->rules = true; return 0;
	case MODELS_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "json"))
			return usage_error("models: --format: '%s' is neither text nor json", value);
		o->json = !strcmp(value, "json");
		return 0;
	}
	return 0;
}

static bool selected(const struct models_opts *o, const struct eh_model *m)
{
	unsigned i;

	for (i = 0; i < o->sel.n[EH_SELECT_MODEL]; i++)
		if (!strcmp(o->sel.names[EH_SELECT_MODEL][i], m->name))
			return true;
	return !o->sel.n[EH_SELECT_MODEL];
}

/* A system's cores, each with its identity, boot CPU first. */
static void print_cores(const struct eh_model *m)
{
	const struct eh_model *const *c;
	char line[1024];
	size_t n = 0;

	n += (size_t)snprintf(line, sizeof(line), "cores (boot CPU first, %u threads):", eh_model_threads(m));
	for (c = m->cores; *c && n < sizeof(line); c++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s (MIDR_EL1 0x%08x, REVIDR_EL1 0x%08x)",
				      c == m->cores ? "" : ",", (*c)->name, (*c)->midr, (*c)->revidr);
	eh_text_wrap(stdout, &wrap, 2, line);
}

/*
 * The cores of system m that have erratum e (or, e NULL, local-CPU capability cap), as
 * "a, b" into buf. Returns the first (a capability's rule is explained on it), or NULL.
 */
static const struct eh_model *cores_having(const struct eh_model *m, const struct eh_erratum *e,
					   const struct eh_cap_rules *rules, const struct eh_target *t, const char *cap,
					   char *buf, size_t len)
{
	const struct eh_model *const *c, *first = NULL;
	struct eh_target core = *t;
	size_t n = 0;

	buf[0] = 0;
	for (c = m->cores; c && *c && n < len; c++) {
		core.model = *c;
		if (e ? eh_erratum_affects(e, *c) : eh_cap_detected(rules, &core, cap)) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? ", " : "", (*c)->name);
			if (!first)
				first = *c;
		}
	}
	return first;
}

static void print_model(const struct eh_model *m, const struct eh_cap_rules *rules, const struct eh_target *t,
			const char *config)
{
	const struct eh_erratum *const *e;
	const struct eh_id_reg *r;
	const struct eh_capability *c, *rule;
	char name[32], why[512], cores[256];
	unsigned n = 0, total = 0;
	uint64_t v;

	if (m->cores) {
		printf("%s\n  %s\n", m->name, m->desc);
		print_cores(m);
	} else {
		printf("%s\n  %s\n  MIDR_EL1 0x%08x, REVIDR_EL1 0x%08x, %u thread%s per core\n", m->name, m->desc,
		       m->midr, m->revidr, m->threads_per_core, m->threads_per_core == 1 ? "" : "s");
	}
	printf("  errata:");
	for (e = eh_errata; *e; e++)
		if (eh_erratum_affects(*e, m)) {
			printf(" %s%s", (*e)->id, eh_erratum_shows(*e, m) ? "" : " (not exposed)");
			n++;
		}
	printf("%s\n", n ? "" : " none");
	/* A system's errata are its cores': which, one erratum a line. */
	for (e = eh_errata; m->cores && *e; e++)
		if (eh_erratum_affects(*e, m) && cores_having(m, *e, rules, t, NULL, cores, sizeof(cores))) {
			snprintf(why, sizeof(why), "%s on %s", (*e)->id, cores);
			eh_text_para(stdout, &wrap, 4, why);
		}
	n = 0;
	snprintf(why, sizeof(why), "ID registers (%s):", m->id_source);
	eh_text_wrap(stdout, &wrap, 2, why);
	/* A system's registers are those of its boot CPU's list, each read system-wide (sanitised). */
	for (r = eh_model_boot_core(m)->id_regs; r && r->reg; r++)
		if (!eh_model_id_reg(m, r->reg, &v))
			printf("    %-18s 0x%016" PRIx64 "\n", eh_sysreg_name(r->reg, name, sizeof(name)), v);
	for (c = rules->caps; c->name; c++) {
		if (!eh_cap_rules_first(rules, c))
			continue;
		total++;
		n += eh_cap_decide(rules, t, c->name, NULL) == EH_CAP_DETECTED;
	}
	snprintf(why, sizeof(why), "capabilities Linux %s detects booted at %s, %s (%u of %u):", rules->kernel,
		 eh_boot_names[t->boot], config ? config : "every Kconfig option on", n, total);
	eh_text_wrap(stdout, &wrap, 2, why);
	for (c = rules->caps; c->name; c++)
		if (eh_cap_rules_first(rules, c) && eh_cap_decide(rules, t, c->name, &rule) == EH_CAP_DETECTED)
		{
			struct eh_target on = *t;  /* where the rule is explained: a core of a system, but at system scope */

			printf("    %s", c->name);
			if (m->cores && (c->type & 7) == 1) {
				on.model = cores_having(m, NULL, rules, t, c->name, cores, sizeof(cores));
				if (on.model)
					printf(" (%s)", cores);
			} else if (m->cores) {
				printf(" (%s)", (c->type & 7) == 4 ? "the boot CPU" : "system-wide: sanitised");
				if ((c->type & 7) == 4)
					on.model = eh_model_boot_core(m);
			}
			printf("\n");
			eh_text_wrap(stdout, &wrap, 6, eh_cap_explain(rule, &on, why, sizeof(why)));
		}
}

static void print_rules_text(const struct eh_cap_rules *rules)
{
	const struct eh_capability *c;
	char why[1024], line[1200];

	printf("Linux %s capability rules, arm64_features[] then arm64_errata[]:\n", rules->kernel);
	snprintf(line, sizeof(line), "checked: %s", rules->checked ? rules->checked :
		 "no: written without a tree of this version to compare it with");
	eh_text_wrap(stdout, &wrap, 0, line);
	for (c = rules->caps; c->name; c++) {
		snprintf(line, sizeof(line), "%s scope, %s()%s%s: %s", eh_cap_scope_name(c->type), c->kernel_matches,
			 c->config ? ", " : "", c->config ? c->config : "", eh_cap_explain(c, NULL, why, sizeof(why)));
		printf("%s\n", c->name);
		eh_text_wrap(stdout, &wrap, 2, line);
	}
}

static void print_midr_json(struct eh_json *j, const struct eh_midr_range *r)
{
	char model[16];

	eh_json_array(j, "midr", false);
	for (; r && r->model; r++) {
		eh_json_object(j, NULL, true);
		eh_json_str(j, "cpu", r->cpu);
		snprintf(model, sizeof(model), "0x%08x", r->model);
		eh_json_str(j, "model", model);
		eh_json_array(j, "from", true);
		eh_json_uint(j, NULL, r->var_min);
		eh_json_uint(j, NULL, r->rev_min);
		eh_json_end(j);
		eh_json_array(j, "to", true);
		eh_json_uint(j, NULL, r->var_max);
		eh_json_uint(j, NULL, r->rev_max);
		eh_json_end(j);
		eh_json_str(j, "config", r->config);
		eh_json_end(j);
	}
	eh_json_end(j);
}

/* One rule as JSON: what tests/kernel/ compares with the kernel's source. */
static void print_rule_json(struct eh_json *j, const struct eh_capability *c)
{
	char name[32], why[1024], mask[16];
	const struct eh_capability *e;

	eh_json_object(j, NULL, false);
	eh_json_str(j, "name", c->name);  /* NULL for an entry of a match list */
	eh_json_str(j, "desc", c->desc);
	eh_json_str(j, "config", c->config);
	eh_json_uint(j, "type", (unsigned)c->type);
	eh_json_str(j, "kernel_matches", c->kernel_matches);
	if (c->field.reg) {
		eh_json_object(j, "field", true);
		eh_json_str(j, "reg", eh_sysreg_name(c->field.reg, name, sizeof(name)));
		eh_json_str(j, "name", c->field.name);
		eh_json_uint(j, "shift", c->field.shift);
		eh_json_uint(j, "width", c->field.width);
		eh_json_bool(j, "signed", c->field.sign);
		eh_json_uint(j, "min", (uint64_t)c->field.min);  /* no rule has a negative least value */
		eh_json_end(j);
	}
	if (c->midr)
		print_midr_json(j, c->midr);
	if (c->fixed && c->fixed->revidr_mask) {
		eh_json_object(j, "fixed", true);
		eh_json_uint(j, "variant", c->fixed->var);
		eh_json_uint(j, "revision", c->fixed->rev);
		snprintf(mask, sizeof(mask), "0x%x", c->fixed->revidr_mask);
		eh_json_str(j, "revidr_mask", mask);
		eh_json_end(j);
	}
	if (c->any) {
		eh_json_array(j, "any", false);
		for (e = c->any; e->matches; e++)
			print_rule_json(j, e);
		eh_json_end(j);
	}
	eh_json_str(j, "rule", eh_cap_explain(c, NULL, why, sizeof(why)));
	eh_json_str(j, "assumed", c->assumed);
	eh_json_end(j);
}

static void print_rules_json(const struct eh_cap_rules *rules)
{
	const struct eh_capability *c;
	struct eh_json j;

	eh_json_begin(&j, stdout);
	eh_json_object(&j, NULL, false);
	eh_json_str(&j, "kernel", rules->kernel);
	eh_json_str(&j, "checked", rules->checked);  /* null: unchecked */
	eh_json_array(&j, "rules", false);
	for (c = rules->caps; c->name; c++)
		print_rule_json(&j, c);
	eh_json_end(&j);
	eh_json_end(&j);
}

int cmd_models(const struct cli_command *cmd, int argc, char **argv)
{
	struct models_opts o = { 0 };
	struct eh_target t = { 0 };
	const struct eh_cap_rules *rules;
	const struct eh_model *const *m;
	struct eh_kconfig *config = NULL;
	struct eh_error err = { 0 };
	const char *pos[1];
	unsigned npos;
	int rc = cli_parse(cmd, argc, argv, on_option, &o, pos, &npos);

	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.json && !o.rules)
		return usage_error("models: --format json is for --rules");
	if (o.from && o.sel.n[EH_SELECT_MODEL])
		return usage_error("models: --from and --model: one or the other");
	if (o.rules && (o.sel.n[EH_SELECT_MODEL] || o.boot || o.config || o.from))
		return usage_error("models: --rules takes only --kernel and --format");
	rules = eh_cap_rules_find(o.kernel ? o.kernel : "6.1");
	if (!rules)
		return usage_error("models: --kernel: no capability rules for '%s' (see models --help)", o.kernel);
	if (o.rules) {
		if (o.json)
			print_rules_json(rules);
		else
			print_rules_text(rules);
		return 0;
	}
	if (o.boot && eh_boot_parse(o.boot, &t.boot))
		return usage_error("models: --boot: '%s' is not el2, nvhe or el1", o.boot);
	if (o.config && eh_kconfig_open(&config, o.config, &err)) {
		fprintf(stderr, "errata-harness models: %s\n", err.msg);
		return EXIT_BAD_INPUT;
	}
	t.config = config;
	if (o.from) {
		struct eh_model_from *f;

		if (eh_model_from_path(&f, o.from, &err)) {
			fprintf(stderr, "errata-harness models: --from: %s\n", err.msg);
			eh_kconfig_free(config);
			return EXIT_BAD_INPUT;
		}
		t.model = eh_model_from_model(f);
		print_model(t.model, rules, &t, o.config);
		eh_model_from_free(f);
		eh_kconfig_free(config);
		return 0;
	}
	for (m = eh_models; *m; m++) {
		if (!selected(&o, *m))
			continue;
		t.model = *m;
		print_model(*m, rules, &t, o.config);
	}
	eh_kconfig_free(config);
	return 0;
}

/*
 * The capabilities a real kernel detected, from its console log, against those the harness computes
 * for a model: the oracle of tests/qemu/kernel-caps.sh.
 *
 *   kernel_caps [--kernel V] LOG BOOT CONFIG MODEL|--from DUMP
 *
 * LOG is the console of a boot of Linux V (6.1, the default, or 6.12) that ended in a panic: its last
 * "CPU features: 0x..." line (dump_cpu_features() of arch/arm64/kernel/cpufeature.c prints the
 * capabilities as a bitmap, 32 bits a group, the highest first, in both) is the set the kernel
 * detected, numbered as the harness's built-in numbering of V says, and the harness decides with V's
 * rules; each "CPU features: detected: DESC" line must name a capability of that set (a
 * check of the numbering). Prints one line per capability on which the two differ,
 * "kernel-only NAME" or "harness-only NAME", then "agree N of M". Exit 0 when it could compare,
 * 2 on bad input (with the file named).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh/cap.h"
#include "eh/cpucaps.h"
#include "eh/file.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "eh/model_from.h"

#define MAX_CAPS 256

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "kernel_caps: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	return 2;
}

/* The last bitmap line of log into bits[]: 0, or -1 when there is none or it is malformed. */
static int read_bitmap(const char *log, bool *bits, unsigned nbits)
{
	static const char key[] = "CPU features: 0x";
	const char *s = log, *last = NULL;
	uint32_t words[MAX_CAPS / 32];
	unsigned n = 0, i, b;

	while ((s = strstr(s, key)))
		last = s++;
	if (!last)
		return -1;
	s = last + sizeof(key) - 1;
	while (n < MAX_CAPS / 32) {
		char *end;

		words[n++] = (uint32_t)strtoul(s, &end, 16);
		if (end == s)
			return -1;
		if (*end != ',')
			break;
		s = end + 1;
	}
	/* words[0] is the highest group: bit b of the set is in group (n - 1 - b / 32). */
	for (b = 0; b < nbits; b++)
		bits[b] = b / 32 < n && (words[n - 1 - b / 32] >> (b % 32) & 1);
	for (i = 0; i < n; i++)
		for (b = 0; b < 32; b++)
			if ((words[n - 1 - i] >> b & 1) && i * 32 + b >= nbits)
				return -1;  /* a bit the numbering does not have */
	return 0;
}

/* Each "detected: DESC" line names a capability of the bitmap's set (rules give each desc). */
static int check_descs(const char *log, const struct eh_cap_rules *rules, const struct eh_cpucaps *caps,
		       const bool *bits, const char *path)
{
	static const char key[] = "CPU features: detected: ";
	const char *s = log;
	int rc = 0;

	while ((s = strstr(s, key))) {
		const struct eh_capability *c;
		const char *d = s + sizeof(key) - 1;
		size_t len = strcspn(d, "\r\n");
		char desc[256];
		bool named = false, found = false;
		unsigned n;

		snprintf(desc, sizeof(desc), "%.*s", (int)len, d);
		s = d + len;
		for (c = rules->caps; c->name && !found; c++)
			if (c->desc && !strcmp(c->desc, desc)) {
				named = true;
				found = !eh_cpucaps_number(caps, c->name, &n) && bits[n];
			}
		/* The rules restate desc for most capabilities, not all: an unnamed one checks nothing. */
		if (named && !found) {
			printf("unmatched-desc %s\n", desc);
			rc = bad("%s: 'detected: %s' names no capability of the bitmap", path, desc);
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	const char *kernel = "6.1";
	const struct eh_cap_rules *rules;
	const struct eh_cpucaps *caps;
	struct eh_model_from *from = NULL;
	struct eh_kconfig *config = NULL;
	struct eh_error err = { 0 };
	struct eh_target t = { 0 };
	bool bits[MAX_CAPS] = { 0 };
	unsigned n, agree = 0, total = 0;
	char *log = NULL;
	size_t len;
	int rc = 2;

	if (argc > 2 && !strcmp(argv[1], "--kernel")) {
		kernel = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 5 && !(argc == 6 && !strcmp(argv[4], "--from")))
		return bad("usage: kernel_caps [--kernel V] LOG BOOT CONFIG MODEL|--from DUMP");
	rules = eh_cap_rules_find(kernel);
	caps = eh_cpucaps_builtin(kernel);
	if (!rules || !caps || caps->ncaps > MAX_CAPS)
		return bad("no rules or built-in numbering for Linux '%s'", kernel);
	if (eh_boot_parse(argv[2], &t.boot))
		return bad("'%s' is not a boot mode", argv[2]);
	if (eh_file_read(argv[1], (size_t)64 << 20, "a console log", &log, &len, &err) ||
	    eh_kconfig_open(&config, argv[3], &err)) {
		rc = bad("%s", err.msg);
		goto out;
	}
	if (argc == 6) {
		if (eh_model_from_path(&from, argv[5], &err)) {
			rc = bad("%s", err.msg);
			goto out;
		}
		t.model = eh_model_from_model(from);
	} else if (!(t.model = eh_model_find(argv[4]))) {
		rc = bad("no model '%s'", argv[4]);
		goto out;
	}
	t.config = config;
	if (read_bitmap(log, bits, caps->ncaps)) {
		rc = bad("%s: no 'CPU features: 0x...' bitmap of at most %u capabilities (did the boot panic?)",
			 argv[1], caps->ncaps);
		goto out;
	}
	if (check_descs(log, rules, caps, bits, argv[1]))
		goto out;
	for (n = 0; n < caps->ncaps; n++) {
		const char *name = eh_cpucaps_name(caps, n);
		bool harness = name && eh_cap_decide(rules, &t, name, NULL) == EH_CAP_DETECTED;

		if (!name)
			continue;
		total++;
		if (bits[n] == harness)
			agree++;
		else
			printf("%s %s\n", bits[n] ? "kernel-only" : "harness-only", name);
	}
	printf("agree %u of %u\n", agree, total);
	rc = 0;
out:
	eh_model_from_free(from);
	eh_kconfig_free(config);
	eh_free(log);
	return rc;
}

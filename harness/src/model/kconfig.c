/* Parses a kernel .config into the set of enabled CONFIG_ symbols. */
#include "eh/kconfig.h"
#include "eh/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct eh_kconfig {
	char **on;      /* enabled symbols, sorted: an audit looks one up for every alternative site */
	size_t n, cap;
};

static int add_symbol(struct eh_kconfig *cfg, const char *s, size_t len)
{
	char *copy;

	if (cfg->n == cfg->cap) {
		size_t cap = cfg->cap ? cfg->cap * 2 : 64;
		char **p = eh_realloc(cfg->on, cap * sizeof(*p));

		if (!p)
			return EH_ENOMEM;
		cfg->on = p;
		cfg->cap = cap;
	}
	copy = eh_alloc(len + 1);
	if (!copy)
		return EH_ENOMEM;
	memcpy(copy, s, len);
	cfg->on[cfg->n++] = copy;
	return 0;
}

static int cmp_symbol(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int eh_kconfig_parse(struct eh_kconfig **out, const char *name, const char *text, size_t len,
		     struct eh_error *err)
{
	struct eh_kconfig *cfg;
	size_t pos = 0;
	unsigned line = 0;

	*out = NULL;
	cfg = eh_alloc(sizeof(*cfg));
	if (!cfg)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos, sym;

		pos += n + 1;
		line++;
		if (n && l[n - 1] == '\r')
			n--;
		if (n == 0 || l[0] == '#')
			continue;  /* blank, comment, or "# CONFIG_X is not set" */
		for (sym = 0; sym < n && (isalnum((unsigned char)l[sym]) || l[sym] == '_'); sym++)
			;
		if (sym < 8 || strncmp(l, "CONFIG_", 7) || sym == n || l[sym] != '=') {
			eh_kconfig_free(cfg);
			return eh_error_set(err, EH_EINPUT,
					    "%s:%u: expected CONFIG_NAME=value or a # comment, found '%.*s'",
					    name, line, (int)(n > 60 ? 60 : n), l);
		}
		if (sym + 1 < n && (l[sym + 1] == 'y' || l[sym + 1] == 'm') && sym + 2 == n &&
		    add_symbol(cfg, l, sym)) {
			eh_kconfig_free(cfg);
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
		}
	}
	if (cfg->n > 1)
		qsort(cfg->on, cfg->n, sizeof(*cfg->on), cmp_symbol);
	*out = cfg;
	return 0;
}

int eh_kconfig_open(struct eh_kconfig **out, const char *path, struct eh_error *err)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	rc = eh_file_read(path, EH_FILE_MAX_CONFIG, ".config", &buf, &len, err);
	if (rc)
		return rc;
	rc = eh_kconfig_parse(out, path, buf, len, err);
	eh_free(buf);
	return rc;
}

void eh_kconfig_free(struct eh_kconfig *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->n; i++)
		eh_free(cfg->on[i]);
	eh_free(cfg->on);
	eh_free(cfg);
}

bool eh_kconfig_enabled(const struct eh_kconfig *cfg, const char *symbol)
{
	if (!cfg)
		return true;
	return cfg->n && bsearch(&symbol, cfg->on, cfg->n, sizeof(*cfg->on), cmp_symbol);
}

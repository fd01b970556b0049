/* Runs code straight out of a user's ELF: load, link against stubs, patch for the model, start, run. */
#include "eh/exec.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eh/file.h"

/* Decimal or 0x hexadecimal, nothing before or after it (strtoull alone takes " -1"). */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int eh_exec_parse_reg(const char *spec, struct eh_exec_reg *out, struct eh_error *err)
{
	const char *eq = strchr(spec, '=');
	uint64_t n;

	if (!eq)
		return eh_error_set(err, EH_EINVAL, "--reg '%s': expected REG=VALUE (x0..x30 or sp)", spec);
	if (eq - spec == 2 && !strncmp(spec, "sp", 2)) {
		out->n = 31;
	} else {
		char num[4] = { 0 };

		if (spec[0] != 'x' || eq - spec < 2 || eq - spec > 3)
			return eh_error_set(err, EH_EINVAL, "--reg '%s': no register '%.*s' (x0..x30 or sp)", spec,
					    (int)(eq - spec), spec);
		memcpy(num, spec + 1, (size_t)(eq - spec - 1));
		if (num[0] < '0' || num[0] > '9' || (num[1] && (num[1] < '0' || num[1] > '9')) ||
		    (num[0] == '0' && num[1]) || parse_u64(num, &n) || n > 30)
			return eh_error_set(err, EH_EINVAL, "--reg '%s': no register '%.*s' (x0..x30 or sp)", spec,
					    (int)(eq - spec), spec);
		out->n = (unsigned)n;
	}
	if (parse_u64(eq + 1, &out->value))
		return eh_error_set(err, EH_EINVAL, "--reg '%s': '%s' is not a 64-bit value (decimal or 0x hex)",
				    spec, eq + 1);
	return 0;
}

/* --mem ADDR=FILE: the file's bytes at ADDR, on zero pages where the image has none. */
static int load_mem(struct eh_exec *x, const char *spec, struct eh_error *err)
{
	const char *eq = strchr(spec, '=');
	char addr_spec[256], *buf = NULL;
	uint64_t addr;
	size_t len;
	int rc;

	if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof(addr_spec))
		return eh_error_set(err, EH_EINVAL, "--mem '%s': expected ADDR=FILE (ADDR a symbol, SYM+OFF or 0x...)",
				    spec);
	memcpy(addr_spec, spec, (size_t)(eq - spec));
	addr_spec[eq - spec] = 0;
	rc = eh_elf_resolve(x->elf, addr_spec, &addr, err);
	if (rc)
		return eh_error_prefix(err, "--mem '%s': ", spec);
	rc = eh_file_read(eq + 1, EH_FILE_MAX_MEM, "memory image for --mem", &buf, &len, err);
	if (rc)
		return eh_error_prefix(err, "--mem: ");
	rc = eh_machine_map_zero(x->machine, addr, len, err);
	if (!rc)
		rc = eh_machine_write(x->machine, addr, buf, len, err);
	if (rc)
		eh_error_prefix(err, "--mem '%s': ", spec);
	eh_free(buf);
	return rc;
}

/* --range FROM:TO, each end a symbol, SYM+OFF or 0x address; FROM must hold the entry. */
static int parse_range(struct eh_exec *x, const char *spec, struct eh_error *err)
{
	const char *colon = strchr(spec, ':');
	char from[256];
	int rc;

	if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof(from))
		return eh_error_set(err, EH_EINVAL, "--range '%s': expected FROM:TO", spec);
	memcpy(from, spec, (size_t)(colon - spec));
	from[colon - spec] = 0;
	rc = eh_elf_resolve(x->elf, from, &x->code_lo, err);
	if (!rc)
		rc = eh_elf_resolve(x->elf, colon + 1, &x->code_hi, err);
	if (rc)
		return eh_error_prefix(err, "--range '%s': ", spec);
	if (x->entry < x->code_lo || x->entry >= x->code_hi)
		return eh_error_set(err, EH_EINVAL, "--range '%s': [0x%016" PRIx64 ", 0x%016" PRIx64
				    ") does not hold the entry 0x%016" PRIx64, spec, x->code_lo, x->code_hi, x->entry);
	return 0;
}

int eh_exec_run(struct eh_exec **out, const char *path, const struct eh_target *target,
		const struct eh_cpucaps *caps, const struct eh_exec_opts *o, struct eh_error *err)
{
	struct eh_machine_opts mopts = {
		.seed = o->seed, .budget = o->budget, .trace_insns = o->trace_insns,
		.stop_at_eret = true, .stop_at_exception = true, .zero_fill = true,
	};
	struct eh_exec *x;
	char where[160];
	size_t i;
	int rc;

	*out = NULL;
	x = eh_alloc(sizeof(*x));
	if (!x)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	rc = eh_elf_open(&x->elf, path, err);
	if (!rc)
		rc = eh_elf_bind_stubs(x->elf, err);
	if (!rc)
		rc = eh_cpucaps_for_elf(&x->owned_caps, &x->caps, x->elf, caps, err);
	if (!rc)
		rc = eh_elf_resolve(x->elf, o->symbol, &x->entry, err);
	if (rc)
		goto fail;
	x->section = eh_elf_section_at(x->elf, x->entry);
	if (!x->section || !(x->section->flags & SHF_EXECINSTR) || !x->section->data) {
		rc = eh_error_set(err, EH_EINVAL, "%s: --symbol %s (0x%016" PRIx64 ") is not in executable code%s%s",
				  path, o->symbol, x->entry, x->section ? ": it is in " : "",
				  x->section ? x->section->name : "");
		goto fail;
	}
	if (x->entry & 3) {
		rc = eh_error_set(err, EH_EINVAL, "%s: --symbol %s (0x%016" PRIx64 ") is not 4-byte aligned",
				  path, o->symbol, x->entry);
		goto fail;
	}
	if (o->until) {
		rc = eh_elf_resolve(x->elf, o->until, &x->until, err);
		if (rc) {
			eh_error_prefix(err, "--until: ");
			goto fail;
		}
		if (!x->until) {
			rc = eh_error_set(err, EH_EINVAL, "%s: --until %s is address 0", path, o->until);
			goto fail;
		}
	}
	x->code_lo = x->section->addr;
	x->code_hi = x->section->addr + x->section->size;
	if (o->range) {
		rc = parse_range(x, o->range, err);
		if (rc)
			goto fail;
	}
	mopts.until = x->until;
	mopts.code_lo = x->code_lo;
	mopts.code_hi = x->code_hi;
	rc = eh_image_new(&x->img, x->elf, x->caps, target, err);
	if (!rc)
		rc = eh_machine_new(&x->machine, target->model, x->img, &mopts, err);
	if (!rc)
		rc = eh_machine_start(x->machine, 0, x->entry, NULL, 0, err);
	for (i = 0; !rc && i < o->nregs; i++)
		eh_machine_set_xreg(x->machine, 0, o->regs[i].n, o->regs[i].value);
	for (i = 0; !rc && i < o->nmems; i++)
		rc = load_mem(x, o->mems[i], err);
	if (!rc)
		rc = eh_machine_run(x->machine, err);
	if (rc) {
		eh_error_prefix(err, "exec at %s: ", eh_elf_describe(x->elf, x->entry, where, sizeof(where)));
		goto fail;
	}
	x->res = eh_machine_result(x->machine, 0);
	*out = x;
	return 0;
fail:
	eh_exec_free(x);
	return rc;
}

void eh_exec_free(struct eh_exec *x)
{
	if (!x)
		return;
	eh_machine_free(x->machine);
	eh_image_free(x->img);
	eh_cpucaps_free(x->owned_caps);
	eh_elf_free(x->elf);
	eh_free(x);
}

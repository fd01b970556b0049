/* Models built from a machine's identification registers: sysfs, an ID register dump or a boot log (eh/model_from.h). */
#include "eh/model_from.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <unicorn/unicorn.h>

#include "eh/file.h"
#include "eh/sysreg.h"

#define FROM_MAX_INPUT ((size_t)16 << 20)   /* a listing, dump or boot log */
#define FROM_MAX_REG_FILE 4096              /* one sysfs register file: "0x%016llx\n" */
#define FROM_MAX_REGS 32                    /* registers a dump gives for one CPU */
#define FROM_MAX_CPUS 4096                  /* the kernel's NR_CPUS ceiling for arm64 */

/* What the input says of one CPU. */
struct cpu {
	long number;
	bool midr_given;
	uint32_t midr, revidr;
	unsigned line;          /* the line (0: a file of a directory) its MIDR_EL1 came from */
	struct eh_id_reg regs[FROM_MAX_REGS + 1];
	unsigned nregs;
	unsigned core;          /* its core: an index of eh_model_from.cores */
};

struct from_core {
	struct eh_model model;
	const struct eh_model *base;
	struct eh_id_reg *regs;
	char name[48], desc[160], source[320];
};

struct eh_model_from {
	struct eh_model system;          /* when there are several cores */
	struct from_core *cores;
	unsigned ncores;
	const struct eh_model **list;    /* the cores, NULL-terminated */
	struct cpu *cpus;
	size_t ncpus;
	char name[96], desc[160];
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* A hexadecimal value filling [s, end) but for blanks, 0x optional. */
static bool parse_hex(const char *s, const char *end, uint64_t *v)
{
	char buf[40], *stop;
	size_t n;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		end--;
	n = (size_t)(end - s);
	if (!n || n >= sizeof(buf) || *s == '-' || *s == '+')
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtoull(buf, &stop, 16);
	return stop != buf && !*stop && (n < 2 || strncasecmp(buf, "0x", 2) || n > 2);
}

/* The encoding of an identification register called name (any case; the generic S3_0_C0_C4_4 too), or 0. */
static uint32_t id_reg_named(const char *name)
{
	static const uint32_t others[] = { EH_CTR_EL0, EH_DCZID_EL0 };
	char buf[32];
	unsigned op1, crn, crm, op2, i;
	int end = 0;

	/* The generic spelling S3_<op1>_C<n>_C<m>_<op2> of any of them (Arm ARM C5.3). */
	if (sscanf(name, "%*1[sS]3_%u_%*1[cC]%u_%*1[cC]%u_%u%n", &op1, &crn, &crm, &op2, &end) == 4 && !name[end] &&
	    op1 < 8 && crn < 16 && crm < 16 && op2 < 8) {
		uint32_t reg = EH_SYSREG(3, op1, crn, crm, op2);

		return (op1 == 0 && crn == 0) || reg == EH_CTR_EL0 || reg == EH_DCZID_EL0 ? reg : 0;
	}
	/* The ID register space: op0 3, op1 0, CRn 0 (Arm ARM D17.1, "Identification registers"). */
	for (crm = 0; crm < 8; crm++)
		for (op2 = 0; op2 < 8; op2++)
			if (!strcasecmp(eh_sysreg_name(EH_SYSREG(3, 0, 0, crm, op2), buf, sizeof(buf)), name))
				return EH_SYSREG(3, 0, 0, crm, op2);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (!strcasecmp(eh_sysreg_name(others[i], buf, sizeof(buf)), name))
			return others[i];
	return 0;
}

struct parse {
	struct eh_model_from *f;
	const char *path;
	struct eh_error *err;
};

static struct cpu *cpu_get(struct parse *p, long number)
{
	struct eh_model_from *f = p->f;
	struct cpu *c;
	size_t i;

	for (i = 0; i < f->ncpus; i++)
		if (f->cpus[i].number == number)
			return &f->cpus[i];
	if (f->ncpus == FROM_MAX_CPUS) {
		eh_error_set(p->err, EH_EINPUT, "%s: more than %d CPUs", p->path, FROM_MAX_CPUS);
		return NULL;
	}
	if (!(f->ncpus & (f->ncpus - 1)) || !f->ncpus) {
		c = eh_realloc(f->cpus, (f->ncpus ? 2 * f->ncpus : 4) * sizeof(*c));
		if (!c) {
			eh_error_set(p->err, EH_ENOMEM, "%s: out of memory", p->path);
			return NULL;
		}
		f->cpus = c;
	}
	c = &f->cpus[f->ncpus++];
	*c = (struct cpu){ .number = number };
	return c;
}

/* Where an input line is: "PATH:N" or, for a file of a directory, its path. */
static const char *where(const struct parse *p, unsigned line, char *buf, size_t len)
{
	if (line)
		snprintf(buf, len, "%s:%u", p->path, line);
	else
		snprintf(buf, len, "%s", p->path);
	return buf;
}

/* Register reg of CPU number reads v, as line says. */
static int set_reg(struct parse *p, long number, uint32_t reg, uint64_t v, unsigned line)
{
	struct cpu *c = cpu_get(p, number);
	char at[600], name[32];
	unsigned i;

	if (!c)
		return p->err ? p->err->code : EH_ENOMEM;
	/*
	 * MPIDR_EL1 is the model's to compute; the boot log prints only its affinity fields
	 * (MPIDR_HWID_BITMASK leaves out MT), so it cannot say which CPUs are threads of a core.
	 */
	if (reg == EH_MPIDR_EL1)
		return 0;
	if ((reg == EH_MIDR_EL1 || reg == EH_REVIDR_EL1) && v > UINT32_MAX)
		return eh_error_set(p->err, EH_EINPUT, "%s: %s 0x%" PRIx64 " does not fit its 32 bits",
				    where(p, line, at, sizeof(at)), eh_sysreg_name(reg, name, sizeof(name)), v);
	if (reg == EH_MIDR_EL1) {
		if (c->midr_given && c->midr != v)
			return eh_error_set(p->err, EH_EINPUT, "%s: a second MIDR_EL1 for CPU %ld (0x%08" PRIx64
					    " after 0x%08x)", where(p, line, at, sizeof(at)), number, v, c->midr);
		c->midr = (uint32_t)v;
		c->midr_given = true;
		c->line = line;
		return 0;
	}
	if (reg == EH_REVIDR_EL1) {
		c->revidr = (uint32_t)v;
		return 0;
	}
	for (i = 0; i < c->nregs && c->regs[i].reg != reg; i++)
		;
	if (i < c->nregs && c->regs[i].value != v)
		return eh_error_set(p->err, EH_EINPUT, "%s: %s given twice with different values",
				    where(p, line, at, sizeof(at)), eh_sysreg_name(reg, name, sizeof(name)));
	if (i == FROM_MAX_REGS)
		return eh_error_set(p->err, EH_EINPUT, "%s: more than %d registers", where(p, line, at, sizeof(at)),
				    FROM_MAX_REGS);
	c->regs[i] = (struct eh_id_reg){ reg, v };
	if (i == c->nregs)
		c->nregs++;
	return 0;
}

/* A boot log's line naming a CPU's MPIDR_EL1 and MIDR_EL1 (arch/arm64/kernel/setup.c, smp.c): 1 if it is one. */
static int boot_line(struct parse *p, const char *line, unsigned n)
{
	static const char booting[] = "Booting Linux on physical CPU ", secondary[] = ": Booted secondary processor ";
	const char *s = strstr(line, booting), *cpu, *what = "Booting Linux on physical CPU";
	uint64_t mpidr;
	uint32_t midr;
	long number = 0;
	char at[600];
	int rc;

	if (s) {
		s += sizeof(booting) - 1;
	} else if ((s = strstr(line, secondary))) {
		/* "CPU%u: Booted secondary processor": the number just before the colon. */
		for (cpu = s; cpu > line && cpu[-1] >= '0' && cpu[-1] <= '9'; cpu--)
			;
		if (cpu == s || cpu - line < 3 || strncmp(cpu - 3, "CPU", 3))
			return eh_error_set(p->err, EH_EINPUT, "%s: no CPU number before '%s'", where(p, n, at, sizeof(at)),
					    secondary + 2);
		number = strtol(cpu, NULL, 10);
		s += sizeof(secondary) - 1;
		what = "Booted secondary processor";
	} else {
		return 0;
	}
	if (sscanf(s, "0x%" SCNx64 " [0x%" SCNx32 "]", &mpidr, &midr) != 2)
		return eh_error_set(p->err, EH_EINPUT, "%s: expected '0x<MPIDR> [0x<MIDR>]' after '%s'",
				    where(p, n, at, sizeof(at)), what);
	if ((rc = set_reg(p, number, EH_MPIDR_EL1, mpidr, n)) || (rc = set_reg(p, number, EH_MIDR_EL1, midr, n)))
		return rc;
	return 1;
}

/* The register a sysfs identification file holds (Documentation/arm64/cpu-feature-registers.rst), or 0. */
static uint32_t sysfs_reg(const char *file, size_t len)
{
	if (len == 8 && !strncmp(file, "midr_el1", 8))
		return EH_MIDR_EL1;
	if (len == 10 && !strncmp(file, "revidr_el1", 10))
		return EH_REVIDR_EL1;
	return 0;
}

/* A listing line ".../cpuN/regs/identification/FILE:VALUE": 1 if it is one. */
static int listing_line(struct parse *p, const char *line, unsigned n)
{
	static const char ident[] = "/regs/identification/";
	const char *id = strstr(line, ident), *file, *colon, *cpu;
	char at[600];
	uint64_t v;
	uint32_t reg;

	if (!id || !(colon = strchr(id, ':')))
		return 0;
	file = id + sizeof(ident) - 1;
	for (cpu = id; cpu > line && cpu[-1] >= '0' && cpu[-1] <= '9'; cpu--)
		;
	if (cpu == id || cpu - line < 3 || strncmp(cpu - 3, "cpu", 3))
		return eh_error_set(p->err, EH_EINPUT, "%s: no cpuN before '%s'", where(p, n, at, sizeof(at)), ident);
	reg = sysfs_reg(file, (size_t)(colon - file));
	/* smidr_el1 (SME, Linux 6.3 on) names no core identity the models use. */
	if (!reg && (size_t)(colon - file) == 9 && !strncmp(file, "smidr_el1", 9))
		return 1;
	if (!reg)
		return eh_error_set(p->err, EH_EINPUT, "%s: '%.*s' is neither midr_el1 nor revidr_el1",
				    where(p, n, at, sizeof(at)), (int)(colon - file), file);
	if (!parse_hex(colon + 1, colon + strlen(colon), &v))
		return eh_error_set(p->err, EH_EINPUT, "%s: '%s' is not a hexadecimal value", where(p, n, at, sizeof(at)),
				    colon + 1);
	return set_reg(p, strtol(cpu, NULL, 10), reg, v, n) ?: 1;
}

/* A dump line "NAME=VALUE" of the boot CPU: 1 if it is one. */
static int dump_line(struct parse *p, const char *line, unsigned n)
{
	const char *eq = strchr(line, '='), *end;
	char name[40], at[600];
	uint32_t reg;
	uint64_t v;

	if (!eq)
		return 0;
	for (end = eq; end > line && (end[-1] == ' ' || end[-1] == '\t'); end--)
		;
	if ((size_t)(end - line) >= sizeof(name) || end == line)
		return eh_error_set(p->err, EH_EINPUT, "%s: '%.*s' is not a register name", where(p, n, at, sizeof(at)),
				    (int)(end - line), line);
	memcpy(name, line, (size_t)(end - line));
	name[end - line] = 0;
	reg = id_reg_named(name);
	if (!reg && strcasecmp(name, "MPIDR_EL1"))
		return eh_error_set(p->err, EH_EINPUT, "%s: '%s' is not an identification register (MIDR_EL1, "
				    "REVIDR_EL1, ID_AA64*_EL1, CTR_EL0, DCZID_EL0)", where(p, n, at, sizeof(at)), name);
	if (!parse_hex(eq + 1, eq + strlen(eq), &v))
		return eh_error_set(p->err, EH_EINPUT, "%s: %s: '%s' is not a hexadecimal value",
				    where(p, n, at, sizeof(at)), name, eq + 1);
	return set_reg(p, 0, reg ? reg : EH_MPIDR_EL1, v, n) ?: 1;
}

/* Every line of text: a boot log's lines if it has one, else each a listing or dump line. */
static int parse_text(struct parse *p, const char *text, size_t len)
{
	bool log = memmem(text, len, "Booting Linux on physical CPU ", 30) != NULL;
	const char *s = text, *end = text + len;
	unsigned n = 0;
	char at[600];
	int rc;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = (size_t)((nl ? nl : end) - s);
		char line[512];

		n++;
		while (l && (s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t'))
			l--;
		if (memchr(s, 0, l))
			return eh_error_set(p->err, EH_EINPUT, "%s: a NUL byte: not a text file", where(p, n, at, sizeof(at)));
		if (l >= sizeof(line)) {
			if (!log)
				return eh_error_set(p->err, EH_EINPUT, "%s: a line longer than %zu bytes",
						    where(p, n, at, sizeof(at)), sizeof(line) - 1);
			l = sizeof(line) - 1;  /* a log's long line is none of the two it reads */
		}
		memcpy(line, s, l);
		line[l] = 0;
		s = nl ? nl + 1 : end;
		for (l = 0; line[l] == ' ' || line[l] == '\t'; l++)
			;
		if (!line[l] || line[l] == '#')
			continue;
		rc = boot_line(p, line + l, n);
		if (!rc && !log && !(rc = listing_line(p, line + l, n)))
			rc = dump_line(p, line + l, n);
		if (rc < 0)
			return rc;
		if (!rc && !log)
			return eh_error_set(p->err, EH_EINPUT, "%s: '%.60s' is none of PATH:VALUE (a listing of "
					    "/sys/devices/system/cpu/cpu*/regs/identification/), NAME=VALUE (an ID "
					    "register dump) or a boot log's 'Booting Linux on physical CPU' line",
					    where(p, n, at, sizeof(at)), line + l);
	}
	return 0;
}

/* One sysfs register file of directory dir, if it is there; absent is fine, unreadable is not. */
static int read_reg_file(struct parse *p, const char *dir, const char *file, long number, uint32_t reg)
{
	char path[4096], *buf = NULL;
	struct eh_error e = { 0 };
	struct parse one = *p;
	struct stat st;
	size_t len;
	uint64_t v;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (stat(path, &st))
		return 0;
	one.path = path;
	if ((rc = eh_file_read(path, FROM_MAX_REG_FILE, "a sysfs identification register", &buf, &len, &e)))
		return eh_error_set(p->err, rc, "%s", e.msg);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (!parse_hex(buf, buf + len, &v))
		rc = eh_error_set(p->err, EH_EINPUT, "%s: '%.*s' is not a hexadecimal value", path,
				  (int)(len > 40 ? 40 : len), buf);
	else
		rc = set_reg(&one, number, reg, v, 0);
	eh_free(buf);
	return rc;
}

/* The CPU of a regs/identification directory. */
static int read_ident_dir(struct parse *p, const char *dir, long number)
{
	return read_reg_file(p, dir, "midr_el1", number, EH_MIDR_EL1) ?:
	       read_reg_file(p, dir, "revidr_el1", number, EH_REVIDR_EL1);
}

/* /sys/devices/system/cpu or a copy: each cpuN/regs/identification; or one such directory. */
static int parse_dir(struct parse *p)
{
	char sub[4096], *stop;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int rc = 0;

	snprintf(sub, sizeof(sub), "%s/midr_el1", p->path);
	if (!stat(sub, &st))
		return read_ident_dir(p, p->path, 0);
	dir = opendir(p->path);
	if (!dir)
		return eh_error_set(p->err, EH_EIO, "%s: cannot read the directory", p->path);
	while (!rc && (d = readdir(dir))) {
		long number;

		if (strncmp(d->d_name, "cpu", 3) || d->d_name[3] < '0' || d->d_name[3] > '9')
			continue;
		number = strtol(d->d_name + 3, &stop, 10);
		if (*stop)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/regs/identification", p->path, d->d_name);
		if (!stat(sub, &st))
			rc = read_ident_dir(p, sub, number);
	}
	closedir(dir);
	return rc;
}

static int by_number(const void *a, const void *b)
{
	const struct cpu *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

static bool same_identity(const struct cpu *a, const struct cpu *b)
{
	unsigned i, j;

	if (a->midr != b->midr || a->revidr != b->revidr || a->nregs != b->nregs)
		return false;
	for (i = 0; i < a->nregs; i++) {
		for (j = 0; j < b->nregs && b->regs[j].reg != a->regs[i].reg; j++)
			;
		if (j == b->nregs || b->regs[j].value != a->regs[i].value)
			return false;
	}
	return true;
}

/*
 * The known one-core model nearest to (midr, revidr): the same implementer and part number,
 * then the same MIDR_EL1 and REVIDR_EL1, the same MIDR_EL1, the nearest variant and revision.
 */
static const struct eh_model *nearest_model(uint32_t midr, uint32_t revidr)
{
	const struct eh_model *const *m, *best = NULL;
	long best_score = 0;

	for (m = eh_models; *m; m++) {
		long score, rev = (long)(((*m)->midr >> 16 & 0xf0) | ((*m)->midr & 0xf)),
			    want = (long)((midr >> 16 & 0xf0) | (midr & 0xf));

		if ((*m)->cores || EH_MIDR_IMPL((*m)->midr) != EH_MIDR_IMPL(midr) ||
		    EH_MIDR_PART((*m)->midr) != EH_MIDR_PART(midr))
			continue;
		if ((*m)->midr == midr)
			score = (*m)->revidr == revidr ? 0 : 1;
		else
			score = 2 + labs(rev - want);
		if (!best || score < best_score) {
			best = *m;
			best_score = score;
		}
	}
	return best;
}

/* Core k from its first CPU c: the file's registers over the nearest known model's. */
static int build_core(struct eh_model_from *f, unsigned k, const struct cpu *c, const char *path,
		      struct eh_error *err)
{
	struct from_core *core = &f->cores[k];
	const struct eh_id_reg *r;
	unsigned n = 0, i;

	core->base = nearest_model(c->midr, c->revidr);
	for (r = core->base ? core->base->id_regs : NULL; r && r->reg; r++)
		n++;
	core->regs = eh_alloc((n + c->nregs + 1) * sizeof(*core->regs));
	if (!core->regs)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	n = 0;
	for (r = core->base ? core->base->id_regs : NULL; r && r->reg; r++) {
		for (i = 0; i < c->nregs && c->regs[i].reg != r->reg; i++)
			;
		if (i == c->nregs)
			core->regs[n++] = *r;
	}
	for (i = 0; i < c->nregs; i++)
		core->regs[n++] = c->regs[i];
	if (c->revidr)
		snprintf(core->name, sizeof(core->name), "midr-%08x-revidr-%x", c->midr, c->revidr);
	else
		snprintf(core->name, sizeof(core->name), "midr-%08x", c->midr);
	/* At most 2 + 4 + 11 + 24 + 10 + 21 columns: models prints it on a line of its own. */
	snprintf(core->desc, sizeof(core->desc), "r%up%u read from %.24s, %s%s", c->midr >> 20 & 0xf, c->midr & 0xf,
		 base_name(path), core->base ? "else as " : "no known model of its part",
		 core->base ? core->base->name : "");
	snprintf(core->source, sizeof(core->source), "%u from the file%s%s%s%s", c->nregs,
		 core->base ? ", the others " : "", core->base ? core->base->name : ", the others read 0",
		 core->base ? "'s: " : "", core->base ? core->base->id_source : "");
	core->model = (struct eh_model){
		.name = core->name, .desc = core->desc, .midr = c->midr, .revidr = c->revidr,
		.threads_per_core = 1,  /* none of the inputs says which CPUs are threads of one core */ .uc_cpu = core->base ? core->base->uc_cpu : UC_CPU_ARM64_MAX,
		.id_regs = core->regs, .id_source = core->source,
	};
	return 0;
}

/* Group the CPUs into cores (the boot CPU's first) and build each. */
static int build(struct eh_model_from *f, const char *path, struct eh_error *err)
{
	size_t i, j, n;
	int rc;

	if (!f->ncpus)
		return eh_error_set(err, EH_EINPUT, "%s: no MIDR_EL1: neither a cpu*/regs/identification directory, a "
				    "listing of one, an ID register dump nor a boot log with a 'Booting Linux on "
				    "physical CPU' line", path);
	qsort(f->cpus, f->ncpus, sizeof(*f->cpus), by_number);
	for (i = 0; i < f->ncpus; i++)
		if (!f->cpus[i].midr_given)
			return eh_error_set(err, EH_EINPUT, "%s: CPU %ld has no MIDR_EL1", path, f->cpus[i].number);
	f->cores = eh_alloc(f->ncpus * sizeof(*f->cores));
	f->list = eh_alloc((f->ncpus + 1) * sizeof(*f->list));
	if (!f->cores || !f->list)
		return eh_error_set(err, EH_ENOMEM, "out of memory");
	for (i = 0; i < f->ncpus; i++) {
		for (j = 0; j < i && !same_identity(&f->cpus[j], &f->cpus[i]); j++)
			;
		f->cpus[i].core = j < i ? f->cpus[j].core : f->ncores++;
	}
	for (i = n = 0; i < f->ncpus; i++)
		if (f->cpus[i].core == n) {
			if ((rc = build_core(f, (unsigned)n, &f->cpus[i], path, err)))
				return rc;
			f->list[n++] = &f->cores[f->cpus[i].core].model;
		}
	if (f->ncores == 1)
		return 0;
	n = (size_t)snprintf(f->name, sizeof(f->name), "system");
	for (i = 0; i < f->ncores && n < sizeof(f->name); i++)
		n += (size_t)snprintf(f->name + n, sizeof(f->name) - n, "-%08x", f->cores[i].model.midr);
	snprintf(f->desc, sizeof(f->desc), "%u cores read from %.32s, the boot CPU first", f->ncores, base_name(path));
	f->system = (struct eh_model){
		.name = f->name, .desc = f->desc, .uc_cpu = UC_CPU_ARM64_MAX, .cores = f->list,
		.id_source = "its cores', combined as Linux 6.1 sanitises them (models/ftr_linux_6_1.c)",
	};
	return 0;
}

/* Read the input (text, or dir when text is NULL) into a new model at *out, or free it on failure. */
static int from_input(struct eh_model_from **out, const char *path, const char *text, size_t len,
		      struct eh_error *err)
{
	struct eh_model_from *f = eh_alloc(sizeof(*f));
	struct parse p = { f, path, err };
	int rc;

	*out = NULL;
	if (!f)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", path);
	rc = text ? parse_text(&p, text, len) : parse_dir(&p);
	if (!rc)
		rc = build(f, path, err);
	if (rc) {
		eh_model_from_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int eh_model_from_text(struct eh_model_from **out, const char *path, const char *text, size_t len,
		       struct eh_error *err)
{
	return from_input(out, path, text ? text : "", len, err);
}

int eh_model_from_path(struct eh_model_from **out, const char *path, struct eh_error *err)
{
	struct stat st;
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	if (stat(path, &st))
		return eh_error_set(err, EH_EIO, "%s: no such file or directory", path);
	if (S_ISDIR(st.st_mode))
		return from_input(out, path, NULL, 0, err);
	if ((rc = eh_file_read(path, FROM_MAX_INPUT, "a machine's registers (models --from)", &buf, &len, err)))
		return rc;
	rc = from_input(out, path, buf ? buf : "", len, err);
	eh_free(buf);
	return rc;
}

const struct eh_model *eh_model_from_model(const struct eh_model_from *f)
{
	return f->ncores == 1 ? &f->cores[0].model : &f->system;
}

const struct eh_model *eh_model_from_base(const struct eh_model_from *f, unsigned core)
{
	return core < f->ncores ? f->cores[core].base : NULL;
}

void eh_model_from_free(struct eh_model_from *f)
{
	unsigned i;

	if (!f)
		return;
	for (i = 0; f->cores && i < f->ncores; i++)
		eh_free(f->cores[i].regs);
	eh_free(f->cores);
	eh_free(f->list);
	eh_free(f->cpus);
	eh_free(f);
}

/*
 * The baseline of the engine-overhead benchmark: a minimal program on Unicorn alone that runs a case
 * snippet with the harness's memory map and only the hooks erratum 219 needs (every instruction, for
 * TTBR writes, context synchronisation and PRFM; loads and stores; exceptions), doing the least work
 * in each: no trace, no decoder, no models.
 *
 *   bench_bare tramp ELF ENTRY SAMPLES         one trampoline call per iteration (BENCH_TRAMP_INNER a sample)
 *   bench_bare untag ELF ENTRY SAMPLES N       one untagged_addr batch of N addresses per iteration
 *   bench_bare setup ELF SAMPLES               uc_open + memory map + hooks + uc_close
 *   bench_bare matrix                          the scenario matrix as bare Unicorn: for each line
 *                                              "ELF THREADS INSNS ENTRY" on stdin, ELF mapped into one
 *                                              engine kept for the whole matrix (as the harness keeps
 *                                              its engines, and a snippet mapped while the next rows
 *                                              run it), INSNS guest instructions: the untagged-addr
 *                                              case's own batches from ENTRY, any other's in a loop
 *                                              in THREADS calls
 *
 * Prints "ns_per_iter MEDIAN" (CPU time, median over the samples) and "guest_insns PER_ITER";
 * matrix prints "scenarios N", "guest_insns TOTAL" and "ns WALL" (the whole matrix).
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <unicorn/unicorn.h>

#include "bench_util.h"

/* The harness's fixed addresses (harness/include/eh/machine.h), repeated so this needs no harness header. */
#define RETURN_ADDR 0xffffffffdead0000ull
#define STACK_TOP 0xffff7ffff0000000ull
#define STACK_SIZE (8 * 0x10000ull)
#define PAGE 0x1000ull
#define MAX_REGIONS 64
/* Where the matrix's loop runs: clear of every snippet (kernel-like addresses, and 0x100000 for AArch32). */
#define LOOP_ADDR 0x40000000ull
/* subs x0, x0, #1; b.ne .-4; ret (aarch64-linux-gnu-as): 2n + 1 instructions for x0 = n. */
static const uint32_t loop_code[] = { 0xf1000400, 0x54ffffe1, 0xd65f03c0 };

struct region {
	uint64_t addr, size;
	uint8_t *host;
};

struct bare {
	struct region r[MAX_REGIONS];
	unsigned n;
	struct { uint64_t lo, hi; uint8_t *host; } code[8];  /* executable sections */
	unsigned ncode;
	uint64_t code_lo, code_hi;   /* the one the last instruction came from */
	uint8_t *code_host;
	uint64_t buf, buf_size, entry;
	uint8_t *loop;               /* the matrix's loop page, mapped at LOOP_ADDR */
	uc_engine *uc;
	/* What the hooks keep: the TTBR window and what it held. */
	bool window;
	uint64_t insns, in_window;
};

static void die(const char *what, uc_err e)
{
	fprintf(stderr, "bench_bare: %s: %s\n", what, uc_strerror(e));
	exit(2);
}

static void add_range(struct bare *b, uint64_t lo, uint64_t hi)
{
	unsigned j;

	for (j = 0; j < b->n; j++)
		if (lo <= b->r[j].addr + b->r[j].size && hi >= b->r[j].addr) {
			uint64_t end = b->r[j].addr + b->r[j].size;

			if (lo < b->r[j].addr)
				b->r[j].addr = lo;
			b->r[j].size = (hi > end ? hi : end) - b->r[j].addr;
			return;
		}
	if (b->n == MAX_REGIONS) {
		fprintf(stderr, "bench_bare: more than %d regions\n", MAX_REGIONS);
		exit(2);
	}
	b->r[b->n].addr = lo;
	b->r[b->n++].size = hi - lo;
}

static uint8_t *host_of(struct bare *b, uint64_t addr)
{
	unsigned i;

	for (i = 0; i < b->n; i++)
		if (addr >= b->r[i].addr && addr - b->r[i].addr < b->r[i].size)
			return b->r[i].host + (addr - b->r[i].addr);
	return NULL;
}

/* The same map as the harness: allocated sections merged by page, the stacks, the return page. */
static void load(struct bare *b, const char *path, const char *entry)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	unsigned i;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		fprintf(stderr, "bench_bare: cannot read %s\n", path);
		exit(2);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_size)
			add_range(b, sh.sh_addr & ~(PAGE - 1), (sh.sh_addr + sh.sh_size + PAGE - 1) & ~(PAGE - 1));
	}
	add_range(b, STACK_TOP - STACK_SIZE, STACK_TOP);
	add_range(b, RETURN_ADDR, RETURN_ADDR + PAGE);
	for (i = 0; i < b->n; i++)
		if (posix_memalign((void **)&b->r[i].host, PAGE, b->r[i].size) ||
		    !memset(b->r[i].host, 0, b->r[i].size)) {
			fprintf(stderr, "bench_bare: out of memory\n");
			exit(2);
		}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && (d = elf_getdata(scn, NULL))) {
			size_t k;

			for (k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
				GElf_Sym s;
				const char *name;

				if (!gelf_getsym(d, (int)k, &s) || !(name = elf_strptr(e, sh.sh_link, s.st_name)))
					continue;
				if (entry && !strcmp(name, entry))
					b->entry = s.st_value;
				if (!strcmp(name, "untagged_buf")) {
					b->buf = s.st_value;
					b->buf_size = s.st_size;
				}
			}
		}
		if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_type != SHT_PROGBITS || !(d = elf_getdata(scn, NULL)))
			continue;
		memcpy(host_of(b, sh.sh_addr), d->d_buf, d->d_size);
		if ((sh.sh_flags & SHF_EXECINSTR) && b->ncode < 8) {
			b->code[b->ncode].lo = sh.sh_addr;
			b->code[b->ncode].hi = sh.sh_addr + sh.sh_size;
			b->code[b->ncode++].host = host_of(b, sh.sh_addr);
		}
	}
	for (i = 0; i < PAGE; i += 4)
		memcpy(host_of(b, RETURN_ADDR + i), &(uint32_t){ 0xd4200000 }, 4);
	elf_end(e);
	close(fd);
	if (entry && !b->entry) {
		fprintf(stderr, "bench_bare: %s: no symbol %s\n", path, entry);
		exit(2);
	}
}

static void on_code(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
	struct bare *b = user;
	uint32_t w;

	(void)size;
	b->insns++;
	if (addr < b->code_lo || addr >= b->code_hi) {  /* left the code, as the harness checks */
		unsigned i;

		for (i = 0; i < b->ncode && (addr < b->code[i].lo || addr >= b->code[i].hi); i++)
			;
		if (i == b->ncode) {
			uc_emu_stop(uc);
			return;
		}
		b->code_lo = b->code[i].lo;
		b->code_hi = b->code[i].hi;
		b->code_host = b->code[i].host;
	}
	memcpy(&w, b->code_host + (addr - b->code_lo), 4);
	if ((w & 0xffffffc0) == 0xd5182000)            /* MSR TTBR0_EL1 / TTBR1_EL1 */
		b->window = true;
	else if ((w & 0xfffff0ff) == 0xd50330df)       /* ISB */
		b->window = false;
	else if ((w & 0xffc00000) == 0xf9800000)       /* PRFM (immediate) */
		b->in_window += b->window;
}

static void on_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user)
{
	struct bare *b = user;

	(void)uc;
	(void)type;
	(void)addr;
	(void)size;
	(void)value;
	b->in_window += b->window;
}

static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
	(void)intno;
	(void)user;
	uc_emu_stop(uc);
}

static void engine_open(struct bare *b)
{
	uc_hook h;
	uc_err e;
	unsigned i;

	if ((e = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &b->uc)))
		die("uc_open", e);
	if ((e = uc_ctl_set_cpu_model(b->uc, UC_CPU_ARM64_A72)))
		die("cpu model", e);
	for (i = 0; i < b->n; i++)
		if ((e = uc_mem_map_ptr(b->uc, b->r[i].addr, b->r[i].size, UC_PROT_ALL, b->r[i].host)))
			die("uc_mem_map_ptr", e);
	if (b->loop && (e = uc_mem_map_ptr(b->uc, LOOP_ADDR, PAGE, UC_PROT_ALL, b->loop)))
		die("uc_mem_map_ptr", e);
	if ((e = uc_hook_add(b->uc, &h, UC_HOOK_CODE, on_code, b, 1, 0)) ||
	    (e = uc_hook_add(b->uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, on_mem, b, 1, 0)) ||
	    (e = uc_hook_add(b->uc, &h, UC_HOOK_INTR, on_intr, b, 1, 0)))
		die("uc_hook_add", e);
}

/* Not inlined: `valgrind --tool=callgrind --toggle-collect=call` counts just the runs. */
BENCH_MEASURED static void call(struct bare *b, const uint64_t *args, unsigned nargs)
{
	uint64_t lr = RETURN_ADDR, sp = STACK_TOP;
	unsigned i;
	uc_err e;

	b->window = false;
	for (i = 0; i < nargs; i++)
		uc_reg_write(b->uc, UC_ARM64_REG_X0 + (int)i, &args[i]);
	uc_reg_write(b->uc, UC_ARM64_REG_X30, &lr);
	uc_reg_write(b->uc, UC_ARM64_REG_SP, &sp);
	if ((e = uc_emu_start(b->uc, b->entry, RETURN_ADDR, 0, 0)))
		die("uc_emu_start", e);
}

/* One batch as the untagged-addr case runs it: inputs in, one call, both result arrays out. */
BENCH_MEASURED static void untag_batch(struct bare *b, uint64_t *io, size_t n)
{
	uint64_t args[4] = { b->buf, b->buf + n * 8, b->buf + 2 * n * 8, n };

	memcpy(host_of(b, b->buf), io, n * 8);
	call(b, args, 4);
	memcpy(io + n, host_of(b, args[1]), n * 8);
	memcpy(io + 2 * n, host_of(b, args[2]), n * 8);
}

/*
 * The untagged-addr case's own work as a matrix row: batches of random addresses through entry
 * (a buffer's worth each, the last cut to the row's guest instructions), so that its loads and
 * stores cost here what they cost the harness.
 */
static void matrix_untag(struct bare *b, uint64_t entry, uint64_t insns)
{
	size_t cap = b->buf_size / 24, n, k;
	uint64_t *io = calloc(3 * cap, 8), rng = 1, per = 0, before;

	if (!io || !cap)
		exit(2);
	b->entry = entry;
	b->insns = 0;
	while (b->insns < insns) {
		n = per ? (size_t)((insns - b->insns) / per) : cap;
		n = n > cap ? cap : n ? n : 1;
		for (k = 0; k < n; k++)
			io[k] = bench_splitmix(&rng);
		before = b->insns;
		untag_batch(b, io, n);
		per = (b->insns - before) / n ? (b->insns - before) / n : 1;
	}
	free(io);
}

/*
 * One scenario of the matrix: its snippet mapped as the harness maps it into the engine the
 * previous scenario left (the previous snippet's regions and translations dropped first, unless
 * it is the same one), and its guest instructions run: the untagged-addr case's from its entry,
 * any other's in a loop, one call for each thread it started.
 */
static void matrix_row(struct bare *b, const char *path, unsigned threads, uint64_t insns, uint64_t entry)
{
	static uint8_t *loop;
	static char last[4096];
	uint64_t share = threads ? insns / threads : 0;
	uc_engine *uc = b->uc;
	uc_err e;
	unsigned i;

	if (uc && !strcmp(path, last))
		goto run;
	snprintf(last, sizeof(last), "%s", path);
	for (i = 0; uc && i < b->n; i++)
		if ((e = uc_ctl_remove_cache(uc, b->r[i].addr, b->r[i].addr + b->r[i].size)) ||
		    (e = uc_mem_unmap(uc, b->r[i].addr, b->r[i].size)))
			die("uc_mem_unmap", e);
	for (i = 0; i < b->n; i++)
		free(b->r[i].host);
	memset(b, 0, sizeof(*b));
	if (!loop && (posix_memalign((void **)&loop, PAGE, PAGE) || !memcpy(loop, loop_code, sizeof(loop_code))))
		exit(2);
	load(b, path, NULL);
	b->loop = loop;
	b->code[b->ncode].lo = LOOP_ADDR;
	b->code[b->ncode].hi = LOOP_ADDR + sizeof(loop_code);
	b->code[b->ncode++].host = loop;
	if (uc) {
		b->uc = uc;
		for (i = 0; i < b->n; i++)
			if ((e = uc_mem_map_ptr(uc, b->r[i].addr, b->r[i].size, UC_PROT_ALL, b->r[i].host)))
				die("uc_mem_map_ptr", e);
	} else {
		engine_open(b);
	}
run:
	if (b->buf) {
		matrix_untag(b, entry, insns);
		return;
	}
	b->entry = LOOP_ADDR;
	for (i = 0; i < threads; i++) {
		uint64_t n = share / 2 ? share / 2 : 1;

		call(b, &n, 1);
	}
}

static int matrix(void)
{
	static struct bare b;
	char path[4096];
	unsigned threads, rows = 0;
	uint64_t insns, entry, total = 0, t0 = bench_now_ns();

	while (scanf("%4095s %u %" SCNu64 " %" SCNx64, path, &threads, &insns, &entry) == 4) {
		matrix_row(&b, path, threads, insns, entry);
		rows++;
		total += insns;
	}
	printf("scenarios %u\nguest_insns %" PRIu64 "\nns %" PRIu64 "\n", rows, total, bench_now_ns() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	static struct bare b;
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long iters, i, n = 0;
	uint64_t *ns, *io = NULL, rng = 1;

	if (!strcmp(mode, "matrix"))
		return matrix();
	if (argc < 4 || (strcmp(mode, "setup") && argc < 5) || (!strcmp(mode, "untag") && argc < 6)) {
		fprintf(stderr, "usage: bench_bare tramp|untag|setup ELF [ENTRY] ITERATIONS [N]\n");
		return 2;
	}
	load(&b, argv[2], strcmp(mode, "setup") ? argv[3] : NULL);
	iters = strtoul(argv[strcmp(mode, "setup") ? 4 : 3], NULL, 0);
	ns = calloc(iters, sizeof(*ns));
	if (!strcmp(mode, "untag")) {
		n = strtoul(argv[5], NULL, 0);
		if (!b.buf || n * 24 > b.buf_size || !(io = calloc(3 * n, 8))) {
			fprintf(stderr, "bench_bare: no untagged_buf for %lu addresses\n", n);
			return 2;
		}
	}
	if (!ns)
		return 2;
	if (strcmp(mode, "setup"))
		engine_open(&b);
	for (i = 0; i < iters; i++) {
		uint64_t t0 = bench_cpu_ns();

		if (!strcmp(mode, "setup")) {
			engine_open(&b);
			uc_close(b.uc);
		} else if (!strcmp(mode, "tramp")) {
			unsigned k;

			for (k = 0; k < BENCH_TRAMP_INNER; k++)
				call(&b, NULL, 0);
		} else {
			unsigned long k;

			for (k = 0; k < n; k++)
				io[k] = bench_splitmix(&rng);
			b.insns = 0;
			untag_batch(&b, io, n);
		}
		ns[i] = bench_cpu_ns() - t0;
		if (!strcmp(mode, "tramp")) {
			ns[i] /= BENCH_TRAMP_INNER;
			if (i == 0)
				n = b.insns / BENCH_TRAMP_INNER;
		}
	}
	printf("ns_per_iter %" PRIu64 "\n", bench_median(ns, iters));
	printf("guest_insns %" PRIu64 "\n", !strcmp(mode, "tramp") ? n : b.insns);
	free(ns);
	free(io);
	return 0;
}

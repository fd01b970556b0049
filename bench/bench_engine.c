/*
 * The harness side of the benchmarks: per-scenario cost through the library, the engine on the same
 * snippets as bench_bare, the untagged_addr property sweep, and the same sweep in native C.
 *
 *   bench_engine scenarios CASES_DIR REPS           median of REPS runs of every (case, variant, model):
 *                                                   "scenario NAME NS GUEST_INSNS PASS ENGINES THREADS ELF ENTRY":
 *                                                   the Unicorn engines it set up (not taken from an earlier
 *                                                   machine), the threads it started, its snippet and the
 *                                                   variant's entry address (for bench_bare)
 *   bench_engine tramp ELF ENTRY MODEL SAMPLES      one trampoline call per iteration, machine reused
 *                                                   (BENCH_TRAMP_INNER iterations a sample)
 *   bench_engine untag ELF ENTRY MODEL SAMPLES N    one untagged_addr batch of N addresses per iteration
 *   bench_engine setup ELF MODEL SAMPLES            eh_machine_new + eh_machine_free
 *   bench_engine sweep ELF ENTRY MODEL INPUTS [BATCH]
 *                                                   INPUTS random addresses, BATCH a call (default: as many
 *                                                   as the snippet's buffer holds), tallied as the case does
 *   bench_engine native INPUTS                      the same sweep computed by the host
 *
 * Output is "key value" lines for bench/run; times are CPU time, medians over the samples.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cases/untagged-addr/untagged_addr.h"
#include "bench_util.h"
#include "eh/case.h"
#include "eh/cpucaps.h"
#include "eh/image.h"
#include "eh/machine.h"

/*
 * Guest instructions of every eh_machine_run in this process, and the Unicorn engines set up and
 * threads started by every machine freed (the link wraps both, see CMakeLists.txt).
 */
static uint64_t guest_insns, engines, started;

int __real_eh_machine_run(struct eh_machine *m, struct eh_error *err);
int __wrap_eh_machine_run(struct eh_machine *m, struct eh_error *err);

int __wrap_eh_machine_run(struct eh_machine *m, struct eh_error *err)
{
	int rc = __real_eh_machine_run(m, err);
	unsigned t;

	for (t = 0; t < eh_machine_threads(m); t++)
		guest_insns += eh_machine_result(m, t)->executed;
	return rc;
}

void __real_eh_machine_free(struct eh_machine *m);
void __wrap_eh_machine_free(struct eh_machine *m);

void __wrap_eh_machine_free(struct eh_machine *m)
{
	unsigned t;

	if (m) {
		engines += eh_machine_cost(m)->engines;
		for (t = 0; t < eh_machine_threads(m); t++)
			started += eh_machine_result(m, t)->started;
	}
	__real_eh_machine_free(m);
}

static void die(const char *what, const struct eh_error *err)
{
	fprintf(stderr, "bench_engine: %s: %s\n", what, err ? err->msg : "");
	exit(2);
}

struct loaded {
	struct eh_elf *elf;
	struct eh_image *img;
	struct eh_machine *m;
	uint64_t entry, buf, buf_size;
};

static void load(struct loaded *l, const char *path, const char *entry, const char *model_name)
{
	const struct eh_model *model = eh_model_find(model_name);
	const struct eh_elf_symbol *s;
	struct eh_error err = { 0 };

	if (!model)
		die("no such model", NULL);
	if (eh_elf_open(&l->elf, path, &err) ||
	    eh_image_new(&l->img, l->elf, eh_cpucaps_builtin("5.4"),
			 &(struct eh_target){ .model = model }, &err) ||
	    (entry && eh_elf_resolve(l->elf, entry, &l->entry, &err)) ||
	    eh_machine_new(&l->m, model, l->img, &(struct eh_machine_opts){ .seed = 1 }, &err))
		die(path, &err);
	/* Thread 0's engine now, as bench_bare sets its own up before timing: runs are what is measured. */
	(void)eh_machine_xreg(l->m, 0, 0);
	if ((s = eh_elf_symbol_by_name(l->elf, "untagged_buf"))) {
		l->buf = s->value;
		l->buf_size = s->size;
	}
}

/*
 * call and untag_batch are not inlined, so that `valgrind --tool=callgrind --toggle-collect=FN`
 * counts the host instructions of the runs alone (bench_bare's have the same names).
 */
BENCH_MEASURED static void call(struct loaded *l, const uint64_t *args, unsigned nargs)
{
	struct eh_error err = { 0 };

	eh_machine_trace_clear(l->m);
	if (eh_machine_start(l->m, 0, l->entry, args, nargs, &err) || eh_machine_run(l->m, &err))
		die("run", &err);
	if (eh_machine_result(l->m, 0)->stop != EH_STOP_RETURNED)
		die("the snippet did not return", NULL);
}

/* One batch as the untagged-addr case runs it: inputs in, one call, both result arrays out. */
BENCH_MEASURED static void untag_batch(struct loaded *l, uint64_t *io, size_t n)
{
	uint64_t args[4] = { l->buf, l->buf + n * 8, l->buf + 2 * n * 8, n };
	struct eh_error err = { 0 };

	if (eh_machine_write(l->m, l->buf, io, n * 8, &err))
		die("write", &err);
	call(l, args, 4);
	if (eh_machine_read(l->m, args[1], io + n, n * 8, &err) ||
	    eh_machine_read(l->m, args[2], io + 2 * n, n * 8, &err))
		die("read", &err);
}

static int scenarios(const char *dir, unsigned reps)
{
	const struct eh_case *const *c;
	struct eh_run_opts opts = { .cases_dir = dir, .seed = 1 };
	uint64_t *ns = calloc(reps, sizeof(*ns));

	for (c = eh_cases; *c; c++) {
		const struct eh_variant *v;

		for (v = (*c)->variants; v->name; v++) {
			const struct eh_model *const *m;

			for (m = eh_models; *m; m++) {
				enum eh_verdict expected;
				uint64_t insns = 0, made = 0, threads = 0, entry = 0;
				char path[4096];
				unsigned i;
				int pass = 1;

				if (eh_case_expected(*c, v->name, *m, &expected))
					continue;
				for (i = 0; i < reps; i++) {
					struct eh_error err = { 0 };
					struct eh_case_run *r;
					uint64_t t0 = bench_cpu_ns(), before = guest_insns, before_engines = engines;
					uint64_t before_started = started;

					if (eh_case_run(&r, *c, v, *m, &opts, &err))
						die((*c)->id, &err);
					ns[i] = bench_cpu_ns() - t0;
					insns = guest_insns - before;
					pass &= r->pass;
					/* 0 for an entry that is no symbol (kcore-offset's names a family of them). */
					if (eh_elf_resolve(r->elf, v->entry, &entry, NULL))
						entry = 0;
					eh_case_run_free(r);
					made = engines - before_engines;
					threads = started - before_started;
				}
				printf("scenario %s/%s/%s %" PRIu64 " %" PRIu64 " %d %" PRIu64 " %" PRIu64 " %s 0x%" PRIx64 "\n",
				       (*c)->id, v->name, (*m)->name, bench_median(ns, reps), insns, pass, made, threads,
				       eh_case_object_path(*c, v, &opts, path, sizeof(path)), entry);
			}
		}
	}
	free(ns);
	return 0;
}

/* What the snippet computes per address (597399d0cb91, after): the assembly and the C macro. */
static uint64_t untag_asm(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 8) >> 8) & a;  /* sbfx #0, #56; and */
}

static uint64_t untag_c(uint64_t a)
{
	uint64_t x = a;

	x &= (uint64_t)((int64_t)(a << 8) >> 8);  /* addr & sign_extend64(addr, 55) */
	return x;
}

static int sweep(struct loaded *l, size_t total, size_t batch, int native)
{
	size_t cap = l ? l->buf_size / 24 : 4096, done, n, i;

	if (batch && batch < cap)
		cap = batch;
	uint64_t *io = calloc(3 * cap, 8), rng = 1, t0;
	struct eh_untag_tally tally = { 0 };
	double s;

	if (!io || !cap)
		die("no buffer", NULL);
	t0 = bench_cpu_ns();
	for (done = 0; done < total; done += n) {
		n = total - done < cap ? total - done : cap;
		for (i = 0; i < n; i++)
			io[i] = bench_splitmix(&rng);
		if (native) {
			for (i = 0; i < n; i++) {
				io[cap + i] = untag_asm(io[i]);
				io[2 * cap + i] = untag_c(io[i]);
			}
			eh_untag_tally(&tally, io, io + cap, io + 2 * cap, n);
		} else {
			untag_batch(l, io, n);
			eh_untag_tally(&tally, io, io + n, io + 2 * n, n);
		}
	}
	s = (double)(bench_cpu_ns() - t0) / 1e9;
	if (tally.inputs != total || tally.disagree || tally.asm_wrong || tally.c_wrong)
		die("the sweep does not follow the rule", NULL);
	printf("inputs %zu\nseconds %.6f\nruns_per_s %.0f\n", total, s, (double)total / s);
	free(io);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct loaded l = { 0 };
	unsigned long iters, i, n = 0;
	uint64_t *ns, *io = NULL, rng = 1;

	if (!strcmp(mode, "scenarios") && argc == 4)
		return scenarios(argv[2], (unsigned)strtoul(argv[3], NULL, 0));
	if (!strcmp(mode, "native") && argc == 3)
		return sweep(NULL, strtoul(argv[2], NULL, 0), 0, 1);
	if (!strcmp(mode, "sweep") && (argc == 6 || argc == 7)) {
		load(&l, argv[2], argv[3], argv[4]);
		return sweep(&l, strtoul(argv[5], NULL, 0), argc == 7 ? strtoul(argv[6], NULL, 0) : 0, 0);
	}
	if (!((!strcmp(mode, "tramp") && argc == 6) || (!strcmp(mode, "untag") && argc == 7) ||
	      (!strcmp(mode, "setup") && argc == 5))) {
		fprintf(stderr, "usage: see the comment at the top of bench/bench_engine.c\n");
		return 2;
	}
	if (!strcmp(mode, "setup")) {
		struct eh_machine *m;
		struct eh_error err = { 0 };

		load(&l, argv[2], NULL, argv[3]);
		iters = strtoul(argv[4], NULL, 0);
		if (!(ns = calloc(iters, sizeof(*ns))))
			return 2;
		for (i = 0; i < iters; i++) {
			uint64_t t0 = bench_cpu_ns();

			if (eh_machine_new(&m, eh_machine_model(l.m), l.img, NULL, &err))
				die("eh_machine_new", &err);
			eh_machine_free(m);
			ns[i] = bench_cpu_ns() - t0;
		}
		printf("ns_per_iter %" PRIu64 "\n", bench_median(ns, iters));
		return 0;
	}
	load(&l, argv[2], argv[3], argv[4]);
	iters = strtoul(argv[5], NULL, 0);
	if (!(ns = calloc(iters, sizeof(*ns))))
		return 2;
	if (!strcmp(mode, "untag")) {
		n = strtoul(argv[6], NULL, 0);
		if (!n || n * 24 > l.buf_size || !(io = calloc(3 * n, 8)))
			die("no untagged_buf that large", NULL);
		eh_machine_trace_keep(l.m, false);  /* as the case runs its random batches */
	}
	for (i = 0; i < iters; i++) {
		uint64_t t0 = bench_cpu_ns(), k;

		guest_insns = 0;
		if (io) {
			for (k = 0; k < n; k++)
				io[k] = bench_splitmix(&rng);
			untag_batch(&l, io, n);
			ns[i] = bench_cpu_ns() - t0;
		} else {
			for (k = 0; k < BENCH_TRAMP_INNER; k++)
				call(&l, NULL, 0);
			ns[i] = (bench_cpu_ns() - t0) / BENCH_TRAMP_INNER;
			guest_insns /= BENCH_TRAMP_INNER;
		}
	}
	printf("ns_per_iter %" PRIu64 "\nguest_insns %" PRIu64 "\n", bench_median(ns, iters), guest_insns);
	free(ns);
	free(io);
	eh_machine_free(l.m);
	eh_image_free(l.img);
	eh_elf_free(l.elf);
	return 0;
}

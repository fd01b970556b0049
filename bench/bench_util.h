/* Small helpers shared by the benchmark programs: clocks, medians, a seeded generator. */
#ifndef EH_BENCH_UTIL_H
#define EH_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/*
 * A function bench/run measures by name (callgrind's --toggle-collect): never inlined, and
 * never cloned under another name (GCC's constprop clones: noclone, which clang does not know).
 */
#ifdef __clang__
#define BENCH_MEASURED __attribute__((noinline))
#else
#define BENCH_MEASURED __attribute__((noinline, noclone))
#endif

/* Trampoline calls timed together as one sample: one is shorter than the clock's own cost. */
#define BENCH_TRAMP_INNER 1000

static inline uint64_t bench_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time. */
static inline uint64_t bench_now_ns(void)
{
	return bench_clock_ns(CLOCK_MONOTONIC);
}

/*
 * CPU time of the calling thread: what the in-process comparisons use, because the machine's two
 * cores are shared and wall time would charge a run for whoever else was scheduled.
 */
static inline uint64_t bench_cpu_ns(void)
{
	return bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (v is sorted in place); 0 for n = 0. */
static inline uint64_t bench_median(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* splitmix64, the generator the engine uses, so both sides see inputs of the same kind. */
static inline uint64_t bench_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif

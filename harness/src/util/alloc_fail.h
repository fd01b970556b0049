/* The allocation-failure hook for tests: make the n-th allocation of eh_alloc and eh_realloc fail. */
#ifndef EH_ALLOC_FAIL_H
#define EH_ALLOC_FAIL_H

/*
 * Internal to the library and its tests (tests include it by path), so that programs
 * built on the public headers cannot switch failures on.
 */

/* Make allocation number n (1-based, counted from this call) fail; 0 disables. */
void eh_alloc_fail_at(unsigned long n);
/* How many allocations were made since the last eh_alloc_fail_at(). */
unsigned long eh_alloc_count(void);

#endif

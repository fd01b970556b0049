/* Sorting the large arrays of an image (sites, call edges) by a 64-bit key, in linear time. */
#ifndef EH_SORT_H
#define EH_SORT_H

#include <stddef.h>
#include <stdint.h>

/* An element: what it is sorted by, and what it carries (an index, an address). */
struct eh_sort_pair {
	uint64_t key;
	uint64_t val;
};

/*
 * Sort v[0..n) by key, stably (equal keys keep their order): a least-significant-
 * digit radix sort that passes only over the 11-bit digits in which the keys differ,
 * so kernel addresses, which share their top bits, take three passes, not a
 * comparison sort's twenty (a few pairs are sorted by insertion). 0, or EH_ENOMEM (v is
 * then left as it was).
 */
int eh_sort_pairs(struct eh_sort_pair *v, size_t n);

#endif

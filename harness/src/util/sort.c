/* A stable radix sort of (key, value) pairs, over only the digits in which the keys differ. */
#include "eh/sort.h"

#include <string.h>

#include "eh/error.h"

#define DIGIT_BITS 11
#define DIGITS (1u << DIGIT_BITS)
/* Below this many pairs, insertion: a radix pass clears and sums its DIGITS counters whatever n is. */
#define INSERTION_MAX 64

/* Stably: a pair moves down past greater keys only. */
static void insertion_sort(struct eh_sort_pair *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct eh_sort_pair p = v[i];

		for (j = i; j > 0 && v[j - 1].key > p.key; j--)
			v[j] = v[j - 1];
		v[j] = p;
	}
}

int eh_sort_pairs(struct eh_sort_pair *v, size_t n)
{
	struct eh_sort_pair *tmp, *from = v, *to;
	size_t *count, i;
	uint64_t differ = 0;
	unsigned shift;

	if (n <= INSERTION_MAX) {
		insertion_sort(v, n);
		return 0;
	}
	for (i = 1; i < n; i++)
		differ |= v[i].key ^ v[0].key;
	if (!differ)
		return 0;
	tmp = eh_alloc_array(n, sizeof(*tmp));
	count = eh_alloc(DIGITS * sizeof(*count));
	if (!tmp || !count) {
		eh_free(tmp);
		eh_free(count);
		return EH_ENOMEM;
	}
	to = tmp;
	for (shift = 0; shift < 64; shift += DIGIT_BITS) {
		size_t sum = 0, c;
		struct eh_sort_pair *swap;

		if (!(differ >> shift & (DIGITS - 1)))
			continue;  /* every key has this digit: the order stays */
		memset(count, 0, DIGITS * sizeof(*count));
		for (i = 0; i < n; i++)
			count[from[i].key >> shift & (DIGITS - 1)]++;
		for (i = 0; i < DIGITS; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[from[i].key >> shift & (DIGITS - 1)]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	eh_free(tmp);
	eh_free(count);
	return 0;
}

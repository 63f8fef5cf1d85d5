// SPDX-License-Identifier: GPL-2.0
/* log2 histograms of µs (hist.h): printed as bcc prints them, and counted under a threshold. */
#include <stdbool.h>
#include <string.h>

#include "hist.h"

#define STARS_MAX 40

bool hist_any(const __u64 *slots, int nslots)
{
	return hist_count(slots, nslots) > 0;
}

uint64_t hist_count(const __u64 *slots, int nslots)
{
	uint64_t n = 0;

	for (int i = 0; i < nslots; i++)
		n += slots[i];
	return n;
}

double hist_quantile_us(const __u64 *slots, int nslots, double q)
{
	uint64_t n = hist_count(slots, nslots);
	double want, acc = 0;

	if (!n)
		return -1;
	want = q * (double)n;
	for (int k = 0; k < nslots; k++) {
		double lo = (double)hist_slot_low_us(k), hi = k ? 2 * lo : 2;

		if (acc + (double)slots[k] >= want && slots[k])
			return lo + (hi - lo) * (want - acc) / (double)slots[k];
		acc += (double)slots[k];
	}
	return (double)hist_slot_low_us(nslots - 1) * 2;
}

uint64_t hist_slot_low_us(int slot)
{
	return slot == 0 ? 0 : 1ULL << slot;
}

int hist_count_under(const __u64 *slots, int nslots, uint64_t threshold_ns,
		     uint64_t *at_least, uint64_t *at_most)
{
	int split = -1;

	*at_least = *at_most = 0;
	for (int k = 0; k < nslots; k++) {
		/* slot k holds [2^k, 2^(k+1)) µs of ns / 1000 rounded down, slot 0 [0, 2) µs */
		uint64_t lo_ns = hist_slot_low_us(k) * 1000;
		bool open = k == nslots - 1;
		uint64_t hi_ns = open ? UINT64_MAX : (2ULL << k) * 1000;

		if (lo_ns >= threshold_ns)
			break;		/* this slot and those above: at or over it */
		*at_most += slots[k];
		if (!open && hi_ns <= threshold_ns)
			*at_least += slots[k];
		else if (slots[k])
			split = k;
	}
	return split;
}

void hist_print_log2(FILE *f, const __u64 *slots, int nslots, const char *unit)
{
	int last = -1;
	uint64_t max = 0;
	char stars[STARS_MAX + 1];

	for (int i = 0; i < nslots; i++) {
		if (slots[i])
			last = i;
		if (slots[i] > max)
			max = slots[i];
	}
	if (last < 0) {
		fprintf(f, "     (no samples)\n");
		return;
	}
	fprintf(f, "%*s%-*s : count    distribution\n", 10, unit, 15, "");
	for (int i = 0; i <= last; i++) {
		uint64_t lo = hist_slot_low_us(i), hi = (1ULL << (i + 1)) - 1;
		/* slots[i] <= max: at most STARS_MAX stars, also for counts near 2^64 */
		int n = !max ? 0 : slots[i] <= UINT64_MAX / STARS_MAX ?
			(int)(slots[i] * STARS_MAX / max) :
			(int)((double)slots[i] / (double)max * STARS_MAX);
		char range[48];

		memset(stars, ' ', STARS_MAX);
		memset(stars, '*', n < STARS_MAX ? n : STARS_MAX);
		stars[STARS_MAX] = '\0';
		if (i == nslots - 1)
			snprintf(range, sizeof(range), "%10llu -> inf", (unsigned long long)lo);
		else
			snprintf(range, sizeof(range), "%10llu -> %-10llu", (unsigned long long)lo,
				 (unsigned long long)hi);
		fprintf(f, "%-25s : %-8llu |%s|\n", range, (unsigned long long)slots[i], stars);
	}
}

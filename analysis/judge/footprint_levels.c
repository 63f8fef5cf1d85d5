// SPDX-License-Identifier: GPL-2.0
/*
 * The levels of a footprint curve (footprint.h, docs/design.md "The polluter's size").  A
 * level is a step of A's latency a line: where the set stops fitting in one cache, the walk
 * pays the next one's latency, 2x to 10x more.  Within a plateau a doubling of the footprint
 * adds a few %; at a step the rise is spread over one or two doublings (a set-associative
 * cache misses on conflicts before it is full), so a step is a run of rising doublings, and
 * the level's capacity is where the latency crosses the middle of the run (geometric),
 * interpolated on log(footprint) and rounded to the nearest power of two: a cache of 32 KiB
 * crosses it between 16 and 32 KiB or just past 32, as conflicts start the rise before it is
 * full.  Whether B shares a level is read on its plateau, where A's walk is served by
 * it: a shared cache serves B as fast as A; a private one leaves B to fetch from A's caches
 * or from memory.
 */
#include <math.h>

#include "footprint_levels.h"
#include "stats.h"

static bool curve_ok(const struct footprint *fp)
{
	if (fp->npoints < 2)
		return false;
	for (int i = 0; i < fp->npoints; i++) {
		const struct fp_point *p = &fp->points[i];

		/* !(x > 0) is true for NAN too */
		if (!(p->a_ns > 0) || !(p->b_after_a_ns > 0) || !isfinite(p->a_ns) ||
		    !isfinite(p->b_after_a_ns) || (i && p->footprint_bytes <= p[-1].footprint_bytes))
			return false;
	}
	return true;
}

/* The level of the step from point lo to point hi, on the plateau from point first. */
static void add_level(struct footprint *fp, int first, int lo, int hi)
{
	const struct fp_point *p = fp->points;
	struct fp_level *l = &fp->levels[fp->nlevels++];
	double half = sqrt(p[lo].a_ns * p[hi].a_ns), ratio[FP_MAX_POINTS], t, at;
	int top = lo, n = 0;

	/* the largest footprint of the run still in its lower half, and where the latency
	 * crosses the half between it and the next, on log scales */
	while (top + 1 < hi && p[top + 1].a_ns <= half)
		top++;
	t = log(half / p[top].a_ns) / log(p[top + 1].a_ns / p[top].a_ns);
	at = log2((double)p[top].footprint_bytes) +
	     t * log2((double)p[top + 1].footprint_bytes / (double)p[top].footprint_bytes);
	/* to the nearest power of two, a tie down: a step within one doubling crosses its
	 * middle exactly half way, and the set of the lower footprint is the one known to fit */
	l->capacity_bytes = 1ULL << (int)ceil(at - 0.5 - 1e-9);
	l->below_ns = p[lo].a_ns;
	l->above_ns = p[hi].a_ns;
	for (int i = first; i <= top; i++)
		ratio[n++] = p[i].b_after_a_ns / p[i].a_ns;
	l->b_over_a = median_inplace(ratio, (size_t)n);
	l->shared = l->b_over_a < FP_UNSHARED_FACTOR;
	l->hint = -1;
}

/*
 * Each hint against the levels: seen when a level's capacity c (a power of two) is within a
 * factor 2 of its size, c / 2 <= size <= 2c, the nearest such on a log scale; else not seen
 * when the curve is whole and went on to twice its size, and beyond the curve when it did
 * not.
 */
static void judge_hints(struct footprint *fp)
{
	uint64_t last = fp->npoints ? fp->points[fp->npoints - 1].footprint_bytes : 0;

	for (int h = 0; h < fp->nhints; h++) {
		struct fp_hint *k = &fp->hints[h];
		double best = INFINITY;

		k->matched = -1;
		for (int i = 0; i < fp->nlevels; i++) {
			double c = (double)fp->levels[i].capacity_bytes, s = (double)k->size_bytes;
			double off = fabs(log2(s / c));

			if (s >= c / 2 && s <= 2 * c && off < best) {
				best = off;
				k->matched = i;
			}
		}
		if (k->matched >= 0)
			k->state = FP_HINT_SEEN;
		else
			k->state = curve_ok(fp) && 2 * k->size_bytes <= last ? FP_HINT_NOT_SEEN :
				   FP_HINT_BEYOND;
	}
	/* a level names the hint that matched it; of two, the first listed */
	for (int h = fp->nhints - 1; h >= 0; h--)
		if (fp->hints[h].matched >= 0)
			fp->levels[fp->hints[h].matched].hint = h;
}

void footprint_levels(struct footprint *fp)
{
	const struct fp_point *p = fp->points;
	int n = fp->npoints, first = 0, i = 0;

	fp->nlevels = 0;
	fp->readable = false;
	while (curve_ok(fp) && i < n - 1 && fp->nlevels < FP_MAX_LEVELS) {
		int j = i;

		/* the run of rising doublings from point i */
		while (j < n - 1 && p[j + 1].a_ns >= p[j].a_ns * FP_RISE_OCTAVE)
			j++;
		if (j > i && p[j].a_ns >= p[i].a_ns * FP_STEP_FACTOR) {
			add_level(fp, first, i, j);
			/* the next plateau starts where this step ends */
			first = j;
		}
		i = j > i ? j : i + 1;
	}
	fp->readable = fp->nlevels > 0;
	judge_hints(fp);
}

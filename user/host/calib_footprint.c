// SPDX-License-Identifier: GPL-2.0
/*
 * The footprint curve (calib_footprint.h, docs/design.md "The polluter's size").  The set of
 * lines, linked in one random cycle, is walked by dependent loads, each line written as the
 * chase writes it (calib_chase.c).  Each footprint starts with a walk of its set on A; then a
 * trial walks it once more on A, the last timed_lines of that walk timed, and the thread
 * moves to B and walks the first timed_lines of the cycle, timed.  So A has walked the set
 * twice before B's first walk, and once whole since B's last.  Every line either arm times
 * was last touched a whole cycle of other lines before, as in a walk of the whole set: the
 * two arms differ only in the CPU, and a trial walks the set once, which keeps the curve to
 * about a second.  A set smaller than timed_lines is walked whole: on A once untimed (it comes
 * back from B) and then as many times as make timed_lines (one walk of a small set is too
 * short to time), on B once.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "calib_footprint.h"
#include "clock.h"
#include "mem_room.h"
#include "splitmix.h"
#include "stats.h"
#include "topology.h"
#include "units.h"

#define LINE 64
/* a timed walk: 1 MiB of lines, ~1.6 ms from memory, long beside the clock's ~50 ns */
#define FP_TIMED_LINES 16384
/* a trial the thread was switched out of is tried once more; the second is kept */
#define FP_TRIES 2
/* huge pages keep the TLB's reach out of the curve: with 4 KiB pages its misses add a step
 * of their own (at 256 KiB and 8 MiB on recent x86 cores) where there is no cache */
#define HUGE_PAGE (2ULL << 20)

struct fp_line {
	uint32_t next;			/* the line after this one in the cycle */
	uint32_t pad0;
	uint64_t dirty;			/* each walk writes it: no other CPU keeps a copy */
	char pad[LINE - 2 * sizeof(uint64_t)];
};
_Static_assert(sizeof(struct fp_line) == LINE, "a footprint line is a cache line");

/* ---- the plan ---- */

static bool is_hint(const struct topo_cache *k)
{
	return strcmp(k->type, "Instruction") && k->size_bytes;
}

void footprint_plan(const struct topology *t, int cpu_a, int cpu_b, uint64_t room_bytes,
		    struct footprint *fp)
{
	const struct topo_cpu *c = cpu_a >= 0 && cpu_a <= t->max_cpu ? &t->cpu[cpu_a] : NULL;
	const struct fp_hint *largest = NULL;
	uint64_t bound = FP_BOUND_BYTES;
	struct mem_room room;
	char b[32], s[32];
	int n;

	memset(fp, 0, sizeof(*fp));
	fp->cpu_a = cpu_a;
	fp->cpu_b = cpu_b;
	fp->reps = FP_REPS;
	fp->timed_lines = FP_TIMED_LINES;
	fp->polluter_level = -1;
	for (int i = 0; c && i < c->ncache && fp->nhints < FP_MAX_HINTS; i++) {
		struct fp_hint *h = &fp->hints[fp->nhints];

		if (!is_hint(&c->cache[i]))
			continue;
		h->level = c->cache[i].level;
		snprintf(h->type, sizeof(h->type), "%s", c->cache[i].type);
		h->size_bytes = c->cache[i].size_bytes;
		snprintf(h->source, sizeof(h->source), "%s",
			 c->cache[i].source == TOPO_SRC_CPUID ? "CPUID" : "sysfs");
		h->matched = -1;
		h->state = FP_HINT_BEYOND;
		if (!largest || h->size_bytes > largest->size_bytes)
			largest = h;
		fp->nhints++;
	}
	if (largest && largest->size_bytes * FP_HINT_TIMES <= FP_BOUND_BYTES) {
		for (bound = FP_MIN_BYTES; bound < largest->size_bytes * FP_HINT_TIMES; bound *= 2)
			;
		n = snprintf(fp->bound_why, sizeof(fp->bound_why), "%d x the largest cache "
			     "listed, L%d %s %s (%s)", FP_HINT_TIMES, largest->level, largest->type,
			     fmt_bytes(s, sizeof(s), largest->size_bytes), largest->source);
	} else if (largest) {
		n = snprintf(fp->bound_why, sizeof(fp->bound_why), "the bound of %s: %d x the "
			     "L%d %s %s (%s) is more than the curve walks in its time",
			     fmt_bytes(b, sizeof(b), bound), FP_HINT_TIMES, largest->level,
			     largest->type, fmt_bytes(s, sizeof(s), largest->size_bytes),
			     largest->source);
	} else {
		n = snprintf(fp->bound_why, sizeof(fp->bound_why), "the bound of %s: no cache "
			     "is listed", fmt_bytes(b, sizeof(b), bound));
	}
	/* the set in a quarter of what is free: the calibration's buffers are alive too */
	if (room_bytes) {
		room.bytes = room_bytes;
		snprintf(room.what, sizeof(room.what), "%s given", fmt_bytes(b, sizeof(b),
									   room_bytes));
	} else if (mem_room_probe("", &room)) {
		room.bytes = UINT64_MAX;
	}
	if (bound > room.bytes / 4) {
		uint64_t was = bound;

		while (bound > FP_MIN_BYTES * 4 && bound > room.bytes / 4)
			bound /= 2;
		if (n > 0 && (size_t)n < sizeof(fp->bound_why))
			snprintf(fp->bound_why + n, sizeof(fp->bound_why) - (size_t)n, "; %s, not "
				 "%s: memory is short (%.150s)", fmt_bytes(b, sizeof(b), bound),
				 fmt_bytes(s, sizeof(s), was), room.what);
	}
	fp->bound_bytes = bound;
	for (uint64_t x = FP_MIN_BYTES; x <= bound && fp->npoints < FP_MAX_POINTS; x *= 2) {
		fp->points[fp->npoints].footprint_bytes = x;
		fp->points[fp->npoints].a_ns = fp->points[fp->npoints].b_after_a_ns = NAN;
		fp->npoints++;
	}
}

/* ---- the measurement ---- */

/* The first nlines lines of l linked in one random cycle; its first line. */
static uint32_t link_cycle(struct fp_line *l, uint32_t *perm, uint64_t nlines, uint64_t *seed)
{
	for (uint64_t i = 0; i < nlines; i++)
		perm[i] = (uint32_t)i;
	for (uint64_t i = nlines - 1; i > 0; i--) {
		uint64_t j = splitmix64_next(seed) % (i + 1);
		uint32_t x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (uint64_t i = 0; i < nlines; i++)
		l[perm[i]].next = perm[(i + 1) % nlines];
	return perm[0];
}

/* steps dependent loads from line at, each line written; the line it ends at. */
static __attribute__((noinline)) uint32_t walk(struct fp_line *l, uint32_t at, uint64_t steps)
{
	for (uint64_t s = 0; s < steps; s++) {
		struct fp_line *x = &l[at];

		x->dirty++;
		at = x->next;
	}
	__asm__ volatile("" : : "r"(at) : "memory");
	return at;
}

/* The calling thread's context switches so far, of both kinds; -1 unreadable. */
static long switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * One trial of a set of nlines from line start: ns a line on A and on B after A.
 * *switched: the thread was switched out while it walked on A, or on B (the move itself
 * switches it, and is not counted).
 */
static int trial(const struct footprint *fp, struct fp_line *l, uint32_t start, uint64_t nlines,
		 double *a_ns, double *b_ns, bool *switched)
{
	uint64_t k = nlines < fp->timed_lines ? nlines : fp->timed_lines, passes, t0, t1;
	long sw0, sw1, sw2;
	uint32_t at;
	int err = topology_pin_to(fp->cpu_a);

	if (err)
		return err;
	sw0 = switches();
	if (nlines > k) {
		at = walk(l, start, nlines - k);
		passes = 1;
		t0 = now_ns();
		walk(l, at, k);
		t1 = now_ns();
	} else {
		walk(l, start, nlines);
		passes = (fp->timed_lines + nlines - 1) / nlines;
		t0 = now_ns();
		for (uint64_t p = 0; p < passes; p++)
			walk(l, start, nlines);
		t1 = now_ns();
	}
	*a_ns = (double)(t1 - t0) / (double)(passes * k);
	sw1 = switches();
	if ((err = topology_pin_to(fp->cpu_b)))
		return err;
	sw2 = switches();
	t0 = now_ns();
	walk(l, start, k);
	t1 = now_ns();
	*b_ns = (double)(t1 - t0) / (double)k;
	*switched = sw0 < 0 || sw1 != sw0 || switches() != sw2;
	return 0;
}

/* One footprint's trials, into *p (its footprint_bytes given): the medians. */
static int measure_point(struct footprint *fp, struct fp_point *p, struct fp_line *l,
			 uint32_t *perm, uint64_t *seed)
{
	uint64_t nlines = p->footprint_bytes / LINE;
	double a[FP_REPS], b[FP_REPS];
	uint32_t start = link_cycle(l, perm, nlines, seed);
	int err = topology_pin_to(fp->cpu_a);

	/* the first of A's two walks before B's first */
	if (!err)
		walk(l, start, nlines);
	for (int r = 0; r < fp->reps && !err; r++) {
		bool switched = true;

		for (int t = 0; t < FP_TRIES && switched && !err; t++)
			err = trial(fp, l, start, nlines, &a[r], &b[r], &switched);
		fp->trials_switched += switched;
	}
	if (err)
		return err;
	p->a_ns = median_inplace(a, (size_t)fp->reps);
	p->b_after_a_ns = median_inplace(b, (size_t)fp->reps);
	return 0;
}

/*
 * A's latency a line never falls as the footprint grows, and a disturbance (the host running
 * something beside the vCPU for a while) only adds time: a point more than FP_RISE_OCTAVE
 * above the next one was measured through one, all its trials together.  Such points are
 * measured again, from the largest down (so that the next one is settled first), while the
 * budget allows, and the measurement whose A is lower is kept, B with it.  n: the points
 * measured; cost_ns[i]: what point i took.
 */
static int remeasure(struct footprint *fp, int n, struct fp_line *l, uint32_t *perm,
		     uint64_t *seed, const uint64_t *cost_ns, uint64_t t0)
{
	int err = 0;

	for (int i = n - 2; i >= 0 && !err; i--) {
		struct fp_point again = { .footprint_bytes = fp->points[i].footprint_bytes };

		if (fp->points[i].a_ns <= fp->points[i + 1].a_ns * FP_RISE_OCTAVE ||
		    (double)(now_ns() - t0 + cost_ns[i]) > FP_BUDGET_S * 1e9)
			continue;
		err = measure_point(fp, &again, l, perm, seed);
		fp->points_remeasured++;
		if (!err && again.a_ns < fp->points[i].a_ns)
			fp->points[i] = again;
	}
	return err;
}

int footprint_measure(struct footprint *fp)
{
	uint64_t bytes = fp->npoints ? fp->points[fp->npoints - 1].footprint_bytes : 0;
	uint64_t seed = 0x666f6f74ULL, t0 = now_ns(), last_ns = 0;	/* "foot" */
	uint64_t cost_ns[FP_MAX_POINTS] = { 0 };
	struct fp_line *l = NULL;
	uint32_t *perm = NULL;
	cpu_set_t saved;
	char b[32], s[32];
	int err = 0, n, i;

	if (!fp->npoints || fp->reps < 1 || fp->reps > FP_REPS)
		return 0;
	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		err = -errno;
		fprintf(stderr, "migtrace: the footprint curve cannot read this thread's CPU "
			"affinity: %s\n", strerror(-err));
		return err;
	}
	l = aligned_alloc(HUGE_PAGE, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	perm = malloc(bytes / LINE * sizeof(*perm));
	if (!l || !perm) {
		err = -ENOMEM;
		fprintf(stderr, "migtrace: cannot allocate the footprint curve's %s set\n",
			fmt_bytes(b, sizeof(b), bytes));
		goto cleanup;
	}
	/* huge pages where the kernel allows them (THP "madvise"); 4 KiB pages otherwise */
	madvise(l, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
	/* the pages faulted in now, not in a timed walk */
	memset(l, 0, bytes);
	for (i = 0; i < fp->npoints && !err; i++) {
		uint64_t p0 = now_ns(), spent = p0 - t0;
		/* a footprint walked reps + 1 times on A, at FP_PLAN_LINE_NS a line at least */
		double next_ns = (double)(fp->reps + 1) * (double)fp->points[i].footprint_bytes /
				 LINE * FP_PLAN_LINE_NS;

		/* and twice the last: stop before the budget runs out */
		if (i > 1 && (double)spent + fmax(2.0 * (double)last_ns, next_ns) >
			     FP_BUDGET_S * 1e9)
			break;
		err = measure_point(fp, &fp->points[i], l, perm, &seed);
		last_ns = cost_ns[i] = now_ns() - p0;
	}
	if (err) {
		fprintf(stderr, "migtrace: the footprint curve cannot move the thread between CPUs "
			"%d and %d: %s\n", fp->cpu_a, fp->cpu_b, strerror(-err));
		goto cleanup;
	}
	if (i < fp->npoints) {
		n = (int)strlen(fp->bound_why);
		snprintf(fp->bound_why + n, sizeof(fp->bound_why) - (size_t)n, "; it stopped at "
			 "%s, not %s: the next footprint would take it past its %.1f s",
			 fmt_bytes(b, sizeof(b), fp->points[i - 1].footprint_bytes),
			 fmt_bytes(s, sizeof(s), fp->bound_bytes), FP_BUDGET_S);
		fp->npoints = i;
	}
	err = remeasure(fp, i, l, perm, &seed, cost_ns, t0);
	fp->wall_s = (double)(now_ns() - t0) / 1e9;
cleanup:
	sched_setaffinity(0, sizeof(saved), &saved);
	free(perm);
	free(l);
	return err;
}

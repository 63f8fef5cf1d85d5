// SPDX-License-Identifier: GPL-2.0
/*
 * The chase calibration (calib.h, docs/design.md "The chase calibration"): what a migrated
 * task pays, measured the way cachewalk's unit pays it, beside the 2004 method.
 *
 * A trial: the calibrating thread, on the source CPU, walks its working set twice (every line
 * written, so that no other CPU keeps a copy), streams D bytes through the CPU's caches in
 * the scattered order of cachewalk's polluter, then either moves to the destination CPU
 * (cross) or stays (same) and walks the set once more, timed.  The walk is a dependent-load
 * chase of 1, 2, 4 or 8 independent random cycles interleaved, so that a refill is paid in
 * full with one chain and with the memory-level parallelism of several with more.  Trials of
 * every (pair, working set, chains, D, arm) are shuffled within each round, so that the
 * host's drifts fall on all of them, and a cell is the median over the rounds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "calibrate.h"
#include "clock.h"
#include "decay.h"
#include "mem_room.h"
#include "splitmix.h"
#include "stats.h"
#include "topology.h"
#include "units.h"

#define LINE 64
#define MAX_PAIRS 16	/* distances a chase measures a pair of */

/* A line of the working set: one successor per chain count, and a word each walk writes. */
struct chase_line {
	uint32_t next[CHASE_NCHAINS];
	uint64_t dirty;
	char pad[LINE - CHASE_NCHAINS * sizeof(uint32_t) - sizeof(uint64_t)];
};
_Static_assert(sizeof(struct chase_line) == LINE, "a chase line is a cache line");

/* ---- the plan ---- */

/* The polluter's buffer for a sweep to end: a power of two, twice end at least. */
static uint64_t polluter_for(uint64_t end)
{
	uint64_t v = 2 * end;

	while (v & (v - 1))
		v &= v - 1;
	return v < 2 * end ? 2 * v : v;
}

/* "L3 Unified 508 MiB (CPUID leaf 0x80000006, sharing unknown)" */
static void describe_cache(char *buf, size_t len, const struct topo_cache *k)
{
	char size[32], src[48];

	if (k->source == TOPO_SRC_CPUID)
		snprintf(src, sizeof(src), "CPUID leaf 0x%x", k->cpuid_leaf);
	else
		snprintf(src, sizeof(src), "sysfs");
	snprintf(buf, len, "L%d %s %s (%s%s)", k->level, k->type,
		 fmt_bytes(size, sizeof(size), k->size_bytes), src,
		 k->shared_known ? "" : ", sharing unknown");
}

/*
 * How far D goes, and why, into ch: 4 x the LLC when that is within the bound, else the
 * bound; less when memory is short.  ws_max: the largest working set, which shares memory
 * with the polluter.
 */
static uint64_t sweep_end(const struct calib_opts *o, struct calib_chase *ch, int src,
			  uint64_t ws_max)
{
	const struct topo_cache *llc = topology_llc(o->topo, src);
	uint64_t end = CHASE_D_BOUND_BYTES;
	char what[160], b[32], c[32];
	struct mem_room room;
	int n;

	if (llc && llc->size_bytes > ch->l2_bytes) {
		ch->llc_bytes = llc->size_bytes;
		describe_cache(what, sizeof(what), llc);
	}
	if (ch->llc_bytes && ch->llc_bytes * CHASE_D_LLC_TIMES <= end) {
		end = ch->llc_bytes * CHASE_D_LLC_TIMES;
		n = snprintf(ch->sweep_why, sizeof(ch->sweep_why), "to %d x the LLC, the %s",
			     CHASE_D_LLC_TIMES, what);
	} else if (ch->llc_bytes) {
		n = snprintf(ch->sweep_why, sizeof(ch->sweep_why), "to the bound of %s: the LLC, "
			     "the %s, is more than a sweep displaces %d times over in its time; a "
			     "D* past the bound is said to lie beyond",
			     fmt_bytes(b, sizeof(b), end), what, CHASE_D_LLC_TIMES);
	} else {
		n = snprintf(ch->sweep_why, sizeof(ch->sweep_why), "to the bound of %s: no cache "
			     "larger than the %s one is listed; a D* past the bound is said to lie "
			     "beyond", fmt_bytes(b, sizeof(b), end),
			     fmt_bytes(c, sizeof(c), ch->l2_bytes));
	}
	/* the polluter's buffer and the sets in half of what is free, the rest for the others */
	if (o->chase_room_bytes) {
		room.bytes = o->chase_room_bytes;
		snprintf(room.what, sizeof(room.what), "%s given",
			 fmt_bytes(b, sizeof(b), room.bytes));
	} else if (mem_room_probe("", &room)) {
		room.bytes = UINT64_MAX;
	}
	if (room.bytes / 2 < polluter_for(end) + ws_max) {
		uint64_t was = end;

		while (end > ch->l2_bytes && room.bytes / 2 < polluter_for(end) + ws_max)
			end /= 2;
		if (n > 0 && (size_t)n < sizeof(ch->sweep_why))
			snprintf(ch->sweep_why + n, sizeof(ch->sweep_why) - (size_t)n, "; %s, not "
				 "%s: memory is short (%.150s)", fmt_bytes(b, sizeof(b), end),
				 fmt_bytes(c, sizeof(c), was), room.what);
	}
	return end;
}

/* The displacements: from a sixteenth of the per-core cache in steps of 2, and the end. */
static int displacements(uint64_t l2, uint64_t end, uint64_t *d)
{
	uint64_t lo = l2 / CHASE_D_MIN_DIVISOR;
	int n = 0;

	/* no more than CHASE_MAX_POINTS steps of 2 below the end */
	if (lo < end >> (CHASE_MAX_POINTS - 1))
		lo = end >> (CHASE_MAX_POINTS - 1);
	lo -= lo % LINE;
	if (lo < LINE)
		lo = LINE;
	for (uint64_t x = lo; x < end && n < CHASE_MAX_POINTS - 1; x *= 2)
		d[n++] = x;
	d[n++] = end;
	return n;
}

int calib_chase_plan(const struct calib_opts *o, struct calibration *c)
{
	uint64_t ws[CHASE_MAX_WS], d[CHASE_MAX_POINTS], ws_max = 0, end;
	int n = c->cpus.n, nws = 0, nd, npairs = 0, k = 0, err;
	int pair_src[MAX_PAIRS], pair_dst[MAX_PAIRS], dist[MAX_PAIRS];
	struct calib_chase *ch;

	/* one pair per distance, the first of the matrix's order, as the 2005 search did */
	for (int i = 0; i < n * n; i++) {
		const struct calib_cell *x = &c->cells[i];
		bool seen = false;

		for (int p = 0; p < npairs; p++)
			seen |= dist[p] == x->distance;
		if (x->src_cpu == x->dst_cpu || seen || npairs == MAX_PAIRS)
			continue;
		pair_src[npairs] = x->src_cpu;
		pair_dst[npairs] = x->dst_cpu;
		dist[npairs++] = x->distance;
	}
	if (o->chase_nws > 0) {
		for (int w = 0; w < o->chase_nws && w < CHASE_MAX_WS; w++)
			ws[nws++] = o->chase_ws[w];
	} else {
		/* inside the per-core cache (cachewalk's default is a quarter of it here), and
		 * beyond it, where only a cache the pair may share holds the set */
		ws[nws++] = c->cache_bytes / 4;
		ws[nws++] = c->cache_bytes * 2;
	}
	for (int w = 0; w < nws; w++) {
		/* whole lines, a multiple of 8 of them, so that 8 chains are of one length */
		ws[w] -= ws[w] % (8 * LINE);
		if (ws[w] < 8 * LINE)
			ws[w] = 8 * LINE;
		if (ws[w] > ws_max)
			ws_max = ws[w];
	}
	err = calib_alloc_chase(c, npairs * nws * CHASE_NCHAINS);
	if (err)
		return err;
	ch = c->chase;
	ch->rounds = o->chase_rounds > 0 ? o->chase_rounds : CHASE_DEFAULT_ROUNDS;
	ch->cold_fraction = CORR_COLD_FRACTION;
	ch->residual_share = CHASE_RESIDUAL_SHARE;
	ch->tries = CHASE_TRIES;
	ch->l2_bytes = c->cache_bytes;
	end = sweep_end(o, ch, npairs ? pair_src[0] : c->cpus.cpu[0], ws_max);
	ch->polluter_bytes = polluter_for(end);
	nd = displacements(c->cache_bytes, end, d);
	for (int p = 0; p < npairs; p++)
		for (int w = 0; w < nws; w++)
			for (int m = 0; m < CHASE_NCHAINS; m++, k++) {
				struct chase_curve *cv = &ch->curves[k];

				cv->src_cpu = pair_src[p];
				cv->dst_cpu = pair_dst[p];
				cv->distance = dist[p];
				cv->ws_bytes = ws[w];
				cv->chains = chase_chains[m];
				cv->state = CORR_HOT_NO_DATA;
				cv->residual_ns = NAN;
				cv->dstar_lo_bytes = cv->dstar_hi_bytes = NAN;
				cv->npoints = nd;
				for (int i = 0; i < nd; i++)
					cv->points[i].displaced_bytes = d[i];
			}
	return 0;
}

/* ---- the measurement ---- */

/* One working set, linked for every chain count. */
struct chase_set {
	struct chase_line *lines;
	uint64_t nlines;
	uint32_t start[CHASE_NCHAINS][8];	/* each chain's first line, by chain count */
};

static int set_init(struct chase_set *s, uint64_t bytes, uint64_t *seed)
{
	uint64_t n = bytes / LINE;
	uint32_t *perm = malloc(n * sizeof(*perm));

	s->nlines = n;
	s->lines = aligned_alloc(4096, (bytes + 4095) & ~4095ULL);
	if (!perm || !s->lines) {
		free(perm);
		free(s->lines);
		s->lines = NULL;
		return -ENOMEM;
	}
	/* the pages faulted in now, not in a timed walk */
	memset(s->lines, 0, n * LINE);
	for (int k = 0; k < CHASE_NCHAINS; k++) {
		uint64_t m = n / (uint64_t)chase_chains[k];

		/* a random order of all the lines, cut into chase_chains[k] cycles of m */
		for (uint64_t i = 0; i < n; i++)
			perm[i] = (uint32_t)i;
		for (uint64_t i = n - 1; i > 0; i--) {
			uint64_t j = splitmix64_next(seed) % (i + 1);
			uint32_t t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int c = 0; c < chase_chains[k]; c++) {
			const uint32_t *cyc = &perm[(uint64_t)c * m];

			for (uint64_t i = 0; i < m; i++)
				s->lines[cyc[i]].next[k] = cyc[(i + 1) % m];
			s->start[k][c] = cyc[0];
		}
	}
	free(perm);
	return 0;
}

/*
 * One pass: every chain once round its cycle, the chains interleaved so that their misses
 * overlap.  chains and k are constants where it is inlined, so the chains' positions stay in
 * registers.
 */
static inline __attribute__((always_inline)) uint64_t
walk_chains(struct chase_line *l, const uint32_t *start, uint64_t steps, int chains, int k)
{
	uint32_t at[8];

	for (int c = 0; c < chains; c++)
		at[c] = start[c];
	for (uint64_t s = 0; s < steps; s++) {
#pragma GCC unroll 8
		for (int c = 0; c < chains; c++) {
			struct chase_line *x = &l[at[c]];

			x->dirty++;
			at[c] = x->next[k];
		}
	}
	return at[0];
}

static __attribute__((noinline)) void walk(struct chase_set *s, int k)
{
	uint64_t steps = s->nlines / (uint64_t)chase_chains[k], end;

	switch (chase_chains[k]) {
	case 1:
		end = walk_chains(s->lines, s->start[k], steps, 1, 0);
		break;
	case 2:
		end = walk_chains(s->lines, s->start[k], steps, 2, 1);
		break;
	case 4:
		end = walk_chains(s->lines, s->start[k], steps, 4, 2);
		break;
	default:
		end = walk_chains(s->lines, s->start[k], steps, 8, 3);
	}
	__asm__ volatile("" : : "r"(end) : "memory");
}

/*
 * The displacing buffer, as cachewalk's polluter streams it: a line touched at a time in the
 * scattered order an odd multiplier gives a power-of-two range (caches resist sequential
 * scans), the order continued from one trial to the next so that each touch is of a line
 * not touched for at least a buffer's worth of others.
 */
struct chase_polluter {
	unsigned char *buf;
	uint64_t lines;
	uint64_t at;
};

static void displace(struct chase_polluter *p, uint64_t bytes)
{
	for (uint64_t n = bytes / LINE; n; n--, p->at++)
		p->buf[((p->at * 0x9E3779B1ULL) & (p->lines - 1)) * LINE]++;
	__asm__ volatile("" : : "r"(p->buf) : "memory");
}

/* The calling thread's context switches so far, of both kinds. */
static long switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * One trial: warm on src, displace d bytes there, walk on dst or src; ns a line.  *switched:
 * the thread was switched out while it warmed, displaced or walked timed (another task ran
 * on the CPU and used its caches, or the walk's time includes the wait); the move itself
 * switches it, and is not counted.
 */
static int trial(struct chase_set *s, int k, struct chase_polluter *p, uint64_t d, int src,
		 int dst, double *ns_per_line, bool *switched)
{
	uint64_t t0, t1;
	long sw0, sw1, sw2;
	int err = topology_pin_to(src);

	if (err)
		return err;
	sw0 = switches();
	walk(s, k);
	walk(s, k);
	displace(p, d);
	sw1 = switches();
	if (dst != src && (err = topology_pin_to(dst)))
		return err;
	sw2 = switches();
	t0 = now_ns();
	walk(s, k);
	t1 = now_ns();
	*switched = sw0 < 0 || sw1 != sw0 || switches() != sw2;
	*ns_per_line = (double)(t1 - t0) / (double)s->nlines;
	return 0;
}

static void progress(const struct calib_opts *o, int done, int total)
{
	if (!o->progress)
		return;
	fprintf(stderr, "\rcalibrate: chase round %d/%d   ", done, total);
	if (done == total)
		fprintf(stderr, "\n");
}

/* The working set of curve cv among sets[], made when first needed. */
static struct chase_set *set_of(const struct calib_chase *ch, int cv, struct chase_set *sets,
				uint64_t *sizes, int *nsets, uint64_t *seed, int *err)
{
	int i;

	for (i = 0; i < *nsets && sizes[i] != ch->curves[cv].ws_bytes; i++)
		;
	if (i == *nsets) {
		*err = set_init(&sets[i], ch->curves[cv].ws_bytes, seed);
		if (*err)
			return NULL;
		sizes[i] = ch->curves[cv].ws_bytes;
		(*nsets)++;
	}
	return &sets[i];
}

int calib_chase_run(const struct calib_opts *o, struct calibration *c)
{
	struct calib_chase *ch = c->chase;
	struct chase_set sets[CHASE_MAX_WS] = { 0 };
	uint64_t sizes[CHASE_MAX_WS], seed = 0x6368617365ULL;	/* "chase" */
	struct chase_polluter pol = { 0 };
	double *samples = NULL;
	int *order = NULL, ntrials, nsets = 0, err = 0;
	uint64_t t0 = now_ns();

	if (!ch || !ch->ncurves)
		return 0;
	ntrials = ch->ncurves * CHASE_MAX_POINTS * 2;
	samples = calloc((size_t)ch->rounds * (size_t)ntrials, sizeof(*samples));
	order = malloc((size_t)ntrials * sizeof(*order));
	pol.buf = aligned_alloc(4096, ch->polluter_bytes);
	if (!samples || !order || !pol.buf) {
		err = -ENOMEM;
		fprintf(stderr, "migtrace: cannot allocate the chase's buffers (a %llu-byte "
			"polluter): free some memory, or leave the chase out\n",
			(unsigned long long)ch->polluter_bytes);
		goto cleanup;
	}
	memset(pol.buf, 1, ch->polluter_bytes);
	pol.lines = ch->polluter_bytes / LINE;
	for (int cv = 0; cv < ch->ncurves && !err; cv++)
		set_of(ch, cv, sets, sizes, &nsets, &seed, &err);
	if (err) {
		fprintf(stderr, "migtrace: cannot allocate the chase's working sets: give smaller "
			"ones (--ws)\n");
		goto cleanup;
	}
	for (int r = 0; r < ch->rounds && !err; r++) {
		int n = 0;

		/* every (curve, point, arm) once, shuffled */
		for (int cv = 0; cv < ch->ncurves; cv++)
			for (int i = 0; i < ch->curves[cv].npoints * 2; i++)
				order[n++] = cv * CHASE_MAX_POINTS * 2 + i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(splitmix64_next(&seed) % (uint64_t)(i + 1)), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int i = 0; i < n && !err; i++) {
			int cv = order[i] / (CHASE_MAX_POINTS * 2);
			int p = order[i] / 2 % CHASE_MAX_POINTS, arm = order[i] % 2, k;
			const struct chase_curve *x = &ch->curves[cv];
			struct chase_set *s = set_of(ch, cv, sets, sizes, &nsets, &seed, &err);

			bool switched = true;

			for (k = 0; chase_chains[k] != x->chains; k++)
				;
			/* a trial the thread was switched out of is redone, a few times at most */
			for (int t = 0; t < CHASE_TRIES && switched && !err; t++) {
				ch->redone += t > 0;
				err = trial(s, k, &pol, x->points[p].displaced_bytes, x->src_cpu,
					    arm ? x->src_cpu : x->dst_cpu,
					    &samples[CHASE_SAMPLE(ch, r, cv, p, arm)], &switched);
			}
			ch->trials++;
			ch->switched += switched;
		}
		progress(o, r + 1, ch->rounds);
	}
	if (err) {
		fprintf(stderr, "migtrace: the chase cannot move the calibrating thread between "
			"CPUs: %s (is every CPU in --cpus online and allowed to this process?)\n",
			strerror(-err));
		goto cleanup;
	}
	err = calib_chase_finish(ch, samples, ch->rounds);
	ch->wall_s = (double)(now_ns() - t0) / 1e9;
cleanup:
	for (int i = 0; i < nsets; i++)
		free(sets[i].lines);
	free(pol.buf);
	free(order);
	free(samples);
	return err;
}

/* ---- the figures, from the samples ---- */

/* A curve's medians over the rounds pick[0..nr) into cost[] (cross - same); point figures
 * too when pt. */
static void curve_costs(const struct calib_chase *ch, int cv, const double *samples,
			const int *pick, int nr, double *scratch, double *cost,
			struct chase_point *pt)
{
	const struct chase_curve *x = &ch->curves[cv];

	for (int p = 0; p < x->npoints; p++) {
		double arm_ns[2];

		for (int arm = 0; arm < 2; arm++) {
			for (int i = 0; i < nr; i++)
				scratch[i] = samples[CHASE_SAMPLE(ch, pick[i], cv, p, arm)];
			arm_ns[arm] = median_inplace(scratch, (size_t)nr);
		}
		cost[p] = arm_ns[0] - arm_ns[1];
		if (pt) {
			pt[p].cross_ns = arm_ns[0];
			pt[p].same_ns = arm_ns[1];
			pt[p].cost_ns = cost[p];
		}
	}
}

/*
 * Where the fit of cost over x falls; floor rule as decided on the point estimates (a
 * residual, or 0).  *fit gets the fit.
 */
static enum corr_hot_state fall(const double *x, const double *cost, int n, bool residual,
				double *fit, double *at)
{
	double w[CHASE_MAX_POINTS];

	for (int i = 0; i < n; i++)
		w[i] = 1;
	decay_fit(cost, w, n, fit);
	return decay_crossing(x, fit, n, CORR_COLD_FRACTION, residual ? fmax(fit[n - 1], 0) : 0,
			      at);
}

/* D*'s 95 % interval over resamples of the rounds; a fall outside the sweep one step out. */
static void interval(struct chase_curve *x, const struct calib_chase *ch, int cv,
		     const double *samples, int rounds, double *scratch, uint64_t *seed)
{
	double d[CHASE_MAX_POINTS], cost[CHASE_MAX_POINTS], fit[CHASE_MAX_POINTS];
	double at[CHASE_BOOT_RESAMPLES];
	int pick[rounds], n = x->npoints;

	for (int i = 0; i < n; i++)
		d[i] = (double)x->points[i].displaced_bytes;
	for (int b = 0; b < CHASE_BOOT_RESAMPLES; b++) {
		enum corr_hot_state st;

		for (int i = 0; i < rounds; i++)
			pick[i] = (int)(splitmix64_next(seed) % (uint64_t)rounds);
		curve_costs(ch, cv, samples, pick, rounds, scratch, cost, NULL);
		st = fall(d, cost, n, x->has_residual, fit, &at[b]);
		if (st == CORR_HOT_ABOVE)
			at[b] = d[n - 1] * 2;
		else if (st != CORR_HOT_FOUND)
			at[b] = d[0] / 2;
	}
	x->dstar_lo_bytes = quantile_sorted_inplace(at, CHASE_BOOT_RESAMPLES, 0.025);
	x->dstar_hi_bytes = quantile_sorted_inplace(at, CHASE_BOOT_RESAMPLES, 0.975);
	/* a bound outside the sweep is its edge: 0 below, unbounded beyond */
	if (x->dstar_lo_bytes < d[0])
		x->dstar_lo_bytes = 0;
	else if (x->dstar_lo_bytes > d[n - 1])
		x->dstar_lo_bytes = INFINITY;
	if (x->dstar_hi_bytes > d[n - 1])
		x->dstar_hi_bytes = INFINITY;
	else if (x->dstar_hi_bytes < d[0])
		x->dstar_hi_bytes = 0;
	x->has_interval = true;
}

int calib_chase_finish(struct calib_chase *ch, const double *samples, int rounds)
{
	double *scratch = malloc((size_t)(rounds > 0 ? rounds : 1) * sizeof(double));
	uint64_t seed = 0x6d696774726163ULL;	/* "migtrac" */
	int *all = malloc((size_t)(rounds > 0 ? rounds : 1) * sizeof(int));

	if (!scratch || !all) {
		free(scratch);
		free(all);
		return -ENOMEM;
	}
	for (int i = 0; i < rounds; i++)
		all[i] = i;
	for (int cv = 0; cv < ch->ncurves; cv++) {
		struct chase_curve *x = &ch->curves[cv];
		double d[CHASE_MAX_POINTS], cost[CHASE_MAX_POINTS], fit[CHASE_MAX_POINTS];
		int n = x->npoints;

		x->state = CORR_HOT_NO_DATA;
		x->has_residual = x->has_interval = false;
		x->residual_ns = x->dstar_lo_bytes = x->dstar_hi_bytes = NAN;
		if (rounds < 1 || n < 1)
			continue;
		for (int i = 0; i < n; i++)
			d[i] = (double)x->points[i].displaced_bytes;
		curve_costs(ch, cv, samples, all, rounds, scratch, cost, x->points);
		/* the residual decided once, on the point estimates, as validate decides it */
		fall(d, cost, n, false, fit, &x->dstar_bytes);
		x->max_ns = fit[0];
		x->has_residual = fit[0] > 0 && fit[n - 1] <= ch->residual_share * fit[0];
		x->residual_ns = x->has_residual ? fmax(fit[n - 1], 0) : NAN;
		x->state = fall(d, cost, n, x->has_residual, fit, &x->dstar_bytes);
		for (int i = 0; i < n; i++)
			x->points[i].fit_ns = fit[i];
		if (rounds > 1 && x->state != CORR_HOT_NO_COST)
			interval(x, ch, cv, samples, rounds, scratch, &seed);
	}
	free(scratch);
	free(all);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Migration-cost calibration, done from user space the way the kernel did it at boot.
 *
 * The calibrating thread migrates itself with sched_setaffinity(): a real migration, and
 * after it the thread runs on the CPU it asked for (checked, as the kernel's WARN_ON did).
 *
 * What cannot be copied from the kernel: it ran "undisturbed" with interrupts off.  Here
 * other tasks and interrupts land in the timed window, so besides the seed's max we keep
 * the median and MAD of every cell and the median of its undisturbed fills (the robust
 * figure, see CALIB_DISTURBED_PCT), and the repetitions of all pairs are interleaved so that
 * a burst of noise spreads over the matrix instead of spoiling one cell.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate.h"
#include "splitmix.h"
#include "stats.h"
#include "topology.h"
#include "tunable.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Keeps the compiler from proving the buffer's stores dead. */
static void clobber(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

void calib_fill_2004(unsigned long *c, uint64_t bytes, unsigned long d)
{
	uint64_t size = bytes / sizeof(long);	/* in longs, as the seed counts */

	for (uint64_t i = 0; i < size / 4; i++) {
		if ((i & 3) == 0)
			c[i] = d;
		if ((i & 3) == 1)
			c[size - 1 - i] = d;
		if ((i & 3) == 2)
			c[size / 2 - i] = d;
		if ((i & 3) == 3)
			c[size / 2 + i] = d;
	}
	clobber(c);
}

/* The 2005 touch pattern: read-modify-write in six regions. */
static void calib_touch_2005(unsigned long *c, uint64_t bytes)
{
	uint64_t size = bytes / sizeof(long), chunk1 = size / 3, chunk2 = 2 * size / 3;

	/* i steps by 8 longs (one line); i % 6 cycles 0, 2, 4 and the cases fall through. */
	for (uint64_t i = 0; i < size / 6; i += 8) {
		switch (i % 6) {
		case 0:
			c[i]++;
			/* fallthrough */
		case 1:
			c[size - 1 - i]++;
			/* fallthrough */
		case 2:
			c[chunk1 - i]++;
			/* fallthrough */
		case 3:
			c[chunk1 + i]++;
			/* fallthrough */
		case 4:
			c[chunk2 - i]++;
			/* fallthrough */
		case 5:
			c[chunk2 + i]++;
		}
	}
	clobber(c);
}

/* Writes the buffer back and out of every cache level: user space's sched_cacheflush(). */
static void flush_buffer(void *buf, uint64_t bytes)
{
#if defined(__x86_64__) || defined(__i386__)
	for (uint64_t off = 0; off < bytes; off += 64)
		__builtin_ia32_clflush((char *)buf + off);
	__builtin_ia32_mfence();
#else
	(void)buf;
	(void)bytes;
#endif
}

struct calib_bufs {
	unsigned long *shared;	/* the migrating task's working set */
	unsigned long *local;	/* what the destination CPU was busy with */
	uint64_t bytes;
};

static int bufs_alloc(struct calib_bufs *b, uint64_t bytes)
{
	b->bytes = bytes;
	b->shared = aligned_alloc(4096, (bytes + 4095) & ~4095ULL);
	b->local = aligned_alloc(4096, (bytes + 4095) & ~4095ULL);
	if (!b->shared || !b->local) {
		free(b->shared);
		free(b->local);
		b->shared = b->local = NULL;
		return -ENOMEM;
	}
	/* Fault every page in now, so no page fault lands in a timed window. */
	memset(b->shared, 0, bytes);
	memset(b->local, 0, bytes);
	return 0;
}

static void bufs_free(struct calib_bufs *b)
{
	free(b->shared);
	free(b->local);
}

/* 2004 measure_one: src dirties shared, dst dirties local, then dst's timed fill of shared. */
static int measure_2004(struct calib_bufs *b, int src, int dst, uint64_t *delta)
{
	uint64_t t0, t1;
	int err;

	if ((err = topology_pin_to(src)))
		return err;
	memset(b->shared, 0, b->bytes);
	clobber(b->shared);
	if ((err = topology_pin_to(dst)))
		return err;
	memset(b->local, 0, b->bytes);
	clobber(b->local);
	t0 = now_ns();
	calib_fill_2004(b->shared, b->bytes, 0xdeadbeef);
	t1 = now_ns();
	*delta = t1 - t0;
	return 0;
}

/* 2005 measure_one: flush, touch on source, migrate, touch on target; both timed. */
static int measure_2005(struct calib_bufs *b, uint64_t size, int src, int dst, uint64_t *cost)
{
	uint64_t t0, t1, t2, t3;
	int err;

	flush_buffer(b->shared, size);
	if ((err = topology_pin_to(src)))
		return err;
	t0 = now_ns();
	calib_touch_2005(b->shared, size);
	t1 = now_ns();
	if ((err = topology_pin_to(dst)))
		return err;
	t2 = now_ns();
	calib_touch_2005(b->shared, size);
	t3 = now_ns();
	flush_buffer(b->shared, size);
	*cost = (t1 - t0) + (t3 - t2);
	return 0;
}

void calib_undisturbed(const double *v, int n, double *scratch, struct calib_undisturbed *u)
{
	int nb = n < CALIB_BLOCKS ? n : CALIB_BLOCKS, k = 0;
	double *block_p = &scratch[n], cut;

	memset(u, 0, sizeof(*u));
	if (n < 1)
		return;
	for (int b = 0; b < nb; b++) {
		int first = b * n / nb, len = (b + 1) * n / nb - first;

		memcpy(scratch, &v[first], (size_t)len * sizeof(*v));
		block_p[b] = quantile_select_inplace(scratch, (size_t)len, CALIB_ANCHOR_QUANTILE);
	}
	u->anchor_ns = quantile_select_inplace(block_p, (size_t)nb, CALIB_ANCHOR_BLOCK_QUANTILE);
	cut = u->anchor_ns * (100 + CALIB_DISTURBED_PCT) / 100;
	/* at least one fill is kept: some block's 10th percentile is at or above its min */
	for (int i = 0; i < n; i++)
		if (v[i] <= cut)
			scratch[k++] = v[i];
	u->fills = k;
	u->median_ns = quantile_select_inplace(scratch, (size_t)k, 0.5);
}

int calib_cell_from_samples(struct calib_cell *c, const uint64_t *samples, int reps)
{
	struct calib_undisturbed u;
	struct sample_summary s;
	uint64_t seed_max = 0;
	double *v = NULL;
	int err = summarize_u64(samples, (size_t)reps, &s);

	if (err)
		return err;
	/* the fills, then calib_undisturbed()'s scratch */
	v = malloc(((size_t)reps * 2 + CALIB_BLOCKS) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* samples[] is in the order they were taken: the seed's window is the first 20 */
	for (int i = 0; i < reps && i < CALIB_SEED_REPS; i++)
		seed_max = samples[i] > seed_max ? samples[i] : seed_max;
	c->fill_max_ns = seed_max;
	c->fill_min_ns = s.min;
	c->fill_median_ns = s.median;
	c->fill_mad_ns = s.mad;
	for (int i = 0; i < reps; i++)
		v[i] = (double)samples[i];
	calib_undisturbed(v, reps, &v[reps], &u);
	c->fill_anchor_ns = u.anchor_ns;
	c->fill_undisturbed_ns = u.median_ns;
	c->fills_undisturbed = u.fills;
	/* The "10 %" rule: cold after ten times the cost; 10 = 6 x 5/3 (the buffer factor). */
	c->cost_ns = seed_max * 6;
	c->robust_ns = (uint64_t)llround(c->fill_undisturbed_ns * 6);
	free(v);
	return 0;
}

void calib_finish_matrix(struct calibration *c)
{
	int n = c->cpus.n, k = 0;
	double *noise = calloc((size_t)n * n, sizeof(double));
	double *spike = calloc((size_t)n * n, sizeof(double));
	double *dist = calloc((size_t)n * n, sizeof(double));

	c->has_hot = false;
	for (int i = 0; i < n * n; i++) {
		const struct calib_cell *x = &c->cells[i];

		if (noise && spike && dist && x->fill_median_ns > 0) {
			noise[k] = 100.0 * x->fill_mad_ns / x->fill_median_ns;
			spike[k] = (double)x->fill_max_ns / x->fill_median_ns;
			dist[k] = c->reps ? 100.0 * (c->reps - x->fills_undisturbed) / c->reps : 0;
			k++;
		}
		if (x->src_cpu == x->dst_cpu)
			continue;
		if (!c->has_hot || (double)x->cost_ns < c->hot_seed_ns)
			c->hot_seed_ns = (double)x->cost_ns;
		if (!c->has_hot || (double)x->robust_ns < c->hot_robust_ns)
			c->hot_robust_ns = (double)x->robust_ns;
		c->has_hot = true;
	}
	c->noise_pct = median_inplace(noise, k);
	c->max_over_median = median_inplace(spike, k);
	c->disturbed_pct = median_inplace(dist, k);
	free(noise);
	free(spike);
	free(dist);
	calib_group(c);
}

/*
 * One bootstrap draw: the robust hot time over the blocks pick[0..nb), ns.  draw holds a
 * draw's fills (at most reps + nb), scratch calib_undisturbed()'s scratch for them.
 */
static double resampled_hot(const struct calibration *c, const uint64_t *samples, int reps,
			    const int *pick, int nb, double *draw, double *scratch)
{
	struct calib_undisturbed u;
	double best = -1;

	for (int i = 0; i < c->cpus.n * c->cpus.n; i++) {
		const uint64_t *cell = &samples[(size_t)i * reps];
		int m = 0;

		if (c->cells[i].src_cpu == c->cells[i].dst_cpu)
			continue;
		/* drawn blocks in draw order: calib_undisturbed() cuts them up again */
		for (int b = 0; b < nb; b++)
			for (int j = pick[b] * reps / nb; j < (pick[b] + 1) * reps / nb; j++)
				draw[m++] = (double)cell[j];
		calib_undisturbed(draw, m, scratch, &u);
		if (best < 0 || u.median_ns < best)
			best = u.median_ns;
	}
	return best * 6;
}

int calib_hot_interval(struct calibration *c, const uint64_t *samples, int reps)
{
	int nb = reps < CALIB_BLOCKS ? reps : CALIB_BLOCKS, err = 0;
	double *draw = NULL, *scratch = NULL, *hot = NULL;
	uint64_t state = 0x6d696774726163ULL;	/* "migtrac" */
	int *pick = NULL;

	c->has_interval = false;
	if (!c->has_hot || reps < 1)
		goto cleanup;
	/* a draw holds nb blocks of at most ceil(reps / nb) fills */
	draw = malloc(((size_t)reps + nb) * sizeof(double));
	scratch = malloc(((size_t)reps + nb + CALIB_BLOCKS) * sizeof(double));
	hot = malloc(CALIB_BOOT_RESAMPLES * sizeof(double));
	pick = malloc((size_t)nb * sizeof(int));
	if (!draw || !scratch || !hot || !pick) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (int k = 0; k < CALIB_BOOT_RESAMPLES; k++) {
		for (int b = 0; b < nb; b++)
			pick[b] = (int)(splitmix64_next(&state) % (uint64_t)nb);
		hot[k] = resampled_hot(c, samples, reps, pick, nb, draw, scratch);
	}
	c->hot_robust_lo_ns = round(quantile_sorted_inplace(hot, CALIB_BOOT_RESAMPLES, 0.025));
	c->hot_robust_hi_ns = round(quantile_sorted_inplace(hot, CALIB_BOOT_RESAMPLES, 0.975));
	c->has_interval = true;
cleanup:
	free(draw);
	free(scratch);
	free(hot);
	free(pick);
	return err;
}

static void progress(const struct calib_opts *o, const char *what, int done, int total)
{
	if (!o->progress)
		return;
	fprintf(stderr, "\rcalibrate: %s %d/%d (%d%%)   ", what, done, total,
		total ? done * 100 / total : 100);
	if (done == total)
		fprintf(stderr, "\n");
}

static int run_2004(const struct calib_opts *o, struct calibration *c)
{
	int n = o->cpus.n, reps = o->reps, err = 0;
	uint64_t *samples = calloc((size_t)n * n * reps, sizeof(uint64_t));
	struct calib_bufs b = { 0 };

	if (!samples)
		return -ENOMEM;
	err = bufs_alloc(&b, c->buffer_bytes);
	if (err) {
		fprintf(stderr, "migtrace: cannot allocate 2 x %llu bytes for the calibration "
			"buffers\n", (unsigned long long)c->buffer_bytes);
		goto cleanup;
	}
	/* Dry run of every pair: warms TLBs, page tables and the code path. */
	for (int i = 0; i < n * n && !err; i++) {
		uint64_t d;

		err = measure_2004(&b, o->cpus.cpu[i / n], o->cpus.cpu[i % n], &d);
	}
	for (int rep = 0; rep < reps && !err; rep++) {
		for (int i = 0; i < n * n && !err; i++)
			err = measure_2004(&b, o->cpus.cpu[i / n], o->cpus.cpu[i % n],
					   &samples[(size_t)i * reps + rep]);
		progress(o, "repetition", rep + 1, reps);
		/* -v: the raw samples the cells' medians and the interval are made of, one
		 * line a repetition, so that a drifting host shows as drift */
		if (o->verbose && !err) {
			fprintf(stderr, "calibrate: repetition %d/%d, ns to fill %llu bytes (src->dst):",
				rep + 1, reps, (unsigned long long)c->buffer_bytes);
			for (int i = 0; i < n * n; i++)
				fprintf(stderr, " %d->%d %llu", o->cpus.cpu[i / n], o->cpus.cpu[i % n],
					(unsigned long long)samples[(size_t)i * reps + rep]);
			fprintf(stderr, "\n");
		}
	}
	if (err) {
		fprintf(stderr, "migtrace: cannot move the calibrating thread between CPUs: %s "
			"(is every CPU in --cpus online and allowed to this process?)\n",
			strerror(-err));
		goto cleanup;
	}
	for (int i = 0; i < n * n; i++) {
		err = calib_cell_from_samples(&c->cells[i], &samples[(size_t)i * reps], reps);
		if (err)
			goto cleanup;
	}
	calib_finish_matrix(c);
	err = calib_hot_interval(c, samples, reps);
cleanup:
	bufs_free(&b);
	free(samples);
	return err;
}

/* 2005 measure_cost: mean cross-CPU cost (both directions) minus mean same-CPU cost. */
static int measure_cost_2005(const struct calib_opts *o, struct calib_bufs *b, uint64_t size,
			     int cpu1, int cpu2, int64_t *cost)
{
	const int pairs[4][2] = { { cpu1, cpu2 }, { cpu2, cpu1 }, { cpu1, cpu1 }, { cpu2, cpu2 } };
	uint64_t sum[4] = { 0 };
	int err = 0;

	for (int p = 0; p < 4 && !err; p++) {
		uint64_t c;

		/* dry run: start cache-cold and take the page faults outside the sum */
		err = measure_2005(b, size, pairs[p][0], pairs[p][1], &c);
		for (int i = 0; i < o->reps && !err; i++) {
			/* (perturb by 0..reps KiB against size/alignment artefacts) */
			uint64_t sz = size > (uint64_t)i * 1024 * 2 ? size - (uint64_t)i * 1024 : size;

			err = measure_2005(b, sz, pairs[p][0], pairs[p][1], &c);
			sum[p] += c;
		}
	}
	if (err)
		return err;
	*cost = (int64_t)((sum[0] + sum[1]) / (2 * (uint64_t)o->reps)) -
		(int64_t)((sum[2] + sum[3]) / (2 * (uint64_t)o->reps));
	return 0;
}

static int measure_migration_cost_2005(const struct calib_opts *o, struct calib_bufs *b,
				       struct calib_distance *d)
{
	uint64_t max_size, size;
	int64_t cost = 0, prev_cost, max_cost = 0, avg_fluct = 0;
	uint64_t size_found = 0;
	int cap = 256, err = 0;

	max_size = o->cache_size * CALIB_2005_SEARCH_SCOPE;
	if (max_size < CALIB_2005_MIN_SIZE)
		max_size = CALIB_2005_MIN_SIZE;
	size = o->cache_size / CALIB_2005_SEARCH_SCOPE;
	if (size < CALIB_2005_MIN_SIZE)
		size = CALIB_2005_MIN_SIZE;
	d->steps = calloc(cap, sizeof(*d->steps));
	if (!d->steps)
		return -ENOMEM;
	while (size <= max_size && d->nsteps < cap) {
		struct calib_step *st = &d->steps[d->nsteps++];
		int64_t fluct;

		prev_cost = cost;
		err = measure_cost_2005(o, b, size, d->cpu1, d->cpu2, &cost);
		if (err)
			return err;
		if (cost > 0 && max_cost < cost) {
			max_cost = cost;
			size_found = size;
		}
		/* The kernel's running fluctuation estimate keeps noise from ending it early. */
		fluct = cost > prev_cost ? cost - prev_cost : prev_cost - cost;
		avg_fluct = (avg_fluct + fluct) / 2;
		st->size_bytes = size;
		st->cost_ns = cost;
		st->max_cost_ns = max_cost;
		st->avg_fluct_ns = avg_fluct;
		if (o->progress)
			fprintf(stderr, "\rcalibrate: 2005 sweep [%d][%d] size %llu   ", d->cpu1,
				d->cpu2, (unsigned long long)size);
		/* 30 % past the maximum and 30 % below it (with fluctuation): found it. */
		if (size_found && size * 100 > size_found * CALIB_2005_SIZE_THRESH)
			if (cost + avg_fluct <= 0 ||
			    max_cost * 100 > (cost + avg_fluct) * CALIB_2005_COST_THRESH)
				break;
		size = size * 20 / 19;
	}
	if (o->progress)
		fprintf(stderr, "\n");
	d->size_found_bytes = size_found;
	d->max_cost_ns = max_cost;
	/* Cold after twice the worst-case cost, scaled by migration_factor. */
	d->cost_ns = (uint64_t)(2 * max_cost * o->factor / CALIB_FACTOR_SCALE);
	return 0;
}

void calib_finish_search(struct calibration *c)
{
	c->has_hot = false;
	for (int i = 0; i < c->cpus.n * c->cpus.n; i++) {
		struct calib_cell *x = &c->cells[i];

		if (x->src_cpu == x->dst_cpu)
			continue;
		x->cost_ns = x->robust_ns = c->dist[x->distance].cost_ns;
		if (!c->has_hot || (double)x->cost_ns < c->hot_seed_ns)
			c->hot_seed_ns = c->hot_robust_ns = (double)x->cost_ns;
		c->has_hot = true;
	}
}

static int run_2005(const struct calib_opts *o, struct calibration *c)
{
	int n = c->cpus.n, err = 0;
	struct calib_bufs b = { 0 };

	/* The largest size the sweep can reach, plus the perturbation slack. */
	err = bufs_alloc(&b, o->cache_size * CALIB_2005_SEARCH_SCOPE + 2 * CALIB_2005_MIN_SIZE);
	if (err) {
		fprintf(stderr, "migtrace: cannot allocate the 2005 sweep buffer\n");
		return err;
	}
	for (int i = 0; i < n * n; i++)
		if (c->cells[i].src_cpu != c->cells[i].dst_cpu && c->cells[i].distance >= c->ndist)
			c->ndist = c->cells[i].distance + 1;
	c->dist = calloc(c->ndist ? c->ndist : 1, sizeof(*c->dist));
	if (!c->dist) {
		c->ndist = 0;
		err = -ENOMEM;
		goto cleanup;
	}
	for (int d = 0; d < c->ndist; d++)
		c->dist[d].cpu1 = c->dist[d].cpu2 = -1;
	/* Measure one pair per distance and cache it, as the kernel did. */
	for (int i = 0; i < n * n && !err; i++) {
		const struct calib_cell *x = &c->cells[i];
		struct calib_distance *cd = &c->dist[x->distance];

		if (x->src_cpu == x->dst_cpu || cd->cpu1 >= 0)
			continue;
		cd->cpu1 = x->src_cpu;
		cd->cpu2 = x->dst_cpu;
		err = measure_migration_cost_2005(o, &b, cd);
		if (err)
			fprintf(stderr, "migtrace: 2005 sweep between CPUs %d and %d failed: %s\n",
				cd->cpu1, cd->cpu2, strerror(-err));
	}
	if (!err)
		calib_finish_search(c);
cleanup:
	bufs_free(&b);
	return err;
}

struct llc_ctx {
	const struct topology *t;
	const struct cpu_set_list *cpus;
};

static bool share_llc(int i, int j, const void *ctx)
{
	const struct llc_ctx *l = ctx;

	return topology_share_llc(l->t, l->cpus->cpu[i], l->cpus->cpu[j]);
}

void calib_note_llc(struct calibration *c, const struct topology *t)
{
	struct calib_llc *l = &c->llc;
	bool sysfs = false, cpuid = false;

	memset(l, 0, sizeof(*l));
	/* An LLC whose sharing nobody gave groups nothing: a guess would pass for a finding. */
	l->known = true;
	for (int i = 0; i < c->cpus.n && l->known; i++)
		l->known = topology_llc_known(t, c->cpus.cpu[i], l->why, sizeof(l->why));
	if (!l->known)
		return;
	for (int i = 0; i < c->cpus.n; i++) {
		const struct topo_cache *k = topology_llc(t, c->cpus.cpu[i]);

		sysfs |= k->source == TOPO_SRC_SYSFS;
		cpuid |= k->source == TOPO_SRC_CPUID;
	}
	snprintf(l->source, sizeof(l->source), "%s",
		 sysfs && cpuid ? "sysfs+CPUID" : cpuid ? "CPUID" : "sysfs");
	l->ngroups = calib_partition(c->cpus.n, share_llc, &(struct llc_ctx){ t, &c->cpus },
				     l->group_of);
}

/* The symmetrised cross cost of CPUs i and j (indexes): robust, median-based. */
static double pair_cost(const struct calibration *c, int i, int j)
{
	int n = c->cpus.n;

	return ((double)c->cells[i * n + j].robust_ns + (double)c->cells[j * n + i].robust_ns) / 2;
}

struct cost_ctx {
	const struct calibration *c;
	double cut;		/* ns: a pair cheaper than this is in one group */
};

static bool cheap_pair(int i, int j, const void *ctx)
{
	const struct cost_ctx *k = ctx;

	/* Below 1.3x the whole matrix is one class: no split is measured. */
	return k->c->groups.split_ratio < 1.3 || pair_cost(k->c, i, j) < k->cut;
}

void calib_group(struct calibration *c)
{
	struct calib_groups *g = &c->groups;
	int n = c->cpus.n;
	double lo = INFINITY, hi = 0;

	memset(g, 0, sizeof(*g));
	if (c->method != CALIB_2004 || n < 2 || !c->cells)
		return;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			lo = fmin(lo, pair_cost(c, i, j));
			hi = fmax(hi, pair_cost(c, i, j));
		}
	g->valid = true;
	g->split_ratio = lo > 0 ? hi / lo : 1;
	/* the geometric midpoint between the two cost classes */
	g->ngroups = calib_partition(n, cheap_pair, &(struct cost_ctx){ c, sqrt(lo * hi) },
				     g->group_of);
	g->compared = c->llc.known;
	/* Both labelings number groups by first appearance, so equal partitions are equal. */
	g->agree = g->compared && !memcmp(g->group_of, c->llc.group_of, n * sizeof(int));
}

int calib_prepare(const struct calib_opts *o, struct calibration *c)
{
	int n = o->cpus.n;

	calib_free(c);
	if (n < 1 || o->reps < 1 || !o->cache_size || !o->topo)
		return -EINVAL;
	c->method = o->method;
	c->cpus = o->cpus;
	c->reps = o->reps;
	c->factor = o->method == CALIB_2005 ? o->factor : 0;
	c->cache_bytes = o->cache_size;
	c->cache_cpu = o->cpus.cpu[0];
	if (o->cache) {
		const struct topo_cache *k = o->cache->cache;

		snprintf(c->cache_what, sizeof(c->cache_what), "%s", o->cache->what);
		snprintf(c->cache_source, sizeof(c->cache_source), "%s", o->cache->source);
		if (k) {
			c->cache_level = k->level;
			snprintf(c->cache_type, sizeof(c->cache_type), "%s", k->type);
			c->cache_cpuid_leaf = k->cpuid_leaf;
		}
		if (o->cache->scope)
			snprintf(c->cache_scope, sizeof(c->cache_scope), "%s", o->cache->scope);
	}
	c->buffer_bytes = o->cache_size * 5 / 3;
	c->buffer_bytes -= c->buffer_bytes % sizeof(long);
	c->cpu_mhz = o->topo->cpu_mhz;
	if (o->kernel)
		tunable_record(o->kernel, &c->tunable);
	if (o->method == CALIB_2004) {
		c->anchor_blocks = CALIB_BLOCKS;
		c->anchor_quantile = CALIB_ANCHOR_QUANTILE;
		c->anchor_block_quantile = CALIB_ANCHOR_BLOCK_QUANTILE;
		c->disturbed_above_anchor_pct = CALIB_DISTURBED_PCT;
	}
	calib_note_llc(c, o->topo);
	if (calib_alloc_cells(c, n))
		return -ENOMEM;
	for (int i = 0; i < n * n; i++) {
		struct calib_cell *x = &c->cells[i];

		x->src_cpu = o->cpus.cpu[i / n];
		x->dst_cpu = o->cpus.cpu[i % n];
		x->distance = topology_distance(o->topo, x->src_cpu, x->dst_cpu);
	}
	return o->chase ? calib_chase_plan(o, c) : 0;
}

int calibrate_run(const struct calib_opts *o, struct calibration *c)
{
	uint64_t t0 = now_ns();
	cpu_set_t saved;
	int err = calib_prepare(o, c);

	if (err)
		return err;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	err = o->method == CALIB_2005 ? run_2005(o, c) : run_2004(o, c);
	if (!err && o->chase)
		err = calib_chase_run(o, c);
	sched_setaffinity(0, sizeof(saved), &saved);
	c->wall_s = (double)(now_ns() - t0) / 1e9;
	return err;
}

int calib_sweep_size(const struct calib_opts *o, struct calibration *c, int i)
{
	static const double factors[CALIB_SWEEP_NSIZES] = {
		0.25, 0.354, 0.5, 0.707, 1, 1.414, 2, 2.83, 4,	/* sqrt(2) steps */
	};
	struct calib_opts scaled = *o;
	struct calibration one = { 0 };
	struct calib_size *z;
	int ns = 0, nc = 0, err;

	if (i < 0 || i >= CALIB_SWEEP_NSIZES || i > c->nsizes)
		return -EINVAL;
	if (!c->sizes && !(c->sizes = calloc(CALIB_SWEEP_NSIZES, sizeof(*c->sizes))))
		return -ENOMEM;
	z = &c->sizes[i];
	memset(z, 0, sizeof(*z));
	z->factor = factors[i];
	scaled.method = CALIB_2004;
	scaled.chase = false;
	scaled.cache = NULL;
	scaled.kernel = NULL;
	scaled.cache_size = (uint64_t)((double)o->cache_size * factors[i]);
	scaled.cache_size -= scaled.cache_size % 64;
	err = calibrate_run(&scaled, &one);
	if (!err) {
		for (int k = 0; k < one.cpus.n * one.cpus.n; k++) {
			const struct calib_cell *x = &one.cells[k];

			if (x->src_cpu == x->dst_cpu) {
				z->same_cpu_median_ns += x->fill_median_ns;
				ns++;
			} else {
				z->cross_cpu_median_ns += x->fill_median_ns;
				nc++;
			}
		}
		z->cache_bytes = scaled.cache_size;
		z->buffer_bytes = one.buffer_bytes;
		z->same_cpu_median_ns /= ns ? ns : 1;
		z->has_cross = nc > 0;
		z->cross_cpu_median_ns = nc ? z->cross_cpu_median_ns / nc : 0;
		c->nsizes = i + 1;
	}
	calib_free(&one);
	return err;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Migration-cost calibration from user space: the 2004 boot-time method (max of N timed
 * fills of a 5/3-cache buffer after a migration, x6) and the 2005 variant merged in 2.6.16
 * (buffer-size sweep, cross-CPU minus same-CPU cost, max over sizes, x2 x factor).
 */
#ifndef MIGTRACE_CALIBRATE_H
#define MIGTRACE_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"

struct topology;

enum calib_method { CALIB_2004 = 2004, CALIB_2005 = 2005 };

/* The 2005 code's constants (kernel/sched.c, 2.6.16). */
#define CALIB_2005_MIN_SIZE (64 * 1024U)
#define CALIB_2005_SEARCH_SCOPE 2
#define CALIB_2005_SIZE_THRESH 130	/* % past the maximum before an early stop */
#define CALIB_2005_COST_THRESH 130	/* % drop from the maximum that ends the search */
#define CALIB_FACTOR_SCALE 128		/* MIGRATION_FACTOR_SCALE */
/*
 * The seed's cell is the max of its 20 timed fills x 6.  A max grows with the number of
 * samples, so it is taken over the first 20 only, whatever --reps is; the robust hot time
 * uses them all.  Default reps: 1000 (0.6-1.3 s for 2 CPUs here).
 */
#define CALIB_SEED_REPS 20
#define CALIB_DEFAULT_REPS 1000
/*
 * The robust cell: the median of the undisturbed fills.  A disturbance (an interrupt, the
 * host running something beside the vCPU) only ever adds time, so the fastest fills are
 * the undisturbed ones, and a fill more than 10 % slower than the anchor, an undisturbed
 * fill, counts as disturbed.  The anchor: the fills cut into CALIB_BLOCKS blocks of
 * consecutive ones, the lower quartile of the blocks' 10th percentiles (quantiles, not the
 * min, which is one lucky fill).  Disturbances come in phases: a slow one must cover three
 * quarters of the blocks to move the anchor, and a fast one (the host putting both vCPUs on
 * one core: a migration that costs nothing) a quarter; a plain 10th percentile would follow
 * a fast phase of a tenth of the run.
 * Measured on this VM (62 runs of 1000 fills a cell, the vCPUs placed as usual): the
 * undisturbed fills spread ~1 us around 41 us (2.5 %, so 10 % is 4 of their standard
 * deviations); the disturbed ones formed a second mode ~20 % slower, 4-84 % of a cell's
 * fills as the host's load came and went, and took the plain median (and the hot time) up
 * to 30 % above its usual value; the median of the undisturbed fills stayed within 8 %.
 * On a quiet host nearly every fill is within 10 % of the anchor and the figure is the
 * plain median.
 */
#define CALIB_BLOCKS 20
#define CALIB_ANCHOR_QUANTILE 0.10		/* within a block */
#define CALIB_ANCHOR_BLOCK_QUANTILE 0.25	/* over the blocks */
#define CALIB_DISTURBED_PCT 10
/*
 * The robust hot time's 95 % interval: a block bootstrap over time, on the same blocks
 * (neighbouring fills are not independent).  CALIB_BOOT_RESAMPLES draws of as many blocks,
 * the same blocks for every cell (they were measured interleaved), recompute it.
 */
#define CALIB_BOOT_RESAMPLES 200

struct calib_opts {
	enum calib_method method;
	struct cpu_set_list cpus;
	uint64_t cache_size;	/* bytes: the cache the buffer is sized against */
	int reps;		/* timed repetitions per pair (2004) or per size (2005) */
	int factor;		/* 2005 migration_factor, in 1/128 (128 = x1) */
	bool progress;		/* progress on stderr */
	const struct topology *topo;	/* for distances; required */
};

/* One ordered (src, dst) pair of the 2004 method.  All times in ns. */
struct calib_cell {
	int src, dst;
	uint64_t max_ns, min_ns;	/* fill times after the migration, ns; max_ns: of the
					 * first CALIB_SEED_REPS, as the seed took it */
	double median_ns, mad_ns;	/* of all the fills, ns */
	double anchor_ns;		/* an undisturbed fill (see calib_undisturbed), ns */
	double undisturbed_ns;		/* median of the undisturbed fills, ns */
	int fills;			/* how many fills were timed (--reps) */
	int undisturbed;		/* how many of them were undisturbed */
	uint64_t cost_ns;		/* the seed's cell: max x 6 (2004), or the distance cost */
	uint64_t robust_ns;		/* undisturbed_ns x 6: the rule, robust */
	int distance;			/* scheduler-domain distance (2005 caches by it) */
};

/* One size step of the 2005 search, for the sweep log. */
struct calib_step {
	uint64_t size;		/* bytes */
	int64_t cost_ns;	/* cross - self, per migration, ns (may be < 0: noise) */
	int64_t max_cost_ns;	/* running maximum, ns */
	int64_t avg_fluct_ns;	/* the kernel's fluctuation estimate, ns */
};

struct calib_distance {
	int cpu1, cpu2;		/* the pair measured for this distance */
	uint64_t size_found;	/* bytes: working set where the cost peaked */
	int64_t max_cost_ns;	/* ns */
	uint64_t cost_ns;	/* 2 x max x factor / 128: the hot time for this distance, ns */
	int nsteps;
	struct calib_step *steps;
};

struct calib_result {
	enum calib_method method;
	struct calib_opts opts;
	uint64_t buffer_size;		/* bytes actually used (2004: 5/3 x cache) */
	int ncpu;			/* opts.cpus.n */
	struct calib_cell *cells;	/* ncpu x ncpu, row = src */
	/* 2004: the hot time is the minimum cross-CPU cell. */
	bool has_hot;			/* false with a single CPU */
	uint64_t hot_ns;		/* min over cross cells of cost_ns */
	uint64_t hot_robust_ns;		/* min over cross cells of robust_ns */
	bool has_interval;		/* 2004 with two CPUs or more */
	uint64_t hot_robust_lo_ns, hot_robust_hi_ns;	/* its 95 % block-bootstrap interval */
	double noise_pct;		/* median over cells of MAD / median, % */
	double disturbed_pct;		/* median over cells of the share disturbed, % */
	double max_over_median;		/* median over cells of max / median: outlier weight */
	/* 2005 */
	int ndist;
	struct calib_distance *dist;
	double wall_s;			/* s */
};

/*
 * The scattered fill of the 2004 seed: one store per step into four regions, so that the
 * access pattern is hard for the cache to predict and the whole buffer is dirtied.
 * size is in bytes.
 */
void calib_fill_2004(unsigned long *buf, uint64_t size, unsigned long value);
/* The 2005 touch pattern: read-modify-write in six regions. */
void calib_touch_2005(unsigned long *buf, uint64_t size);

/* Runs the calibration.  0, or -errno with a message on stderr. */
int calibrate_run(const struct calib_opts *o, struct calib_result *r);
void calib_result_free(struct calib_result *r);

/*
 * The pure parts, testable on made-up samples: fills cell statistics from samples[reps]
 * (2004: cost = max x 6), and the matrix-wide hot time and noise.
 */
int calib_cell_from_samples(struct calib_cell *c, const uint64_t *samples, int reps);
void calib_finish_matrix(struct calib_result *r);
/* The robust statistic of one cell's fills (see CALIB_DISTURBED_PCT). */
struct calib_undisturbed {
	double anchor_ns;	/* an undisturbed fill, ns */
	double median_ns;	/* median of the undisturbed fills, ns */
	int fills;		/* how many were undisturbed (>= 1 when there are fills) */
};

/* From v[0..n), fills in ns in the order taken; scratch holds n + CALIB_BLOCKS doubles. */
void calib_undisturbed(const double *v, int n, double *scratch, struct calib_undisturbed *u);
/*
 * The robust hot time's 95 % interval into r->hot_robust_lo_ns/hi_ns (has_interval) from
 * the cells' samples, cell-major and in the order taken (samples[cell * reps + rep]), after
 * calib_finish_matrix().  Deterministic: the same samples give the same interval.
 * 0 or -ENOMEM.
 */
int calib_hot_interval(struct calib_result *r, const uint64_t *samples, int reps);

#endif

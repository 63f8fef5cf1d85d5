/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calibration model: everything one `migtrace calibrate` measured, in one struct, with
 * what its reports need to know of the host it ran on (the cache it was sized against, the
 * CPU clock, the LLC grouping, the kernel's value), captured by user/host/calibrate.c so
 * that the renderers need no host headers.  The calibration file (`calibrate --json`,
 * docs/calibration-file.md) is its serialisation; validate's inline calibration and
 * `run --calibration FILE` are held in the run model as one of these (run.h), and the run
 * file's calibration.measured shares the file's members and their spelling.
 */
#ifndef MIGTRACE_CALIB_H
#define MIGTRACE_CALIB_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "tunable_state.h"

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
 * uses them all.
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
 * a fast phase of a tenth of the run.  10 % is several standard deviations of the
 * undisturbed fills where it was measured (docs/design.md, "Measured figures behind the
 * constants"), and on a quiet host nearly every fill is within it, so that the figure is the
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

/* One ordered (src, dst) CPU pair.  All times in ns. */
struct calib_cell {
	int src_cpu, dst_cpu;		/* dirtied on src_cpu, refilled on dst_cpu */
	int distance;			/* scheduler-domain distance (2005 caches by it) */
	/* The 2004 method's fills after the move (zero with 2005, which times no cell). */
	double fill_median_ns;		/* median of all the fills, ns */
	double fill_mad_ns;		/* their median absolute deviation, ns */
	double fill_anchor_ns;		/* an undisturbed fill (CALIB_DISTURBED_PCT), ns */
	double fill_undisturbed_ns;	/* median of the undisturbed fills, ns */
	int fills_undisturbed;		/* how many of the reps fills were undisturbed */
	uint64_t fill_min_ns;		/* fastest fill, ns */
	uint64_t fill_max_ns;		/* slowest of the first CALIB_SEED_REPS fills, ns */
	uint64_t cost_ns;		/* the seed's cell: fill_max_ns x 6 (2004), or the
					 * distance's cost (2005), ns */
	uint64_t robust_ns;		/* fill_undisturbed_ns x 6 (2004); cost_ns (2005), ns */
};

/* One size step of the 2005 search, for the sweep log. */
struct calib_step {
	uint64_t size_bytes;
	int64_t cost_ns;		/* cross - self, per migration, ns (may be < 0: noise) */
	int64_t max_cost_ns;		/* running maximum, ns */
	int64_t avg_fluct_ns;		/* the kernel's fluctuation estimate, ns */
};

/* The 2005 search for one scheduler-domain distance (its index in calibration.dist). */
struct calib_distance {
	int cpu1, cpu2;			/* the pair measured; -1: none this far apart */
	uint64_t size_found_bytes;	/* working set where the cost peaked */
	int64_t max_cost_ns;		/* ns */
	uint64_t cost_ns;		/* 2 x max x factor / 128: this distance's hot time, ns */
	int nsteps;
	struct calib_step *steps;
};

/* One size of `calibrate --sweep-size`: the 2004 medians with the cache scaled. */
struct calib_size {
	double factor;			/* of the calibration's cache_bytes */
	uint64_t cache_bytes;		/* cache_bytes x factor, to a multiple of 64 */
	uint64_t buffer_bytes;
	double same_cpu_median_ns;	/* mean over the same-CPU cells of their medians, ns */
	bool has_cross;			/* two CPUs or more: cross-CPU cells were measured */
	double cross_cpu_median_ns;	/* the same over the cross-CPU cells, ns */
};

/* The LLC grouping of the calibrated CPUs, as the topology gave it (sysfs or CPUID). */
struct calib_llc {
	bool known;			/* every calibrated CPU's LLC sharing is known */
	char source[16];		/* "sysfs", "CPUID" or "sysfs+CPUID"; "" unknown */
	char why[200];			/* when !known: why */
	int ngroups;
	int group_of[MT_MAX_CPUS_USER];	/* by index into cpus; by first appearance */
};

/* The calibrated CPUs grouped by measured cost (2004, two CPUs or more). */
struct calib_groups {
	bool valid;			/* grouped: the 2004 method with two CPUs or more */
	int ngroups;
	int group_of[MT_MAX_CPUS_USER];	/* by index into cpus; by first appearance */
	double split_ratio;		/* max / min symmetrised cross cost; splits at 1.3 */
	bool compared;			/* the LLC grouping is known: agree means something */
	bool agree;			/* the same partition as the LLC grouping */
};

struct calibration {
	enum calib_method method;
	struct cpu_set_list cpus;	/* calibrated, in this order */
	int reps;			/* timed fills per pair (2004) or per size (2005) */
	int factor;			/* 2005 migration_factor in 1/128; 0 with 2004 */
	/* the cache the buffer was sized against */
	char cache_what[400];		/* as topology describes it */
	char cache_source[16];		/* "sysfs", "cpuid" or "--size" */
	uint64_t cache_bytes;
	int cache_cpu;			/* the CPU whose cache it is */
	int cache_level;		/* 0 with --size */
	char cache_type[16];		/* "Unified", "Data"; "" with --size */
	char cache_scope[32];		/* "per-core", "shared", …; "" with --size */
	uint32_t cache_cpuid_leaf;	/* the CPUID leaf that described it; 0: none */
	uint64_t buffer_bytes;		/* 2004: 5/3 x cache_bytes */
	/* the host */
	long cpu_mhz;			/* MHz; -1 when unknown (the seed printed it so) */
	struct tunable_state tunable;	/* the kernel's value when calibrated */
	struct calib_llc llc;
	/* the matrix and the hot time */
	struct calib_cell *cells;	/* cpus.n x cpus.n, row = src; NULL: none kept */
	bool has_hot;			/* false with one CPU: no cross cell */
	double hot_seed_ns;		/* the method's own rule: the min cross cost_ns, ns */
	double hot_robust_ns;		/* 2004: the min cross robust_ns; 2005: hot_seed_ns */
	/* 2004: the fills' statistics */
	bool has_interval;		/* with two CPUs or more */
	double hot_robust_lo_ns;	/* the robust hot time's 95 % block-bootstrap */
	double hot_robust_hi_ns;	/* interval, ns (whole ns) */
	double noise_pct;		/* median over cells of MAD / median, % */
	double disturbed_pct;		/* median over cells of the share disturbed, % */
	double max_over_median;		/* median over cells of max / median: outliers */
	int anchor_blocks;		/* the rule the robust figures were made by: */
	double anchor_quantile;		/* CALIB_BLOCKS and the others above, as they were */
	double anchor_block_quantile;
	int disturbed_above_anchor_pct;
	struct calib_groups groups;
	/* 2005 */
	int ndist;
	struct calib_distance *dist;	/* by distance */
	/* --sweep-size */
	int nsizes;
	struct calib_size *sizes;	/* NULL: not swept */
	double wall_s;			/* how long calibrating took, s */
};

/* The cells of an n-CPU matrix, zeroed, into c->cells (freeing any before).  0 or -ENOMEM. */
int calib_alloc_cells(struct calibration *c, int n);
/* Frees what c holds and zeroes it. */
void calib_free(struct calibration *c);
/*
 * Labels the n calibrated CPUs by the classes of the relation same(i, j, ctx) (indexes into
 * cpus, i < j), numbered by first appearance, into label[n]; returns how many classes.
 */
int calib_partition(int n, bool (*same)(int i, int j, const void *ctx), const void *ctx,
		    int *label);

#endif

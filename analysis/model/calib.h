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

#include "findings.h"
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

/*
 * The chase (docs/design.md, "The chase calibration"): what a migrated task pays, measured as
 * cachewalk's unit pays it.  A working set of cache lines linked in random cycles is walked
 * by dependent loads, each line written; it is warmed on the source CPU, D foreign bytes are
 * streamed through that CPU's caches in the scattered order of cachewalk's polluter, and the
 * set is walked once more, on the destination CPU (cross) or on the source (same).  The cost
 * is cross - same at equal D, a line.
 */
#define CHASE_NCHAINS 4			/* 1, 2, 4 and 8 chains: chase_chains[] */
#define CHASE_MAX_POINTS 16		/* displaced-bytes steps of one curve */
#define CHASE_MAX_WS 4			/* working sets of one chase */
#define CHASE_DEFAULT_ROUNDS 7		/* each round visits every trial once, shuffled */
/* D is swept in steps of 2 from CHASE_D_MIN_DIVISOR-th of the per-core cache... */
#define CHASE_D_MIN_DIVISOR 16
/* ... to 4 x the LLC, or to this bound, which keeps a round within a second on a host that
 * streams ~1 GB/s of scattered stores: an LLC that is unknown or beyond it is said so. */
#define CHASE_D_LLC_TIMES 4
#define CHASE_D_BOUND_BYTES (64ULL << 20)
/*
 * The cost at the largest D is a residual (what no displacement removes: the lines dirty in
 * the other CPU's private cache, its TLB) only when it is at most this share of the fitted
 * maximum; else the refill comes from beyond what the sweep displaced and the fall is read
 * against 0, as validate reads its curves (docs/design.md, "Displaced bytes").
 */
#define CHASE_RESIDUAL_SHARE 0.25
#define CHASE_BOOT_RESAMPLES 200	/* D*'s interval: a bootstrap over the rounds */
/* A trial the thread was switched out of (another task ran in the CPU's caches, or the timed
 * walk waited) is tried again, up to this many times in all; the last is kept. */
#define CHASE_TRIES 2

extern const int chase_chains[CHASE_NCHAINS];

/* One displacement of a curve; times a line of the working set, ns. */
struct chase_point {
	uint64_t displaced_bytes;	/* D: foreign bytes streamed through src's caches */
	double cross_ns;		/* the walk on dst: median over the rounds, ns a line */
	double same_ns;			/* the walk on src, ns a line */
	double cost_ns;			/* cross_ns - same_ns, ns a line */
	double fit_ns;			/* the monotone fit of cost_ns over D, ns a line */
};

/* The cost over D of one (pair, working set, chain count). */
struct chase_curve {
	int src_cpu, dst_cpu;		/* warmed and displaced on src, moved to dst */
	int distance;			/* scheduler-domain distance (topology_distance()) */
	uint64_t ws_bytes;		/* the working set, a multiple of 64 */
	int chains;			/* independent chains walked interleaved */
	double max_ns;			/* the fit at the smallest D: the refill cost, ns a line */
	bool has_residual;		/* the fit at the largest D is at most
					 * CHASE_RESIDUAL_SHARE of max_ns */
	double residual_ns;		/* then that fit, ns a line: D* falls toward it; NAN */
	enum corr_hot_state state;	/* D*: found, above range (beyond the sweep), no cost */
	double dstar_bytes;		/* where the fit has fallen 1 - CORR_COLD_FRACTION of
					 * the way from max_ns to the residual (or 0), bytes */
	bool has_interval;		/* with two rounds or more, when there is a cost */
	double dstar_lo_bytes;		/* 95 % bootstrap interval, bytes: 0 below the sweep, */
	double dstar_hi_bytes;		/* INFINITY beyond it; both NAN without one */
	int npoints;
	struct chase_point points[CHASE_MAX_POINTS];
};

struct calib_chase {
	int rounds;
	uint64_t l2_bytes;		/* the per-core cache D is swept from (cache_bytes) */
	uint64_t llc_bytes;		/* the LLC as the topology gives it; 0: none beyond */
	uint64_t polluter_bytes;	/* the displacing buffer: a power of two, 2 x max D */
	char sweep_why[400];		/* where the sweep ends and why: the LLC, or the bound */
	/* the rules the figures were made by, as they were (the constants above) */
	double cold_fraction;		/* CORR_COLD_FRACTION: D* is the fall to this */
	double residual_share;		/* CHASE_RESIDUAL_SHARE */
	int tries;			/* CHASE_TRIES */
	int trials;			/* one per (round, curve, point, arm) */
	int redone;			/* tries repeated after a switch */
	int switched;			/* trials kept though switched out CHASE_TRIES times */
	int ncurves;
	struct chase_curve *curves;	/* by pair, working set, then chains */
	double wall_s;			/* how long the chase took, s */
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
	struct calib_chase *chase;	/* the chase beside the method; NULL: not measured */
};

/* The cells of an n-CPU matrix, zeroed, into c->cells (freeing any before).  0 or -ENOMEM. */
int calib_alloc_cells(struct calibration *c, int n);
/* Frees what c holds and zeroes it. */
void calib_free(struct calibration *c);
/* An empty chase of ncurves curves into c->chase (freeing any before).  0 or -ENOMEM. */
int calib_alloc_chase(struct calibration *c, int ncurves);
/*
 * The rate of displacement the 2004 rule's x 6 assumes: cold after ten times the migration
 * cost is the cache (cache_bytes) displaced within the hot time, MB/s; 0 without a hot time.
 */
double calib_assumed_mbps(const struct calibration *c);
/*
 * Labels the n calibrated CPUs by the classes of the relation same(i, j, ctx) (indexes into
 * cpus, i < j), numbered by first appearance, into label[n]; returns how many classes.
 */
int calib_partition(int n, bool (*same)(int i, int j, const void *ctx), const void *ctx,
		    int *label);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Migration-cost calibration from user space: the 2004 boot-time method (max of N timed
 * fills of a 5/3-cache buffer after a migration, x6) and the 2005 variant merged in 2.6.16
 * (buffer-size sweep, cross-CPU minus same-CPU cost, max over sizes, x2 x factor).  What it
 * measures goes into the calibration model (calib.h), with what the reports need to know of
 * this host, captured here so that the renderers need no host headers.
 */
#ifndef MIGTRACE_CALIBRATE_H
#define MIGTRACE_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "calib.h"
#include "parse.h"

struct topology;
struct topo_choice;
struct tunable;

struct calib_opts {
	enum calib_method method;
	struct cpu_set_list cpus;
	uint64_t cache_size;	/* bytes: the cache the buffer is sized against */
	const struct topo_choice *cache;	/* where cache_size came from; NULL: not said */
	int reps;		/* timed repetitions per pair (2004) or per size (2005) */
	int factor;		/* 2005 migration_factor, in 1/128 (128 = x1) */
	bool progress;		/* progress on stderr */
	bool verbose;		/* each 2004 repetition's samples on stderr (-v) */
	const struct topology *topo;	/* for distances, the CPU clock, the LLCs; required */
	const struct tunable *kernel;	/* the kernel's value, kept beside; NULL: not kept */
	/* the chase beside the method (docs/design.md, "The chase calibration") */
	bool chase;
	int chase_rounds;		/* 0: CHASE_DEFAULT_ROUNDS */
	int chase_nws;			/* 0: the default working sets (calib_chase_plan()) */
	uint64_t chase_ws[CHASE_MAX_WS];	/* bytes */
	uint64_t chase_room_bytes;	/* what its buffers may take; 0: probed (mem_room.h) */
};

/*
 * The scattered fill of the 2004 seed: one store per step into four regions, so that the
 * access pattern is hard for the cache to predict and the whole buffer is dirtied.
 * size is in bytes.
 */
void calib_fill_2004(unsigned long *buf, uint64_t size, unsigned long value);

/*
 * What a calibration with o will be, before anything is measured: the method, CPUs, cache
 * and buffer, and the host (CPU clock, LLC grouping, the kernel's value).  Frees what c
 * held first.  0 or -EINVAL.
 */
int calib_prepare(const struct calib_opts *o, struct calibration *c);
/* Prepares c and runs the calibration into it.  0, or -errno with a message on stderr. */
int calibrate_run(const struct calib_opts *o, struct calibration *c);

/* --sweep-size: the 2004 medians at this many sizes, 1/4x .. 4x the cache. */
#define CALIB_SWEEP_NSIZES 9
/* Measures size i (in order from 0) into c->sizes[i]; c->nsizes follows.  0 or -errno. */
int calib_sweep_size(const struct calib_opts *o, struct calibration *c, int i);

/*
 * The pure parts, testable on made-up samples: fills cell statistics from samples[reps]
 * (2004: cost = max x 6), and the matrix-wide hot time, noise and grouping (c->reps fills a
 * cell).
 */
int calib_cell_from_samples(struct calib_cell *c, const uint64_t *samples, int reps);
void calib_finish_matrix(struct calibration *c);
/* 2005: each cross cell's cost from its distance's search (c->dist), and the hot time. */
void calib_finish_search(struct calibration *c);
/* The robust statistic of one cell's fills (see CALIB_DISTURBED_PCT). */
struct calib_undisturbed {
	double anchor_ns;	/* an undisturbed fill, ns */
	double median_ns;	/* median of the undisturbed fills, ns */
	int fills;		/* how many were undisturbed (>= 1 when there are fills) */
};

/* From v[0..n), fills in ns in the order taken; scratch holds n + CALIB_BLOCKS doubles. */
void calib_undisturbed(const double *v, int n, double *scratch, struct calib_undisturbed *u);
/*
 * The robust hot time's 95 % interval into c->hot_robust_lo_ns/hi_ns (has_interval) from
 * the cells' samples, cell-major and in the order taken (samples[cell * reps + rep]), after
 * calib_finish_matrix().  Deterministic: the same samples give the same interval.
 * 0 or -ENOMEM.
 */
int calib_hot_interval(struct calibration *c, const uint64_t *samples, int reps);

/*
 * The chase's plan into c->chase (calib_prepare() calls it when o->chase): one pair of CPUs
 * per scheduler-domain distance (the first in c's matrix, as 2005 measured), the working
 * sets (o->chase_ws, or a quarter of the per-core cache and twice it), the
 * displacements from a sixteenth of that cache in steps of 2 to 4 x the LLC or the bound
 * (CHASE_D_BOUND_BYTES, less where memory is short), and why the sweep ends there.  0 or
 * -ENOMEM.
 */
int calib_chase_plan(const struct calib_opts *o, struct calibration *c);
/* Measures the planned chase into c->chase.  0, or -errno with a message on stderr. */
int calib_chase_run(const struct calib_opts *o, struct calibration *c);
/*
 * The pure part, testable on made-up samples: each curve's medians over the rounds, its cost,
 * the monotone fit, its maximum, the residual and D*, and D*'s interval by a bootstrap over
 * the rounds (deterministic).  samples[CHASE_SAMPLE(ch, round, curve, point, arm)] in ns a
 * line, arm 0 the walk on dst, 1 on src.  0 or -ENOMEM.
 */
#define CHASE_SAMPLE(ch, r, cv, p, arm) \
	((((size_t)(r) * (size_t)(ch)->ncurves + (size_t)(cv)) * CHASE_MAX_POINTS + (size_t)(p)) \
	 * 2 + (size_t)(arm))
int calib_chase_finish(struct calib_chase *ch, const double *samples, int rounds);

/* The LLC grouping of c's CPUs from the topology, into c->llc. */
void calib_note_llc(struct calibration *c, const struct topology *t);
/* c's CPUs grouped by measured (robust) cost and compared with c->llc, into c->groups. */
void calib_group(struct calibration *c);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The footprint curve and the polluter's size (docs/design.md, "The polluter's size").  A
 * migration refills from the cache level the two CPUs do not share: the private L2 when
 * they share the LLC, A's whole LLC when they do not (two vCPUs the host placed apart).  The
 * polluter must span that level, or "stay" never gets as cold as "migrate".  The sizes
 * sysfs and CPUID give are hints only (this project's EPYC VM's CPUID says an L3 of 508 MiB
 * private to each vCPU), so validate measures them: the latency a line of a pointer chase
 * over footprints from 16 KiB up, on A, and on B after A warmed the same footprint.  The
 * steps of A's curve are the levels; B's latency clearly above A's on a level's plateau says
 * the pair does not share it.  Plain numbers: user/host measures the curve, the judge
 * (footprint_levels.c, polluter_size.c) reads it, the renderer words it.
 */
#ifndef MIGTRACE_FOOTPRINT_H
#define MIGTRACE_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>

#define FP_MAX_POINTS 16		/* 16 KiB doubling to 512 MiB at most */
#define FP_MAX_LEVELS 8
#define FP_MAX_HINTS 8
#define FP_MIN_BYTES (16ULL << 10)	/* the first footprint: within any L1 */
/*
 * The last footprint: 4 x the largest cache sysfs or CPUID lists when that is within this
 * bound, else the bound, which a 2-vCPU VM walks in about a second (64 MiB at ~110 ns a
 * line from memory, twice, over the repetitions); less when memory is short, or when the
 * time budget runs out first.
 */
#define FP_BOUND_BYTES (64ULL << 20)
#define FP_HINT_TIMES 4
#define FP_BUDGET_S 1.5			/* the whole curve, both CPUs, s */
#define FP_REPS 3			/* trials a footprint; its latencies are the medians */
/* The latency a line from memory the budget plans the next footprint with, at least: a step
 * to memory makes a footprint cost 5x the one before, not 2x (~110 ns a line here). */
#define FP_PLAN_LINE_NS 150
/*
 * A level is a step of A's latency a line: a run of consecutive doublings of the footprint,
 * each rising by FP_RISE_OCTAVE at least, that rises by FP_STEP_FACTOR in all.  Within a
 * level's plateau a doubling rises by a few % (conflict misses, the next page table level);
 * across a step, 2x to 10x (L1 to L2 about 3x, an LLC to memory about 5x here).
 */
#define FP_RISE_OCTAVE 1.2
#define FP_STEP_FACTOR 1.6
/*
 * B's latency a line over A's, the median over a level's plateau, past which the pair does
 * not share the level: a level B shares serves it as fast as A (within the few % that the
 * lines still dirty in A's private caches add), one it does not costs B a trip to A's
 * caches or to memory, 3x and more.
 */
#define FP_UNSHARED_FACTOR 1.5
/*
 * The polluter spans FP_POLLUTER_TIMES x the level it must empty, and never less than 4 MiB,
 * the fixed size it had before it was measured: with 2 x a 512 KiB L2, 1 MiB, the fastest
 * rate displaced the whole buffer in every trial (no range of D at that rate), and 3 of 4
 * validate runs on this project's EPYC VM found D* "above 1 MiB, the largest measured" (the
 * host had moved the vCPUs apart between the curve and step 2: the chase of the same run put
 * its D* at 58 MiB).  A larger level B does not share still makes it larger.
 */
#define FP_POLLUTER_TIMES 2
#define FP_POLLUTER_MIN_BYTES (4ULL << 20)

/* One footprint: the latency a line of the timed walk, median over the trials, ns. */
struct fp_point {
	uint64_t footprint_bytes;	/* the set walked, a power of two */
	double a_ns;			/* on A, A having walked the set: ns a line */
	double b_after_a_ns;		/* on B, just moved there after A walked it: ns a line */
};

/* One step of A's curve: a cache level, as measured. */
struct fp_level {
	uint64_t capacity_bytes;	/* where A's latency crosses the middle of the step
					 * (geometric), on log(footprint), to a power of two */
	double below_ns;		/* A's latency on the plateau below the step, ns a line */
	double above_ns;		/* A's latency past the step, ns a line */
	double b_over_a;		/* B's latency over A's, median over the plateau below */
	bool shared;			/* b_over_a < FP_UNSHARED_FACTOR: B is served as fast */
	int hint;			/* the hint it matches (index into hints); -1: none */
};

/* A cache sysfs or CPUID lists for A, and what the curve says of it. */
enum fp_hint_state {
	FP_HINT_SEEN,			/* a level within a factor 2 of its size */
	FP_HINT_NOT_SEEN,		/* none, though the curve reaches 2 x its size */
	FP_HINT_BEYOND,			/* the curve stops short of 2 x its size, or has a
					 * latency missing */
};
#define FP_HINT_NSTATES 3

struct fp_hint {
	int level;			/* 1, 2, 3 */
	char type[16];			/* "Data", "Unified" */
	uint64_t size_bytes;
	char source[16];		/* "sysfs", "CPUID" */
	enum fp_hint_state state;
	int matched;			/* the level (index into levels) of its size; -1 */
};

/* Where the polluter's buffer came from. */
enum fp_polluter_source {
	FP_POLLUTER_MEASURED,		/* 2 x the largest level B does not share */
	FP_POLLUTER_ALL_SHARED,		/* every level measured is shared: 2 x the per-core
					 * cache the calibration is sized against */
	FP_POLLUTER_UNREAD,		/* the curve has no step (or was not measured): the
					 * same fallback */
	FP_POLLUTER_GIVEN,		/* --polluter-size */
};
#define FP_POLLUTER_NSOURCES 4

struct footprint {
	int cpu_a, cpu_b;
	int reps;			/* trials a footprint (FP_REPS) */
	uint64_t timed_lines;		/* lines a timed walk reads at least */
	uint64_t bound_bytes;		/* the largest footprint planned */
	char bound_why[400];		/* why the curve ends there */
	int trials_switched;		/* trials kept though the thread was switched out */
	int points_remeasured;		/* points measured again: A's latency above the next's */
	double wall_s;			/* how long the curve took, s */
	int npoints;
	struct fp_point points[FP_MAX_POINTS];
	bool readable;			/* at least one step found */
	int nlevels;
	struct fp_level levels[FP_MAX_LEVELS];
	int nhints;
	struct fp_hint hints[FP_MAX_HINTS];
	/* the polluter's buffer validate used, and why */
	enum fp_polluter_source polluter_source;
	uint64_t polluter_bytes;	/* a power of two */
	uint64_t sized_bytes;		/* what the levels make it, before the memory cap and
					 * --polluter-size */
	int polluter_level;		/* the level it spans (index into levels); -1: none */
	uint64_t private_bytes;		/* the fallback's per-core cache, bytes */
	char capped_why[400];		/* why it is less than sized_bytes: memory is short; "" */
};

#endif

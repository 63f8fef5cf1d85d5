/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run --probe-moves: the mover (docs/design.md, "Probed moves").  A thread of migtrace that,
 * at Poisson moments, draws a sleeping thread of the traced workload and by a coin flip moves
 * it (its mask narrowed to another CPU of it until it has run there, then given back) or
 * leaves it (a sham), noting each moment.  Every narrowed mask is told to a guard process
 * first (mask_guard.h), which gives it back if migtrace dies holding it.  User space only.
 */
#ifndef MIGTRACE_PROBE_MOVES_H
#define MIGTRACE_PROBE_MOVES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "run.h"

struct tracer;
struct probe_mover;

struct probe_mover_opts {
	struct probe_setup *setup;	/* rate, share, seed, by_runs in; the counts out */
	pid_t root;			/* the workload's first process: it and its
					 * descendants are drawn from */
	/* the CPUs the workload may use: a thread whose mask differs was narrowed by the
	 * workload itself and is never touched */
	const struct cpu_set_list *cpus;
	struct tracer *tr;		/* by_runs: arms the drawn thread's next run */
};

/*
 * Starts the guard (before any thread of migtrace) and prepares the mover; nothing moves
 * before probe_mover_go().  NULL with the reason on stderr.
 */
struct probe_mover *probe_mover_new(const struct probe_mover_opts *o);
/*
 * A run with units: unit u was recorded (called from the record stream, any thread).  Only
 * threads that ran one since the last listing are drawn: a thread that never runs the unit
 * function (a server's housekeeping) would give its moments no unit to measure.  When u is
 * the first unit of its thread to start after a moment, true, and *probed is u as a probed
 * unit (tag the moment's kind, nominal_age_ns its time): matched as the units come, so that
 * --max-records, which keeps the first units only, loses none of them.  NULL-safe.
 */
bool probe_mover_unit(struct probe_mover *pm, const struct mt_unit *u, struct mt_unit *probed);
/* Starts drawing.  0, or -errno with the reason on stderr. */
int probe_mover_go(struct probe_mover *pm);
/*
 * Stops drawing, gives back the mask it holds, takes back the arms still pending, moves the
 * moments into r and dismisses the guard.  NULL-safe; frees pm.
 */
int probe_mover_finish(struct probe_mover *pm, struct run *r);

#endif

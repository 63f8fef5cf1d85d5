/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture: the workload and the tracer, from launch to the last counter read, into the run
 * model.  An opaque object with capture__verb() calls, in the order a run makes them:
 * open (the workload forked and held at its barrier, the programs loaded and attached),
 * run (released, traced until it ends, --duration, or a signal; then stopped, counted and
 * costed), free.  It prints nothing but progress and warnings, on stderr: what a run shows
 * is the renderers' job.  User space only.
 */
#ifndef MIGTRACE_CAPTURE_H
#define MIGTRACE_CAPTURE_H

#include "run.h"
#include "run_config.h"

struct capture;

/*
 * Everything up to the start: the workload launched and held (or -p's process found), the
 * tracer loaded, tracking it, attached, with its units.  NULL on failure, with the exit
 * status in *status and the reason on stderr.  cfg must be resolved (run_config_resolve).
 */
struct capture *capture__open(const struct run_config *cfg, struct run *r, int *status);
/*
 * Releases the workload and traces it to its end; then detaches, drains, and reads the
 * counters, the CPU pairs and the cost into the run.  0, or the exit status on failure
 * (127: the workload could not be executed; 1: the tracer failed).
 */
int capture__run(struct capture *cap);
/* The status migtrace exits with after a captured run: the workload's, or 0 (-p or
 * --duration: the run ended as asked). */
int capture__exit_status(const struct capture *cap);
/* The first signal migtrace received while tracing (it was passed on to the workload),
 * or 0: a sweep stops and exits 128 + it. */
int capture__signal(const struct capture *cap);
/* Ends whatever is still running (an error path) and frees.  NULL-safe. */
void capture__free(struct capture *cap);

#endif

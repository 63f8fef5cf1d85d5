/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live ftrace backend of `migtrace run`: a private tracefs instance records the sched
 * events, its per-CPU raw buffers are read every poll, decoded with libtraceevent and
 * replayed in timestamp order (sched_replay.h) into what the BPF programs count in the
 * kernel.  Used through struct tracer (tracer.h) when the backend is ftrace.
 */
#ifndef MIGTRACE_FTRACE_TRACER_H
#define MIGTRACE_FTRACE_TRACER_H

#include <stdbool.h>
#include <stdint.h>

#include "migtrace.h"

struct tracer_opts;
struct ftrace_tracer;
struct run_backend;

/* Whether this machine could record with ftrace: 0, or -errno with why (one line, saying
 * what to do) in why[len].  Mounts tracefs when it is not mounted and we may. */
int ftrace_tracer_check(char *why, size_t len);
/* Creates the instances (and their guard), sets the clock, buffers and events.  0 or -errno
 * with the failing step on stderr. */
int ftrace_tracer_load(struct ftrace_tracer **out, const struct tracer_opts *o, int nr_cpus);
int ftrace_tracer_track(struct ftrace_tracer *ft, uint32_t tgid, bool from_exec);
/* --unit: every call of function in binary is a unit (uprobe + uretprobe events in the
 * filtered instance), joined with the replayed moves and off-CPU periods.  Call after
 * ftrace_tracer_attach.  0 or -errno. */
int ftrace_tracer_attach_unit(struct ftrace_tracer *ft, const char *binary,
			      const char *function);
/* Opens the per-CPU buffers and turns tracing on.  0 or -errno. */
int ftrace_tracer_attach(struct ftrace_tracer *ft);
/* Sleeps up to timeout_ms, then reads and replays what is old enough (the reorder window).
 * The number of events read, -EINTR on a signal, or -errno. */
int ftrace_tracer_poll(struct ftrace_tracer *ft, int timeout_ms);
/* Turns tracing off, reads and replays everything left.  0 or -errno. */
int ftrace_tracer_stop(struct ftrace_tracer *ft);
/* The replay's counters and histograms (the rings' lost events: ftrace_tracer_describe). */
int ftrace_tracer_read_counts(const struct ftrace_tracer *ft, struct mt_stats *stats,
			      struct mt_hists *hists);
int ftrace_tracer_read_pairs(const struct ftrace_tracer *ft, uint64_t *pairs);
/* Events the rings lost so far (per_cpu/cpuN/stats: overrun + dropped events). */
uint64_t ftrace_tracer_lost(const struct ftrace_tracer *ft);
/* What the replay could not read or tell, into the run's meta.backend (name and why are the
 * caller's): the events replayed, dropped, lost, the kernel's sched events it lacks. */
void ftrace_tracer_describe(const struct ftrace_tracer *ft, struct run_backend *b);
/* Removes the instances and dismisses their guard.  NULL is a no-op. */
void ftrace_tracer_destroy(struct ftrace_tracer *ft);

#endif

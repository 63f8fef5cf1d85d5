/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a tracer backend provides: one const table of operations, as perf's struct
 * trace_sched_handler (tools/perf/builtin-sched.c) gives each of its views.  tracer.c is the
 * facade: tracer_load() picks a table (--backend, or auto), sets tr->backend_ops and calls
 * through it for every other step; the backend keeps its own state in tr->backend_state.
 * bpf_tracer.c records with the BPF programs, ftrace_tracer.c replays a tracefs instance's
 * sched events in user space.  Private to user/capture: the CLI and the tests use tracer.h.
 */
#ifndef MIGTRACE_TRACER_BACKEND_H
#define MIGTRACE_TRACER_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "migtrace.h"
#include "tracer.h"

struct run_backend;

struct tracer_backend {
	uint8_t id;			/* enum tracer_backend_id: BPF or FTRACE */
	/*
	 * Called with tr's callbacks and nr_cpus set and tr->backend_state NULL: sets up the
	 * backend's state there (left for destroy even on failure).  0 or -errno, with the
	 * failing step on stderr unless o->quiet_load.
	 */
	int (*load)(struct tracer *tr, const struct tracer_opts *o);
	/* The semantics of tracer_track, tracer_attach, tracer_attach_unit, tracer_poll,
	 * tracer_stop, tracer_read_counts and tracer_read_pairs (tracer.h). */
	int (*track)(struct tracer *tr, uint32_t tgid, bool from_exec);
	int (*attach)(struct tracer *tr);
	int (*attach_unit)(struct tracer *tr, const char *binary, const char *function);
	int (*poll)(struct tracer *tr, int timeout_ms);
	int (*stop)(struct tracer *tr);
	int (*read_counts)(const struct tracer *tr, struct mt_stats *stats,
			   struct mt_hists *hists);
	int (*read_pairs)(const struct tracer *tr, uint64_t *pairs);
	/* NULL: the backend runs no programs of its own to report (tracer_prog_stats: 0) */
	int (*prog_stats)(const struct tracer *tr, struct tracer_prog_stat *out, int max);
	/* tracer_scope_cgroup (tracer.h); NULL: the backend has no --cgroup */
	int (*scope_cgroup)(struct tracer *tr, uint64_t cgroup_id);
	/* tracer_probe_arm (tracer.h); NULL: the backend records no probed runs */
	int (*probe_arm)(struct tracer *tr, uint32_t tid, uint64_t moment_ns, uint32_t kind);
	/* tracer_probe_armed (tracer.h); NULL with probe_arm */
	int (*probe_armed)(struct tracer *tr, uint32_t tid);
	/* What the backend adds to meta.backend past the name and why; NULL: nothing. */
	void (*describe)(const struct tracer *tr, struct run_backend *b);
	/* Frees tr->backend_state, however far load got; NULL state is a no-op. */
	void (*destroy)(struct tracer *tr);
};

extern const struct tracer_backend bpf_tracer_backend;		/* bpf_tracer.c */
extern const struct tracer_backend ftrace_tracer_backend;	/* ftrace_tracer.c */

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing side of `migtrace run`: load, tracked tgids, attach, draining, counters.
 * Two backends behind one interface, each a table of operations (tracer_backend.h): the BPF
 * programs (bpf_tracer.c), or the sched events of a tracefs instance replayed in user space
 * (ftrace_tracer.c), for kernels or policies without BPF.  tracer.c chooses one.
 */
#ifndef MIGTRACE_TRACER_H
#define MIGTRACE_TRACER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "migtrace.h"

struct run_topo;
struct run_backend;
struct tracer_backend;

/* --backend: which records the run; auto takes BPF where its programs load, else ftrace */
enum tracer_backend_id {
	TRACER_BACKEND_AUTO = 0,
	TRACER_BACKEND_BPF,
	TRACER_BACKEND_FTRACE,
};

/* Called for every record drained from the ring buffer, in ring-buffer order. */
typedef int (*tracer_migrate_fn)(void *ctx, const struct mt_migrate *rec);
typedef int (*tracer_unit_fn)(void *ctx, const struct mt_unit *rec);
typedef int (*tracer_offcpu_fn)(void *ctx, const struct mt_offcpu *rec);
typedef int (*tracer_switch_fn)(void *ctx, const struct mt_switch *rec);
typedef int (*tracer_waking_fn)(void *ctx, const struct mt_waking *rec);

struct tracer_opts {
	int64_t hot_ns;			/* threshold task_hot() is judged at, ns */
	uint64_t ringbuf_bytes;		/* power of two, >= page size */
	/* per CPU, the ids of the topology level of a move (struct run_topo); NULL: none (every
	 * move's level is then unknown) */
	const struct run_topo *topo;
	tracer_migrate_fn on_migrate;
	tracer_unit_fn on_unit;
	/* set: traced threads' off-CPU periods are sent too, for self-timed units */
	tracer_offcpu_fn on_offcpu;
	/* set: switches with a traced task on a side, and the traced tasks' wakings, are sent
	 * (run --perfetto); on_waking goes with on_switch */
	tracer_switch_fn on_switch;
	tracer_waking_fn on_waking;
	/* set: --probe-moves of a program without units: the runs of the threads armed with
	 * tracer_probe_arm() are sent (MT_REC_PROBE_UNIT) */
	tracer_unit_fn on_probe_unit;
	void *ctx;
	bool unit_probes;		/* tracer_attach_unit() will be called */
	bool quiet_load;		/* the caller reports a refused load itself (doctor) */
	/* which tasks: enum mt_scope (0: the tgids given to tracer_track); --cgroup's root */
	uint8_t scope;
	uint64_t cgroup_id;
	/* no ring-buffer record per migration: in-kernel aggregates only (on_migrate unused) */
	bool no_records;
	uint8_t backend;		/* enum tracer_backend_id */
	/* ftrace: the raw capture kept as a trace-cmd file here at the stop (trace_keep.h) */
	const char *keep_trace;
};

/* Zeroed ({ 0 }) before use: tracer_destroy is then safe whether tracer_load ran or not. */
struct tracer {
	int nr_cpus;			/* possible CPUs: the pair matrix is nr_cpus^2 */
	tracer_migrate_fn on_migrate;
	tracer_unit_fn on_unit;
	tracer_offcpu_fn on_offcpu;
	tracer_switch_fn on_switch;
	tracer_waking_fn on_waking;
	tracer_unit_fn on_probe_unit;
	void *ctx;
	/* BPF: the wake-up latency comes from the kernel's enqueue stamp, and the sched_wakeup
	 * program is left unattached (bpf_tracer.c decides: wakeup_from_queued) */
	bool wakeup_from_queued;
	/* the backend tracer_load took (TRACER_BACKEND_BPF or _FTRACE) and why, for the run */
	uint8_t backend;
	char backend_why[192];
	/* its operations, and its own state (struct bpf_tracer, struct ftrace_tracer) */
	const struct tracer_backend *backend_ops;
	void *backend_state;
};

/* "bpf", "ftrace" or "auto". */
const char *tracer_backend_name(int backend);
/* --backend's argument: enum tracer_backend_id, or -1 for none of the three names. */
int tracer_backend_parse(const char *name);
/* The run's meta.backend: which backend and why; with ftrace, what its replay could not read
 * or tell so far (call again after tracer_stop for the final figures). */
void tracer_describe(const struct tracer *tr, struct run_backend *b);

/* open -> rodata and map sizes -> load (BPF), or the tracefs instances (ftrace); auto tries
 * BPF first.  0 or -errno, with the failing step on stderr. */
int tracer_load(struct tracer *tr, const struct tracer_opts *o);
/* Traces every task of tgid (its threads and the children they fork); from_exec: only
 * from the process's next execve (a workload held at the launch barrier). */
int tracer_track(struct tracer *tr, uint32_t tgid, bool from_exec);
/* attach -> ring buffer.  0 or -errno. */
int tracer_attach(struct tracer *tr);
/* Times every call of FUNCTION in BINARY as a unit (uprobe + uretprobe, every process; the
 * traced-task filter applies).  Call after tracer_attach().  0 or -errno. */
int tracer_attach_unit(struct tracer *tr, const char *binary, const char *function);
/* Waits up to timeout_ms for records, then drains what is there.  Returns the number of
 * records handled, 0 on timeout, -EINTR on a signal (a clean end), or -errno. */
int tracer_poll(struct tracer *tr, int timeout_ms);
/* Detaches the programs (so nothing more is counted) and drains what is left. */
int tracer_stop(struct tracer *tr);
/* --cgroup: the subtree is now the cgroup of this id (its path's directory created again).
 * 0, or -EOPNOTSUPP for a backend without --cgroup. */
int tracer_scope_cgroup(struct tracer *tr, uint64_t cgroup_id);
/*
 * --probe-moves: arms thread tid, drawn by a probe moment at moment_ns (CLOCK_MONOTONIC), so
 * that its next run from a switch-in to a block is sent to on_probe_unit, tagged kind (enum
 * mt_probe_kind); kind 0 takes an arm back.  Thread-safe.  0, -ENOENT (kind 0: not armed),
 * or -EOPNOTSUPP: the backend records no such runs (the ftrace backend).
 */
int tracer_probe_arm(struct tracer *tr, uint32_t tid, uint64_t moment_ns, uint32_t kind);
/* Whether thread tid is still armed (its run not sent yet): 1, 0, or -errno. */
int tracer_probe_armed(struct tracer *tr, uint32_t tid);
/* Sums the per-CPU counters and histograms.  0 or -errno. */
int tracer_read_counts(const struct tracer *tr, struct mt_stats *stats, struct mt_hists *hists);
struct tracer_prog_stat {
	const char *name;		/* the program's name, e.g. "mt_switch" */
	unsigned long long run_cnt;	/* counted while kernel.bpf_stats_enabled is on */
	unsigned long long run_time_ns;
	unsigned long long recursion_misses;	/* runs the kernel skipped (nested) */
};
/* Fills out[] with up to max programs of the object.  Returns how many, or -errno. */
int tracer_prog_stats(const struct tracer *tr, struct tracer_prog_stat *out, int max);
/* The src x dst counts of every migration into pairs[nr_cpus * nr_cpus]: those the records
 * read carried, and those the kernel counted for records it could not send. */
int tracer_read_pairs(const struct tracer *tr, uint64_t *pairs);
void tracer_destroy(struct tracer *tr);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF side of `migtrace run`: skeleton lifecycle, tracked tgids, draining, counters. */
#ifndef MIGTRACE_TRACER_H
#define MIGTRACE_TRACER_H
#ifdef __KERNEL__
#error "user/tracer.h is for user space"
#endif

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "migtrace.h"

struct migtrace_bpf;
struct ring_buffer;

/* Called for every record drained from the ring buffer, in order. */
typedef int (*tracer_record_fn)(void *ctx, const struct mt_migrate *rec);

struct tracer_opts {
	int64_t hot_ns;			/* threshold task_hot() is judged at, ns */
	uint64_t ringbuf_bytes;		/* power of two, >= page size */
	const int16_t *cpu_node;	/* per CPU, nr_cpus entries, may be NULL */
	tracer_record_fn on_record;
	void *ctx;
};

struct tracer {
	struct migtrace_bpf *skel;
	struct ring_buffer *rb;
	int nr_cpus;			/* possible CPUs: the pair matrix is nr_cpus^2 */
	tracer_record_fn on_record;
	void *ctx;
};

/* open -> rodata and map sizes -> load.  0 or -errno, with the failing step on stderr. */
int tracer_load(struct tracer *tr, const struct tracer_opts *o);
/* Traces every task of tgid (its threads and the children they fork); from_exec: only
 * from the process's next execve (a workload held at the launch barrier). */
int tracer_track(struct tracer *tr, uint32_t tgid, bool from_exec);
/* attach -> ring buffer.  0 or -errno. */
int tracer_attach(struct tracer *tr);
/* Waits up to timeout_ms for records, then drains what is there.  Returns the number of
 * records handled, 0 on timeout, -EINTR on a signal (a clean end), or -errno. */
int tracer_poll(struct tracer *tr, int timeout_ms);
/* Detaches the programs (so nothing more is counted) and drains what is left. */
int tracer_stop(struct tracer *tr);
const struct mt_stats *tracer_stats(const struct tracer *tr);
const struct mt_hists *tracer_hists(const struct tracer *tr);
/* Copies the src x dst counts into pairs[nr_cpus * nr_cpus]. */
int tracer_read_pairs(const struct tracer *tr, uint64_t *pairs);
void tracer_destroy(struct tracer *tr);

#endif

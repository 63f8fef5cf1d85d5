/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The join of self-timed units with the tracer's records (docs/design.md, "The method").
 *
 * A built-in workload times its units itself and logs them (workloads/unit_log.h); the BPF
 * side sends, per traced thread, its migrations and its off-CPU periods.  Per thread, by
 * time, each unit gets what the probe-timed path computes in the kernel (struct mt_unit):
 * the migrations and switch-outs since the thread's previous unit and inside this one, the
 * last off-CPU period before it, and the last migration before its end.  A unit is joined
 * once the tracer's records up to its end have been read (the watermark); the records a
 * thread no longer needs are folded into a summary, so memory stays bounded by the units and
 * records in flight, not by the run's length.
 */
#ifndef MIGTRACE_UNIT_JOIN_H
#define MIGTRACE_UNIT_JOIN_H

#include <linux/types.h>
#include <stdint.h>

#include "migtrace.h"
#include "unit_log.h"

/* One unit as the workload logged it. */
struct uj_unit {
	uint32_t tid;
	uint16_t cpu_start, cpu_end;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	uint64_t tag;			/* enum mt_unit_tag */
	struct mt_unit_trial trial;	/* the controlled experiment's, else zero */
};

typedef int (*uj_emit_fn)(void *ctx, const struct mt_unit *u);

struct unit_join;

/* tgid: the process the units belong to, for threads the tracer has sent nothing about. */
struct unit_join *unit_join_new(uint32_t tgid, uj_emit_fn emit, void *ctx);
void unit_join_free(struct unit_join *uj);
/* The tracer's records, in any order within a thread (they are sorted by time here).
 * 0 or -ENOMEM. */
int unit_join_migration(struct unit_join *uj, const struct mt_migrate *m);
int unit_join_offcpu(struct unit_join *uj, const struct mt_offcpu *o);
/* A logged unit; a thread's units come in the order it ran them.  0 or -ENOMEM. */
int unit_join_unit(struct unit_join *uj, const struct uj_unit *u);
/*
 * Joins every pending unit that ended before watermark_ns, when all records up to then have
 * been given, and emits it.  The last call, once tracing has stopped, passes UINT64_MAX.
 * Returns the emitter's first error, or 0.
 */
int unit_join_flush(struct unit_join *uj, uint64_t watermark_ns);
/* Units that could not be joined exactly (they began before records already folded away). */
uint64_t unit_join_unjoinable(const struct unit_join *uj);

#endif

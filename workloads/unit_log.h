/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit log: how a built-in workload hands its timed units to migtrace without a trap per
 * unit (docs/design.md, "The method").  migtrace creates a memory file, maps it, and passes
 * it to the workload as an inherited descriptor named by MT_UNIT_LOG_ENV; the workload times
 * each unit itself with CLOCK_MONOTONIC (the clock of bpf_ktime_get_ns(), which stamps the
 * migration and switch records) and appends it here: a compare-and-swap and 48 bytes of
 * stores, tens of ns, where a uprobe + uretprobe pair costs µs.  migtrace drains the log on
 * its poll timer and joins each unit with the thread's switches and migrations by time
 * (user/capture/unit_join.h).
 *
 * A ring of slots, many producers (the workload's threads), one consumer.  A producer claims
 * slot `head` by compare-and-swap while the ring has room, fills it, and publishes it by
 * storing its sequence number (position + 1) with release order; the consumer reads slots in
 * order while each one's sequence matches and then advances `tail`.  A full ring drops the
 * unit and counts it, so the workload never waits on migtrace.  A producer killed between
 * its claim and its publish leaves a slot that is never published: the consumer skips it at
 * the end and counts it as torn.
 *
 * The round gate (docs/design.md, "Sampling until it decides"): a controlled experiment run
 * by `validate --budget` stops after the round migtrace allows, until migtrace has judged
 * the units so far and either allows more rounds or tells it to end.  migtrace sets
 * rounds_allowed before releasing the workload (0: no gate, every round of --samples runs);
 * the workload stores rounds_done after each round and, when it reaches rounds_allowed,
 * waits until rounds_allowed grows or gate_end is set.  The workload only waits there, never
 * inside a round, so a look never splits a round's shuffled cells.
 *
 * Header-only: the producer side is compiled into the workloads, the layout into migtrace.
 */
#ifndef MIGTRACE_UNIT_LOG_H
#define MIGTRACE_UNIT_LOG_H

#include <stdint.h>

#define MT_UNIT_LOG_ENV "MIGTRACE_UNIT_LOG_FD"
#define MT_UNIT_LOG_MAGIC 0x6d74756eU	/* "mtun" */
#define MT_UNIT_LOG_VERSION 3

/* One unit as the workload timed it. */
struct mt_unit_slot {
	uint64_t seq;			/* position + 1 once published; written last */
	uint32_t tid;
	uint16_t cpu_start;		/* sched_getcpu() at the start */
	uint16_t cpu_end;		/* ... and at the end */
	uint64_t start_ns;		/* CLOCK_MONOTONIC */
	uint64_t end_ns;		/* CLOCK_MONOTONIC */
	uint64_t tag;			/* enum mt_unit_tag */
	uint64_t nominal_age_ns;	/* the age the controlled experiment aimed at */
	/* the controlled experiment's trial this unit ends (0 for every other unit) */
	uint64_t streamed_bytes;	/* bytes the polluter on A streamed while away */
	uint32_t round;			/* the sample round of the shuffled schedule */
	uint32_t rate_mbps;		/* the polluter's target, MB/s; 0: as fast as it can */
};

struct mt_unit_log {
	uint32_t magic;			/* MT_UNIT_LOG_MAGIC */
	uint32_t version;		/* MT_UNIT_LOG_VERSION */
	uint32_t nslots;		/* a power of two */
	uint32_t slot_bytes;		/* sizeof(struct mt_unit_slot) */
	uint64_t head __attribute__((aligned(64)));	/* next position to claim */
	uint64_t dropped;		/* units not logged: the ring was full */
	uint64_t tail __attribute__((aligned(64)));	/* consumer: next position to read */
	/* the round gate: written by migtrace (allowed, end) and by the workload (done) */
	uint32_t rounds_allowed __attribute__((aligned(64)));	/* 0: no gate */
	uint32_t gate_end;		/* 1: end after rounds_done, allow no more */
	uint32_t rounds_done;		/* rounds of the schedule finished */
	struct mt_unit_slot slots[] __attribute__((aligned(64)));
};

static inline uint64_t mt_unit_log_bytes(uint32_t nslots)
{
	return sizeof(struct mt_unit_log) + (uint64_t)nslots * sizeof(struct mt_unit_slot);
}

/* What the controlled experiment knows of the trial a unit ends; zero for other units. */
struct mt_unit_trial {
	uint64_t nominal_age_ns;	/* the age aimed at */
	uint64_t streamed_bytes;	/* bytes the polluter on A streamed while away */
	uint32_t round;			/* sample round */
	uint32_t rate_mbps;		/* the polluter's target, MB/s; 0: as fast as it can */
};

/* The producer: append one unit, or count it as dropped when the ring is full. */
static inline void mt_unit_log_put(struct mt_unit_log *log, uint32_t tid, uint16_t cpu_start,
				   uint16_t cpu_end, uint64_t start_ns, uint64_t end_ns,
				   uint64_t tag, const struct mt_unit_trial *trial)
{
	uint64_t pos = __atomic_load_n(&log->head, __ATOMIC_RELAXED);
	struct mt_unit_slot *s;

	do {
		if (pos - __atomic_load_n(&log->tail, __ATOMIC_ACQUIRE) >= log->nslots) {
			__atomic_fetch_add(&log->dropped, 1, __ATOMIC_RELAXED);
			return;
		}
	} while (!__atomic_compare_exchange_n(&log->head, &pos, pos + 1, 1, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	s = &log->slots[pos & (log->nslots - 1)];
	s->tid = tid;
	s->cpu_start = cpu_start;
	s->cpu_end = cpu_end;
	s->start_ns = start_ns;
	s->end_ns = end_ns;
	s->tag = tag;
	s->nominal_age_ns = trial->nominal_age_ns;
	s->streamed_bytes = trial->streamed_bytes;
	s->round = trial->round;
	s->rate_mbps = trial->rate_mbps;
	__atomic_store_n(&s->seq, pos + 1, __ATOMIC_RELEASE);
}

#endif

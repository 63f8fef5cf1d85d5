/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's interval clock (`run --interval`): at each interval's end the in-kernel
 * aggregates are read, their difference from the previous read makes the interval
 * (interval.h), the run model's stats and hists take the totals, and the consumer is called.
 * Intervals end at t0 + k x the interval, so that they do not drift.  The records drained
 * into the run model flow on as without it.  User space only.
 */
#ifndef MIGTRACE_INTERVAL_CLOCK_H
#define MIGTRACE_INTERVAL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "interval.h"
#include "run.h"
#include "tracer.h"

struct interval_clock {
	uint64_t every_ns;		/* 0: no intervals */
	long count;			/* intervals the run lasts; 0: until it ends */
	uint64_t t0_ns;			/* CLOCK_MONOTONIC: tracing began */
	uint64_t last_ns;		/* ... the last interval ended */
	uint64_t next_ns;		/* ... the next one ends: t0 + k x every_ns */
	bool done;			/* --count intervals have ended */
	bool reader_gone;		/* fn said -EPIPE: nobody reads what it prints */
	struct mt_counts prev;		/* the aggregates at last_ns */
	struct interval iv;		/* the last interval */
	bool per_pid;			/* -P: pids counts the migration records */
	struct interval_pids pids;
	interval_fn fn;
	void *ctx;
};

/* Set up from the configuration; per_task: the kernel's count is comparable (launched, -p). */
void interval_clock_init(struct interval_clock *c, uint64_t every_ns, long count, bool per_pid,
			 bool per_task, interval_fn fn, void *ctx);
/* Tracing begins now (CLOCK_MONOTONIC ns). */
void interval_clock_start(struct interval_clock *c, uint64_t t0_ns);
/* How long a poll may wait, ms: max_ms, or less when an interval ends sooner. */
int interval_clock_timeout_ms(const struct interval_clock *c, int max_ms);
/* Ends the interval when it is due.  1: that was --count's last; 0; or -errno (a read failed,
 * said on stderr). */
int interval_clock_poll(struct interval_clock *c, const struct tracer *tr, struct run *r);
/* SIGHUP: the totals are read into r and the consumer told (INTERVAL_REOPEN). */
int interval_clock_reopen(struct interval_clock *c, const struct tracer *tr, struct run *r);
/* Tracing has stopped with r's stats and hists read: the interval it ended in, partial (none
 * after --count's last). */
void interval_clock_final(struct interval_clock *c, struct run *r, uint64_t end_ns);
/* -P: one migration record. */
void interval_clock_record(struct interval_clock *c, const struct mt_migrate *m);
void interval_clock_free(struct interval_clock *c);

#endif

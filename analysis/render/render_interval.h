/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One live interval (`run --interval`, interval.h) as a text block or as one JSON line
 * (docs/interval-lines.md).  The figures are the interval's own: migrations/s by cause and
 * by topology level, the kernel age of load-balancer pulls (log2 µs), the share of them hot
 * at the threshold in use, wake-up latency p50 and p99, and completeness against the
 * kernel's own count when that is per task.
 */
#ifndef MIGTRACE_RENDER_INTERVAL_H
#define MIGTRACE_RENDER_INTERVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "interval.h"
#include "run.h"

#define INTERVAL_SCHEMA "migtrace.interval/1"

/* The text block; wall_clock (-T): its first line starts with the time of day, HH:MM:SS. */
void render_interval_text(FILE *f, const struct interval *iv, const struct run *r,
			  bool wall_clock);
/* One JSON object on one line.  0 or -errno (a failed write). */
int render_interval_json(FILE *f, const struct interval *iv, const struct run *r);

#endif

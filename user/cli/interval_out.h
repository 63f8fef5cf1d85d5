/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `run --interval`, `--textfile` and `--listen` do with each interval: a text block (or,
 * -j, a JSON line) on the text stream, DIR/migtrace.prom written again, atomically, and the
 * same exposition published for /metrics.  The capture
 * calls interval_out_event(); run_command() writes the last file after the analysis, so that
 * it carries the verdict when the run has one.  User space only.
 */
#ifndef MIGTRACE_INTERVAL_OUT_H
#define MIGTRACE_INTERVAL_OUT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "interval.h"
#include "metrics_server.h"
#include "run.h"

#define TEXTFILE_NAME "migtrace.prom"
#define TEXTFILE_DEFAULT_NS (15ULL * 1000000000ULL)	/* node_exporter's usual scrape */

struct interval_out {
	FILE *text;			/* where the blocks go; NULL: none (--textfile alone) */
	bool json;			/* -j: a JSON line each instead of a block */
	bool wall_clock;		/* -T */
	const char *dir;		/* --textfile DIR; NULL: none */
	char path[PATH_MAX];		/* DIR/migtrace.prom */
	const char *listen_arg;		/* --listen [ADDR:]PORT; NULL: none */
	struct metrics_listen listen;
	struct metrics_server *server;	/* serving /metrics once started */
	bool has_last;
	struct interval last;		/* the last interval, for the file's gauges */
};

/*
 * --textfile DIR, before anything starts: a directory in which a file can be made now (one
 * is made and removed: the test root's access(2) would pass on a read-only mount).  0, or
 * -errno after one line on stderr naming DIR and what to do.
 */
int interval_out_check_dir(const char *dir);
/*
 * --textfile DIR taken for this run: an exclusive flock(2) on DIR, held until migtrace exits
 * (the descriptor is close-on-exec: a workload never holds it).  Two exporters writing one
 * DIR/migtrace.prom make its counters go backwards at every other scrape, which Prometheus
 * reads as counter resets.  Taken, it removes the temporaries of exporters killed before
 * their rename (one line says how many).  0, or -EBUSY (another holds it) / -errno after
 * one line.
 */
int interval_out_lock_dir(const char *dir);
/* The consumer of the capture's intervals (interval_fn). */
int interval_out_event(void *ctx, enum interval_event ev, const struct interval *iv,
		       struct run *r);
/* The last file, from the finished and analysed run.  0 or -errno (said on stderr). */
int interval_out_final(struct interval_out *o, const struct run *r);

#endif

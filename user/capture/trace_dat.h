/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace-cmd capture (trace.dat, `trace-cmd record -e sched`) read into the run model:
 * its sched events decoded with libtraceevent, replayed by sched_replay in timestamp order
 * over every task, as `run -a` would trace them (docs/ftrace.md, "What it replays").
 */
#ifndef MIGTRACE_TRACE_DAT_H
#define MIGTRACE_TRACE_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run;

/* The first bytes of every trace.dat: "\x17\x08\x44tracing". */
#define TRACE_DAT_MAGIC "\x17\x08\x44tracing"
#define TRACE_DAT_MAGIC_LEN 10

struct trace_dat_opts {
	int64_t hot_ns;			/* --hot-ns; RUN_NO_HOT_ARG: the kernel's default */
	/* --pid: only this task and those it forks in the capture (a capture holds no tgid:
	 * threads its process had before are not followed); 0: every task */
	uint32_t pid;
	bool drop_records;		/* count only: no output lists the records */
	bool quiet;			/* no line on stderr per missing event */
	const int64_t *threshold_ns;	/* --what-if's thresholds, ns, counted as read */
	int nthresholds;
};

/* Whether the file at path starts with the magic; false when it cannot be read. */
bool trace_dat_is_capture(const char *path);
/*
 * Reads the capture into a new model, not yet analysed.  0; -EINVAL with err saying why
 * (not a capture libtracecmd reads, no sched event in it); -ENOMEM.  Each sched event the
 * capture lacks is named on stderr, one line each, unless quiet.
 */
int trace_dat_read(const char *path, const struct trace_dat_opts *o, struct run **out,
		   char *err, size_t errlen);

#endif

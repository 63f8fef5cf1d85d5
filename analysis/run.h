/* SPDX-License-Identifier: GPL-2.0 */
/* One in-memory run record: what `migtrace run` captured, and its summary and JSON. */
#ifndef MIGTRACE_RUN_H
#define MIGTRACE_RUN_H
#ifdef __KERNEL__
#error "analysis/run.h is for user space"
#endif

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "migtrace.h"
#include "parse.h"

struct json_object;

#define RUN_MAX_PROGS 12

/* What tracing cost, as the kernel and getrusage(2) count it. */
struct run_cost {
	double self_user_s;		/* migtrace's own CPU time, s */
	double self_sys_s;
	double self_startup_s;		/* of which before tracing began (load, verify, attach) */
	long self_max_rss_kib;		/* migtrace's peak RSS (VmHWM), KiB */
	double workload_cpu_s;		/* the launched workload's user + system CPU, s; -1: -p */
	bool bpf_stats;			/* kernel.bpf_stats_enabled was on: the runs below count */
	int nprogs;
	struct {
		char name[32];
		uint64_t run_cnt;	/* times the program ran */
		uint64_t run_time_ns;	/* ns, in total, as bpf_stats measures it */
		uint64_t recursion_misses;	/* runs the kernel skipped: events not seen */
	} progs[RUN_MAX_PROGS];
};

struct run_record {
	/* what was traced */
	char command[1024];		/* the workload's command line, or "pid N" */
	int pid;			/* workload (or -p) pid */
	bool attached;			/* -p: an existing process */
	struct cpu_set_list cpus;	/* where the workload was pinned */
	int64_t hot_ns;			/* threshold task_hot() is judged at, ns */
	char hot_source[700];		/* where hot_ns came from */
	uint64_t ringbuf_bytes;
	/* how it ended */
	double duration_s;		/* s */
	int exit_status;		/* the workload's, as a shell reports it; -1 unknown */
	char end_reason[128];
	bool interrupted;		/* a launched workload was ended by a signal or --duration,
					 * not by itself: what it planned to do may not all be here */
	/* what was captured */
	struct mt_migrate *recs;	/* in ring-buffer order */
	size_t nrecs, cap;
	struct mt_unit *units;		/* in ring-buffer order */
	size_t nunits, ucap;
	char unit_spec[4400];		/* BINARY:FUNCTION timed as units, "" for none */
	size_t max_kept;		/* records of each kind kept, 0: all */
	uint64_t recs_not_kept;		/* read past max_kept, counted only */
	uint64_t units_not_kept;
	struct mt_stats stats;
	struct mt_hists hists;
	int nr_cpus;
	uint64_t *pairs;		/* nr_cpus x nr_cpus, row = src */
	struct run_cost cost;
};

extern const char *const mt_cause_names[MT_NR_CAUSES];	/* "wakeup", "lb_pull", … */
extern const char *const mt_cause_titles[MT_NR_CAUSES];	/* "wakeup placement", … */
extern const char *const mt_state_names[4];

int run_record_add(struct run_record *r, const struct mt_migrate *m);
int run_record_add_unit(struct run_record *r, const struct mt_unit *u);
void run_record_free(struct run_record *r);
uint64_t run_total_migrations(const struct run_record *r);
/* The migrations the kernel counts in se.nr_migrations: all but fork placements. */
uint64_t run_kernel_counted(const struct run_record *r);
/* The kernel's count of the traced tasks' migrations less the ones migtrace recorded. */
int64_t run_completeness_gap(const struct run_record *r);
void run_print_summary(FILE *f, const struct run_record *r);
/* The run file (schema migtrace.run/1) without its record arrays.  NULL on ENOMEM. */
struct json_object *run_to_json(const struct run_record *r);
/*
 * Writes o (from run_to_json, with anything the caller added) to f, followed by the
 * "migrations" and "units" arrays streamed one record at a time, so that writing a long
 * run costs no memory in proportion to it.  0 or -errno.
 */
int run_write_json(FILE *f, const struct run_record *r, struct json_object *o);

#endif

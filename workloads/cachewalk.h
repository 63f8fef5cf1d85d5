/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the cachewalk workload and migtrace: the unit function's name (its
 * 2nd argument is the unit's role, enum mt_unit_tag in bpf/migtrace.h; its 3rd the age the
 * experiment aimed at), and cachewalk's options as one typed struct.  The one parser of those
 * options is cachewalk_config.c, linked into both cachewalk and migtrace: migtrace reads a
 * `run cachewalk ARGS` command line with it (to know the experiment's mode before anything
 * runs), and validate fills the struct directly and has the command line built from it.
 * Plain C: no BPF, no migtrace headers.
 */
#ifndef MIGTRACE_CACHEWALK_H
#define MIGTRACE_CACHEWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CACHEWALK_MAX_AGES 64
#define CACHEWALK_MAX_RATES 8
/*
 * The oldest age the experiment waits out: the most the migration-cost tunable can hold (an
 * unsigned int of ns, sysctl and debugfs alike), 4.29 s.  A hot time beyond it could not be
 * set, so no verdict needs such an age, and each sample of one waits that long.
 */
#define CACHEWALK_MAX_AGE_NS 4294967295ULL
#define CACHEWALK_MAX_ARGS 40

enum cachewalk_sleep { CW_SLEEP_FIXED, CW_SLEEP_UNIFORM, CW_SLEEP_EXP };

struct cachewalk_config {
	bool controlled;		/* --controlled: the experiment; else natural mode */
	/* both modes */
	uint64_t ws_bytes;		/* working set per thread, bytes */
	char polluter_cpus[256];	/* CPUs a polluter streams on, "" for none */
	double polluter_mbps;		/* MB/s (10^6 bytes/s); 0: as fast as it can */
	uint64_t polluter_bytes;	/* the buffer it streams through, bytes */
	/* natural mode */
	int threads;			/* 0: one per allowed CPU */
	enum cachewalk_sleep sleep_kind;
	double sleep_a_us, sleep_b_us;	/* µs; fixed: a; uniform: [a, b]; exp: mean a */
	int burst;			/* units per wake-up */
	double duration_s;		/* s */
	int load_threads;		/* extra run/sleep threads */
	/* controlled mode */
	uint64_t ages_ns[CACHEWALK_MAX_AGES];	/* ns, in the order given */
	int nages;
	/* --rates: the polluter's target per trial, MB/s (0: as fast as it can), a third axis
	 * of the grid beside age and arm; none given: polluter_mbps for every trial */
	double rates_mbps[CACHEWALK_MAX_RATES];
	int nrates;
	int samples;			/* per (age, arm) cell */
	int cpu_a, cpu_b;		/* warm on A, migrate to B; -1: first, second allowed */
	bool keepalive;			/* SCHED_IDLE spinners keep A and B busy */
};

/* A command line built from a config: argv[] points into buf. */
struct cachewalk_argv {
	char *argv[CACHEWALK_MAX_ARGS];
	int argc;
	char buf[3072];
};

void cachewalk_config_default(struct cachewalk_config *c);
/*
 * Parses cachewalk's options, argv[1..argc) (argv[0] is the program), into c, which holds the
 * defaults or earlier values.  0; 1 for --help; -EINVAL with one line in err (no newline)
 * naming the option and the value.  Reentrant: no getopt state, argv is not reordered.
 */
int cachewalk_config_parse(struct cachewalk_config *c, int argc, char *const argv[], char *err,
			   size_t errlen);
/* One option by its long name ("ages", "ws"), value as on the command line: the parser's
 * own checks, for a caller that has the value apart (validate).  0 or -EINVAL with err. */
int cachewalk_config_option(struct cachewalk_config *c, const char *name, const char *value,
			    char *err, size_t errlen);
/*
 * The command line that runs c with the program at path: only what differs from the
 * defaults, in a fixed order.  0, or -E2BIG if it does not fit.
 */
int cachewalk_config_argv(const struct cachewalk_config *c, const char *path,
			  struct cachewalk_argv *out);

#endif

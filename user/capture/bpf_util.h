/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf set-up shared by the commands that load BPF.  User space only. */
#ifndef MIGTRACE_BPF_UTIL_H
#define MIGTRACE_BPF_UTIL_H

#include <stdbool.h>

/* Routes libbpf's messages to stderr: warnings always, debug only with -v. */
void mt_libbpf_init(int verbose);
/*
 * Keeps libbpf's warnings (a rejected program's verifier log among them) in memory from
 * begin to end, instead of printing them (with -v they are printed too).  end returns the
 * text, which the caller frees; NULL when nothing was captured.
 */
int mt_libbpf_capture_begin(void);
char *mt_libbpf_capture_end(void);

/* What a captured libbpf log says about a program the kernel refused to load. */
struct mt_verifier_verdict {
	char prog[64];		/* the refused program, e.g. "mt_migrate" */
	char reason[256];	/* the verifier's decisive line, "" when the log has none */
	char source[256];	/* the source line it was at, "" when the object has no line info */
};

/* Finds the refused program and the verifier's decisive line in LOG.  0, or -ENOENT when the
 * log names no refused program. */
int mt_verifier_verdict(const char *log, struct mt_verifier_verdict *v);

/*
 * Raises the soft open-file limit (RLIMIT_NOFILE) to need, up to the hard limit, as
 * libbpf-tools raise RLIMIT_MEMLOCK: every map, program and link is a descriptor.  0, or
 * -EMFILE when the hard limit is below need, with one line naming the limit and the fix.
 */
int mt_nofile_ensure(unsigned long need);
/* Puts back the soft limit migtrace was started with (in a forked workload, before exec:
 * it runs under the limits it was given). */
void mt_nofile_reset(void);

/* Capabilities this process has in its effective set. */
bool mt_has_cap(int cap);
/* "CAP_BPF" style name of the first missing capability run needs, or NULL when none. */
const char *mt_missing_bpf_cap(void);
/* kernel.bpf_stats_enabled: 1 on, 0 off, -1 unreadable. */
int mt_bpf_stats_enabled(void);
struct mt_prog_run {
	unsigned long long run_cnt;	/* counted only while kernel.bpf_stats_enabled is on */
	unsigned long long run_time_ns;
	unsigned long long recursion_misses;	/* runs the kernel skipped: always counted */
};

/*
 * What migtrace's BPF object needs of the kernel beyond 5.10 (bpf/compat.bpf.h), probed.
 * MIGTRACE_BPF_AS=5.10 in the environment reports all three absent, so that the tests try
 * those paths on any kernel.
 */
struct mt_bpf_features {
	bool task_storage;	/* BPF_MAP_TYPE_TASK_STORAGE (5.11) */
	bool current_task_btf;	/* bpf_get_current_task_btf() (5.11) */
	bool atomics;		/* atomic OR, exchange, compare-and-exchange (5.12); before, the
				 * verifier refuses a program holding one anywhere, reached or not */
};
void mt_bpf_features_probe(struct mt_bpf_features *f);

/* The kernel's counts for a loaded program.  0 or -errno. */
int mt_prog_run_stats(int prog_fd, struct mt_prog_run *out);

#endif

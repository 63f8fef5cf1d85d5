/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf set-up shared by the commands that load BPF.  User space only. */
#ifndef MIGTRACE_BPF_UTIL_H
#define MIGTRACE_BPF_UTIL_H
#ifdef __KERNEL__
#error "user/bpf_util.h is for user space"
#endif

#include <stdbool.h>

/* Routes libbpf's messages to stderr: warnings always, debug only with -v. */
void mt_libbpf_init(int verbose);
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

/* The kernel's counts for a loaded program.  0 or -errno. */
int mt_prog_run_stats(int prog_fd, struct mt_prog_run *out);

#endif

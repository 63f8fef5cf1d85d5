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

#endif

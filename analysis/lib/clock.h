/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock user space times things with.  User space only. */
#ifndef MIGTRACE_CLOCK_H
#define MIGTRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: the clock of bpf_ktime_get_ns(), so user and BPF times compare. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif

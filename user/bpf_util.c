// SPDX-License-Identifier: GPL-2.0
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bpf_util.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#define CAP_SYS_ADMIN_NR 21

static int verbosity;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !verbosity)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void mt_libbpf_init(int verbose)
{
	verbosity = verbose;
	libbpf_set_print(print_fn);
}

bool mt_has_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff = 0;
	char line[256];

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << cap);
}

const char *mt_missing_bpf_cap(void)
{
	/* CAP_SYS_ADMIN implies the others on every kernel; 5.8+ split out BPF and PERFMON. */
	if (mt_has_cap(CAP_SYS_ADMIN_NR))
		return NULL;
	if (!mt_has_cap(CAP_BPF))
		return "CAP_BPF";
	if (!mt_has_cap(CAP_PERFMON))
		return "CAP_PERFMON";
	return NULL;
}

int mt_bpf_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int on = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &on) != 1)
		on = -1;
	fclose(f);
	return on;
}

int mt_prog_run_stats(int prog_fd, struct mt_prog_run *out)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	out->run_cnt = info.run_cnt;
	out->run_time_ns = info.run_time_ns;
	out->recursion_misses = info.recursion_misses;
	return 0;
}

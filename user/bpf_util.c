// SPDX-License-Identifier: GPL-2.0
#include <bpf/libbpf.h>
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

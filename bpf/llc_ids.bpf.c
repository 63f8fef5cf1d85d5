// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own numbering of last-level caches, read once: sd_llc_id of each CPU, the id
 * cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2) stores in task_struct.preferred_llc.  The
 * kernel numbers LLCs its own way (a dense index, not the first CPU of the cache), so a
 * move's preferred LLC can be told from its CPUs only with this table.  Loaded only where
 * that member exists (user/capture/llc_ids.c): its per-CPU symbol needs CONFIG_KALLSYMS_ALL,
 * which the kernels without cache-aware scheduling need not have.  Never attached: user
 * space runs it once (BPF_PROG_TEST_RUN) and reads llc_id[].
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "migtrace.h"

extern const int sd_llc_id __ksym;

const volatile __u32 nr_cpus = 1;	/* the possible CPUs, at most MT_LLC_IDS_MAX */

int llc_id[MT_LLC_IDS_MAX];		/* -1: no such CPU, or it has no LLC domain */

SEC("raw_tp")
int mt_llc_ids(void *ctx)
{
	for (__u32 cpu = 0; cpu < MT_LLC_IDS_MAX; cpu++) {
		const int *id;

		if (cpu >= nr_cpus)
			break;
		id = bpf_per_cpu_ptr(&sd_llc_id, cpu);
		llc_id[cpu] = id ? *id : -1;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

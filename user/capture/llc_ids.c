// SPDX-License-Identifier: GPL-2.0
/* The kernel's LLC ids, read once (llc_ids.h): load, one test run, read, destroy. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llc_ids.h"
#include "migtrace.h"
#include "parse.h"
#include "llc_ids.skel.h"

int llc_ids_read(char *out, size_t len, char *why, size_t why_len)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct llc_ids_bpf *skel = NULL;
	struct cpu_set_list *cpus = NULL;
	int ncpus, err = 0;
	size_t used = 0;

	out[0] = 0;
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0) {
		err = ncpus ? ncpus : -ENOENT;
		snprintf(why, why_len, "the possible CPUs cannot be counted (%s)", strerror(-err));
		goto out;
	}
	skel = llc_ids_bpf__open();
	if (!skel) {
		err = -errno;
		snprintf(why, why_len, "opening the LLC-id program failed (%s)", strerror(-err));
		goto out;
	}
	skel->rodata->nr_cpus = (__u32)(ncpus < MT_LLC_IDS_MAX ? ncpus : MT_LLC_IDS_MAX);
	err = llc_ids_bpf__load(skel);
	if (err) {
		snprintf(why, why_len, "the kernel refused the LLC-id program (%s): sd_llc_id is "
			 "readable only with CONFIG_KALLSYMS_ALL", strerror(-err));
		goto out;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.mt_llc_ids), &run);
	if (err) {
		err = -errno;
		snprintf(why, why_len, "running the LLC-id program failed (%s)", strerror(-err));
		goto out;
	}
	cpus = calloc(1, sizeof(*cpus));
	if (!cpus) {
		err = -ENOMEM;
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	/* each id once, with its CPUs, in the order of its first CPU */
	for (int cpu = 0; cpu < (int)skel->rodata->nr_cpus; cpu++) {
		int id = skel->bss->llc_id[cpu];
		bool first = true;
		char list[200];

		for (int before = 0; before < cpu && first; before++)
			first = skel->bss->llc_id[before] != id;
		if (id < 0 || !first)
			continue;
		cpus->n = 0;
		for (int c = cpu; c < (int)skel->rodata->nr_cpus && cpus->n < MT_MAX_CPUS_USER; c++)
			if (skel->bss->llc_id[c] == id)
				cpus->cpu[cpus->n++] = c;
		format_cpu_list(cpus, list, sizeof(list));
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%d:%s",
					 used ? ";" : "", id, list);
		if (used >= len) {
			err = -E2BIG;
			out[0] = 0;
			snprintf(why, why_len, "the kernel's LLC ids do not fit in %zu bytes", len);
			goto out;
		}
	}
	if (!used) {
		err = -ENOENT;
		snprintf(why, why_len, "no CPU has an LLC id (sd_llc_id < 0 everywhere)");
	}
out:
	free(cpus);
	llc_ids_bpf__destroy(skel);
	return err;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own ids of the last-level caches (sd_llc_id), which cache-aware scheduling
 * (7.2) keeps in task_struct.preferred_llc: read once through bpf/llc_ids.bpf.c, so that a
 * move's preferred LLC can be told from its CPUs (docs/design.md, "Cache-aware scheduling").
 */
#ifndef MIGTRACE_LLC_IDS_H
#define MIGTRACE_LLC_IDS_H

#include <stddef.h>

/*
 * "ID:CPULIST;ID:CPULIST" of the possible CPUs into out (struct run_sched_rules.llc_ids).
 * 0; or -errno with why (one line: what failed and what it means) in why.  Call only where
 * task_struct.preferred_llc exists: its per-CPU symbol needs CONFIG_KALLSYMS_ALL.
 */
int llc_ids_read(char *out, size_t len, char *why, size_t why_len);

#endif

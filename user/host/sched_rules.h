/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What decides a load-balancer pull besides task_hot()'s age, as this host shows it: a
 * sched_ext scheduler, NUMA balancing, core scheduling, cache-aware load balancing
 * (docs/design.md, "When the threshold does not govern").  The findings go into the run
 * model's environment (struct run_sched_rules); the judge and the renderers say what follows.
 */
#ifndef MIGTRACE_SCHED_RULES_H
#define MIGTRACE_SCHED_RULES_H

#include <stdbool.h>
#include <sys/types.h>

#include "run.h"

/*
 * Fills s under root (NULL or "" for this machine; a fake tree's root in the tests): every
 * path is ROOT/sys/… or ROOT/proc/…, and the two answers only a syscall gives on this
 * machine (PR_SCHED_CORE, a task's policy) come from ROOT/proc/PID/sched under a fake root.
 * The traced-task counts are left at 0 (sched_rules_probe_tasks).  Never fails: what cannot
 * be read is recorded as not known.
 *
 * The BTF check reads ROOT/sys/kernel/btf/vmlinux.  btf_full (doctor): libbpf parses it
 * whenever its string section does not already rule the member out.  Otherwise (a run) only
 * a file that can be mapped is searched, and a kernel whose BTF cannot be mapped is left
 * "not checked": parsing it whole is what doctor is for (docs/design.md gives the costs).
 * btf_err, when not NULL, gets 0 or the -errno that left the check undone.
 */
/* Where cache-aware scheduling's knobs are (7.2), under debugfs; sweep writes them too. */
#define SCHED_LLC_KNOBS "/sys/kernel/debug/sched/llc_balancing"

void sched_rules_probe(const char *root, bool btf_full, struct run_sched_rules *s,
		       int *btf_err);

/*
 * The threads of process pid (the entries of ROOT/proc/PID/task; pid alone when that cannot
 * be listed) as the traced tasks: how many, how many of policy SCHED_EXT, how many with a
 * core-scheduling cookie (when core scheduling is available).  After sched_rules_probe.
 */
void sched_rules_probe_tasks(const char *root, pid_t pid, struct run_sched_rules *s);

#endif

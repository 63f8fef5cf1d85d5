/* SPDX-License-Identifier: GPL-2.0 */
/* Where a run was made: kernel, CPU model, topology and caches, the tunable (run model). */
#ifndef MIGTRACE_ENVIRONMENT_H
#define MIGTRACE_ENVIRONMENT_H

#include "run.h"
#include "topology.h"
#include "tunable.h"

/* Fills e from uname(2), /proc/cpuinfo, the topology t, the tunable k and the rules besides
 * it (sched_rules.h; the traced tasks are checked once they exist).  Never fails: what
 * cannot be read is left empty ("" or -1), as the run file's schema allows. */
void environment_probe(struct run_environment *e, const struct topology *t,
		       const struct tunable *k);

#endif

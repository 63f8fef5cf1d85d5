/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What timing a unit from outside costs on this machine: the uprobe + uretprobe pair of
 * --unit, measured at start on an empty function of migtrace's own, with the very programs
 * (or, with the ftrace backend, the very uprobe_events) a run attaches.
 */
#ifndef MIGTRACE_PROBE_COST_H
#define MIGTRACE_PROBE_COST_H

#include <stdbool.h>

struct probe_cost {
	bool measured;
	double ns;		/* median over blocks of calls: probed minus plain, ns per call */
	double ns_min;		/* the least block's, ns per call */
	int calls;		/* probed calls timed */
	int backend;		/* TRACER_BACKEND_BPF or _FTRACE: whose probes were timed */
	char why[160];		/* when not measured: why */
};

/* Loads its own tracer instance of backend (TRACER_BACKEND_*: auto resolves as the run's
 * will), times the probed and the plain function, and unloads it: the load is most of its
 * time.  Never fails the run: pc->measured says whether there is a figure. */
void probe_cost_measure(struct probe_cost *pc, int backend);

#endif

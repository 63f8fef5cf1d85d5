/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's migration-cost tunable as the models record it: a run's environment and a
 * calibration both keep one (user/host/tunable.c probes it and fills this).  Numbers and
 * names only, so that a file read back renders as the run did.
 */
#ifndef MIGTRACE_TUNABLE_STATE_H
#define MIGTRACE_TUNABLE_STATE_H

#include <stdbool.h>
#include <stdint.h>

struct tunable_state {
	int64_t value_ns;	/* the kernel's migration cost, ns */
	bool assumed;		/* value_ns is the kernel default, not read */
	bool readable, writable;
	char path[256];		/* where the tunable lives on this kernel */
	char source[300];	/* how the value was obtained: "read from PATH" or
				 * "kernel default, assumed: …" */
	char why[512];		/* when not readable or not writable: why */
	char origin[600];	/* who set the value: the default, a sysctl.d file, a TuneD
				 * profile, a change at run time */
};

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The footprint curve (footprint.h, docs/design.md "The polluter's size"), measured: the
 * latency a line of a pointer chase against its footprint on CPU A, and on CPU B just after A
 * walked the same footprint.  validate sizes its polluter by it.
 */
#ifndef MIGTRACE_CALIB_FOOTPRINT_H
#define MIGTRACE_CALIB_FOOTPRINT_H

#include "footprint.h"

struct topology;

/*
 * The plan into fp (zeroed first): A and B, the hints (the data and unified caches the
 * topology lists for A), the footprints from FP_MIN_BYTES doubling to FP_HINT_TIMES x the
 * largest hint, or FP_BOUND_BYTES, less where memory is short, and why the curve ends there.
 * room_bytes is what its buffer may take (0: probed, mem_room.h).
 */
void footprint_plan(const struct topology *t, int cpu_a, int cpu_b, uint64_t room_bytes,
		    struct footprint *fp);
/*
 * Measures the planned curve into fp->points, from the smallest footprint up; stops before
 * a footprint that would take the curve past FP_BUDGET_S (npoints then shrinks, and
 * bound_why says so).  The calling thread moves between A and B, and gets its affinity back.
 * 0, or -errno with a message on stderr.
 */
int footprint_measure(struct footprint *fp);

#endif

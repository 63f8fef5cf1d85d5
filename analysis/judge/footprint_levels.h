/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache levels of a footprint curve (docs/design.md, "The polluter's size"): the steps of
 * A's latency a line, whether B shares each, and what that says of the sizes sysfs or CPUID
 * list.  A pure function of the curve's numbers, so that recorded curves test it.
 */
#ifndef MIGTRACE_FOOTPRINT_LEVELS_H
#define MIGTRACE_FOOTPRINT_LEVELS_H

#include "footprint.h"

/*
 * From fp->points[0..npoints) (footprints doubling, latencies in ns a line), into
 * fp->levels, fp->nlevels and fp->readable; then each of fp->hints (level, type, size and
 * source filled by the caller) gets its state and the level it matches.  A curve with a
 * latency that is not a positive number has no level.
 */
void footprint_levels(struct footprint *fp);

#endif

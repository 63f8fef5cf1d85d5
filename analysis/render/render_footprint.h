/* SPDX-License-Identifier: GPL-2.0 */
/*
 * validate's footprint curve in text (docs/design.md, "The polluter's size"): what it will
 * measure, said before it starts, then the curve, its levels, what they say of the sizes
 * sysfs or CPUID list, and the one line that says how big the polluter is and why.  From the
 * model only, so that a report prints the same bytes.
 */
#ifndef MIGTRACE_RENDER_FOOTPRINT_H
#define MIGTRACE_RENDER_FOOTPRINT_H

#include <stdio.h>

#include "footprint.h"

/* The plan, one line: nothing the measurement changes. */
void render_footprint_intro(FILE *f, const struct footprint *fp);
/* The curve, the levels, the hints, and the "polluter:" line. */
void render_footprint_result(FILE *f, const struct footprint *fp);

#endif

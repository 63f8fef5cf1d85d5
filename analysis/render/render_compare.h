/* SPDX-License-Identifier: GPL-2.0 */
/* The compare view's text: two runs in two columns (compare.h has the numbers). */
#ifndef MIGTRACE_RENDER_COMPARE_H
#define MIGTRACE_RENDER_COMPARE_H

#include <stdio.h>

#include "compare.h"

/* label_a, label_b: how the runs are named (their files). */
void render_compare(FILE *f, const struct run_compare *c, const char *label_a,
		    const char *label_b);

#endif

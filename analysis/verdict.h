/* SPDX-License-Identifier: GPL-2.0 */
/* The verdict: the calibrated hot time, the kernel's value and the observed hot time side by
 * side, and whether the kernel's value is too low, about right or too high. */
#ifndef MIGTRACE_VERDICT_H
#define MIGTRACE_VERDICT_H
#ifdef __KERNEL__
#error "analysis/verdict.h is for user space"
#endif

#include <stdbool.h>
#include <stdio.h>

#include "correlate.h"

struct json_object;

enum verdict_kind {
	VERDICT_UNDETERMINED = 0,
	VERDICT_TOO_LOW,	/* tasks the kernel calls cold still pay a refill when moved */
	VERDICT_ABOUT_RIGHT,
	VERDICT_TOO_HIGH,	/* tasks the kernel calls hot are cheap to move */
};

struct verdict_in {
	const struct corr_result *corr;
	double kernel_ns;		/* the value task_hot() uses, ns */
	const char *kernel_source;	/* "read from …" or "kernel default, assumed: …" */
	bool has_calib;
	double calib_ns;		/* calibrated hot time, ns */
	const char *calib_source;	/* "method 2004, inline" or a file name */
	const struct mt_migrate *migs;	/* the run's migrations, for the evidence; may be NULL */
	size_t nmigs;
};

struct verdict {
	enum verdict_kind kind;
	double factor;			/* >= 1: how far off the kernel's value is */
	bool factor_is_bound;		/* the observed hot time lies outside the range */
	char headline[256];
	char evidence[1024];
};

extern const char *const verdict_names[];	/* "undetermined", "too low", … */

void verdict_decide(const struct verdict_in *in, struct verdict *v);
void corr_print_table(FILE *f, const struct corr_result *r, const char *title);
void verdict_print(FILE *f, const struct verdict_in *in, const struct verdict *v);
struct json_object *corr_to_json(const struct corr_result *r);
struct json_object *verdict_to_json(const struct verdict_in *in, const struct verdict *v);

#endif

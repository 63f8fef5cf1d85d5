/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The macros a schema table is written with (run_schema.h), for the files that define the
 * tables only (run_schema.c, sweep_schema.c): a member by its name in the file, its type, and
 * the struct member it lives in, whose size and offset the compiler gives.
 */
#ifndef MIGTRACE_SCHEMA_DEF_H
#define MIGTRACE_SCHEMA_DEF_H

#include <stddef.h>

#include "run_schema.h"

#define FLD(n, t, S, m, fl) \
	{ .name = n, .type = t, .off = offsetof(S, m), .size = sizeof(((S *)0)->m), .flags = fl }
/* a member written by the names of arr: an enum, or RS_U64_NAMED's counts */
#define ENM(n, t, S, m, arr, fl) \
	{ .name = n, .type = t, .off = offsetof(S, m), .size = sizeof(((S *)0)->m), \
	  .names = arr, .nnames = (int)(sizeof(arr) / sizeof(arr[0])), .flags = fl }
/* a member null unless p (a bool or a count) is not 0 */
#define PRS(n, t, S, m, p) PRS_FL(n, t, S, m, p, 0)
#define PRS_FL(n, t, S, m, p, fl) \
	{ .name = n, .type = t, .off = offsetof(S, m), .size = sizeof(((S *)0)->m), \
	  .flags = RS_PRESENT | (fl), .present_off = offsetof(S, p), \
	  .present_size = sizeof(((S *)0)->p) }
#define TABLE(var, obj, arr) \
	const struct rs_table var = { obj, arr, (int)(sizeof(arr) / sizeof(arr[0])) }

#endif

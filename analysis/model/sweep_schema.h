/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep file's flat objects as schema tables (run_schema.h's kinds and walker): its top
 * level, `tunable`, `schedstats`, a member of `runs[]` and of `values[]`, each described
 * once and walked by the sweep file's writer, sweep.csv and the OpenMetrics exposition.
 * docs/sweep-file.md documents every name (a unit test checks that it does).  Members
 * marked RS_EXPORTS_ONLY are the exports' (a value's counts summed over its runs, a run's
 * normalised throughput), not the file's.
 */
#ifndef MIGTRACE_SWEEP_SCHEMA_H
#define MIGTRACE_SWEEP_SCHEMA_H

#include "run_schema.h"

/* Bases: struct sweep for the first three, struct sweep_run, struct sweep_value. */
extern const struct rs_table rs_sweep, rs_sweep_tunable, rs_sweep_schedstats, rs_sweep_run,
	rs_sweep_value;
extern const struct rs_table *const rs_sweep_tables[];
extern const int rs_sweep_ntables;

#endif

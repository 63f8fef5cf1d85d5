// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep file's flat objects as tables (sweep_schema.h), in the order the file writes
 * them (docs/sweep-file.md).  Units are in the names and in sweep.h's comments.
 */
#include "run.h"
#include "schema_def.h"
#include "sweep.h"
#include "sweep_schema.h"

#define S struct sweep
static const struct rs_field sweep_f[] = {
	FLD("complete", RS_BOOL, S, complete, 0),
	FLD("command", RS_ARGV, S, argv, 0),
	FLD("cpus", RS_CSTR, S, cpus_arg, 0),
	FLD("reps", RS_LONG, S, reps, 0),
	FLD("tstar_ns", RS_DBL, S, tstar_ns, RS_NULL_NEG),
	FLD("tstar_runs", RS_INT, S, tstar_runs, 0),
	PRS("best_lo_ns", RS_S64, S, best_lo, in_ns),
	PRS("best_hi_ns", RS_S64, S, best_hi, in_ns),
	/* from 0.2: in the knob's unit (tunable.unit) */
	FLD("best_lo", RS_S64, S, best_lo, 0),
	FLD("best_hi", RS_S64, S, best_hi, 0),
	FLD("tstar_in_best", RS_INT, S, tstar_in_best, RS_NULL_NEG),
};
TABLE(rs_sweep, "sweep", sweep_f);

static const struct rs_field tunable_f[] = {
	FLD("path", RS_STR, S, tunable_path, 0),
	PRS("original_ns", RS_S64, S, original, in_ns),
	/* from 0.2: the knob swept and its unit; the original value in it */
	FLD("knob", RS_CSTR, S, knob, 0),
	FLD("unit", RS_CSTR, S, unit, 0),
	FLD("original", RS_S64, S, original, 0),
	FLD("root", RS_CSTR, S, root, 0),
};
TABLE(rs_sweep_tunable, "tunable", tunable_f);

static const struct rs_field schedstats_f[] = {
	FLD("available", RS_BOOL, S, schedstats, 0),
	FLD("proc_schedstat", RS_BOOL, S, has_schedstat, 0),
	FLD("original", RS_INT, S, schedstats_orig, 0),
};
TABLE(rs_sweep_schedstats, "schedstats", schedstats_f);
#undef S

/* The kernel's counts: null without schedstats (witness), lb_hot_gained where there is no
 * /proc/schedstat. */
#define R struct sweep_run
static const struct rs_field run_f[] = {
	PRS("value_ns", RS_S64, R, value, in_ns),
	FLD("value", RS_S64, R, value, 0),
	FLD("rep", RS_INT, R, rep, 0),
	FLD("wall_s", RS_DBL, R, wall_s, 0),
	FLD("throughput", RS_DBL, R, tput.value, 0),
	PRS_FL("normalised", RS_DBL, R, normalised, has_normalised, RS_EXPORTS_ONLY),
	FLD("throughput_unit", RS_CSTR, R, tput.unit, 0),
	FLD("throughput_source", RS_CSTR, R, tput.source, 0),
	FLD("idle_pct", RS_DBL, R, idle_pct, RS_NULL_NEG),
	FLD("wakeup_latency_p50_us", RS_DBL, R, wake_p50_us, RS_NULL_NEG),
	FLD("wakeup_latency_p99_us", RS_DBL, R, wake_p99_us, RS_NULL_NEG),
	FLD("runnable_wait_p50_us", RS_DBL, R, wait_p50_us, RS_NULL_NEG),
	FLD("runnable_wait_p99_us", RS_DBL, R, wait_p99_us, RS_NULL_NEG),
	FLD("tstar_ns", RS_DBL, R, tstar_ns, RS_NULL_NEG),
	FLD("exit_status", RS_INT, R, exit_status, 0),
	ENM("migrations", RS_U64_NAMED, R, migrations, mt_cause_names, 0),
	FLD("lb_judged", RS_U64, R, lb_judged, 0),
	FLD("lb_hot", RS_U64, R, lb_hot, 0),
	PRS("nr_failed_migrations_hot", RS_U64, R, failed_hot, witness),
	PRS("nr_forced_migrations", RS_U64, R, forced, witness),
	PRS("lb_hot_gained", RS_U64, R, lb_hot_gained, has_lb_hot_gained),
};
TABLE(rs_sweep_run, "runs[]", run_f);
#undef R

/*
 * A value: the file has its throughput's statistics (0 when no run finished: the exports
 * leave them out then) and idle median; the exports add the counts summed over its runs.
 */
#define V struct sweep_value
static const struct rs_field value_f[] = {
	PRS("value_ns", RS_S64, V, value, in_ns),
	FLD("value", RS_S64, V, value, 0),
	FLD("runs", RS_INT, V, n, 0),
	PRS_FL("throughput_min", RS_DBL, V, tmin, n, RS_EXPORTS_NULL),
	PRS_FL("throughput_median", RS_DBL, V, tmed, n, RS_EXPORTS_NULL),
	PRS_FL("throughput_max", RS_DBL, V, tmax, n, RS_EXPORTS_NULL),
	PRS_FL("normalised", RS_DBL, V, normalised, has_normalised, RS_EXPORTS_NULL),
	FLD("throughput_unit", RS_CSTR, V, unit, RS_EXPORTS_ONLY),
	FLD("throughput_source", RS_CSTR, V, source, RS_EXPORTS_ONLY),
	FLD("idle_pct_median", RS_DBL, V, idle_med, RS_NULL_NEG),
	FLD("wakeup_latency_p50_us", RS_DBL, V, wake_p50_us, RS_NULL_NEG),
	FLD("wakeup_latency_p99_us", RS_DBL, V, wake_p99_us, RS_NULL_NEG),
	FLD("runnable_wait_p50_us", RS_DBL, V, wait_p50_us, RS_NULL_NEG),
	FLD("runnable_wait_p99_us", RS_DBL, V, wait_p99_us, RS_NULL_NEG),
	ENM("migrations", RS_U64_NAMED, V, by_cause, mt_cause_names, RS_EXPORTS_ONLY),
	FLD("lb_judged", RS_U64, V, lb_judged, RS_EXPORTS_ONLY),
	FLD("lb_hot", RS_U64, V, lb_hot, RS_EXPORTS_ONLY),
	PRS_FL("nr_failed_migrations_hot", RS_U64, V, failed_hot, witness, RS_EXPORTS_ONLY),
	PRS_FL("nr_forced_migrations", RS_U64, V, forced, witness, RS_EXPORTS_ONLY),
	PRS_FL("lb_hot_gained", RS_U64, V, lb_hot_gained, has_gained, RS_EXPORTS_ONLY),
};
TABLE(rs_sweep_value, "values[]", value_f);
#undef V

const struct rs_table *const rs_sweep_tables[] = {
	&rs_sweep, &rs_sweep_tunable, &rs_sweep_schedstats, &rs_sweep_run, &rs_sweep_value,
};
const int rs_sweep_ntables = (int)(sizeof(rs_sweep_tables) / sizeof(rs_sweep_tables[0]));

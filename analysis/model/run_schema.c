// SPDX-License-Identifier: GPL-2.0
/*
 * The run file's flat objects as tables (run_schema.h), and the one function that writes a
 * member and the one that reads it.  The units of every member are in docs/run-file.md and
 * in the comments of the structs the offsets point into.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "schema_def.h"
#include "unit.h"

static const char *const kind_names[] = { "run", "validate" };
static const char *const mode_names[] = { "natural", "controlled" };
static const char *const sleep_names[] = { "fixed", "uniform", "exp" };
static const char *const axis_names[] = { "age", "displaced_bytes" };
static const char *const regime_names[] = { "unknown", "shared", "beyond" };

#define E struct run_environment
static const struct rs_field environment_f[] = {
	FLD("kernel_release", RS_STR, E, kernel_release, 0),
	FLD("kernel_version", RS_STR, E, kernel_version, 0),
	FLD("machine", RS_STR, E, machine, 0),
	FLD("cpu_model", RS_STR, E, cpu_model, RS_NULL_EMPTY),
	FLD("online_cpus", RS_STR, E, online_cpus, 0),
	FLD("nr_online", RS_INT, E, nr_online, RS_NONNEG),
	FLD("cores", RS_INT, E, cores, RS_NONNEG),
	FLD("packages", RS_INT, E, packages, RS_NONNEG),
	FLD("threads_per_core", RS_INT, E, threads_per_core, RS_NONNEG),
	FLD("cpu_mhz", RS_LONG, E, cpu_mhz, RS_NULL_NEG),
	FLD("cache_source", RS_STR, E, cache_source, 0),
};
TABLE(rs_environment, "environment", environment_f);

#undef E

#define T struct tunable_state
static const struct rs_field tunable_f[] = {
	FLD("value_ns", RS_S64, T, value_ns, 0),
	FLD("assumed", RS_BOOL, T, assumed, 0),
	FLD("readable", RS_BOOL, T, readable, 0),
	FLD("writable", RS_BOOL, T, writable, 0),
	FLD("path", RS_STR, T, path, 0),
	FLD("source", RS_STR, T, source, 0),
	FLD("why", RS_STR, T, why, RS_NULL_EMPTY),
	FLD("origin", RS_STR, T, origin, RS_NULL_EMPTY),
};
TABLE(rs_tunable, "environment.tunable", tunable_f);
#undef T

#define E struct run_environment
/* migtrace.run/3, optional: the object is written when the run checked these */
static const struct rs_field sched_rules_f[] = {
	FLD("sched_ext_state", RS_STR, E, rules.scx_state, RS_NULL_EMPTY),
	FLD("sched_ext_ops", RS_STR, E, rules.scx_ops, RS_NULL_EMPTY),
	FLD("sched_ext_switch_all", RS_INT, E, rules.scx_switch_all, RS_NULL_NEG),
	FLD("numa_balancing", RS_INT, E, rules.numa_balancing, RS_NULL_NEG),
	FLD("numa_nodes", RS_INT, E, rules.numa_nodes, RS_NULL_ZERO | RS_NONNEG),
	ENM("core_sched", RS_ENUM, E, rules.core_sched, run_core_sched_names, 0),
	FLD("core_cookie_tasks", RS_INT, E, rules.core_cookie_tasks, RS_NULL_NEG),
	FLD("traced_tasks", RS_INT, E, rules.traced_tasks, RS_NONNEG),
	FLD("traced_sched_ext_tasks", RS_INT, E, rules.traced_ext_tasks, RS_NONNEG),
	FLD("traced_cookie_tasks", RS_INT, E, rules.traced_cookie_tasks, RS_NONNEG),
	ENM("preferred_llc", RS_ENUM, E, rules.preferred_llc, run_btf_member_names, 0),
	/* from 0.2: cache-aware scheduling's knobs and the kernel's LLC ids */
	FLD("llc_balancing_enabled", RS_INT, E, rules.llc.enabled, RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_balancing_aggr_tolerance", RS_INT, E, rules.llc.aggr_tolerance,
	    RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_balancing_imb_pct", RS_INT, E, rules.llc.imb_pct, RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_balancing_overaggr_pct", RS_INT, E, rules.llc.overaggr_pct,
	    RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_balancing_epoch_period", RS_INT, E, rules.llc.epoch_period,
	    RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_balancing_epoch_affinity_timeout", RS_INT, E, rules.llc.epoch_affinity_timeout,
	    RS_NULL_NEG | RS_OPTIONAL),
	FLD("llc_ids", RS_STR, E, rules.llc_ids, RS_NULL_EMPTY | RS_OPTIONAL),
};
TABLE(rs_sched_rules, "environment.sched_rules", sched_rules_f);
#undef E

#define C struct run_cache
static const struct rs_field cache_f[] = {
	FLD("level", RS_INT, C, level, RS_NONNEG),
	FLD("type", RS_STR, C, type, 0),
	FLD("size_bytes", RS_U64, C, size_bytes, 0),
	FLD("instances", RS_INT, C, instances, RS_NULL_ZERO | RS_NONNEG),
	FLD("cpus_per_instance", RS_INT, C, cpus_per_instance, RS_NONNEG),
	FLD("shared_cpus", RS_STR, C, shared_cpus, 0),
	FLD("shared_known", RS_BOOL, C, shared_known, 0),
	FLD("source", RS_STR, C, source, 0),
	FLD("cpuid_leaf", RS_HEX32, C, cpuid_leaf, RS_NULL_ZERO),
};
TABLE(rs_cache, "environment.caches[]", cache_f);
#undef C

#define S struct run_setup
static const struct rs_field config_f[] = {
	ENM("kind", RS_ENUM, S, kind, kind_names, 0),
	ENM("mode", RS_ENUM, S, mode, mode_names, 0),
	FLD("pid", RS_LONG, S, pid_arg, RS_NULL_ZERO | RS_NONNEG),
	FLD("cpus", RS_STR, S, cpus_arg, RS_NULL_EMPTY),
	FLD("user", RS_STR, S, user, RS_NULL_EMPTY),
	FLD("duration_ns", RS_U64, S, duration_ns, RS_NULL_ZERO),
	FLD("hot_ns", RS_S64, S, hot_ns_arg, RS_NULL_MIN),
	FLD("ringbuf_bytes", RS_U64, S, ringbuf_bytes, 0),
	FLD("max_records", RS_U64, S, max_records, 0),
	FLD("unit", RS_STR, S, unit_arg, RS_NULL_EMPTY),
	FLD("calibration_file", RS_STR, S, calibration_file, RS_NULL_EMPTY),
	FLD("cold_fraction", RS_DBL, S, cold_fraction, RS_NONNEG),
	FLD("bootstrap", RS_INT, S, bootstrap, RS_NONNEG),
	/* migtrace.run/3, from the sequential experiment on (docs/design.md, "Sampling until
	 * it decides") */
	FLD("level", RS_DBL, S, level, RS_OPTIONAL | RS_NONNEG),
	FLD("budget_s", RS_DBL, S, budget_s, RS_OPTIONAL | RS_NONNEG),
	FLD("max_looks", RS_INT, S, max_looks, RS_OPTIONAL | RS_NONNEG),
};
TABLE(rs_config, "config", config_f);
#undef S

#define W struct cachewalk_config
static const struct rs_field cachewalk_f[] = {
	FLD("controlled", RS_BOOL, W, controlled, 0),
	FLD("ws_bytes", RS_U64, W, ws_bytes, 0),
	FLD("polluter_cpus", RS_STR, W, polluter_cpus, RS_NULL_EMPTY),
	FLD("polluter_mbps", RS_DBL, W, polluter_mbps, RS_NONNEG),
	FLD("polluter_bytes", RS_U64, W, polluter_bytes, 0),
	FLD("threads", RS_INT, W, threads, RS_NONNEG),
	ENM("sleep", RS_ENUM, W, sleep_kind, sleep_names, 0),
	FLD("sleep_a_us", RS_DBL, W, sleep_a_us, RS_NONNEG),
	FLD("sleep_b_us", RS_DBL, W, sleep_b_us, RS_NONNEG),
	FLD("burst", RS_INT, W, burst, RS_NONNEG),
	FLD("duration_s", RS_DBL, W, duration_s, RS_NONNEG),
	FLD("load_threads", RS_INT, W, load_threads, RS_NONNEG),
	FLD("samples", RS_INT, W, samples, RS_NONNEG),
	FLD("from_cpu", RS_INT, W, cpu_a, RS_NULL_NEG),
	FLD("to_cpu", RS_INT, W, cpu_b, RS_NULL_NEG),
	FLD("keepalive", RS_BOOL, W, keepalive, 0),
};
TABLE(rs_cachewalk, "config.cachewalk", cachewalk_f);
#undef W

#define K struct run_calibration
static const struct rs_field calibration_f[] = {
	FLD("hot_ns", RS_DBL, K, hot_ns, 0),
	FLD("robust", RS_BOOL, K, robust, 0),
};
TABLE(rs_calibration, "calibration", calibration_f);
#undef K

/* validate's footprint curve (footprint.h): its own members, its points, levels and hints. */
static const char *const fp_hint_state_names[FP_HINT_NSTATES] = {
	"seen", "not seen", "beyond the curve",
};
static const char *const fp_polluter_source_names[FP_POLLUTER_NSOURCES] = {
	"measured", "all levels shared", "no level read", "--polluter-size",
};

#define K struct footprint
static const struct rs_field footprint_f[] = {
	FLD("cpu_a", RS_INT, K, cpu_a, RS_NONNEG),
	FLD("cpu_b", RS_INT, K, cpu_b, RS_NONNEG),
	FLD("reps", RS_INT, K, reps, RS_NONNEG),
	FLD("timed_lines", RS_U64, K, timed_lines, 0),
	FLD("bound_bytes", RS_U64, K, bound_bytes, 0),
	FLD("bound_why", RS_STR, K, bound_why, 0),
	FLD("trials_switched", RS_INT, K, trials_switched, RS_NONNEG),
	FLD("points_remeasured", RS_INT, K, points_remeasured, RS_NONNEG),
	FLD("wall_s", RS_DBL, K, wall_s, RS_NONNEG),
	FLD("readable", RS_BOOL, K, readable, 0),
	ENM("polluter_source", RS_ENUM, K, polluter_source, fp_polluter_source_names, 0),
	FLD("polluter_bytes", RS_U64, K, polluter_bytes, 0),
	FLD("sized_bytes", RS_U64, K, sized_bytes, 0),
	FLD("polluter_level", RS_INT, K, polluter_level, RS_NULL_NEG | RS_NONNEG),
	FLD("private_bytes", RS_U64, K, private_bytes, 0),
	FLD("capped_why", RS_STR, K, capped_why, RS_NULL_EMPTY),
};
TABLE(rs_footprint, "calibration.footprint", footprint_f);
#undef K

#define K struct fp_point
static const struct rs_field footprint_point_f[] = {
	FLD("footprint_bytes", RS_U64, K, footprint_bytes, 0),
	FLD("a_ns_per_line", RS_DBL, K, a_ns, RS_NONNEG),
	FLD("b_after_a_ns_per_line", RS_DBL, K, b_after_a_ns, RS_NONNEG),
};
TABLE(rs_footprint_point, "calibration.footprint.points[]", footprint_point_f);
#undef K

#define K struct fp_level
static const struct rs_field footprint_level_f[] = {
	FLD("capacity_bytes", RS_U64, K, capacity_bytes, 0),
	FLD("below_ns_per_line", RS_DBL, K, below_ns, RS_NONNEG),
	FLD("above_ns_per_line", RS_DBL, K, above_ns, RS_NONNEG),
	FLD("b_over_a", RS_DBL, K, b_over_a, RS_NONNEG),
	FLD("shared", RS_BOOL, K, shared, 0),
	FLD("hint", RS_INT, K, hint, RS_NULL_NEG | RS_NONNEG),
};
TABLE(rs_footprint_level, "calibration.footprint.levels[]", footprint_level_f);
#undef K

#define K struct fp_hint
static const struct rs_field footprint_hint_f[] = {
	FLD("level", RS_INT, K, level, RS_NONNEG),
	FLD("type", RS_STR, K, type, 0),
	FLD("size_bytes", RS_U64, K, size_bytes, 0),
	FLD("source", RS_STR, K, source, 0),
	ENM("state", RS_ENUM, K, state, fp_hint_state_names, 0),
	FLD("matched_level", RS_INT, K, matched, RS_NULL_NEG | RS_NONNEG),
};
TABLE(rs_footprint_hint, "calibration.footprint.hints[]", footprint_hint_f);
#undef K

/*
 * A calibration's members, the calibration file's and the run file's calibration.measured
 * alike (docs/calibration-file.md): the first is method, the rest as tables below say.
 */
#define K struct calibration
static const struct rs_field calibration_measured_f[] = {
	FLD("method", RS_INT, K, method, 0),
	FLD("cache", RS_STR, K, cache_what, 0),
	FLD("cache_source", RS_STR, K, cache_source, 0),
	FLD("cache_bytes", RS_U64, K, cache_bytes, 0),
	FLD("buffer_bytes", RS_U64, K, buffer_bytes, 0),
	FLD("reps", RS_INT, K, reps, 0),
	PRS("hot_seed_ns", RS_DBL, K, hot_seed_ns, has_hot),
	PRS("hot_robust_ns", RS_DBL, K, hot_robust_ns, has_hot),
	FLD("wall_s", RS_DBL, K, wall_s, 0),
};
TABLE(rs_calibration_measured, "calibration.measured", calibration_measured_f);

/* What the calibration file adds at its top level. */
static const struct rs_field calib_file_f[] = {
	FLD("cache_cpu", RS_INT, K, cache_cpu, 0),
	FLD("cache_level", RS_INT, K, cache_level, RS_NULL_ZERO),
	FLD("cache_type", RS_STR, K, cache_type, RS_NULL_EMPTY),
	FLD("cache_scope", RS_STR, K, cache_scope, RS_NULL_EMPTY),
	FLD("cache_cpuid_leaf", RS_HEX32, K, cache_cpuid_leaf, RS_NULL_ZERO),
	FLD("cpu_mhz", RS_LONG, K, cpu_mhz, RS_NULL_NEG),
};
TABLE(rs_calib_file, "", calib_file_f);

static const struct rs_field calib_fills_f[] = {
	FLD("noise_mad_pct", RS_DBL, K, noise_pct, 0),
	FLD("max_over_median", RS_DBL, K, max_over_median, 0),
	FLD("disturbed_pct", RS_DBL, K, disturbed_pct, 0),
	FLD("anchor_blocks", RS_INT, K, anchor_blocks, 0),
	FLD("anchor_quantile", RS_DBL, K, anchor_quantile, 0),
	FLD("anchor_block_quantile", RS_DBL, K, anchor_block_quantile, 0),
	FLD("disturbed_above_anchor_pct", RS_INT, K, disturbed_above_anchor_pct, 0),
	PRS("hot_robust_lo_ns", RS_DBL, K, hot_robust_lo_ns, has_interval),
	PRS("hot_robust_hi_ns", RS_DBL, K, hot_robust_hi_ns, has_interval),
};
TABLE(rs_calib_fills, "fill_statistics", calib_fills_f);

static const struct rs_field calib_search_f[] = {
	FLD("factor", RS_INT, K, factor, 0),
};
TABLE(rs_calib_search, "size_search", calib_search_f);
#undef K

#define K struct calib_llc
static const struct rs_field calib_llc_f[] = {
	FLD("source", RS_STR, K, source, RS_NULL_EMPTY),
	FLD("unknown_why", RS_STR, K, why, RS_NULL_EMPTY),
};
TABLE(rs_calib_llc, "llc", calib_llc_f);
#undef K

#define K struct calib_groups
static const struct rs_field calib_groups_f[] = {
	FLD("split_ratio", RS_DBL, K, split_ratio, 0),
	PRS("agree", RS_BOOL, K, agree, compared),
};
TABLE(rs_calib_groups, "groups", calib_groups_f);
#undef K

#define K struct calib_distance
static const struct rs_field calib_distance_f[] = {
	FLD("cpu1", RS_INT, K, cpu1, RS_NULL_NEG),
	FLD("cpu2", RS_INT, K, cpu2, RS_NULL_NEG),
	FLD("size_found_bytes", RS_U64, K, size_found_bytes, 0),
	FLD("max_cost_ns", RS_S64, K, max_cost_ns, 0),
	FLD("cost_ns", RS_U64, K, cost_ns, 0),
};
TABLE(rs_calib_distance, "size_search.distances[]", calib_distance_f);
#undef K

#define K struct calib_step
static const struct rs_field calib_step_f[] = {
	FLD("size_bytes", RS_U64, K, size_bytes, 0),
	FLD("cost_ns", RS_S64, K, cost_ns, 0),
	FLD("max_cost_ns", RS_S64, K, max_cost_ns, 0),
	FLD("avg_fluct_ns", RS_S64, K, avg_fluct_ns, 0),
};
TABLE(rs_calib_step, "size_search.distances[].steps[]", calib_step_f);
#undef K

#define K struct calib_size
static const struct rs_field calib_size_f[] = {
	FLD("factor", RS_DBL, K, factor, 0),
	FLD("cache_bytes", RS_U64, K, cache_bytes, 0),
	FLD("buffer_bytes", RS_U64, K, buffer_bytes, 0),
	FLD("same_cpu_median_ns", RS_DBL, K, same_cpu_median_ns, 0),
	PRS("cross_cpu_median_ns", RS_DBL, K, cross_cpu_median_ns, has_cross),
};
TABLE(rs_calib_size, "size_sweep[]", calib_size_f);
#undef K

/* The chase (calib.h): its own members, its curves, their points. */
#define K struct calib_chase
static const struct rs_field calib_chase_f[] = {
	FLD("rounds", RS_INT, K, rounds, RS_NONNEG),
	FLD("l2_bytes", RS_U64, K, l2_bytes, 0),
	FLD("llc_bytes", RS_U64, K, llc_bytes, RS_NULL_ZERO),
	FLD("polluter_bytes", RS_U64, K, polluter_bytes, 0),
	FLD("sweep_why", RS_STR, K, sweep_why, 0),
	FLD("cold_fraction", RS_DBL, K, cold_fraction, RS_NONNEG),
	FLD("residual_share", RS_DBL, K, residual_share, RS_NONNEG),
	FLD("tries", RS_INT, K, tries, RS_NONNEG),
	FLD("trials", RS_INT, K, trials, RS_NONNEG),
	FLD("redone", RS_INT, K, redone, RS_NONNEG),
	FLD("switched", RS_INT, K, switched, RS_NONNEG),
	FLD("wall_s", RS_DBL, K, wall_s, RS_NONNEG),
};
TABLE(rs_calib_chase, "chase", calib_chase_f);
#undef K

#define K struct chase_curve
static const struct rs_field calib_chase_curve_f[] = {
	FLD("src_cpu", RS_INT, K, src_cpu, RS_NONNEG),
	FLD("dst_cpu", RS_INT, K, dst_cpu, RS_NONNEG),
	FLD("distance", RS_INT, K, distance, RS_NONNEG),
	FLD("ws_bytes", RS_U64, K, ws_bytes, 0),
	FLD("chains", RS_INT, K, chains, RS_NONNEG),
	FLD("max_ns_per_line", RS_DBL, K, max_ns, 0),
	FLD("residual_ns_per_line", RS_DBL, K, residual_ns, 0),
	{ .name = "dstar_state", .type = RS_ENUM, .off = offsetof(K, state),
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4 },
	FLD("dstar_bytes", RS_DBL, K, dstar_bytes, RS_NONNEG),
	FLD("dstar_lo_bytes", RS_DBL, K, dstar_lo_bytes, RS_NONNEG),
	FLD("dstar_hi_bytes", RS_DBL, K, dstar_hi_bytes, RS_NONNEG),
};
TABLE(rs_calib_chase_curve, "chase.curves[]", calib_chase_curve_f);
#undef K

#define K struct chase_point
static const struct rs_field calib_chase_point_f[] = {
	FLD("displaced_bytes", RS_U64, K, displaced_bytes, 0),
	FLD("cross_ns_per_line", RS_DBL, K, cross_ns, RS_NONNEG),
	FLD("same_ns_per_line", RS_DBL, K, same_ns, RS_NONNEG),
	FLD("cost_ns_per_line", RS_DBL, K, cost_ns, 0),
	FLD("fit_ns_per_line", RS_DBL, K, fit_ns, 0),
};
TABLE(rs_calib_chase_point, "chase.curves[].points[]", calib_chase_point_f);
#undef K

/* A cell: the run file's members; a calibration file adds the 2004 extras, or has the 2005
 * ones instead (that method times no cell). */
#define X struct calib_cell
static const struct rs_field calib_cell_f[] = {
	FLD("src_cpu", RS_INT, X, src_cpu, 0),
	FLD("dst_cpu", RS_INT, X, dst_cpu, 0),
	FLD("fill_median_ns", RS_DBL, X, fill_median_ns, 0),
	FLD("fill_mad_ns", RS_DBL, X, fill_mad_ns, 0),
	FLD("fill_undisturbed_median_ns", RS_DBL, X, fill_undisturbed_ns, 0),
	FLD("fills_undisturbed", RS_INT, X, fills_undisturbed, 0),
	FLD("fill_min_ns", RS_U64, X, fill_min_ns, 0),
	FLD("fill_max_ns", RS_U64, X, fill_max_ns, 0),
	FLD("cost_ns", RS_U64, X, cost_ns, 0),
	FLD("robust_ns", RS_U64, X, robust_ns, 0),
};
TABLE(rs_calib_cell, "calibration.measured.cells[]", calib_cell_f);

static const struct rs_field calib_cell_2004_f[] = {
	FLD("fill_anchor_ns", RS_DBL, X, fill_anchor_ns, 0),
	FLD("distance", RS_INT, X, distance, 0),
};
TABLE(rs_calib_cell_2004, "cells[]", calib_cell_2004_f);

static const struct rs_field calib_cell_2005_f[] = {
	FLD("src_cpu", RS_INT, X, src_cpu, 0),
	FLD("dst_cpu", RS_INT, X, dst_cpu, 0),
	FLD("distance", RS_INT, X, distance, 0),
	FLD("cost_ns", RS_U64, X, cost_ns, 0),
};
TABLE(rs_calib_cell_2005, "cells[]", calib_cell_2005_f);
#undef X

#define M struct run_meta
static const struct rs_field meta_f[] = {
	FLD("command", RS_STR, M, command, 0),
	FLD("pid", RS_INT, M, pid, RS_NONNEG),
	FLD("attached", RS_BOOL, M, attached, 0),
	FLD("hot_ns", RS_S64, M, hot_ns, 0),
	FLD("hot_source", RS_STR, M, hot_source, 0),
	FLD("ringbuf_bytes", RS_U64, M, ringbuf_bytes, 0),
	FLD("unit", RS_STR, M, unit_spec, RS_NULL_EMPTY),
	FLD("unit_probe_cost_ns", RS_DBL, M, unit_probe_ns, RS_NULL_NEG | RS_OPTIONAL),
	FLD("nr_cpus", RS_INT, M, nr_cpus, 0),
	FLD("start_time", RS_STR, M, start_time, RS_NULL_EMPTY),
	FLD("duration_s", RS_DBL, M, duration_s, RS_NONNEG),
	FLD("traced_from_ns", RS_S64, M, traced_from_ns, RS_NULL_NEG | RS_OPTIONAL),
	FLD("traced_until_ns", RS_S64, M, traced_until_ns, RS_NULL_NEG | RS_OPTIONAL),
	FLD("exit_status", RS_INT, M, exit_status, 0),
	FLD("end_reason", RS_STR, M, end_reason, 0),
	FLD("interrupted", RS_BOOL, M, interrupted, 0),
	FLD("wakeup_latency_from", RS_STR, M, wakeup_latency_from, RS_NULL_EMPTY | RS_OPTIONAL),
};
TABLE(rs_meta, "meta", meta_f);

/* migtrace.run/3, optional: written when the run says which tracer recorded it */
static const struct rs_field backend_f[] = {
	FLD("name", RS_STR, M, backend.name, 0),
	FLD("why", RS_STR, M, backend.why, RS_NULL_EMPTY),
	FLD("replayed", RS_BOOL, M, backend.replayed, 0),
	PRS("events", RS_U64, M, backend.events, backend.replayed),
	PRS("out_of_order", RS_U64, M, backend.out_of_order, backend.replayed),
	PRS("lost_events", RS_U64, M, backend.lost_events, backend.replayed),
	PRS("stopper_moves", RS_U64, M, backend.stopper_moves, backend.replayed),
	PRS("unknown_age", RS_U64, M, backend.unknown_age, backend.replayed),
	PRS("missing_events", RS_STR, M, backend.missing, backend.replayed),
	PRS("not_read", RS_STR, M, backend.not_read, backend.replayed),
	FLD("source", RS_STR, M, backend.source, RS_NULL_EMPTY),
};
TABLE(rs_backend, "meta.backend", backend_f);
#undef M

#define R struct run
static const struct rs_field stats_f[] = {
	FLD("migrations", RS_U64, R, sum.migrations, 0),
	FLD("same_cpu_events", RS_U64, R, stats.same_cpu, 0),
	FLD("records", RS_U64, R, stats.rb_records, 0),
	FLD("records_lost", RS_U64, R, stats.rb_dropped, 0),
	FLD("records_not_kept", RS_U64, R, recs_not_kept, 0),
	FLD("lb_judged", RS_U64, R, stats.lb_judged, 0),
	FLD("lb_hot", RS_U64, R, stats.lb_hot, 0),
	FLD("switches_in", RS_U64, R, stats.switches_in, 0),
	FLD("traced_tasks", RS_U64, R, stats.tracked_tasks, 0),
	FLD("units", RS_U64, R, stats.units, 0),
	FLD("units_lost", RS_U64, R, stats.units_dropped, 0),
	FLD("units_not_kept", RS_U64, R, units_not_kept, 0),
	FLD("offcpu_records", RS_U64, R, stats.offcpu_records, RS_OPTIONAL),
	FLD("offcpu_records_lost", RS_U64, R, stats.offcpu_dropped, RS_OPTIONAL),
	/* from 0.2: switch records (run --perfetto) */
	FLD("switch_records", RS_U64, R, stats.switch_records, RS_OPTIONAL),
	FLD("switch_records_lost", RS_U64, R, stats.switch_dropped, RS_OPTIONAL),
	FLD("waking_records", RS_U64, R, stats.waking_records, RS_OPTIONAL),
	FLD("waking_records_lost", RS_U64, R, stats.waking_dropped, RS_OPTIONAL),
	FLD("wakeup_records", RS_U64, R, sum.wakeup_records, 0),
	FLD("wakeup_hot", RS_U64, R, sum.wakeup_hot, 0),
};
TABLE(rs_stats, "stats", stats_f);

static const struct rs_field completeness_f[] = {
	FLD("kernel_counted", RS_U64, R, stats.kernel_migrations, 0),
	FLD("seen", RS_U64, R, sum.kernel_counted, 0),
	FLD("unseen_found", RS_U64, R, stats.migrations[MT_CAUSE_UNSEEN], 0),
	FLD("difference", RS_S64, R, sum.completeness_gap, 0),
	FLD("storage_busy_events", RS_U64, R, stats.storage_busy, 0),
	FLD("switch_ins_untraced", RS_U64, R, stats.switch_ins_untraced, RS_OPTIONAL),
};
TABLE(rs_completeness, "stats.completeness", completeness_f);
#undef R

#define T struct run_cost
static const struct rs_field cost_f[] = {
	FLD("self_user_s", RS_DBL, T, self_user_s, RS_NONNEG),
	FLD("self_sys_s", RS_DBL, T, self_sys_s, RS_NONNEG),
	FLD("self_startup_s", RS_DBL, T, self_startup_s, RS_NONNEG),
	FLD("self_max_rss_kib", RS_LONG, T, self_max_rss_kib, 0),
	FLD("workload_cpu_s", RS_DBL, T, workload_cpu_s, RS_NULL_NEG),
	FLD("bpf_stats_enabled", RS_BOOL, T, bpf_stats, 0),
};
TABLE(rs_cost, "cost", cost_f);
#undef T

/* A curve's fall (struct corr_fall), flattened under a prefix. */
#define FALL(prefix, S, m, unit, fl) \
	{ .name = prefix "_state", .type = RS_ENUM, .off = offsetof(S, m.state), \
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4, .flags = fl }, \
	FLD(prefix unit, RS_DBL, S, m.at, fl), \
	FLD(prefix "_lo" unit, RS_DBL, S, m.lo, fl), \
	FLD(prefix "_hi" unit, RS_DBL, S, m.hi, fl), \
	FLD(prefix "_max_cost_ns", RS_DBL, S, m.max_cost_ns, fl), \
	FLD(prefix "_min_cost_ns", RS_DBL, S, m.min_cost_ns, fl)

#define Q struct corr_result
static const struct rs_field correlation_f[] = {
	ENM("mode", RS_ENUM, Q, mode, mode_names, 0),
	FLD("cold_fraction", RS_DBL, Q, cold_fraction, RS_NONNEG),
	FLD("baseline_unit_ns", RS_DBL, Q, baseline_ns, RS_NONNEG),
	FLD("threads", RS_SIZE, Q, n_threads, 0),
	FLD("units", RS_SIZE, Q, n_units, 0),
	FLD("warm_units", RS_SIZE, Q, n_baseline, 0),
	FLD("migrated_units", RS_SIZE, Q, n_mig_events, 0),
	FLD("stayed_units", RS_SIZE, Q, n_stay_events, 0),
	FLD("spanning_units_left_out", RS_SIZE, Q, n_spanning, 0),
	FLD("unseen_migrations", RS_SIZE, Q, n_unseen, 0),
	FLD("max_cost_ns", RS_DBL, Q, max_cost_ns, 0),
	FLD("max_cell", RS_INT, Q, max_cell, 0),
	{ .name = "hot_state", .type = RS_ENUM, .off = offsetof(Q, hot_state),
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4 },
	FLD("observed_hot_ns", RS_DBL, Q, hot_ns, RS_NONNEG),
	FLD("observed_hot_lo_ns", RS_DBL, Q, hot_lo_ns, RS_NONNEG),
	FLD("observed_hot_hi_ns", RS_DBL, Q, hot_hi_ns, RS_NONNEG),
	FLD("lost_ns", RS_DBL, Q, lost_ns, 0),
	FLD("cost_fraction_of_slice", RS_DBL, Q, cost_frac_slice, 0),
	/* migtrace.run/3 */
	FLD("other_units", RS_SIZE, Q, n_other_events, RS_OPTIONAL),
	FLD("kernel_aged_pulls", RS_SIZE, Q, n_kernel_aged, RS_OPTIONAL),
	FLD("bias_cells", RS_INT, Q, bias_cells, RS_OPTIONAL),
	FLD("bias_other_cells", RS_INT, Q, bias_other_cells, RS_OPTIONAL),
	FLD("bootstrap_resamples", RS_INT, Q, bootstrap, RS_OPTIONAL),
	FLD("bootstrap_blocks", RS_INT, Q, blocks, RS_OPTIONAL),
	ENM("axis", RS_ENUM, Q, axis, axis_names, RS_OPTIONAL),
	FLD("polluter_footprint_bytes", RS_DBL, Q, footprint_bytes, RS_OPTIONAL),
	FLD("working_set_bytes", RS_DBL, Q, ws_bytes, RS_OPTIONAL),
	FALL("dstar", Q, dstar, "_bytes", RS_OPTIONAL),
	FLD("rates_found", RS_INT, Q, rates_found, RS_OPTIONAL),
	FLD("rates_agree", RS_BOOL, Q, rates_agree, RS_OPTIONAL),
	FLD("capped_cells", RS_INT, Q, capped_cells, RS_OPTIONAL),
	FALL("capped_hot", Q, capped, "_ns", RS_OPTIONAL),
	FLD("floor_ns", RS_DBL, Q, floor_ns, RS_OPTIONAL),
	FALL("stay_decay", Q, stay_decay, "_ns", RS_OPTIONAL),
	ENM("regime", RS_ENUM, Q, regime, regime_names, RS_OPTIONAL),
	FLD("refill_line_ns", RS_DBL, Q, refill_line_ns, RS_OPTIONAL),
	FLD("stay_line_ns", RS_DBL, Q, stay_line_ns, RS_OPTIONAL),
	FLD("corunner_wakes", RS_SIZE, Q, corunner_wakes, RS_OPTIONAL),
	FLD("corunner_mbps", RS_DBL, Q, corunner_mbps, RS_OPTIONAL),
	FLD("corunner_lo_mbps", RS_DBL, Q, corunner_lo_mbps, RS_OPTIONAL),
	FLD("corunner_hi_mbps", RS_DBL, Q, corunner_hi_mbps, RS_OPTIONAL),
	FLD("level", RS_DBL, Q, level, RS_OPTIONAL | RS_NONNEG),
};
TABLE(rs_correlation, "correlation", correlation_f);
#undef Q

#define L struct corr_cell
static const struct rs_field cell_f[] = {
	FLD("age_ns", RS_DBL, L, age_ns, RS_NONNEG),
	FLD("age_hi_ns", RS_DBL, L, age_hi_ns, RS_NONNEG),
	FLD("age_median_ns", RS_DBL, L, age_median_ns, RS_NONNEG),
	FLD("n_migrated", RS_SIZE, L, n_mig, 0),
	FLD("n_stayed", RS_SIZE, L, n_stay, 0),
	FLD("penalty_migrated_ns", RS_DBL, L, pen_mig_ns, 0),
	FLD("penalty_stayed_ns", RS_DBL, L, pen_stay_ns, 0),
	FLD("migration_cost_ns", RS_DBL, L, cost_ns, 0),
	FLD("migration_cost_lo_ns", RS_DBL, L, cost_lo_ns, 0),
	FLD("migration_cost_hi_ns", RS_DBL, L, cost_hi_ns, 0),
	FLD("unit_ns", RS_DBL, L, unit_ns, RS_NONNEG),
	/* migtrace.run/3 */
	FLD("fit_cost_ns", RS_DBL, L, fit_cost_ns, RS_OPTIONAL),
	FLD("rate_mbps", RS_DBL, L, rate_mbps, RS_OPTIONAL),
	FLD("achieved_mbps", RS_DBL, L, achieved_mbps, RS_OPTIONAL),
	FLD("displaced_bytes", RS_DBL, L, displaced_bytes, RS_OPTIONAL),
	FLD("n_other", RS_SIZE, L, n_other, RS_OPTIONAL),
	FLD("penalty_other_ns", RS_DBL, L, pen_other_ns, RS_OPTIONAL),
	FLD("cost_other_ns", RS_DBL, L, cost_other_ns, RS_OPTIONAL),
	FLD("cost_other_lo_ns", RS_DBL, L, cost_other_lo_ns, RS_OPTIONAL),
	FLD("cost_other_hi_ns", RS_DBL, L, cost_other_hi_ns, RS_OPTIONAL),
	FLD("wait_avoided_ns", RS_DBL, L, wait_avoided_ns, RS_OPTIONAL),
	FLD("gain_ns", RS_DBL, L, gain_ns, RS_OPTIONAL),
	FLD("gain_lo_ns", RS_DBL, L, gain_lo_ns, RS_OPTIONAL),
	FLD("gain_hi_ns", RS_DBL, L, gain_hi_ns, RS_OPTIONAL),
};
TABLE(rs_cell, "correlation.cells[]", cell_f);

#define T struct corr_rate
static const struct rs_field corr_rate_f[] = {
	FLD("rate_mbps", RS_DBL, T, rate_mbps, 0),
	FLD("achieved_mbps", RS_DBL, T, achieved_mbps, 0),
	FLD("cells", RS_INT, T, ncells, 0),
	FALL("dstar", T, dstar, "_bytes", 0),
	FALL("hot", T, hot, "_ns", 0),
};
TABLE(rs_corr_rate, "correlation.rates[]", corr_rate_f);
#undef T
#undef L

#define V struct verdict
static const struct rs_field verdict_f[] = {
	ENM("verdict", RS_ENUM, V, kind, verdict_names, 0),
	FLD("kernel_ns", RS_DBL, V, kernel_ns, 0),
	FLD("observed_hot_ns", RS_DBL, V, hot_ns, RS_NONNEG),
	FLD("observed_hot_lo_ns", RS_DBL, V, hot_lo_ns, RS_NONNEG),
	FLD("observed_hot_hi_ns", RS_DBL, V, hot_hi_ns, RS_NONNEG),
	FLD("factor", RS_DBL, V, factor, 0),
	FLD("factor_is_bound", RS_BOOL, V, factor_is_bound, 0),
	FLD("band_lo_ns", RS_DBL, V, band_lo_ns, 0),
	FLD("band_hi_ns", RS_DBL, V, band_hi_ns, 0),
	FLD("band_cells", RS_INT, V, band_cells, RS_NONNEG),
	FLD("band_cost_ns", RS_DBL, V, band_cost_ns, 0),
	FLD("band_cost_share", RS_DBL, V, band_cost_share, 0),
	FLD("unit_ns", RS_DBL, V, unit_ns, RS_NONNEG),
	FLD("max_cost_ns", RS_DBL, V, max_cost_ns, 0),
	FLD("cold_fraction", RS_DBL, V, cold_fraction, RS_NONNEG),
	PRS("run_migrations", RS_U64, V, run_migrations, has_run_share),
	PRS("band_migrations", RS_U64, V, band_migrations, has_run_share),
	PRS("calibrated_ns", RS_DBL, V, calib_ns, has_calib),
	FLD("calibrated_over_observed", RS_DBL, V, calib_over_observed, 0),
	/* migtrace.run/3 */
	FLD("factor_lo", RS_DBL, V, factor_lo, RS_OPTIONAL),
	FLD("factor_hi", RS_DBL, V, factor_hi, RS_OPTIONAL),
	FLD("dstar_bytes", RS_DBL, V, dstar_bytes, RS_OPTIONAL),
	FLD("dstar_lo_bytes", RS_DBL, V, dstar_lo_bytes, RS_OPTIONAL),
	FLD("dstar_hi_bytes", RS_DBL, V, dstar_hi_bytes, RS_OPTIONAL),
	FLD("fit_rate_mbps", RS_DBL, V, fit_rate_mbps, RS_OPTIONAL),
	FLD("fit_rate_lo_mbps", RS_DBL, V, fit_rate_lo_mbps, RS_OPTIONAL),
	FLD("fit_rate_hi_mbps", RS_DBL, V, fit_rate_hi_mbps, RS_OPTIONAL),
	FLD("judged_pulls", RS_U64, V, judged, RS_OPTIONAL),
	FLD("min_judged_pulls", RS_U64, V, min_judged, RS_OPTIONAL),
	FLD("bias", RS_BOOL, V, bias, RS_OPTIONAL),
	{ .name = "tstar_state", .type = RS_ENUM, .off = offsetof(V, tstar_state),
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4,
	  .flags = RS_OPTIONAL },
	FLD("tstar_ns", RS_DBL, V, tstar_ns, RS_OPTIONAL),
	FLD("tstar_lo_ns", RS_DBL, V, tstar_lo_ns, RS_OPTIONAL),
	FLD("tstar_hi_ns", RS_DBL, V, tstar_hi_ns, RS_OPTIONAL),
	FLD("wait_at_kernel_ns", RS_DBL, V, wait_at_kernel_ns, RS_OPTIONAL),
	FLD("refill_at_kernel_ns", RS_DBL, V, refill_at_kernel_ns, RS_OPTIONAL),
	ENM("decay_verdict", RS_ENUM, V, decay_kind, verdict_names, RS_OPTIONAL),
	FLD("decay_factor", RS_DBL, V, decay_factor, RS_OPTIONAL),
	FLD("decay_factor_lo", RS_DBL, V, decay_factor_lo, RS_OPTIONAL),
	FLD("decay_factor_hi", RS_DBL, V, decay_factor_hi, RS_OPTIONAL),
};
TABLE(rs_verdict, "verdict", verdict_f);
#undef V

#define V struct verdict_rate
static const struct rs_field verdict_rate_f[] = {
	FLD("rate_mbps", RS_DBL, V, rate_mbps, 0),
	FLD("achieved_mbps", RS_DBL, V, achieved_mbps, 0),
	ENM("verdict", RS_ENUM, V, kind, verdict_names, 0),
	FLD("hot_ns", RS_DBL, V, hot_ns, 0),
	FLD("hot_lo_ns", RS_DBL, V, hot_lo_ns, 0),
	FLD("hot_hi_ns", RS_DBL, V, hot_hi_ns, 0),
	FLD("factor", RS_DBL, V, factor, 0),
	FLD("factor_lo", RS_DBL, V, factor_lo, 0),
	FLD("factor_hi", RS_DBL, V, factor_hi, 0),
};
TABLE(rs_verdict_rate, "verdict.rates[]", verdict_rate_f);
#undef V

/* migtrace.run/3, optional: a grid of two rates or more, from the run that tested it */
#define M struct verdict_model
static const struct rs_field verdict_model_f[] = {
	ENM("regime", RS_ENUM, M, regime, model_regime_names, 0),
	FLD("rates", RS_INT, M, rates, RS_NONNEG),
	FLD("dstar_bounded_rates", RS_INT, M, dstar.bounded, RS_NONNEG),
	FLD("dstar_agree", RS_BOOL, M, dstar.agree, 0),
	FLD("dstar_common_lo_bytes", RS_DBL, M, dstar.common_lo, 0),
	FLD("dstar_common_hi_bytes", RS_DBL, M, dstar.common_hi, 0),
	FLD("dstar_min_bytes", RS_DBL, M, dstar.min, 0),
	FLD("dstar_max_bytes", RS_DBL, M, dstar.max, 0),
	FLD("hot_bounded_rates", RS_INT, M, hot.bounded, RS_NONNEG),
	FLD("hot_agree", RS_BOOL, M, hot.agree, 0),
	FLD("hot_common_lo_ns", RS_DBL, M, hot.common_lo, 0),
	FLD("hot_common_hi_ns", RS_DBL, M, hot.common_hi, 0),
	FLD("hot_min_ns", RS_DBL, M, hot.min, 0),
	FLD("hot_max_ns", RS_DBL, M, hot.max, 0),
	FLD("pooled_rates", RS_INT, M, pooled_rates, RS_NONNEG),
	FLD("pooled_hot_ns", RS_DBL, M, pooled_hot_ns, 0),
	FLD("pooled_hot_lo_ns", RS_DBL, M, pooled_hot_lo_ns, 0),
	FLD("pooled_hot_hi_ns", RS_DBL, M, pooled_hot_hi_ns, 0),
};
TABLE(rs_verdict_model, "verdict.model", verdict_model_f);
#undef M

/* migtrace.run/3, optional: a sequential experiment's looks (validate --budget) */
static const char *const seq_end_names[SEQ_NR_ENDS] = {
	"none", "decided", "budget", "looks", "rounds",
};
#define N struct run_sequence
static const struct rs_field sequence_f[] = {
	FLD("rounds", RS_U32, N, rounds, 0),
	ENM("ended_by", RS_ENUM, N, end, seq_end_names, 0),
};
TABLE(rs_sequence, "verdict.sequence", sequence_f);
#undef N

#define L struct seq_look
static const struct rs_field seq_look_f[] = {
	FLD("rounds", RS_U32, L, rounds, 0),
	FLD("at_s", RS_DBL, L, at_s, RS_NONNEG),
	FLD("judge_s", RS_DBL, L, judge_s, RS_NONNEG),
	ENM("verdict", RS_ENUM, L, kind, verdict_names, 0),
	FLD("span", RS_DBL, L, span, 0),
};
TABLE(rs_seq_look, "verdict.sequence.looks[]", seq_look_f);
#undef L

#define G struct mt_migrate
static const struct rs_field migration_f[] = {
	FLD("ts_ns", RS_U64, G, ts_ns, 0),
	FLD("pid", RS_U32, G, pid, 0),
	FLD("tgid", RS_U32, G, tgid, 0),
	FLD("comm", RS_BYTES, G, comm, 0),
	FLD("src_cpu", RS_U16, G, src_cpu, 0),
	FLD("dst_cpu", RS_U16, G, dst_cpu, 0),
	ENM("cause", RS_ENUM_U8, G, cause, mt_cause_names, 0),
	ENM("state", RS_ENUM_U8, G, state, mt_state_names, 0),
	FLD("on_rq", RS_U8, G, on_rq, 0),
	FLD("flags", RS_U32, G, flags, 0),
	FLD("age_ns", RS_U64, G, age_ns, 0),
	FLD("off_cpu_ns", RS_U64, G, off_cpu_ns, 0),
	FLD("kernel_age_ns", RS_S64, G, kernel_age_ns, RS_KAGE | RS_NULL_NEG),
	FLD("runtime_since_migration_ns", RS_U64, G, runtime_since_mig_ns, 0),
	FLD("by_pid", RS_U32, G, cur_pid, 0),
	FLD("by_comm", RS_BYTES, G, cur_comm, 0),
	/* migtrace.run/3 */
	FLD("wait_ns", RS_U64, G, wait_ns, RS_OPTIONAL | RS_WAIT),
	/* migtrace.run/3, with the levels section: unknown in older files */
	ENM("level", RS_ENUM_U8, G, level, mt_level_names, RS_OPTIONAL),
	/* migtrace.run/3, from 0.2: cache-aware scheduling's preference (null: not read) */
	FLD("preferred_llc", RS_INT, G, pref_llc, RS_OPTIONAL | RS_PREF_LLC | RS_NULL_NEG),
};
TABLE(rs_migration, "migrations[]", migration_f);
#undef G

#define U struct mt_unit
static const struct rs_field unit_f[] = {
	FLD("pid", RS_U32, U, pid, 0),
	FLD("tgid", RS_U32, U, tgid, 0),
	FLD("cpu_start", RS_U16, U, cpu_start, 0),
	FLD("cpu_end", RS_U16, U, cpu_end, 0),
	FLD("start_ns", RS_U64, U, start_ns, 0),
	FLD("end_ns", RS_U64, U, end_ns, 0),
	FLD("prev_end_ns", RS_U64, U, prev_end_ns, 0),
	FLD("tag", RS_U64, U, tag, 0),
	FLD("nominal_age_ns", RS_U64, U, nominal_age_ns, 0),
	FLD("migs_before", RS_U32, U, migs_before, 0),
	FLD("switches_before", RS_U32, U, switches_before, 0),
	FLD("migs_during", RS_U32, U, migs_during, 0),
	FLD("switches_during", RS_U32, U, switches_during, 0),
	FLD("last_off_ns", RS_U64, U, last_off_ns, 0),
	FLD("mig_age_ns", RS_U64, U, mig_age_ns, RS_IF_MIG),
	FLD("mig_ts_ns", RS_U64, U, mig_ts_ns, RS_IF_MIG),
	FLD("mig_src_cpu", RS_U16, U, mig_src_cpu, RS_IF_MIG),
	FLD("mig_dst_cpu", RS_U16, U, mig_dst_cpu, RS_IF_MIG),
	ENM("mig_cause", RS_ENUM_U8, U, mig_cause, mt_cause_names, RS_IF_MIG),
	/* migtrace.run/3: the controlled experiment's trial (0 for other units) */
	FLD("streamed_bytes", RS_U64, U, streamed_bytes, RS_OPTIONAL),
	FLD("round", RS_U32, U, round, RS_OPTIONAL),
	FLD("rate_mbps", RS_U32, U, rate_mbps, RS_OPTIONAL),
};
TABLE(rs_unit, "units[]", unit_f);
#undef U

/* from 0.2, run --perfetto: the switches with a traced task on a side */
#define W struct mt_switch
static const struct rs_field switch_f[] = {
	FLD("ts_ns", RS_U64, W, ts_ns, 0),
	FLD("cpu", RS_U16, W, cpu, 0),
	FLD("prev_pid", RS_U32, W, prev_pid, 0),
	FLD("prev_tgid", RS_U32, W, prev_tgid, 0),
	FLD("prev_comm", RS_BYTES, W, prev_comm, 0),
	FLD("prev_prio", RS_INT, W, prev_prio, 0),
	FLD("prev_state", RS_S64, W, prev_state, 0),
	FLD("preempted", RS_U8, W, preempted, 0),
	FLD("next_pid", RS_U32, W, next_pid, 0),
	FLD("next_tgid", RS_U32, W, next_tgid, 0),
	FLD("next_comm", RS_BYTES, W, next_comm, 0),
	FLD("next_prio", RS_INT, W, next_prio, 0),
};
TABLE(rs_switch, "switches[]", switch_f);
#undef W

/* from 0.2, run --perfetto: the traced tasks' wakings */
#define K struct mt_waking
static const struct rs_field waking_f[] = {
	FLD("ts_ns", RS_U64, K, ts_ns, 0),
	FLD("cpu", RS_U16, K, cpu, 0),
	FLD("pid", RS_U32, K, pid, 0),
	FLD("tgid", RS_U32, K, tgid, 0),
	FLD("comm", RS_BYTES, K, comm, 0),
	FLD("prio", RS_INT, K, prio, 0),
	FLD("target_cpu", RS_INT, K, target_cpu, 0),
};
TABLE(rs_waking, "wakings[]", waking_f);
#undef K

#define LC struct run_level_cost
static const struct rs_field level_cost_f[] = {
	FLD("pulls", RS_U64, LC, pulls, 0),
	FLD("judged_pulls", RS_U64, LC, judged, 0),
	FLD("min_judged_pulls", RS_U64, LC, min_judged, 0),
	ENM("verdict", RS_ENUM, LC, kind, verdict_names, 0),
	FLD("bias", RS_BOOL, LC, bias, 0),
	{ .name = "hot_state", .type = RS_ENUM, .off = offsetof(LC, hot_state),
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4 },
	FLD("observed_hot_ns", RS_DBL, LC, hot_ns, RS_NONNEG),
	FLD("factor", RS_DBL, LC, factor, RS_NONNEG),
	FLD("factor_lo", RS_DBL, LC, factor_lo, RS_NONNEG),
	FLD("factor_hi", RS_DBL, LC, factor_hi, RS_NONNEG),
	FLD("factor_is_bound", RS_BOOL, LC, factor_is_bound, 0),
	FLD("cells", RS_INT, LC, cells, RS_NONNEG),
	FLD("age_ns", RS_DBL, LC, age_ns, RS_NONNEG),
	FLD("age_hi_ns", RS_DBL, LC, age_hi_ns, RS_NONNEG),
	FLD("cell_pulls", RS_U64, LC, cell_pulls, 0),
	FLD("migration_cost_ns", RS_DBL, LC, cost_ns, 0),
	FLD("migration_cost_lo_ns", RS_DBL, LC, cost_lo_ns, 0),
	FLD("migration_cost_hi_ns", RS_DBL, LC, cost_hi_ns, 0),
	{ .name = "tstar_state", .type = RS_ENUM, .off = offsetof(LC, tstar_state),
	  .size = sizeof(enum corr_hot_state), .names = corr_hot_state_names, .nnames = 4,
	  .flags = RS_OPTIONAL },
	FLD("tstar_ns", RS_DBL, LC, tstar_ns, RS_OPTIONAL | RS_NONNEG),
	FLD("tstar_lo_ns", RS_DBL, LC, tstar_lo_ns, RS_OPTIONAL | RS_NONNEG),
	FLD("tstar_hi_ns", RS_DBL, LC, tstar_hi_ns, RS_OPTIONAL | RS_NONNEG),
};
TABLE(rs_level_cost, "levels.cost[]", level_cost_f);
#undef LC

/* from 0.2, run --probe-moves: what was asked, and the mover's counts */
#define PB struct probe_setup
static const struct rs_field probe_f[] = {
	FLD("rate_hz", RS_DBL, PB, rate_hz, RS_NONNEG),
	FLD("max_share", RS_DBL, PB, max_share, RS_NONNEG),
	FLD("seed", RS_U64, PB, seed, 0),
	FLD("by_runs", RS_BOOL, PB, by_runs, 0),
	FLD("drawn", RS_U64, PB, drawn, 0),
	FLD("moves", RS_U64, PB, moves, 0),
	FLD("shams", RS_U64, PB, shams, 0),
	FLD("skipped_awake", RS_U64, PB, skipped_awake, 0),
	FLD("skipped_narrowed", RS_U64, PB, skipped_narrowed, 0),
	FLD("skipped_budget", RS_U64, PB, skipped_budget, 0),
	FLD("skipped_one_cpu", RS_U64, PB, skipped_one_cpu, 0),
	FLD("masks_narrowed", RS_U64, PB, masks_narrowed, 0),
	FLD("masks_restored", RS_U64, PB, masks_restored, 0),
	FLD("masks_workload_set", RS_U64, PB, masks_workload_set, 0),
	FLD("masks_inherited", RS_U64, PB, masks_inherited, 0),
	FLD("workload_cpu_s", RS_DBL, PB, workload_cpu_s, RS_NULL_NEG),
};
TABLE(rs_probe, "probes", probe_f);
#undef PB

#define PM struct probe_moment
static const struct rs_field probe_moment_f[] = {
	FLD("ts_ns", RS_U64, PM, ts_ns, 0),
	FLD("tid", RS_U32, PM, tid, 0),
	FLD("tgid", RS_U32, PM, tgid, 0),
	ENM("kind", RS_ENUM_U8, PM, kind, probe_kind_names, 0),
	ENM("outcome", RS_ENUM_U8, PM, outcome, probe_outcome_names, 0),
	FLD("src_cpu", RS_INT, PM, src_cpu, 0),
	FLD("dst_cpu", RS_INT, PM, dst_cpu, RS_NULL_NEG),
	FLD("held_ns", RS_U64, PM, held_ns, 0),
};
TABLE(rs_probe_moment, "probes.moments[]", probe_moment_f);
#undef PM

/* what the judge found: written for readers of the file, judged again when it is read */
#define PR struct probe_result
static const struct rs_field probe_result_f[] = {
	FLD("timed_moves", RS_U64, PR, timed_moves, 0),
	FLD("timed_shams", RS_U64, PR, timed_shams, 0),
	FLD("left_awake", RS_U64, PR, awake, 0),
	FLD("left_not_run", RS_U64, PR, unseen, 0),
	FLD("left_kernel_moved", RS_U64, PR, kernel_moved, 0),
	FLD("left_late", RS_U64, PR, late, 0),
	FLD("sham_moved", RS_U64, PR, sham_moved, 0),
	FLD("left_spanning", RS_U64, PR, spanning, 0),
	FLD("left_no_unit", RS_U64, PR, no_unit, 0),
	FLD("cost_share", RS_DBL, PR, cost_share, RS_NONNEG),
};
TABLE(rs_probe_result, "probes.result", probe_result_f);
#undef PR

const struct rs_table *const rs_all_tables[] = {
	&rs_environment, &rs_tunable, &rs_sched_rules, &rs_cache, &rs_config, &rs_cachewalk,
	&rs_calibration, &rs_calibration_measured, &rs_calib_cell, &rs_footprint,
	&rs_footprint_point, &rs_footprint_level, &rs_footprint_hint, &rs_meta, &rs_backend,
	&rs_stats, &rs_completeness, &rs_cost, &rs_correlation, &rs_cell, &rs_corr_rate, &rs_verdict,
	&rs_verdict_rate, &rs_verdict_model, &rs_migration, &rs_unit, &rs_level_cost, &rs_switch,
	&rs_waking, &rs_probe, &rs_probe_moment, &rs_probe_result,
};
const int rs_ntables = (int)(sizeof(rs_all_tables) / sizeof(rs_all_tables[0]));
const struct rs_table *const rs_calib_file_tables[] = {
	&rs_calib_file, &rs_tunable, &rs_calib_llc, &rs_calib_fills, &rs_calib_groups,
	&rs_calib_search, &rs_calib_distance, &rs_calib_step, &rs_calib_size, &rs_calib_cell_2004,
	&rs_calib_cell_2005, &rs_calib_chase, &rs_calib_chase_curve, &rs_calib_chase_point,
};
const int rs_calib_file_ntables =
	(int)(sizeof(rs_calib_file_tables) / sizeof(rs_calib_file_tables[0]));

/* The value of an integer member, widened. */
static int64_t get_int(const void *p, enum rs_type t)
{
	switch (t) {
	case RS_S64:
		return *(const int64_t *)p;
	case RS_U32:
	case RS_HEX32:
		return *(const uint32_t *)p;
	case RS_INT:
	case RS_ENUM:
		return *(const int *)p;
	case RS_LONG:
		return *(const long *)p;
	case RS_U16:
		return *(const uint16_t *)p;
	case RS_U8:
	case RS_ENUM_U8:
		return *(const uint8_t *)p;
	default:
		return 0;
	}
}

/* RS_PRESENT's member: a bool or a count, there when not 0. */
static bool present(const void *base, const struct rs_field *f)
{
	const char *p = (const char *)base + f->present_off;

	for (size_t i = 0; i < f->present_size; i++)
		if (p[i])
			return true;
	return false;
}

/* A bool RS_PRESENT member, as the reader found the value (a count is left as it is). */
static void set_present(void *base, const struct rs_field *f, bool there)
{
	if (f->present_size == sizeof(bool))
		*(bool *)((char *)base + f->present_off) = there;
}

static bool written_null(const void *base, const struct rs_field *f)
{
	const char *p = (const char *)base + f->off;

	if (f->flags & RS_PRESENT)
		return !present(base, f);
	if (f->flags & RS_KAGE)
		return !(((const struct mt_migrate *)base)->flags & MT_RF_KAGE_VALID);
	if (f->flags & RS_WAIT)
		return !(((const struct mt_migrate *)base)->flags & MT_RF_WAIT_VALID);
	if (f->flags & RS_PREF_LLC)
		return !(((const struct mt_migrate *)base)->flags & MT_RF_PREF_LLC);
	if (f->type == RS_CSTR)
		return (f->flags & RS_NULL_EMPTY) && !(*(const char *const *)p &&
						       **(const char *const *)p);
	if (f->type == RS_ARGV || f->type == RS_U64_NAMED)
		return false;
	if ((f->flags & RS_NULL_EMPTY) && !p[0])
		return true;
	if (f->type == RS_DBL)
		return ((f->flags & RS_NULL_NEG) && *(const double *)p < 0) ||
		       ((f->flags & RS_NULL_ZERO) && *(const double *)p == 0);
	if (f->type == RS_U64 || f->type == RS_SIZE) {
		uint64_t v = f->type == RS_U64 ? *(const uint64_t *)p : *(const size_t *)p;

		return (f->flags & RS_NULL_ZERO) && !v;
	}
	if (f->type == RS_STR || f->type == RS_BYTES || f->type == RS_BOOL)
		return false;
	return ((f->flags & RS_NULL_NEG) && get_int(p, f->type) < 0) ||
	       ((f->flags & RS_NULL_ZERO) && !get_int(p, f->type)) ||
	       ((f->flags & RS_NULL_MIN) && get_int(p, f->type) == INT64_MIN);
}

bool rs_is_null(const void *base, const struct rs_field *f)
{
	return written_null(base, f);
}

bool rs_is_absent(const void *base, const struct rs_field *f)
{
	return (f->flags & RS_IF_MIG) && !unit_migrated(base);
}

int64_t rs_int(const void *base, const struct rs_field *f)
{
	return get_int((const char *)base + f->off, f->type);
}

double rs_number(const void *base, const struct rs_field *f, int i)
{
	const char *p = (const char *)base + f->off;

	switch (f->type) {
	case RS_U64:
		return (double)*(const uint64_t *)p;
	case RS_U64_NAMED:
		return (double)((const uint64_t *)p)[i];
	case RS_SIZE:
		return (double)*(const size_t *)p;
	case RS_DBL:
		return *(const double *)p;
	case RS_BOOL:
		return *(const bool *)p;
	default:
		return (double)get_int(p, f->type);
	}
}

const struct rs_field *rs_field_named(const struct rs_table *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].name, name))
			return &t->f[i];
	return NULL;
}

/* The members a RS_CSTR, RS_ARGV or RS_U64_NAMED field points at or holds. */
static void write_composite(struct json_writer *w, const char *p, const struct rs_field *f)
{
	const char *s;

	switch (f->type) {
	case RS_CSTR:
		s = *(const char *const *)p;
		jw_string(w, s ? s : "");
		break;
	case RS_ARGV:
		jw_start_array(w);
		for (char *const *a = *(char *const *const *)p; a && *a; a++)
			jw_string(w, *a);
		jw_end_array(w);
		break;
	default:
		jw_start_object(w);
		for (int i = 0; i < f->nnames; i++)
			jw_field_u64(w, f->names[i], ((const uint64_t *)p)[i]);
		jw_end_object(w);
	}
}

void rs_write(struct json_writer *w, const void *base, const struct rs_table *t)
{
	for (int i = 0; i < t->n; i++) {
		const struct rs_field *f = &t->f[i];
		const char *p = (const char *)base + f->off;
		char hex[16];
		int64_t e;

		if (rs_is_absent(base, f) || (f->flags & RS_EXPORTS_ONLY))
			continue;
		jw_name(w, f->name);
		if (!(f->flags & RS_EXPORTS_NULL) && written_null(base, f)) {
			jw_null(w);
			continue;
		}
		switch (f->type) {
		case RS_U64:
			jw_u64(w, *(const uint64_t *)p);
			break;
		case RS_SIZE:
			jw_u64(w, *(const size_t *)p);
			break;
		case RS_DBL:
			jw_double(w, *(const double *)p);
			break;
		case RS_BOOL:
			jw_bool(w, *(const bool *)p);
			break;
		case RS_STR:
			jw_string_len(w, p, strnlen(p, f->size));
			break;
		case RS_BYTES:
			jw_string_len(w, p, strnlen(p, f->size));
			break;
		case RS_HEX32:
			snprintf(hex, sizeof(hex), "0x%x", *(const uint32_t *)p);
			jw_string(w, hex);
			break;
		case RS_ENUM:
		case RS_ENUM_U8:
			e = get_int(p, f->type);
			if (e >= 0 && e < f->nnames)
				jw_string(w, f->names[e]);
			else
				jw_s64(w, e);
			break;
		case RS_CSTR:
		case RS_ARGV:
		case RS_U64_NAMED:
			write_composite(w, p, f);
			break;
		default:
			jw_s64(w, get_int(p, f->type));
		}
	}
}

static void set_int(void *p, enum rs_type t, int64_t v)
{
	switch (t) {
	case RS_S64:
		*(int64_t *)p = v;
		break;
	case RS_U32:
	case RS_HEX32:
		*(uint32_t *)p = (uint32_t)v;
		break;
	case RS_INT:
	case RS_ENUM:
		*(int *)p = (int)v;
		break;
	case RS_LONG:
		*(long *)p = (long)v;
		break;
	case RS_U16:
		*(uint16_t *)p = (uint16_t)v;
		break;
	case RS_U8:
	case RS_ENUM_U8:
		*(uint8_t *)p = (uint8_t)v;
		break;
	default:
		break;
	}
}

static void int_range(enum rs_type t, int64_t *min, int64_t *max)
{
	switch (t) {
	case RS_U32:
		*min = 0, *max = UINT32_MAX;
		break;
	case RS_INT:
		*min = INT_MIN, *max = INT_MAX;
		break;
	case RS_U16:
		*min = 0, *max = UINT16_MAX;
		break;
	case RS_U8:
	case RS_ENUM_U8:
		*min = 0, *max = UINT8_MAX;
		break;
	default:
		*min = LONG_MIN, *max = LONG_MAX;
	}
}

static int read_enum(struct json_reader *r, void *p, const struct rs_field *f)
{
	char name[64];
	int64_t v;

	if (f->type == RS_ENUM_U8 && jr_peek(r) == JR_NUMBER) {
		if (jr_s64(r, 0, UINT8_MAX, &v))
			return -1;
		set_int(p, f->type, v);
		return 0;
	}
	if (jr_string(r, name, sizeof(name), NULL))
		return -1;
	for (int i = 0; i < f->nnames; i++) {
		if (!strcmp(name, f->names[i])) {
			set_int(p, f->type, i);
			return 0;
		}
	}
	return jr_fail(r, "'%s' is none of the names this member takes (docs/run-file.md)",
		       name);
}

static int read_hex32(struct json_reader *r, uint32_t *v)
{
	char buf[16], *end;
	unsigned long x;

	if (jr_string(r, buf, sizeof(buf), NULL))
		return -1;
	errno = 0;
	x = strtoul(buf, &end, 16);
	if (strncmp(buf, "0x", 2) || end == buf + 2 || *end || errno || x > UINT32_MAX)
		return jr_fail(r, "'%s' is not a 32-bit hex number (\"0x80000006\")", buf);
	*v = (uint32_t)x;
	return 0;
}

/* Reads null where the field allows it: 1 when it did. */
static int read_null(struct json_reader *r, void *base, const struct rs_field *f)
{
	char *p = (char *)base + f->off;

	if (!(f->flags & (RS_NULL_EMPTY | RS_NULL_NEG | RS_NULL_ZERO | RS_NULL_MIN | RS_PRESENT |
			  RS_KAGE | RS_WAIT | RS_PREF_LLC)) || !jr_null(r))
		return 0;
	if (f->flags & RS_PRESENT) {
		set_present(base, f, false);
		if (f->type == RS_DBL)
			*(double *)p = NAN;
		return 1;
	}
	switch (f->type) {
	case RS_STR:
	case RS_BYTES:
		p[0] = '\0';
		break;
	case RS_DBL:
		*(double *)p = f->flags & RS_NULL_NEG ? -1 : 0;
		break;
	case RS_U64:
		*(uint64_t *)p = 0;
		break;
	case RS_SIZE:
		*(size_t *)p = 0;
		break;
	default:
		set_int(p, f->type, f->flags & RS_NULL_MIN ? INT64_MIN :
			f->flags & RS_NULL_NEG ? -1 : 0);
	}
	return 1;
}

/*
 * Whether f is never negative: said so, or written as null when negative (a kernel age is
 * null for another reason: its flag).
 */
static bool never_negative(const struct rs_field *f)
{
	return (f->flags & RS_NONNEG) ||
	       ((f->flags & RS_NULL_NEG) && !(f->flags & (RS_KAGE | RS_PREF_LLC)));
}

static int negative(struct json_reader *r, double v)
{
	return jr_fail(r, "%g is negative (a time, a duration or a count: 0 or more)", v);
}

static int read_value(struct json_reader *r, void *base, const struct rs_field *f)
{
	char *p = (char *)base + f->off;
	char bytes[64];
	int64_t v, min, max;
	uint64_t u;
	size_t n;

	switch (f->type) {
	case RS_U64:
		return jr_u64(r, (uint64_t *)p);
	case RS_SIZE:
		if (jr_u64(r, &u))
			return -1;
		if (u > SIZE_MAX)
			return jr_fail(r, "%llu is out of range", (unsigned long long)u);
		*(size_t *)p = (size_t)u;
		return 0;
	case RS_DBL:
		/* null is not a number: only the members that say so may be null, and
		 * jr_double's NAN for it is what the writer wrote for a non-finite value */
		if (jr_double(r, (double *)p))
			return -1;
		if (*(double *)p < 0 && never_negative(f))
			return negative(r, *(double *)p);
		return 0;
	case RS_BOOL:
		return jr_bool(r, (bool *)p);
	case RS_STR:
		return jr_string(r, p, f->size, NULL);
	case RS_BYTES:
		/* exactly the bytes, NUL-terminated only when shorter than the buffer */
		if (jr_string(r, bytes, sizeof(bytes), &n))
			return -1;
		if (n > f->size)
			return jr_fail(r, "more than %zu bytes", f->size);
		memset(p, 0, f->size);
		memcpy(p, bytes, n);
		return 0;
	case RS_ENUM:
	case RS_ENUM_U8:
		return read_enum(r, p, f);
	case RS_HEX32:
		return read_hex32(r, (uint32_t *)p);
	case RS_CSTR:
	case RS_ARGV:
	case RS_U64_NAMED:
		return jr_fail(r, "a member this reader does not take (it is only written)");
	default:
		int_range(f->type, &min, &max);
		if (jr_s64(r, min, max, &v))
			return -1;
		if (v < 0 && never_negative(f))
			return negative(r, (double)v);
		set_int(p, f->type, v);
		return 0;
	}
}

/*
 * The member of t named key, or -1.  A file lists them in the table's order (the writer
 * walks it): the first one not seen yet is tried first.
 */
static int field_of(const struct rs_table *t, const char *key, uint64_t seen)
{
	int i = ~seen ? __builtin_ctzll(~seen) : t->n;

	/* a column of the exports only is no member of the file */
	if (i < t->n && !strcmp(t->f[i].name, key) && !(t->f[i].flags & RS_EXPORTS_ONLY))
		return i;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].name, key) && !(t->f[i].flags & RS_EXPORTS_ONLY))
			return i;
	return -1;
}

int rs_read(struct json_reader *r, void *base, const struct rs_table *t, const char *key,
	    uint64_t *seen)
{
	int i = field_of(t, key, *seen);
	const struct rs_field *f;
	char where[128];
	int rc;

	if (i < 0)
		return 0;
	f = &t->f[i];
	rc = read_null(r, base, f);
	if (!rc) {
		rc = read_value(r, base, f) ? -1 : 1;
		if (rc > 0 && (f->flags & RS_PRESENT))
			set_present(base, f, true);
	}
	if (rc < 0) {
		snprintf(where, sizeof(where), "%s%s%s", t->object, *t->object ? "." : "",
			 f->name);
		jr_context(r, where);
		return -1;
	}
	*seen |= 1ULL << i;
	return 1;
}

int rs_check(struct json_reader *r, const struct rs_table *t, uint64_t seen, const char *where)
{
	for (int i = 0; i < t->n; i++) {
		if (seen & (1ULL << i) ||
		    t->f[i].flags & (RS_OPTIONAL | RS_IF_MIG | RS_EXPORTS_ONLY))
			continue;
		return jr_fail(r, "%s has no \"%s\" (a file of this schema always does)",
			       where, t->f[i].name);
	}
	return 0;
}

int rs_read_object(struct json_reader *r, void *base, const struct rs_table *t,
		   const char *where)
{
	uint64_t seen = 0;
	char key[64];
	int more, rc;

	if (jr_object_begin(r)) {
		jr_context(r, where);
		return -1;
	}
	while ((more = jr_object_next(r, key, sizeof(key))) > 0) {
		rc = rs_read(r, base, t, key, &seen);
		if (rc < 0)
			return -1;
		if (!rc && jr_skip(r)) {
			jr_context(r, where);
			return -1;
		}
	}
	if (more < 0) {
		jr_context(r, where);
		return -1;
	}
	return rs_check(r, t, seen, where);
}

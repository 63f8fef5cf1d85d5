// SPDX-License-Identifier: GPL-2.0
/*
 * The run-file writer: the run model as a run file (schema RUN_SCHEMA, docs/run-file.md),
 * streamed through json_writer.c in the order the schema lists.  Flat objects come from
 * the tables in run_schema.c, which the reader (run_file_read.c) uses too; the arrays and
 * maps are here.  It sits in the model, not in analysis/render: the run file is the model's
 * own serialisation, written and read back by the two files side by side with the same
 * schema tables, and needs nothing above the model (no judge, no renderer).
 */
#include <errno.h>
#include <string.h>

#include "calib_file.h"
#include "json_writer.h"
#include "run_file.h"
#include "run_schema.h"

static void write_hist(struct json_writer *w, const char *name, const __u64 *slots)
{
	jw_name(w, name);
	jw_start_array(w);
	for (int k = 0; k < MT_HIST_SLOTS; k++)
		jw_u64(w, slots[k]);
	jw_end_array(w);
}

static void write_cpus(struct json_writer *w, const char *name, const int *cpu, int n)
{
	jw_name(w, name);
	jw_start_array(w);
	for (int i = 0; i < n; i++)
		jw_s64(w, cpu[i]);
	jw_end_array(w);
}

static void write_environment(struct json_writer *w, const struct run_environment *e)
{
	jw_name(w, "environment");
	jw_start_object(w);
	rs_write(w, e, &rs_environment);
	jw_name(w, "caches");
	jw_start_array(w);
	for (int i = 0; i < e->ncaches; i++) {
		jw_start_object(w);
		rs_write(w, &e->caches[i], &rs_cache);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_name(w, "tunable");
	jw_start_object(w);
	rs_write(w, &e->tunable, &rs_tunable);
	jw_end_object(w);
	/* optional: a run read from a file written before these were checked has none, and
	 * is written again without them */
	if (e->rules.checked) {
		jw_name(w, "sched_rules");
		jw_start_object(w);
		rs_write(w, e, &rs_sched_rules);
		jw_end_object(w);
	}
	jw_end_object(w);
}

static void write_config(struct json_writer *w, const struct run_setup *s)
{
	jw_name(w, "config");
	jw_start_object(w);
	rs_write(w, s, &rs_config);
	jw_name(w, "cachewalk");
	if (s->cachewalk) {
		jw_start_object(w);
		rs_write(w, &s->cw, &rs_cachewalk);
		jw_name(w, "ages_ns");
		jw_start_array(w);
		for (int i = 0; i < s->cw.nages; i++)
			jw_u64(w, s->cw.ages_ns[i]);
		jw_end_array(w);
		jw_name(w, "rates_mbps");
		jw_start_array(w);
		for (int i = 0; i < s->cw.nrates; i++)
			jw_double(w, s->cw.rates_mbps[i]);
		jw_end_array(w);
		jw_end_object(w);
	} else {
		jw_null(w);
	}
	jw_end_object(w);
}

/* An array of n objects of t's members, each size bytes from base. */
static void write_objects(struct json_writer *w, const char *name, const void *base, int n,
			  size_t size, const struct rs_table *t)
{
	jw_name(w, name);
	jw_start_array(w);
	for (int i = 0; i < n; i++) {
		jw_start_object(w);
		rs_write(w, (const char *)base + (size_t)i * size, t);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* validate's footprint curve and the polluter's size it gave (footprint.h). */
static void write_footprint(struct json_writer *w, const struct footprint *fp)
{
	jw_name(w, "footprint");
	jw_start_object(w);
	rs_write(w, fp, &rs_footprint);
	write_objects(w, "points", fp->points, fp->npoints, sizeof(fp->points[0]),
		      &rs_footprint_point);
	write_objects(w, "levels", fp->levels, fp->nlevels, sizeof(fp->levels[0]),
		      &rs_footprint_level);
	write_objects(w, "hints", fp->hints, fp->nhints, sizeof(fp->hints[0]),
		      &rs_footprint_hint);
	jw_end_object(w);
}

static void write_calibration(struct json_writer *w, const struct run_calibration *c)
{
	jw_name(w, "calibration");
	if (!c->valid) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, c, &rs_calibration);
	jw_name(w, "measured");
	if (c->inline_run) {
		jw_start_object(w);
		calib_write_measured(w, &c->cal);
		/* optional: a run read from a file written before the matrix was kept has none,
		 * and is written again without it */
		if (c->cal.cells)
			calib_write_cells(w, &c->cal, false);
		/* optional too: validate's chase, absent from files written before it */
		if (c->cal.chase)
			calib_write_chase(w, &c->cal);
		jw_end_object(w);
	} else {
		jw_null(w);
	}
	/* optional: validate's footprint curve, absent from files written before it */
	if (c->has_footprint)
		write_footprint(w, &c->footprint);
	jw_end_object(w);
}

static void write_meta(struct json_writer *w, const struct run_meta *m)
{
	jw_name(w, "meta");
	jw_start_object(w);
	rs_write(w, m, &rs_meta);
	/* optional: a file written before backends were told has none, and is written again
	 * without it */
	if (m->backend.name[0]) {
		jw_name(w, "backend");
		jw_start_object(w);
		rs_write(w, m, &rs_backend);
		jw_end_object(w);
	}
	write_cpus(w, "cpus", m->cpus.cpu, m->cpus.n);
	/* which clock each kind of time is on: constants, for readers of the file */
	jw_name(w, "clocks");
	jw_start_object(w);
	jw_field_string(w, "ts_ns", "CLOCK_MONOTONIC (bpf_ktime_get_ns)");
	jw_field_string(w, "age_ns", "CLOCK_MONOTONIC (bpf_ktime_get_ns)");
	jw_field_string(w, "kernel_age_ns", "rq_clock_task of the source CPU");
	jw_end_object(w);
	jw_end_object(w);
}

static void write_stats(struct json_writer *w, const struct run *r)
{
	jw_name(w, "stats");
	jw_start_object(w);
	rs_write(w, r, &rs_stats);
	/* the records in this file: a reader checks them against its arrays */
	jw_field_u64(w, "records_read", r->nrecs);
	jw_field_u64(w, "units_read", r->nunits);
	jw_name(w, "by_cause");
	jw_start_object(w);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		jw_field_u64(w, mt_cause_names[c], r->stats.migrations[c]);
	jw_end_object(w);
	jw_name(w, "completeness");
	jw_start_object(w);
	rs_write(w, r, &rs_completeness);
	jw_field_string(w, "source", "se.nr_migrations at each switch-in of a traced task, "
			"against the migrations recorded less fork placements");
	jw_end_object(w);
	jw_end_object(w);
}

static void write_cost(struct json_writer *w, const struct run_cost *c)
{
	jw_name(w, "cost");
	jw_start_object(w);
	rs_write(w, c, &rs_cost);
	jw_name(w, "programs");
	jw_start_object(w);
	for (int i = 0; i < c->nprogs; i++) {
		jw_name(w, c->progs[i].name);
		jw_start_object(w);
		jw_field_u64(w, "run_cnt", c->progs[i].run_cnt);
		jw_field_u64(w, "run_time_ns", c->progs[i].run_time_ns);
		jw_field_u64(w, "recursion_misses", c->progs[i].recursion_misses);
		jw_end_object(w);
	}
	jw_end_object(w);
	jw_end_object(w);
}

static void write_histograms(struct json_writer *w, const struct mt_hists *h)
{
	jw_name(w, "histograms");
	jw_start_object(w);
	jw_field_string(w, "unit", "log2 µs: slot k = [2^k, 2^(k+1)) µs, slot 0 = [0, 2) µs");
	jw_name(w, "age");
	jw_start_object(w);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		write_hist(w, mt_cause_names[c], h->age[c]);
	jw_end_object(w);
	write_hist(w, "kernel_age_lb_pull", h->kernel_age);
	write_hist(w, "run_slice", h->slice);
	write_hist(w, "wakeup_latency", h->wakelat);
	write_hist(w, "runnable_wait", h->runwait);
	write_hist(w, "runnable_wait_pulled", h->runwait_pulled);
	jw_end_object(w);
}

static void write_pairs(struct json_writer *w, const struct run *r)
{
	int n = r->meta.nr_cpus;

	jw_name(w, "cpu_pairs");
	jw_start_array(w);
	for (int i = 0; r->pairs && i < n * n; i++) {
		if (!r->pairs[i])
			continue;
		jw_start_object(w);
		jw_field_s64(w, "src", i / n);
		jw_field_s64(w, "dst", i % n);
		jw_field_u64(w, "count", r->pairs[i]);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* One level's in-kernel counts: migrations by cause, judged and hot pulls, their ages. */
static void write_level(struct json_writer *w, const struct run *r, int l)
{
	jw_name(w, mt_level_names[l]);
	jw_start_object(w);
	jw_name(w, "by_cause");
	jw_start_object(w);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		jw_field_u64(w, mt_cause_names[c], r->stats.level_migrations[l][c]);
	jw_end_object(w);
	jw_field_u64(w, "lb_judged", r->stats.level_lb_judged[l]);
	jw_field_u64(w, "lb_hot", r->stats.level_lb_hot[l]);
	write_hist(w, "kernel_age_lb_pull", r->hists.kernel_age_level[l]);
	jw_end_object(w);
}

/*
 * The kernel's rule and the topology levels (docs/run-file.md, "`levels` (3)"): null for a run
 * read from a file written before they were kept.
 */
static void write_levels(struct json_writer *w, const struct run *r)
{
	const struct run_topo *t = &r->topo;

	jw_name(w, "levels");
	if (!r->has_levels) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	write_cpus(w, "core", t->core, t->ncpus);
	write_cpus(w, "llc", t->llc, t->ncpus);
	write_cpus(w, "node", t->node, t->ncpus);
	jw_name(w, "llc_unknown_why");
	if (t->llc_why[0])
		jw_string(w, t->llc_why);
	else
		jw_null(w);
	jw_field_bool(w, "numa_balancing", t->numa_balancing);
	jw_name(w, "rules");
	jw_start_object(w);
	for (int i = 0; i < MT_NR_RULES; i++)
		jw_field_u64(w, mt_rule_names[i], r->stats.lb_rule[i]);
	jw_end_object(w);
	jw_field_u64(w, "delayed_pulls", r->stats.lb_delayed);
	jw_field_u64(w, "numa_weighed_pulls", r->stats.lb_numa_weighed);
	jw_name(w, "by_level");
	jw_start_object_lines(w);
	for (int l = 0; l < MT_NR_LEVELS; l++)
		write_level(w, r, l);
	jw_end_object(w);
	jw_name(w, "cost");
	if (r->has_level_cost) {
		jw_start_array_lines(w);
		for (int l = 0; l < MT_NR_LEVELS; l++) {
			jw_start_object(w);
			jw_field_string(w, "level", mt_level_names[l]);
			rs_write(w, &r->level_cost[l], &rs_level_cost);
			jw_end_object(w);
		}
		jw_end_array(w);
	} else {
		jw_null(w);
	}
	jw_end_object(w);
}

/* A correlation's cells: the run's own, or its probed moves'. */
static void write_cells(struct json_writer *w, const struct corr_result *c)
{
	jw_name(w, "cells");
	jw_start_array_lines(w);
	for (int i = 0; i < c->ncells; i++) {
		jw_start_object(w);
		rs_write(w, &c->cells[i], &rs_cell);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void write_correlation(struct json_writer *w, const struct run *r)
{
	jw_name(w, "correlation");
	if (!r->has_corr) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, &r->corr, &rs_correlation);
	write_cells(w, &r->corr);
	jw_name(w, "rates");
	jw_start_array_lines(w);
	for (int i = 0; i < r->corr.nrates; i++) {
		jw_start_object(w);
		rs_write(w, &r->corr.rates[i], &rs_corr_rate);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void write_verdict(struct json_writer *w, const struct run *r)
{
	jw_name(w, "verdict");
	if (!r->has_verdict) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, &r->verdict, &rs_verdict);
	jw_name(w, "rates");
	jw_start_array_lines(w);
	for (int i = 0; i < r->verdict.nrates; i++) {
		jw_start_object(w);
		rs_write(w, &r->verdict.rates[i], &rs_verdict_rate);
		jw_end_object(w);
	}
	jw_end_array(w);
	/* a grid's model test: only where the run made one (files from before have none) */
	if (r->verdict.model.regime != MODEL_NOT_TESTED) {
		jw_name(w, "model");
		jw_start_object(w);
		rs_write(w, &r->verdict.model, &rs_verdict_model);
		jw_end_object(w);
	}
	/* a sequential experiment's looks: only where it had a budget */
	if (r->setup.budget_s > 0) {
		jw_name(w, "sequence");
		jw_start_object(w);
		rs_write(w, &r->seq, &rs_sequence);
		jw_name(w, "looks");
		jw_start_array_lines(w);
		for (int i = 0; i < r->seq.nlooks && i < SEQ_MAX_LOOKS; i++) {
			jw_start_object(w);
			rs_write(w, &r->seq.looks[i], &rs_seq_look);
			jw_end_object(w);
		}
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_object(w);
}

/* A record array: one small object per line, written as it is read from the model. */
static void write_records(struct json_writer *w, const char *name, const void *recs, size_t n,
			  size_t size, const struct rs_table *t)
{
	jw_name(w, name);
	jw_start_array_lines(w);
	for (size_t i = 0; i < n && !jw_error(w); i++) {
		jw_start_object(w);
		rs_write(w, (const char *)recs + i * size, t);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* run --probe-moves: what was asked, the mover's counts, its moments and probed runs. */
static void write_probes(struct json_writer *w, const struct run *r)
{
	jw_name(w, "probes");
	jw_start_object_lines(w);
	rs_write(w, &r->probe, &rs_probe);
	write_records(w, "moments", r->moments, r->nmoments, sizeof(*r->moments),
		      &rs_probe_moment);
	write_records(w, "units", r->probe_units, r->nprobe_units, sizeof(*r->probe_units),
		      &rs_unit);
	if (r->has_probe_result) {
		const struct probe_result *pr = &r->probe_result;

		jw_name(w, "result");
		jw_start_object_lines(w);
		rs_write(w, pr, &rs_probe_result);
		jw_name(w, "verdict");
		jw_start_object(w);
		rs_write(w, &pr->verdict, &rs_verdict);
		jw_end_object(w);
		write_cells(w, &pr->corr);
		/* per level, as levels.cost[] (pulls: the level's moves): only where the moves
		 * spanned more than one */
		if (r->has_probe_level_cost) {
			jw_name(w, "levels");
			jw_start_array_lines(w);
			for (int l = 0; l < MT_NR_LEVELS; l++) {
				jw_start_object(w);
				jw_field_string(w, "level", mt_level_names[l]);
				rs_write(w, &r->probe_level_cost[l], &rs_level_cost);
				jw_end_object(w);
			}
			jw_end_array(w);
		}
		jw_end_object(w);
	}
	jw_end_object(w);
}

int run_file_write(FILE *f, const struct run *r)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_start_object_lines(&w);
	jw_field_string(&w, "schema", RUN_SCHEMA);
	write_environment(&w, &r->env);
	write_config(&w, &r->setup);
	write_calibration(&w, &r->calib);
	write_meta(&w, &r->meta);
	write_stats(&w, r);
	write_cost(&w, &r->cost);
	write_histograms(&w, &r->hists);
	write_pairs(&w, r);
	write_levels(&w, r);
	write_correlation(&w, r);
	write_verdict(&w, r);
	write_records(&w, "migrations", r->recs, r->nrecs, sizeof(*r->recs), &rs_migration);
	write_records(&w, "units", r->units, r->nunits, sizeof(*r->units), &rs_unit);
	/* optional: only a run that recorded them (run --perfetto) */
	if (r->nswitches)
		write_records(&w, "switches", r->switches, r->nswitches, sizeof(*r->switches),
			      &rs_switch);
	if (r->nwakings)
		write_records(&w, "wakings", r->wakings, r->nwakings, sizeof(*r->wakings),
			      &rs_waking);
	if (r->probe.on)
		write_probes(&w, r);
	jw_end_object(&w);
	return jw_finish(&w);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's exports (sweep.h), from the sweep model only: sweep.csv, the Prometheus text
 * exposition of its summary (gauges labelled by the value, in seconds), and the plot of
 * throughput and idle time against the value.  The CSV and the gauges walk the members
 * sweep_schema.c describes, with their null rules; they share their formatting with the run's
 * exports (render_export.h) and their drawing with its plots (gnuplot.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "gnuplot.h"
#include "render_export.h"
#include "render_sweep.h"
#include "sweep_schema.h"
#include "sweep_summary.h"
#include "units.h"

/* ---- sweep.csv ---- */

/*
 * sweep.csv's columns, in order.  A run's row holds the member of runs[] of the column's
 * name, a value's row the member of values[] named beside it, else of that name
 * (sweep_schema.c); a row whose object has no such member leaves the column empty.
 */
static const struct sweep_csv_column {
	const char *name;
	const char *value_member;	/* NULL: the column's name */
} csv_columns[] = {
	{ "value_ns", NULL }, { "rep", NULL }, { "runs", NULL }, { "wall_s", NULL },
	{ "throughput", NULL }, { "throughput_min", NULL }, { "throughput_median", NULL },
	{ "throughput_max", NULL }, { "normalised", NULL }, { "throughput_unit", NULL },
	{ "throughput_source", NULL }, { "idle_pct", "idle_pct_median" },
	{ "wakeup_latency_p50_us", NULL }, { "wakeup_latency_p99_us", NULL },
	{ "runnable_wait_p50_us", NULL }, { "runnable_wait_p99_us", NULL }, { "tstar_ns", NULL },
	{ "exit_status", NULL },
	{ "migrations", NULL }, { "lb_judged", NULL }, { "lb_hot", NULL },
	{ "nr_failed_migrations_hot", NULL }, { "nr_forced_migrations", NULL },
	{ "lb_hot_gained", NULL },
};
#define NCOLUMNS ((int)(sizeof(csv_columns) / sizeof(csv_columns[0])))

/* Column c's member in a run's row (t: rs_sweep_run) or a value's, or NULL. */
static const struct rs_field *column_member(const struct sweep_csv_column *c,
					     const struct rs_table *t)
{
	return rs_field_named(t, t == &rs_sweep_value && c->value_member ? c->value_member :
			      c->name);
}

/* Column c's member as the header names it: a run's, else a value's. */
static const struct rs_field *column_head(const struct sweep_csv_column *c)
{
	return column_member(c, &rs_sweep_run) ?: column_member(c, &rs_sweep_value);
}

/* One row: kind ("run", "value"), then base's member of each column; a double that is not
 * finite is said ("+Inf"), as the sweep's CSV always did. */
static void csv_row(FILE *f, const char *kind, const void *base, const struct rs_table *t)
{
	fputs(kind, f);
	for (int i = 0; i < NCOLUMNS; i++) {
		const struct rs_field *fl = column_member(&csv_columns[i], t);

		fputc(',', f);
		if (fl)
			csv_cells(f, base, fl, true);
		else
			csv_empty(f, column_head(&csv_columns[i]));
	}
	fputc('\n', f);
}

void render_sweep_csv(FILE *f, const struct sweep *s)
{
	fputs("row", f);
	for (int i = 0; i < NCOLUMNS; i++) {
		fputc(',', f);
		csv_names(f, column_head(&csv_columns[i]));
	}
	fputc('\n', f);
	for (int i = 0; i < s->nruns; i++)
		csv_row(f, "run", &s->runs[i], &rs_sweep_run);
	for (int i = 0; i < s->nvalues; i++)
		csv_row(f, "value", &s->sv[i], &rs_sweep_value);
}

/* ---- OpenMetrics ---- */

/*
 * The gauges: a family per member of values[] (sweep_schema.c), each sample labelled by the
 * value in seconds; a member null for a value (the schema's rule) has no sample there.
 */
static const struct sweep_gauge {
	const char *family;
	const char *help;
	struct {
		const char *member;	/* of values[] */
		const char *label;	/* told apart from the family's others: stat="min" */
	} of[3];
	const char *by;			/* RS_U64_NAMED: the label of its names ("cause") */
	double divisor;			/* idle_pct_median / 100: a ratio */
	bool every_value;		/* a sample also for a value the sweep never reached;
					 * else none: no count of 0 where nothing ran */
	bool if_any;			/* the family left out when no value has a sample */
} gauges[] = {
	{ "migtrace_sweep_runs", "Runs that finished at each value of the migration cost "
	  "(value_seconds).", { { "runs", NULL } }, NULL, 1, true, false },
	{ "migtrace_sweep_throughput", "The workload's throughput at each value over its runs "
	  "(stat: min, median, max), in the unit of migtrace_sweep_info's throughput_unit label; "
	  "higher is better.", { { "throughput_min", "stat=\"min\"" },
	  { "throughput_median", "stat=\"median\"" }, { "throughput_max", "stat=\"max\"" } },
	  NULL, 1, false, false },
	{ "migtrace_sweep_throughput_normalised_ratio", "Median throughput at each value / the "
	  "first value's.", { { "normalised", NULL } }, NULL, 1, false, false },
	{ "migtrace_sweep_idle_ratio", "Median over the runs of each value of the CPU set's idle "
	  "+ iowait share of its time (/proc/stat).", { { "idle_pct_median", NULL } }, NULL, 100,
	  false, true },
	{ "migtrace_sweep_wakeup_latency_seconds", "Median over the runs of each value of their "
	  "wake-up-to-run latency's percentiles (stat: p50, p99), run-queue clock.",
	  { { "wakeup_latency_p50_us", "stat=\"p50\"" },
	  { "wakeup_latency_p99_us", "stat=\"p99\"" } }, NULL, 1e6, false, true },
	{ "migtrace_sweep_runnable_wait_seconds", "Median over the runs of each value of their "
	  "runnable waits' percentiles (stat: p50, p99; wake-ups and preempted requeues), "
	  "run-queue clock.", { { "runnable_wait_p50_us", "stat=\"p50\"" },
	  { "runnable_wait_p99_us", "stat=\"p99\"" } }, NULL, 1e6, false, true },
	{ "migtrace_sweep_migrations", "Migrations of the traced tasks by cause, summed over the "
	  "runs of each value (migtrace's in-kernel counters).", { { "migrations", NULL } },
	  "cause", 1, false, false },
	{ "migtrace_sweep_lb_pulls_judged", "Load-balancer pulls with the kernel's own age, "
	  "summed over the runs of each value.", { { "lb_judged", NULL } }, NULL, 1, false,
	  false },
	{ "migtrace_sweep_lb_pulls_hot", "Of those pulls, the tasks younger than the value (hot "
	  "by task_hot()'s rule), summed over the runs of each value.", { { "lb_hot", NULL } },
	  NULL, 1, false, false },
	{ "migtrace_sweep_kernel_failed_migrations_hot", "The kernel's nr_failed_migrations_hot "
	  "of the traced tasks (schedstats), summed over the runs of each value: a lower bound "
	  "(read every 20 ms).", { { "nr_failed_migrations_hot", NULL } }, NULL, 1, false,
	  true },
	{ "migtrace_sweep_kernel_forced_migrations", "The kernel's nr_forced_migrations of the "
	  "traced tasks (schedstats), summed over the runs of each value: a lower bound (read "
	  "every 20 ms).", { { "nr_forced_migrations", NULL } }, NULL, 1, false, true },
	{ "migtrace_sweep_kernel_lb_hot_gained", "/proc/schedstat's lb_hot_gained over all CPUs "
	  "and tasks, summed over the runs of each value.", { { "lb_hot_gained", NULL } }, NULL,
	  1, false, true },
};

/* name{value_seconds="V"[,extra]} v */
static void gauge(FILE *f, const char *name, const struct sweep_value *x, const char *extra,
		  double v)
{
	char a[40], b[40];

	fprintf(f, "%s{value_seconds=\"%s\"%s%s} %s\n", name,
		fmt_shortest(a, sizeof(a), (double)x->value / 1e9), extra ? "," : "",
		extra ? extra : "", fmt_shortest(b, sizeof(b), v));
}

/* Member m of g, from the schema of values[]. */
static const struct rs_field *gauge_member(const struct sweep_gauge *g, int m)
{
	return g->of[m].member ? rs_field_named(&rs_sweep_value, g->of[m].member) : NULL;
}

/* Whether value x has a sample of member fl: the schema's null rule, and a value the sweep
 * never reached has its runs gauge only. */
static bool has_sample(const struct sweep_gauge *g, const struct rs_field *fl,
		       const struct sweep_value *x)
{
	return (x->n || g->every_value) && !rs_is_null(x, fl);
}

/* g's samples of value x: one per member, or per name of a count by name. */
static void gauge_samples(FILE *f, const struct sweep_gauge *g, const struct sweep_value *x)
{
	const struct rs_field *fl;
	char extra[64];

	for (int m = 0; m < 3 && (fl = gauge_member(g, m)); m++) {
		if (!has_sample(g, fl, x))
			continue;
		if (fl->type != RS_U64_NAMED) {
			gauge(f, g->family, x, g->of[m].label, rs_number(x, fl, 0) / g->divisor);
			continue;
		}
		for (int i = 0; i < fl->nnames; i++) {
			snprintf(extra, sizeof(extra), "%s=\"%s\"", g->by, fl->names[i]);
			gauge(f, g->family, x, extra, rs_number(x, fl, i));
		}
	}
}

void render_sweep_openmetrics(FILE *f, const struct sweep *s)
{
	const char *unit = s->nruns ? s->runs[0].tput.unit : "";
	const char *src = s->nruns ? s->runs[0].tput.source : "";
	char a[40], name[OM_WORKLOAD_MAX + 1];

	om_family(f, "migtrace_sweep_info", "gauge", "The sweep these metrics describe, in its "
		  "labels (the value is always 1).");
	fprintf(f, "migtrace_sweep_info{workload=\"%s\",throughput_unit=\"",
		s->argv && s->argv[0] ? om_workload_name(name, sizeof(name), s->argv[0]) :
					"unknown");
	om_label_value(f, unit);
	fprintf(f, "\",throughput_source=\"");
	om_label_value(f, src);
	fprintf(f, "\",complete=\"%s\"} 1\n", s->complete ? "true" : "false");
	om_family(f, "migtrace_sweep_original_value_seconds", "gauge", "The migration cost before "
		  "the sweep, restored after it.");
	fprintf(f, "migtrace_sweep_original_value_seconds %s\n",
		fmt_shortest(a, sizeof(a), (double)s->original / 1e9));
	for (size_t k = 0; k < sizeof(gauges) / sizeof(gauges[0]); k++) {
		const struct sweep_gauge *g = &gauges[k];
		bool any = !g->if_any;

		for (int i = 0; !any && i < s->nvalues; i++)
			for (int m = 0; m < 3 && gauge_member(g, m); m++)
				any |= has_sample(g, gauge_member(g, m), &s->sv[i]);
		if (!any)
			continue;
		om_family(f, g->family, "gauge", g->help);
		for (int i = 0; i < s->nvalues; i++)
			gauge_samples(f, g, &s->sv[i]);
	}
	if (s->best >= 0) {
		om_family(f, "migtrace_sweep_best_value_seconds", "gauge", "The value with the "
			  "highest median throughput; beyond_noise: its worst run beats the "
			  "runner-up's best.");
		fprintf(f, "migtrace_sweep_best_value_seconds{beyond_noise=\"%s\"} %s\n",
			sweep_best_beyond_noise(s) ? "true" : "false",
			fmt_shortest(a, sizeof(a), (double)s->sv[s->best].value / 1e9));
	}
}

/* ---- the plot ---- */

const char *const render_sweep_plot_files[] = { "sweep.png", "sweep.svg" };
const int render_sweep_plot_nfiles =
	(int)(sizeof(render_sweep_plot_files) / sizeof(render_sweep_plot_files[0]));

static int write_plot(const char *tmp, FILE *g, const void *ctx)
{
	const struct sweep *s = ctx;
	double base = s->sv[0].tmed, lo = INFINITY, hi = 0, orig_ms;
	bool idle = false;
	char a[32];
	FILE *d;

	if (!s->nruns || !(base > 0))
		return 0;	/* nothing to normalise to: no plot */
	d = gp_open_in(tmp, "values.dat", "w");
	if (!d)
		return -errno;
	fprintf(d, "# value_ms norm_median norm_min norm_max idle_pct_median\n");
	for (int i = 0; i < s->nvalues; i++) {
		const struct sweep_value *x = &s->sv[i];
		double ms = (double)x->value / 1e6;

		lo = fmin(lo, ms);
		hi = fmax(hi, ms);
		if (!x->n)
			continue;
		idle |= x->idle_med >= 0;
		fprintf(d, "%g %g %g %g ", ms, x->tmed / base, x->tmin / base, x->tmax / base);
		if (x->idle_med >= 0)
			fprintf(d, "%g\n", x->idle_med);
		else
			fprintf(d, "NaN\n");
	}
	if (fclose(d))
		return -errno;
	d = gp_open_in(tmp, "runs.dat", "w");
	if (!d)
		return -errno;
	fprintf(d, "# value_ms norm\n");
	for (int i = 0; i < s->nruns; i++)
		fprintf(d, "%g %g\n", (double)s->runs[i].value / 1e6,
			s->runs[i].tput.value / base);
	if (fclose(d))
		return -errno;
	gp_begin(g, "sweep");
	fprintf(g, "  set title \"Sweep of the migration cost: throughput and idle time by value "
		"(%ld repetitions each)\\nthroughput from %s\" noenhanced\n", s->reps,
		s->runs[0].tput.source);
	orig_ms = (double)s->original / 1e6;
	fprintf(g, "  set logscale x\n  set xrange [%g:%g]\n", fmin(lo, orig_ms) / 1.5,
		fmax(hi, orig_ms) * 1.5);
	/* a tic at each value swept, named as the table names it */
	fprintf(g, "  set xtics (");
	for (int i = 0; i < s->nvalues; i++)
		fprintf(g, "%s\"%s\" %g", i ? ", " : "", sweep_fmt_value(a, sizeof(a),
			s->values[i]), (double)s->values[i] / 1e6);
	fprintf(g, ")\n");
	if (orig_ms > 0)
		fprintf(g, "  set arrow 1 from first %g, graph 0 to first %g, graph 1 nohead "
			"lc rgb \"#7570b3\" lw 2 dt 2 front\n"
			"  set label 1 \"original %s (restored)\" at first %g, graph 0.96 left "
			"offset 0.5,0 tc rgb \"#7570b3\"\n", orig_ms,
			orig_ms, sweep_fmt_value(a, sizeof(a), s->original), orig_ms);
	fprintf(g, "  set xlabel \"migration cost set (log scale)\"\n"
		"  set ylabel \"throughput / the first value's median (%s)\"\n"
		"  set y2label \"idle + iowait of the CPU set (%%)\"\n"
		"  set ytics nomirror\n  set y2tics\n  set yrange [0:*]\n  set y2range [0:*]\n"
		"  set grid\n  set key bottom right box opaque\n",
		sweep_fmt_value(a, sizeof(a), s->values[0]));
	fprintf(g, "  plot \"values.dat\" using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb "
		"\"#1f78b4\" title \"throughput, median (bars: min to max)\", \\\n"
		"       \"runs.dat\" using 1:2 with points pt 6 ps 0.8 lc rgb \"#1f78b4\" "
		"title \"throughput, each run\"");
	if (idle)
		fprintf(g, ", \\\n       \"values.dat\" using 1:5 axes x1y2 with linespoints "
			"lw 2 pt 5 dt 2 lc rgb \"#d95f02\" title \"idle %%, median (right axis)\"");
	fprintf(g, "\n");
	gp_end(g);
	return 0;
}

int render_sweep_plot(const char *dir, const struct sweep *s, const char *label)
{
	return gp_draw(dir, label, write_plot, s, render_sweep_plot_files,
		       render_sweep_plot_nfiles);
}

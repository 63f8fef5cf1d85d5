// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's exports (sweep.h), from the sweep model only: sweep.csv, the Prometheus text
 * exposition of its summary (gauges labelled by the value, in seconds), and the plot of
 * throughput and idle time against the value.  They share their formatting with the run's
 * exports (render_export.h) and their drawing with its plots (gnuplot.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "gnuplot.h"
#include "render_export.h"
#include "render_sweep.h"
#include "sweep_summary.h"
#include "units.h"

/* ---- sweep.csv ---- */

static void csv_u64(FILE *f, bool have, uint64_t v)
{
	if (have)
		fprintf(f, "%llu", (unsigned long long)v);
	fputc(',', f);
}

static void csv_dbl(FILE *f, bool have, double v)
{
	char b[40];

	if (have)
		fputs(fmt_shortest(b, sizeof(b), v), f);
	fputc(',', f);
}

static void csv_str(FILE *f, const char *s)
{
	csv_string(f, s, strlen(s));
	fputc(',', f);
}

void render_sweep_csv(FILE *f, const struct sweep *s)
{
	const char *unit = s->nruns ? s->runs[0].tput.unit : "";
	const char *src = s->nruns ? s->runs[0].tput.source : "";
	double base = s->sv[0].tmed;

	fprintf(f, "row,value_ns,rep,runs,wall_s,throughput,throughput_min,throughput_median,"
		"throughput_max,normalised,throughput_unit,throughput_source,idle_pct,"
		"exit_status,migrations");
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, ",migrations_%s", mt_cause_names[c]);
	fprintf(f, ",lb_judged,lb_hot,nr_failed_migrations_hot,nr_forced_migrations,"
		"lb_hot_gained\n");
	for (int i = 0; i < s->nruns; i++) {
		const struct sweep_run *r = &s->runs[i];
		bool witness = r->witness && s->schedstats_orig >= 0;
		uint64_t all = 0;

		for (int c = 0; c < MT_NR_CAUSES; c++)
			all += r->migrations[c];
		fprintf(f, "run,%lld,%d,,", (long long)r->value_ns, r->rep);
		csv_dbl(f, true, r->wall_s);
		csv_dbl(f, true, r->tput.value);
		fputs(",,,", f);
		/* a run against the first value's median, as the table normalises */
		csv_dbl(f, base > 0, base > 0 ? r->tput.value / base : 0);
		csv_str(f, r->tput.unit);
		csv_str(f, r->tput.source);
		csv_dbl(f, r->idle_pct >= 0, r->idle_pct);
		fprintf(f, "%d,%llu", r->exit_status, (unsigned long long)all);
		for (int c = 0; c < MT_NR_CAUSES; c++)
			fprintf(f, ",%llu", (unsigned long long)r->migrations[c]);
		fprintf(f, ",%llu,%llu,", (unsigned long long)r->lb_judged,
			(unsigned long long)r->lb_hot);
		csv_u64(f, witness, r->failed_hot);
		csv_u64(f, witness, r->forced);
		if (r->has_lb_hot_gained)
			fprintf(f, "%llu", (unsigned long long)r->lb_hot_gained);
		fputc('\n', f);
	}
	for (int i = 0; i < s->nvalues; i++) {
		const struct sweep_value *x = &s->sv[i];
		bool witness = x->witness && s->schedstats_orig >= 0;

		fprintf(f, "value,%lld,,%d,,,", (long long)x->value_ns, x->n);
		csv_dbl(f, x->n, x->tmin);
		csv_dbl(f, x->n, x->tmed);
		csv_dbl(f, x->n, x->tmax);
		csv_dbl(f, x->n && base > 0, x->normalised);
		csv_str(f, unit);
		csv_str(f, src);
		csv_dbl(f, x->idle_med >= 0, x->idle_med);
		fprintf(f, ",%llu", (unsigned long long)x->migrations);
		for (int c = 0; c < MT_NR_CAUSES; c++)
			fprintf(f, ",%llu", (unsigned long long)x->by_cause[c]);
		fprintf(f, ",%llu,%llu,", (unsigned long long)x->lb_judged,
			(unsigned long long)x->lb_hot);
		csv_u64(f, witness, x->failed_hot);
		csv_u64(f, witness, x->forced);
		if (x->has_gained)
			fprintf(f, "%llu", (unsigned long long)x->lb_hot_gained);
		fputc('\n', f);
	}
}

/* ---- OpenMetrics ---- */

/* name{value_seconds="V"[,extra]} v */
static void gauge(FILE *f, const char *name, const struct sweep_value *x, const char *extra,
		  double v)
{
	char a[40], b[40];

	fprintf(f, "%s{value_seconds=\"%s\"%s%s} %s\n", name,
		fmt_shortest(a, sizeof(a), (double)x->value_ns / 1e9), extra ? "," : "",
		extra ? extra : "", fmt_shortest(b, sizeof(b), v));
}

void render_sweep_openmetrics(FILE *f, const struct sweep *s)
{
	const char *unit = s->nruns ? s->runs[0].tput.unit : "";
	const char *src = s->nruns ? s->runs[0].tput.source : "";
	bool idle = false, witness = false, gained = false;
	char a[40], extra[64];

	om_family(f, "migtrace_sweep_info", "gauge", "The sweep these metrics describe, in its "
		  "labels (the value is always 1).");
	fprintf(f, "migtrace_sweep_info{command=\"");
	for (char *const *p = s->argv; p && *p; p++) {
		om_label_value(f, *p);
		if (p[1])
			fputc(' ', f);
	}
	fprintf(f, "\",throughput_unit=\"");
	om_label_value(f, unit);
	fprintf(f, "\",throughput_source=\"");
	om_label_value(f, src);
	fprintf(f, "\",complete=\"%s\"} 1\n", s->complete ? "true" : "false");
	om_family(f, "migtrace_sweep_original_value_seconds", "gauge", "The migration cost before "
		  "the sweep, restored after it.");
	fprintf(f, "migtrace_sweep_original_value_seconds %s\n",
		fmt_shortest(a, sizeof(a), (double)s->original_ns / 1e9));
	om_family(f, "migtrace_sweep_runs", "gauge", "Runs that finished at each value of the "
		  "migration cost (value_seconds).");
	for (int i = 0; i < s->nvalues; i++)
		gauge(f, "migtrace_sweep_runs", &s->sv[i], NULL, s->sv[i].n);
	om_family(f, "migtrace_sweep_throughput", "gauge", "The workload's throughput at each "
		  "value over its runs (stat: min, median, max), in the unit of "
		  "migtrace_sweep_info's throughput_unit label; higher is better.");
	for (int i = 0; i < s->nvalues; i++) {
		if (!s->sv[i].n)
			continue;
		gauge(f, "migtrace_sweep_throughput", &s->sv[i], "stat=\"min\"", s->sv[i].tmin);
		gauge(f, "migtrace_sweep_throughput", &s->sv[i], "stat=\"median\"", s->sv[i].tmed);
		gauge(f, "migtrace_sweep_throughput", &s->sv[i], "stat=\"max\"", s->sv[i].tmax);
	}
	om_family(f, "migtrace_sweep_throughput_normalised_ratio", "gauge", "Median throughput "
		  "at each value / the first value's.");
	for (int i = 0; i < s->nvalues; i++)
		if (s->sv[i].n && s->sv[0].tmed > 0)
			gauge(f, "migtrace_sweep_throughput_normalised_ratio", &s->sv[i], NULL,
			      s->sv[i].normalised);
	for (int i = 0; i < s->nvalues; i++) {
		idle |= s->sv[i].idle_med >= 0;
		witness |= s->sv[i].witness && s->schedstats_orig >= 0;
		gained |= s->sv[i].has_gained;
	}
	if (idle) {
		om_family(f, "migtrace_sweep_idle_ratio", "gauge", "Median over the runs of each "
			  "value of the CPU set's idle + iowait share of its time (/proc/stat).");
		for (int i = 0; i < s->nvalues; i++)
			if (s->sv[i].idle_med >= 0)
				gauge(f, "migtrace_sweep_idle_ratio", &s->sv[i], NULL,
				      s->sv[i].idle_med / 100);
	}
	om_family(f, "migtrace_sweep_migrations", "gauge", "Migrations of the traced tasks by "
		  "cause, summed over the runs of each value (migtrace's in-kernel counters).");
	/* a value the sweep never reached has no counts: left out, not 0 */
	for (int i = 0; i < s->nvalues; i++)
		for (int c = 0; s->sv[i].n && c < MT_NR_CAUSES; c++) {
			snprintf(extra, sizeof(extra), "cause=\"%s\"", mt_cause_names[c]);
			gauge(f, "migtrace_sweep_migrations", &s->sv[i], extra,
			      (double)s->sv[i].by_cause[c]);
		}
	om_family(f, "migtrace_sweep_lb_pulls_judged", "gauge", "Load-balancer pulls with the "
		  "kernel's own age, summed over the runs of each value.");
	for (int i = 0; i < s->nvalues; i++)
		if (s->sv[i].n)
			gauge(f, "migtrace_sweep_lb_pulls_judged", &s->sv[i], NULL,
			      (double)s->sv[i].lb_judged);
	om_family(f, "migtrace_sweep_lb_pulls_hot", "gauge", "Of those pulls, the tasks younger "
		  "than the value (hot by task_hot()'s rule), summed over the runs of each value.");
	for (int i = 0; i < s->nvalues; i++)
		if (s->sv[i].n)
			gauge(f, "migtrace_sweep_lb_pulls_hot", &s->sv[i], NULL,
			      (double)s->sv[i].lb_hot);
	if (witness) {
		om_family(f, "migtrace_sweep_kernel_failed_migrations_hot", "gauge", "The kernel's "
			  "nr_failed_migrations_hot of the traced tasks (schedstats), summed over "
			  "the runs of each value: a lower bound (read every 20 ms).");
		for (int i = 0; i < s->nvalues; i++)
			if (s->sv[i].witness)
				gauge(f, "migtrace_sweep_kernel_failed_migrations_hot", &s->sv[i],
				      NULL, (double)s->sv[i].failed_hot);
		om_family(f, "migtrace_sweep_kernel_forced_migrations", "gauge", "The kernel's "
			  "nr_forced_migrations of the traced tasks (schedstats), summed over the "
			  "runs of each value: a lower bound (read every 20 ms).");
		for (int i = 0; i < s->nvalues; i++)
			if (s->sv[i].witness)
				gauge(f, "migtrace_sweep_kernel_forced_migrations", &s->sv[i], NULL,
				      (double)s->sv[i].forced);
	}
	if (gained) {
		om_family(f, "migtrace_sweep_kernel_lb_hot_gained", "gauge", "/proc/schedstat's "
			  "lb_hot_gained over all CPUs and tasks, summed over the runs of each "
			  "value.");
		for (int i = 0; i < s->nvalues; i++)
			if (s->sv[i].has_gained)
				gauge(f, "migtrace_sweep_kernel_lb_hot_gained", &s->sv[i], NULL,
				      (double)s->sv[i].lb_hot_gained);
	}
	if (s->best >= 0) {
		om_family(f, "migtrace_sweep_best_value_seconds", "gauge", "The value with the "
			  "highest median throughput; beyond_noise: its worst run beats the "
			  "runner-up's best.");
		fprintf(f, "migtrace_sweep_best_value_seconds{beyond_noise=\"%s\"} %s\n",
			sweep_best_beyond_noise(s) ? "true" : "false",
			fmt_shortest(a, sizeof(a), (double)s->sv[s->best].value_ns / 1e9));
	}
}

/* ---- the plot ---- */

static const char *const sweep_plot_files[] = { "sweep.png", "sweep.svg" };

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
		double ms = (double)x->value_ns / 1e6;

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
		fprintf(d, "%g %g\n", (double)s->runs[i].value_ns / 1e6,
			s->runs[i].tput.value / base);
	if (fclose(d))
		return -errno;
	gp_begin(g, "sweep");
	fprintf(g, "  set title \"Sweep of the migration cost: throughput and idle time by value "
		"(%ld repetitions each)\\nthroughput from %s\" noenhanced\n", s->reps,
		s->runs[0].tput.source);
	orig_ms = (double)s->original_ns / 1e6;
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
			orig_ms, sweep_fmt_value(a, sizeof(a), s->original_ns), orig_ms);
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
	return gp_draw(dir, label, write_plot, s, sweep_plot_files,
		       (int)(sizeof(sweep_plot_files) / sizeof(sweep_plot_files[0])));
}

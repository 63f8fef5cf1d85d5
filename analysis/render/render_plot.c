// SPDX-License-Identifier: GPL-2.0
/*
 * The plots, drawn by gnuplot from data this file writes: the migration cost against age
 * with its 95 % band and the three hot times; the age histogram by cause with the kernel's
 * threshold; a heatmap of the live CPU-pair counts; a heatmap of validate's calibration
 * matrix (a run without one draws no such plot, and export_text says so); for a grid of
 * polluter rates, each rate's cost and fit against the bytes displaced and against the age,
 * with the verdict's figure and interval drawn (docs/design.md, "Bytes-driven or
 * time-driven").  Each as PNG and SVG, through gnuplot.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "render_export.h"
#include "units.h"

const char *const render_plot_files[] = {
	"cost-vs-age.png", "cost-vs-age.svg", "age-histogram.png", "age-histogram.svg",
	"cpu-pairs.png", "cpu-pairs.svg", "calibration-matrix.png", "calibration-matrix.svg",
	"grid-vs-bytes.png", "grid-vs-bytes.svg", "grid-vs-age.png", "grid-vs-age.svg",
};
const int render_plot_nfiles = (int)(sizeof(render_plot_files) / sizeof(render_plot_files[0]));

/* A vertical line at x (first axis) with its label at the top, on the side with room. */
static void vline(FILE *g, int tag, double x, const char *color, const char *label, int row,
		  bool left)
{
	char b[40];

	fprintf(g, "  set arrow %d from first %s, graph 0 to first %s, graph 1 nohead lw 2 "
		"lc rgb \"%s\" dt %d\n", tag, fmt_shortest(b, sizeof(b), x), b, color, tag);
	fprintf(g, "  set label %d \"%s\" at first %s, graph %.2f %s offset %s,0 tc rgb "
		"\"%s\"\n", tag, label, b, 0.95 - 0.06 * row, left ? "right" : "left",
		left ? "-0.5" : "0.5", color);
}

/* Cost against age: needs a correlation with cells. */
static int cost_plot(const char *tmp, FILE *g, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	/* a sequential experiment's intervals are at its looks' level */
	double level = corr_level(c);
	double lo = INFINITY, hi = 0, h[3];
	const char *names[3] = { "calibrated", "kernel", "observed" };
	const char *colors[3] = { "#1b9e77", "#d95f02", "#7570b3" };
	char b[96], a[32];
	int row = 0;
	FILE *d;


	if (render_plot_no_cost(r))
		return 0;
	d = gp_open_in(tmp, "cost.dat", "w");
	if (!d)
		return -errno;
	fprintf(d, "# age_us cost_us cost_lo_us cost_hi_us n_migrated\n");
	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];
		double age = corr_cell_age(c, i) / 1e3;

		fprintf(d, "%g %g %g %g %zu\n", age, cl->cost_ns / 1e3, cl->cost_lo_ns / 1e3,
			cl->cost_hi_ns / 1e3, cl->n_mig);
		lo = fmin(lo, age);
		hi = fmax(hi, age);
	}
	if (fclose(d))
		return -errno;
	h[0] = r->calib.valid ? r->calib.hot_ns / 1e3 : NAN;
	h[1] = r->meta.hot_ns > 0 ? (double)r->meta.hot_ns / 1e3 : NAN;
	h[2] = c->hot_state != CORR_HOT_NO_DATA ? c->hot_ns / 1e3 : NAN;
	for (int i = 0; i < 3; i++)
		if (isfinite(h[i]) && h[i] > 0) {
			lo = fmin(lo, h[i]);
			hi = fmax(hi, h[i]);
		}
	gp_begin(g, "cost-vs-age");
	fprintf(g, "  set title \"Migration cost by age (%s; %.3g %% bootstrap band)\"\n",
		c->mode == CORR_CONTROLLED ? "controlled experiment" : "natural migrations",
		100 * level);
	fprintf(g, "  set logscale x\n  set xrange [%g:%g]\n  set yrange [*<0:*]\n", lo / 2,
		hi * 2);
	fprintf(g, "  set xlabel \"age at migration (µs, log scale)\"\n"
		"  set ylabel \"migration cost (µs): penalty after a migration - after a "
		"same-CPU wake\"\n  set grid\n  set key top right box opaque\n"
		"  set xzeroaxis lt -1\n");
	for (int i = 0; i < 3; i++) {
		if (!isfinite(h[i]) || h[i] <= 0)
			continue;
		fmt_ns(a, sizeof(a), h[i] * 1e3);
		snprintf(b, sizeof(b), "%s %s%s", names[i], i == 2 && c->hot_state ==
			 CORR_HOT_ABOVE ? "> " : i == 2 && c->hot_state == CORR_HOT_NO_COST ?
			 "< " : "", a);
		/* a label past 60 % of the (log) axis is put left of its line */
		vline(g, i + 1, h[i], colors[i], b, row++,
		      log(h[i] / (lo / 2)) > 0.6 * log(4 * hi / lo));
	}
	fprintf(g, "  plot \"cost.dat\" using 1:3:4 with filledcurves lc rgb \"#a6cee3\" "
		"fs transparent solid 0.5 title \"%.3g %% interval\", \\\n"
		"       \"cost.dat\" using 1:2 with linespoints lw 2 pt 7 lc rgb \"#1f78b4\" "
		"title \"migration cost\"\n", 100 * level);
	gp_end(g);
	return 0;
}

/* The age histogram by cause: stacked bars per log2 slot, the threshold drawn. */
static int age_plot(const char *tmp, FILE *g, const struct run *r)
{
	int first = MT_HIST_SLOTS, last = -1, ncol = 0, col[MT_NR_CAUSES];
	double t_us = (double)r->meta.hot_ns / 1e3;
	char a[32], b[64];
	FILE *d;

	for (int c = 0; c < MT_NR_CAUSES; c++) {
		bool any = false;

		for (int k = 0; k < MT_HIST_SLOTS; k++)
			if (r->hists.age[c][k]) {
				any = true;
				first = k < first ? k : first;
				last = k > last ? k : last;
			}
		if (any)
			col[ncol++] = c;
	}
	if (t_us >= 1) {
		int kt = (int)floor(log2(t_us));

		first = kt < first ? kt : first;
		last = kt > last ? kt : last;
	}
	if (last < 0)
		return 0;
	if (last >= MT_HIST_SLOTS)
		last = MT_HIST_SLOTS - 1;
	d = gp_open_in(tmp, "age.dat", "w");
	if (!d)
		return -errno;
	fprintf(d, "slot");
	for (int i = 0; i < ncol; i++)
		fprintf(d, " \"%s\"", mt_cause_titles[col[i]]);
	fprintf(d, "\n");
	for (int k = first; k <= last; k++) {
		if (k + 1 < MT_HIST_SLOTS)
			fprintf(d, "\"%llu-%llu\"", k ? 1ULL << k : 0ULL, (1ULL << (k + 1)) - 1);
		else
			fprintf(d, "\"%llu-\"", 1ULL << k);
		for (int i = 0; i < ncol; i++)
			fprintf(d, " %llu", (unsigned long long)r->hists.age[col[i]][k]);
		if (!ncol)
			fprintf(d, " 0");
		fprintf(d, "\n");
	}
	if (fclose(d))
		return -errno;
	gp_begin(g, "age-histogram");
	fprintf(g, "  set title \"Age at migration by cause (in-kernel log2 histogram, "
		"complete)\"\n  set style data histograms\n  set style histogram rowstacked\n"
		"  set style fill solid 0.85 border -1\n  set boxwidth 0.8\n"
		"  set xtics rotate by -45 nomirror\n  set grid ytics\n  set key top left box "
		"opaque\n  set yrange [0:*]\n  set offsets 0,0,graph 0.15,0\n"
		"  set xlabel \"age at migration (µs, log2 slot: from-to)\" offset 0,-1\n"
		"  set ylabel \"migrations\"\n  set xrange [-0.6:%g]\n", last - first + 0.6);
	/* slot k's bar is centred at k - first and spans [2^k, 2^(k+1)) µs */
	if (t_us >= 1) {
		snprintf(b, sizeof(b), "kernel threshold %s", fmt_ns(a, sizeof(a),
			 (double)r->meta.hot_ns));
		vline(g, 1, log2(t_us) - first - 0.5, "#d62728", b, 0,
		      log2(t_us) - first > 0.6 * (last - first + 1));
	}
	if (ncol)
		fprintf(g, "  plot for [i=2:%d] \"age.dat\" using i:xtic(1) title columnheader\n",
			ncol + 1);
	else
		/* one empty slot, the threshold's: its tic named by hand (gnuplot draws none
		 * for a histogram of one row) */
		fprintf(g, "  set yrange [0:1]\n  set key off\n  set label 9 \"no migrations in "
			"this run\" at graph 0.5, graph 0.5 center\n  set xtics (\"%llu-%llu\" 0)\n"
			"  plot \"age.dat\" using 2 notitle\n", first ? 1ULL << first : 0ULL,
			(1ULL << (first + 1)) - 1);
	gp_end(g);
	return 0;
}

/* The live CPU-pair counts as a heatmap, over the CPUs that took part. */
static int pairs_plot(const char *tmp, FILE *g, const struct run *r)
{
	int n = r->meta.nr_cpus, lo = n, hi = -1;
	FILE *d;

	for (int i = 0; r->pairs && i < n * n; i++)
		if (r->pairs[i]) {
			lo = i / n < lo ? i / n : lo;
			lo = i % n < lo ? i % n : lo;
			hi = i / n > hi ? i / n : hi;
			hi = i % n > hi ? i % n : hi;
		}
	if (hi < 0)
		return 0;
	d = gp_open_in(tmp, "pairs.dat", "w");
	if (!d)
		return -errno;
	for (int s = lo; s <= hi; s++)
		for (int t = lo; t <= hi; t++)
			fprintf(d, "%d %d %llu\n", t, s,
				(unsigned long long)r->pairs[s * n + t]);
	if (fclose(d))
		return -errno;
	gp_begin(g, "cpu-pairs");
	fprintf(g, "  set title \"Migrations by CPU pair (this run, all causes)\"\n"
		"  set xlabel \"destination CPU\"\n  set ylabel \"source CPU\"\n"
		"  set cblabel \"migrations\"\n  set xrange [%g:%g]\n  set yrange [%g:%g]\n"
		"  set xtics 1\n  set ytics 1\n  set size ratio -1\n"
		"  set palette defined (0 \"white\", 1 \"#fdae6b\", 2 \"#e6550d\", 3 \"#7f2704\")\n"
		"  set cbrange [0:*]\n", lo - 0.5, hi + 0.5, hi + 0.5, lo - 0.5);
	fprintf(g, "  plot \"pairs.dat\" using 1:2:3 with image notitle, \\\n"
		"       \"pairs.dat\" using 1:2:($1 == $2 ? \"-\" : sprintf(\"%%d\", $3)) with "
		"labels notitle\n");
	gp_end(g);
	return 0;
}

const char *render_plot_no_cost(const struct run *r)
{
	const struct corr_result *c = &r->corr;

	if (!r->has_corr || !c->ncells)
		return "the run has no correlation (no units to time)";
	/* cells with one arm only (no same-CPU wake, or no migration, at that age) have no
	 * cost: a plot of none of them would be an empty frame, and gnuplot refuses it */
	for (int i = 0; i < c->ncells; i++)
		if (isfinite(c->cells[i].cost_ns))
			return NULL;
	return "no age has both a migration and a same-CPU wake to compare";
}

const char *render_plot_no_matrix(const struct run *r)
{
	const struct run_calibration *c = &r->calib;

	if (!c->valid)
		return "this run was not calibrated (validate calibrates; run does not)";
	if (!c->inline_run)
		return "its calibrated hot time came from --calibration FILE, whose matrix the run "
		       "does not keep";
	if (!c->cal.cells)
		return "its run file predates calibration.measured.cells";
	return NULL;
}

/*
 * validate's calibration matrix: per move, the median of the undisturbed fills (what the
 * robust hot time is made of), with how many fills were undisturbed, the plain median and
 * the cell the seed took (the worst of its first fills) written beside it.  Axes are the
 * two CPUs, by index, named by their numbers, which need not be adjacent.
 */
static int calib_plot(const char *tmp, FILE *g, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char und[32], med[32], seed[32];
	FILE *d;

	if (render_plot_no_matrix(r))
		return 0;
	d = gp_open_in(tmp, "calib.dat", "w");
	if (!d)
		return -errno;
	fprintf(d, "# dst_index src_index fill_undisturbed_median_us label\n");
	for (int i = 0; i < RUN_CALIB_CELLS; i++) {
		const struct calib_cell *x = &c->cells[i];

		fprintf(d, "%d %d %g \"undisturbed %s (%d fills)\\nall fills: median %s\\n"
			"seed's cell %s\"\n", i % 2, i / 2, x->fill_undisturbed_ns / 1e3,
			fmt_ns(und, sizeof(und), x->fill_undisturbed_ns), x->fills_undisturbed,
			fmt_ns(med, sizeof(med), x->fill_median_ns),
			fmt_ns(seed, sizeof(seed), (double)x->cost_ns));
	}
	if (fclose(d))
		return -errno;
	gp_begin(g, "calibration-matrix");
	fprintf(g, "  set title \"Calibration matrix (validate, method %d): median undisturbed "
		"fill time after a move, by CPU pair\\n%d timed fills per pair; the seed's cell: "
		"the worst of the first 20 x 6\" noenhanced\n"
		"  set xlabel \"destination CPU\"\n  set ylabel \"source CPU\"\n"
		"  set cblabel \"median undisturbed fill time after the move (µs)\" offset 1.5,0\n"
		"  set xrange [-0.5:1.5]\n  set yrange [1.5:-0.5]\n"
		"  set xtics (\"%d\" 0, \"%d\" 1)\n  set ytics (\"%d\" 0, \"%d\" 1)\n"
		"  set size ratio -1\n"
		/* light enough at the top for the black labels to read */
		"  set palette defined (0 \"white\", 1 \"#deebf7\", 2 \"#9ecae1\", 3 "
		"\"#4292c6\")\n  set cbrange [0:*]\n", c->method, c->reps, c->cpus.cpu[0],
		c->cpus.cpu[1], c->cpus.cpu[0], c->cpus.cpu[1]);
	fprintf(g, "  plot \"calib.dat\" using 1:2:3 with image notitle, \\\n"
		"       \"calib.dat\" using 1:2:4 with labels noenhanced notitle\n");
	gp_end(g);
	return 0;
}

/* The grid's cells, one gnuplot data block per rate (cells come grouped by rate). */
static int grid_data(const char *tmp, const struct corr_result *c)
{
	FILE *d = gp_open_in(tmp, "grid.dat", "w");

	if (!d)
		return -errno;
	fprintf(d, "# age_us displaced_kib cost_us cost_lo_us cost_hi_us fit_us\n");
	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];

		if (i && cl->rate_mbps != c->cells[i - 1].rate_mbps)
			fprintf(d, "\n\n");
		fprintf(d, "%g %g %g %g %g %g\n", cl->age_ns / 1e3, cl->displaced_bytes / 1024,
			cl->cost_ns / 1e3, cl->cost_lo_ns / 1e3, cl->cost_hi_ns / 1e3,
			cl->fit_cost_ns / 1e3);
	}
	return fclose(d) ? -errno : 0;
}

/* A shaded band [lo, hi] on the x axis (an end out of range: the graph's edge). */
static void xband(FILE *g, int tag, double lo, double hi, const char *color)
{
	char a[40], b[40];

	fprintf(g, "  set object %d rect from %s %s, graph 0 to %s %s, graph 1 behind fc rgb "
		"\"%s\" fs transparent solid 0.15 noborder\n", tag, lo > 0 ? "first" : "graph",
		lo > 0 ? fmt_shortest(a, sizeof(a), lo) : "0", isfinite(hi) ? "first" : "graph",
		isfinite(hi) ? fmt_shortest(b, sizeof(b), hi) : "1", color);
}

/* One grid plot: each rate's cost (points, interval bars) and fit (line) against x, the
 * grid.dat column xcol. */
static void grid_series(FILE *g, const struct corr_result *c, int xcol)
{
	char r[32];

	fprintf(g, "  plot");
	for (int k = 0; k < c->nrates; k++) {
		fmt_rate(r, sizeof(r), c->rates[k].rate_mbps);
		fprintf(g, "%s \"grid.dat\" index %d using %d:3:4:5 with yerrorbars pt 7 "
			"lc %d title \"%s\", \\\n       \"grid.dat\" index %d using %d:6 with "
			"lines lw 2 lc %d notitle", k ? ", \\\n      " : "", k, xcol, k + 1,
			c->rates[k].rate_mbps > 0 ? r : "as fast as it can", k, xcol, k + 1);
	}
	fprintf(g, "\n");
}

/*
 * A grid of rates: the cost against the bytes displaced (D* where it falls) and against the
 * age (the kernel's value, and the pooled hot time by age with its interval when the verdict
 * is in those terms): the two models side by side, and the decision drawn on its axis.
 */
static int grid_plots(const char *tmp, FILE *g, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	const struct verdict *v = &r->verdict;
	double level = 100 * corr_level(c);
	double K_us = (double)r->meta.hot_ns / 1e3;
	char a[32], b[96];
	int err;

	if (c->axis != CORR_AXIS_DISPLACED || !c->ncells || !c->nrates)
		return 0;
	err = grid_data(tmp, c);
	if (err)
		return err;
	gp_begin(g, "grid-vs-bytes");
	fprintf(g, "  set title \"Migration cost by bytes displaced, per polluter rate (bars: "
		"%.3g %% intervals; lines: the monotone fit)\"\n", level);
	fprintf(g, "  set logscale x\n  set xlabel \"bytes the polluter displaced while away "
		"(KiB, log scale)\"\n  set ylabel \"migration cost (µs)\"\n  set grid\n"
		"  set key top right box opaque\n  set xzeroaxis lt -1\n");
	if (c->dstar.state == CORR_HOT_FOUND) {
		xband(g, 1, c->dstar.lo / 1024, c->dstar.hi / 1024, "#7570b3");
		snprintf(b, sizeof(b), "D* %s", fmt_bytes(a, sizeof(a), (uint64_t)c->dstar.at));
		vline(g, 1, c->dstar.at / 1024, "#7570b3", b, 0, false);
	}
	grid_series(g, c, 2);
	gp_end(g);

	gp_begin(g, "grid-vs-age");
	fprintf(g, "  set title \"Migration cost by age, per polluter rate (regime: %s; verdict: "
		"%s; lines: the fit on bytes displaced)\"\n", model_regime_names[v->model.regime],
		verdict_names[v->kind]);
	fprintf(g, "  set logscale x\n  set xlabel \"age at migration (µs, log scale)\"\n"
		"  set ylabel \"migration cost (µs)\"\n  set grid\n"
		"  set key top right box opaque\n  set xzeroaxis lt -1\n");
	if (K_us > 0) {
		snprintf(b, sizeof(b), "kernel %s", fmt_ns(a, sizeof(a), K_us * 1e3));
		vline(g, 1, K_us, "#d95f02", b, 0, false);
	}
	/* the pooled hot time by age is the verdict's figure when it is in the time-driven
	 * model's terms */
	if ((v->model.regime == MODEL_TIME || v->model.regime == MODEL_BOTH) &&
	    isfinite(v->hot_ns) && v->hot_ns > 0 && v->kind != VERDICT_BY_RATE) {
		xband(g, 2, v->hot_lo_ns / 1e3, v->hot_hi_ns / 1e3, "#7570b3");
		snprintf(b, sizeof(b), "hot time by age %s (%.3g %% band)",
			 fmt_ns(a, sizeof(a), v->hot_ns), level);
		vline(g, 2, v->hot_ns / 1e3, "#7570b3", b, 1, false);
	}
	grid_series(g, c, 1);
	gp_end(g);
	return 0;
}

/* Every plot of r into gnuplot's input. */
static int write_plots(const char *tmp, FILE *g, const void *ctx)
{
	const struct run *r = ctx;
	int err = cost_plot(tmp, g, r);

	if (!err)
		err = age_plot(tmp, g, r);
	if (!err)
		err = pairs_plot(tmp, g, r);
	if (!err)
		err = calib_plot(tmp, g, r);
	if (!err)
		err = grid_plots(tmp, g, r);
	return err;
}

int render_plot(const char *dir, const struct run *r, const char *label)
{
	return gp_draw(dir, label, write_plots, r, render_plot_files, render_plot_nfiles);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exports a run can be taken away as, each made from the run model only (so `migtrace
 * report` makes the same files from a saved run): CSV tables, a Prometheus text exposition,
 * a Chrome trace-event file for ui.perfetto.dev, gnuplot plots, and the what-if table, an
 * estimate from this run of what other thresholds would have judged.
 */
#ifndef MIGTRACE_RENDER_EXPORT_H
#define MIGTRACE_RENDER_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "interval.h"
#include "run.h"
#include "run_schema.h"
#include "whatif.h"

/* The what-if table as the text prints it, labelled as an estimate. */
void render_whatif_text(FILE *f, const struct whatif *w);

/* The CSV files a run is exported as, in order: each its name and what writes it. */
struct render_csv_file {
	const char *name;		/* "migrations.csv" */
	void (*write)(FILE *f, const struct run *r, const struct whatif *w);
	bool whatif;			/* made of the what-if table: only with --what-if */
	bool probes;			/* run --probe-moves': only for a run made with it */
};
extern const struct render_csv_file render_csv_files[];
extern const int render_csv_nfiles;
/* The Prometheus text exposition (format 0.0.4) of r; w may be NULL; version is the
 * writing migtrace's, for migtrace_build_info. */
void render_openmetrics(FILE *f, const struct run *r, const struct whatif *w,
			const char *version);
/*
 * The live exposition of `run --textfile`, written again at each interval: the run's
 * counters and histograms since tracing began (its stats and hists; no CPU pairs, whose
 * nr_cpus^2 series are no fleet's), the threshold with its origin, the verdict's figures when
 * the run has one, migtrace_build_info, the cumulative wake-up latency, the intervals
 * ended, and -P's top processes.  Histogram sums are slot estimates throughout, so that each
 * only grows.
 */
struct om_live {
	const struct interval *last;		/* the last interval ended; NULL: none yet */
	const char *version;			/* migtrace's, for migtrace_build_info */
	const struct interval_pids *pids;	/* -P's counts; NULL without -P */
};
void render_openmetrics_live(FILE *f, const struct run *r, const struct om_live *live);
/*
 * OpenMetrics 1.0 of a text-format exposition that render_openmetrics(),
 * render_openmetrics_live() or render_sweep_openmetrics() wrote: the same samples, a
 * counter's family without its "_total", a *_info gauge an info family, and "# EOF".
 */
void render_om1(FILE *f, const char *text, size_t len);
/* Chrome trace-event JSON of r's records, for ui.perfetto.dev.  0 or -ENOMEM / -EIO. */
int render_perfetto(FILE *f, const struct run *r);
/* The same as a native Perfetto protobuf trace (render_perfetto_pb.c: thread and CPU tracks,
 * units as slices, migrations as instants with their figures, counter tracks).  0 or
 * -ENOMEM / -EIO. */
int render_perfetto_pb(FILE *f, const struct run *r);
/* Whether path names a native Perfetto trace by its suffix: .pftrace, .perfetto-trace. */
bool render_perfetto_native(const char *path);
/*
 * The plots of r as PNG and SVG in dir (which exists), made by gnuplot in a temporary
 * directory inside dir and renamed into it file by file.  0 or -errno, with one line on
 * stderr starting with label.
 */
int render_plot(const char *dir, const struct run *r, const char *label);
/* The files render_plot() may write in dir. */
extern const char *const render_plot_files[];
extern const int render_plot_nfiles;
/* Why r has no cost-vs-age plot to draw (a clause), or NULL when it has one. */
const char *render_plot_no_cost(const struct run *r);
/* Why r has no calibration matrix to draw (a clause), or NULL when it has one. */
const char *render_plot_no_matrix(const struct run *r);

/* A schema member (run_schema.h) as CSV: its column names; its cells (1, or 1 + nnames for
 * RS_U64_NAMED), empty where it is null, a non-finite double "NaN"/"+Inf" when nonfinite
 * says so, else empty; as many empty cells.  Separated by commas, none before or after. */
void csv_names(FILE *f, const struct rs_field *fl);
void csv_cells(FILE *f, const void *base, const struct rs_field *fl, bool nonfinite);
void csv_empty(FILE *f, const struct rs_field *fl);
/* Shared by the run's and the sweep's exports: a text-format family's HELP and TYPE lines;
 * a label value, escaped (bytes that are not UTF-8 become '?'). */
void om_family(FILE *f, const char *name, const char *type, const char *help);
void om_label_value(FILE *f, const char *s);
/* migtrace_build_info{version,revision,backend} 1, with its HELP and TYPE: version is
 * --version's "0.1 (f85a8a2)", split into the release and the revision. */
void om_build_info(FILE *f, const char *version, const char *backend);
/* A workload as a label may name it: the file name of its program (argv0), cut at
 * OM_WORKLOAD_MAX bytes as the kernel cuts a comm, bytes other than [A-Za-z0-9._+-] made
 * '_'; never its arguments.  Returns buf. */
#define OM_WORKLOAD_MAX 15
char *om_workload_name(char *buf, size_t len, const char *argv0);
/* What r traced, as every export names it: the launched program's name (om_workload_name),
 * or how the tasks were chosen: "pid", "cgroup", "all", "trace-cmd".  The whole command
 * line stays in the run file. */
const char *render_workload_name(const struct run *r, char *buf, size_t len);

/* The shortest decimal that reads back as v ("0.5", "1e-06"); "NaN" when not finite. */
char *fmt_shortest(char *buf, size_t len, double v);

#endif

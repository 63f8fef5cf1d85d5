/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exports a run can be taken away as, each made from the run model only (so `migtrace
 * report` makes the same files from a saved run): CSV tables, a Prometheus text exposition,
 * a Chrome trace-event file for ui.perfetto.dev, gnuplot plots, and the what-if table, an
 * estimate from this run of what other thresholds would have judged.
 */
#ifndef MIGTRACE_RENDER_EXPORT_H
#define MIGTRACE_RENDER_EXPORT_H
#ifdef __KERNEL__
#error "analysis/render_export.h is for user space"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run.h"

#define WHATIF_MAX 16

/* One threshold T, judged over this run's records and correlation. */
struct whatif_row {
	int64_t threshold_ns;		/* T, ns */
	uint64_t lb_judged;		/* load-balancer pull records with the kernel's age */
	uint64_t lb_hot;		/* of them, MT_TASK_HOT(kernel_age_ns, T) */
	uint64_t wakeups;		/* wakeup placement records */
	uint64_t wakeup_hot;		/* of them, with age_ns under T (MT_TASK_HOT) */
	bool has_cost;			/* the run has a correlation */
	int cost_cells;			/* correlation cells whose age is under T */
	size_t cost_units;		/* migrated units in those cells */
	double cost_ns;			/* sum over those units of their cell's cost (>= 0), ns */
};

struct whatif {
	int n;
	bool records_complete;		/* no record lost or left unkept: counts are the run's */
	struct whatif_row row[WHATIF_MAX];
};

/* The what-if rows for thresholds t_ns[0..n) (n <= WHATIF_MAX). */
void whatif_compute(const struct run *r, const int64_t *t_ns, int n, struct whatif *w);
/* The what-if table as the text prints it, labelled as an estimate. */
void render_whatif_text(FILE *f, const struct whatif *w);

/* The CSV files a run is exported as, in order; each written by render_csv_file(). */
extern const char *const render_csv_names[];
extern const int render_csv_nfiles;
/* CSV file i (of render_csv_names) of r; w may be NULL (whatif.csv is then not wanted). */
void render_csv_file(FILE *f, int i, const struct run *r, const struct whatif *w);
/* The Prometheus text exposition (format 0.0.4) of r; w may be NULL. */
void render_openmetrics(FILE *f, const struct run *r, const struct whatif *w);
/* Chrome trace-event JSON of r's records, for ui.perfetto.dev.  0 or -ENOMEM / -EIO. */
int render_perfetto(FILE *f, const struct run *r);
/*
 * The plots of r as PNG and SVG in dir (which exists), made by gnuplot in a temporary
 * directory inside dir and renamed into it file by file.  0 or -errno, with one line on
 * stderr starting with label.
 */
int render_plot(const char *dir, const struct run *r, const char *label);
/* Why r has no calibration matrix to draw (a clause), or NULL when it has one. */
const char *render_plot_no_matrix(const struct run *r);

/* Shared by the run's and the sweep's exports: a CSV field of n bytes, quoted as RFC 4180
 * says when it holds a comma, a quote or a line break; a text-format family's HELP and TYPE
 * lines; a label value, escaped (bytes that are not UTF-8 become '?'). */
void csv_string(FILE *f, const char *s, size_t n);
void om_family(FILE *f, const char *name, const char *type, const char *help);
void om_label_value(FILE *f, const char *s);

/* The shortest decimal that reads back as v ("0.5", "1e-06"); "NaN" when not finite. */
char *fmt_shortest(char *buf, size_t len, double v);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* The sweep rendered: its table, the sweep file and its exports (docs/sweep-file.md). */
#ifndef MIGTRACE_RENDER_SWEEP_H
#define MIGTRACE_RENDER_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sweep.h"

/* A value as the table shows it: "5 ms", "2.5 ms", "50 µs", "500 ns". */
char *sweep_fmt_value(char *buf, size_t len, int64_t ns);
/* A value of the knob s swept: a duration for the migration cost, else "1", "20 %". */
char *sweep_fmt_knob(const struct sweep *s, char *buf, size_t len, int64_t v);

/* The table sweep prints. */
void render_sweep_text(FILE *f, const struct sweep *s);
/* The sweep file (SWEEP_SCHEMA, docs/sweep-file.md).  0 or -errno. */
int render_sweep_json(FILE *f, const struct sweep *s);
/* sweep.csv: a row per run, then a summary row per value. */
void render_sweep_csv(FILE *f, const struct sweep *s);
/* The Prometheus text exposition of the summary: gauges labelled by value. */
void render_sweep_openmetrics(FILE *f, const struct sweep *s);
/* sweep.png/.svg in dir (which exists): normalised throughput and idle % against the value.
 * 0 or -errno, with one line on stderr starting with label. */
int render_sweep_plot(const char *dir, const struct sweep *s, const char *label);
/* The files render_sweep_plot() writes in dir. */
extern const char *const render_sweep_plot_files[];
extern const int render_sweep_plot_nfiles;

#endif

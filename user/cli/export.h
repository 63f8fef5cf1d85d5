/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The export options `run`, `validate` and `report` share (--csv, --openmetrics, --perfetto,
 * --plot, --what-if), and `sweep` (--csv, --openmetrics, --plot): one table of exporters
 * (export.c) makes the argp child, the check before any work, the render step and sweep's
 * refusals.  User space only.
 */
#ifndef MIGTRACE_EXPORT_H
#define MIGTRACE_EXPORT_H

#include <argp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "render_export.h"
#include "run.h"
#include "render_sweep.h"

struct export_opts {
	const char *csv_dir;		/* --csv DIR */
	const char *openmetrics;	/* --openmetrics FILE: OpenMetrics 1.0 */
	const char *prometheus;		/* --prometheus FILE: the text format 0.0.4 */
	const char *perfetto;		/* --perfetto FILE */
	const char *plot_dir;		/* --plot DIR */
	const char *whatif_arg;		/* --what-if as given, parsed into: */
	int nwhatif;			/* --what-if: thresholds given */
	int64_t whatif_ns[WHATIF_MAX];	/* ns */
};

/* The options, as an argp child: its input is a struct export_opts. */
extern const struct argp export_argp;
/* sweep's: the options it refuses are hidden from its --help */
extern const struct argp export_sweep_argp;

/* Any file to write? */
bool export_files_wanted(const struct export_opts *o);
/* At sweep's ARGP_KEY_END: refuses (argp_error, exit 2) an option that has no sweep writer,
 * a run's own (--perfetto, --what-if), saying why. */
void export_refuse_for_sweep(struct argp_state *state, const struct export_opts *o);
/* The paths a command gives export_check beside the exports', at most. */
#define EXPORT_OWN_MAX 8

/*
 * Before any work: every output path can be written (a directory for --csv/--plot exists or
 * can be made in a writable parent), gnuplot is there for --plot; then no output would
 * replace an input or another output, among the command's own paths (own: its inputs, -o,
 * --text) and the exports' (mt_cli_distinct; sweep: the files a sweep's exports write).
 * 0, or MT_EXIT_USAGE after one line on stderr naming the options and the paths.
 */
int export_check(const struct export_opts *o, const char *cmd, bool sweep,
		 const struct mt_cli_path *own, int nown);
/* The what-if table in the text, when --what-if was given; with --plot, a line for a plot
 * the run has no data for (the calibration matrix). */
void export_text(const struct export_opts *o, FILE *text, const struct run *r);
/* The files, each written whole or not at all.  0, or -errno after a line on stderr. */
int export_files(const struct export_opts *o, const struct run *r, const char *cmd);
/* A sweep's: --csv (sweep.csv), --openmetrics, --plot; the same checks and guarantees.
 * --perfetto and --what-if are a run's, refused by sweep's options. */
int export_sweep_files(const struct export_opts *o, const struct sweep *s, const char *cmd);

#endif

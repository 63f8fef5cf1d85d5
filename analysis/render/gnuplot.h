/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gnuplot plumbing the plots share: a temporary directory in the output directory, the
 * script written into it, gnuplot run there, the images renamed out one by one.
 */
#ifndef MIGTRACE_GNUPLOT_H
#define MIGTRACE_GNUPLOT_H

#include <stdio.h>

#define PLOT_W 960	/* pixels (PNG) or points (SVG) */
#define PLOT_H 600

/* A file in the temporary directory tmp; NULL with errno set. */
FILE *gp_open_in(const char *tmp, const char *name, const char *mode);
/* Opens and closes the loop one plot is drawn in: NAME.png, then NAME.svg. */
void gp_begin(FILE *g, const char *name);
void gp_end(FILE *g);

/* Writes the data files into tmp and the script into g.  0 or -errno. */
typedef int (*gp_write_fn)(const char *tmp, FILE *g, const void *ctx);

/*
 * Draws what write puts in the script and moves files[0..nfiles) into dir (which exists);
 * a file gnuplot did not draw (no data for it) is skipped.  0 or -errno, with one line on
 * stderr starting with label.
 */
int gp_draw(const char *dir, const char *label, gp_write_fn write, const void *ctx,
	    const char *const *files, int nfiles);

#endif

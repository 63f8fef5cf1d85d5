/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing a calibration (calib.h): the 2004 and 2005 kernel logs, migtrace's own report,
 * the --sweep-size table.  Only formatting: every number is in the model.
 */
#ifndef MIGTRACE_CALIB_REPORT_H
#define MIGTRACE_CALIB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "calib.h"

/*
 * Before measuring, from a calibration prepared but not measured: "Calibrating migration
 * cost between CPUs … against the … (buffer …), method N.", and --dry-run's line.
 */
void calib_print_intro(FILE *f, const struct calibration *c);
void calib_print_dry_run(FILE *f, const struct calibration *c);
/*
 * The 2004 kernel log: "migration cost matrix (cache_size: …)" … "using cache_decay nsec",
 * with the kernel's value (c->tunable.value_ns) as the arch's cache_decay_nsec.
 */
void calib_print_seed_2004(FILE *f, const struct calibration *c);
/* The 2005 (2.6.16) log: "| migration cost matrix (max_cache_size: …)", "cacheflush times". */
void calib_print_seed_2005(FILE *f, const struct calibration *c);
/* migtrace's report in real units with spread, hot time and the kernel's value beside it. */
void calib_print_report(FILE *f, const struct calibration *c);
/* --sweep-size: the table's head, the row of c->sizes[i] (as each is measured), the peak. */
void calib_print_sweep_head(FILE *f, const struct calibration *c);
void calib_print_sweep_size(FILE *f, const struct calibration *c, int i);
void calib_print_sweep_peak(FILE *f, const struct calibration *c);
/*
 * The pollution rate the 2004 rule's x 6 assumes (calib_assumed_mbps()), one line; nothing
 * without a hot time.
 */
void calib_print_assumed_rate(FILE *f, const struct calibration *c);
/*
 * The chase (c->chase; nothing without it): how it was measured, then per pair and working
 * set the refill cost a line by chain count, a migration of the set, the residual and D*;
 * brief leaves out the table of the cost over D.
 */
void calib_print_chase(FILE *f, const struct calibration *c, bool brief);
/* The 2004 seed's text cell for a delta: "%3Ld.%ld" of delta >> 20, into buf. */
char *calib_seed_cell(char *buf, int len, uint64_t delta);
/* Where a calibration's cache size came from, as the text names it: "CPUID" for "cpuid",
 * others as they are, made printable into buf[len]. */
const char *calib_source_name(char *buf, size_t len, const char *source);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Printing a calibration: the 2004 and 2005 kernel logs, migtrace's own report, JSON. */
#ifndef MIGTRACE_CALIB_REPORT_H
#define MIGTRACE_CALIB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "calibrate.h"

struct json_object;
struct topology;
struct tunable;

/*
 * CPUs grouped by measured cost, against the LLC grouping the topology gives (from sysfs or
 * CPUID).  When some calibrated CPU's LLC sharing is unknown there is no LLC grouping to
 * compare with: llc_known is 0, sysfs_ngroups 0, and llc_why says why.
 */
struct calib_groups {
	int ngroups;
	int group_of[MT_MAX_CPUS_USER];		/* by index into the calibrated CPU list */
	int llc_known;
	char llc_source[16];			/* "sysfs", "CPUID" or "sysfs+CPUID" */
	char llc_why[200];			/* when !llc_known */
	int sysfs_ngroups;			/* LLC groups, whichever source gave them */
	int sysfs_group_of[MT_MAX_CPUS_USER];
	double split_ratio;			/* max / min cross cost; grouping needs >= 1.3 */
	int agree;				/* 1 when both groupings are the same partition */
};

/* The 2004 kernel log: "migration cost matrix (cache_size: …)" … "using cache_decay nsec". */
void calib_print_seed_2004(FILE *f, const struct calib_result *r, long cpu_mhz,
			   int64_t arch_decay_ns);
/* The 2005 (2.6.16) log: "| migration cost matrix (max_cache_size: …)", "cacheflush times". */
void calib_print_seed_2005(FILE *f, const struct calib_result *r, long cpu_mhz);
/* migtrace's report in real units with spread, hot time and the kernel's value beside it. */
void calib_print_report(FILE *f, const struct calib_result *r, const struct topology *t,
			const struct tunable *k);

void calib_group(const struct calib_result *r, const struct topology *t,
		 struct calib_groups *g);
/* The run record of a calibration (schema migtrace.calibrate/1).  NULL on ENOMEM. */
struct json_object *calib_to_json(const struct calib_result *r, const struct topology *t,
				  const struct tunable *k);
/* The 2004 seed's text cell for a delta: "%3Ld.%ld" of delta >> 20, into buf. */
char *calib_seed_cell(char *buf, int len, uint64_t delta);

#endif

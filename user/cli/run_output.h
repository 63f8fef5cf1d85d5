/* SPDX-License-Identifier: GPL-2.0 */
/* Saving a run or calibration file: whole or not at all, through atomic_file. */
#ifndef MIGTRACE_RUN_OUTPUT_H
#define MIGTRACE_RUN_OUTPUT_H

#include "run.h"

/* Writes r's run file to path ("-": stdout).  0 or -errno, with one line on stderr naming
 * the file and what failed; a regular file is then left as it was. */
int run_output_save(const char *path, const struct run *r, const char *cmd);
/* The same for c's calibration file (docs/calibration-file.md). */
int calib_output_save(const char *path, const struct calibration *c, const char *cmd);

#endif

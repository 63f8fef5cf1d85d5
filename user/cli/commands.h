/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of the migtrace binary.  Each returns the process exit status. */
#ifndef MIGTRACE_COMMANDS_H
#define MIGTRACE_COMMANDS_H

#include "status.h"

int cmd_calibrate(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

struct export_opts;
struct run;
struct run_config;

/*
 * The run command's stages, in one straight line: resolve the configuration, capture,
 * analyze, render the text, write the run file and the exports.  r: the model to fill
 * (validate's holds its calibration already), or NULL for a new one.  Returns the exit
 * status.
 */
int run_command(struct run_config *cfg, const struct export_opts *exports, struct run *r);

#endif

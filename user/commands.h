/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of the migtrace binary.  Each returns the process exit status. */
#ifndef MIGTRACE_COMMANDS_H
#define MIGTRACE_COMMANDS_H
#ifdef __KERNEL__
#error "user/commands.h is for user space"
#endif

/* Exit statuses shared by every command. */
#define MT_EXIT_OK 0
#define MT_EXIT_FAIL 1		/* the work could not be done: the message says why */
#define MT_EXIT_USAGE 2		/* bad command line: one line saying which argument */

int cmd_calibrate(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

struct run;
struct run_config;

/*
 * The run command's stages, in one straight line: resolve the configuration, capture,
 * analyze, render the text, write the run file.  r: the model to fill (validate's holds
 * its calibration already), or NULL for a new one.  Returns the exit status.
 */
int run_command(struct run_config *cfg, struct run *r);

/* Set by -v on any command: libbpf's debug messages and extra detail. */
extern int mt_verbose;

#endif

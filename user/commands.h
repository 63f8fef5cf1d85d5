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

/* A calibrated hot time handed to `run` (by validate, or read from --calibration). */
struct run_calibration {
	int valid;
	double hot_ns;			/* ns */
	char source[600];		/* where it came from */
};

/* migtrace run, with an inline calibration for the verdict (NULL: none, or --calibration). */
int run_command(int argc, char **argv, const struct run_calibration *cal);
int cmd_validate(int argc, char **argv);

/* Set by -v on any command: libbpf's debug messages and extra detail. */
extern int mt_verbose;

#endif

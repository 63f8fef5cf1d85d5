/* SPDX-License-Identifier: GPL-2.0 */
/* What every layer says the same way: the exit statuses of the commands, and -v. */
#ifndef MIGTRACE_STATUS_H
#define MIGTRACE_STATUS_H

/* Exit statuses shared by every command. */
#define MT_EXIT_OK 0
#define MT_EXIT_FAIL 1		/* the work could not be done: the message says why */
#define MT_EXIT_USAGE 2		/* bad command line: one line saying which argument */
/* another migtrace holds what this one would change (a sweep's tunable): nothing was done,
 * try again once it ends (sysexits.h's EX_TEMPFAIL) */
#define MT_EXIT_BUSY 75

/* Set by -v on any command: libbpf's debug messages and extra detail. */
extern int mt_verbose;

#endif

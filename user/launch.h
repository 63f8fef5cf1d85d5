/* SPDX-License-Identifier: GPL-2.0 */
/* Starting the traced workload: fork, pin, hold at a barrier until tracing is attached. */
#ifndef MIGTRACE_LAUNCH_H
#define MIGTRACE_LAUNCH_H
#ifdef __KERNEL__
#error "user/launch.h is for user space"
#endif

#include <stddef.h>
#include <sys/types.h>

#include "parse.h"

struct launch {
	pid_t pid;
	int go_fd;	/* parent's end of the barrier: one byte releases the child */
	int err_fd;	/* child's exec errno arrives here; EOF means exec succeeded */
};

/* Finds a program the way execvp would (PATH unless NAME has a '/').  0 or -errno. */
int launch_resolve(const char *name, char *path, size_t len);
/*
 * Forks the workload: the child pins itself to cpus (before the barrier, so that move is
 * not traced), switches to user when given, waits for launch_release(), then execs.
 */
int launch_fork(struct launch *l, const char *path, char *const argv[],
		const struct cpu_set_list *cpus, const char *user);
/* Releases the child.  0 once it has exec'd, or the exec's -errno (the child exits 127). */
int launch_release(struct launch *l);
/* Kills and reaps a child that was never released (an error path). */
void launch_abort(struct launch *l);
/* Exit status as a shell reports it: the code, or 128 + signal. */
int launch_exit_status(int wstatus);

#endif

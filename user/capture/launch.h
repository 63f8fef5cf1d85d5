/* SPDX-License-Identifier: GPL-2.0 */
/* Starting the traced workload: fork, pin, hold at a barrier until tracing is attached. */
#ifndef MIGTRACE_LAUNCH_H
#define MIGTRACE_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "parse.h"

struct launch {
	pid_t pid;
	int go_fd;	/* parent's end of the barrier: one byte releases the child */
	int err_fd;	/* child's exec errno arrives here; EOF means exec succeeded */
	pid_t guard;	/* the guard (launch.c): kills the group if migtrace dies; -1: none */
	int guard_fd;	/* our end of its pipe: 'd' dismisses it, EOF sets it off */
};

/* A descriptor the workload inherits, its number given in the environment variable env. */
struct launch_fd {
	int fd;
	const char *env;
};

/* Finds a program the way execvp would (PATH unless NAME has a '/').  0 or -errno. */
int launch_resolve(const char *name, char *path, size_t len);
/*
 * Forks the workload: the child leads a process group of its own, is killed when migtrace
 * dies (PR_SET_PDEATHSIG; a guard process kills the rest of its group then), pins itself
 * to cpus (before the barrier, so that move is not traced), switches to user when given,
 * waits for launch_release(), then execs.  With stdout_to_stderr its standard output is
 * migtrace's standard error (stdout carries a run file then, and must hold nothing else).
 * pass, when not NULL, is a descriptor the workload inherits across exec (all others
 * migtrace holds are close-on-exec).
 */
int launch_fork(struct launch *l, const char *path, char *const argv[],
		const struct cpu_set_list *cpus, const char *user, bool stdout_to_stderr,
		const struct launch_fd *pass);
/* Releases the child.  0 once it has exec'd, or the exec's -errno (the child exits 127). */
int launch_release(struct launch *l);
/* Sends sig to the workload's process group (it leads one).  0 or -errno. */
int launch_signal(const struct launch *l, int sig);
/* The state letter of a process in /proc/PID/stat ('R', 'S', 'Z', ...); 0 when it is gone. */
char launch_process_state(pid_t pid);
/*
 * Whether the process pid has a task that has not exited: its leader, or, when the leader
 * ended with pthread_exit() (a zombie in /proc), any other thread.
 */
bool launch_process_alive(pid_t pid);
/* The process a thread id belongs to (its Tgid); -1 when there is no such task. */
pid_t launch_tgid_of(pid_t tid);
/* Whether this process is in a pid namespace other than the host's (its ns/pid inode is not
 * the initial namespace's, whatever /proc is mounted): 1, 0, or -1 when it cannot be read. */
int launch_in_child_pid_ns(void);
/*
 * SIGPIPE and SIGXFSZ ignored in migtrace, so that a closed stdout (`validate | head -1`) or
 * a file-size limit (`ulimit -f`) fails the write that meets it, with EPIPE or EFBIG and the
 * usual message, instead of killing migtrace before its files are written; a workload
 * launched later gets them back as migtrace was given them.  Called first thing in main().
 */
void launch_ignore_signals(void);
/*
 * In a guard process (the workload's, or the ftrace backend's): every descriptor but fd
 * closed, so that it keeps no pipe, terminal or program of migtrace's alive; in a session
 * of its own, so that a SIGKILL of migtrace's whole process group (`kill -9 -PGID`,
 * `timeout -s KILL`) does not take it along; and the signals that reach migtrace's
 * terminal (Ctrl-C) ignored, so that it outlives migtrace.
 */
void launch_guard_detach(int fd);
/* Kills the workload's process group, reaps the child (an error path), dismisses the guard. */
void launch_abort(struct launch *l);
/*
 * Once the workload's first process has been reaped: dismisses the guard and reaps it.  What
 * the workload left running in its group is left, as it would be without migtrace.
 */
void launch_dismiss_guard(struct launch *l);
/* Exit status as a shell reports it: the code, or 128 + signal. */
int launch_exit_status(int wstatus);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * threadexec PROGRAM [ARGS]: forks a child whose second thread execs PROGRAM.  The kernel
 * then gives the exec'ing thread the process's pid (de_thread() exchanges the two tids),
 * so a tracer that finds a task's state by its pid must follow the exchange.  The child is
 * a new process, traced only as a child of the traced workload.  Prints
 *   child PID
 *   exec TID
 * before the exec, and exits with PROGRAM's status.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static char **prog_argv;

static void *exec_thread(void *arg)
{
	(void)arg;
	printf("exec %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	execv(prog_argv[0], prog_argv);
	perror("threadexec: execv");
	exit(127);
}

int main(int argc, char **argv)
{
	pthread_t th;
	pid_t child;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: threadexec PROGRAM [ARGS]\n");
		return 2;
	}
	prog_argv = argv + 1;
	child = fork();
	if (child < 0) {
		perror("threadexec: fork");
		return 1;
	}
	if (child == 0) {
		printf("child %d\n", (int)getpid());
		fflush(stdout);
		if (pthread_create(&th, NULL, exec_thread, NULL)) {
			fprintf(stderr, "threadexec: pthread_create failed\n");
			_exit(1);
		}
		pthread_join(th, NULL);	/* never returns: the exec ends this thread */
		_exit(1);
	}
	if (waitpid(child, &status, 0) < 0) {
		perror("threadexec: waitpid");
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

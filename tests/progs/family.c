// SPDX-License-Identifier: GPL-2.0
/*
 * family: a process with an extra thread and a child process, each moving itself between
 * CPUs 0 and 1 a known number of times (thread: T moves, child: C moves), to prove that a
 * workload's threads and children are traced.  Prints "thread TID T" and "child PID C".
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int moves(int n)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* where we are: no move */
	for (int i = 0; i < n; i++) {
		cpu = !cpu;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

static void *thread_fn(void *arg)
{
	printf("thread %ld %d\n", (long)syscall(SYS_gettid), *(int *)arg);
	fflush(stdout);
	moves(*(int *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	int t = argc > 1 ? atoi(argv[1]) : 5, c = argc > 2 ? atoi(argv[2]) : 7;
	pthread_t th;
	pid_t pid;

	pthread_create(&th, NULL, thread_fn, &t);
	pthread_join(th, NULL);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("child %d %d\n", (int)getpid(), c);
		fflush(stdout);
		_exit(moves(c));
	}
	waitpid(pid, NULL, 0);
	return 0;
}

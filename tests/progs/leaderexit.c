// SPDX-License-Identifier: GPL-2.0
/*
 * leaderexit: the main thread ends with pthread_exit() while a second thread works on for
 * SECONDS (default 3) moving itself between CPUs 0 and 1 every 10 ms.  The process leader
 * is then a zombie in /proc while the process is alive, as -p must see it.  Prints its pid.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *work(void *arg)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	int rounds = *(int *)arg * 100;	/* 10 ms each */
	cpu_set_t set;

	for (int i = 0; i < rounds; i++) {
		CPU_ZERO(&set);
		CPU_SET(i % 2, &set);
		sched_setaffinity(0, sizeof(set), &set);
		nanosleep(&nap, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static int seconds;
	pthread_t t;

	seconds = argc > 1 ? atoi(argv[1]) : 3;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	if (pthread_create(&t, NULL, work, &seconds))
		return 1;
	pthread_exit(NULL);
}

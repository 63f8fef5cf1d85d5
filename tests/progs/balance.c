// SPDX-License-Identifier: GPL-2.0
/*
 * balance: situations where the scheduler itself moves tasks, one per mode, to prove the
 * causes migtrace claims.  Everything starts pinned to CPU 0 for SECONDS.
 *   lb:     3 spinners on CPU 0, then allowed on 0-1: the idle CPU 1 pulls queued ones.
 *   active: a spinner allowed on 0-1 beside a nice-19 spinner pinned to 0: the pinned one
 *           cannot move and the other is nearly always the one running, so the balancer's
 *           pulls fail and active balance pushes the running one.  Repeated in 100 ms
 *           rounds, each starting with the free spinner moved back to CPU 0.
 *   fork:   a spinner keeps CPU 0 busy while the main thread forks children that sleep.
 *   exec:   as fork, but each child execs /bin/true (sched_exec balancing).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static double seconds = 1;

static void allow(pid_t tid, int lo, int hi)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int c = lo; c <= hi; c++)
		CPU_SET(c, &set);
	if (sched_setaffinity(tid, sizeof(set), &set))
		perror("balance: sched_setaffinity");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spin(void *arg)
{
	volatile unsigned long n = 0;

	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	while (!stop)
		n++;
	return NULL;
}

static void start_spinners(pthread_t *th, pid_t *tid, int n)
{
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, spin, &tid[i]);
	for (int i = 0; i < n; i++)
		while (!__atomic_load_n(&tid[i], __ATOMIC_SEQ_CST))
			sched_yield();
}

static void children(int do_exec)
{
	double end = now_s() + seconds;

	while (now_s() < end) {
		pid_t pid = fork();

		if (pid == 0) {
			if (do_exec) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			struct timespec nap = { 0, 5 * 1000 * 1000 };

			nanosleep(&nap, NULL);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	pthread_t th[4];
	pid_t tid[4] = { 0 };
	const char *mode = argc > 1 ? argv[1] : "lb";
	struct timespec nap;

	if (argc > 2)
		seconds = atof(argv[2]);
	nap.tv_sec = (time_t)seconds;
	nap.tv_nsec = (long)((seconds - (double)nap.tv_sec) * 1e9);
	allow(0, 0, 0);
	if (!strcmp(mode, "lb")) {
		start_spinners(th, tid, 3);
		for (int i = 0; i < 3; i++)
			allow(tid[i], 0, 1);
		nanosleep(&nap, NULL);
	} else if (!strcmp(mode, "active")) {
		struct timespec round = { 0, 100 * 1000 * 1000 };
		double end;

		start_spinners(th, tid, 2);
		setpriority(PRIO_PROCESS, (id_t)tid[1], 19);
		/* Rounds: bring the free spinner back to CPU 0, then let it go. */
		for (end = now_s() + seconds; now_s() < end;) {
			allow(tid[0], 0, 0);
			allow(tid[0], 0, 1);	/* tid[1] stays pinned to CPU 0 */
			nanosleep(&round, NULL);
		}
	} else if (!strcmp(mode, "fork") || !strcmp(mode, "exec")) {
		start_spinners(th, tid, 1);
		allow(0, 0, 1);		/* the forking thread and its children may use CPU 1 */
		children(!strcmp(mode, "exec"));
	} else {
		fprintf(stderr, "usage: balance lb|active|fork|exec [SECONDS]\n");
		return 2;
	}
	stop = 1;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * selfmig: migrates its main thread exactly K times between two CPUs with
 * sched_setaffinity, at known times, and prints what it did, one line per move:
 *   move I FROM TO SLEEP_NS
 *
 * sleeping: a helper thread changes the main thread's affinity while it sleeps SLEEP_NS
 *           (1, 2, 3 x --sleep-ms in turn): the move happens at its wakeup, aged ~SLEEP_NS.
 * running:  the main thread changes its own affinity while running: the stopper moves it,
 *           aged 0 by definition; it then sleeps SLEEP_NS before the next move.
 * Each move line ends with the main thread's state as /proc read it just before the helper
 * moved it ("main_state S": asleep as planned; R: a stalled vCPU, say, kept it on its CPU,
 * and the stopper moved it running; "-" in running mode).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pid_t main_tid;
static int target_cpu;
static long delay_ns;
static long moved_ns;		/* when the helper's sched_setaffinity began */
static char moved_state = '-';	/* the main thread's state just before it */
static sem_t go, done;

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static int pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

/* The state letter of thread tid (R, S, D, ...) from /proc, '?' when unreadable. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* Moves the main thread while it sleeps: halfway through its sleep. */
static void *mover(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&go);
		if (target_cpu < 0)
			return NULL;
		sleep_ns(delay_ns / 2);
		moved_state = thread_state(main_tid);
		moved_ns = now_ns();
		if (pin(main_tid, target_cpu))
			perror("selfmig: sched_setaffinity");
		sem_post(&done);
	}
}

int main(int argc, char **argv)
{
	int k, a, b, here;
	long base_ns;
	pthread_t helper;
	int sleeping;

	if (argc != 4 || (strcmp(argv[1], "sleeping") && strcmp(argv[1], "running"))) {
		fprintf(stderr, "usage: selfmig sleeping|running K SLEEP_MS\n");
		return 2;
	}
	sleeping = !strcmp(argv[1], "sleeping");
	k = atoi(argv[2]);
	base_ns = atol(argv[3]) * 1000000L;
	main_tid = (pid_t)syscall(SYS_gettid);
	/* Start where we are: pinning to the current CPU moves nothing. */
	here = sched_getcpu();
	a = here;
	b = here == 0 ? 1 : 0;
	if (pin(0, a)) {
		perror("selfmig: sched_setaffinity");
		return 1;
	}
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	if (sleeping && pthread_create(&helper, NULL, mover, NULL))
		return 1;
	printf("selfmig %s pid %d start_cpu %d\n", argv[1], (int)main_tid, a);
	fflush(stdout);
	for (int i = 0; i < k; i++) {
		long ns = base_ns * (1 + i % 3), slept_ns = 0;
		int late = 0;

		if (sleeping) {
			long t0 = now_ns();

			target_cpu = b;
			delay_ns = ns;
			sem_post(&go);
			sleep_ns(ns);
			/* how long it was really gone: a VM's host can wake it ms late */
			slept_ns = now_ns() - t0;
			sem_wait(&done);
			/* the host held the helper past the whole sleep: the move came while
			 * this thread waited in sem_wait, not in its sleep */
			late = moved_ns > t0 + slept_ns;
		} else {
			if (pin(0, b))
				perror("selfmig: sched_setaffinity");
		}
		if (sched_getcpu() != b)
			sleep_ns(1000000);	/* the wakeup may still be in flight */
		printf("move %d %d %d %ld cpu_now %d slept %ld late %d main_state %c\n", i, a, b,
		       ns, sched_getcpu(), slept_ns, late, sleeping ? moved_state : '-');
		fflush(stdout);
		if (!sleeping)
			sleep_ns(ns);
		here = a;
		a = b;
		b = here;
	}
	if (sleeping) {
		target_cpu = -1;
		sem_post(&go);
		pthread_join(helper, NULL);
	}
	return 0;
}

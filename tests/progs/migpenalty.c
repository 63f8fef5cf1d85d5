// SPDX-License-Identifier: GPL-2.0
/*
 * A workload whose cost of a move is known by construction, for run --probe-moves' tests:
 * THREADS threads each sleep SLEEP_US, then run one unit (mp_unit, a function for --unit) that
 * walks a 16 KiB array and, when it runs on another CPU than the thread's previous unit did,
 * spins PENALTY_US more.  The real refill of 16 KiB is a few µs, so a move costs PENALTY_US
 * and a little, whatever the host's caches do; a sham costs nothing.  Runs SECONDS.  BUSY
 * more threads only spin (CPU time, which --probe-share's budget grows with; never drawn:
 * never asleep).
 *
 * usage: migpenalty THREADS SLEEP_US PENALTY_US SECONDS [BUSY]
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MP_ARRAY_BYTES (16 * 1024)

struct mp_thread {
	pthread_t id;
	int last_cpu;			/* the CPU of its previous unit; -1 before the first */
	unsigned char buf[MP_ARRAY_BYTES];
};

static uint64_t sleep_ns, penalty_ns, end_ns;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* One unit: the walk, and the penalty after a move.  Not inlined: --unit probes it. */
__attribute__((noinline)) unsigned mp_unit(struct mp_thread *t)
{
	int cpu = sched_getcpu();
	unsigned sum = 0;

	for (size_t i = 0; i < MP_ARRAY_BYTES; i += 64)
		sum += t->buf[i]++;
	if (t->last_cpu >= 0 && cpu != t->last_cpu) {
		uint64_t until = now_ns() + penalty_ns;

		while (now_ns() < until)
			sum++;
	}
	t->last_cpu = cpu;
	return sum;
}

static void *busy_main(void *arg)
{
	volatile unsigned long spins = 0;

	(void)arg;
	while (now_ns() < end_ns)
		spins++;
	return NULL;
}

static void *thread_main(void *arg)
{
	struct mp_thread *t = arg;
	struct timespec nap = { .tv_sec = (time_t)(sleep_ns / 1000000000ULL),
				.tv_nsec = (long)(sleep_ns % 1000000000ULL) };
	volatile unsigned sink = 0;

	t->last_cpu = -1;
	while (now_ns() < end_ns) {
		nanosleep(&nap, NULL);
		sink += mp_unit(t);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct mp_thread *threads;
	pthread_t busy[8];
	int n, nbusy = argc == 6 ? atoi(argv[5]) : 0;

	if (argc < 5 || argc > 6 || (n = atoi(argv[1])) < 1 || n > 64 || nbusy < 0 || nbusy > 8) {
		fprintf(stderr, "usage: migpenalty THREADS SLEEP_US PENALTY_US SECONDS [BUSY]\n");
		return 2;
	}
	sleep_ns = strtoull(argv[2], NULL, 10) * 1000;
	penalty_ns = strtoull(argv[3], NULL, 10) * 1000;
	end_ns = now_ns() + strtoull(argv[4], NULL, 10) * 1000000000ULL;
	threads = calloc((size_t)n, sizeof(*threads));
	if (!threads) {
		fprintf(stderr, "migpenalty: no memory for %d threads\n", n);
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&threads[i].id, NULL, thread_main, &threads[i])) {
			fprintf(stderr, "migpenalty: cannot start thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < nbusy; i++)
		if (pthread_create(&busy[i], NULL, busy_main, NULL)) {
			fprintf(stderr, "migpenalty: cannot start busy thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(threads[i].id, NULL);
	for (int i = 0; i < nbusy; i++)
		pthread_join(busy[i], NULL);
	free(threads);
	return 0;
}

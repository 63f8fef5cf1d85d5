// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup: the simplest built-in workload.  N threads each run for RUN µs and sleep for
 * SLEEP µs, over and over, for DURATION; with more threads than CPUs, wakeups land on busy
 * CPUs and the scheduler places (migrates) them.  Prints how many cycles the threads did,
 * and how many of their sleeps blocked (a sleep whose timer fired before the thread left its
 * CPU wakes nobody: the wake-up latency has no sample for it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long nthreads, run_us = 300, sleep_us = 700;
static double duration_s = 5;

/* What one thread did: its cycles, and how many of its sleeps blocked. */
struct thread_count {
	uint64_t cycles;
	uint64_t blocked;	/* voluntary context switches: a sleep whose timer fired before
				 * the thread was off its CPU (a slow or loaded machine) is none */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *worker(void *arg)
{
	uint64_t end = now_ns() + (uint64_t)(duration_s * 1e9), cycles = 0;
	struct timespec nap = { sleep_us / 1000000, (sleep_us % 1000000) * 1000 };
	volatile uint64_t sink = 0;

	while (now_ns() < end) {
		uint64_t stop = now_ns() + (uint64_t)run_us * 1000;

		while (now_ns() < stop)
			sink++;
		nanosleep(&nap, NULL);
		cycles++;
	}
	struct thread_count *tc = arg;
	struct rusage ru;

	tc->cycles = cycles;
	tc->blocked = getrusage(RUSAGE_THREAD, &ru) ? cycles : (uint64_t)ru.ru_nvcsw;
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: wakeup [-t THREADS] [-r RUN_US] [-s SLEEP_US] [-d SECONDS]\n"
		"  threads that run RUN µs (300) and sleep SLEEP µs (700) for SECONDS (5);\n"
		"  THREADS defaults to 2 per online CPU\n");
	exit(2);
}

static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "wakeup: '%s' is not a number from %ld to %ld\n", s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	pthread_t *tid;
	struct thread_count *counts;
	uint64_t total = 0, blocked = 0;
	int opt;

	nthreads = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	while ((opt = getopt(argc, argv, "t:r:s:d:h")) != -1) {
		switch (opt) {
		case 't': nthreads = number(optarg, 1, 4096); break;
		case 'r': run_us = number(optarg, 0, 10000000); break;
		case 's': sleep_us = number(optarg, 1, 10000000); break;
		case 'd': duration_s = (double)number(optarg, 1, 86400); break;
		default: usage();
		}
	}
	tid = calloc(nthreads, sizeof(*tid));
	counts = calloc(nthreads, sizeof(*counts));
	if (!tid || !counts)
		return 1;
	for (long i = 0; i < nthreads; i++)
		if (pthread_create(&tid[i], NULL, worker, &counts[i])) {
			fprintf(stderr, "wakeup: pthread_create failed\n");
			return 1;
		}
	for (long i = 0; i < nthreads; i++) {
		pthread_join(tid[i], NULL);
		total += counts[i].cycles;
		blocked += counts[i].blocked;
	}
	printf("wakeup: %ld threads, %llu run/sleep cycles in %.0f s; %llu of the sleeps "
	       "blocked (voluntary switches)\n", nthreads, (unsigned long long)total, duration_s,
	       (unsigned long long)blocked);
	free(tid);
	free(counts);
	return 0;
}

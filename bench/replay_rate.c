// SPDX-License-Identifier: GPL-2.0
/*
 * replay_rate: how many sched events a second user/capture/sched_replay.c replays, on a
 * synthetic machine-wide stream (every task traced, as -a): TASKS threads on CPUS CPUs
 * that wake, run, sleep or are preempted, and now and then move (woken elsewhere, pulled
 * while queued), with forks and exits.  Prints one JSON object.  The live ftrace backend
 * must keep up with 10^5-10^6 events/s (docs/ftrace.md, "What it replays").
 *
 *   .output/bench/replay_rate [EVENTS [TASKS [CPUS]]]   (default 5000000 4000 8)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sched_replay.h"

static uint64_t rng = 88172645463325252ULL;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static int count_record(void *ctx, const struct mt_migrate *m)
{
	(void)m;
	++*(uint64_t *)ctx;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 5000000;
	uint32_t tasks = argc > 2 ? (uint32_t)atoi(argv[2]) : 4000;
	int cpus = argc > 3 ? atoi(argv[3]) : 8, err = 0;
	uint32_t *running = calloc(cpus, sizeof(*running));
	uint64_t records = 0, ts = 1000000, done = 0;
	struct sched_replay_opts o = {
		.hot_ns = 500000, .nr_cpus = cpus, .scope = MT_SCOPE_ALL,
		.on_migrate = count_record, .ctx = &records,
	};
	struct sched_replay *rp = sched_replay_new(&o);
	struct mt_stats st;
	struct timespec a, b;
	double s;

	if (!rp || !running || tasks < 2 || cpus < 2) {
		fprintf(stderr, "replay_rate: bad arguments or out of memory\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	while (done < n && !err) {
		int cpu = (int)(next_rand() % cpus), other = (cpu + 1) % cpus;
		uint32_t pid = 1 + next_rand() % tasks, r = next_rand() % 16;
		struct sched_event e = { .ts_ns = ts += 1 + next_rand() % 2000, .cpu = cpu };

		if (r < 8) {		/* a switch on cpu: out the running one, in pid */
			e.type = SE_SWITCH;
			e.pid = running[cpu];
			e.prev_state = r & 1 ? 0x100 : 0x1;
			e.pid2 = pid;
			running[cpu] = pid;
		} else if (r < 10) {	/* woken, sometimes elsewhere */
			e.type = SE_WAKING;
			e.pid = pid;
			err = sched_replay_event(rp, &e);
			done++;
			if (r == 9) {
				e.type = SE_MIGRATE;
				e.orig_cpu = cpu;
				e.dest_cpu = other;
				err = err ? err : sched_replay_event(rp, &e);
				done++;
			}
			e.type = SE_WAKEUP;
			e.dest_cpu = r == 9 ? other : cpu;
		} else if (r < 12) {	/* pulled while queued, by the balancer of the other CPU */
			e.type = SE_MIGRATE;
			e.cpu = other;
			e.pid = pid;
			e.orig_cpu = cpu;
			e.dest_cpu = other;
		} else if (r == 12) {	/* a fork, its child placed, the old pid's exit */
			e.type = SE_FORK;
			e.pid = pid;
			e.pid2 = 1 + next_rand() % tasks;
			err = sched_replay_event(rp, &e);
			done++;
			e.type = SE_WAKEUP_NEW;
			e.pid = e.pid2;
			e.dest_cpu = other;
		} else if (r == 13) {
			e.type = SE_EXIT;
			e.pid = pid;
		} else {
			e.type = SE_SWITCH;	/* an idle switch */
			e.pid = running[cpu];
			e.prev_state = 0x1;
			e.pid2 = 0;
			running[cpu] = 0;
		}
		err = err ? err : sched_replay_event(rp, &e);
		done++;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	sched_replay_counts(rp, &st, NULL);
	printf("{\"events\":%llu,\"tasks\":%u,\"cpus\":%d,\"seconds\":%.3f,"
	       "\"events_per_s\":%.0f,\"ns_per_event\":%.1f,\"records\":%llu,"
	       "\"live_tasks\":%llu}\n", (unsigned long long)done, tasks, cpus, s,
	       (double)done / s, s * 1e9 / (double)done, (unsigned long long)records,
	       (unsigned long long)sched_replay_live_tasks(rp));
	sched_replay_free(rp);
	free(running);
	return err ? 1 : 0;
}

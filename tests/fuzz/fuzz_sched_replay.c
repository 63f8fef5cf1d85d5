// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the replay of scheduler events (user/capture/sched_replay.c) on any
 * stream, 12 bytes an event (type, CPU, pids and CPUs from small ranges so that tasks meet,
 * prev_state, a time step, and now and then a step back).  Whatever the order, it must
 * not crash; every migration counted must have come out as a record, its CPUs in range
 * and its cause a cause; the pairs must sum to the migrations; state must be kept for no
 * more tasks than the stream named.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched_replay.h"

#define NR_CPUS 4
#define NR_PIDS 64

struct sink {
	uint64_t records;
};

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct sink *s = ctx;

	if (m->src_cpu >= NR_CPUS || m->dst_cpu >= NR_CPUS || m->src_cpu == m->dst_cpu ||
	    m->cause >= MT_NR_CAUSES || m->level >= MT_NR_LEVELS || !m->pid)
		abort();
	s->records++;
	return 0;
}

static int on_offcpu(void *ctx, const struct mt_offcpu *o)
{
	(void)ctx;
	if (o->on_ns < o->off_ns || o->cpu >= NR_CPUS)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sink s = { 0 };
	struct sched_replay_opts o = {
		.hot_ns = 500000,
		.nr_cpus = NR_CPUS,
		.scope = size && (data[0] & 1) ? MT_SCOPE_TGIDS : MT_SCOPE_ALL,
		.on_migrate = on_migrate,
		.on_offcpu = on_offcpu,
		.ctx = &s,
	};
	struct sched_replay *rp = sched_replay_new(&o);
	uint64_t ts = 1000000, pairs[NR_CPUS * NR_CPUS], sum = 0, migs = 0;
	struct mt_stats st;

	if (!rp)
		abort();
	if (size)
		sched_replay_track(rp, 1 + data[0] % NR_PIDS, data[0] & 2);
	for (size_t i = 1; i + 12 <= size; i += 12) {
		const uint8_t *b = data + i;
		struct sched_event e = {
			.type = (uint8_t)(1 + b[0] % SE_EXIT),
			.cpu = b[1] % NR_CPUS,
			.cur_pid = b[2] % NR_PIDS,
			.pid = b[3] % NR_PIDS,
			.pid2 = b[4] % NR_PIDS,
			.prev_state = b[5] & 0x80 ? 0x100 : b[5] & 0x3,
			.orig_cpu = b[6] % NR_CPUS,
			.dest_cpu = b[7] % NR_CPUS,
			.prio = b[8],
			.has_prio = b[8] & 1,
		};

		/* a step forward, or now and then one back (counted, dropped) */
		ts = b[9] == 0xff ? ts - 100 : ts + ((uint64_t)b[10] << 8 | b[11]) * 100;
		e.ts_ns = ts;
		memcpy(e.comm, b[2] & 0x40 ? "migration/1" : "w", b[2] & 0x40 ? 12 : 2);
		if (e.type == SE_SWITCH && (b[4] & 0x40))
			memcpy(e.comm2, "migration/0", 12);
		if (sched_replay_event(rp, &e))
			abort();
	}
	if (sched_replay_flush(rp))
		abort();
	sched_replay_counts(rp, &st, NULL);
	sched_replay_pairs(rp, pairs);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		migs += st.migrations[c];
	for (int k = 0; k < NR_CPUS * NR_CPUS; k++)
		sum += pairs[k];
	if (migs != s.records || sum != migs || st.rb_records != migs ||
	    sched_replay_live_tasks(rp) > NR_PIDS)
		abort();
	sched_replay_free(rp);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A STAND-IN for branch f1-replay's sched_replay.c, so that the live ftrace backend builds
 * and runs before the real replay is merged: migrations of traced tasks with their age from
 * the last switch-out, every cause MT_CAUSE_UNKNOWN.  The merge takes f1-replay's file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "sched_replay.h"

#define SR_SLOTS (1u << 22)	/* pid_max's ceiling */

struct sr_task {
	uint32_t tgid;		/* 0: unknown */
	uint64_t out_ns;	/* last switch-out, 0: running or never seen */
	bool traced;
};

struct sched_replay {
	struct sched_replay_opts o;
	struct sr_task *tasks;
	uint8_t *tgids;		/* 1: traced now, 2: from exec */
	struct mt_stats stats;
	struct mt_hists hists;
	uint64_t *pairs;
	struct sched_replay_info info;
	uint64_t last_ts;
};

struct sched_replay *sched_replay_new(const struct sched_replay_opts *o)
{
	struct sched_replay *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return NULL;
	rp->o = *o;
	rp->tasks = calloc(SR_SLOTS, sizeof(*rp->tasks));
	rp->tgids = calloc(SR_SLOTS, 1);
	rp->pairs = calloc((size_t)o->nr_cpus * o->nr_cpus, sizeof(*rp->pairs));
	if (!rp->tasks || !rp->tgids || !rp->pairs) {
		sched_replay_free(rp);
		return NULL;
	}
	return rp;
}

int sched_replay_track(struct sched_replay *rp, uint32_t tgid, bool from_exec)
{
	rp->tgids[tgid % SR_SLOTS] = from_exec ? 2 : 1;
	return 0;
}

static struct sr_task *task_of(struct sched_replay *rp, uint32_t pid)
{
	struct sr_task *t = &rp->tasks[pid % SR_SLOTS];

	if (!t->tgid) {
		uint32_t tg = rp->o.tgid_of ? rp->o.tgid_of(rp->o.ctx, pid) : 0;

		t->tgid = tg ? tg : pid;
	}
	return t;
}

static bool traced(struct sched_replay *rp, uint32_t pid)
{
	struct sr_task *t;

	if (!pid)
		return false;
	if (rp->o.scope == MT_SCOPE_ALL)
		return true;
	t = task_of(rp, pid);
	return t->traced || rp->tgids[t->tgid % SR_SLOTS] == 1;
}

static unsigned slot_of(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned s = 0;

	while (us >= 2 && s < MT_HIST_SLOTS - 1) {
		us >>= 1;
		s++;
	}
	return s;
}

static int migrate(struct sched_replay *rp, const struct sched_event *e)
{
	struct sr_task *t = task_of(rp, e->pid);
	struct mt_migrate m = { .kind = MT_REC_MIGRATE, .pid = e->pid, .tgid = t->tgid,
				.cur_pid = e->cur_pid, .src_cpu = (uint16_t)e->orig_cpu,
				.dst_cpu = (uint16_t)e->dest_cpu, .cause = MT_CAUSE_UNKNOWN,
				.ts_ns = e->ts_ns };

	if (e->orig_cpu == e->dest_cpu) {
		rp->stats.same_cpu++;
		return 0;
	}
	if (t->out_ns)
		m.age_ns = m.off_cpu_ns = e->ts_ns - t->out_ns;
	else
		rp->info.unknown_age++;
	memcpy(m.comm, e->comm, sizeof(m.comm));
	memcpy(m.cur_comm, e->comm2, sizeof(m.cur_comm));
	rp->stats.migrations[m.cause]++;
	rp->hists.age[m.cause][slot_of(m.age_ns)]++;
	if ((int)e->orig_cpu < rp->o.nr_cpus && (int)e->dest_cpu < rp->o.nr_cpus)
		rp->pairs[e->orig_cpu * rp->o.nr_cpus + e->dest_cpu]++;
	if (rp->o.no_records || !rp->o.on_migrate)
		return 0;
	rp->stats.rb_records++;
	return rp->o.on_migrate(rp->o.ctx, &m);
}

int sched_replay_event(struct sched_replay *rp, const struct sched_event *e)
{
	if (e->ts_ns < rp->last_ts) {
		rp->info.out_of_order++;
		return 0;
	}
	rp->last_ts = e->ts_ns;
	rp->info.events++;
	if (e->type <= SE_EXIT)
		rp->info.saw[e->type] = true;
	switch (e->type) {
	case SE_SWITCH:
		if (traced(rp, e->pid))
			task_of(rp, e->pid)->out_ns = e->ts_ns;
		if (traced(rp, e->pid2)) {
			task_of(rp, e->pid2)->out_ns = 0;
			rp->stats.switches_in++;
		}
		return 0;
	case SE_MIGRATE:
		return traced(rp, e->pid) ? migrate(rp, e) : 0;
	case SE_FORK:
		if (traced(rp, e->pid)) {
			struct sr_task *c = task_of(rp, e->pid2);

			c->traced = true;
			rp->stats.tracked_tasks++;
		}
		return 0;
	case SE_EXEC: {
		struct sr_task *t = task_of(rp, e->pid);

		if (rp->tgids[t->tgid % SR_SLOTS] == 2)
			rp->tgids[t->tgid % SR_SLOTS] = 1;
		return 0;
	}
	default:
		return 0;
	}
}

void sched_replay_counts(const struct sched_replay *rp, struct mt_stats *stats,
			 struct mt_hists *hists)
{
	*stats = rp->stats;
	*hists = rp->hists;
}

void sched_replay_pairs(const struct sched_replay *rp, uint64_t *pairs)
{
	memcpy(pairs, rp->pairs, (size_t)rp->o.nr_cpus * rp->o.nr_cpus * sizeof(*pairs));
}

void sched_replay_info(const struct sched_replay *rp, struct sched_replay_info *info)
{
	*info = rp->info;
}

bool sched_replay_preempted(int64_t prev_state)
{
	return (prev_state & 0xff) == 0;
}

void sched_replay_free(struct sched_replay *rp)
{
	if (!rp)
		return;
	free(rp->tasks);
	free(rp->tgids);
	free(rp->pairs);
	free(rp);
}

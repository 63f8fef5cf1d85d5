// SPDX-License-Identifier: GPL-2.0
/*
 * The join of self-timed units with migration and off-CPU records: see unit_join.h.
 *
 * Per thread: its records not yet accounted to a unit, sorted by time (a migration at its
 * timestamp, an off-CPU period at its switch-out), its units waiting for the watermark, and
 * a summary of what was folded away: the last migration, the last off-CPU period, and the
 * migrations and switch-outs since its previous unit.  Folding keeps the join exact: a
 * record is folded only when no unit still to come can begin before it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "u32_table.h"
#include "unit_join.h"

/*
 * A thread without a unit in flight folds its records older than this before the
 * watermark: its next unit, not logged yet, began at most one unit's length ago, and a
 * unit that began earlier is counted as unjoinable rather than joined wrongly.
 */
#define FOLD_HORIZON_NS 2000000000ULL

enum { EV_MIG, EV_OFF };

struct event {
	uint64_t ts_ns;			/* the migration's time, or the switch-out */
	uint64_t on_ns;			/* EV_OFF: the switch-in */
	uint64_t age_ns;		/* EV_MIG */
	uint16_t src_cpu, dst_cpu;	/* EV_MIG */
	uint8_t kind;
	uint8_t cause;			/* EV_MIG */
};

struct thread {
	uint32_t tid;			/* the table's key: first (u32_table.h) */
	uint32_t tgid;
	struct event *ev;		/* sorted by ts_ns */
	size_t nev, evcap;
	struct uj_unit *pend;		/* units waiting for the watermark, in order */
	size_t npend, pcap;
	uint64_t prev_end_ns;		/* the previous unit's end, 0 before the first */
	uint64_t folded_until_ns;	/* records up to here are in the summary below */
	uint32_t folded_migs;		/* since the last take (a unit's start or end) */
	uint32_t folded_switches;
	uint64_t last_off_ns;		/* the last off-CPU period folded */
	bool has_mig;
	struct event last_mig;		/* the last migration folded */
};

struct unit_join {
	uint32_t tgid;
	uj_emit_fn emit;
	void *ctx;
	struct u32_table threads;	/* struct thread by tid */
	uint64_t unjoinable;
};

struct unit_join *unit_join_new(uint32_t tgid, uj_emit_fn emit, void *ctx)
{
	struct unit_join *uj = calloc(1, sizeof(*uj));

	if (!uj)
		return NULL;
	uj->tgid = tgid;
	uj->emit = emit;
	uj->ctx = ctx;
	u32_table_init(&uj->threads, sizeof(struct thread));
	return uj;
}

void unit_join_free(struct unit_join *uj)
{
	if (!uj)
		return;
	for (size_t i = 0; i < uj->threads.cap; i++) {
		struct thread *th = u32_table_at(&uj->threads, i);

		if (th) {
			free(th->ev);
			free(th->pend);
		}
	}
	u32_table_free(&uj->threads);
	free(uj);
}

uint64_t unit_join_unjoinable(const struct unit_join *uj)
{
	return uj->unjoinable;
}

/* The thread's entry, made on first sight; NULL: ENOMEM. */
static struct thread *thread_of(struct unit_join *uj, uint32_t tid, uint32_t tgid)
{
	struct thread *th = u32_table_find(&uj->threads, tid);

	if (!th) {
		th = u32_table_insert(&uj->threads, tid);
		if (!th)
			return NULL;
		th->tgid = tgid ? tgid : uj->tgid;
	} else if (tgid && th->tgid == uj->tgid) {
		th->tgid = tgid;
	}
	return th;
}

/* Inserted in time order: records of one thread come nearly sorted, so from the end. */
static int add_event(struct unit_join *uj, uint32_t tid, uint32_t tgid, const struct event *e)
{
	struct thread *th = thread_of(uj, tid, tgid);
	size_t i;

	if (!th || array_grow((void **)&th->ev, &th->evcap, th->nev, sizeof(*th->ev), 16))
		return -ENOMEM;
	for (i = th->nev; i > 0 && th->ev[i - 1].ts_ns > e->ts_ns; i--)
		;
	memmove(&th->ev[i + 1], &th->ev[i], (th->nev - i) * sizeof(*th->ev));
	th->ev[i] = *e;
	th->nev++;
	return 0;
}

int unit_join_migration(struct unit_join *uj, const struct mt_migrate *m)
{
	struct event e = {
		.ts_ns = m->ts_ns, .age_ns = m->age_ns, .src_cpu = m->src_cpu,
		.dst_cpu = m->dst_cpu, .kind = EV_MIG, .cause = m->cause,
	};

	return add_event(uj, m->pid, m->tgid, &e);
}

int unit_join_offcpu(struct unit_join *uj, const struct mt_offcpu *o)
{
	struct event e = { .ts_ns = o->off_ns, .on_ns = o->on_ns, .kind = EV_OFF };

	return add_event(uj, o->pid, o->tgid, &e);
}

int unit_join_unit(struct unit_join *uj, const struct uj_unit *u)
{
	struct thread *th = thread_of(uj, u->tid, 0);

	if (!th || array_grow((void **)&th->pend, &th->pcap, th->npend, sizeof(*th->pend), 16))
		return -ENOMEM;
	th->pend[th->npend++] = *u;
	return 0;
}

/*
 * The one accounting step, for the join and for a thread idle past the horizon alike: folds
 * the thread's records up to until_ns into its summary, in time order.
 */
static void fold(struct thread *th, uint64_t until_ns)
{
	size_t k = 0;

	while (k < th->nev && th->ev[k].ts_ns <= until_ns) {
		const struct event *e = &th->ev[k++];

		if (e->kind == EV_MIG) {
			th->folded_migs++;
			th->last_mig = *e;
			th->has_mig = true;
		} else {
			th->folded_switches++;
			th->last_off_ns = e->on_ns > e->ts_ns ? e->on_ns - e->ts_ns : 0;
		}
	}
	if (k) {
		memmove(th->ev, &th->ev[k], (th->nev - k) * sizeof(*th->ev));
		th->nev -= k;
	}
	if (until_ns > th->folded_until_ns)
		th->folded_until_ns = until_ns;
}

/* The migrations and switch-outs folded since the last take; counting starts again. */
static void take(struct thread *th, __u32 *migs, __u32 *switches)
{
	*migs = th->folded_migs;
	*switches = th->folded_switches;
	th->folded_migs = th->folded_switches = 0;
}

/*
 * One unit against the thread's records: a fold up to its start (a record at the very
 * start counts before it), then one up to its end, each taken as the unit's counts.
 */
static int join_one(struct unit_join *uj, struct thread *th, const struct uj_unit *u)
{
	struct mt_unit out = {
		.kind = MT_REC_UNIT, .pid = u->tid, .tgid = th->tgid,
		.cpu_start = u->cpu_start, .cpu_end = u->cpu_end,
		.start_ns = u->start_ns, .end_ns = u->end_ns, .prev_end_ns = th->prev_end_ns,
		.tag = u->tag, .nominal_age_ns = u->trial.nominal_age_ns,
		.streamed_bytes = u->trial.streamed_bytes, .round = u->trial.round,
		.rate_mbps = u->trial.rate_mbps,
	};
	/* it began before records already folded: its counts cannot be told apart */
	bool unjoinable = th->folded_until_ns && u->start_ns <= th->folded_until_ns &&
			  th->folded_until_ns > th->prev_end_ns;

	fold(th, u->start_ns);
	take(th, &out.migs_before, &out.switches_before);
	out.last_off_ns = th->last_off_ns;
	fold(th, u->end_ns);
	take(th, &out.migs_during, &out.switches_during);
	th->prev_end_ns = u->end_ns;
	if (unjoinable) {
		uj->unjoinable++;
		return 0;
	}
	/* the last migration before the unit's end, as the probe path reports it */
	if (th->has_mig) {
		out.mig_age_ns = th->last_mig.age_ns;
		out.mig_ts_ns = th->last_mig.ts_ns;
		out.mig_src_cpu = th->last_mig.src_cpu;
		out.mig_dst_cpu = th->last_mig.dst_cpu;
		out.mig_cause = th->last_mig.cause;
	}
	return uj->emit(uj->ctx, &out);
}

int unit_join_flush(struct unit_join *uj, uint64_t watermark_ns)
{
	int first_err = 0;

	for (size_t i = 0; i < uj->threads.cap; i++) {
		struct thread *th = u32_table_at(&uj->threads, i);
		size_t k = 0;

		if (!th)
			continue;
		for (; k < th->npend && th->pend[k].end_ns < watermark_ns; k++) {
			int err = join_one(uj, th, &th->pend[k]);

			if (err && !first_err)
				first_err = err;
		}
		if (k) {
			memmove(th->pend, &th->pend[k], (th->npend - k) * sizeof(*th->pend));
			th->npend -= k;
		}
		if (!th->npend && watermark_ns != UINT64_MAX && watermark_ns > FOLD_HORIZON_NS)
			fold(th, watermark_ns - FOLD_HORIZON_NS);
	}
	return first_err;
}

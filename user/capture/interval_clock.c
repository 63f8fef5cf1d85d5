// SPDX-License-Identifier: GPL-2.0
/* The capture's interval clock (interval_clock.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "interval_clock.h"

void interval_clock_init(struct interval_clock *c, uint64_t every_ns, long count, bool per_pid,
			 bool per_task, interval_fn fn, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->every_ns = every_ns;
	c->count = count;
	c->per_pid = per_pid;
	c->iv.per_task = per_task;
	c->fn = fn;
	c->ctx = ctx;
}

void interval_clock_start(struct interval_clock *c, uint64_t t0_ns)
{
	c->t0_ns = c->last_ns = t0_ns;
	c->next_ns = t0_ns + c->every_ns;
}

int interval_clock_timeout_ms(const struct interval_clock *c, int max_ms)
{
	uint64_t now = now_ns(), next;

	if (!c->every_ns || c->done)
		return max_ms;
	next = c->next_ns;
	if (next <= now)
		return 0;
	/* rounded up: a poll that returns early would only spin */
	return (next - now + 999999) / 1000000 < (uint64_t)max_ms ?
	       (int)((next - now + 999999) / 1000000) : max_ms;
}

/* The totals now, into r: what a live file and the next difference are made of. */
static int read_totals(const struct tracer *tr, struct mt_counts *now, struct run *r,
		       uint64_t at_ns, uint64_t t0_ns)
{
	int err = tracer_read_counts(tr, &now->stats, &now->hists);

	if (err)
		return err;
	r->stats = now->stats;
	r->hists = now->hists;
	r->meta.duration_s = (double)(at_ns - t0_ns) / 1e9;
	/* and the backend's own figures so far: the ftrace rings' lost events among them */
	tracer_describe(tr, &r->meta.backend);
	return 0;
}

/* One interval ended at end_ns with the aggregates now: made and handed on. */
static void close_interval(struct interval_clock *c, const struct mt_counts *now,
			   uint64_t end_ns, bool partial, struct run *r)
{
	struct interval *iv = &c->iv;

	iv->index++;
	iv->partial = partial;
	iv->start_s = (double)(c->last_ns - c->t0_ns) / 1e9;
	iv->len_s = (double)(end_ns - c->last_ns) / 1e9;
	clock_gettime(CLOCK_REALTIME, &iv->wall_end);
	interval_diff(now, &c->prev, &iv->delta);
	iv->total = *now;
	iv->pids = c->per_pid ? &c->pids : NULL;
	c->prev = *now;
	c->last_ns = end_ns;
	if (c->fn && c->fn(c->ctx, INTERVAL_TICK, iv, r) == -EPIPE)
		c->reader_gone = true;
	if (c->per_pid)
		interval_pids_tick(&c->pids);
}

int interval_clock_poll(struct interval_clock *c, const struct tracer *tr, struct run *r)
{
	struct mt_counts now;
	uint64_t at = now_ns();
	int err;

	if (!c->every_ns || c->done || at < c->next_ns)
		return 0;
	err = read_totals(tr, &now, r, at, c->t0_ns);
	if (err)
		return err;
	close_interval(c, &now, at, false, r);
	/* a host that held us past more than one end: this interval took them in */
	while (c->next_ns <= at)
		c->next_ns += c->every_ns;
	if (c->count && c->iv.index >= (unsigned long)c->count)
		c->done = true;
	return c->done;
}

int interval_clock_reopen(struct interval_clock *c, const struct tracer *tr, struct run *r)
{
	struct mt_counts now;
	int err;

	if (!c->every_ns)
		return 0;
	err = read_totals(tr, &now, r, now_ns(), c->t0_ns);
	if (!err && c->fn)
		c->fn(c->ctx, INTERVAL_REOPEN, c->iv.index ? &c->iv : NULL, r);
	return err;
}

void interval_clock_final(struct interval_clock *c, struct run *r, uint64_t end_ns)
{
	struct mt_counts now = { .stats = r->stats, .hists = r->hists };

	if (!c->every_ns || c->done || end_ns <= c->last_ns)
		return;
	close_interval(c, &now, end_ns, true, r);
}

void interval_clock_record(struct interval_clock *c, const struct mt_migrate *m)
{
	if (c->per_pid && interval_pids_add(&c->pids, m->tgid, m->pid, m->comm))
		fprintf(stderr, "migtrace run: -P: no memory to count process %u\n", m->tgid);
}

void interval_clock_free(struct interval_clock *c)
{
	interval_pids_free(&c->pids);
}

// SPDX-License-Identifier: GPL-2.0
/* Live intervals: the difference of two reads of the aggregates, and -P's table (interval.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"

void interval_diff(const struct mt_counts *now, const struct mt_counts *prev,
		   struct mt_counts *out)
{
	const __u64 *a = (const __u64 *)now, *b = (const __u64 *)prev;
	__u64 *d = (__u64 *)out;

	/* both structs are arrays of __u64, as tracer_read_counts sums them */
	for (size_t i = 0; i < sizeof(*out) / sizeof(__u64); i++)
		d[i] = a[i] >= b[i] ? a[i] - b[i] : 0;
}

uint64_t interval_migrations(const struct mt_stats *s)
{
	uint64_t n = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		n += s->migrations[c];
	return n;
}

uint64_t interval_level_migrations(const struct mt_stats *s, int level)
{
	uint64_t n = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		n += s->level_migrations[level][c];
	return n;
}

uint64_t interval_kernel_counted(const struct mt_stats *s)
{
	return interval_migrations(s) - s->migrations[MT_CAUSE_FORK];
}

int interval_pids_add(struct interval_pids *p, uint32_t tgid, uint32_t pid, const char *comm)
{
	struct interval_pid *e;

	if (!tgid)
		return 0;	/* the idle tasks are never traced */
	if (!p->t.esize)
		u32_table_init(&p->t, sizeof(*e));
	e = u32_table_find(&p->t, tgid);
	if (!e) {
		if (p->t.n >= INTERVAL_MAX_PIDS) {
			p->other++;
			return 0;
		}
		e = u32_table_insert(&p->t, tgid);
		if (!e)
			return -ENOMEM;
	}
	/* a record's name fills its 16 bytes, NUL-terminated or not */
	if (!e->comm[0] || pid == tgid)
		snprintf(e->comm, sizeof(e->comm), "%.*s", MT_COMM_LEN - 1, comm);
	e->total++;
	return 0;
}

void interval_pids_tick(struct interval_pids *p)
{
	struct interval_pid *e;

	for (size_t i = 0; i < p->t.cap; i++)
		if ((e = u32_table_at(&p->t, i)))
			e->at_tick = e->total;
}

static uint64_t pid_count(const struct interval_pid *e, bool by_total)
{
	return by_total ? e->total : e->total - e->at_tick;
}

/* Whether a ranks before b: more records, then the lower tgid. */
static bool ranks_before(const struct interval_pid *a, const struct interval_pid *b,
			 bool by_total)
{
	uint64_t na = pid_count(a, by_total), nb = pid_count(b, by_total);

	return na != nb ? na > nb : a->tgid < b->tgid;
}

int interval_pids_top(const struct interval_pids *p, bool by_total, struct interval_pid *out,
		      int max)
{
	int n = 0;

	if (max > INTERVAL_TOP)
		max = INTERVAL_TOP;
	/* one pass, insertion into the short list kept sorted */
	for (size_t i = 0; i < p->t.cap; i++) {
		const struct interval_pid *e = u32_table_at(&p->t, i);
		int at;

		if (!e || !pid_count(e, by_total))
			continue;
		if (n == max && !ranks_before(e, &out[n - 1], by_total))
			continue;
		at = n < max ? n++ : n - 1;
		while (at > 0 && ranks_before(e, &out[at - 1], by_total)) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = *e;
	}
	return n;
}

void interval_pids_free(struct interval_pids *p)
{
	u32_table_free(&p->t);
	memset(p, 0, sizeof(*p));
}

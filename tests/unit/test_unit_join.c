// SPDX-License-Identifier: GPL-2.0
/*
 * The join of self-timed units with migration and off-CPU records, on timelines made by
 * hand: counts before and inside a unit, the last off-CPU period and migration carried from
 * unit to unit, records out of order, the watermark holding a unit back, folding that keeps
 * counts exact, a unit that began before folded records counted as unjoinable, and threads
 * kept apart.  And the unit log's ring: order, the full ring dropping, a torn slot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "unit_join.h"
#include "unit_log_reader.h"

#define MS 1000000ULL

struct sink {
	struct mt_unit u[64];
	int n;
};

static int collect(void *ctx, const struct mt_unit *u)
{
	struct sink *s = ctx;

	assert_true(s->n < 64);
	s->u[s->n++] = *u;
	return 0;
}

static void mig(struct unit_join *uj, uint32_t tid, uint64_t ts, uint64_t age, int src, int dst)
{
	struct mt_migrate m = { .kind = MT_REC_MIGRATE, .pid = tid, .tgid = 100, .ts_ns = ts,
				.age_ns = age, .src_cpu = (uint16_t)src, .dst_cpu = (uint16_t)dst,
				.cause = MT_CAUSE_WAKEUP };

	assert_int_equal(unit_join_migration(uj, &m), 0);
}

static void off(struct unit_join *uj, uint32_t tid, uint64_t off_ns, uint64_t on_ns)
{
	struct mt_offcpu o = { .kind = MT_REC_OFFCPU, .pid = tid, .tgid = 100, .off_ns = off_ns,
			       .on_ns = on_ns };

	assert_int_equal(unit_join_offcpu(uj, &o), 0);
}

static void unit(struct unit_join *uj, uint32_t tid, uint64_t start, uint64_t end, int cpu)
{
	struct uj_unit u = { .tid = tid, .cpu_start = (uint16_t)cpu, .cpu_end = (uint16_t)cpu,
			     .start_ns = start, .end_ns = end, .tag = CW_TAG_NATURAL };

	assert_int_equal(unit_join_unit(uj, &u), 0);
}

/* A joined unit's migrations and switch-outs before it and inside it. */
static void assert_counts(const struct mt_unit *u, unsigned migs_before,
			  unsigned switches_before, unsigned migs_during, unsigned switches_during)
{
	assert_int_equal(u->migs_before, migs_before);
	assert_int_equal(u->switches_before, switches_before);
	assert_int_equal(u->migs_during, migs_during);
	assert_int_equal(u->switches_during, switches_during);
}

static void before_and_during(void **state)
{
	struct sink s = { 0 };
	struct unit_join *uj = unit_join_new(100, collect, &s);

	(void)state;
	assert_non_null(uj);
	/* off 1-3 ms, moved at 2.5 ms (age 1.5 ms) to CPU 1; unit 4-5 ms clean */
	off(uj, 7, 1 * MS, 3 * MS);
	mig(uj, 7, 2500000, 1500000, 0, 1);
	unit(uj, 7, 4 * MS, 5 * MS, 1);
	/* a unit 6-8 ms preempted inside it (6.5-7 ms): a switch during it */
	off(uj, 7, 6500000, 7 * MS);
	unit(uj, 7, 6 * MS, 8 * MS, 1);
	assert_int_equal(unit_join_flush(uj, UINT64_MAX), 0);
	assert_int_equal(s.n, 2);
	assert_counts(&s.u[0], 1, 1, 0, 0);
	assert_int_equal(s.u[0].last_off_ns, 2 * MS);
	assert_int_equal(s.u[0].mig_age_ns, 1500000);
	assert_int_equal(s.u[0].mig_dst_cpu, 1);
	assert_int_equal(s.u[0].prev_end_ns, 0);
	assert_int_equal(s.u[0].tgid, 100);
	/* the second: nothing before it since the first ended, one switch inside */
	assert_counts(&s.u[1], 0, 0, 0, 1);
	assert_int_equal(s.u[1].prev_end_ns, 5 * MS);
	/* the last off-CPU period before it is still the first one; the migration carries */
	assert_int_equal(s.u[1].last_off_ns, 2 * MS);
	assert_int_equal(s.u[1].mig_ts_ns, 2500000);
	unit_join_free(uj);
}

static void out_of_order_and_watermark(void **state)
{
	struct sink s = { 0 };
	struct unit_join *uj = unit_join_new(100, collect, &s);

	(void)state;
	/* the unit is logged before the records read from the ring buffer */
	unit(uj, 7, 10 * MS, 11 * MS, 0);
	assert_int_equal(unit_join_flush(uj, 10 * MS), 0);
	assert_int_equal(s.n, 0);	/* it ended after the watermark: held back */
	mig(uj, 7, 9 * MS, 3 * MS, 1, 0);
	off(uj, 7, 6 * MS, 9500000);	/* read after the migration it preceded */
	assert_int_equal(unit_join_flush(uj, 12 * MS), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.u[0].migs_before, 1);
	assert_int_equal(s.u[0].switches_before, 1);
	assert_int_equal(s.u[0].last_off_ns, 3500000);
	unit_join_free(uj);
}

static void fold_keeps_counts(void **state)
{
	struct sink s = { 0 };
	struct unit_join *uj = unit_join_new(100, collect, &s);
	uint64_t t = 1000 * MS;

	(void)state;
	/* a thread with no unit in flight: its old records are folded at the watermark */
	off(uj, 7, t, t + 1 * MS);
	mig(uj, 7, t + 500000, 700000, 0, 1);
	assert_int_equal(unit_join_flush(uj, t + 5000 * MS), 0);
	/* its next unit begins after the fold point: the folded records still count */
	unit(uj, 7, t + 4000 * MS, t + 4001 * MS, 1);
	assert_int_equal(unit_join_flush(uj, UINT64_MAX), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.u[0].migs_before, 1);
	assert_int_equal(s.u[0].switches_before, 1);
	assert_int_equal(s.u[0].last_off_ns, 1 * MS);
	assert_int_equal(s.u[0].mig_age_ns, 700000);
	assert_int_equal(unit_join_unjoinable(uj), 0);
	/* a unit that began before the fold point cannot be joined exactly: counted, not
	 * emitted */
	off(uj, 7, t + 6000 * MS, t + 6001 * MS);
	assert_int_equal(unit_join_flush(uj, t + 9000 * MS), 0);
	unit(uj, 7, t + 6000 * MS, t + 6002 * MS, 1);
	assert_int_equal(unit_join_flush(uj, UINT64_MAX), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(unit_join_unjoinable(uj), 1);
	unit_join_free(uj);
}

/*
 * The one accounting step: records already folded at the horizon and records still pending
 * add up before a unit; a record at its very start counts before it, one at its very end
 * inside it; what happened inside it carries to the next unit.
 */
static void one_accounting(void **state)
{
	struct sink s = { 0 };
	struct unit_join *uj = unit_join_new(100, collect, &s);
	uint64_t t = 1000 * MS;

	(void)state;
	off(uj, 7, t, t + 1 * MS);			/* folded at the horizon */
	mig(uj, 7, t + 3500 * MS, 100000, 0, 1);	/* pending */
	off(uj, 7, t + 3600 * MS, t + 3602 * MS);	/* pending: 2 ms off */
	mig(uj, 7, t + 4000 * MS, 200000, 1, 0);	/* at the unit's start */
	mig(uj, 7, t + 4000 * MS + 500000, 300000, 0, 1);	/* inside */
	off(uj, 7, t + 4001 * MS, t + 4001 * MS + 300000);	/* at its end */
	assert_int_equal(unit_join_flush(uj, t + 5000 * MS), 0);
	unit(uj, 7, t + 4000 * MS, t + 4001 * MS, 1);
	unit(uj, 7, t + 4002 * MS, t + 4003 * MS, 1);
	assert_int_equal(unit_join_flush(uj, UINT64_MAX), 0);
	assert_int_equal(s.n, 2);
	assert_counts(&s.u[0], 2, 2, 1, 1);
	assert_int_equal(s.u[0].last_off_ns, 2 * MS);
	assert_int_equal(s.u[0].mig_age_ns, 300000);	/* the last one before its end */
	/* the next unit: nothing since the first ended; the switch at its end was before it */
	assert_counts(&s.u[1], 0, 0, 0, 0);
	assert_int_equal(s.u[1].last_off_ns, 300000);
	assert_int_equal(s.u[1].mig_age_ns, 300000);
	assert_int_equal(unit_join_unjoinable(uj), 0);
	unit_join_free(uj);
}

static int count_only(void *ctx, const struct mt_unit *u)
{
	(void)u;
	(*(int *)ctx)++;
	return 0;
}

static void threads_apart(void **state)
{
	int n = 0;
	struct unit_join *uj = unit_join_new(100, count_only, &n);

	(void)state;
	/* many threads: the table grows, and every unit comes out once */
	for (uint32_t tid = 1; tid <= 200; tid++) {
		if (tid % 2)
			off(uj, tid, 1 * MS, 2 * MS);
		unit(uj, tid, 3 * MS, 4 * MS, 0);
	}
	assert_int_equal(unit_join_flush(uj, UINT64_MAX), 0);
	assert_int_equal(n, 200);
	unit_join_free(uj);
}

static int take_slot(void *ctx, const struct mt_unit_slot *slot)
{
	uint64_t *ends = ctx;

	ends[slot->tid] = slot->end_ns;
	return 0;
}

static void log_ring(void **state)
{
	struct unit_log_reader ul;
	uint64_t ends[16] = { 0 };

	(void)state;
	assert_int_equal(unit_log_create(&ul, 4), 0);
	for (uint32_t i = 0; i < 6; i++)
		mt_unit_log_put(ul.log, i, 0, 0, i, 100 + i, 0, &(struct mt_unit_trial){ 0 });
	/* four fit, two were dropped */
	assert_int_equal(unit_log_drain(&ul, false, take_slot, ends), 4);
	assert_int_equal(ends[3], 103);
	assert_int_equal(ends[4], 0);
	assert_int_equal(unit_log_lost(&ul), 2);
	/* room again; a slot claimed and never published holds back the ones after it */
	mt_unit_log_put(ul.log, 10, 0, 0, 0, 110, 0, &(struct mt_unit_trial){ 0 });
	ul.log->head++;		/* claimed by a producer that died */
	assert_int_equal(unit_log_drain(&ul, false, take_slot, ends), 1);
	assert_int_equal(unit_log_drain(&ul, false, take_slot, ends), 0);
	/* at the end it is skipped and counted */
	assert_int_equal(unit_log_drain(&ul, true, take_slot, ends), 0);
	assert_int_equal(unit_log_lost(&ul), 3);
	unit_log_close(&ul);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(before_and_during),
		cmocka_unit_test(out_of_order_and_watermark),
		cmocka_unit_test(fold_keeps_counts),
		cmocka_unit_test(one_accounting),
		cmocka_unit_test(threads_apart),
		cmocka_unit_test(log_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Correlation maths on synthetic unit streams: known penalties in, known hot time and
 * verdict out; and the join's edge cases. */
#include <linux/types.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "correlate.h"
#include "verdict.h"

#define US 1000ULL

struct stream {
	struct mt_unit *u;
	size_t n, cap;
	uint64_t clock;
};

static struct mt_unit *push(struct stream *s, uint32_t pid, uint64_t dur_ns, uint64_t tag)
{
	struct mt_unit *u;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->u = realloc(s->u, s->cap * sizeof(*s->u));
	}
	u = &s->u[s->n++];
	memset(u, 0, sizeof(*u));
	u->kind = MT_REC_UNIT;
	u->pid = u->tgid = pid;
	s->clock += 10 * US;
	u->start_ns = s->clock;
	u->end_ns = s->clock + dur_ns;
	u->prev_end_ns = s->clock - 5 * US;
	s->clock = u->end_ns;
	u->tag = tag;
	return u;
}

/* Deterministic jitter in [-1, 1] µs. */
static int64_t jitter(size_t i)
{
	return (int64_t)((i * 7919) % 2001) - 1000;
}

static const uint64_t ages_us[] = { 50, 100, 200, 500, 1000, 2000, 5000 };
#define NAGES (sizeof(ages_us) / sizeof(ages_us[0]))

/* cost(age) in µs: the migration cost the stream is built with. */
typedef double (*cost_fn)(uint64_t age_us);

static double cost_step(uint64_t a)
{
	return a <= 500 ? 50 : a == 1000 ? 20 : 0;
}

static double cost_none(uint64_t a)
{
	(void)a;
	return 0;
}

static double cost_always(uint64_t a)
{
	(void)a;
	return 40;
}

/* A controlled experiment: baseline 100 µs, same-CPU penalty 5 µs, migration adds cost(). */
static void controlled_stream(struct stream *s, cost_fn cost)
{
	size_t k = 0;

	for (int i = 0; i < 40; i++)
		push(s, 42, 100 * US + jitter(k++), CW_TAG_BASELINE);
	for (int rep = 0; rep < 30; rep++) {
		for (size_t a = 0; a < NAGES; a++) {
			struct mt_unit *u;

			u = push(s, 42, (uint64_t)((105 + cost(ages_us[a])) * US) + jitter(k++),
				 CW_TAG_MIGRATED);
			u->nominal_age_ns = ages_us[a] * US;
			u->migs_before = 1;
			u->switches_before = 2;
			u->mig_age_ns = ages_us[a] * US + 3 * US;
			u = push(s, 42, 105 * US + jitter(k++), CW_TAG_STAYED);
			u->nominal_age_ns = ages_us[a] * US;
			u->switches_before = 1;
			u->last_off_ns = ages_us[a] * US + 2 * US;
			push(s, 42, 100 * US + jitter(k++), CW_TAG_BASELINE);
		}
	}
}

static void run_controlled(struct stream *s, struct corr_result *r)
{
	struct corr_opts o;

	corr_default_opts(&o, CORR_CONTROLLED);
	assert_int_equal(correlate_units(s->u, s->n, &o, r), 0);
}

static void known_hot_time_and_verdicts(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct verdict_in vin = { .corr = &r };
	struct verdict v;
	double expect = 1000 * US * pow(2.0, 0.75);	/* 20 -> 0 crosses 5 at 3/4 of the octave */

	(void)state;
	controlled_stream(&s, cost_step);
	run_controlled(&s, &r);
	assert_int_equal(r.ncells, NAGES);
	assert_int_equal(r.n_mig_events, 30 * NAGES);
	assert_int_equal(r.n_stay_events, 30 * NAGES);
	assert_true(fabs(r.baseline_ns - 100 * US) < 200);
	assert_true(fabs(r.cells[0].cost_ns - 50 * US) < 500);
	assert_true(fabs(r.cells[0].pen_stay_ns - 5 * US) < 500);
	assert_true(fabs(r.cells[4].cost_ns - 20 * US) < 500);
	assert_true(fabs(r.cells[6].cost_ns) < 500);
	assert_true(r.cells[0].cost_lo_ns > 0 && r.cells[0].cost_hi_ns > r.cells[0].cost_lo_ns);
	assert_int_equal(r.hot_state, CORR_HOT_FOUND);
	assert_true(fabs(r.hot_ns - expect) / expect < 0.02);
	assert_true(r.hot_lo_ns <= r.hot_ns && r.hot_ns <= r.hot_hi_ns);
	assert_true(r.hot_hi_ns / r.hot_lo_ns < 1.2);	/* little noise: a tight interval */

	vin.kernel_ns = 500 * US;
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_TOO_LOW);
	assert_true(fabs(v.factor - expect / (500 * US)) < 0.1);
	assert_false(v.factor_is_bound);
	/* the band the kernel misjudges, [K, H), and what a migration costs there: the mean
	 * of the 500 µs cell's 50 µs (an age of K is cold) and the 1 ms cell's 20 µs, 35 % of
	 * the 100 µs unit */
	assert_true(v.band_lo_ns == 500 * US && v.band_hi_ns == r.hot_ns);
	assert_int_equal(v.band_cells, 2);
	assert_true(fabs(v.band_cost_ns - 35 * US) < 500);
	assert_true(fabs(v.band_cost_share - 0.35) < 0.01);
	assert_true(v.hot_lo_ns == r.hot_lo_ns && v.hot_hi_ns == r.hot_hi_ns);
	assert_false(v.has_run_share);	/* controlled: no migrations of its own to count */
	vin.kernel_ns = 5000 * US;
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_TOO_HIGH);
	assert_true(fabs(v.factor - 5000 * US / expect) < 0.1);
	vin.kernel_ns = expect;
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_ABOUT_RIGHT);
	free(s.u);
}

static void no_cost_and_above_range(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct verdict_in vin = { .corr = &r, .kernel_ns = 500 * US };
	struct verdict v;

	(void)state;
	controlled_stream(&s, cost_none);
	run_controlled(&s, &r);
	assert_int_equal(r.hot_state, CORR_HOT_NO_COST);
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_TOO_HIGH);
	assert_true(v.factor_is_bound);
	assert_true(fabs(v.factor - 10.0) < 0.01);	/* 500 µs / the smallest age, 50 µs */
	free(s.u);

	memset(&s, 0, sizeof(s));
	controlled_stream(&s, cost_always);
	run_controlled(&s, &r);
	assert_int_equal(r.hot_state, CORR_HOT_ABOVE);
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_TOO_LOW);
	assert_true(v.factor_is_bound);
	assert_true(fabs(v.factor - 10.0) < 0.01);	/* at least 5 ms / 500 µs */
	assert_true(isinf(v.hot_hi_ns) && v.hot_lo_ns == 5000 * US);
	free(s.u);
}

static void order_does_not_matter(void **state)
{
	struct stream s = { 0 };
	struct corr_result a, b;
	uint64_t seed = 12345;

	(void)state;
	controlled_stream(&s, cost_step);
	run_controlled(&s, &a);
	/* Ring-buffer records of different CPUs interleave: shuffle them. */
	for (size_t i = s.n - 1; i > 0; i--) {
		size_t j;
		struct mt_unit t;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (size_t)(seed >> 33) % (i + 1);
		t = s.u[i];
		s.u[i] = s.u[j];
		s.u[j] = t;
	}
	run_controlled(&s, &b);
	assert_int_equal(a.ncells, b.ncells);
	assert_true(a.hot_ns == b.hot_ns);
	for (int c = 0; c < a.ncells; c++)
		assert_true(a.cells[c].cost_ns == b.cells[c].cost_ns);
	free(s.u);
}

static void join_edge_cases(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct mt_unit *u;

	(void)state;
	controlled_stream(&s, cost_step);
	/* A unit that spans a migration is left out, and counted. */
	u = push(&s, 42, 900 * US, CW_TAG_MIGRATED);
	u->nominal_age_ns = 50 * US;
	u->migs_before = 1;
	u->mig_age_ns = 50 * US;
	u->migs_during = 1;
	/* A "migrated" unit whose migration the tracepoint never showed. */
	u = push(&s, 42, 900 * US, CW_TAG_MIGRATED);
	u->nominal_age_ns = 50 * US;
	u->switches_before = 1;
	/* A unit preempted in the middle. */
	u = push(&s, 42, 900 * US, CW_TAG_STAYED);
	u->nominal_age_ns = 100 * US;
	u->switches_before = 1;
	u->switches_during = 1;
	/* Another thread with no warm unit: it has no baseline, so it cannot be judged. */
	u = push(&s, 7, 300 * US, CW_TAG_MIGRATED);
	u->nominal_age_ns = 50 * US;
	u->migs_before = 1;
	run_controlled(&s, &r);
	assert_int_equal(r.n_spanning, 2);
	assert_int_equal(r.n_unseen, 1);
	assert_int_equal(r.n_threads, 1);
	assert_int_equal(r.cells[0].n_mig, 30);	/* none of the odd units got in */
	assert_true(fabs(r.cells[0].cost_ns - 50 * US) < 500);
	free(s.u);
}

/* Natural: bucket by measured age; a migration with no later unit joins nothing. */
static void natural_buckets(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct corr_opts o;
	size_t k = 0;

	(void)state;
	for (int rep = 0; rep < 40; rep++) {
		/* two buckets: 100-200 µs, 2-5 ms */
		uint64_t age = rep % 2 ? 150 * US : 3000 * US;
		struct mt_unit *u;

		u = push(&s, 9, (age < 1000 * US ? 160 : 110) * US + jitter(k++), CW_TAG_NATURAL);
		u->migs_before = 1;
		u->mig_age_ns = age;
		u->switches_before = 1;
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
		u = push(&s, 9, 110 * US + jitter(k++), CW_TAG_NATURAL);
		u->switches_before = 1;
		u->last_off_ns = age;
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
	}
	corr_default_opts(&o, CORR_NATURAL);
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_int_equal(r.ncells, 2);
	assert_true(r.cells[0].age_ns == 100 * US && r.cells[0].age_hi_ns == 200 * US);
	assert_true(fabs(r.cells[0].cost_ns - 50 * US) < 500);
	assert_true(fabs(r.cells[1].cost_ns) < 500);
	assert_true(fabs(r.cells[0].age_median_ns - 150 * US) < 1);
	assert_int_equal(r.hot_state, CORR_HOT_FOUND);
	assert_true(r.hot_ns > 150 * US && r.hot_ns < 3000 * US);
	assert_true(fabs(r.lost_ns - 20 * 50 * US) < 20 * 500);	/* 20 migrations at 50 µs */
	free(s.u);
}

/*
 * The run slice a migrated unit starts goes on through the back-to-back units after it,
 * and ends at the first that is not clean before and inside (docs/design.md "Terms"): a
 * migration inside a unit ends it, as a switch-out does.
 */
static void slice_ends_at_unclean_unit(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct corr_opts o;
	struct mt_unit *u;

	(void)state;
	for (int i = 0; i < 5; i++)
		push(&s, 9, 100 * US, CW_TAG_NATURAL);
	/* a same-CPU wake in the migration's age bucket, so that its cell has both arms */
	u = push(&s, 9, 110 * US, CW_TAG_NATURAL);
	u->switches_before = 1;
	u->last_off_ns = 150 * US;
	/* the migrated unit: 50 µs over the baseline, its slice 150 µs long */
	u = push(&s, 9, 150 * US, CW_TAG_NATURAL);
	u->migs_before = 1;
	u->switches_before = 1;
	u->mig_age_ns = 150 * US;
	/* back to back, but moved while it ran: not part of the slice */
	u = push(&s, 9, 100 * US, CW_TAG_NATURAL);
	u->migs_during = 1;
	u = push(&s, 9, 100 * US, CW_TAG_NATURAL);
	u->switches_before = 1;
	u->last_off_ns = 10 * US;
	corr_default_opts(&o, CORR_NATURAL);
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_true(fabs(r.cost_frac_slice - 50.0 / 150) < 1e-9);
	free(s.u);
}

static void hot_time_rule(void **state)
{
	const double age[] = { 1, 2, 4, 8 }, cost[] = { 100, 100, 50, 5 };
	const bool all[] = { true, true, true, true }, noisy[] = { true, false, false, false };
	double hot;

	(void)state;
	/* 50 at age 4 -> 5 at age 8: crosses 10 at (50-10)/(50-5) of the octave. */
	assert_int_equal(corr_hot_time(age, cost, all, 4, 0.1, &hot), CORR_HOT_FOUND);
	assert_true(fabs(hot - 4 * pow(2, 40.0 / 45)) < 1e-9);
	/* Only the first cell is significant: the others neither set nor extend it. */
	assert_int_equal(corr_hot_time(age, cost, noisy, 4, 0.1, &hot), CORR_HOT_FOUND);
	assert_true(hot >= 1 && hot <= 2);
	assert_int_equal(corr_hot_time(age, cost, NULL, 0, 0.1, &hot), CORR_HOT_NO_DATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_hot_time_and_verdicts),
		cmocka_unit_test(no_cost_and_above_range),
		cmocka_unit_test(order_does_not_matter),
		cmocka_unit_test(join_edge_cases),
		cmocka_unit_test(natural_buckets),
		cmocka_unit_test(slice_ends_at_unclean_unit),
		cmocka_unit_test(hot_time_rule),
	};

	return cmocka_run_group_tests_name("correlate", tests, NULL, NULL);
}

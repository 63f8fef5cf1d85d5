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
			u->round = (uint32_t)rep;
			u->migs_before = 1;
			u->switches_before = 2;
			u->mig_age_ns = ages_us[a] * US + 3 * US;
			u = push(s, 42, 105 * US + jitter(k++), CW_TAG_STAYED);
			u->nominal_age_ns = ages_us[a] * US;
			u->round = (uint32_t)rep;
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
	/* little noise: the interval is the two ages the fall lies between */
	assert_true(r.hot_lo_ns == 1000 * US && r.hot_hi_ns == 2000 * US);

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
	/* the interval reaches the smallest age: a bound, not a verdict */
	assert_int_equal(v.kind, VERDICT_UNDETERMINED);
	assert_true(v.factor_is_bound);
	assert_true(fabs(v.factor - 10.0) < 0.01);	/* 500 µs / the smallest age, 50 µs */
	assert_true(v.hot_lo_ns == 0);
	free(s.u);

	memset(&s, 0, sizeof(s));
	controlled_stream(&s, cost_always);
	run_controlled(&s, &r);
	assert_int_equal(r.hot_state, CORR_HOT_ABOVE);
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_UNDETERMINED);
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
		u->mig_cause = MT_CAUSE_LB_PULL;
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
	/* the same-CPU wakes' penalty is 10 µs at both ages: no rise to read */
	assert_int_equal(r.stay_decay.state, CORR_HOT_NO_COST);
	free(s.u);
}

/*
 * Natural runs beside a polluter: its rate is the bytes it streamed over the time the threads
 * slept, over the same-CPU wakes on the CPUs it streamed on only (a wake on another CPU, or
 * after a move, says nothing of it); without a polluted CPU there is no rate.
 */
static void natural_corunner_rate(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct corr_opts o;
	size_t k = 0;

	(void)state;
	for (int rep = 0; rep < 200; rep++) {
		uint64_t off = (50 + (uint64_t)rep * 37 % 5000) * US;
		uint16_t cpu = rep % 4 ? 0 : 1;	/* a quarter of the wakes on CPU 1 */
		struct mt_unit *u;

		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
		u = push(&s, 9, 110 * US + jitter(k++), CW_TAG_NATURAL);
		u->switches_before = 1;
		u->last_off_ns = off;
		u->cpu_start = u->cpu_end = cpu;
		/* 300 MB/s on CPU 0; CPU 1's polluter is not in the list: 10x, never counted */
		u->streamed_bytes = cpu ? off * 3 : off * 3 / 10;
		u->rate_mbps = 300;
	}
	corr_default_opts(&o, CORR_NATURAL);
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_int_equal(r.corunner_wakes, 0);
	assert_true(isnan(r.corunner_mbps));
	o.polluted_cpus[0] = 1;		/* CPU 0 */
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_int_equal(r.corunner_wakes, 150);
	assert_true(fabs(r.corunner_mbps - 300) < 1);
	assert_true(r.corunner_lo_mbps <= r.corunner_mbps && r.corunner_mbps <= r.corunner_hi_mbps);
	assert_true(r.corunner_hi_mbps - r.corunner_lo_mbps < 2);	/* exact rates: a tight one */
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
	u->mig_cause = MT_CAUSE_LB_PULL;
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

/*
 * Natural: the verdict stands on pulls.  Units after wakeup placements are measured beside
 * them (here a cost below 0: a biased comparison, as units placed on an idle CPU can be) and
 * never count; a pull's age is the kernel's from its record; below 30 pulls, no verdict.
 */
static void natural_pulls_are_evidence(void **state)
{
	struct stream s = { 0 };
	struct mt_migrate migs[60];
	struct corr_result r;
	struct corr_opts o;
	struct verdict_in vin = { .corr = &r, .kernel_ns = 500 * US };
	struct verdict v;
	size_t k = 0, nm = 0;

	(void)state;
	for (int rep = 0; rep < 60; rep++) {
		bool pull = rep % 2;
		uint64_t age = 150 * US;
		struct mt_unit *u;

		/* the pull: 50 µs dearer; its record says the kernel saw it 40 µs younger */
		u = push(&s, 9, (pull ? 160 : 80) * US + jitter(k++), CW_TAG_NATURAL);
		u->migs_before = 1;
		u->mig_age_ns = age;
		u->mig_ts_ns = u->start_ns - 1000;
		u->switches_before = 1;
		u->mig_cause = pull ? MT_CAUSE_LB_PULL : MT_CAUSE_WAKEUP;
		if (pull) {
			memset(&migs[nm], 0, sizeof(migs[nm]));
			migs[nm].pid = 9;
			migs[nm].ts_ns = u->mig_ts_ns;
			migs[nm].cause = MT_CAUSE_LB_PULL;
			migs[nm].flags = MT_RF_KAGE_VALID;
			migs[nm++].kernel_age_ns = 110 * US;
		}
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
		u = push(&s, 9, 110 * US + jitter(k++), CW_TAG_NATURAL);
		u->switches_before = 1;
		u->last_off_ns = age;
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
	}
	corr_default_opts(&o, CORR_NATURAL);
	o.migs = migs;
	o.nmigs = nm;
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_int_equal(r.n_mig_events, 30);
	assert_int_equal(r.n_other_events, 30);
	assert_int_equal(r.n_kernel_aged, 30);
	/* the pulls land in the 100-200 µs bucket by the kernel's 110 µs age, like the stays */
	for (int c = 0; c < r.ncells; c++) {
		if (r.cells[c].age_ns != 100 * US)
			continue;
		assert_int_equal(r.cells[c].n_mig, 30);
		assert_true(fabs(r.cells[c].cost_ns - 50 * US) < 500);
		assert_true(fabs(r.cells[c].cost_other_ns + 30 * US) < 500);
		assert_true(r.cells[c].cost_other_hi_ns < 0);
	}
	assert_int_equal(r.bias_cells, 0);
	assert_int_equal(r.bias_other_cells, 1);	/* said, not judged */
	verdict_decide(&vin, &v);
	assert_int_equal(v.judged, 30);
	assert_int_equal(v.min_judged, 30);
	assert_false(v.bias);
	/* one pull fewer: below the minimum, no verdict */
	for (size_t i = 0; i < s.n; i++)
		if (s.u[i].mig_cause == MT_CAUSE_LB_PULL) {
			s.u[i].mig_cause = MT_CAUSE_WAKEUP;
			break;
		}
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	verdict_decide(&vin, &v);
	assert_int_equal(v.judged, 29);
	assert_int_equal(v.kind, VERDICT_UNDETERMINED);
	free(s.u);
}

/* Pulls whose units come out faster than the same-CPU wakes': a bias finding, no verdict. */
static void natural_bias_is_no_verdict(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct corr_opts o;
	struct verdict_in vin = { .corr = &r, .kernel_ns = 500 * US };
	struct verdict v;
	size_t k = 0;

	(void)state;
	for (int rep = 0; rep < 40; rep++) {
		struct mt_unit *u;

		u = push(&s, 9, 80 * US + jitter(k++), CW_TAG_NATURAL);	/* 30 µs faster */
		u->migs_before = 1;
		u->switches_before = 1;
		u->mig_age_ns = 150 * US;
		u->mig_cause = MT_CAUSE_LB_PULL;
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
		u = push(&s, 9, 110 * US + jitter(k++), CW_TAG_NATURAL);
		u->switches_before = 1;
		u->last_off_ns = 150 * US;
		push(&s, 9, 100 * US + jitter(k++), CW_TAG_NATURAL);
	}
	corr_default_opts(&o, CORR_NATURAL);
	assert_int_equal(correlate_units(s.u, s.n, &o, &r), 0);
	assert_int_equal(r.bias_cells, 1);
	verdict_decide(&vin, &v);
	assert_true(v.bias);
	assert_int_equal(v.judged, 40);
	assert_int_equal(v.kind, VERDICT_UNDETERMINED);
	free(s.u);
}

/*
 * A controlled grid with a polluter: rates x ages, the polluter displacing rate x age bytes
 * (capped at its 4 MiB buffer), and a migration cost that depends on the displaced bytes only:
 * a logistic fall to half at d50 bytes, or a flat cost.
 */
static const double grid_rates_mbps[] = { 200, 1000, 5000 };
#define NRATES (sizeof(grid_rates_mbps) / sizeof(grid_rates_mbps[0]))
#define FOOTPRINT (4.0 * 1024 * 1024)

static double grid_cost_us(double d, double d50)
{
	return d50 > 0 ? 60 / (1 + pow(d / d50, 3)) : 40;
}

static void grid_stream(struct stream *s, double d50)
{
	size_t k = 0;

	for (int i = 0; i < 40; i++)
		push(s, 42, 100 * US + jitter(k++), CW_TAG_BASELINE);
	for (int rep = 0; rep < 30; rep++) {
		for (size_t rt = 0; rt < NRATES; rt++) {
			for (size_t a = 0; a < NAGES; a++) {
				double streamed = grid_rates_mbps[rt] * (double)ages_us[a];
				double d = fmin(streamed, FOOTPRINT);
				struct mt_unit *u;

				for (int arm = 0; arm < 2; arm++) {
					u = push(s, 42, (uint64_t)((105 + (arm ? grid_cost_us(d, d50) :
						 0)) * US) + jitter(k++),
						 arm ? CW_TAG_MIGRATED : CW_TAG_STAYED);
					u->nominal_age_ns = ages_us[a] * US;
					u->round = (uint32_t)rep;
					u->rate_mbps = (uint32_t)grid_rates_mbps[rt];
					u->streamed_bytes = (uint64_t)streamed;
					u->switches_before = 1;
					u->last_off_ns = ages_us[a] * US;
					if (arm) {
						u->migs_before = 1;
						u->mig_age_ns = ages_us[a] * US;
					}
				}
				push(s, 42, 100 * US + jitter(k++), CW_TAG_BASELINE);
			}
		}
	}
}

static void run_grid(struct stream *s, struct corr_result *r)
{
	struct corr_opts o;

	corr_default_opts(&o, CORR_CONTROLLED);
	o.footprint_bytes = FOOTPRINT;
	o.ws_bytes = 256 * 1024;
	assert_int_equal(correlate_units(s->u, s->n, &o, r), 0);
}

/* D* recovered from every rate alike; the hot time by age moves with the rate, D* not. */
static void grid_recovers_dstar(void **state)
{
	double d50 = 512 * 1024, truth = d50 * cbrt(9.0);	/* 60 / (1 + 9) = 10 % */
	struct stream s = { 0 };
	struct corr_result r;
	struct verdict_in vin = { .corr = &r, .kernel_ns = 500 * US };
	struct verdict v;

	(void)state;
	grid_stream(&s, d50);
	run_grid(&s, &r);
	assert_int_equal(r.axis, CORR_AXIS_DISPLACED);
	assert_int_equal(r.ncells, (int)(NRATES * NAGES));
	assert_int_equal(r.nrates, (int)NRATES);
	assert_int_equal(r.blocks, 30);
	assert_int_equal(r.bootstrap, CORR_BOOTSTRAP);
	assert_int_equal(r.dstar.state, CORR_HOT_FOUND);
	/* the grid is coarse (1-2-5 ages): the fit's fall within 35 % of the curve's */
	assert_true(fabs(r.dstar.at - truth) / truth < 0.35);
	assert_true(r.dstar.lo <= r.dstar.at && r.dstar.at <= r.dstar.hi);
	for (size_t k = 0; k < NRATES; k++) {
		assert_true(fabs(r.rates[k].achieved_mbps - grid_rates_mbps[k]) < 1);
		if (r.rates[k].dstar.state == CORR_HOT_FOUND)
			assert_true(fabs(r.rates[k].dstar.at - truth) / truth < 0.5);
	}
	assert_true(r.rates_found >= 2 && r.rates_agree);
	/* the old-style hot time by age moves with the rate: 1 GB/s against 5 GB/s (200 MB/s
	 * displaces at most 1 MB by 5 ms, too little for its cost to fall) */
	assert_int_equal(r.rates[0].hot.state, CORR_HOT_ABOVE);
	assert_int_equal(r.rates[1].hot.state, CORR_HOT_FOUND);
	assert_int_equal(r.rates[2].hot.state, CORR_HOT_FOUND);
	assert_true(r.rates[1].hot.at / r.rates[2].hot.at > 3);
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_BY_RATE);
	/* D* / K: bytes per ns, x 1e3 in MB/s */
	assert_true(fabs(v.fit_rate_mbps - r.dstar.at / (500 * US) * 1e3) < 1e-6);
	assert_true(v.fit_rate_lo_mbps <= v.fit_rate_mbps && v.fit_rate_mbps <= v.fit_rate_hi_mbps);
	assert_int_equal(v.nrates, (int)NRATES);
	assert_int_equal(v.rates[0].kind, VERDICT_TOO_LOW);	/* 200 MB/s: hot time ~6 ms */
	assert_int_equal(v.rates[2].kind, VERDICT_TOO_HIGH);	/* 5 GB/s: ~230 µs */
	free(s.u);
}

/* A cost that never falls over the displacements measured: no D*, no verdict. */
static void flat_grid_is_undetermined(void **state)
{
	struct stream s = { 0 };
	struct corr_result r;
	struct verdict_in vin = { .corr = &r, .kernel_ns = 500 * US };
	struct verdict v;

	(void)state;
	grid_stream(&s, 0);
	run_grid(&s, &r);
	assert_int_equal(r.dstar.state, CORR_HOT_ABOVE);
	assert_true(isinf(r.dstar.hi));
	verdict_decide(&vin, &v);
	assert_int_equal(v.kind, VERDICT_UNDETERMINED);
	assert_true(v.fit_rate_lo_mbps > 0 && !isfinite(v.fit_rate_hi_mbps));
	free(s.u);
}

/* The bootstrap resamples rounds: the same data, the same intervals; one round, none. */
static void bootstrap_by_round(void **state)
{
	struct stream s = { 0 };
	struct corr_result a, b;

	(void)state;
	grid_stream(&s, 512 * 1024);
	run_grid(&s, &a);
	run_grid(&s, &b);
	assert_true(a.dstar.lo == b.dstar.lo && a.dstar.hi == b.dstar.hi);
	for (size_t i = 0; i < s.n; i++)
		s.u[i].round = 0;
	run_grid(&s, &b);
	assert_int_equal(b.blocks, 1);
	/* one block: every resample is the sample itself */
	assert_true(b.cells[0].cost_lo_ns == b.cells[0].cost_hi_ns);
	free(s.u);
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
		cmocka_unit_test(natural_pulls_are_evidence),
		cmocka_unit_test(natural_bias_is_no_verdict),
		cmocka_unit_test(grid_recovers_dstar),
		cmocka_unit_test(natural_corunner_rate),
		cmocka_unit_test(flat_grid_is_undetermined),
		cmocka_unit_test(bootstrap_by_round),
	};

	return cmocka_run_group_tests_name("correlate", tests, NULL, NULL);
}

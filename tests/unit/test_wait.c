// SPDX-License-Identifier: GPL-2.0
/* The wait side (analysis/judge/wait.c): the censored wait estimator on synthetic waits with a
 * known answer, and T* on a doctored run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render_text.h"
#include "wait.h"

#define US 1000.0

static double uniform(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

/* The log2 µs slot of a wait, as the BPF side fills it. */
static int slot_of(double ns)
{
	uint64_t us = (uint64_t)(ns / 1e3);
	int k = 0;

	while (us >> (k + 1) && k + 1 < MT_HIST_SLOTS)
		k++;
	return us < 2 ? 0 : k;
}

/*
 * Exponential waits (mean 1 ms): memoryless, so the wait still ahead is 1 ms whatever has
 * been waited.  Pulls come at times of their own (exponential, mean 2 ms, independent of the
 * wait: the life table's assumption) and cut a third of the waits short, counted where they
 * were cut, as the censored histogram has them.  The life table must give back about 1 ms
 * (within 10 %: the log2 slots cost some accuracy), where the waits that ended alone
 * would give about 0.67 ms (the long ones are the ones a pull cuts).
 */
static void exponential_waits(void **state)
{
	__u64 done[MT_HIST_SLOTS] = { 0 }, cut[MT_HIST_SLOTS] = { 0 }, none[MT_HIST_SLOTS] = { 0 };
	__u64 naive[MT_HIST_SLOTS] = { 0 };
	uint64_t seed = 42;
	struct wait_life l;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		double w = -1000 * US * log(uniform(&seed));
		double pull = -2000 * US * log(uniform(&seed));

		if (pull < w) {
			cut[slot_of(pull)]++;
		} else {
			done[slot_of(w)]++;
			naive[slot_of(w)]++;
		}
	}
	wait_life(done, cut, &l);
	for (double w = 250 * US; w <= 2000 * US; w *= 2) {
		double r = wait_residual(&l, w);

		if (!(fabs(r - 1000 * US) / (1000 * US) < 0.10))
			fail_msg("after %.0f µs: %.0f µs still to wait, not about 1000", w / US, r / US);
	}
	/* the waits that ended alone, as if the pulled ones never were: too short */
	wait_life(naive, none, &l);
	assert_true(wait_residual(&l, 500 * US) < 0.8 * 1000 * US);
	/* no wait seen: nothing to say */
	wait_life(none, none, &l);
	assert_true(isnan(wait_residual(&l, 0)));
}

/* Waits that all end within 2-4 ms (uncensored): after 1 ms, 1-3 ms remain. */
static void bounded_waits(void **state)
{
	__u64 done[MT_HIST_SLOTS] = { 0 }, cut[MT_HIST_SLOTS] = { 0 };
	struct wait_life l;
	double r;

	(void)state;
	done[11] = 1000;	/* [2048, 4096) µs */
	wait_life(done, cut, &l);
	r = wait_residual(&l, 1000 * US);
	assert_true(r > 1048 * US && r < 3096 * US);
	assert_true(isnan(wait_residual(&l, 5000 * US)));	/* none lasted that long */
}

/* A natural run whose pulls always save more waiting than they cost refill. */
static void pull_pays_everywhere(void **state)
{
	struct run *r = run_new();
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(r);
	r->setup.mode = r->corr.mode = CORR_NATURAL;
	r->has_corr = r->has_verdict = true;
	r->corr.cold_fraction = 0.1;
	r->corr.ncells = 2;
	r->corr.cells[0] = (struct corr_cell){ .age_ns = 100 * US, .age_hi_ns = 200 * US,
		.age_median_ns = 150 * US, .fit_cost_ns = 20 * US, .cost_lo_ns = 15 * US,
		.cost_hi_ns = 25 * US, .n_mig = 40, .n_stay = 40 };
	r->corr.cells[1] = (struct corr_cell){ .age_ns = 1000 * US, .age_hi_ns = 2000 * US,
		.age_median_ns = 1500 * US, .fit_cost_ns = 10 * US, .cost_lo_ns = 5 * US,
		.cost_hi_ns = 15 * US, .n_mig = 40, .n_stay = 40 };
	r->verdict.kernel_ns = 500 * US;
	/* waits of 2-4 ms that ended in a run, and pulls that cut them at 100 µs and 1 ms */
	r->hists.runwait[11] = 5000;
	r->recs = calloc(2, sizeof(*r->recs));
	assert_non_null(r->recs);
	r->nrecs = 2;
	for (int i = 0; i < 2; i++) {
		r->recs[i].cause = MT_CAUSE_LB_PULL;
		r->recs[i].flags = MT_RF_KAGE_VALID | MT_RF_WAIT_VALID;
		r->recs[i].kernel_age_ns = i ? 1500 * US : 150 * US;
		r->recs[i].wait_ns = i ? 1000 * US : 100 * US;
		r->hists.runwait_pulled[i ? 9 : 6]++;
	}
	wait_judge(r);
	assert_int_equal(r->verdict.tstar_state, CORR_HOT_NO_COST);
	assert_true(r->corr.cells[0].gain_ns > 2000 * US);
	assert_true(isfinite(r->verdict.wait_at_kernel_ns) && r->verdict.refill_at_kernel_ns > 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	render_text_verdict(f, r);
	fclose(f);
	if (!strstr(text, "any positive threshold costs latency here"))
		fail_msg("not said:\n%s", text);
	free(text);
	/* G(a) per age, with its interval, in the correlation's text */
	assert_true(r->corr.cells[0].gain_lo_ns <= r->corr.cells[0].gain_ns &&
		    r->corr.cells[0].gain_ns <= r->corr.cells[0].gain_hi_ns);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	render_text_correlation(f, r);
	fclose(f);
	if (!strstr(text, "the wait side by age") || !strstr(text, "G (95% interval)"))
		fail_msg("no wait side by age:\n%s", text);
	free(text);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exponential_waits),
		cmocka_unit_test(bounded_waits),
		cmocka_unit_test(pull_pays_everywhere),
	};

	return cmocka_run_group_tests_name("wait", tests, NULL, NULL);
}

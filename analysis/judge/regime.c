// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes-driven or time-driven (docs/design.md, "Bytes-driven or time-driven").  A grid runs
 * the same ages at several polluter rates.  If what makes a task's cache cold is the bytes
 * its co-runners stream, every rate falls at the same displaced bytes D*, and its hot time by
 * age moves with the rate; if it is the time away (the host's own traffic, a cache the
 * polluter cannot reach), every rate falls at the same age, and D* moves with the rate.  So
 * each model is tested as correlate.c tests the D*: it holds when one value lies in every
 * rate's 95 % interval on its axis and at least two rates fell inside their range (an
 * interval open at an edge agrees with anything on that side).  Both holding says that the
 * rates measured are too close, or the intervals too wide, to tell the two apart.
 */
#include <math.h>
#include <string.h>

#include "regime.h"
#include "stats.h"

/* The smallest standard error of log(hot time) a rate is given: a fall's interval always
 * spans the two cells around it, so this only keeps a degenerate one from taking all the
 * weight (1 %). */
#define POOL_MIN_SE 0.01

void regime_none(struct verdict_model *m)
{
	memset(m, 0, sizeof(*m));
	m->regime = MODEL_NOT_TESTED;
	m->dstar.common_lo = m->dstar.common_hi = m->dstar.min = m->dstar.max = NAN;
	m->hot = m->dstar;
	m->pooled_hot_ns = m->pooled_hot_lo_ns = m->pooled_hot_hi_ns = NAN;
}

/* One model's test: the rates' falls on its axis (a file's null ends, NAN, are open). */
static void test_axis(const struct corr_rate *rates, int n, bool hot, struct model_test *t)
{
	t->bounded = 0;
	t->common_lo = 0;
	t->common_hi = INFINITY;
	t->min = t->max = NAN;
	for (int k = 0; k < n; k++) {
		const struct corr_fall *f = hot ? &rates[k].hot : &rates[k].dstar;

		if (f->state == CORR_HOT_NO_DATA)
			continue;
		/* fmax and fmin leave a NAN end out: open */
		t->common_lo = fmax(t->common_lo, f->lo);
		t->common_hi = fmin(t->common_hi, f->hi);
		if (f->state != CORR_HOT_FOUND)
			continue;
		t->bounded++;
		t->min = fmin(t->min, f->at);
		t->max = fmax(t->max, f->at);
	}
	t->agree = t->bounded > 1 && t->common_lo <= t->common_hi;
}

/*
 * The hot time by age pooled over the rates that agree on it: the inverse-variance weighted
 * mean of log(hot time).  On the log axis because a hot time is a scale; even there a fall's
 * bootstrap interval is lopsided (the estimate often sits near one of the two cells around
 * it), so each rate keeps two standard errors, read off its interval below and above its
 * estimate as (log at - log lo) / z and (log hi - log at) / z, z the normal quantile of the
 * intervals' level (1.96 at 95 %): the point weighs each rate by 1 / (se_below x se_above),
 * and each end of the interval is z pooled standard errors of its own side away (one rate
 * alone gives back its own interval).  A fixed-effect pool: it
 * is made only once the test above found one age in every interval, i.e. the rates measure
 * the same thing.  A rate whose interval is open at an end (0 or beyond the range) has no
 * finite variance and weighs nothing, but what it says still holds: the pool is kept inside
 * the ages every rate's interval shares (the point too, where the rates that weighed put it
 * outside them).  The rates' estimates come from disjoint cells of the same rounds, so the
 * host's drift over the rounds is common to them: the pool treats them as independent, and
 * its interval may be narrower than the truth by that much.
 */
static void pool_hot(const struct corr_rate *rates, int n, double level,
		     struct verdict_model *m)
{
	double sw = 0, swx = 0, sw_lo = 0, sw_hi = 0, mu, z = normal_quantile((1 + level) / 2);

	m->pooled_rates = 0;
	m->pooled_hot_ns = m->pooled_hot_lo_ns = m->pooled_hot_hi_ns = NAN;
	for (int k = 0; k < n; k++) {
		const struct corr_fall *f = &rates[k].hot;
		double below, above;

		if (f->state != CORR_HOT_FOUND || !(f->at > 0) || !(f->lo > 0) ||
		    !isfinite(f->hi))
			continue;
		below = fmax((log(f->at) - log(fmin(f->lo, f->at))) / z, POOL_MIN_SE);
		above = fmax((log(fmax(f->hi, f->at)) - log(f->at)) / z, POOL_MIN_SE);
		sw += 1 / (below * above);
		swx += log(f->at) / (below * above);
		sw_lo += 1 / (below * below);
		sw_hi += 1 / (above * above);
		m->pooled_rates++;
	}
	if (!m->pooled_rates)
		return;
	mu = swx / sw;
	m->pooled_hot_lo_ns = fmax(exp(mu - z / sqrt(sw_lo)), m->hot.common_lo);
	m->pooled_hot_hi_ns = fmin(exp(mu + z / sqrt(sw_hi)), m->hot.common_hi);
	if (m->pooled_hot_lo_ns > m->pooled_hot_hi_ns) {
		/* the pool lies wholly outside what the open rates allow: those ages are all
		 * that is known */
		m->pooled_hot_lo_ns = m->hot.common_lo;
		m->pooled_hot_hi_ns = m->hot.common_hi;
	}
	m->pooled_hot_ns = fmin(fmax(exp(mu), m->pooled_hot_lo_ns), m->pooled_hot_hi_ns);
}

void regime_decide(const struct corr_rate *rates, int n, double level, struct verdict_model *m)
{
	regime_none(m);
	for (int k = 0; k < n; k++)
		m->rates += rates[k].dstar.state != CORR_HOT_NO_DATA ||
			    rates[k].hot.state != CORR_HOT_NO_DATA;
	if (m->rates < 2)
		return;
	test_axis(rates, n, false, &m->dstar);
	test_axis(rates, n, true, &m->hot);
	if (m->hot.agree)
		pool_hot(rates, n, level, m);
	if (m->dstar.agree && m->hot.agree)
		m->regime = MODEL_BOTH;
	else if (m->dstar.agree)
		m->regime = MODEL_BYTES;
	else if (m->hot.agree)
		m->regime = MODEL_TIME;
	else if (m->dstar.bounded > 1 && m->hot.bounded > 1)
		m->regime = MODEL_MIXED;
	else
		m->regime = MODEL_TOO_FEW;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict (docs/design.md, "The verdict").  On the age axis: the kernel's value K against
 * the observed hot time H and its 95 % interval [lo, hi]: K < lo is too low (tasks between K
 * and H are moved as cold and pay a refill), K > hi too high (tasks between H and K are kept
 * as hot although moving them is cheap); K inside a narrow interval is about right.  An
 * interval that reaches the edge of what was measured, or a wide one around K, is
 * undetermined: the factor is then a bound, said as such.  Every factor carries the
 * interval's factors.
 *
 * On the displaced axis (a grid of polluter rates) there is no one hot time: the cost falls
 * past D* displaced bytes, so the hot time is D* / the rate at which the tasks sharing a CPU
 * displace the cache.  The verdict is then the rate at which K is right (D* / K), and each
 * rate of the grid judged at its own hot time.  That holds only when the cost falls with the
 * bytes displaced; when the rates agree on an age instead (docs/design.md, "Bytes-driven or
 * time-driven"), the verdict is K against their hot time by age, pooled, as on the age axis.
 * Which ages a threshold calls hot is task_hot()'s rule, MT_TASK_HOT in bpf/migtrace.h.
 */
#include <math.h>
#include <string.h>

#include "decay.h"
#include "regime.h"
#include "verdict.h"

/*
 * A natural run's verdict stands on the units after load-balancer pulls, in cells that also
 * have same-CPU wakes: with fewer than this, no verdict (a hot time from a handful of pulls
 * would look as sure as one from hundreds).
 */
#define VERDICT_MIN_PULLS 30
/* K within an interval wider than this (hi / lo) is undetermined rather than about right. */
#define VERDICT_ABOUT_RIGHT_SPAN 4.0

/* An age (ns) the threshold lo calls cold and hi calls hot: it lies in [lo, hi). */
static bool in_band(double age, double lo, double hi)
{
	return !MT_TASK_HOT(age, lo) && MT_TASK_HOT(age, hi);
}

/* The fitted cost of the cells over their ages, for reading it at any age. */
static int age_fit(const struct corr_result *r, double *age, double *fit)
{
	int n = 0;

	for (int c = 0; c < r->ncells; c++) {
		if (!isfinite(r->cells[c].fit_cost_ns))
			continue;
		age[n] = fmax(corr_cell_age(r, c), 1);
		fit[n++] = r->cells[c].fit_cost_ns;
	}
	return n;
}

/*
 * What a migration in the band costs: the fitted cost at the age of each of the run's own
 * migrations in it, averaged (natural runs: weighted as the run's moves fell), else the
 * fitted cost over the band's cells.  too high: the largest, at least 0.  How many cells.
 */
static int band_cost(const struct verdict_in *in, const struct verdict *v, double *cost)
{
	const struct corr_result *r = in->corr;
	double age[CORR_MAX_CELLS], fit[CORR_MAX_CELLS], sum = 0, max = -INFINITY;
	int n = age_fit(r, age, fit), cells = 0;
	uint64_t k = 0;

	for (int c = 0; c < n; c++)
		cells += in_band(age[c], v->band_lo_ns, v->band_hi_ns);
	for (size_t i = 0; i < in->nmigs; i++) {
		double a = (double)in->migs[i].age_ns;

		if (!in_band(a, v->band_lo_ns, v->band_hi_ns))
			continue;
		sum += decay_at(age, fit, n, fmax(a, 1));
		max = fmax(max, decay_at(age, fit, n, fmax(a, 1)));
		k++;
	}
	if (!k) {
		for (int c = 0; c < n; c++) {
			if (!in_band(age[c], v->band_lo_ns, v->band_hi_ns))
				continue;
			sum += fit[c];
			max = fmax(max, fit[c]);
			k++;
		}
	}
	*cost = !k ? NAN : v->kind == VERDICT_TOO_LOW ? sum / (double)k : fmax(max, 0);
	return cells;
}

static uint64_t band_migrations(const struct verdict_in *in, double lo, double hi)
{
	uint64_t k = 0;

	for (size_t i = 0; i < in->nmigs; i++)
		k += in_band((double)in->migs[i].age_ns, lo, hi);
	return k;
}

/*
 * K against a hot time H with interval [lo, hi] (lo 0 or hi +inf: the grid's edge): the
 * kind and the factor with its interval.  An interval at the edge leaves the kind
 * undetermined and the factor a bound.
 */
static enum verdict_kind judge(double K, double H, double lo, double hi, double *factor,
			       double *factor_lo, double *factor_hi)
{
	bool edge = !(lo > 0) || !isfinite(hi);

	*factor = *factor_lo = *factor_hi = NAN;
	if (K < 0) {
		/* -1: every task is hot, whatever its age; no finite factor says how far off */
		return VERDICT_TOO_HIGH;
	}
	if (K < lo) {
		*factor = K > 0 ? H / K : NAN;	/* 0: no task is ever hot */
		*factor_lo = K > 0 ? lo / K : NAN;
		*factor_hi = K > 0 ? hi / K : NAN;
		return edge ? VERDICT_UNDETERMINED : VERDICT_TOO_LOW;
	}
	if (K > hi) {
		*factor = K / H;
		*factor_lo = K / hi;
		*factor_hi = lo > 0 ? K / lo : INFINITY;
		return edge ? VERDICT_UNDETERMINED : VERDICT_TOO_HIGH;
	}
	*factor = K > H ? K / H : H / K;
	if (lo > 0 && isfinite(hi) && hi / lo <= VERDICT_ABOUT_RIGHT_SPAN)
		return VERDICT_ABOUT_RIGHT;
	return VERDICT_UNDETERMINED;
}

void verdict_none(struct verdict *v, double kernel_ns)
{
	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_NONE;
	v->kernel_ns = kernel_ns;
	v->hot_ns = v->hot_lo_ns = v->hot_hi_ns = v->factor = NAN;
	v->factor_lo = v->factor_hi = NAN;
	v->band_lo_ns = v->band_hi_ns = v->band_cost_ns = v->band_cost_share = NAN;
	v->unit_ns = v->max_cost_ns = v->calib_ns = v->calib_over_observed = NAN;
	v->dstar_bytes = v->dstar_lo_bytes = v->dstar_hi_bytes = NAN;
	v->fit_rate_mbps = v->fit_rate_lo_mbps = v->fit_rate_hi_mbps = NAN;
	v->decay_kind = VERDICT_UNDETERMINED;
	v->decay_factor = v->decay_factor_lo = v->decay_factor_hi = NAN;
	v->tstar_state = CORR_HOT_NO_DATA;
	v->tstar_ns = v->tstar_lo_ns = v->tstar_hi_ns = NAN;
	v->wait_at_kernel_ns = v->refill_at_kernel_ns = NAN;
	regime_none(&v->model);
}

/* The displaced axis: the rate K fits, and each rate of the grid at its hot time. */
static void by_rate(const struct corr_result *r, double K, struct verdict *v)
{
	const struct corr_fall *d = &r->dstar;

	if (d->state == CORR_HOT_NO_DATA)
		return;
	v->dstar_bytes = d->at;
	v->dstar_lo_bytes = d->lo;
	v->dstar_hi_bytes = d->hi;
	v->factor_is_bound = d->state != CORR_HOT_FOUND;
	if (K > 0) {
		/* bytes / ns = GB/s; MB/s = bytes / ns x 1e3 */
		v->fit_rate_mbps = d->at / K * 1e3;
		v->fit_rate_lo_mbps = d->lo / K * 1e3;
		v->fit_rate_hi_mbps = d->hi / K * 1e3;
	}
	v->kind = d->lo > 0 && isfinite(d->hi) ? VERDICT_BY_RATE : VERDICT_UNDETERMINED;
	for (int k = 0; k < r->nrates; k++) {
		const struct corr_rate *rt = &r->rates[k];
		struct verdict_rate *vr = &v->rates[v->nrates++];
		double ach = rt->achieved_mbps / 1e3;	/* bytes per ns */

		vr->rate_mbps = rt->rate_mbps;
		vr->achieved_mbps = rt->achieved_mbps;
		if (!(ach > 0)) {
			/* the co-runner streamed nothing (starved on a loaded machine): no rate
			 * to turn D* into a time, and an inf or NaN would not survive the file */
			vr->hot_ns = vr->hot_lo_ns = vr->hot_hi_ns = NAN;
			vr->kind = VERDICT_UNDETERMINED;
			continue;
		}
		vr->hot_ns = d->at / ach;
		vr->hot_lo_ns = d->lo / ach;
		vr->hot_hi_ns = d->hi / ach;
		vr->kind = judge(K, vr->hot_ns, vr->hot_lo_ns, vr->hot_hi_ns, &vr->factor,
				 &vr->factor_lo, &vr->factor_hi);
	}
}

/*
 * The time-driven model: K against the rates' hot time by age, pooled (regime.c), as the age
 * axis judges its hot time.  When no rate's interval is closed there is no pool: the ages
 * every interval shares are the bound, and the verdict undetermined.
 */
static void by_time(const struct verdict_in *in, struct verdict *v)
{
	const struct verdict_model *m = &v->model;
	double K = in->kernel_ns;

	if (m->pooled_rates) {
		v->hot_ns = m->pooled_hot_ns;
		v->hot_lo_ns = m->pooled_hot_lo_ns;
		v->hot_hi_ns = m->pooled_hot_hi_ns;
	} else {
		v->hot_lo_ns = m->hot.common_lo;
		v->hot_hi_ns = m->hot.common_hi;
		v->hot_ns = fmin(fmax(sqrt(m->hot.min * m->hot.max), v->hot_lo_ns), v->hot_hi_ns);
	}
	v->factor_is_bound = !m->pooled_rates;
	v->kind = judge(K, v->hot_ns, v->hot_lo_ns, v->hot_hi_ns, &v->factor, &v->factor_lo,
			&v->factor_hi);
	if (in->has_calib && m->pooled_rates)
		v->calib_over_observed = in->calib_ns / v->hot_ns;
}

/* A grid of two rates or more: the model they support, and the verdict in its terms. */
static void by_model(const struct verdict_in *in, struct verdict *v)
{
	const struct corr_result *r = in->corr;
	struct verdict t;

	regime_decide(r->rates, r->nrates, corr_level(r), &v->model);
	switch (v->model.regime) {
	case MODEL_TIME:
		by_time(in, v);
		break;
	case MODEL_BOTH:
		/* the rates measured do not tell the models apart: the pooled hot time by age is
		 * what the grid's co-runners did, and leads, the by-rate figures beside it; unless
		 * it is undetermined where D* / K is not */
		t = *v;
		by_time(in, &t);
		if (t.kind != VERDICT_UNDETERMINED || v->kind != VERDICT_BY_RATE)
			*v = t;
		break;
	case MODEL_MIXED:
		/* the rates agree on neither: the pooled D* is no figure of the machine, and a rate
		 * it fits would mean nothing */
		v->kind = VERDICT_UNDETERMINED;
		break;
	default:
		break;		/* bytes-driven, or too few rates to test: by rate */
	}
}

void verdict_decide(const struct verdict_in *in, struct verdict *v)
{
	const struct corr_result *r = in->corr;
	double K = in->kernel_ns;

	verdict_none(v, K);
	v->kind = VERDICT_UNDETERMINED;
	v->has_calib = in->has_calib;
	v->calib_ns = in->has_calib ? in->calib_ns : NAN;
	v->cold_fraction = r->cold_fraction;
	v->unit_ns = r->baseline_ns;
	v->max_cost_ns = r->max_cost_ns;
	if (!r->ncells)
		return;
	if (r->axis == CORR_AXIS_DISPLACED) {
		by_rate(r, K, v);
		if (r->nrates > 1)
			by_model(in, v);
		return;
	}
	/* the co-runners' decay, from the same-CPU wakes alone: a hot time migrations or not */
	if (r->stay_decay.state != CORR_HOT_NO_DATA)
		v->decay_kind = judge(K, r->stay_decay.at, r->stay_decay.lo, r->stay_decay.hi,
				      &v->decay_factor, &v->decay_factor_lo, &v->decay_factor_hi);
	/* natural runs judge the kernel's pulls, probed runs the moves made (run
	 * --probe-moves): as many of either as a verdict needs; a probed run's arms were drawn
	 * by a coin, so its cost has no selection to be biased by */
	if (r->mode == CORR_NATURAL || r->mode == CORR_PROBED) {
		v->min_judged = VERDICT_MIN_PULLS;
		for (int c = 0; c < r->ncells; c++)
			if (r->cells[c].n_stay)
				v->judged += r->cells[c].n_mig;
		v->bias = r->mode == CORR_NATURAL && r->bias_cells > 0;
		if (v->judged < v->min_judged || v->bias)
			return;		/* undetermined: the text says which */
	}
	if (r->hot_state == CORR_HOT_NO_DATA)
		return;
	v->hot_ns = r->hot_ns;
	v->hot_lo_ns = r->hot_lo_ns;
	v->hot_hi_ns = r->hot_hi_ns;
	v->factor_is_bound = r->hot_state != CORR_HOT_FOUND;
	v->kind = judge(K, v->hot_ns, v->hot_lo_ns, v->hot_hi_ns, &v->factor, &v->factor_lo,
			&v->factor_hi);
	if (v->kind == VERDICT_TOO_LOW || (v->kind == VERDICT_TOO_HIGH && K >= 0)) {
		v->band_lo_ns = v->kind == VERDICT_TOO_LOW ? K : v->hot_ns;
		v->band_hi_ns = v->kind == VERDICT_TOO_LOW ? v->hot_ns : K;
	} else if (v->kind == VERDICT_TOO_HIGH) {
		v->band_lo_ns = v->hot_ns;
		v->band_hi_ns = INFINITY;
	}
	if (v->kind == VERDICT_TOO_LOW || v->kind == VERDICT_TOO_HIGH) {
		v->band_cells = band_cost(in, v, &v->band_cost_ns);
		v->band_cost_share = v->band_cost_ns / v->unit_ns;
		v->has_run_share = in->nmigs > 0;
		v->run_migrations = in->nmigs;
		v->band_migrations = band_migrations(in, v->band_lo_ns, v->band_hi_ns);
	}
	if (in->has_calib && r->hot_state == CORR_HOT_FOUND)
		v->calib_over_observed = in->calib_ns / r->hot_ns;
}

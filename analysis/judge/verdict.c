// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's value K against the observed hot time H and its 95 % interval [lo, hi]:
 * K < lo is too low (tasks between K and H are moved as cold and pay a refill), K > hi too
 * high (tasks between H and K are kept as hot although moving them is cheap), else about
 * right.  When H lies outside the measured ages the factor is a bound and says so.  Which
 * ages a threshold calls hot is task_hot()'s rule, MT_TASK_HOT in bpf/migtrace.h.
 */
#include <math.h>
#include <string.h>

#include "verdict.h"

/* An age (ns) the threshold lo calls cold and hi calls hot: it lies in [lo, hi). */
static bool in_band(double age, double lo, double hi)
{
	return !MT_TASK_HOT(age, lo) && MT_TASK_HOT(age, hi);
}

/* The cells in the band: how many, their mean cost and their largest. */
static int band_cells(const struct corr_result *r, double lo, double hi, double *mean,
		      double *max)
{
	double sum = 0;
	int k = 0;

	*max = -INFINITY;
	for (int c = 0; c < r->ncells; c++) {
		if (!in_band(corr_cell_age(r, c), lo, hi))
			continue;
		sum += r->cells[c].cost_ns;
		*max = fmax(*max, r->cells[c].cost_ns);
		k++;
	}
	*mean = k ? sum / k : NAN;
	return k;
}

static uint64_t band_migrations(const struct verdict_in *in, double lo, double hi)
{
	uint64_t k = 0;

	for (size_t i = 0; i < in->nmigs; i++)
		k += in_band((double)in->migs[i].age_ns, lo, hi);
	return k;
}

void verdict_none(struct verdict *v, double kernel_ns)
{
	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_NONE;
	v->kernel_ns = kernel_ns;
	v->hot_ns = v->hot_lo_ns = v->hot_hi_ns = v->factor = NAN;
	v->band_lo_ns = v->band_hi_ns = v->band_cost_ns = v->band_cost_share = NAN;
	v->unit_ns = v->max_cost_ns = v->calib_ns = v->calib_over_observed = NAN;
}

void verdict_decide(const struct verdict_in *in, struct verdict *v)
{
	const struct corr_result *r = in->corr;
	double K = in->kernel_ns, mean, max;

	verdict_none(v, K);
	v->kind = VERDICT_UNDETERMINED;
	v->has_calib = in->has_calib;
	v->calib_ns = in->has_calib ? in->calib_ns : NAN;
	v->cold_fraction = r->cold_fraction;
	v->unit_ns = r->baseline_ns;
	v->max_cost_ns = r->max_cost_ns;
	if (r->hot_state == CORR_HOT_NO_DATA || !r->ncells)
		return;
	v->hot_ns = r->hot_ns;
	v->hot_lo_ns = r->hot_lo_ns;
	v->hot_hi_ns = r->hot_hi_ns;
	if (r->hot_state == CORR_HOT_NO_COST) {
		v->hot_ns = corr_cell_age(r, 0);
		v->hot_lo_ns = 0;
		v->hot_hi_ns = v->hot_ns;
		v->factor_is_bound = true;
	} else if (r->hot_state == CORR_HOT_ABOVE) {
		v->hot_ns = corr_cell_age(r, r->ncells - 1);
		v->hot_lo_ns = v->hot_ns;
		v->hot_hi_ns = INFINITY;
		v->factor_is_bound = true;
	}
	if (K < 0) {
		/* -1: every task is hot, whatever its age; no finite factor says how far off */
		v->kind = VERDICT_TOO_HIGH;
		v->band_lo_ns = v->hot_ns;
		v->band_hi_ns = INFINITY;
	} else if (K < v->hot_lo_ns) {
		v->kind = VERDICT_TOO_LOW;
		v->factor = K > 0 ? v->hot_ns / K : NAN;	/* 0: no task is ever hot */
		v->band_lo_ns = K;
		v->band_hi_ns = v->hot_ns;
	} else if (K > v->hot_hi_ns) {
		v->kind = VERDICT_TOO_HIGH;
		v->factor = K / v->hot_ns;
		v->band_lo_ns = v->hot_ns;
		v->band_hi_ns = K;
	} else {
		v->kind = VERDICT_ABOUT_RIGHT;
		v->factor = K > v->hot_ns ? K / v->hot_ns : v->hot_ns / K;
	}
	if (v->kind != VERDICT_ABOUT_RIGHT) {
		v->band_cells = band_cells(r, v->band_lo_ns, v->band_hi_ns, &mean, &max);
		/* too low: what moving those tasks costs on average; too high: at most */
		v->band_cost_ns = v->kind == VERDICT_TOO_LOW ? mean : fmax(max, 0);
		v->band_cost_share = v->band_cost_ns / v->unit_ns;
		v->has_run_share = in->nmigs > 0;
		v->run_migrations = in->nmigs;
		v->band_migrations = band_migrations(in, v->band_lo_ns, v->band_hi_ns);
	}
	if (in->has_calib && r->hot_state == CORR_HOT_FOUND)
		v->calib_over_observed = in->calib_ns / r->hot_ns;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Refill penalty = a unit's duration - its thread's warm baseline (median of the thread's
 * back-to-back units, no switch before or inside).  A unit right after a migration belongs
 * to the "migrated" arm at the migration's age; a unit after a same-CPU wake to the "stayed"
 * arm at the length of that off-CPU period.  Units with a switch or a migration inside are
 * left out (counted).  Per cell, a 10 %-trimmed mean and bootstrap intervals: the mean is
 * what a workload pays on average, and on a shared VM the penalty is often a mixture (some
 * refills from the L3, some from farther away) where a median flips between modes; the
 * trimming drops the rare extreme outliers (host preemption) that a plain mean would follow.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cachewalk.h"
#include "correlate.h"
#include "stats.h"

void corr_default_opts(struct corr_opts *o, enum corr_mode mode)
{
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->cold_fraction = 0.10;
	o->bootstrap = 200;
	o->seed = 0x853c49e6748fea9bULL;
}

/* The 1-2-5 series from 10 µs to 100 ms: bucket edges for natural runs. */
static const uint64_t default_edges_ns[] = {
	0, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000, 10000000,
	20000000, 50000000, 100000000,
};

struct sample {
	double penalty_ns;
	double age_ns;
	double slice_ns;	/* the run slice the unit starts, as far as units show it */
	int cell;
	bool mig;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int cmp_unit(const void *a, const void *b)
{
	const struct mt_unit *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static bool warm_unit(const struct mt_unit *u, enum corr_mode mode)
{
	if (u->switches_before || u->migs_before || u->switches_during || u->migs_during)
		return false;
	if (u->prev_end_ns == 0)
		return false;	/* the thread's first unit: cold pages, not a baseline */
	return mode == CORR_NATURAL || u->tag == CW_TAG_BASELINE;
}

enum corr_hot_state corr_hot_time(const double *age, const double *cost, const bool *sig,
				  int n, double frac, double *hot)
{
	double max = -INFINITY, thr;
	int imax = -1, last = -1;

	/*
	 * Only cells whose cost is significantly above 0 (sig; all when NULL) may set the
	 * maximum or count as costly: a noisy cell neither sets nor extends the hot time.
	 */
	if (n <= 0)
		return CORR_HOT_NO_DATA;
	for (int i = 0; i < n; i++)
		if ((!sig || sig[i]) && cost[i] > max) {
			max = cost[i];
			imax = i;
		}
	if (imax < 0 || max <= 0) {
		*hot = age[0];
		return CORR_HOT_NO_COST;
	}
	thr = frac * max;
	for (int i = 0; i < n; i++)
		if ((!sig || sig[i]) && cost[i] >= thr)
			last = i;
	if (last == n - 1) {
		*hot = age[n - 1];
		return CORR_HOT_ABOVE;
	}
	/* Between the last costly age and the next: interpolate on log(age). */
	{
		double f = cost[last] > cost[last + 1] ?
			   (cost[last] - thr) / (cost[last] - cost[last + 1]) : 1;
		double la = log(age[last]), lb = log(age[last + 1]);

		if (f < 0)
			f = 0;
		if (f > 1)
			f = 1;
		*hot = exp(la + f * (lb - la));
	}
	return CORR_HOT_FOUND;
}

#define CORR_TRIM 0.10

static double median_of(const double *v, size_t n, double *scratch)
{
	if (!n)
		return NAN;
	memcpy(scratch, v, n * sizeof(*v));
	return median_inplace(scratch, n);
}

/* The cell estimator: a trimmed mean of the penalties. */
static double estimate_of(const double *v, size_t n, double *scratch)
{
	if (!n)
		return NAN;
	memcpy(scratch, v, n * sizeof(*v));
	return trimmed_mean_inplace(scratch, n, CORR_TRIM);
}

/* The estimator on a bootstrap resample of v[0..n). */
static double resampled_estimate(const double *v, size_t n, double *scratch, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[rnd(seed) % n];
	return trimmed_mean_inplace(scratch, n, CORR_TRIM);
}

/* The age a cell stands for: the one aimed at, or the median measured in the bucket. */
static double cell_age(const struct corr_cell *c, enum corr_mode mode)
{
	return mode == CORR_CONTROLLED ? c->age_ns : c->age_median_ns;
}

static int find_cell(const struct corr_opts *o, struct corr_result *r, const struct mt_unit *u,
		     double age)
{
	if (o->mode == CORR_CONTROLLED) {
		for (int c = 0; c < r->ncells; c++)
			if (r->cells[c].age_ns == (double)u->nominal_age_ns)
				return c;
		if (r->ncells >= CORR_MAX_CELLS)
			return -1;
		r->cells[r->ncells].age_ns = (double)u->nominal_age_ns;
		return r->ncells++;
	}
	for (int c = 0; c < r->ncells; c++)
		if (age >= r->cells[c].age_ns && age < r->cells[c].age_hi_ns)
			return c;
	return -1;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct corr_cell *x = a, *y = b;

	return x->age_ns < y->age_ns ? -1 : x->age_ns > y->age_ns;
}

int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r)
{
	struct mt_unit *u = NULL;
	struct sample *smp = NULL;
	double *base = NULL, *thread_base = NULL, *scratch = NULL, *v = NULL, *tmp = NULL;
	double *boot_hot = NULL;
	size_t ns = 0, nthreads = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->mode = o->mode;
	r->n_units = n;
	r->hot_state = CORR_HOT_NO_DATA;
	if (!n)
		return 0;
	u = malloc(n * sizeof(*u));
	smp = calloc(n, sizeof(*smp));
	base = malloc(n * sizeof(*base));
	thread_base = malloc(n * sizeof(*thread_base));
	scratch = malloc(n * sizeof(*scratch));
	v = malloc(n * sizeof(*v));
	/* tmp holds per-cell samples (<= n) and per-cell bootstrap costs (B) */
	tmp = malloc((n > (size_t)o->bootstrap ? n : (size_t)o->bootstrap + 1) * sizeof(*tmp));
	boot_hot = malloc((o->bootstrap + 1) * sizeof(*boot_hot));
	if (!u || !smp || !base || !thread_base || !scratch || !v || !tmp || !boot_hot) {
		err = -ENOMEM;
		goto cleanup;
	}
	memcpy(u, units, n * sizeof(*u));
	/* Records of different CPUs interleave in the ring buffer: order per thread. */
	qsort(u, n, sizeof(*u), cmp_unit);

	if (o->mode == CORR_NATURAL) {
		const uint64_t *e = o->edges_ns ? o->edges_ns : default_edges_ns;
		int ne = o->edges_ns ? o->nedges :
			 (int)(sizeof(default_edges_ns) / sizeof(default_edges_ns[0]));

		for (int i = 0; i + 1 < ne && r->ncells < CORR_MAX_CELLS; i++) {
			r->cells[r->ncells].age_ns = (double)e[i];
			r->cells[r->ncells].age_hi_ns = (double)e[i + 1];
			r->ncells++;
		}
	}

	/* Per thread: the warm baseline, then the penalties of its event units. */
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		size_t nb = 0;
		double b;

		for (hi = lo; hi < n && u[hi].pid == u[lo].pid; hi++)
			if (warm_unit(&u[hi], o->mode))
				base[nb++] = (double)(u[hi].end_ns - u[hi].start_ns);
		r->n_baseline += nb;
		if (!nb)
			continue;	/* no warm unit: nothing to compare this thread with */
		b = median_inplace(base, nb);
		thread_base[nthreads++] = b;
		for (size_t i = lo; i < hi; i++) {
			const struct mt_unit *x = &u[i];
			bool mig = x->migs_before > 0;
			double age;
			int cell;

			if (o->mode == CORR_CONTROLLED) {
				if (x->tag != CW_TAG_MIGRATED && x->tag != CW_TAG_STAYED)
					continue;
				if (x->tag == CW_TAG_MIGRATED && !mig) {
					r->n_unseen++;
					continue;
				}
				if (x->tag == CW_TAG_STAYED && mig)
					continue;	/* the scheduler moved it anyway */
			} else if (!mig && !x->switches_before) {
				continue;		/* a warm unit */
			}
			if (x->switches_during || x->migs_during) {
				r->n_spanning++;
				continue;
			}
			if (!x->switches_before && !mig)
				continue;
			age = mig ? (double)x->mig_age_ns : (double)x->last_off_ns;
			cell = find_cell(o, r, x, age);
			if (cell < 0)
				continue;
			smp[ns].penalty_ns = (double)(x->end_ns - x->start_ns) - b;
			smp[ns].age_ns = age;
			smp[ns].cell = cell;
			smp[ns].mig = mig;
			/* The run slice it starts: back-to-back units after it, no switch. */
			smp[ns].slice_ns = (double)(x->end_ns - x->start_ns);
			for (size_t k = i + 1; k < hi && !u[k].switches_before && !u[k].migs_before &&
			     !u[k].switches_during; k++)
				smp[ns].slice_ns = (double)(u[k].end_ns - x->start_ns);
			if (mig)
				r->n_mig_events++;
			else
				r->n_stay_events++;
			ns++;
		}
	}
	r->n_threads = nthreads;
	r->baseline_ns = nthreads ? median_of(thread_base, nthreads, scratch) : NAN;

	/* Controlled cells were created in arrival order: sort by age, remap samples. */
	if (o->mode == CORR_CONTROLLED && r->ncells > 1) {
		double ages[CORR_MAX_CELLS];

		for (int c = 0; c < r->ncells; c++)
			ages[c] = r->cells[c].age_ns;
		qsort(r->cells, r->ncells, sizeof(r->cells[0]), cmp_cell);
		for (size_t i = 0; i < ns; i++)
			for (int c = 0; c < r->ncells; c++)
				if (r->cells[c].age_ns == ages[smp[i].cell]) {
					smp[i].cell = c;
					break;
				}
	}

	/* Point estimates per cell. */
	for (int c = 0; c < r->ncells; c++) {
		struct corr_cell *cl = &r->cells[c];
		size_t nm = 0, nst = 0, na = 0;

		for (size_t i = 0; i < ns; i++) {
			if (smp[i].cell != c)
				continue;
			tmp[na++] = smp[i].age_ns;
			if (smp[i].mig)
				v[nm++] = smp[i].penalty_ns;
		}
		cl->n_mig = nm;
		cl->age_median_ns = na ? median_inplace(tmp, na) : cl->age_ns;
		cl->pen_mig_ns = estimate_of(v, nm, scratch);
		for (size_t i = 0; i < ns; i++)
			if (smp[i].cell == c && !smp[i].mig)
				v[nst++] = smp[i].penalty_ns;
		cl->n_stay = nst;
		cl->pen_stay_ns = estimate_of(v, nst, scratch);
		cl->cost_ns = nm && nst ? cl->pen_mig_ns - cl->pen_stay_ns : NAN;
		cl->unit_ns = r->baseline_ns;
	}

	/* Drop cells without both arms: they say nothing about the difference. */
	{
		int k = 0, map[CORR_MAX_CELLS];

		for (int c = 0; c < r->ncells; c++) {
			map[c] = -1;
			if (r->cells[c].n_mig && r->cells[c].n_stay) {
				map[c] = k;
				r->cells[k++] = r->cells[c];
			}
		}
		for (size_t i = 0; i < ns; i++)
			smp[i].cell = map[smp[i].cell];
		r->ncells = k;
	}
	if (!r->ncells)
		goto cleanup;

	/*
	 * Bootstrap: resample each arm of each cell; the 95 % interval of each cell's cost, and
	 * of the hot time computed on each resampled curve with the same significant cells.
	 */
	{
		int nc = r->ncells, B = o->bootstrap > 0 ? o->bootstrap : 1, nboot = 0;
		double *costs = malloc((size_t)B * nc * sizeof(double));
		double age[CORR_MAX_CELLS], cost[CORR_MAX_CELLS];
		bool sig[CORR_MAX_CELLS];
		uint64_t seed = o->seed ? o->seed : 1;

		if (!costs) {
			err = -ENOMEM;
			goto cleanup;
		}
		for (int b = 0; b < B; b++) {
			for (int c = 0; c < nc; c++) {
				size_t nm = 0, nst = 0;
				double pm, pst;

				for (size_t i = 0; i < ns; i++)
					if (smp[i].cell == c && smp[i].mig)
						v[nm++] = smp[i].penalty_ns;
				pm = resampled_estimate(v, nm, scratch, &seed);
				for (size_t i = 0; i < ns; i++)
					if (smp[i].cell == c && !smp[i].mig)
						v[nst++] = smp[i].penalty_ns;
				pst = resampled_estimate(v, nst, scratch, &seed);
				costs[(size_t)b * nc + c] = pm - pst;
			}
		}
		for (int c = 0; c < nc; c++) {
			for (int b = 0; b < B; b++)
				tmp[b] = costs[(size_t)b * nc + c];
			r->cells[c].cost_lo_ns = quantile_sorted_inplace(tmp, B, 0.025);
			r->cells[c].cost_hi_ns = quantile_sorted_inplace(tmp, B, 0.975);
			age[c] = cell_age(&r->cells[c], o->mode);
			cost[c] = r->cells[c].cost_ns;
			sig[c] = r->cells[c].cost_lo_ns > 0;
		}
		r->hot_state = corr_hot_time(age, cost, sig, nc, o->cold_fraction, &r->hot_ns);
		for (int b = 0; b < B; b++) {
			double h;
			enum corr_hot_state st = corr_hot_time(age, &costs[(size_t)b * nc], sig, nc,
							       o->cold_fraction, &h);

			/* Out-of-range outcomes sit at the range's ends, one step out. */
			if (st == CORR_HOT_ABOVE)
				h = age[nc - 1] * 2;
			else if (st == CORR_HOT_NO_COST)
				h = age[0] / 2;
			boot_hot[nboot++] = h;
		}
		free(costs);
		r->hot_lo_ns = quantile_sorted_inplace(boot_hot, nboot, 0.025);
		r->hot_hi_ns = quantile_sorted_inplace(boot_hot, nboot, 0.975);
		/* The interval is about the estimate: it always contains it. */
		if (r->hot_state == CORR_HOT_FOUND) {
			r->hot_lo_ns = fmin(r->hot_lo_ns, r->hot_ns);
			r->hot_hi_ns = fmax(r->hot_hi_ns, r->hot_ns);
		}
		/* The maximum the hot time is measured against: significant cells first. */
		r->max_cost_ns = -INFINITY;
		for (int pass = 0; pass < 2 && !isfinite(r->max_cost_ns); pass++)
			for (int c = 0; c < nc; c++)
				if ((pass || sig[c]) && cost[c] > r->max_cost_ns) {
					r->max_cost_ns = cost[c];
					r->max_cell = c;
				}
	}

	/* What migrations cost this run, and against the slice that followed them. */
	{
		size_t k = 0;

		for (size_t i = 0; i < ns; i++) {
			const struct corr_cell *cl;

			if (!smp[i].mig || smp[i].cell < 0)
				continue;
			cl = &r->cells[smp[i].cell];
			r->lost_ns += cl->cost_ns > 0 ? cl->cost_ns : 0;
			if (smp[i].slice_ns > 0)
				tmp[k++] = smp[i].penalty_ns / smp[i].slice_ns;
		}
		r->cost_frac_slice = k ? median_inplace(tmp, k) : NAN;
	}
cleanup:
	free(u);
	free(smp);
	free(base);
	free(thread_base);
	free(scratch);
	free(v);
	free(tmp);
	free(boot_hot);
	return err;
}

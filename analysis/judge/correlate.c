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
 *
 * correlate_units() runs the stages in order over one work context: order the units per
 * thread, lay out the cells, collect the samples, estimate each cell, drop the one-armed
 * cells, bootstrap the intervals and the hot time, sum what the run's migrations cost.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "stats.h"
#include "unit.h"

void corr_default_opts(struct corr_opts *o, enum corr_mode mode)
{
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->cold_fraction = CORR_COLD_FRACTION;
	o->bootstrap = 200;
	o->seed = 0x853c49e6748fea9bULL;
}

/* The 1-2-5 series from 10 µs to 100 ms: bucket edges for natural runs. */
static const uint64_t default_edges_ns[] = {
	0, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000, 10000000,
	20000000, 50000000, 100000000,
};

/* One unit joined to the event before it. */
struct sample {
	double penalty_ns;
	double age_ns;
	double slice_ns;	/* the run slice the unit starts, as far as units show it */
	int cell;		/* -1 once its cell is dropped */
	bool mig;		/* after a migration (else after a same-CPU wake) */
};

/* What the stages share: the units in thread order, the samples, scratch space. */
struct corr_work {
	const struct corr_opts *o;
	struct corr_result *r;
	struct mt_unit *u;	/* n units, sorted by thread, then time */
	size_t n;
	struct sample *smp;	/* ns samples */
	size_t ns;
	double *thread_base;	/* nthreads warm baselines, ns */
	size_t nthreads;
	double *base;		/* n: one thread's warm units */
	double *scratch;	/* n: for estimators that sort */
	double *v;		/* n: one arm's penalties */
	double *tmp;		/* max(n, B + 1): per-cell ages, per-cell bootstrap costs */
	double *costs;		/* B x ncells bootstrap costs */
	double *boot_hot;	/* B + 1 bootstrap hot times */
	int B;			/* bootstrap resamples */
	bool sig[CORR_MAX_CELLS];	/* the cell's cost interval lies above 0 */
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

static int cmp_cell(const void *a, const void *b)
{
	const struct corr_cell *x = a, *y = b;

	return x->age_ns < y->age_ns ? -1 : x->age_ns > y->age_ns;
}

static bool warm_unit(const struct mt_unit *u, enum corr_mode mode)
{
	return unit_warm(u) && (mode == CORR_NATURAL || u->tag == CW_TAG_BASELINE);
}

enum corr_hot_state corr_hot_time(const double *age, const double *cost, const bool *sig,
				  int n, double frac, double *hot)
{
	double max = -INFINITY, thr, f, la, lb;
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
	f = cost[last] > cost[last + 1] ? (cost[last] - thr) / (cost[last] - cost[last + 1]) : 1;
	f = fmin(fmax(f, 0), 1);
	la = log(age[last]);
	lb = log(age[last + 1]);
	*hot = exp(la + f * (lb - la));
	return CORR_HOT_FOUND;
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

/* One arm of one cell: its penalties into w->v.  Returns how many. */
static size_t arm_penalties(struct corr_work *w, int cell, bool mig)
{
	size_t k = 0;

	for (size_t i = 0; i < w->ns; i++)
		if (w->smp[i].cell == cell && w->smp[i].mig == mig)
			w->v[k++] = w->smp[i].penalty_ns;
	return k;
}

static int work_alloc(struct corr_work *w, const struct mt_unit *units, size_t n)
{
	size_t nb = (size_t)w->B + 1;

	w->n = n;
	w->u = malloc(n * sizeof(*w->u));
	w->smp = calloc(n, sizeof(*w->smp));
	w->base = malloc(n * sizeof(double));
	w->thread_base = malloc(n * sizeof(double));
	w->scratch = malloc(n * sizeof(double));
	w->v = malloc(n * sizeof(double));
	w->tmp = malloc((n > nb ? n : nb) * sizeof(double));
	w->boot_hot = malloc(nb * sizeof(double));
	if (!w->u || !w->smp || !w->base || !w->thread_base || !w->scratch || !w->v || !w->tmp ||
	    !w->boot_hot)
		return -ENOMEM;
	memcpy(w->u, units, n * sizeof(*w->u));
	/* Records of different CPUs interleave in the ring buffer: order per thread. */
	qsort(w->u, n, sizeof(*w->u), cmp_unit);
	return 0;
}

static void work_free(struct corr_work *w)
{
	free(w->u);
	free(w->smp);
	free(w->base);
	free(w->thread_base);
	free(w->scratch);
	free(w->v);
	free(w->tmp);
	free(w->costs);
	free(w->boot_hot);
}

/* Natural runs: one cell per bucket of measured age.  (Controlled cells appear as met.) */
static void natural_cells(struct corr_work *w)
{
	const uint64_t *e = w->o->edges_ns ? w->o->edges_ns : default_edges_ns;
	int ne = w->o->edges_ns ? w->o->nedges :
		 (int)(sizeof(default_edges_ns) / sizeof(default_edges_ns[0]));
	struct corr_result *r = w->r;

	for (int i = 0; i + 1 < ne && r->ncells < CORR_MAX_CELLS; i++) {
		r->cells[r->ncells].age_ns = (double)e[i];
		r->cells[r->ncells].age_hi_ns = (double)e[i + 1];
		r->ncells++;
	}
}

static int find_cell(struct corr_work *w, const struct mt_unit *u, double age)
{
	struct corr_result *r = w->r;

	if (w->o->mode == CORR_CONTROLLED) {
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

/*
 * Whether unit x of a thread is the first unit after an event the correlation measures:
 * a migration, or (as the control) a switch-out that left it on the same CPU.
 */
static bool event_unit(struct corr_work *w, const struct mt_unit *x)
{
	bool mig = unit_migrated(x);

	if (w->o->mode == CORR_CONTROLLED) {
		if (x->tag != CW_TAG_MIGRATED && x->tag != CW_TAG_STAYED)
			return false;
		if (x->tag == CW_TAG_MIGRATED && !mig) {
			w->r->n_unseen++;
			return false;
		}
		if (x->tag == CW_TAG_STAYED && mig)
			return false;	/* the scheduler moved it anyway */
	} else if (unit_clean_before(x)) {
		return false;		/* a warm unit */
	}
	if (!unit_clean_inside(x)) {
		w->r->n_spanning++;
		return false;
	}
	return !unit_clean_before(x);
}

/* The run slice unit i starts: it and the back-to-back units after it, up to thread end hi. */
static double slice_from(const struct corr_work *w, size_t i, size_t hi)
{
	const struct mt_unit *x = &w->u[i];
	double slice = (double)(x->end_ns - x->start_ns);

	for (size_t k = i + 1; k < hi && unit_clean_before(&w->u[k]) && unit_clean_inside(&w->u[k]);
	     k++)
		slice = (double)(w->u[k].end_ns - x->start_ns);
	return slice;
}

/* One thread, units [lo, hi): its warm baseline, then a sample per event unit. */
static void thread_samples(struct corr_work *w, size_t lo, size_t hi)
{
	size_t nb = 0;
	double b;

	for (size_t i = lo; i < hi; i++)
		if (warm_unit(&w->u[i], w->o->mode))
			w->base[nb++] = (double)(w->u[i].end_ns - w->u[i].start_ns);
	w->r->n_baseline += nb;
	if (!nb)
		return;		/* no warm unit: nothing to compare this thread with */
	b = median_inplace(w->base, nb);
	w->thread_base[w->nthreads++] = b;
	for (size_t i = lo; i < hi; i++) {
		const struct mt_unit *x = &w->u[i];
		bool mig = unit_migrated(x);
		double age = mig ? (double)x->mig_age_ns : (double)x->last_off_ns;
		struct sample *s = &w->smp[w->ns];
		int cell;

		if (!event_unit(w, x) || (cell = find_cell(w, x, age)) < 0)
			continue;
		s->penalty_ns = (double)(x->end_ns - x->start_ns) - b;
		s->age_ns = age;
		s->cell = cell;
		s->mig = mig;
		s->slice_ns = slice_from(w, i, hi);
		if (mig)
			w->r->n_mig_events++;
		else
			w->r->n_stay_events++;
		w->ns++;
	}
}

static void collect_samples(struct corr_work *w)
{
	for (size_t lo = 0, hi; lo < w->n; lo = hi) {
		for (hi = lo; hi < w->n && w->u[hi].pid == w->u[lo].pid; hi++)
			;
		thread_samples(w, lo, hi);
	}
	w->r->n_threads = w->nthreads;
	if (w->nthreads) {
		memcpy(w->scratch, w->thread_base, w->nthreads * sizeof(double));
		w->r->baseline_ns = median_inplace(w->scratch, w->nthreads);
	} else {
		w->r->baseline_ns = NAN;
	}
}

/* Controlled cells were created in arrival order: sort by age, remap the samples. */
static void sort_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;
	double ages[CORR_MAX_CELLS];

	if (w->o->mode != CORR_CONTROLLED || r->ncells < 2)
		return;
	for (int c = 0; c < r->ncells; c++)
		ages[c] = r->cells[c].age_ns;
	qsort(r->cells, (size_t)r->ncells, sizeof(r->cells[0]), cmp_cell);
	for (size_t i = 0; i < w->ns; i++)
		for (int c = 0; c < r->ncells; c++)
			if (r->cells[c].age_ns == ages[w->smp[i].cell]) {
				w->smp[i].cell = c;
				break;
			}
}

/* Point estimates per cell: each arm's trimmed mean, and their difference. */
static void estimate_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;

	for (int c = 0; c < r->ncells; c++) {
		struct corr_cell *cl = &r->cells[c];
		size_t na = 0;

		for (size_t i = 0; i < w->ns; i++)
			if (w->smp[i].cell == c)
				w->tmp[na++] = w->smp[i].age_ns;
		cl->age_median_ns = na ? median_inplace(w->tmp, na) : cl->age_ns;
		cl->n_mig = arm_penalties(w, c, true);
		cl->pen_mig_ns = estimate_of(w->v, cl->n_mig, w->scratch);
		cl->n_stay = arm_penalties(w, c, false);
		cl->pen_stay_ns = estimate_of(w->v, cl->n_stay, w->scratch);
		cl->cost_ns = cl->n_mig && cl->n_stay ? cl->pen_mig_ns - cl->pen_stay_ns : NAN;
		cl->unit_ns = r->baseline_ns;
	}
}

/* Cells without both arms say nothing about the difference: dropped, samples remapped. */
static void drop_one_armed_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;
	int k = 0, map[CORR_MAX_CELLS];

	for (int c = 0; c < r->ncells; c++) {
		map[c] = -1;
		if (r->cells[c].n_mig && r->cells[c].n_stay) {
			map[c] = k;
			r->cells[k++] = r->cells[c];
		}
	}
	for (size_t i = 0; i < w->ns; i++)
		w->smp[i].cell = map[w->smp[i].cell];
	r->ncells = k;
}

/* B resamples of each arm of each cell: costs[b * ncells + c]. */
static int bootstrap_costs(struct corr_work *w)
{
	int nc = w->r->ncells;
	uint64_t seed = w->o->seed ? w->o->seed : 1;

	w->costs = malloc((size_t)w->B * (size_t)nc * sizeof(double));
	if (!w->costs)
		return -ENOMEM;
	for (int b = 0; b < w->B; b++) {
		for (int c = 0; c < nc; c++) {
			size_t nm = arm_penalties(w, c, true);
			double pm = resampled_estimate(w->v, nm, w->scratch, &seed);
			size_t nst = arm_penalties(w, c, false);
			double pst = resampled_estimate(w->v, nst, w->scratch, &seed);

			w->costs[(size_t)b * nc + c] = pm - pst;
		}
	}
	return 0;
}

/* Each cell's 95 % interval; a cell whose interval lies above 0 is significant. */
static void cell_intervals(struct corr_work *w)
{
	struct corr_result *r = w->r;
	int nc = r->ncells;

	for (int c = 0; c < nc; c++) {
		for (int b = 0; b < w->B; b++)
			w->tmp[b] = w->costs[(size_t)b * nc + c];
		r->cells[c].cost_lo_ns = quantile_sorted_inplace(w->tmp, (size_t)w->B, 0.025);
		r->cells[c].cost_hi_ns = quantile_sorted_inplace(w->tmp, (size_t)w->B, 0.975);
		w->sig[c] = r->cells[c].cost_lo_ns > 0;
	}
}

/*
 * The observed hot time on the point estimates, and its 95 % interval from the hot time of
 * each resampled curve, judged with the same significant cells.
 */
static void hot_time(struct corr_work *w)
{
	struct corr_result *r = w->r;
	double age[CORR_MAX_CELLS], cost[CORR_MAX_CELLS];
	int nc = r->ncells;

	for (int c = 0; c < nc; c++) {
		age[c] = corr_cell_age(r, c);
		cost[c] = r->cells[c].cost_ns;
	}
	r->hot_state = corr_hot_time(age, cost, w->sig, nc, r->cold_fraction, &r->hot_ns);
	for (int b = 0; b < w->B; b++) {
		double h = NAN;
		enum corr_hot_state st = corr_hot_time(age, &w->costs[(size_t)b * nc], w->sig, nc,
						       r->cold_fraction, &h);

		/* Out-of-range outcomes sit at the range's ends, one step out. */
		if (st == CORR_HOT_ABOVE)
			h = age[nc - 1] * 2;
		else if (st == CORR_HOT_NO_COST)
			h = age[0] / 2;
		w->boot_hot[b] = h;
	}
	r->hot_lo_ns = quantile_sorted_inplace(w->boot_hot, (size_t)w->B, 0.025);
	r->hot_hi_ns = quantile_sorted_inplace(w->boot_hot, (size_t)w->B, 0.975);
	/* The interval is about the estimate: it always contains it. */
	if (r->hot_state == CORR_HOT_FOUND) {
		r->hot_lo_ns = fmin(r->hot_lo_ns, r->hot_ns);
		r->hot_hi_ns = fmax(r->hot_hi_ns, r->hot_ns);
	}
	/* The maximum the hot time is measured against: significant cells first. */
	r->max_cost_ns = -INFINITY;
	for (int pass = 0; pass < 2 && !isfinite(r->max_cost_ns); pass++)
		for (int c = 0; c < nc; c++)
			if ((pass || w->sig[c]) && cost[c] > r->max_cost_ns) {
				r->max_cost_ns = cost[c];
				r->max_cell = c;
			}
}

/* What migrations cost this run, and against the slice that followed them. */
static void run_cost(struct corr_work *w)
{
	struct corr_result *r = w->r;
	size_t k = 0;

	for (size_t i = 0; i < w->ns; i++) {
		const struct sample *s = &w->smp[i];
		const struct corr_cell *cl;

		if (!s->mig || s->cell < 0)
			continue;
		cl = &r->cells[s->cell];
		r->lost_ns += cl->cost_ns > 0 ? cl->cost_ns : 0;
		if (s->slice_ns > 0)
			w->tmp[k++] = s->penalty_ns / s->slice_ns;
	}
	r->cost_frac_slice = k ? median_inplace(w->tmp, k) : NAN;
}

int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r)
{
	struct corr_work w = { .o = o, .r = r, .B = o->bootstrap > 0 ? o->bootstrap : 1 };
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->mode = o->mode;
	r->cold_fraction = o->cold_fraction;
	r->n_units = n;
	r->hot_state = CORR_HOT_NO_DATA;
	if (!n)
		return 0;
	err = work_alloc(&w, units, n);
	if (err)
		goto cleanup;
	if (o->mode == CORR_NATURAL)
		natural_cells(&w);
	collect_samples(&w);
	sort_cells(&w);
	estimate_cells(&w);
	drop_one_armed_cells(&w);
	if (!r->ncells)
		goto cleanup;
	err = bootstrap_costs(&w);
	if (err)
		goto cleanup;
	cell_intervals(&w);
	hot_time(&w);
	run_cost(&w);
cleanup:
	work_free(&w);
	return err;
}

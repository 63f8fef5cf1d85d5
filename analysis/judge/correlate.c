// SPDX-License-Identifier: GPL-2.0
/*
 * Refill penalty = a unit's duration - its thread's warm baseline (median of the thread's
 * back-to-back units, no switch before or inside).  A unit right after a migration belongs
 * to the "migrated" arm at the migration's age; a unit after a same-CPU wake to the "stayed"
 * arm at the length of that off-CPU period.  Units with a switch or a migration inside are
 * left out (counted).  Per cell, a 10 %-trimmed mean: the mean is what a workload pays on
 * average, and on a shared VM the penalty is often a mixture (some refills from the L3, some
 * from farther away) where a median flips between modes; the trimming drops the rare extreme
 * outliers (host preemption) that a plain mean would follow.
 *
 * A controlled grid with a polluter on A has cells per (age, rate), and its cost is read
 * against the bytes the polluter displaced (docs/design.md, "Displaced bytes"); otherwise
 * against the age.  Each curve of cost is fitted by a monotone decay (decay.h) and read where
 * it falls under the cold fraction of its maximum; every estimate gets its 95 % interval
 * from a block bootstrap that resamples whole rounds of the shuffled schedule (controlled)
 * or time blocks (natural), since the host drifts over minutes and neighbouring samples are
 * not independent, and that redoes the cells, the fit, its maximum and the fall each time.
 *
 * correlate_units() runs the stages in order over one work context: order the units per
 * thread, lay out the cells, collect the samples, estimate each cell, drop the empty cells,
 * lay out the curves, bootstrap, read the falls, sum what the run's migrations cost.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "decay.h"
#include "stats.h"
#include "unit.h"

/* Natural runs' bootstrap blocks: the run cut into this many spans of time. */
#define CORR_NATURAL_BLOCKS 50
/* A curve's x must be > 0 for log(x): displaced bytes count from one line. */
#define CORR_MIN_DISPLACED 64.0
/* Curves: the pooled one, then per rate one over displaced bytes and one over age. */
#define CORR_MAX_CURVES (2 + 2 * CORR_MAX_RATES)
/* A cell displaced this share of the polluter's buffer or more is at full displacement. */
#define CORR_CAPPED 0.95
/*
 * The residual cost at full displacement is what the other curves fall toward only while it
 * is a residual: at more than this share of a curve's maximum, the polluter has not reached
 * what the migration refills, and the curve is read against 0 (docs/design.md, "Displaced
 * bytes").
 */
#define CORR_RESIDUAL_SHARE 0.25

void corr_default_opts(struct corr_opts *o, enum corr_mode mode)
{
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->cold_fraction = CORR_COLD_FRACTION;
	o->bootstrap = CORR_BOOTSTRAP;
	o->level = CORR_LEVEL;
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
	double streamed_bytes;	/* controlled: what the polluter streamed while it was away */
	double off_ns;		/* the off-CPU period before it, ns; 0: not known */
	double rate_mbps;	/* controlled: the trial's target rate */
	int block;		/* the bootstrap's unit: round, or span of time */
	bool polluted;		/* natural: a same-CPU wake on a CPU with a polluter */
	int cell;		/* -1 once its cell is dropped */
	int arm;		/* ARM_STAY, ARM_MIG or ARM_OTHER */
};

/*
 * The arms a sample joins.  A natural run's evidence is what task_hot() judges: the units
 * after a load-balancer pull, aged by the kernel's clock; the units after every other kind
 * of move (wakeup placement, above all) are measured and reported beside them, never
 * counted as evidence (docs/design.md, "Which moves are evidence").  A controlled run's
 * migrations are all evidence: they are the experiment.
 */
enum { ARM_STAY, ARM_MIG, ARM_OTHER, NR_ARMS };

/* A curve: cells in order of its axis, with their x and the fit's weights. */
struct curve {
	int n;
	int cell[CORR_MAX_CELLS];
	double x[CORR_MAX_CELLS];	/* ns or bytes */
	double w[CORR_MAX_CELLS];
	struct corr_fall *out;		/* where its result goes */
	bool over_floor;		/* falls toward the residual cost, not toward 0 */
	double *boot_at, *boot_max;	/* B resampled falls and fitted maxima */
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
	double probed_base;	/* probed: the median unit, every thread's baseline, ns */
	double *base;		/* n: one thread's warm units */
	double *scratch;	/* n: for estimators that sort */
	double *v;		/* vcap: one arm's penalties, or a resample of them */
	size_t vcap;
	double *tmp;		/* max(n, B + 1) */
	double *costs;		/* B x ncells bootstrap costs */
	double *other_costs;	/* B x ncells: the other moves' */
	double *stays;		/* B x ncells bootstrap stayed-arm penalties */
	double *boot_rise;	/* B resampled rises of the stayed arm: where, ns */
	double *boot_rise_by;	/* ... and by how much, ns */
	double *boot_corunner;	/* B resampled co-runner rates, MB/s */
	double *boot_reach;	/* B resampled ages of the stayed arm's reach, ns */
	size_t *by_cell;	/* sample indexes grouped by cell and arm */
	size_t arm_at[CORR_MAX_CELLS][NR_ARMS], arm_n[CORR_MAX_CELLS][NR_ARMS];
	const struct mt_migrate **pulls;	/* natural: the run's pull records, by pid, ts */
	size_t npulls;
	int *mult;		/* a resample: how many times each block was drawn */
	int nblocks;
	int B;			/* bootstrap resamples */
	struct curve curve[CORR_MAX_CURVES];
	int ncurves;
	struct corr_fall by_age;	/* the pooled curve's fall on the age axis */
	int capped;			/* the curve at full displacement; -1: none */
	struct curve stay;		/* the age axis: every cell with same-CPU wakes, by age */
	bool use_floor;			/* the point estimates have a residual: every resample
					 * falls toward its own */
	bool nothing_streamed;		/* no trial recorded a polluter's bytes */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Controlled cells: by rate, then age. */
static int cmp_cell(const void *a, const void *b)
{
	const struct corr_cell *x = a, *y = b;

	if (x->rate_mbps != y->rate_mbps && !(isnan(x->rate_mbps) && isnan(y->rate_mbps)))
		return x->rate_mbps < y->rate_mbps ? -1 : 1;
	return x->age_ns < y->age_ns ? -1 : x->age_ns > y->age_ns;
}

static bool warm_unit(const struct mt_unit *u, enum corr_mode mode)
{
	return unit_warm(u) && (mode == CORR_NATURAL || u->tag == CW_TAG_BASELINE);
}

/* Cells by measured age: the scheduler's moves, or the probe moments' (run --probe-moves). */
static bool age_buckets(enum corr_mode mode)
{
	return mode == CORR_NATURAL || mode == CORR_PROBED;
}

/* A controlled grid with a polluter on A whose trials say what it streamed (a file of an
 * older schema says nothing: its cost is read against age). */
static bool displaced_axis(const struct corr_work *w)
{
	return w->o->mode == CORR_CONTROLLED && w->o->footprint_bytes > 0 && !w->nothing_streamed;
}

/* The cell estimator: a trimmed mean of the penalties. */
static double estimate_of(const double *v, size_t n, double *scratch)
{
	if (!n)
		return NAN;
	memcpy(scratch, v, n * sizeof(*v));
	return trimmed_mean_select_inplace(scratch, n, CORR_TRIM);
}

/* One arm of one cell: its penalties into w->v.  Returns how many. */
static size_t arm_penalties(struct corr_work *w, int cell, int arm)
{
	size_t k = 0;

	for (size_t i = 0; i < w->ns; i++)
		if (w->smp[i].cell == cell && w->smp[i].arm == arm)
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
	w->vcap = n;
	w->tmp = malloc((n > nb ? n : nb) * sizeof(double));
	w->by_cell = malloc(n * sizeof(size_t));
	if (!w->u || !w->smp || !w->base || !w->thread_base || !w->scratch || !w->v || !w->tmp ||
	    !w->by_cell)
		return -ENOMEM;
	memcpy(w->u, units, n * sizeof(*w->u));
	/* Records of different CPUs interleave in the ring buffer: order per thread. */
	qsort(w->u, n, sizeof(*w->u), unit_cmp_thread_start);
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
	free(w->other_costs);
	free(w->stays);
	free(w->boot_rise);
	free(w->boot_rise_by);
	free(w->boot_corunner);
	free(w->boot_reach);
	free(w->by_cell);
	free(w->pulls);
	free(w->mult);
	for (int c = 0; c < w->ncurves; c++) {
		free(w->curve[c].boot_at);
		free(w->curve[c].boot_max);
	}
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
		r->cells[r->ncells].rate_mbps = NAN;
		r->ncells++;
	}
}

static int find_cell(struct corr_work *w, const struct mt_unit *u, double age)
{
	struct corr_result *r = w->r;

	if (!age_buckets(w->o->mode)) {
		double rate = displaced_axis(w) ? (double)u->rate_mbps : NAN;

		for (int c = 0; c < r->ncells; c++)
			if (r->cells[c].age_ns == (double)u->nominal_age_ns &&
			    (isnan(rate) || r->cells[c].rate_mbps == rate))
				return c;
		if (r->ncells >= CORR_MAX_CELLS)
			return -1;
		r->cells[r->ncells].age_ns = (double)u->nominal_age_ns;
		r->cells[r->ncells].rate_mbps = rate;
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

	if (w->o->mode != CORR_NATURAL) {
		if (x->tag != CW_TAG_MIGRATED && x->tag != CW_TAG_STAYED)
			return false;
		if (x->tag == CW_TAG_MIGRATED && !mig) {
			w->r->n_unseen++;
			return false;
		}
		/* controlled: the scheduler moved it anyway; probed: a sham stays a sham */
		if (x->tag == CW_TAG_STAYED && mig && w->o->mode == CORR_CONTROLLED)
			return false;
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

/* Which arm unit x joins (see ARM_STAY). */
static int sample_arm(const struct corr_work *w, const struct mt_unit *x)
{
	/* probed: the coin's arm, whatever the kernel did after a sham */
	if (w->o->mode == CORR_PROBED)
		return x->tag == CW_TAG_MIGRATED ? ARM_MIG : ARM_STAY;
	if (!unit_migrated(x))
		return ARM_STAY;
	if (w->o->mode != CORR_NATURAL)
		return ARM_MIG;
	return x->mig_cause == MT_CAUSE_LB_PULL ? ARM_MIG : ARM_OTHER;
}

static int cmp_pull(const void *a, const void *b)
{
	const struct mt_migrate *x = *(const struct mt_migrate *const *)a;
	const struct mt_migrate *y = *(const struct mt_migrate *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

/*
 * A natural pull's age, as task_hot() judged it: the kernel's own (rq_clock_task(src) -
 * se.exec_start) from the pull's record, found by thread and time; migtrace's age when the
 * record was not kept or has no valid kernel age (counted).
 */
static double evidence_age(struct corr_work *w, const struct mt_unit *x)
{
	size_t lo = 0, hi = w->npulls;

	if (w->o->mode == CORR_CONTROLLED)
		return (double)x->mig_age_ns;
	/* probed: the same age as the shams', the off-CPU period the unit ended */
	if (w->o->mode == CORR_PROBED)
		return (double)x->last_off_ns;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct mt_migrate *m = w->pulls[mid];

		if (m->pid < x->pid || (m->pid == x->pid && m->ts_ns < x->mig_ts_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->npulls && w->pulls[lo]->pid == x->pid && w->pulls[lo]->ts_ns == x->mig_ts_ns &&
	    (w->pulls[lo]->flags & MT_RF_KAGE_VALID)) {
		w->r->n_kernel_aged++;
		return (double)w->pulls[lo]->kernel_age_ns;
	}
	return (double)x->mig_age_ns;
}

/* Natural runs: the pull records, sorted for evidence_age(). */
static int index_pulls(struct corr_work *w)
{
	if (w->o->mode != CORR_NATURAL || !w->o->nmigs)
		return 0;
	w->pulls = malloc(w->o->nmigs * sizeof(*w->pulls));
	if (!w->pulls)
		return -ENOMEM;
	for (size_t i = 0; i < w->o->nmigs; i++)
		if (w->o->migs[i].cause == MT_CAUSE_LB_PULL)
			w->pulls[w->npulls++] = &w->o->migs[i];
	qsort(w->pulls, w->npulls, sizeof(*w->pulls), cmp_pull);
	return 0;
}

/* Whether a polluter streamed on cpu (natural runs). */
static bool polluted_cpu(const struct corr_opts *o, unsigned int cpu)
{
	return cpu < CORR_MAX_POLLUTED_CPU && (o->polluted_cpus[cpu / 64] >> (cpu % 64) & 1);
}

/*
 * The co-runner's rate over the same-CPU wakes on its CPUs, each as many times as its block
 * was drawn (mult NULL: once): the bytes it streamed over the time they slept, MB/s; NAN
 * without such a wake.  How many wakes into *n (may be NULL).
 */
static double corunner_rate(const struct corr_work *w, const int *mult, size_t *n)
{
	double bytes = 0, off = 0;
	size_t k = 0;

	for (size_t i = 0; i < w->ns; i++) {
		const struct sample *s = &w->smp[i];
		int m = mult ? mult[s->block] : 1;

		if (!s->polluted || s->cell < 0)
			continue;
		bytes += m * s->streamed_bytes;
		off += m * s->off_ns;
		k++;
	}
	if (n)
		*n = k;
	return off > 0 ? bytes / off * 1e3 : NAN;
}

/* One thread, units [lo, hi): its warm baseline, then a sample per event unit. */
static void thread_samples(struct corr_work *w, size_t lo, size_t hi)
{
	size_t nb = 0;
	double b;

	for (size_t i = lo; i < hi; i++)
		if (warm_unit(&w->u[i], w->o->mode))
			w->base[nb++] = (double)(w->u[i].end_ns - w->u[i].start_ns);
	/*
	 * Probed: the units are the moments' next units alone, a few a thread, and the arms
	 * were drawn by a coin: one baseline for all (any constant cancels in the difference;
	 * a thread's own median of one or two units would pull its samples to 0).
	 */
	if (w->o->mode == CORR_PROBED)
		nb = hi - lo;
	w->r->n_baseline += nb;
	if (!nb)
		return;		/* no warm unit: nothing to compare this thread with */
	b = w->o->mode == CORR_PROBED ? w->probed_base : median_inplace(w->base, nb);
	w->thread_base[w->nthreads++] = b;
	for (size_t i = lo; i < hi; i++) {
		const struct mt_unit *x = &w->u[i];
		struct sample *s = &w->smp[w->ns];
		double age;
		int arm, cell;

		if (!event_unit(w, x))
			continue;
		arm = sample_arm(w, x);
		age = arm == ARM_MIG ? evidence_age(w, x) :
		      arm == ARM_OTHER ? (double)x->mig_age_ns : (double)x->last_off_ns;
		if ((cell = find_cell(w, x, age)) < 0)
			continue;
		s->penalty_ns = (double)(x->end_ns - x->start_ns) - b;
		s->age_ns = age;
		s->cell = cell;
		s->arm = arm;
		s->slice_ns = slice_from(w, i, hi);
		s->streamed_bytes = (double)x->streamed_bytes;
		s->off_ns = (double)x->last_off_ns;
		s->rate_mbps = (double)x->rate_mbps;
		/* one switch-out since the previous unit: its off-CPU period is the whole time
		 * the polluter's bytes were counted over (a preemption after the wake would
		 * leave only its own short period) */
		s->polluted = w->o->mode == CORR_NATURAL && arm == ARM_STAY && x->last_off_ns &&
			      x->switches_before == 1 && polluted_cpu(w->o, x->cpu_start);
		/* natural runs: the unit's start, turned into a block once the span is known */
		s->block = w->o->mode == CORR_CONTROLLED ? (int)x->round : 0;
		w->scratch[w->ns] = (double)x->start_ns;
		if (arm == ARM_MIG)
			w->r->n_mig_events++;
		else if (arm == ARM_OTHER)
			w->r->n_other_events++;
		else
			w->r->n_stay_events++;
		w->ns++;
	}
}

/* Natural runs' blocks: spans of time, so that a resample keeps neighbours together. */
static void natural_blocks(struct corr_work *w)
{
	double t0 = INFINITY, t1 = -INFINITY;

	for (size_t i = 0; i < w->ns; i++) {
		t0 = fmin(t0, w->scratch[i]);
		t1 = fmax(t1, w->scratch[i]);
	}
	for (size_t i = 0; i < w->ns; i++) {
		double f = t1 > t0 ? (w->scratch[i] - t0) / (t1 - t0) : 0;
		int b = (int)(f * CORR_NATURAL_BLOCKS);

		w->smp[i].block = b < CORR_NATURAL_BLOCKS ? b : CORR_NATURAL_BLOCKS - 1;
	}
}

static void collect_samples(struct corr_work *w)
{
	if (w->o->mode == CORR_PROBED) {
		for (size_t i = 0; i < w->n; i++)
			w->base[i] = (double)(w->u[i].end_ns - w->u[i].start_ns);
		w->probed_base = w->n ? median_inplace(w->base, w->n) : NAN;
	}
	for (size_t lo = 0, hi; lo < w->n; lo = hi) {
		for (hi = lo; hi < w->n && w->u[hi].pid == w->u[lo].pid; hi++)
			;
		thread_samples(w, lo, hi);
	}
	if (age_buckets(w->o->mode))
		natural_blocks(w);
	w->nothing_streamed = true;
	for (size_t i = 0; i < w->ns; i++)
		w->nothing_streamed &= !(w->smp[i].streamed_bytes > 0);
	w->r->n_threads = w->nthreads;
	if (w->nthreads) {
		memcpy(w->scratch, w->thread_base, w->nthreads * sizeof(double));
		w->r->baseline_ns = median_inplace(w->scratch, w->nthreads);
	} else {
		w->r->baseline_ns = NAN;
	}
}

/* Controlled cells were created in arrival order: sort by rate and age, remap the samples. */
static void sort_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;
	struct corr_cell old[CORR_MAX_CELLS];
	int map[CORR_MAX_CELLS];

	if (w->o->mode != CORR_CONTROLLED || r->ncells < 2)
		return;
	memcpy(old, r->cells, sizeof(old[0]) * (size_t)r->ncells);
	qsort(r->cells, (size_t)r->ncells, sizeof(r->cells[0]), cmp_cell);
	for (int o = 0; o < r->ncells; o++)
		for (int c = 0; c < r->ncells; c++)
			if (!cmp_cell(&r->cells[c], &old[o]))
				map[o] = c;
	for (size_t i = 0; i < w->ns; i++)
		w->smp[i].cell = map[w->smp[i].cell];
}

/* Point estimates per cell: each arm's trimmed mean, their difference, what D was. */
static void estimate_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;
	double fp = w->o->footprint_bytes;

	for (int c = 0; c < r->ncells; c++) {
		struct corr_cell *cl = &r->cells[c];
		double streamed = 0, off = 0;
		size_t na = 0, nd = 0;

		for (size_t i = 0; i < w->ns; i++)
			if (w->smp[i].cell == c)
				w->tmp[na++] = w->smp[i].age_ns;
		cl->age_median_ns = na ? median_inplace(w->tmp, na) : cl->age_ns;
		cl->displaced_bytes = cl->achieved_mbps = NAN;
		if (displaced_axis(w)) {
			for (size_t i = 0; i < w->ns; i++) {
				const struct sample *s = &w->smp[i];

				if (s->cell != c)
					continue;
				w->tmp[nd++] = fmin(s->streamed_bytes, fp);
				if (s->off_ns > 0) {
					streamed += s->streamed_bytes;
					off += s->off_ns;
				}
			}
			cl->displaced_bytes = nd ? median_inplace(w->tmp, nd) : NAN;
			cl->achieved_mbps = off > 0 ? streamed / off * 1e3 : NAN;
		}
		cl->n_mig = arm_penalties(w, c, ARM_MIG);
		cl->pen_mig_ns = estimate_of(w->v, cl->n_mig, w->scratch);
		cl->n_stay = arm_penalties(w, c, ARM_STAY);
		cl->pen_stay_ns = estimate_of(w->v, cl->n_stay, w->scratch);
		cl->cost_ns = cl->n_mig && cl->n_stay ? cl->pen_mig_ns - cl->pen_stay_ns : NAN;
		cl->n_other = arm_penalties(w, c, ARM_OTHER);
		cl->pen_other_ns = estimate_of(w->v, cl->n_other, w->scratch);
		cl->cost_other_ns = cl->n_other && cl->n_stay ? cl->pen_other_ns - cl->pen_stay_ns :
				    NAN;
		cl->unit_ns = r->baseline_ns;
		cl->fit_cost_ns = NAN;
	}
}

/*
 * Cells without a sample are dropped, samples remapped.  A cell with one arm stays: it has no
 * cost (NAN: the curves of cost leave it out), but its same-CPU wakes say how the co-runners
 * decay the cache, which a natural run sees at every age and migrates at few.
 */
static void drop_empty_cells(struct corr_work *w)
{
	struct corr_result *r = w->r;
	int k = 0, map[CORR_MAX_CELLS];

	for (int c = 0; c < r->ncells; c++) {
		map[c] = -1;
		if (r->cells[c].n_mig || r->cells[c].n_stay || r->cells[c].n_other) {
			map[c] = k;
			r->cells[k++] = r->cells[c];
		}
	}
	for (size_t i = 0; i < w->ns; i++)
		w->smp[i].cell = map[w->smp[i].cell];
	r->ncells = k;
}

/* Sample indexes grouped by cell and arm, and the number of blocks. */
static void index_samples(struct corr_work *w)
{
	size_t at = 0;

	w->nblocks = 0;
	for (int c = 0; c < w->r->ncells; c++) {
		for (int arm = 0; arm < NR_ARMS; arm++) {
			w->arm_at[c][arm] = at;
			for (size_t i = 0; i < w->ns; i++)
				if (w->smp[i].cell == c && w->smp[i].arm == arm)
					w->by_cell[at++] = i;
			w->arm_n[c][arm] = at - w->arm_at[c][arm];
		}
	}
	for (size_t i = 0; i < w->ns; i++)
		if (w->smp[i].cell >= 0 && w->smp[i].block + 1 > w->nblocks)
			w->nblocks = w->smp[i].block + 1;
}

/* The x of cell c on an axis: its age (ns) or its displaced bytes. */
static double cell_x(const struct corr_result *r, int c, enum corr_axis axis)
{
	if (axis == CORR_AXIS_DISPLACED)
		return fmax(r->cells[c].displaced_bytes, CORR_MIN_DISPLACED);
	return fmax(corr_cell_age(r, c), 1);
}

/* A curve over the cells whose rate is rate (NAN: all; capped: those at full displacement),
 * in order of x. */
static void add_curve(struct corr_work *w, enum corr_axis axis, double rate, bool capped,
		      struct corr_fall *out)
{
	struct curve *cv = &w->curve[w->ncurves++];
	const struct corr_result *r = w->r;

	cv->n = 0;
	cv->out = out;
	cv->over_floor = w->o->footprint_bytes > 0 && !capped;
	for (int c = 0; c < r->ncells; c++) {
		const struct corr_cell *cl = &r->cells[c];
		double x = cell_x(r, c, axis), nm = (double)cl->n_mig, nst = (double)cl->n_stay;
		int k;

		if (!isnan(rate) && cl->rate_mbps != rate)
			continue;
		if (capped && !(cl->displaced_bytes >= CORR_CAPPED * w->o->footprint_bytes))
			continue;
		if (!(nm > 0 && nst > 0))
			continue;	/* one arm: no cost to fit */
		/* insertion by x: the cells are few */
		for (k = cv->n; k > 0 && cv->x[k - 1] > x; k--) {
			cv->x[k] = cv->x[k - 1];
			cv->w[k] = cv->w[k - 1];
			cv->cell[k] = cv->cell[k - 1];
		}
		cv->x[k] = x;
		cv->w[k] = nm * nst / (nm + nst);	/* the difference's effective size */
		cv->cell[k] = c;
		cv->n++;
	}
}

/* The curves: the pooled one on the run's axis, and per rate its D and age curves. */
static void lay_out_curves(struct corr_work *w)
{
	struct corr_result *r = w->r;

	r->axis = displaced_axis(w) ? CORR_AXIS_DISPLACED : CORR_AXIS_AGE;
	add_curve(w, r->axis, NAN, false,
		  r->axis == CORR_AXIS_DISPLACED ? &r->dstar : &w->by_age);
	if (r->axis != CORR_AXIS_DISPLACED) {
		/* the same-CPU wakes, by age: every cell that has them */
		for (int c = 0; c < r->ncells; c++) {
			if (!r->cells[c].n_stay)
				continue;
			w->stay.cell[w->stay.n] = c;
			w->stay.x[w->stay.n] = cell_x(r, c, CORR_AXIS_AGE);
			w->stay.w[w->stay.n++] = (double)r->cells[c].n_stay;
		}
		return;
	}
	add_curve(w, CORR_AXIS_AGE, NAN, true, &r->capped);
	r->capped_cells = w->curve[w->ncurves - 1].n;
	w->capped = w->ncurves - 1;
	if (!r->capped_cells) {
		w->ncurves--;
		w->capped = -1;
	}
	for (int c = 0; c < r->ncells; c++) {
		double rate = r->cells[c].rate_mbps;
		int k;

		for (k = 0; k < r->nrates && r->rates[k].rate_mbps != rate; k++)
			;
		if (k < r->nrates || k == CORR_MAX_RATES)
			continue;
		r->rates[k].rate_mbps = rate;
		r->nrates++;
	}
	for (int k = 0; k < r->nrates; k++) {
		struct corr_rate *rt = &r->rates[k];
		double streamed = 0, off = 0;

		rt->dstar = rt->hot = r->dstar;		/* no data, until their curves say */
		const struct curve *cv;

		add_curve(w, CORR_AXIS_DISPLACED, rt->rate_mbps, false, &rt->dstar);
		cv = &w->curve[w->ncurves - 1];
		rt->ncells = cv->n;
		/* a rate whose trials all displaced the same (the whole buffer) has no D range:
		 * it tells the residual cost, not where the cost falls */
		if (!cv->n || cv->x[cv->n - 1] < 2 * cv->x[0])
			w->ncurves--;
		add_curve(w, CORR_AXIS_AGE, rt->rate_mbps, false, &rt->hot);
		for (size_t i = 0; i < w->ns; i++) {
			const struct sample *s = &w->smp[i];

			if (s->cell >= 0 && r->cells[s->cell].rate_mbps == rt->rate_mbps &&
			    s->off_ns > 0) {
				streamed += s->streamed_bytes;
				off += s->off_ns;
			}
		}
		rt->achieved_mbps = off > 0 ? streamed / off * 1e3 : NAN;
	}
}

/*
 * A curve's fall on a vector of cell costs: the monotone fit of its finite cells, where it
 * falls under the cold fraction, and the fit's maximum.  fit (may be NULL) gets the fitted
 * value of each of the curve's cells (NAN where the cost was not finite).
 */
static enum corr_hot_state curve_fall(const struct curve *cv, const double *cost, double frac,
				      double floor, double *at, double *fmax, double *fmin,
				      double *fit, double bracket[2])
{
	double x[CORR_MAX_CELLS], y[CORR_MAX_CELLS], wt[CORR_MAX_CELLS], f[CORR_MAX_CELLS];
	int n = 0, k = 0;
	enum corr_hot_state st;

	for (int i = 0; i < cv->n; i++) {
		if (!isfinite(cost[cv->cell[i]]))
			continue;
		x[n] = cv->x[i];
		y[n] = cost[cv->cell[i]];
		wt[n] = cv->w[i];
		n++;
	}
	if (!n) {
		*fmax = *fmin = NAN;
		return CORR_HOT_NO_DATA;
	}
	decay_fit(y, wt, n, f);
	*fmax = f[0];
	*fmin = f[n - 1];
	st = decay_crossing(x, f, n, frac, cv->over_floor ? floor : 0, at);
	if (bracket && st == CORR_HOT_FOUND) {
		/* the fit is known at the cells only: the fall lies between two of them */
		for (k = 0; k + 1 < n && !(x[k + 1] >= *at); k++)
			;
		bracket[0] = x[k];
		bracket[1] = x[k + 1 < n ? k + 1 : k];
		k = 0;
	}
	if (fit)
		for (int i = 0; i < cv->n; i++)
			fit[i] = isfinite(cost[cv->cell[i]]) ? f[k++] : NAN;
	return st;
}

/* The weighted mean of -y over the older half of the weight, less the younger half's. */
static double halves(const double *y, const double *wt, int n)
{
	double total = 0, acc = 0, sum[2] = { 0, 0 }, w2[2] = { 0, 0 };

	for (int i = 0; i < n; i++)
		total += wt[i];
	for (int i = 0; i < n; i++) {
		/* a cell across the middle is shared between the halves by its weight */
		double young = fmin(fmax(total / 2 - acc, 0), wt[i]), old = wt[i] - young;

		sum[0] += young * -y[i];
		w2[0] += young;
		sum[1] += old * -y[i];
		w2[1] += old;
		acc += wt[i];
	}
	return w2[0] > 0 && w2[1] > 0 ? sum[1] / w2[1] - sum[0] / w2[0] : 0;
}

/*
 * The stayed arm's rise over age (the age axis only): its penalty per cell in curve 0's
 * order, fitted non-decreasing (the mirror of the decay fit), and where it has risen 90 %
 * of the way to its plateau.  *first, *last: the fit at the ends; *raw: the weighted mean
 * penalty of the older half of the samples less the younger half's, unfitted (a fit of noise
 * rises too, a difference of means does not).
 */
static enum corr_hot_state stay_rise(const struct corr_work *w, const double *stay, double *at,
				     double *first, double *last, double *raw,
				     enum corr_hot_state *reach, double *reach_at)
{
	const struct curve *cv = &w->stay;
	double x[CORR_MAX_CELLS], y[CORR_MAX_CELLS], wt[CORR_MAX_CELLS], f[CORR_MAX_CELLS];
	int n = 0;
	enum corr_hot_state st;

	for (int i = 0; i < cv->n; i++) {
		if (!isfinite(stay[cv->cell[i]]))
			continue;
		x[n] = cv->x[i];
		y[n] = -stay[cv->cell[i]];
		wt[n] = (double)w->r->cells[cv->cell[i]].n_stay;
		n++;
	}
	*reach = CORR_HOT_NO_DATA;
	if (!n) {
		*first = *last = *raw = NAN;
		return CORR_HOT_NO_DATA;
	}
	*raw = halves(y, wt, n);
	decay_fit(y, wt, n, f);
	for (int i = 0; i < n; i++)
		f[i] = -f[i];
	*first = f[0];
	*last = f[n - 1];
	if (w->o->stay_level_ns > 0)
		*reach = decay_reach(x, f, n, w->o->stay_level_ns, reach_at);
	st = decay_rise(x, f, n, w->r->cold_fraction, at);
	return st;
}

/*
 * The resampled trimmed mean of one arm: each sample as many times as its block was drawn.
 * NAN when the resample holds none of the arm's samples; -ENOMEM in *err.
 */
static double resampled_arm(struct corr_work *w, int c, int arm, int *err)
{
	size_t k = 0, need = 0;

	for (size_t j = 0; j < w->arm_n[c][arm]; j++)
		need += (size_t)w->mult[w->smp[w->by_cell[w->arm_at[c][arm] + j]].block];
	if (need > w->vcap) {
		double *v = realloc(w->v, need * sizeof(double));

		if (!v) {
			*err = -ENOMEM;
			return NAN;
		}
		w->v = v;
		w->vcap = need;
	}
	for (size_t j = 0; j < w->arm_n[c][arm]; j++) {
		const struct sample *s = &w->smp[w->by_cell[w->arm_at[c][arm] + j]];

		for (int m = 0; m < w->mult[s->block]; m++)
			w->v[k++] = s->penalty_ns;
	}
	return k ? trimmed_mean_select_inplace(w->v, k, CORR_TRIM) : NAN;
}

/*
 * The residual cost the curves fall toward, on a vector of cell costs: the fit at full
 * displacement at its shortest age (>= 0).  Only when the point estimates' residual is one
 * (at most CORR_RESIDUAL_SHARE of the pooled curve's maximum: decided once, so that the
 * resamples do not flip between two definitions); else 0, and the curves are read against 0.
 */
static double residual(struct corr_work *w, const double *cost)
{
	double at, cap_max, cap_min;

	if (w->capped < 0 || !w->use_floor)
		return 0;
	curve_fall(&w->curve[w->capped], cost, 0.5, 0, &at, &cap_max, &cap_min, NULL, NULL);
	return isfinite(cap_max) && cap_max > 0 ? cap_max : 0;
}

/* Whether the point estimates' cost at full displacement is a residual (residual()). */
static void decide_floor(struct corr_work *w)
{
	double cost[CORR_MAX_CELLS], at, cap_max, cap_min, max, min;

	w->use_floor = false;
	if (w->capped < 0)
		return;
	for (int c = 0; c < w->r->ncells; c++)
		cost[c] = w->r->cells[c].cost_ns;
	curve_fall(&w->curve[w->capped], cost, 0.5, 0, &at, &cap_max, &cap_min, NULL, NULL);
	curve_fall(&w->curve[0], cost, 0.5, 0, &at, &max, &min, NULL, NULL);
	w->use_floor = cap_max > 0 && cap_max <= CORR_RESIDUAL_SHARE * max;
}

/*
 * Every curve's fall on one resample's costs, into its b-th place: the curve at full
 * displacement first, since its cost at the shortest age is the residual the others fall
 * toward.  A fall beyond the measured range is placed one step out of it.
 */
static void eval_curves(struct corr_work *w, const double *cost, int b)
{
	double floor = residual(w, cost);

	for (int k = 0; k < w->ncurves; k++) {
		struct curve *cv = &w->curve[k];
		double at = NAN, fmax, fmin;
		enum corr_hot_state st;

		st = curve_fall(cv, cost, w->r->cold_fraction, floor, &at, &fmax, &fmin, NULL,
				NULL);
		if (st == CORR_HOT_ABOVE)
			at = cv->x[cv->n - 1] * 2;
		else if (st == CORR_HOT_NO_COST)
			at = cv->x[0] / 2;
		cv->boot_at[b] = at;
		cv->boot_max[b] = fmax;
	}
}

/* A resampled rise or reach beyond the ages measured, placed one step out of them. */
static double out_of_range(const struct corr_work *w, enum corr_hot_state st, double at)
{
	if (st == CORR_HOT_ABOVE)
		return w->stay.x[w->stay.n - 1] * 2;
	if (st == CORR_HOT_NO_COST)
		return w->stay.x[0] / 2;
	return st == CORR_HOT_NO_DATA ? NAN : at;
}

/*
 * B block-bootstrap resamples: each draws as many blocks as there are, with replacement,
 * recomputes every cell's cost, and reads every curve's fall and maximum on them.  A fall
 * beyond the measured range is placed one step out of it, so that it sets an interval end
 * at the grid's edge.
 */
static int bootstrap(struct corr_work *w)
{
	int nc = w->r->ncells, err = 0;
	uint64_t seed = w->o->seed ? w->o->seed : 1;

	w->costs = malloc((size_t)w->B * (size_t)nc * sizeof(double));
	w->stays = malloc((size_t)w->B * (size_t)nc * sizeof(double));
	w->other_costs = malloc((size_t)w->B * (size_t)nc * sizeof(double));
	w->boot_rise = malloc((size_t)w->B * sizeof(double));
	w->boot_rise_by = malloc((size_t)w->B * sizeof(double));
	w->boot_corunner = malloc((size_t)w->B * sizeof(double));
	w->boot_reach = malloc((size_t)w->B * sizeof(double));
	w->mult = calloc((size_t)w->nblocks + 1, sizeof(int));
	if (!w->costs || !w->stays || !w->other_costs || !w->boot_rise || !w->boot_rise_by ||
	    !w->boot_corunner || !w->boot_reach || !w->mult)
		return -ENOMEM;
	for (int c = 0; c < w->ncurves; c++) {
		w->curve[c].boot_at = malloc((size_t)w->B * sizeof(double));
		w->curve[c].boot_max = malloc((size_t)w->B * sizeof(double));
		if (!w->curve[c].boot_at || !w->curve[c].boot_max)
			return -ENOMEM;
	}
	for (int b = 0; b < w->B; b++) {
		double *cost = &w->costs[(size_t)b * nc];

		memset(w->mult, 0, sizeof(int) * (size_t)w->nblocks);
		for (int k = 0; k < w->nblocks; k++)
			w->mult[rnd(&seed) % (uint64_t)w->nblocks]++;
		double *stay = &w->stays[(size_t)b * nc];

		for (int c = 0; c < nc; c++) {
			stay[c] = resampled_arm(w, c, ARM_STAY, &err);
			cost[c] = resampled_arm(w, c, ARM_MIG, &err) - stay[c];
			w->other_costs[(size_t)b * nc + c] = resampled_arm(w, c, ARM_OTHER, &err) -
							     stay[c];
		}
		if (err)
			return err;
		eval_curves(w, cost, b);
		if (w->r->axis == CORR_AXIS_AGE) {
			double at = NAN, first, last, raw, rat = NAN;
			enum corr_hot_state rst, st = stay_rise(w, stay, &at, &first, &last, &raw,
								&rst, &rat);

			w->boot_rise[b] = out_of_range(w, st, at);
			w->boot_rise_by[b] = raw;
			w->boot_reach[b] = out_of_range(w, rst, rat);
		}
		w->boot_corunner[b] = corunner_rate(w, w->mult, NULL);
	}
	return 0;
}

/* A cell's interval at the run's level (95 %) from its resampled values, the non-finite
 * left out. */
static void cell_interval(struct corr_work *w, const double *boot, int c, double *lo,
			  double *hi)
{
	int nc = w->r->ncells;
	size_t k = 0;

	for (int b = 0; b < w->B; b++)
		if (isfinite(boot[(size_t)b * nc + c]))
			w->tmp[k++] = boot[(size_t)b * nc + c];
	*lo = k ? quantile_sorted_inplace(w->tmp, k, (1 - w->o->level) / 2) : NAN;
	*hi = k ? quantile_sorted_inplace(w->tmp, k, (1 + w->o->level) / 2) : NAN;
}

/*
 * Each cell's 95 % intervals; a cost whose interval lies wholly below 0 is a bias, not a
 * cache that got warmer: the arms differ in something else (docs/design.md, "Which moves
 * are evidence"), and its curve gives no verdict.
 */
static void cell_intervals(struct corr_work *w)
{
	struct corr_result *r = w->r;

	for (int c = 0; c < r->ncells; c++) {
		struct corr_cell *cl = &r->cells[c];

		cell_interval(w, w->costs, c, &cl->cost_lo_ns, &cl->cost_hi_ns);
		cell_interval(w, w->other_costs, c, &cl->cost_other_lo_ns, &cl->cost_other_hi_ns);
		r->bias_cells += cl->cost_hi_ns < 0;
		r->bias_other_cells += cl->cost_other_hi_ns < 0;
	}
}

/* The percentile interval at the run's level (95 %) of v[0..n) that are not NAN, into lo
 * and hi. */
static void percentile_interval(const struct corr_work *w, const double *v, int n, double *lo,
				double *hi)
{
	size_t k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			w->tmp[k++] = v[i];
	*lo = k ? quantile_sorted_inplace(w->tmp, k, (1 - w->o->level) / 2) : NAN;
	*hi = k ? quantile_sorted_inplace(w->tmp, k, (1 + w->o->level) / 2) : NAN;
}

/*
 * One curve's result: the fall on the point estimates, its interval from the resamples.  A
 * fitted maximum that is not above 0 in at least 97.5 % of the resamples (at a level of 95 %;
 * (1 + level) / 2 at another) is no cost at all;
 * interval ends beyond the range become the grid's edge (0 or +inf).
 */
static void read_fall(struct corr_work *w, struct curve *cv, double *fit)
{
	struct corr_fall *f = cv->out;
	double cost[CORR_MAX_CELLS], max_lo, max_hi, bracket[2] = { NAN, NAN };

	for (int c = 0; c < w->r->ncells; c++)
		cost[c] = w->r->cells[c].cost_ns;
	f->state = curve_fall(cv, cost, w->r->cold_fraction, w->r->floor_ns, &f->at,
			      &f->max_cost_ns, &f->min_cost_ns, fit, bracket);
	if (f->state == CORR_HOT_NO_DATA) {
		f->at = f->lo = f->hi = NAN;
		return;
	}
	percentile_interval(w, cv->boot_max, w->B, &max_lo, &max_hi);
	if (f->state != CORR_HOT_NO_COST && !(max_lo > 0)) {
		f->state = CORR_HOT_NO_COST;
		f->at = cv->x[0];
	}
	percentile_interval(w, cv->boot_at, w->B, &f->lo, &f->hi);
	/* a resample beyond the range says only that: past the last x, or before the first */
	f->lo = fmin(f->lo, cv->x[cv->n - 1]);
	f->hi = fmax(f->hi, cv->x[0]);
	if (f->state == CORR_HOT_FOUND) {
		/* the interval is about the estimate, which is known to lie between the two cells
		 * around it: it always contains them */
		f->lo = fmin(f->lo, bracket[0]);
		f->hi = fmax(f->hi, bracket[1]);
	}
	if (f->state == CORR_HOT_NO_COST || !(f->lo >= cv->x[0]))
		f->lo = 0;
	if (f->state == CORR_HOT_ABOVE || !(f->hi <= cv->x[cv->n - 1]))
		f->hi = INFINITY;
	if (f->state == CORR_HOT_NO_COST)
		f->hi = fmax(f->hi, f->at);
}

/*
 * Where the refill comes from (docs/design.md, "Displaced bytes"): when the
 * polluter's whole buffer removes all but a residual of the cost, what a migration loses is
 * what the polluter evicts, a cache each CPU keeps to itself while the pair shares the next
 * one; when most of the cost remains, the migration refills from beyond what the polluter
 * reaches.  The costs per line of the working set are kept beside it: the fit's maximum,
 * and a stay's penalty in the cells at full displacement at their shortest age.
 */
static void regime(struct corr_work *w)
{
	struct corr_result *r = w->r;
	double lines = r->ws_bytes / 64, age = INFINITY;

	r->regime = CORR_REGIME_UNKNOWN;
	r->refill_line_ns = r->stay_line_ns = NAN;
	if (!(lines > 0) || !(r->max_cost_ns > 0))
		return;
	r->refill_line_ns = r->max_cost_ns / lines;
	for (int c = 0; c < r->ncells; c++) {
		const struct corr_cell *cl = &r->cells[c];

		if (cl->displaced_bytes >= CORR_CAPPED * r->footprint_bytes && cl->age_ns < age) {
			age = cl->age_ns;
			r->stay_line_ns = fmax(cl->pen_stay_ns, 0) / lines;
		}
	}
	if (w->capped < 0)
		return;
	r->regime = w->use_floor ? CORR_REGIME_SHARED : CORR_REGIME_BEYOND;
}

/* The stayed arm's reach of the level asked for, and its interval (edges as read_fall's). */
static void read_stay_reach(struct corr_work *w)
{
	struct corr_fall *f = &w->r->stay_reach;
	const struct curve *cv = &w->stay;

	if (f->state == CORR_HOT_NO_DATA) {
		f->at = f->lo = f->hi = NAN;
		return;
	}
	f->max_cost_ns = w->o->stay_level_ns;
	f->min_cost_ns = NAN;
	percentile_interval(w, w->boot_reach, w->B, &f->lo, &f->hi);
	f->lo = fmin(fmin(f->lo, cv->x[cv->n - 1]), f->at);
	f->hi = fmax(fmax(f->hi, cv->x[0]), f->at);
	if (f->state == CORR_HOT_NO_COST || !(f->lo >= cv->x[0]))
		f->lo = 0;
	if (f->state == CORR_HOT_ABOVE || !(f->hi <= cv->x[cv->n - 1]))
		f->hi = INFINITY;
}

/* The stayed arm's rise and its interval from the resamples (edges as read_fall's). */
static void read_stay_decay(struct corr_work *w)
{
	struct corr_fall *f = &w->r->stay_decay;
	const struct curve *cv = &w->stay;
	double stay[CORR_MAX_CELLS], by_lo, by_hi, raw;

	for (int c = 0; c < w->r->ncells; c++)
		stay[c] = w->r->cells[c].pen_stay_ns;
	/* the fit's ends: min_cost at the first age, max_cost at the last (the plateau) */
	f->state = stay_rise(w, stay, &f->at, &f->min_cost_ns, &f->max_cost_ns, &raw,
			     &w->r->stay_reach.state, &w->r->stay_reach.at);
	read_stay_reach(w);
	if (f->state == CORR_HOT_NO_DATA) {
		f->at = f->lo = f->hi = NAN;
		return;
	}
	/* a rise from the first age to the last not above 0 in 97.5 % of the resamples is
	 * noise: no rise */
	percentile_interval(w, w->boot_rise_by, w->B, &by_lo, &by_hi);
	if (!(by_lo > 0)) {
		f->state = CORR_HOT_NO_COST;
		f->at = cv->x[0];
	}
	percentile_interval(w, w->boot_rise, w->B, &f->lo, &f->hi);
	f->lo = fmin(f->lo, cv->x[cv->n - 1]);
	f->hi = fmax(f->hi, cv->x[0]);
	if (f->state == CORR_HOT_FOUND) {
		f->lo = fmin(f->lo, f->at);
		f->hi = fmax(f->hi, f->at);
	}
	if (f->state == CORR_HOT_NO_COST || !(f->lo >= cv->x[0]))
		f->lo = 0;
	if (f->state == CORR_HOT_ABOVE || !(f->hi <= cv->x[cv->n - 1]))
		f->hi = INFINITY;
}

/* The natural co-runner's measured rate and its interval from the resamples. */
static void read_corunner(struct corr_work *w)
{
	struct corr_result *r = w->r;

	r->corunner_mbps = corunner_rate(w, NULL, &r->corunner_wakes);
	if (!r->corunner_wakes)
		return;
	percentile_interval(w, w->boot_corunner, w->B, &r->corunner_lo_mbps,
			    &r->corunner_hi_mbps);
}

/* Every curve's fall; the pooled fit goes into the cells; the rates' agreement. */
static void read_falls(struct corr_work *w)
{
	struct corr_result *r = w->r;
	const struct corr_fall *pooled = &w->by_age;
	double fit[CORR_MAX_CELLS], lo = 0, hi = INFINITY;

	double cost[CORR_MAX_CELLS];

	/* the residual cost first: what the others fall toward */
	for (int c = 0; c < r->ncells; c++)
		cost[c] = r->cells[c].cost_ns;
	r->floor_ns = residual(w, cost);
	for (int k = 0; k < w->ncurves; k++)
		read_fall(w, &w->curve[k], k ? NULL : fit);
	for (int i = 0; i < w->curve[0].n; i++)
		r->cells[w->curve[0].cell[i]].fit_cost_ns = fit[i];
	r->max_cost_ns = w->curve[0].out->max_cost_ns;
	r->max_cell = w->curve[0].n ? w->curve[0].cell[0] : 0;
	if (r->axis == CORR_AXIS_AGE) {
		read_stay_decay(w);
		read_corunner(w);
		r->hot_state = pooled->state;
		r->hot_ns = pooled->at;
		r->hot_lo_ns = pooled->lo;
		r->hot_hi_ns = pooled->hi;
		return;
	}
	/* one rate: its age curve is the run's hot time; more: no one age is */
	r->hot_state = CORR_HOT_NO_DATA;
	r->hot_ns = r->hot_lo_ns = r->hot_hi_ns = NAN;
	if (r->nrates == 1) {
		r->hot_state = r->rates[0].hot.state;
		r->hot_ns = r->rates[0].hot.at;
		r->hot_lo_ns = r->rates[0].hot.lo;
		r->hot_hi_ns = r->rates[0].hot.hi;
	}
	/* the rates agree when one D lies in every rate's interval, and two fell inside their
	 * range (intervals open at the edges agree with anything) */
	for (int k = 0; k < r->nrates; k++) {
		if (r->rates[k].dstar.state == CORR_HOT_NO_DATA)
			continue;
		r->rates_found += r->rates[k].dstar.state == CORR_HOT_FOUND;
		lo = fmax(lo, r->rates[k].dstar.lo);
		hi = fmin(hi, r->rates[k].dstar.hi);
	}
	r->rates_agree = r->rates_found > 1 && lo <= hi;
	regime(w);
}

/* What migrations cost this run, and against the slice that followed them. */
static void run_cost(struct corr_work *w)
{
	struct corr_result *r = w->r;
	size_t k = 0;

	for (size_t i = 0; i < w->ns; i++) {
		const struct sample *s = &w->smp[i];
		const struct corr_cell *cl;
		double cost;

		if (s->arm == ARM_STAY || s->cell < 0)
			continue;
		cl = &r->cells[s->cell];
		cost = s->arm == ARM_MIG ? cl->cost_ns : cl->cost_other_ns;
		r->lost_ns += cost > 0 ? cost : 0;
		if (s->slice_ns > 0)
			w->tmp[k++] = s->penalty_ns / s->slice_ns;
	}
	/* controlled: the slice after an event is one unit, so the share is fixed by design */
	r->cost_frac_slice = k && r->mode == CORR_NATURAL ? median_inplace(w->tmp, k) : NAN;
}

int correlate_units(const struct mt_unit *units, size_t n, const struct corr_opts *o,
		    struct corr_result *r)
{
	struct corr_work w = { .o = o, .r = r, .B = o->bootstrap > 0 ? o->bootstrap : 1,
			       .capped = -1 };
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->mode = o->mode;
	r->cold_fraction = o->cold_fraction;
	r->level = o->level;
	r->n_units = n;
	r->hot_state = CORR_HOT_NO_DATA;
	r->hot_ns = r->hot_lo_ns = r->hot_hi_ns = NAN;
	r->dstar.state = r->capped.state = CORR_HOT_NO_DATA;
	r->dstar.at = r->dstar.lo = r->dstar.hi = r->dstar.max_cost_ns = NAN;
	r->dstar.min_cost_ns = NAN;
	r->capped = r->stay_decay = r->stay_reach = r->dstar;
	r->refill_line_ns = r->stay_line_ns = NAN;
	r->corunner_mbps = r->corunner_lo_mbps = r->corunner_hi_mbps = NAN;
	r->bootstrap = w.B;
	r->footprint_bytes = o->footprint_bytes;
	r->ws_bytes = o->ws_bytes;
	r->cost_frac_slice = NAN;
	if (!n)
		return 0;
	err = work_alloc(&w, units, n);
	if (!err)
		err = index_pulls(&w);
	if (err)
		goto cleanup;
	if (age_buckets(o->mode))
		natural_cells(&w);
	collect_samples(&w);
	sort_cells(&w);
	estimate_cells(&w);
	drop_empty_cells(&w);
	if (!r->ncells)
		goto cleanup;
	index_samples(&w);
	r->blocks = w.nblocks;
	lay_out_curves(&w);
	decide_floor(&w);
	err = bootstrap(&w);
	if (err)
		goto cleanup;
	cell_intervals(&w);
	read_falls(&w);
	run_cost(&w);
cleanup:
	work_free(&w);
	return err;
}

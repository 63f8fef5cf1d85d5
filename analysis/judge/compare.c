// SPDX-License-Identifier: GPL-2.0
/* Two runs' numbers side by side, each with its own interval (compare.h). */
#include <math.h>
#include <string.h>

#include "analyze.h"
#include "compare.h"
#include "correlate.h"

#define Z95 1.959963984540054	/* the standard normal's 97.5 % quantile */

struct cmp_share cmp_wilson(uint64_t count, uint64_t total)
{
	struct cmp_share s = { .count = count, .total = total };
	double n = (double)total, p, z2 = Z95 * Z95, mid, half;

	if (!total) {
		s.share = NAN;
		s.lo = 0;
		s.hi = 1;	/* nothing measured: any share is possible */
		return s;
	}
	p = (double)count / n;
	mid = (p + z2 / (2 * n)) / (1 + z2 / n);
	half = Z95 * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
	s.share = p;
	s.lo = fmax(0, mid - half);
	s.hi = fmin(1, mid + half);
	return s;
}

static bool apart(double alo, double ahi, double blo, double bhi)
{
	return ahi < blo || bhi < alo;
}

static struct cmp_pair shares(uint64_t ka, uint64_t na, uint64_t kb, uint64_t nb)
{
	struct cmp_pair p = { .a = cmp_wilson(ka, na), .b = cmp_wilson(kb, nb) };

	p.differs = na && nb && apart(p.a.lo, p.a.hi, p.b.lo, p.b.hi);
	return p;
}

static uint64_t hist_sum(const struct run *r, int slot)
{
	uint64_t n = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		n += r->hists.age[c][slot];
	return n;
}

/* The observed hot time as an interval, open where it lies outside the measured ages. */
static struct cmp_value hot_time(const struct run *r)
{
	const struct corr_result *c = &r->corr;
	struct cmp_value v = { 0 };

	if (!r->has_corr || !c->ncells || c->hot_state == CORR_HOT_NO_DATA)
		return v;
	v.known = true;
	v.est = c->hot_ns;
	switch (c->hot_state) {
	case CORR_HOT_ABOVE:
		v.lo = corr_cell_age(c, c->ncells - 1);
		v.hi = INFINITY;
		break;
	case CORR_HOT_NO_COST:
		v.lo = 0;
		v.hi = corr_cell_age(c, 0);
		break;
	default:
		v.lo = c->hot_lo_ns;
		v.hi = c->hot_hi_ns;
	}
	return v;
}

static struct cmp_value cell_cost(const struct corr_cell *c)
{
	/* a cell with one arm has no cost */
	struct cmp_value v = { .known = isfinite(c->cost_ns), .est = c->cost_ns,
			       .lo = c->cost_lo_ns, .hi = c->cost_hi_ns };

	return v;
}

/* D* as an interval, open where it lies outside the displacements measured. */
static struct cmp_value dstar(const struct run *r)
{
	const struct corr_fall *d = &r->corr.dstar;
	struct cmp_value v = { 0 };

	if (!r->has_corr || r->corr.axis != CORR_AXIS_DISPLACED || d->state == CORR_HOT_NO_DATA)
		return v;
	v.known = true;
	v.est = d->at;
	v.lo = d->lo > 0 ? d->lo : 0;
	v.hi = isfinite(d->hi) ? d->hi : INFINITY;
	return v;
}

/* Two rates are the same cell's: equal, or both not a grid's. */
static bool same_rate(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

/* The cell of age age_ns (and rate, in a grid) in r, or NULL. */
static const struct corr_cell *cell_at(const struct run *r, double age_ns, double rate)
{
	for (int i = 0; r->has_corr && i < r->corr.ncells; i++)
		if (r->corr.cells[i].age_ns == age_ns &&
		    same_rate(r->corr.cells[i].rate_mbps, rate))
			return &r->corr.cells[i];
	return NULL;
}

static void add_cell(struct run_compare *c, double age_ns, double rate, bool natural)
{
	const struct corr_cell *x = cell_at(c->a, age_ns, rate), *y = cell_at(c->b, age_ns, rate);
	struct cmp_cell *k;

	for (int i = 0; i < c->ncells; i++)
		if (c->cells[i].age_ns == age_ns && same_rate(c->cells[i].rate_mbps, rate))
			return;
	k = &c->cells[c->ncells++];
	memset(k, 0, sizeof(*k));
	k->age_ns = age_ns;
	k->rate_mbps = rate;
	k->natural = natural;
	if (x)
		k->a = cell_cost(x);
	if (y)
		k->b = cell_cost(y);
	k->differs = x && y && apart(k->a.lo, k->a.hi, k->b.lo, k->b.hi);
}

/* a before b: by rate (not a grid's first), then age */
static bool cell_before(const struct cmp_cell *a, const struct cmp_cell *b)
{
	if (!same_rate(a->rate_mbps, b->rate_mbps))
		return isnan(a->rate_mbps) || (!isnan(b->rate_mbps) && a->rate_mbps < b->rate_mbps);
	return a->age_ns < b->age_ns;
}

/*
 * Cells matched by age (a natural bucket by its lower edge) and, in a grid, polluter rate
 * (a cell of a run without the rate matches only one without it), in order of rate, age.
 */
static void cells(struct run_compare *c)
{
	const struct run *runs[2] = { c->a, c->b };

	for (int k = 0; k < 2; k++)
		for (int i = 0; runs[k]->has_corr && i < runs[k]->corr.ncells; i++)
			add_cell(c, runs[k]->corr.cells[i].age_ns,
				 runs[k]->corr.cells[i].rate_mbps,
				 runs[k]->corr.mode == CORR_NATURAL);
	for (int i = 1; i < c->ncells; i++)
		for (int j = i; j > 0 && cell_before(&c->cells[j], &c->cells[j - 1]); j--) {
			struct cmp_cell t = c->cells[j];

			c->cells[j] = c->cells[j - 1];
			c->cells[j - 1] = t;
		}
}

/* A natural run's stayed-arm age as an interval, open where it lies outside. */
static struct cmp_value stay_decay(const struct corr_fall *f)
{
	struct cmp_value v = { .known = f->state != CORR_HOT_NO_DATA, .est = f->at,
			       .lo = f->lo > 0 ? f->lo : 0,
			       .hi = isfinite(f->hi) ? f->hi : INFINITY };

	return v;
}

/* Whether r is a natural run whose co-runner's rate was measured. */
static bool measured_corunner(const struct run *r)
{
	return r->has_corr && r->corr.mode == CORR_NATURAL && r->corr.corunner_wakes &&
	       r->corr.corunner_mbps > 0;
}

/*
 * When the grid's rates disagree (their D* intervals share no value: something besides the
 * polluter decays the cache, over time), D* depends on the rate: the D* of the rate whose
 * achieved rate is nearest the co-runner's (on a log scale) stands for it, when bounded.
 */
static void nearest_rate(struct cmp_predict *p, double mbps)
{
	const struct corr_result *g = &p->grid->corr;
	double best = INFINITY;

	p->by_rate = -1;
	if (g->rates_agree || g->nrates < 2)
		return;
	for (int k = 0; k < g->nrates; k++) {
		const struct corr_fall *d = &g->rates[k].dstar;
		double dist = fabs(log(g->rates[k].achieved_mbps / mbps));

		if (d->state != CORR_HOT_FOUND || !(d->lo > 0) || !isfinite(d->hi) ||
		    !(dist < best))
			continue;
		best = dist;
		p->by_rate = k;
	}
	if (p->by_rate < 0)
		return;
	p->dstar = (struct cmp_value){ .known = true, .est = g->rates[p->by_rate].dstar.at,
				       .lo = g->rates[p->by_rate].dstar.lo,
				       .hi = g->rates[p->by_rate].dstar.hi };
}

/* A grid's D* over a natural run's measured co-runner rate (struct cmp_predict). */
static void predict(const struct run *a, const struct run *b, struct cmp_predict *p)
{
	const struct corr_result *n;
	struct corr_fall reach;

	p->grid = dstar(a).known && measured_corunner(b) ? a :
		  dstar(b).known && measured_corunner(a) ? b : NULL;
	if (!p->grid)
		return;
	p->natural = p->grid == a ? b : a;
	n = &p->natural->corr;
	p->regime = p->grid->corr.regime;
	p->grid_cost_ns = p->grid->corr.max_cost_ns;
	p->dstar = dstar(p->grid);
	p->rate = (struct cmp_value){ .known = true, .est = n->corunner_mbps,
				      .lo = n->corunner_lo_mbps, .hi = n->corunner_hi_mbps };
	nearest_rate(p, n->corunner_mbps);
	p->state = CMP_PREDICT_UNBOUNDED;
	if (!(p->dstar.lo > 0) || !isfinite(p->dstar.hi) || !(p->rate.lo > 0))
		return;
	p->state = CMP_PREDICT_DONE;
	/* D* is where the cost has fallen 1 - cold of the way from its maximum to the residual:
	 * where a stay has come to cost that much more than at the first age */
	p->level_ns = (1 - p->grid->corr.cold_fraction) *
		      (p->grid->corr.max_cost_ns - fmax(p->grid->corr.floor_ns, 0));
	if (run_stay_reach(p->natural, p->level_ns, &reach))
		reach.state = CORR_HOT_NO_DATA;
	p->reach_state = reach.state;
	p->observed = stay_decay(&reach);
	/* bytes / (MB/s) = bytes / (1e-3 bytes/ns): x 1e3 gives ns */
	p->predicted = (struct cmp_value){ .known = true, .est = p->dstar.est / p->rate.est * 1e3,
					   .lo = p->dstar.lo / p->rate.hi * 1e3,
					   .hi = p->dstar.hi / p->rate.lo * 1e3 };
	p->within = reach.state == CORR_HOT_FOUND && p->observed.est >= p->predicted.lo &&
		    p->observed.est <= p->predicted.hi;
	p->ratio = reach.state == CORR_HOT_FOUND ? p->observed.est / p->predicted.est : NAN;
}

void run_compare(const struct run *a, const struct run *b, struct run_compare *c)
{
	uint64_t ta = run_total_migrations(a), tb = run_total_migrations(b);

	memset(c, 0, sizeof(*c));
	c->a = a;
	c->b = b;
	for (int k = 0; k < MT_NR_CAUSES; k++)
		c->cause[k] = shares(a->stats.migrations[k], ta, b->stats.migrations[k], tb);
	c->slot_lo = MT_HIST_SLOTS;
	c->slot_hi = -1;
	for (int s = 0; s < MT_HIST_SLOTS; s++) {
		uint64_t x = hist_sum(a, s), y = hist_sum(b, s);

		c->age[s] = shares(x, ta, y, tb);
		if (x || y) {
			c->slot_lo = s < c->slot_lo ? s : c->slot_lo;
			c->slot_hi = s;
		}
	}
	cells(c);
	c->hot_a = hot_time(a);
	c->hot_b = hot_time(b);
	c->hot_differs = c->hot_a.known && c->hot_b.known &&
			 apart(c->hot_a.lo, c->hot_a.hi, c->hot_b.lo, c->hot_b.hi);
	c->dstar_a = dstar(a);
	c->dstar_b = dstar(b);
	c->dstar_differs = c->dstar_a.known && c->dstar_b.known &&
			   apart(c->dstar_a.lo, c->dstar_a.hi, c->dstar_b.lo, c->dstar_b.hi);
	predict(a, b, &c->predict);
}

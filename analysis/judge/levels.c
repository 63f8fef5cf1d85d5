// SPDX-License-Identifier: GPL-2.0
/*
 * The refill cost per topology level (docs/design.md, "Topology levels").  A natural run's
 * units are correlated again once per level that has pulls: the units after a pull of
 * another level are relabelled as another kind of move (measured, not evidence, as the
 * wakeup placements are), so the level's own pulls are the migrated arm and every same-CPU
 * wake is the control.  The verdict is then decided on that correlation as on the whole run,
 * with its minimum of judged pulls: a level with fewer says undetermined, and why.  When one
 * level holds every pull, its correlation is the run's own and is not made twice.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate.h"
#include "levels.h"
#include "unit.h"
#include "verdict.h"
#include "wait.h"

/* The level of the move before unit u, as the run's topology classes it. */
static unsigned unit_level(const struct run *r, const struct mt_unit *u)
{
	return run_topo_level(&r->topo, u->mig_src_cpu, u->mig_dst_cpu);
}

/* Follows a load-balancer pull (unit.h's words): the correlation's evidence. */
static bool pull_unit(const struct mt_unit *u)
{
	return unit_migrated(u) && u->mig_cause == MT_CAUSE_LB_PULL;
}

void levels_summarize(const struct corr_result *c, const struct verdict *v,
		      struct run_level_cost *lc)
{
	lc->pulls = c->n_mig_events;
	lc->judged = v->judged;
	lc->min_judged = v->min_judged;
	lc->kind = v->kind;
	lc->bias = v->bias;
	lc->hot_state = c->hot_state;
	lc->hot_ns = c->hot_ns;
	lc->factor = v->factor;
	lc->factor_lo = v->factor_lo;
	lc->factor_hi = v->factor_hi;
	lc->factor_is_bound = v->factor_is_bound;
	lc->tstar_state = v->tstar_state;
	lc->tstar_ns = v->tstar_ns;
	lc->tstar_lo_ns = v->tstar_lo_ns;
	lc->tstar_hi_ns = v->tstar_hi_ns;
	lc->cells = 0;
	lc->age_ns = lc->age_hi_ns = lc->cost_ns = lc->cost_lo_ns = lc->cost_hi_ns = NAN;
	lc->cell_pulls = 0;
	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];

		if (!cl->n_mig || !cl->n_stay)
			continue;
		if (!lc->cells++) {
			lc->age_ns = cl->age_ns;
			lc->age_hi_ns = cl->age_hi_ns;
			lc->cell_pulls = cl->n_mig;
			lc->cost_ns = cl->cost_ns;
			lc->cost_lo_ns = cl->cost_lo_ns;
			lc->cost_hi_ns = cl->cost_hi_ns;
		}
	}
}

/* One level's correlation and verdict, from the units relabelled for it (work). */
static int judge_level(struct run *r, unsigned level, struct mt_unit *work)
{
	struct corr_result *c = malloc(sizeof(*c));
	struct corr_opts co;
	struct verdict v;
	int err = -ENOMEM;

	if (!c)
		return err;
	memcpy(work, r->units, r->nunits * sizeof(*work));
	for (size_t i = 0; i < r->nunits; i++)
		if (pull_unit(&work[i]) && unit_level(r, &work[i]) != level)
			work[i].mig_cause = MT_CAUSE_UNKNOWN;
	corr_default_opts(&co, CORR_NATURAL);
	co.migs = r->recs;
	co.nmigs = r->nrecs;
	co.cold_fraction = r->setup.cold_fraction;
	co.bootstrap = r->setup.bootstrap;
	if (r->setup.cachewalk)
		co.ws_bytes = (double)r->setup.cw.ws_bytes;
	err = correlate_units(work, r->nunits, &co, c);
	if (!err) {
		struct verdict_in vin = {
			.corr = c, .kernel_ns = (double)r->meta.hot_ns, .migs = r->recs,
			.nmigs = r->nrecs,
		};

		verdict_decide(&vin, &v);
		wait_decide(r, c, &v, (int)level);
		levels_summarize(c, &v, &r->level_cost[level]);
	}
	free(c);
	return err;
}

int levels_cost(struct run *r)
{
	uint64_t pulls[MT_NR_LEVELS] = { 0 }, all = 0;
	struct mt_unit *work = NULL;
	int err = 0;

	r->has_level_cost = false;
	if (r->setup.mode != CORR_NATURAL || !r->has_levels || !r->has_corr || !r->nunits)
		return 0;
	for (size_t i = 0; i < r->nunits; i++) {
		if (!pull_unit(&r->units[i]))
			continue;
		pulls[unit_level(r, &r->units[i])]++;
		all++;
	}
	for (unsigned l = 0; l < MT_NR_LEVELS && !err; l++) {
		struct run_level_cost *lc = &r->level_cost[l];

		memset(lc, 0, sizeof(*lc));
		lc->factor = lc->factor_lo = lc->factor_hi = lc->hot_ns = NAN;
		lc->age_ns = lc->age_hi_ns = lc->cost_ns = lc->cost_lo_ns = lc->cost_hi_ns = NAN;
		lc->hot_state = lc->tstar_state = CORR_HOT_NO_DATA;
		lc->tstar_ns = lc->tstar_lo_ns = lc->tstar_hi_ns = NAN;
		lc->min_judged = r->verdict.min_judged;
		if (!pulls[l])
			continue;
		if (pulls[l] == all) {
			/* every pull is of this level: the run's own correlation and verdict */
			levels_summarize(&r->corr, &r->verdict, lc);
			continue;
		}
		if (!work && !(work = malloc(r->nunits * sizeof(*work))))
			err = -ENOMEM;
		else
			err = judge_level(r, l, work);
	}
	free(work);
	r->has_level_cost = !err;
	return err;
}

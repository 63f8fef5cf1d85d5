// SPDX-License-Identifier: GPL-2.0
/*
 * What if the threshold had been T: for each T, the load-balancer pulls the kernel would have
 * called hot (the kernel's rule, MT_RULE_HOT: the tests before the age as each record's flags
 * and level say, then its kernel age against T), the wakeup placements younger
 * than T (the wakeup path never asks, but these are the moves T would be about), and the
 * refill cost the correlation measured for migrations younger than T.  An estimate from this
 * run's records: a different threshold would have changed what the scheduler did, so these
 * are the moves this run made, judged again, not a run at T.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatif.h"

/* Where t is among the thresholds tally counted at. */
static int tally_index(const struct run_tally *tally, int64_t t)
{
	for (int i = 0; i < tally->nthresholds; i++)
		if (tally->threshold_ns[i] == t)
			return i;
	/* a reader that dropped the records was not given t: a caller's bug, not the file's */
	fprintf(stderr, "migtrace: what-if threshold %lld ns was not counted as the records "
		"were read (a bug)\n", (long long)t);
	abort();
}

void whatif_compute(const struct run *r, const int64_t *t_ns, int n, struct whatif *w)
{
	const struct run_tally *tally = &r->tally;
	struct run_tally own;

	memset(w, 0, sizeof(*w));
	w->n = n < WHATIF_MAX ? n : WHATIF_MAX;
	w->records_complete = !r->stats.rb_dropped && !r->recs_not_kept;
	w->pulls_not_read = run_replayed(r);
	/* the records in hand are counted now; a report that kept none counted them as it
	 * read them (run_file.h), at these thresholds */
	if (!r->tally.records_dropped) {
		run_tally_init(&own, t_ns, w->n);
		for (size_t k = 0; k < r->nrecs; k++)
			run_tally_migration(&own, &r->recs[k], r->meta.hot_ns);
		tally = &own;
	}
	memcpy(w->lb_rule, tally->lb_rule, sizeof(w->lb_rule));
	for (int i = 0; i < w->n; i++) {
		struct whatif_row *row = &w->row[i];
		int64_t t = t_ns[i];
		int k = tally_index(tally, t);

		row->threshold_ns = t;
		row->lb_judged = tally->lb_judged;
		row->lb_hot = tally->lb_hot[k];
		row->wakeups = tally->by_cause[MT_CAUSE_WAKEUP];
		row->wakeup_hot = tally->wakeup_hot_at[k];
		if (!r->has_corr)
			continue;
		/* the cost as the correlation's lost_ns counts it: each migrated unit at its
		 * cell's cost, negative costs (noise) as 0; a cell is younger than T when the
		 * age it stands for is, compared as a double: a run file's age past 2^63 ns
		 * made an int64_t is undefined (it came out as INT64_MIN, hot at every T) */
		row->has_cost = true;
		for (int c = 0; c < r->corr.ncells; c++) {
			const struct corr_cell *cl = &r->corr.cells[c];

			if (!MT_TASK_HOT(corr_cell_age(&r->corr, c), (double)t))
				continue;
			row->cost_cells++;
			row->cost_units += cl->n_mig;
			if (isfinite(cl->cost_ns) && cl->cost_ns > 0)
				row->cost_ns += (double)cl->n_mig * cl->cost_ns;
		}
	}
}

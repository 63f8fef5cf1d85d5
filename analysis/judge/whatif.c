// SPDX-License-Identifier: GPL-2.0
/*
 * What if the threshold had been T: for each T, the load-balancer pulls the kernel would have
 * called hot (task_hot()'s rule over the records' kernel age), the wakeup placements younger
 * than T (the wakeup path never asks, but these are the moves T would be about), and the
 * refill cost the correlation measured for migrations younger than T.  An estimate from this
 * run's records: a different threshold would have changed what the scheduler did, so these
 * are the moves this run made, judged again, not a run at T.
 */
#include <math.h>
#include <string.h>

#include "whatif.h"

void whatif_compute(const struct run *r, const int64_t *t_ns, int n, struct whatif *w)
{
	memset(w, 0, sizeof(*w));
	w->n = n < WHATIF_MAX ? n : WHATIF_MAX;
	w->records_complete = !r->stats.rb_dropped && !r->recs_not_kept;
	for (int i = 0; i < w->n; i++) {
		struct whatif_row *row = &w->row[i];
		int64_t t = t_ns[i];

		row->threshold_ns = t;
		for (size_t k = 0; k < r->nrecs; k++) {
			const struct mt_migrate *m = &r->recs[k];

			if (m->cause == MT_CAUSE_LB_PULL && (m->flags & MT_RF_KAGE_VALID)) {
				row->lb_judged++;
				row->lb_hot += MT_TASK_HOT(m->kernel_age_ns, t);
			} else if (m->cause == MT_CAUSE_WAKEUP) {
				row->wakeups++;
				row->wakeup_hot += MT_TASK_HOT((int64_t)m->age_ns, t);
			}
		}
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The judge of run --probe-moves (probe_judge.h).
 *
 * Which unit a moment measures.  With units: the thread's first unit that starts after the
 * moment, copied into the probed units.  Without: the run BPF recorded for the moment
 * (bpf/migtrace.h, MT_REC_PROBE_UNIT).
 * Either is a sample only if the off-CPU period it ends began before the moment: the thread
 * was asleep when it was drawn, which the mover checked but could not hold still.  The rule
 * is the same for both arms, so a moment is void or not whatever the coin said.  Then a move
 * whose unit does not follow a move was not run (its thread slept past the hold) and a sham
 * whose unit follows a move of the kernel's is left out, each counted: the arms compare a
 * move made with a move not made.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "correlate.h"
#include "levels.h"
#include "probe_judge.h"
#include "unit.h"
#include "verdict.h"
#include "wait.h"

/* The first unit of tid starting after ts_ns, in units sorted by unit_cmp_thread_start; NULL if none. */
static const struct mt_unit *unit_after(const struct mt_unit *u, size_t n, uint32_t tid,
					uint64_t ts_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (u[mid].pid < tid || (u[mid].pid == tid && u[mid].start_ns <= ts_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && u[lo].pid == tid ? &u[lo] : NULL;
}

/*
 * Whether unit x measures a moment at ts_ns of kind, counted in pr when not; a sample's tag
 * is then set to the arm.
 */
static bool probe_sample(const struct mt_unit *x, uint64_t ts_ns, uint32_t kind,
			 bool by_runs, struct probe_result *pr, struct mt_unit *out)
{
	/*
	 * The thread was between units at the moment: a run's off-CPU period began before it
	 * (start - off is when it began: a run starts at its switch-in); a unit's thread had
	 * ended its previous unit before it, and was switched out since (a unit's last off-CPU
	 * period may be a preemption after the wake, which began after the moment although the
	 * thread slept through it).
	 */
	if (unit_clean_before(x) || !x->last_off_ns ||
	    (by_runs ? x->start_ns - x->last_off_ns > ts_ns : x->prev_end_ns >= ts_ns)) {
		pr->awake++;
		return false;
	}
	/* a move's mask comes back after PROBE_HOLD_MAX_NS: a thread asleep longer was not
	 * moved, so in both arms a unit starting later measures nothing */
	if (x->start_ns > ts_ns + PROBE_HOLD_MAX_NS) {
		pr->late++;
		return false;
	}
	if (!unit_clean_inside(x)) {
		pr->spanning++;
		return false;
	}
	/* the kernel moved the thread before the moment (a sham's last move is before it; a
	 * move's, the probe's, came after another): its cache was not where it slept */
	if (unit_migrated(x) && (kind == MT_PROBE_SHAM ? x->mig_ts_ns <= ts_ns :
				 x->migs_before > 1)) {
		pr->kernel_moved++;
		return false;
	}
	if (kind == MT_PROBE_MOVE && !(unit_migrated(x) && x->mig_ts_ns > ts_ns)) {
		pr->unseen++;
		return false;
	}
	/* a sham the kernel moved after the moment stays a sham: what happens without a probe
	 * (leaving it out would choose the arm's units after the coin) */
	if (kind == MT_PROBE_SHAM && unit_migrated(x))
		pr->sham_moved++;
	*out = *x;
	out->tag = kind == MT_PROBE_MOVE ? CW_TAG_MIGRATED : CW_TAG_STAYED;
	if (kind == MT_PROBE_MOVE)
		pr->timed_moves++;
	else
		pr->timed_shams++;
	return true;
}

/*
 * Units: each moment's next unit, copied into the probed units as the BPF programs send a
 * probed run (tag the moment's kind, nominal_age_ns its time), so that the run file keeps
 * them and `report` judges them again without the whole units array.  A unit that is the
 * next of two moments (drawn twice while it slept) counts for the first.  A capture matches
 * them as the units come (user/capture/probe_moves.c), which --max-records does not cut
 * short; this is the same rule over the units kept, for a model filled otherwise.  0, or
 * -ENOMEM.
 */
static int probe_units_of_units(struct run *r)
{
	struct mt_unit *units = malloc((r->nunits ? r->nunits : 1) * sizeof(*units));
	bool *claimed = calloc(r->nunits ? r->nunits : 1, sizeof(*claimed));
	int err = 0;

	if (!units || !claimed) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(units, r->units, r->nunits * sizeof(*units));
	qsort(units, r->nunits, sizeof(*units), unit_cmp_thread_start);
	for (size_t i = 0; i < r->nmoments && !err; i++) {
		const struct probe_moment *m = &r->moments[i];
		const struct mt_unit *x;
		struct mt_unit u;

		if (m->outcome == PROBE_GONE)
			continue;
		x = unit_after(units, r->nunits, m->tid, m->ts_ns);
		if (!x || claimed[x - units])
			continue;
		claimed[x - units] = true;
		u = *x;
		u.kind = MT_REC_PROBE_UNIT;
		u.tag = m->kind;
		u.nominal_age_ns = m->ts_ns;
		err = run_record_add_probe_unit(r, &u);
	}
out:
	free(claimed);
	free(units);
	return err;
}

/* The samples: the probed units that measure their moment.  Their count, or -ENOMEM. */
static long collect(const struct run *r, struct probe_result *pr, struct mt_unit **out)
{
	struct mt_unit *smp = malloc((r->nprobe_units ? r->nprobe_units : 1) * sizeof(*smp));
	uint64_t live = 0;
	size_t n = 0;

	if (!smp)
		return -ENOMEM;
	for (size_t i = 0; i < r->nprobe_units; i++) {
		const struct mt_unit *x = &r->probe_units[i];

		n += probe_sample(x, x->nominal_age_ns, (uint32_t)x->tag, r->probe.by_runs, pr,
				  &smp[n]);
	}
	for (size_t i = 0; i < r->nmoments; i++)
		live += r->moments[i].outcome != PROBE_GONE;
	pr->no_unit = live > r->nprobe_units ? live - r->nprobe_units : 0;
	*out = smp;
	return (long)n;
}

/*
 * What probing cost the workload: the moves made times the measured cost of one (the cells'
 * costs weighed by their moves, none below 0), over the workload's CPU time.
 */
static double cost_share(const struct run *r, const struct corr_result *c)
{
	double cost = 0, moves = 0;

	for (int i = 0; i < c->ncells; i++) {
		if (!c->cells[i].n_mig || !c->cells[i].n_stay || !isfinite(c->cells[i].cost_ns))
			continue;
		cost += (double)c->cells[i].n_mig * fmax(c->cells[i].cost_ns, 0);
		moves += (double)c->cells[i].n_mig;
	}
	if (!moves || !(r->probe.workload_cpu_s > 0))
		return NAN;
	return (double)r->probe.masks_narrowed * (cost / moves) / 1e9 / r->probe.workload_cpu_s;
}

/* The verdict on a probed correlation c, the wait side beside it (level -1: all levels). */
static void judge_corr(struct run *r, struct corr_result *c, struct verdict *v, int level)
{
	run_judge_corr(r, c, v);
	/* the run's pulls' waits against the probed refill */
	wait_decide(r, c, v, level);
}

/*
 * Per topology level, when the moves timed spanned more than one (docs/design.md, "Topology
 * levels"): each level's moves against every sham, correlated and judged apart.  0, or
 * -ENOMEM.
 */
static int judge_levels(struct run *r, const struct mt_unit *smp, size_t n,
			const struct corr_opts *co)
{
	uint64_t moves[MT_NR_LEVELS] = { 0 };
	struct corr_result *c = NULL;
	struct mt_unit *work = NULL;
	int nlevels = 0, err = 0;

	r->has_probe_level_cost = false;
	memset(r->probe_level_cost, 0, sizeof(r->probe_level_cost));
	for (size_t i = 0; i < n; i++)
		if (smp[i].tag == CW_TAG_MIGRATED)
			moves[run_topo_level(&r->topo, smp[i].mig_src_cpu, smp[i].mig_dst_cpu)]++;
	for (int l = 0; l < MT_NR_LEVELS; l++)
		nlevels += moves[l] > 0;
	if (nlevels < 2)
		return 0;
	c = malloc(sizeof(*c));
	work = malloc(n * sizeof(*work));
	if (!c || !work) {
		err = -ENOMEM;
		goto out;
	}
	for (int l = 0; l < MT_NR_LEVELS && !err; l++) {
		struct verdict v;
		size_t k = 0;

		if (!moves[l])
			continue;
		for (size_t i = 0; i < n; i++)
			if (smp[i].tag == CW_TAG_STAYED ||
			    run_topo_level(&r->topo, smp[i].mig_src_cpu, smp[i].mig_dst_cpu) ==
				    (unsigned)l)
				work[k++] = smp[i];
		err = correlate_units(work, k, co, c);
		if (err)
			break;
		judge_corr(r, c, &v, l);
		levels_summarize(c, &v, &r->probe_level_cost[l]);
		r->probe_level_cost[l].pulls = moves[l];
	}
	r->has_probe_level_cost = !err;
out:
	free(work);
	free(c);
	return err;
}

int probe_judge(struct run *r)
{
	struct probe_result *pr = &r->probe_result;
	struct mt_unit *smp = NULL;
	struct corr_opts co;
	long n;
	int err;

	r->has_probe_result = false;
	if (!r->probe.on)
		return 0;
	memset(pr, 0, sizeof(*pr));
	/* a run with units: its moments' next units, found once (a file has them already) */
	if (!r->probe.by_runs && !r->nprobe_units && r->nunits && probe_units_of_units(r))
		return -ENOMEM;
	n = collect(r, pr, &smp);
	if (n < 0)
		return (int)n;
	corr_default_opts(&co, CORR_PROBED);
	co.cold_fraction = r->setup.cold_fraction > 0 ? r->setup.cold_fraction : co.cold_fraction;
	if (r->setup.bootstrap > 0)
		co.bootstrap = r->setup.bootstrap;
	err = correlate_units(smp, (size_t)n, &co, &pr->corr);
	if (!err)
		err = judge_levels(r, smp, (size_t)n, &co);
	free(smp);
	if (err)
		return err;
	judge_corr(r, &pr->corr, &pr->verdict, -1);
	pr->cost_share = cost_share(r, &pr->corr);
	r->has_probe_result = true;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The text of cache-aware scheduling (judge/llc_pref.h; docs/design.md, "Cache-aware
 * scheduling"): its knobs, what each move did to the task's preferred LLC, by cause, per LLC
 * and per task, and when no task had a preference, why not as far as the knobs tell.  Only on
 * a kernel that has it, or from records that carry it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "llc_pref.h"
#include "render_text.h"
#include "units.h"

static void print_knobs(FILE *f, const struct run_llc_knobs *k)
{
	if (k->enabled < 0) {
		fprintf(f, "llc_balancing's knobs not readable (debugfs sched/llc_balancing/)");
		return;
	}
	fprintf(f, "llc_balancing: enabled %d, aggr_tolerance %d, imb_pct %d %%, overaggr_pct %d "
		"%%, epoch_period %d jiffies, epoch_affinity_timeout %d epochs", k->enabled,
		k->aggr_tolerance, k->imb_pct, k->overaggr_pct, k->epoch_period,
		k->epoch_affinity_timeout);
}

/* "N within it, N into it, N out of it, N outside it" of moves[]. */
static void print_moves(FILE *f, const uint64_t *m)
{
	fprintf(f, "%llu within it, %llu into it, %llu out of it, %llu between other LLCs",
		(unsigned long long)m[LLC_MOVE_WITHIN], (unsigned long long)m[LLC_MOVE_ENTERS],
		(unsigned long long)m[LLC_MOVE_LEAVES], (unsigned long long)m[LLC_MOVE_OUTSIDE]);
}

static void print_held(FILE *f, const uint64_t *m)
{
	double held = llc_pref_held(m);

	if (isfinite(held))
		fprintf(f, "; held (ended in it) %.1f %%", 100 * held);
}

/* Why no traced task had a preferred LLC, from what the kernel's own tests read. */
static void print_why_none(FILE *f, const struct run_sched_rules *s)
{
	int llcs = 0;

	for (const char *p = s->llc_ids; *p; p++)
		llcs += *p == ':';
	fprintf(f, "    why, as far as the knobs tell: ");
	if (s->llc.enabled == 0)
		fprintf(f, "llc_balancing is disabled (enabled 0): the kernel assigns no "
			"preference\n");
	else if (s->llc_ids[0] && llcs < 2)
		fprintf(f, "this machine has one LLC (%s): there is nowhere to prefer\n",
			s->llc_ids);
	else
		fprintf(f, "the kernel prefers an LLC only for a process of more than one thread "
			"whose average running threads fit %d x 80 %% of an LLC's CPUs "
			"(aggr_tolerance %d), and only after its scan has run (epoch_period %d "
			"jiffies); a single-threaded or CPU-saturating workload gets none\n",
			s->llc.aggr_tolerance > 0 ? s->llc.aggr_tolerance : 1, s->llc.aggr_tolerance,
			s->llc.epoch_period);
}

void render_text_llc_pref(FILE *f, const struct run *r)
{
	const struct run_sched_rules *s = &r->env.rules;
	struct llc_pref *p;

	if (!run_rules_llc(s) || r->records_off)
		return;
	p = calloc(1, sizeof(*p));
	if (!p || llc_pref_compute(r, p)) {
		fprintf(f, "cache-aware scheduling: not summarised (out of memory)\n");
		free(p);
		return;
	}
	fprintf(f, "cache-aware scheduling (");
	print_knobs(f, &s->llc);
	fprintf(f, "); the kernel's LLCs: %s\n", s->llc_ids[0] ? s->llc_ids : "not read");
	if (!p->read) {
		fprintf(f, "  each move's preferred LLC was not read: %s\n", run_replayed(r) ?
			"the ftrace backend has no event that carries it (--backend bpf reads it)" :
			"no migration record was kept");
		goto out;
	}
	if (p->read_records == p->moves[LLC_MOVE_NO_PREF]) {
		fprintf(f, "  none of the %llu moves was of a task with a preferred LLC\n",
			(unsigned long long)p->read_records);
		print_why_none(f, s);
		goto out;
	}
	fprintf(f, "  %llu of %llu moves were of tasks with a preferred LLC: ",
		(unsigned long long)(p->read_records - p->moves[LLC_MOVE_NO_PREF]),
		(unsigned long long)p->read_records);
	if (!p->mapped) {
		fprintf(f, "%llu; which CPUs each LLC id holds was not read, so whether they left "
			"it is not known\n", (unsigned long long)p->moves[LLC_MOVE_UNMAPPED]);
		goto out;
	}
	print_moves(f, p->moves);
	print_held(f, p->moves);
	fprintf(f, "\n  %-28s %9s %9s %9s %9s %9s\n", "by cause", "no pref", "within", "into",
		"out of", "elsewhere");
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		const uint64_t *m = p->by_cause[c];
		uint64_t all = 0;

		for (int k = 0; k < LLC_NR_MOVES; k++)
			all += m[k];
		if (!all)
			continue;
		fprintf(f, "    %-26s %9llu %9llu %9llu %9llu %9llu\n", mt_cause_titles[c],
			(unsigned long long)m[LLC_MOVE_NO_PREF], (unsigned long long)m[LLC_MOVE_WITHIN],
			(unsigned long long)m[LLC_MOVE_ENTERS], (unsigned long long)m[LLC_MOVE_LEAVES],
			(unsigned long long)m[LLC_MOVE_OUTSIDE]);
	}
	/* the balancer's pulls toward a task's preferred LLC: cache-aware scheduling's own */
	fprintf(f, "    %-26s %9s %9s %9llu  (load-balance and active pulls into the preferred "
		"LLC)\n", "cache-aware pulls", "", "",
		(unsigned long long)(p->by_cause[MT_CAUSE_LB_PULL][LLC_MOVE_ENTERS] +
				     p->by_cause[MT_CAUSE_ACTIVE][LLC_MOVE_ENTERS]));
	fprintf(f, "  per preferred LLC (the kernel's id):\n");
	for (int i = 0; i < p->nllcs; i++) {
		const struct llc_pref_llc *l = &p->llc[i];

		fprintf(f, "    LLC %d (CPUs %s): preferred by %llu task%s; ", l->id,
			l->cpus[0] ? l->cpus : "?", (unsigned long long)l->tasks,
			l->tasks == 1 ? "" : "s");
		print_moves(f, l->moves);
		print_held(f, l->moves);
		fprintf(f, "\n");
	}
	fprintf(f, "  per task (%llu with moves; the %d with the most):\n",
		(unsigned long long)p->ntasks, p->nshown);
	for (int i = 0; i < p->nshown; i++) {
		const struct llc_pref_task *t = &p->task[i];

		fprintf(f, "    %-7u %-16s ", t->pid, t->comm);
		if (t->pref_llc < 0)
			fprintf(f, "no preferred LLC at its last move; %llu moves\n",
				(unsigned long long)t->total);
		else {
			fprintf(f, "LLC %d: %llu moves, ", t->pref_llc,
				(unsigned long long)t->total);
			print_moves(f, t->moves);
			print_held(f, t->moves);
			fprintf(f, "\n");
		}
	}
out:
	free(p);
}

/*
 * The cost of leaving an LLC as this run measured it: the verdict's hot time when validate's
 * two CPUs sit in different LLCs, or a natural run's cross-LLC level.  false: not measured.
 */
static bool leaving_hot(const struct run *r, double *hot_ns, const char **how)
{
	const struct run_level_cost *l = &r->level_cost[MT_LEVEL_CROSS_LLC];
	const struct verdict *v = &r->verdict;

	if (r->setup.kind == RUN_KIND_VALIDATE && r->has_verdict && r->has_levels &&
	    r->setup.cw.cpu_a >= 0 && r->setup.cw.cpu_b >= 0 &&
	    run_topo_level(&r->topo, r->setup.cw.cpu_a, r->setup.cw.cpu_b) ==
		    MT_LEVEL_CROSS_LLC &&
	    (v->kind == VERDICT_TOO_LOW || v->kind == VERDICT_ABOUT_RIGHT ||
	     v->kind == VERDICT_TOO_HIGH) && isfinite(v->hot_ns)) {
		*hot_ns = v->hot_ns;
		*how = "the verdict above: validate's two CPUs are in different LLCs";
		return true;
	}
	if (r->has_level_cost && (l->kind == VERDICT_TOO_LOW || l->kind == VERDICT_ABOUT_RIGHT ||
				  l->kind == VERDICT_TOO_HIGH) && isfinite(l->hot_ns)) {
		*hot_ns = l->hot_ns;
		*how = "this run's cross-LLC pulls";
		return true;
	}
	return false;
}

/* Per preferred LLC of this run's moves: how often it held, against the hot time `hot`. */
static void print_llc_held(FILE *f, const struct run *r, const char *hot)
{
	struct llc_pref *p = calloc(1, sizeof(*p));

	if (!p || llc_pref_compute(r, p) || !p->mapped) {
		free(p);
		return;
	}
	for (int i = 0; i < p->nllcs; i++) {
		const struct llc_pref_llc *l = &p->llc[i];
		double held = llc_pref_held(l->moves);

		if (!isfinite(held))
			continue;
		fprintf(f, "     LLC %d (CPUs %s): held %.1f %% of its tasks' moves, %llu left it; "
			"each of those paid the refill of leaving, hot for %s\n", l->id,
			l->cpus[0] ? l->cpus : "?", 100 * held,
			(unsigned long long)l->moves[LLC_MOVE_LEAVES], hot);
	}
	free(p);
}

void render_text_llc_verdict(FILE *f, const struct run *r)
{
	const struct run_sched_rules *s = &r->env.rules;
	char a[32];
	double hot_ns;
	const char *how;

	if (!run_rules_llc(s))
		return;
	if (s->llc.enabled == 0) {
		fprintf(f, "  => cache-aware scheduling is off (llc_balancing enabled 0): leaving an "
			"LLC is judged by the kernel's value alone, as above\n");
		return;
	}
	if (!leaving_hot(r, &hot_ns, &how)) {
		fprintf(f, "  => cache-aware scheduling against the cost of leaving an LLC: not "
			"measured here (validate --cpus A,B with A and B in different LLCs measures "
			"it); the kernel keeps a task in its preferred LLC whatever its age\n");
		return;
	}
	fprintf(f, "  => cache-aware scheduling against the cost of leaving an LLC: a move out of "
		"an LLC stays costly for %s (%s", fmt_ns(a, sizeof(a), hot_ns), how);
	if (r->setup.kind == RUN_KIND_VALIDATE && s->llc_ids[0])
		fprintf(f, ": LLC %d to LLC %d in the kernel's ids",
			run_llc_of_cpu(s, r->setup.cw.cpu_a), run_llc_of_cpu(s, r->setup.cw.cpu_b));
	fprintf(f, "); the kernel refuses to pull a task out of its preferred LLC whatever its "
		"age: that matches the cost for tasks that ran less than %s ago, and holds older "
		"ones whose cache there has gone cold\n", a);
	print_llc_held(f, r, a);
}

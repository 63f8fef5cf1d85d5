// SPDX-License-Identifier: GPL-2.0
/*
 * What the judge found, as text: the correlation table with the falls of its cost curves,
 * and the verdict.  Formatting only: every number is in the run model (docs/design.md,
 * "Displaced bytes", "The decay fit and its intervals", "The verdict").
 */
#include <math.h>
#include <string.h>

#include "calib_report.h"
#include "printable.h"
#include "render_text.h"
#include "units.h"

/* A value on a curve's axis: ns or bytes. */
static char *fmt_axis(char *buf, int len, double v, enum corr_axis axis)
{
	if (axis == CORR_AXIS_AGE)
		return fmt_ns(buf, len, v);
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		fmt_bytes(buf, len, (uint64_t)llround(fmax(v, 0)));
	return buf;
}

/* "473 µs to 2.00 ms"; an end at the grid's edge (0 or +inf) said as such. */
static char *fmt_interval(char *buf, int len, double lo, double hi, enum corr_axis axis)
{
	char a[32], b[32];

	if (!(lo > 0) && !isfinite(hi))
		snprintf(buf, len, "unbounded on both sides");
	else if (!(lo > 0))
		snprintf(buf, len, "below the range to %s", fmt_axis(b, sizeof(b), hi, axis));
	else if (!isfinite(hi))
		snprintf(buf, len, "%s to beyond the range", fmt_axis(a, sizeof(a), lo, axis));
	else
		snprintf(buf, len, "%s to %s", fmt_axis(a, sizeof(a), lo, axis),
			 fmt_axis(b, sizeof(b), hi, axis));
	return buf;
}

/*
 * The confidence level of the intervals of the run being rendered, as "95" or "99": every
 * interval of one correlation has the same (docs/design.md, "Sampling until it decides"),
 * and the two entry points below set it from the run before anything is printed.
 */
static char level_pct[16] = "95";

static void set_level(const struct corr_result *c)
{
	snprintf(level_pct, sizeof(level_pct), "%.3g", corr_level(c) * 100);
}

/* A curve's fall in one phrase: "780 KiB (95 % interval 600 KiB to 1.0 MiB)". */
static char *fmt_fall(char *buf, int len, const struct corr_fall *f, enum corr_axis axis)
{
	char a[32], b[96];

	switch (f->state) {
	case CORR_HOT_FOUND:
		snprintf(buf, len, "%s (%s %% interval %s)", fmt_axis(a, sizeof(a), f->at, axis), level_pct,
			 fmt_interval(b, sizeof(b), f->lo, f->hi, axis));
		break;
	case CORR_HOT_ABOVE:
		/* beyond the largest measured: open above (files of version 2 placed the end
		 * one step out) */
		snprintf(buf, len, "above %s, the largest measured (%s %% interval %s)",
			 fmt_axis(a, sizeof(a), f->at, axis), level_pct,
			 fmt_interval(b, sizeof(b), fmin(f->lo, f->at), INFINITY, axis));
		break;
	case CORR_HOT_NO_COST:
		snprintf(buf, len, "below %s, the smallest measured: no cost above noise",
			 fmt_axis(a, sizeof(a), f->at, axis));
		break;
	default:
		snprintf(buf, len, "no data");
	}
	return buf;
}

/* A factor with its interval: "7.8 (95 % interval 6.0 to 10)", "at least 40". */
static char *fmt_factor(char *buf, int len, double factor, double lo, double hi, bool bound)
{
	if (!isfinite(factor))
		snprintf(buf, len, "an unbounded factor");
	else if (!bound && isnan(lo) && isnan(hi))
		snprintf(buf, len, "a factor of %.3g", factor);	/* a file without intervals */
	else if (bound || !isfinite(lo) || !isfinite(hi))
		snprintf(buf, len, "a factor of at least %.3g", isfinite(lo) ? fmin(lo, factor) :
			 factor);
	else
		snprintf(buf, len, "a factor of %.3g (%s %% interval %.3g to %.3g)", factor, level_pct,
			 fmin(lo, factor), fmax(hi, factor));
	return buf;
}

/* A cost and its interval: "412 µs [356 µs, 468 µs]". */
static char *fmt_ci(char *buf, int len, double est, double lo, double hi)
{
	char a[32], b[32], d[32];

	snprintf(buf, len, "%s [%s, %s]", fmt_ns(a, sizeof(a), est), fmt_ns(b, sizeof(b), lo),
		 fmt_ns(d, sizeof(d), hi));
	return buf;
}

static void print_table(FILE *f, const struct corr_result *c)
{
	bool grid = c->axis == CORR_AXIS_DISPLACED, natural = c->mode == CORR_NATURAL;
	char a[32], b[32], d[32], e[32], g[32], ci[112], other[160], head[64];

	/* natural runs: the pulls are the evidence, the other moves are measured beside them */
	snprintf(head, sizeof(head), "migration cost (%s%% CI)", level_pct);
	fprintf(f, "  %10s %10s%s%s %16s %16s %30s %10s%s", "age", "measured",
		grid ? " " : "", grid ? " displaced" : "",
		natural ? "after pull" : "after migration", "after same-CPU", head, "fit",
		natural ? "   after other move    its cost (" : "\n");
	if (natural)
		fprintf(f, "%s%% CI)\n", level_pct);
	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];

		if (grid && (!i || cl->rate_mbps != c->cells[i - 1].rate_mbps)) {
			const struct corr_rate *rt = NULL;

			for (int k = 0; k < c->nrates; k++)
				if (c->rates[k].rate_mbps == cl->rate_mbps)
					rt = &c->rates[k];
			fprintf(f, "  polluter %s (achieved %s):\n", cl->rate_mbps > 0 ?
				fmt_rate(a, sizeof(a), cl->rate_mbps) : "as fast as it can",
				fmt_rate(b, sizeof(b), rt ? rt->achieved_mbps : NAN));
		}
		fmt_ci(ci, sizeof(ci), cl->cost_ns, cl->cost_lo_ns, cl->cost_hi_ns);
		if (c->mode == CORR_CONTROLLED)
			snprintf(g, sizeof(g), "%s", fmt_ns(a, sizeof(a), cl->age_ns));
		else
			snprintf(g, sizeof(g), ">=%s", fmt_ns(a, sizeof(a), cl->age_ns));
		fprintf(f, "  %10s %10s", g, fmt_ns(b, sizeof(b), cl->age_median_ns));
		if (grid)
			fprintf(f, " %10s", fmt_axis(a, sizeof(a), cl->displaced_bytes,
						      CORR_AXIS_DISPLACED));
		fprintf(f, " %10s (%3zu) %10s (%3zu) %30s %10s", fmt_ns(d, sizeof(d), cl->pen_mig_ns),
			cl->n_mig, fmt_ns(e, sizeof(e), cl->pen_stay_ns), cl->n_stay, ci,
			fmt_ns(a, sizeof(a), cl->fit_cost_ns));
		if (natural)
			fprintf(f, " %10s (%3zu) %30s", fmt_ns(b, sizeof(b), cl->pen_other_ns),
				cl->n_other, fmt_ci(other, sizeof(other), cl->cost_other_ns,
						    cl->cost_other_lo_ns, cl->cost_other_hi_ns));
		fprintf(f, "\n");
	}
	fprintf(f, "  (penalty = first unit after the event - the thread's warm unit; "
		"%.0f %%-trimmed means, n in parentheses; fit: the monotone decay of the cost over "
		"%s)\n", 100 * CORR_TRIM, grid ? "displaced bytes, all rates pooled" : "age");
	if (c->n_spanning || c->n_unseen)
		fprintf(f, "  left out: %zu units with a switch or migration inside, %zu "
			"\"migrated\" units whose migration the tracepoint did not show\n",
			c->n_spanning, c->n_unseen);
	if (!natural)
		return;
	fprintf(f, "  evidence: %zu units after a load-balancer pull (%zu aged by the kernel's "
		"clock, rq_clock_task(src) - se.exec_start; the rest by migtrace's, their record "
		"not kept); %zu after other moves (wakeup placement, above all), which task_hot() "
		"never judges: measured, not evidence\n", c->n_mig_events, c->n_kernel_aged,
		c->n_other_events);
	if (c->bias_other_cells)
		fprintf(f, "  bias: after the other moves the cost lies below 0 at %d age%s: a unit "
			"placed on an idle CPU is not comparable with one after a same-CPU wake (the "
			"destination's load and the wait before running differ, not only the cache)\n",
			c->bias_other_cells, c->bias_other_cells == 1 ? "" : "s");
}

/* Where the refill comes from, and what that means for the D* measured. */
static void print_refill(FILE *f, const struct corr_result *c)
{
	char a[32], b[32], d[32];

	if (!isfinite(c->refill_line_ns))
		return;
	fprintf(f, "  refill at the fit's maximum: %s a line of the %s working set",
		fmt_ns(a, sizeof(a), c->refill_line_ns),
		fmt_axis(b, sizeof(b), c->ws_bytes, CORR_AXIS_DISPLACED));
	if (c->regime == CORR_REGIME_UNKNOWN) {
		fprintf(f, "\n");
		return;
	}
	fprintf(f, "; a same-CPU wake at full displacement refilled %s a line\n",
		fmt_ns(d, sizeof(d), c->stay_line_ns));
	if (c->regime == CORR_REGIME_SHARED)
		fprintf(f, "  the polluter's buffer leaves only a residual: what a migration loses is "
			"a cache each CPU keeps to itself, refilled from one the two share; D* is "
			"about that private cache\n");
	else
		fprintf(f, "  the polluter's buffer leaves most of the cost: a migration refills from "
			"beyond what a %s polluter evicts (the CPUs do not share that cache, or the "
			"host placed the vCPUs apart); --polluter-size larger than that cache "
			"measures its D*\n",
			fmt_axis(a, sizeof(a), c->footprint_bytes, CORR_AXIS_DISPLACED));
}

static void print_grid_falls(FILE *f, const struct corr_result *c)
{
	char a[32], b[32], d[200], e[200];

	if (c->floor_ns > 0)
		fprintf(f, "  residual cost: %s at full displacement, at the shortest ages (what no "
			"displacement removes)\n", fmt_ns(a, sizeof(a), c->floor_ns));
	else if (c->capped_cells && c->capped.max_cost_ns > 0)
		fprintf(f, "  at full displacement the cost is still %s, %.0f %% of its maximum: the "
			"polluter does not reach what a migration refills, and the fall is read "
			"against 0\n", fmt_ns(a, sizeof(a), c->capped.max_cost_ns),
			100 * c->capped.max_cost_ns / c->max_cost_ns);
	fprintf(f, "  D*, where the cost has fallen %.0f %% of the way from its %s maximum to "
		"%s (all rates pooled): %s\n", 100 * (1 - c->cold_fraction),
		fmt_ns(a, sizeof(a), c->max_cost_ns), c->floor_ns > 0 ? "the residual" : "0",
		fmt_fall(d, sizeof(d), &c->dstar, CORR_AXIS_DISPLACED));
	fprintf(f, "  the polluter's buffer is %s: no trial displaced more\n",
		fmt_axis(a, sizeof(a), c->footprint_bytes, CORR_AXIS_DISPLACED));
	fprintf(f, "  per rate:\n");
	for (int k = 0; k < c->nrates; k++) {
		const struct corr_rate *rt = &c->rates[k];

		fprintf(f, "    %-18s achieved %-10s D* %s\n", rt->rate_mbps > 0 ?
			fmt_rate(a, sizeof(a), rt->rate_mbps) : "as fast as it can",
			fmt_rate(b, sizeof(b), rt->achieved_mbps),
			rt->dstar.state == CORR_HOT_NO_DATA ? "- (every trial displaced the whole "
			"buffer: no range of D)" :
			fmt_fall(d, sizeof(d), &rt->dstar, CORR_AXIS_DISPLACED));
		fprintf(f, "    %-18s %-19s hot time by age %s\n", "", "",
			fmt_fall(e, sizeof(e), &rt->hot, CORR_AXIS_AGE));
	}
	if (c->rates_agree)
		fprintf(f, "  agreement: the %d rates whose D* fell in range share a D in their "
			"intervals: the cost falls with the bytes displaced, whatever the rate\n",
			c->rates_found);
	else if (c->rates_found > 1)
		fprintf(f, "  agreement: none: no D lies in every rate's D* interval, so the cost "
			"here does not fall with the polluter's bytes alone (a finding: something "
			"else evicts, such as the host's own traffic)\n");
	else if (c->nrates > 1)
		fprintf(f, "  agreement: not testable: D* fell in range at %d of the %d rates\n",
			c->rates_found, c->nrates);
	if (c->capped_cells > 1 &&
	    c->capped.max_cost_ns - fmax(c->capped.min_cost_ns, 0) > 0.25 * c->max_cost_ns)
		fprintf(f, "  at full displacement (%d cells) the cost still falls with age, from "
			"%s to %s (fit): the cache decays with time beyond what the polluter "
			"displaces (the host's own traffic, or a cache its %s cannot fill)\n",
			c->capped_cells, fmt_ns(a, sizeof(a), c->capped.max_cost_ns),
			fmt_ns(b, sizeof(b), c->capped.min_cost_ns),
			fmt_axis(d, sizeof(d), c->footprint_bytes, CORR_AXIS_DISPLACED));
	print_refill(f, c);
}

/*
 * Natural runs: the wait side per age, where a cell has both a pull's wait and the fit's
 * refill: G(a) = the wait the pulls saved - the refill, with its interval (docs/design.md,
 * "The wait side").  Nothing when no cell has both.
 */
static void print_wait_table(FILE *f, const struct corr_result *c)
{
	char a[32], b[32], d[32], g[112];
	bool any = false;

	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];

		if (!isfinite(cl->gain_ns))
			continue;
		if (!any)
			fprintf(f, "  the wait side by age (G = the wait the pulls saved - the fit's "
				"refill; a pull pays where G > 0):\n  %10s %6s %12s %12s %36s\n",
				"age", "pulls", "wait saved", "refill", "G (95% interval)");
		any = true;
		snprintf(a, sizeof(a), ">=%s", fmt_ns(b, sizeof(b), cl->age_ns));
		fprintf(f, "  %10s %6zu %12s %12s %36s\n", a, cl->n_mig,
			fmt_ns(b, sizeof(b), cl->wait_avoided_ns),
			fmt_ns(d, sizeof(d), cl->fit_cost_ns),
			fmt_ci(g, sizeof(g), cl->gain_ns, cl->gain_lo_ns, cl->gain_hi_ns));
	}
}

/*
 * Natural runs beside cachewalk's polluter: the rate it displaced at, measured; a grid's D*
 * over it is the hot time the grid predicts (docs/design.md, "The natural co-runner").
 */
static void print_corunner(FILE *f, const struct corr_result *c)
{
	char a[32], b[32], d[32];

	if (!c->corunner_wakes)
		return;
	fprintf(f, "  co-runner: cachewalk's polluter displaced %s (%s %% interval %s to %s) while "
		"the threads slept, measured over %zu same-CPU wakes (bytes streamed / time "
		"slept)\n", fmt_rate(a, sizeof(a), c->corunner_mbps), level_pct,
		fmt_rate(b, sizeof(b), c->corunner_lo_mbps),
		fmt_rate(d, sizeof(d), c->corunner_hi_mbps), c->corunner_wakes);
	fprintf(f, "     a grid's D* / %s is the hot time the grid predicts for these threads "
		"(migtrace report GRID.json THIS.json puts it against theirs)\n",
		fmt_rate(a, sizeof(a), c->corunner_mbps));
}

/* The observed hot time of correlation c, in one line. */
static void print_hot_time(FILE *f, const struct corr_result *c)
{
	char a[32], b[160];

	fprintf(f, "  observed hot time, where the cost falls under %.0f %% of its %s maximum: "
		"%s\n", 100 * c->cold_fraction, fmt_ns(a, sizeof(a), c->max_cost_ns),
		fmt_fall(b, sizeof(b), &(struct corr_fall){ .state = c->hot_state,
			 .at = c->hot_ns, .lo = c->hot_lo_ns, .hi = c->hot_hi_ns },
			 CORR_AXIS_AGE));
}

void render_text_correlation(FILE *f, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	char a[32], b[200], d[200];

	set_level(c);
	fprintf(f, "\n%s\n", r->setup.mode == CORR_CONTROLLED ?
		"controlled experiment: refill penalty by age (cachewalk, real migrations by "
		"sched_setaffinity, same-CPU control arm)" :
		"natural migrations: refill penalty by age (the scheduler decided)");
	fprintf(f, "  warm unit (baseline): %s median over %zu thread%s, %zu warm units\n",
		fmt_ns(a, sizeof(a), c->baseline_ns), c->n_threads, c->n_threads == 1 ? "" : "s",
		c->n_baseline);
	if (r->meta.unit_probe_ns >= 0)
		fprintf(f, "  probing: each unit is inflated by ~%s (uprobe + uretprobe, measured "
			"at start on an empty function: %.0f %% of the warm unit)\n",
			fmt_ns(a, sizeof(a), r->meta.unit_probe_ns),
			c->baseline_ns > 0 ? 100.0 * r->meta.unit_probe_ns / c->baseline_ns : 0.0);
	print_table(f, c);
	if (c->bootstrap) {
		fprintf(f, "  intervals: %d block-bootstrap resamples of the %d %s",
			c->bootstrap, c->blocks, c->mode == CORR_CONTROLLED ?
			"rounds of the shuffled schedule" : "spans of the run's time");
		if (r->setup.budget_s > 0 && r->setup.max_looks > 0)
			fprintf(f, "; at %s %%, each look's level in a sequence of %d looks at "
				"most (95 %% over all of them)", level_pct, r->setup.max_looks);
		fprintf(f, "\n");
	}
	if (c->axis == CORR_AXIS_DISPLACED) {
		print_grid_falls(f, c);
		return;
	}
	if (c->stay_decay.state != CORR_HOT_NO_DATA)
		fprintf(f, "  same-CPU wakes: the penalty rises from %s to %s as the co-runners "
			"displace the cache; %.0f %% of the way by %s\n",
			fmt_ns(a, sizeof(a), c->stay_decay.min_cost_ns),
			fmt_ns(b, sizeof(b), c->stay_decay.max_cost_ns), 100 * (1 - c->cold_fraction),
			fmt_fall(d, sizeof(d), &c->stay_decay, CORR_AXIS_AGE));
	print_corunner(f, c);
	print_hot_time(f, c);
	if (c->mode == CORR_NATURAL)
		print_wait_table(f, c);
}

/* One line of the rules besides the age: "  NUMA balancing:        on (…)". */
#define RULE_FMT "  %-22s "

/*
 * What else decided the pulls, one line each where it applies (docs/design.md, "When the
 * threshold does not govern"); nothing when none does, or when the run did not check.
 */
static void print_rules(FILE *f, const struct run_sched_rules *s)
{
	if (!s->checked)
		return;
	if (s->scx_state[0] && strcmp(s->scx_state, "disabled")) {
		fprintf(f, RULE_FMT "%s is loaded (state %s", "sched_ext:",
			s->scx_ops[0] ? s->scx_ops : "a BPF scheduler", s->scx_state);
		if (s->scx_switch_all == 0)
			fprintf(f, ", partial: only tasks of policy SCHED_EXT; %d of the %d traced "
				"tasks were", s->traced_ext_tasks, s->traced_tasks);
		else if (s->scx_switch_all > 0)
			fprintf(f, ", every task of the fair class");
		if (run_rules_scx(s))
			fprintf(f, "): the traced tasks are not the fair class's, so task_hot() "
				"is not consulted for them, whatever the kernel's value\n");
		else
			fprintf(f, "): the traced tasks stayed in the fair class, where task_hot() "
				"decides\n");
	}
	if (run_rules_numa(s))
		fprintf(f, RULE_FMT "on (kernel.numa_balancing = %d, %d nodes): for a pull across "
			"nodes migrate_degrades_locality() decides before the age does (toward the "
			"task's preferred node: cold; away from it: hot)\n", "NUMA balancing:",
			s->numa_balancing, s->numa_nodes);
	if (run_rules_core(s))
		fprintf(f, RULE_FMT "in use (%d tasks of the machine carry a cookie; %d of the %d "
			"traced): task_hot() calls a task hot, whatever its age, when the "
			"destination core runs another cookie\n", "core scheduling:",
			s->core_cookie_tasks, s->traced_cookie_tasks, s->traced_tasks);
	if (run_rules_llc(s) && s->llc.enabled == 0)
		fprintf(f, RULE_FMT "in this kernel, disabled (llc_balancing enabled 0): "
			"task_hot() decides alone\n", "cache-aware balancing:");
	else if (run_rules_llc(s))
		fprintf(f, RULE_FMT "this kernel's task_struct has preferred_llc (cache-aware "
			"load balancing%s): can_migrate_task() may refuse a pull out of a task's "
			"preferred LLC before task_hot() is asked, whatever its age\n",
			"cache-aware balancing:", s->llc.enabled > 0 ? ", enabled" : "");
}

/* The headline when task_hot() was not consulted: the numbers stand, no judgement. */
static void print_not_applicable(FILE *f, const char *what)
{
	fprintf(f, "  => not applicable: task_hot() is not consulted under a sched_ext "
		"scheduler; %s is what a migration costs here, not a threshold the kernel applies "
		"to these tasks\n", what);
}

/* The band's share of this run's own migrations (natural runs): of their records, which
 * say so when some were lost or not kept. */
static void print_run_share(FILE *f, const struct run *r, const struct verdict *v)
{
	if (v->has_run_share && v->run_migrations)
		fprintf(f, "; %.0f %% of %s %llu migration%s were of tasks that age",
			pct(v->band_migrations, v->run_migrations),
			r->stats.rb_dropped || r->recs_not_kept ? "the" : "this run's",
			(unsigned long long)v->run_migrations,
			r->stats.rb_dropped || r->recs_not_kept ? " records kept" : "s");
}

/*
 * The other side of the trade-off, natural runs: what a pull saves against what it costs,
 * and T*, where it starts to pay (docs/design.md, "The wait side").
 */
static void print_wait_side(FILE *f, const struct verdict *v)
{
	char a[32], b[32], d[32], g[160];

	if (v->tstar_state == CORR_HOT_NO_DATA)
		return;
	if (isfinite(v->wait_at_kernel_ns) && isfinite(v->refill_at_kernel_ns))
		fprintf(f, "  wait side:           a pull at %s saves ~%s of waiting and costs ~%s "
			"of refill\n", fmt_ns(a, sizeof(a), v->kernel_ns),
			fmt_ns(b, sizeof(b), v->wait_at_kernel_ns),
			fmt_ns(d, sizeof(d), v->refill_at_kernel_ns));
	switch (v->tstar_state) {
	case CORR_HOT_FOUND:
		fprintf(f, "  T*:                  %s (%s): a pull of a task younger than that costs "
			"more refill than the wait it saves; the threshold that balances the two\n",
			fmt_ns(a, sizeof(a), v->tstar_ns),
			fmt_interval(g, sizeof(g), v->tstar_lo_ns, v->tstar_hi_ns, CORR_AXIS_AGE));
		break;
	case CORR_HOT_NO_COST:
		fprintf(f, "  T*:                  below %s, the youngest pulls measured: a pull saves "
			"more waiting than it costs refill at every age; any positive threshold costs "
			"latency here\n", fmt_ns(a, sizeof(a), v->tstar_ns));
		break;
	default:
		fprintf(f, "  T*:                  above %s, the oldest pulls measured: at no age did a "
			"pull save more waiting than it cost refill\n",
			fmt_ns(a, sizeof(a), v->tstar_ns));
	}
}

/* Natural runs: what the refills took of the run slices, whatever the threshold. */
static void print_slice_share(FILE *f, const struct corr_result *c)
{
	char a[32];

	if (isfinite(c->cost_frac_slice))
		fprintf(f, "     refill cost per migration: %.1f %% of the run slice that followed "
			"(median); %s lost to migrations over %zu migrated units\n",
			100.0 * c->cost_frac_slice, fmt_ns(a, sizeof(a), c->lost_ns),
			c->n_mig_events);
}

/* The age axis: the kernel's value against the observed hot time. */
static void print_by_age(FILE *f, const struct run *r, const struct corr_result *c,
			 const struct verdict *v)
{
	bool probed = c->mode == CORR_PROBED;
	char a[32], b[32], d[32], e[32], g[160];

	if (c->stay_decay.state != CORR_HOT_NO_DATA) {
		/* first the co-runners' own decay, seen in every same-CPU wake */
		fprintf(f, "  co-runners' decay:   %s\n",
			fmt_fall(g, sizeof(g), &c->stay_decay, CORR_AXIS_AGE));
		if (v->decay_kind == VERDICT_TOO_LOW || v->decay_kind == VERDICT_TOO_HIGH)
			fprintf(f, "     by it, the kernel's %s is %s by %s (the hot time the "
				"workload's own co-runners imply, from its same-CPU wakes)\n",
				fmt_ns(a, sizeof(a), v->kernel_ns), verdict_names[v->decay_kind],
				fmt_factor(d, sizeof(d), v->decay_factor, v->decay_factor_lo,
					   v->decay_factor_hi, false));
		else if (v->decay_kind == VERDICT_ABOUT_RIGHT)
			fprintf(f, "     by it, the kernel's %s is about right\n",
				fmt_ns(a, sizeof(a), v->kernel_ns));
		else if (v->decay_kind == VERDICT_NOT_APPLICABLE)
			fprintf(f, "     by it: not applicable (task_hot() is not consulted)\n");
		else
			fprintf(f, "     by it: undetermined (its interval reaches the edge of the "
				"ages measured, or is wide around the kernel's %s)\n",
				fmt_ns(a, sizeof(a), v->kernel_ns));
	}
	fprintf(f, "  observed hot time:   %s\n",
		fmt_fall(g, sizeof(g), &(struct corr_fall){ .state = c->hot_state, .at = c->hot_ns,
			 .lo = c->hot_lo_ns, .hi = c->hot_hi_ns }, CORR_AXIS_AGE));
	print_wait_side(f, v);
	if (v->min_judged) {
		fprintf(f, "  judged:              %llu %s in ages with %s (a verdict needs "
			"%llu)\n", (unsigned long long)v->judged, probed ? "probed moves" :
			"load-balancer pulls", probed ? "shams" : "same-CPU wakes",
			(unsigned long long)v->min_judged);
		if (v->judged < v->min_judged) {
			fprintf(f, "  => undetermined: %llu %s timed, fewer than the %llu a verdict "
				"needs (%s)\n", (unsigned long long)v->judged,
				probed ? "moves" : "pulls", (unsigned long long)v->min_judged,
				probed ? "a longer run, or a higher --probe-moves rate or "
				"--probe-share, would time more" :
				"the other moves are not what task_hot() judges");
			return;
		}
		if (v->bias) {
			fprintf(f, "  => undetermined: after a pull the cost lies below 0 at %d age%s: "
				"a biased comparison (the arms differ in more than the move: the "
				"destination's load, the wait before running), not a warmer cache; no "
				"verdict from it\n", c->bias_cells, c->bias_cells == 1 ? "" : "s");
			return;
		}
	}
	switch (v->kind) {
	case VERDICT_TOO_LOW:
	case VERDICT_TOO_HIGH:
		fprintf(f, "  => the kernel's %s is %s by %s\n", fmt_ns(a, sizeof(a), v->kernel_ns),
			verdict_names[v->kind], fmt_factor(g, sizeof(g), v->factor, v->factor_lo,
							   v->factor_hi, v->factor_is_bound));
		break;
	case VERDICT_ABOUT_RIGHT:
		fprintf(f, "  => the kernel's %s is about right: the observed hot time's %s %% "
			"interval, %s, contains it\n", fmt_ns(a, sizeof(a), v->kernel_ns), level_pct,
			fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE));
		return;
	case VERDICT_NOT_APPLICABLE:
		print_not_applicable(f, "the observed hot time");
		print_slice_share(f, c);
		return;
	default:
		if (c->hot_state == CORR_HOT_NO_DATA)
			fprintf(f, "  => undetermined: no age had units after both a migration and "
				"a same-CPU wake\n");
		else if ((!(v->hot_lo_ns > 0) || !isfinite(v->hot_hi_ns)) &&
			 !(v->hot_lo_ns > v->kernel_ns) && !(v->hot_hi_ns < v->kernel_ns))
			/* open at an edge and around K: no side, and no factor, is known */
			fprintf(f, "  => undetermined: the observed hot time's %s %% interval, %s, "
				"reaches the edge of the ages measured and contains the kernel's "
				"%s\n", level_pct, fmt_interval(g, sizeof(g), v->hot_lo_ns,
								v->hot_hi_ns, CORR_AXIS_AGE),
				fmt_ns(a, sizeof(a), v->kernel_ns));
		else if (!(v->hot_lo_ns > 0) || !isfinite(v->hot_hi_ns))
			fprintf(f, "  => undetermined: the observed hot time's %s %% interval, %s, "
				"reaches the edge of the ages measured; the kernel's %s is off by %s "
				"(%s would bound it)\n",
				level_pct, fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE),
				fmt_ns(a, sizeof(a), v->kernel_ns),
				fmt_factor(b, sizeof(b), v->factor, v->factor_lo, v->factor_hi,
					   true), c->mode == CORR_NATURAL ? "a longer run, with more "
				"pulls at the ages past the edge," : probed ? "moves at ages past the "
				"edge, which this workload's own sleeps did not reach," :
				"--ages wider, or more samples,");
		else
			fprintf(f, "  => undetermined: the observed hot time's %s %% interval, %s, "
				"contains the kernel's %s and spans more than a factor %.0f\n",
				level_pct, fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE),
				fmt_ns(a, sizeof(a), v->kernel_ns), 4.0);
		return;
	}
	if (v->kind == VERDICT_TOO_LOW && isfinite(v->band_cost_ns))
		fprintf(f, "     at ages %s-%s a migration costs %s (%.0f %% of a %s unit); "
			"task_hot() calls tasks of those ages cold", fmt_ns(a, sizeof(a), v->band_lo_ns),
			fmt_ns(b, sizeof(b), v->band_hi_ns), fmt_ns(d, sizeof(d), v->band_cost_ns),
			100.0 * v->band_cost_share, fmt_ns(e, sizeof(e), v->unit_ns));
	else if (v->kind == VERDICT_TOO_HIGH && isfinite(v->band_cost_ns))
		fprintf(f, "     from %s to %s a migration costs at most %s (under %.0f %% of the "
			"%s maximum, %.0f %% of a %s unit); task_hot() still calls these tasks hot "
			"and the balancer leaves them waiting", fmt_ns(a, sizeof(a), v->band_lo_ns),
			fmt_ns(b, sizeof(b), v->band_hi_ns), fmt_ns(d, sizeof(d), v->band_cost_ns),
			100 * v->cold_fraction, fmt_ns(e, sizeof(e), v->max_cost_ns),
			100.0 * v->band_cost_share, fmt_ns(g, sizeof(g), v->unit_ns));
	else
		fprintf(f, "     no age measured lies in the band %s-%s (--ages), so what a "
			"migration costs there is not known", fmt_ns(a, sizeof(a), v->band_lo_ns),
			fmt_ns(b, sizeof(b), v->band_hi_ns));
	print_run_share(f, r, v);
	fprintf(f, "\n");
	print_slice_share(f, c);
}

/* D* as the verdict reads it: one line. */
static void print_dstar(FILE *f, const struct verdict *v)
{
	char a[32], g[160];

	fprintf(f, "  D*:                  %10s  (%s)\n", fmt_axis(a, sizeof(a), v->dstar_bytes,
		CORR_AXIS_DISPLACED), fmt_interval(g, sizeof(g), v->dstar_lo_bytes,
		v->dstar_hi_bytes, CORR_AXIS_DISPLACED));
}

/* The displaced axis: the rate at which the kernel's value is right, then each rate's. */
static void print_by_rate(FILE *f, const struct verdict *v)
{
	char a[32], b[32], d[32], g[160];

	print_dstar(f, v);
	if (v->kind == VERDICT_NOT_APPLICABLE)
		print_not_applicable(f, "D* (and each rate's hot time below)");
	else if (v->kind == VERDICT_BY_RATE)
		fprintf(f, "  => the kernel's %s fits when the tasks sharing a CPU displace %s of "
			"its cache (%s %% interval %s to %s: D* / %s); it is too low for slower "
			"co-runners and too high for faster ones\n",
			fmt_ns(a, sizeof(a), v->kernel_ns), fmt_rate(b, sizeof(b), v->fit_rate_mbps), level_pct,
			fmt_rate(d, sizeof(d), v->fit_rate_lo_mbps),
			fmt_rate(g, sizeof(g), v->fit_rate_hi_mbps), fmt_ns(a, sizeof(a),
									v->kernel_ns));
	else if (v->dstar_lo_bytes > 0)
		fprintf(f, "  => undetermined: D*'s interval reaches the largest displacement "
			"measured; the kernel's %s fits only co-runners displacing at least %s "
			"(--polluter-size larger, or more samples, would bound it)\n",
			fmt_ns(a, sizeof(a), v->kernel_ns), fmt_rate(b, sizeof(b),
								   v->fit_rate_lo_mbps));
	else if (isfinite(v->dstar_hi_bytes))
		fprintf(f, "  => undetermined: D*'s interval reaches the smallest displacement "
			"measured; the kernel's %s fits only co-runners displacing at most %s "
			"(slower --rates, or more samples, would bound it)\n",
			fmt_ns(a, sizeof(a), v->kernel_ns), fmt_rate(b, sizeof(b),
								   v->fit_rate_hi_mbps));
	else
		fprintf(f, "  => undetermined: D*'s interval reaches the edges on both sides (more "
			"ages, rates or samples would bound it)\n");
	fprintf(f, "     at the rates measured here (hot time = D* / the achieved rate):\n");
	for (int k = 0; k < v->nrates; k++) {
		const struct verdict_rate *vr = &v->rates[k];

		fmt_rate(a, sizeof(a), vr->achieved_mbps);
		if (!(vr->rate_mbps > 0))
			strcat(a, " (max)");
		if (!(vr->achieved_mbps > 0)) {
			fprintf(f, "       %-18s hot time - (the co-runner displaced nothing here: "
				"no rate to divide D* by): %s\n", a, verdict_names[vr->kind]);
			continue;
		}
		fprintf(f, "       %-18s hot time %s (%s): ", a, fmt_ns(b, sizeof(b), vr->hot_ns),
			fmt_interval(g, sizeof(g), vr->hot_lo_ns, vr->hot_hi_ns, CORR_AXIS_AGE));
		if (vr->kind == VERDICT_TOO_LOW || vr->kind == VERDICT_TOO_HIGH)
			fprintf(f, "%s by %s\n", verdict_names[vr->kind],
				fmt_factor(g, sizeof(g), vr->factor, vr->factor_lo, vr->factor_hi,
					   false));
		else
			fprintf(f, "%s\n", verdict_names[vr->kind]);
	}
}

/*
 * One model's test in a phrase: "the 4 rates' hot times by age agree (9.01 ms to 13.0 ms)",
 * "their D* do not (871 KiB to 40.3 MiB)", "D* fell in range at 1 of the 4 rates".
 */
static char *fmt_test(char *buf, int len, const struct model_test *t, int rates, bool first,
		      enum corr_axis axis)
{
	const char *what = axis == CORR_AXIS_AGE ? "hot times by age" : "D*";
	char a[32], b[32], g[96];

	char who[32];

	if (first)
		snprintf(who, sizeof(who), "the %d rates'", rates);
	else
		snprintf(who, sizeof(who), "their");
	if (t->agree)
		snprintf(buf, len, "%s %s agree (%s in every interval)", who, what,
			 fmt_interval(g, sizeof(g), t->common_lo, t->common_hi, axis));
	else if (t->bounded > 1)
		snprintf(buf, len, "%s %s do not (%s to %s, no %s in every interval)", who, what,
			 fmt_axis(a, sizeof(a), t->min, axis), fmt_axis(b, sizeof(b), t->max, axis),
			 axis == CORR_AXIS_AGE ? "age" : "D");
	else
		snprintf(buf, len, "%s fell in range at %d of the %d rates, too few to test",
			 axis == CORR_AXIS_AGE ? "the hot time by age" : "D*", t->bounded, rates);
	return buf;
}

/* The regime in one line: which model the rates agree on, and why (docs/design.md,
 * "Bytes-driven or time-driven"). */
static void print_model(FILE *f, const struct verdict_model *m)
{
	char d[200], h[200];

	fmt_test(d, sizeof(d), &m->dstar, m->rates, m->regime != MODEL_TIME, CORR_AXIS_DISPLACED);
	fmt_test(h, sizeof(h), &m->hot, m->rates, m->regime == MODEL_TIME, CORR_AXIS_AGE);
	switch (m->regime) {
	case MODEL_BYTES:
		fprintf(f, "  regime:              bytes-driven: %s; %s\n", d, h);
		break;
	case MODEL_TIME:
		fprintf(f, "  regime:              time-driven: %s; %s\n", h, d);
		break;
	case MODEL_BOTH:
		fprintf(f, "  regime:              both: %s, and %s: the rates measured do not tell "
			"the two models apart\n", d, h);
		break;
	case MODEL_MIXED:
		fprintf(f, "  regime:              mixed: %s; %s: neither the bytes displaced nor "
			"the time away alone sets the cost\n", d, h);
		break;
	default:
		fprintf(f, "  regime:              not tested: %s; %s\n", d, h);
	}
}

/* The time-driven model: the kernel's value against the rates' pooled hot time by age. */
static void print_by_time(FILE *f, const struct verdict *v)
{
	const struct verdict_model *m = &v->model;
	char a[32], b[32], d[32], e[32], k[32], g[160];

	if (m->pooled_rates)
		fprintf(f, "  hot time by age:     %10s  (%s %% interval %s; pooled over the %d "
			"rate%s whose interval is closed, inverse-variance on log age, within every "
			"rate's interval)\n", fmt_ns(a, sizeof(a), v->hot_ns), level_pct,
			fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE),
			m->pooled_rates, m->pooled_rates == 1 ? "" : "s");
	else
		fprintf(f, "  hot time by age:     %10s  (no rate's interval is closed: none pooled; "
			"every rate's interval holds %s)\n", "-",
			fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE));
	switch (v->kind) {
	case VERDICT_TOO_LOW:
		fprintf(f, "  => the kernel's %s is too low by %s: tasks away from %s to %s are "
			"moved as cold and pay a refill, whatever the co-runners' rate\n",
			fmt_ns(a, sizeof(a), v->kernel_ns), fmt_factor(g, sizeof(g), v->factor,
			v->factor_lo, v->factor_hi, v->factor_is_bound), a,
			fmt_ns(b, sizeof(b), v->hot_ns));
		break;
	case VERDICT_TOO_HIGH:
		fprintf(f, "  => the kernel's %s is too high by %s: tasks away from %s to %s are "
			"kept as hot though moving them is cheap, whatever the co-runners' rate\n",
			fmt_ns(a, sizeof(a), v->kernel_ns), fmt_factor(g, sizeof(g), v->factor,
			v->factor_lo, v->factor_hi, v->factor_is_bound), fmt_ns(b, sizeof(b),
			v->hot_ns), a);
		break;
	case VERDICT_ABOUT_RIGHT:
		fprintf(f, "  => the kernel's %s fits: the pooled hot time by age's %s %% interval, "
			"%s, contains it\n", fmt_ns(a, sizeof(a), v->kernel_ns), level_pct,
			fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE));
		break;
	case VERDICT_NOT_APPLICABLE:
		print_not_applicable(f, "the pooled hot time by age");
		break;
	default:
		if (!m->pooled_rates)
			fprintf(f, "  => undetermined (time-driven): the hot time by age lies in %s at "
				"every rate, which reaches the edge of the ages measured; the kernel's "
				"%s is off by %s (--ages wider, or more samples, would bound it)\n",
				fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE),
				fmt_ns(a, sizeof(a), v->kernel_ns), fmt_factor(b, sizeof(b), v->factor,
				v->factor_lo, v->factor_hi, true));
		else
			fprintf(f, "  => undetermined (time-driven): the pooled hot time by age's %s %% "
				"interval, %s, contains the kernel's %s and spans more than a factor "
				"%.0f (more samples would narrow it)\n",
				level_pct, fmt_interval(g, sizeof(g), v->hot_lo_ns, v->hot_hi_ns, CORR_AXIS_AGE),
				fmt_ns(a, sizeof(a), v->kernel_ns), 4.0);
	}
	if (m->regime == MODEL_BOTH && v->dstar_lo_bytes > 0 && isfinite(v->dstar_hi_bytes))
		fprintf(f, "     by the bytes-driven model it fits co-runners displacing %s (%s %% "
			"interval %s to %s: D* %s / %s)\n", fmt_rate(a, sizeof(a), v->fit_rate_mbps), level_pct,
			fmt_rate(b, sizeof(b), v->fit_rate_lo_mbps),
			fmt_rate(d, sizeof(d), v->fit_rate_hi_mbps),
			fmt_axis(e, sizeof(e), v->dstar_bytes, CORR_AXIS_DISPLACED),
			fmt_ns(k, sizeof(k), v->kernel_ns));
}

/* Mixed: no one figure describes the machine; the rates' own hot times by age as the bound. */
static void print_mixed(FILE *f, const struct verdict *v)
{
	const struct verdict_model *m = &v->model;
	char a[32], b[32], d[32];
	double K = v->kernel_ns;

	print_dstar(f, v);
	if (v->kind == VERDICT_NOT_APPLICABLE) {
		print_not_applicable(f, "each rate's hot time by age");
		return;
	}
	fprintf(f, "  => undetermined (mixed): the rates agree on neither D* nor an age, so "
		"neither a pooled D* nor a pooled hot time is the machine's; the hot time by age "
		"went from %s to %s over the rates, and the kernel's %s lies %s\n",
		fmt_ns(a, sizeof(a), m->hot.min), fmt_ns(b, sizeof(b), m->hot.max),
		fmt_ns(d, sizeof(d), K), K < m->hot.min ? "below every one of them (too low at "
		"every rate measured)" : K > m->hot.max ? "above every one of them (too high at "
		"every rate measured)" : "among them");
}

/* A sequential experiment (validate --budget): how many rounds it took, and what ended it. */
static void print_sequence(FILE *f, const struct run *r)
{
	static const char *const why[SEQ_NR_ENDS] = {
		[SEQ_END_NONE] = "it was not ended by a look",
		[SEQ_END_DECIDED] = "its verdict was decided",
		[SEQ_END_BUDGET] = "no further round fitted in the budget",
		[SEQ_END_LOOKS] = "it was the last look allowed",
		[SEQ_END_ROUNDS] = "every round of --samples had run",
	};
	const struct run_sequence *q = &r->seq;

	if (!(r->setup.budget_s > 0))
		return;
	fprintf(f, "  sampling:            %u round%s of every cell, %d look%s within a budget of "
		"%.0f s; it ended at %.1f s because %s\n", q->rounds, q->rounds == 1 ? "" : "s",
		q->nlooks, q->nlooks == 1 ? "" : "s", r->setup.budget_s,
		q->nlooks > 0 && q->nlooks <= SEQ_MAX_LOOKS ? q->looks[q->nlooks - 1].at_s : 0.0,
		q->end < SEQ_NR_ENDS ? why[q->end] : "of something this version does not know");
}

/* Where the calibrated hot time came from, as the verdict names it. */
static char *calib_source_of(char *buf, int len, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char a[32], b[32], src[PRINTABLE_SIZE(sizeof(c->cache_source))];
	char file[PRINTABLE_SIZE(sizeof(r->setup.calibration_file))];

	if (r->calib.inline_run)
		snprintf(buf, len, "method %d inline, robust (undisturbed median x 6); seed rule gave %s; "
			 "cache %s from %s", c->method, fmt_ns(a, sizeof(a), c->hot_seed_ns),
			 fmt_bytes(b, sizeof(b), c->cache_bytes),
			 calib_source_name(src, sizeof(src), c->cache_source));
	else
		snprintf(buf, len, "%s%s",
			 printable(file, sizeof(file), r->setup.calibration_file),
			 r->calib.robust ? ", robust (undisturbed median x 6)" : "");
	return buf;
}

void render_text_verdict(FILE *f, const struct run *r)
{
	struct verdict shown = r->verdict;
	const struct verdict *v = &shown;
	char a[32], src[PRINTABLE_SIZE(sizeof(r->meta.hot_source))];

	set_level(&r->corr);
	/* a file whose verdict predates its sched_ext finding reads as the judge now decides */
	if (v->kind != VERDICT_NONE && run_rules_scx(&r->env.rules))
		verdict_not_applicable(&shown);

	if (v->kind == VERDICT_NONE) {
		fprintf(f, "\nverdict: none: the controlled experiment was interrupted (%s) before "
			"it finished its schedule; the table above is partial, and no verdict is "
			"given from an incomplete experiment\n",
			printable(src, sizeof(src), r->meta.end_reason));
		return;
	}
	fprintf(f, "\nverdict\n");
	if (v->has_calib)
		fprintf(f, "  calibrated hot time: %10s  (%s)\n", fmt_ns(a, sizeof(a), v->calib_ns),
			calib_source_of(src, sizeof(src), r));
	else
		fprintf(f, "  calibrated hot time: %10s  (not calibrated: give --calibration "
			"FILE)\n", "-");
	fprintf(f, "  kernel's value:      %10s  (%s)\n", fmt_ns(a, sizeof(a), v->kernel_ns),
		printable(src, sizeof(src), r->meta.hot_source));
	print_rules(f, &r->env.rules);
	print_sequence(f, r);
	if (r->corr.axis == CORR_AXIS_DISPLACED) {
		if (v->model.regime != MODEL_NOT_TESTED)
			print_model(f, &v->model);
		/* both: judged by time unless only D* / K was decided (no hot time then) */
		if (v->model.regime == MODEL_TIME ||
		    (v->model.regime == MODEL_BOTH && !isnan(v->hot_ns)))
			print_by_time(f, v);
		else if (v->model.regime == MODEL_MIXED)
			print_mixed(f, v);
		else
			print_by_rate(f, v);
		fprintf(f, "     the experiment measures what a pull would cost at each "
			"displacement; its moves are affinity changes of a sleeping task, not the "
			"balancer's decisions\n");
	} else
		print_by_age(f, r, &r->corr, v);
	if (isfinite(v->calib_over_observed))
		fprintf(f, "     the calibrated value is %.2fx the observed hot time\n",
			v->calib_over_observed);
	if (r->meta.unit_probe_ns >= 0)
		fprintf(f, "     units are inflated by ~%s by probing; the migration cost is a "
			"difference of two probed arms, so it cancels there but its noise does not\n",
			fmt_ns(a, sizeof(a), r->meta.unit_probe_ns));
	render_text_levels_verdict(f, r);
	render_text_llc_verdict(f, r);
	fprintf(f, "     (task_hot() judges only load-balancer pulls; wakeup placement never "
		"asks it.  The same value floors the balancer's idle-cost estimate, "
		"rq->max_idle_balance_cost, which caps avg_idle, and gates the nohz newly-idle "
		"kick; newly-idle balancing itself is gated by sd->max_newidle_lb_cost since "
		"5.16)\n");
}

/* run --probe-moves: what the mover did, the two arms by age, and the verdict from them. */
void render_text_probe(FILE *f, const struct run *r)
{
	const struct probe_setup *ps = &r->probe;
	const struct probe_result *pr = &r->probe_result;
	const struct corr_result *c = &pr->corr;
	struct verdict shown = pr->verdict;
	char a[32];

	if (!ps->on)
		return;
	set_level(c);
	fprintf(f, "\nprobed moves: a randomised experiment inside the run (--probe-moves %.3g/s, "
		"seed %llu): a sleeping thread drawn at random moved to another CPU of its mask, "
		"or by a coin flip left where it was (a sham)\n", ps->rate_hz,
		(unsigned long long)ps->seed);
	fprintf(f, "  moments:  %llu drawn: %llu moves, %llu shams; not used: %llu found no "
		"thread asleep, %llu "
		"whose mask the workload narrowed itself, %llu with one CPU, %llu over the %.3g %% "
		"share\n", (unsigned long long)ps->drawn, (unsigned long long)ps->moves,
		(unsigned long long)ps->shams, (unsigned long long)ps->skipped_awake,
		(unsigned long long)ps->skipped_narrowed, (unsigned long long)ps->skipped_one_cpu,
		(unsigned long long)ps->skipped_budget, 100 * ps->max_share);
	fprintf(f, "  masks:    %llu narrowed to one CPU, %llu given back%s",
		(unsigned long long)ps->masks_narrowed, (unsigned long long)ps->masks_restored,
		ps->masks_restored == ps->masks_narrowed ? " (every one)" : "");
	if (ps->masks_workload_set)
		fprintf(f, ", %llu left as the workload set them meanwhile",
			(unsigned long long)ps->masks_workload_set);
	if (ps->masks_restored + ps->masks_workload_set < ps->masks_narrowed)
		fprintf(f, ", %llu of threads gone before",
			(unsigned long long)(ps->masks_narrowed - ps->masks_restored -
					     ps->masks_workload_set));
	if (ps->masks_inherited)
		fprintf(f, "; %llu started by a moved thread meanwhile given the workload's mask",
			(unsigned long long)ps->masks_inherited);
	fprintf(f, "\n");
	fprintf(f, "  measured: %s\n", ps->by_runs ?
		"each moment's next run from a switch-in to a block, its CPU time (no units)" :
		"each moment's next unit");
	if (!r->has_probe_result)
		return;
	fprintf(f, "  timed:    %llu moves, %llu shams (%llu of them moved by the kernel after "
		"the moment: kept); left out: %llu not between units at the moment, %llu after "
		"the hold's 1 s, %llu moves not run before the mask came back, %llu moved by the "
		"kernel before the moment, %llu switched out or moved inside, %llu with no "
		"unit after\n", (unsigned long long)pr->timed_moves,
		(unsigned long long)pr->timed_shams, (unsigned long long)pr->sham_moved,
		(unsigned long long)pr->awake, (unsigned long long)pr->late,
		(unsigned long long)pr->unseen, (unsigned long long)pr->kernel_moved,
		(unsigned long long)pr->spanning, (unsigned long long)pr->no_unit);
	if (c->ncells) {
		print_table(f, c);
		print_hot_time(f, c);
	}
	if (isfinite(pr->cost_share))
		fprintf(f, "  what probing cost: ~%.2g %% of the workload's CPU time (%llu moves at "
			"their measured cost, over %.3g s)\n", 100 * pr->cost_share,
			(unsigned long long)ps->masks_narrowed, ps->workload_cpu_s);
	if (shown.kind != VERDICT_NONE && run_rules_scx(&r->env.rules))
		verdict_not_applicable(&shown);
	fprintf(f, "\nverdict from the probed moves\n");
	fprintf(f, "  kernel's value:      %10s\n", fmt_ns(a, sizeof(a), shown.kernel_ns));
	print_by_age(f, r, c, &shown);
	render_text_probe_levels(f, r);
}

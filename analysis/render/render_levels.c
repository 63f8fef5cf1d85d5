// SPDX-License-Identifier: GPL-2.0
/*
 * The text of the kernel's rule and of the topology levels (docs/design.md, "What the
 * kernel does", "Topology levels"): which test decided each judged pull before its age, the
 * migrations and pulls of each level with the kernel's ages of those pulls, and the kernel's
 * value judged level by level.  A run read from a file written before levels were kept has
 * none of it, and prints none of it.
 */
#include <math.h>
#include <string.h>

#include "render_text.h"
#include "units.h"

/* Each rule as the text names it, whether it says hot, and the kernel function it is in. */
static const struct {
	const char *what, *says, *where;
} rule_text[MT_NR_RULES] = {
	[MT_RULE_AGE] = { "none: the age decides", "", "task_hot()" },
	[MT_RULE_NUMA_TO_PREF] = { "onto its preferred NUMA node", "cold",
				   "migrate_degrades_locality()" },
	[MT_RULE_NUMA_FROM_PREF] = { "off its busy preferred node", "hot",
				     "migrate_degrades_locality()" },
	[MT_RULE_NOT_FAIR] = { "not the fair class", "cold", "task_hot()" },
	[MT_RULE_IDLE_POLICY] = { "SCHED_IDLE", "cold", "task_hot()" },
	[MT_RULE_SMT] = { "SMT siblings", "cold", "task_hot(): SD_SHARE_CPUCAPACITY" },
	[MT_RULE_CORE_COOKIE] = { "core cookie mismatch", "hot",
				  "task_hot(): sched_core_cookie_match()" },
};

void render_text_rules(FILE *f, const struct run *r)
{
	const struct mt_stats *s = &r->stats;

	if (!r->has_levels)
		return;
	fprintf(f, "  what decided each judged pull, in the kernel's order (docs/design.md, \"What "
		"the kernel does\"):\n");
	for (int i = 1; i <= MT_NR_RULES; i++) {
		int k = i % MT_NR_RULES;	/* the age last, as the kernel asks it last */

		fprintf(f, "    %-30s %-5s %8llu  %s\n", rule_text[k].what, rule_text[k].says,
			(unsigned long long)s->lb_rule[k], rule_text[k].where);
	}
	fprintf(f, "  not seen at the tracepoint (docs/design.md says why): the next buddy (hot), "
		"a task's eligibility (6.18 refuses an ineligible one), and hot pulls forced after "
		"unsuccessful balancing (`migtrace sweep` counts them: nr_forced_migrations)\n");
	if (s->lb_delayed)
		fprintf(f, "  %llu of the judged pulls moved a delayed-dequeue task (since 6.14 "
			"the kernel does that only when balancing load)\n",
			(unsigned long long)s->lb_delayed);
	if (s->lb_numa_weighed)
		fprintf(f, "  %llu cross-node pulls were weighed by the task's NUMA faults "
			"(migrate_degrades_locality()), which migtrace does not read: counted by "
			"age here, as the kernel may not have\n",
			(unsigned long long)s->lb_numa_weighed);
}

/* Slot groups of the kernel-age line: log2 µs slots [lo, hi), 2^3 apart. */
static const struct {
	int lo, hi;
	const char *name;
} age_group[] = {
	{ 0, 6, "< 64 µs" }, { 6, 9, "64-512 µs" }, { 9, 12, "0.5-4.1 ms" },
	{ 12, 15, "4.1-33 ms" }, { 15, MT_HIST_SLOTS, ">= 33 ms" },
};
#define NR_AGE_GROUPS ((int)(sizeof(age_group) / sizeof(age_group[0])))

static uint64_t level_total(const struct run *r, int l)
{
	uint64_t n = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		n += r->stats.level_migrations[l][c];
	return n;
}

/* The level rows in the order of distance: SMT, same LLC, cross LLC, cross node, unknown. */
static int level_at(int i)
{
	return (i + 1) % MT_NR_LEVELS;
}

void render_text_levels(FILE *f, const struct run *r)
{
	const struct mt_stats *s = &r->stats;
	char a[32], hot[40];

	if (!r->has_levels)
		return;
	fprintf(f, "\nby topology level (the CPU pair of each move: SMT sibling, same LLC, cross "
		"LLC, cross node%s%s%s):\n", r->topo.llc_why[0] ? "; LLC unknown where the "
		"sharing of the last-level cache is not known, never guessed: " : "",
		r->topo.llc_why, r->topo.numa_balancing ? "; NUMA balancing on" : "");
	fprintf(f, "  %-12s %10s %10s %8s %8s %8s  hot at %s\n", "level", "migrations",
		"placements", "pulls", "others", "judged", fmt_ns(a, sizeof(a),
								    (double)r->meta.hot_ns));
	for (int i = 0; i < MT_NR_LEVELS; i++) {
		int l = level_at(i);
		uint64_t n = level_total(r, l), w = s->level_migrations[l][MT_CAUSE_WAKEUP],
			 p = s->level_migrations[l][MT_CAUSE_LB_PULL];

		if (!n)
			continue;
		snprintf(hot, sizeof(hot), "%llu (%.1f %%)", (unsigned long long)s->level_lb_hot[l],
			 pct(s->level_lb_hot[l], s->level_lb_judged[l]));
		fprintf(f, "  %-12s %10llu %10llu %8llu %8llu %8llu  %s\n", mt_level_titles[l],
			(unsigned long long)n, (unsigned long long)w, (unsigned long long)p,
			(unsigned long long)(n - w - p), (unsigned long long)s->level_lb_judged[l],
			s->level_lb_judged[l] ? hot : "-");
	}
	if (!s->lb_judged)
		return;
	fprintf(f, "  the kernel's age of the judged pulls:\n  %-12s", "level");
	for (int g = 0; g < NR_AGE_GROUPS; g++)
		fprintf(f, " %*s%s", 10 - utf8_columns(age_group[g].name), "", age_group[g].name);
	fputc('\n', f);
	for (int i = 0; i < MT_NR_LEVELS; i++) {
		int l = level_at(i);

		if (!s->level_lb_judged[l])
			continue;
		fprintf(f, "  %-12s", mt_level_titles[l]);
		for (int g = 0; g < NR_AGE_GROUPS; g++) {
			uint64_t n = 0;

			for (int k = age_group[g].lo; k < age_group[g].hi; k++)
				n += r->hists.kernel_age_level[l][k];
			fprintf(f, " %10llu", (unsigned long long)n);
		}
		fputc('\n', f);
	}
}

/* A level's T* in a clause: "; T* 1.53 ms (1.27 ms to 1.91 ms)", "; T* below 741 µs". */
static void level_tstar(FILE *f, const struct run_level_cost *c)
{
	char a[32], lo[32], hi[32];

	switch (c->tstar_state) {
	case CORR_HOT_FOUND:
		fprintf(f, "; T* %s (%s to %s)", fmt_ns(a, sizeof(a), c->tstar_ns),
			c->tstar_lo_ns > 0 ? fmt_ns(lo, sizeof(lo), c->tstar_lo_ns) : "below the range",
			isfinite(c->tstar_hi_ns) ? fmt_ns(hi, sizeof(hi), c->tstar_hi_ns) :
			"beyond the range");
		break;
	case CORR_HOT_NO_COST:
		fprintf(f, "; T* below %s (a pull pays at every age)",
			fmt_ns(a, sizeof(a), c->tstar_ns));
		break;
	case CORR_HOT_ABOVE:
		fprintf(f, "; T* above %s (a pull pays at no age measured)",
			fmt_ns(a, sizeof(a), c->tstar_ns));
		break;
	default:
		break;
	}
}

/*
 * One level's line of the verdict: its evidence (the kernel's pulls, or run --probe-moves'
 * moves: `what`), its youngest cell's cost, K judged on it.
 */
static void level_verdict(FILE *f, const struct run *r, const struct run_level_cost *lc,
			  int l, const char *what)
{
	const struct run_level_cost *c = &lc[l];
	char a[32], b[32], lo[32], hi[32], kn[32];

	fprintf(f, "       %-12s ", mt_level_titles[l]);
	if (!c->pulls) {
		fprintf(f, "no unit after a %.*s of this level\n", (int)strlen(what) - 1, what);
		return;
	}
	fprintf(f, "%llu %s timed, %llu judged", (unsigned long long)c->pulls, what,
		(unsigned long long)c->judged);
	if (c->cells)
		fprintf(f, "; at %s-%s (%llu %s) a move costs %s (95 %% interval %s to %s)",
			fmt_ns(a, sizeof(a), c->age_ns), fmt_ns(b, sizeof(b), c->age_hi_ns),
			(unsigned long long)c->cell_pulls, what, fmt_ns(kn, sizeof(kn), c->cost_ns),
			fmt_ns(lo, sizeof(lo), c->cost_lo_ns),
			fmt_ns(hi, sizeof(hi), c->cost_hi_ns));
	level_tstar(f, c);
	fmt_ns(kn, sizeof(kn), (double)r->meta.hot_ns);
	if (c->bias)
		fprintf(f, ": biased (a cost below 0), no verdict\n");
	else if (c->judged < c->min_judged)
		fprintf(f, ": undetermined (fewer than %llu judged %s)\n",
			(unsigned long long)c->min_judged, what);
	else if (c->kind == VERDICT_UNDETERMINED || !isfinite(c->factor))
		fprintf(f, ": the kernel's %s is undetermined here (%s)\n", kn,
			c->hot_state == CORR_HOT_ABOVE ? "the hot time lies past the oldest age "
			"measured" : c->hot_state == CORR_HOT_NO_COST ? "no cost above noise at "
			"any age" : "the hot time's interval is wide around it");
	else if (c->kind == VERDICT_ABOUT_RIGHT)
		fprintf(f, ": %s fits\n", kn);
	else
		fprintf(f, ": %s is %s by a factor of %s%.3g (95 %% interval %.3g to %.3g)\n", kn,
			verdict_names[c->kind], c->factor_is_bound ? "at least " : "", c->factor,
			c->factor_lo, c->factor_hi);
}

/* Whether level l's pulls gave a verdict: enough of them, no bias, a factor. */
static bool level_judged(const struct run_level_cost *c)
{
	return c->pulls && !c->bias && c->judged >= c->min_judged && isfinite(c->factor) &&
	       c->kind != VERDICT_UNDETERMINED;
}

/* Which levels the one value fits, and which it does not: the levels with a verdict. */
static void levels_summary(FILE *f, const struct run *r, const struct run_level_cost *lc,
			   const char *what)
{
	static const enum verdict_kind kinds[] = { VERDICT_ABOUT_RIGHT, VERDICT_TOO_HIGH,
						   VERDICT_TOO_LOW };
	static const char *const says[] = { "fits", "too high for", "too low for" };
	char a[32];
	int said = 0;

	fprintf(f, "     => %s by level:", fmt_ns(a, sizeof(a), (double)r->meta.hot_ns));
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		int n = 0;

		for (int i = 0; i < MT_NR_LEVELS; i++) {
			const struct run_level_cost *c = &lc[level_at(i)];

			if (!level_judged(c) || c->kind != kinds[k])
				continue;
			if (n++)
				fprintf(f, ", %s", mt_level_titles[level_at(i)]);
			else
				fprintf(f, "%s%s %s", said++ ? "; " : " ", says[k],
					mt_level_titles[level_at(i)]);
		}
	}
	if (said) {
		fprintf(f, "; the other levels are undetermined\n");
		return;
	}
	for (int i = 0; i < MT_NR_LEVELS; i++) {
		const struct run_level_cost *c = &lc[level_at(i)];

		if (c->pulls && c->judged >= c->min_judged) {
			fprintf(f, " undetermined at every level (each level's line says why)\n");
			return;
		}
	}
	fprintf(f, " no level has the %s a verdict needs\n", what);
}

void render_text_levels_verdict(FILE *f, const struct run *r)
{
	unsigned l;

	if (!r->has_levels)
		return;
	if (r->setup.mode == CORR_CONTROLLED) {
		l = r->meta.cpus.n >= 2 ? run_topo_level(&r->topo, r->meta.cpus.cpu[0],
							  r->meta.cpus.cpu[1]) : MT_LEVEL_UNKNOWN;
		fprintf(f, "     every move here is one level, %s: the verdict above is that "
			"level's\n", mt_level_titles[l]);
		return;
	}
	if (!r->has_level_cost)
		return;
	fprintf(f, "     by topology level (one value serves them all; the 2.6.16 kernel's "
		"migration_cost= took one per domain distance), each level's pulls against every "
		"same-CPU wake:\n");
	for (int i = 0; i < MT_NR_LEVELS; i++)
		if (level_total(r, level_at(i)) || r->level_cost[level_at(i)].pulls)
			level_verdict(f, r, r->level_cost, level_at(i), "pulls");
	levels_summary(f, r, r->level_cost, "pulls");
}

void render_text_probe_levels(FILE *f, const struct run *r)
{
	if (!r->has_probe_level_cost)
		return;
	fprintf(f, "     by topology level, each level's moves against every sham:\n");
	for (int i = 0; i < MT_NR_LEVELS; i++)
		if (r->probe_level_cost[level_at(i)].pulls)
			level_verdict(f, r, r->probe_level_cost, level_at(i), "moves");
	levels_summary(f, r, r->probe_level_cost, "moves");
}

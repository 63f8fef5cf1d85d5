// SPDX-License-Identifier: GPL-2.0
/* Analysis stages over one run model: summary, correlation, verdict (analyze.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "correlate.h"
#include "levels.h"
#include "probe_judge.h"
#include "verdict.h"
#include "wait.h"

/* The counts the text's summary states beyond the raw counters. */
static void summarize(struct run *r)
{
	struct run_summary *s = &r->sum;

	memset(s, 0, sizeof(*s));
	s->migrations = run_total_migrations(r);
	/* wake_up_new_task() places a new task with __set_task_cpu(): the kernel does not
	 * count a fork placement in se.nr_migrations */
	s->kernel_counted = s->migrations - r->stats.migrations[MT_CAUSE_FORK];
	s->completeness_gap = (int64_t)r->stats.kernel_migrations - (int64_t)s->kernel_counted;
	for (size_t i = 0; i < r->nrecs; i++) {
		if (r->recs[i].cause != MT_CAUSE_WAKEUP)
			continue;
		s->wakeup_records++;
		s->wakeup_hot += MT_TASK_HOT((int64_t)r->recs[i].age_ns, r->meta.hot_ns);
	}
}

/*
 * Whether the experiment's polluter streams on CPU A (cachewalk's --from, else the first
 * CPU the workload was allowed, as cachewalk picks it): then D is the cost's axis.
 */
static bool polluter_on_a(const struct cachewalk_config *cw, const struct cpu_set_list *cpus)
{
	char list[sizeof(cw->polluter_cpus)], *save = NULL;
	int a = cw->cpu_a >= 0 ? cw->cpu_a : cpus->n ? cpus->cpu[0] : -1;

	snprintf(list, sizeof(list), "%s", cw->polluter_cpus);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (atoi(t) == a)
			return true;
	return false;
}

/* Natural mode: the CPUs cachewalk's polluters stream on, into the correlation's mask. */
static void polluted_cpus(const struct cachewalk_config *cw, struct corr_opts *co)
{
	char list[sizeof(cw->polluter_cpus)], *save = NULL;

	snprintf(list, sizeof(list), "%s", cw->polluter_cpus);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int cpu = atoi(t);

		if (cpu >= 0 && cpu < CORR_MAX_POLLUTED_CPU)
			co->polluted_cpus[cpu / 64] |= 1ULL << (cpu % 64);
	}
}

/* The buffer the polluter streams through: a power of two, as cachewalk rounds it down. */
static double polluter_footprint(uint64_t bytes)
{
	while (bytes & (bytes - 1))
		bytes &= bytes - 1;
	return (double)bytes;
}

/* The correlation's options for run r, as its configuration says. */
static void opts_of(const struct run *r, struct corr_opts *co)
{
	const struct cachewalk_config *cw = &r->setup.cw;

	corr_default_opts(co, r->setup.mode);
	/* natural: the pulls' records, for the kernel's own age of each */
	if (r->setup.mode == CORR_NATURAL) {
		co->migs = r->recs;
		co->nmigs = r->nrecs;
	}
	if (r->setup.cachewalk) {
		co->ws_bytes = (double)cw->ws_bytes;
		if (r->setup.mode == CORR_CONTROLLED && polluter_on_a(cw, &r->meta.cpus))
			co->footprint_bytes = polluter_footprint(cw->polluter_bytes);
		if (r->setup.mode == CORR_NATURAL)
			polluted_cpus(cw, co);
	}
	co->cold_fraction = r->setup.cold_fraction;
	if (r->setup.bootstrap > 0)
		co->bootstrap = r->setup.bootstrap;
	if (r->setup.level > 0 && r->setup.level < 1)
		co->level = r->setup.level;
}

int run_stay_reach(const struct run *r, double level_ns, struct corr_fall *out)
{
	struct corr_result *c = malloc(sizeof(*c));
	struct corr_opts co;
	int err;

	if (!c)
		return -ENOMEM;
	opts_of(r, &co);
	co.stay_level_ns = level_ns;
	err = correlate_units(r->units, r->nunits, &co, c);
	if (!err)
		*out = c->stay_reach;
	free(c);
	return err;
}

static int correlate(struct run *r)
{
	struct corr_opts co;

	opts_of(r, &co);
	r->setup.bootstrap = co.bootstrap;
	return correlate_units(r->units, r->nunits, &co, &r->corr);
}

void run_judge_corr(const struct run *r, const struct corr_result *corr, struct verdict *v)
{
	struct verdict_in vin = {
		.corr = corr,
		.kernel_ns = (double)r->meta.hot_ns,
		.has_calib = r->calib.valid,
		.calib_ns = r->calib.hot_ns,
	};

	/* natural correlations: the band's share of the run's own migrations */
	if (corr->mode == CORR_NATURAL) {
		vin.migs = r->recs;
		vin.nmigs = r->nrecs;
	}
	verdict_decide(&vin, v);
	/* under a sched_ext scheduler no pull of the traced tasks asked task_hot(): the numbers
	 * stay as measured, no kind says the value fits or not (docs/design.md, "When the
	 * threshold does not govern") */
	if (run_rules_scx(&r->env.rules))
		verdict_not_applicable(v);
}

static void judge(struct run *r)
{
	r->has_verdict = true;
	/* An experiment cut short has not measured every age of its schedule: a verdict from
	 * it would look as sure as a whole one.  (Natural runs end when the user says; a
	 * sequential experiment ends at a look, after a whole round.) */
	if (r->setup.mode == CORR_CONTROLLED && r->meta.interrupted) {
		verdict_none(&r->verdict, (double)r->meta.hot_ns);
		r->verdict.cold_fraction = r->corr.cold_fraction;
		return;
	}
	run_judge_corr(r, &r->corr, &r->verdict);
}

int run_look(const struct run *r, struct verdict *v)
{
	struct corr_result *c = malloc(sizeof(*c));
	struct corr_opts co;
	int err = -ENOMEM;

	if (!c)
		return err;
	opts_of(r, &co);
	err = correlate_units(r->units, r->nunits, &co, c);
	if (!err)
		run_judge_corr(r, c, v);
	free(c);
	return err;
}

int run_analyze(struct run *r)
{
	summarize(r);
	r->has_corr = false;
	r->has_verdict = false;
	if (probe_judge(r))
		return -ENOMEM;
	if (!r->nunits)
		return 0;
	if (correlate(r))
		return -ENOMEM;
	r->has_corr = true;
	judge(r);
	wait_judge(r);
	return levels_cost(r);
}

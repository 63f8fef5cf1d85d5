// SPDX-License-Identifier: GPL-2.0
/*
 * The renderers over a model made by hand: the verdict's words come from its numbers alone
 * (each kind, the bands, an unbounded factor, an interrupted experiment), the cold fraction
 * is the model's, the rules besides the age print where they apply and a sched_ext scheduler
 * leaves no kind judged, and the compare view flags exactly the differences beyond both
 * intervals.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "render_compare.h"
#include "render_text.h"
#include "verdict.h"

#define US 1000.0

/* A controlled run with three cells and a verdict the test sets. */
static struct run *model(void)
{
	struct run *r = run_new();

	assert_non_null(r);
	r->setup.mode = CORR_CONTROLLED;
	snprintf(r->meta.command, sizeof(r->meta.command), "cachewalk --controlled");
	snprintf(r->meta.hot_source, sizeof(r->meta.hot_source), "read from /proc/x");
	snprintf(r->meta.end_reason, sizeof(r->meta.end_reason), "exited with status 0");
	r->meta.hot_ns = 500000;
	r->meta.cpus.n = 2;
	r->meta.cpus.cpu[1] = 1;
	assert_int_equal(run_alloc_pairs(r, 2), 0);
	r->has_corr = true;
	r->corr.mode = CORR_CONTROLLED;
	r->corr.cold_fraction = 0.1;
	r->corr.baseline_ns = 100 * US;
	r->corr.ncells = 3;
	r->corr.cells[0] = (struct corr_cell){ .age_ns = 50 * US, .cost_ns = 50 * US,
					       .cost_lo_ns = 45 * US, .cost_hi_ns = 55 * US,
					       .fit_cost_ns = 50 * US };
	r->corr.cells[1] = (struct corr_cell){ .age_ns = 1000 * US, .cost_ns = 20 * US,
					       .cost_lo_ns = 15 * US, .cost_hi_ns = 25 * US,
					       .fit_cost_ns = 20 * US };
	r->corr.cells[2] = (struct corr_cell){ .age_ns = 5000 * US, .cost_ns = 0,
					       .cost_lo_ns = -5 * US, .cost_hi_ns = 5 * US,
					       .fit_cost_ns = 0 };
	r->corr.cost_frac_slice = NAN;		/* controlled: not said */
	r->corr.hot_state = CORR_HOT_FOUND;
	r->corr.hot_ns = 1700 * US;
	r->corr.hot_lo_ns = 1500 * US;
	r->corr.hot_hi_ns = 2000 * US;
	r->corr.max_cost_ns = 50 * US;
	r->has_verdict = true;
	return r;
}

/* The text of r, as a string the caller frees. */
static char *text_of(const struct run *r)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	render_text(f, r);
	fclose(f);
	return buf;
}

static void has(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		fprintf(stderr, "%s", text);
		fail_msg("'%s' is not in the text above", want);
	}
}

static void too_low_from_numbers(void **state)
{
	struct run *r = model();
	struct verdict_in vin = { .corr = &r->corr, .kernel_ns = 500 * US };
	char *t;

	(void)state;
	verdict_decide(&vin, &r->verdict);
	assert_int_equal(r->verdict.kind, VERDICT_TOO_LOW);
	t = text_of(r);
	has(t, "Tracing migrations of cachewalk --controlled on CPUs 0-1; hot means "
	       "younger than 500 µs (read from /proc/x). Hit Ctrl-C to end.\n");
	has(t, "  observed hot time, where the cost falls under 10 % of its 50.0 µs maximum: "
	       "1.70 ms (95 % interval 1.50 ms to 2.00 ms)\n");
	has(t, "  => the kernel's 500 µs is too low by a factor of 3.4 (95 % interval 3 to 4)\n");
	has(t, "     at ages 500 µs-1.70 ms a migration costs 20.0 µs (20 % of a 100 µs unit); "
	       "task_hot() calls tasks of those ages cold\n");
	assert_null(strstr(t, "the run slice that followed"));	/* controlled: by design */
	free(t);
	/* the cold fraction is the model's, wherever it is said */
	r->corr.cold_fraction = r->verdict.cold_fraction = 0.25;
	t = text_of(r);
	has(t, "falls under 25 % of its 50.0 µs maximum");
	free(t);
	run_free(r);
}

static void too_high_and_about_right(void **state)
{
	struct run *r = model();
	struct verdict_in vin = { .corr = &r->corr, .kernel_ns = 5000 * US };
	char *t;

	(void)state;
	verdict_decide(&vin, &r->verdict);
	assert_int_equal(r->verdict.kind, VERDICT_TOO_HIGH);
	assert_int_equal(r->verdict.band_cells, 0);	/* no cell in [1.7 ms, 5 ms) */
	t = text_of(r);
	has(t, "  => the kernel's 5.00 ms is too high by a factor of 2.94 (95 % interval 2.5 to "
	       "3.33)\n");
	has(t, "     no age measured lies in the band 1.70 ms-5.00 ms (--ages), so what a "
	       "migration costs there is not known\n");
	free(t);
	vin.kernel_ns = 1800 * US;
	verdict_decide(&vin, &r->verdict);
	assert_int_equal(r->verdict.kind, VERDICT_ABOUT_RIGHT);
	t = text_of(r);
	has(t, "  => the kernel's 1.80 ms is about right: the observed hot time's 95 % interval, "
	       "1.50 ms to 2.00 ms, contains it\n");
	free(t);
	run_free(r);
}

static void odd_thresholds_and_none(void **state)
{
	struct run *r = model();
	struct verdict_in vin = { .corr = &r->corr, .kernel_ns = 0 };
	char *t;

	(void)state;
	verdict_decide(&vin, &r->verdict);	/* 0: no task is ever hot */
	assert_int_equal(r->verdict.kind, VERDICT_TOO_LOW);
	assert_true(isnan(r->verdict.factor));
	t = text_of(r);
	has(t, "is too low by an unbounded factor\n");
	free(t);
	vin.kernel_ns = -1;			/* -1: every task is hot */
	verdict_decide(&vin, &r->verdict);
	assert_int_equal(r->verdict.kind, VERDICT_TOO_HIGH);
	verdict_none(&r->verdict, 500 * US);
	snprintf(r->meta.end_reason, sizeof(r->meta.end_reason), "ended by --duration");
	t = text_of(r);
	has(t, "\nverdict: none: the controlled experiment was interrupted (ended by --duration) "
	       "before it finished its schedule");
	assert_null(strstr(t, "=>"));
	free(t);
	run_free(r);
}

/* A host where nothing but the age decides: what every rule reads as when it does not apply. */
static void quiet_rules(struct run_sched_rules *s)
{
	*s = (struct run_sched_rules){ .checked = true, .scx_switch_all = -1,
				       .numa_balancing = 0, .numa_nodes = 1,
				       .core_sched = RUN_CORE_NOT_BUILT, .core_cookie_tasks = -1,
				       .traced_tasks = 1, .preferred_llc = RUN_BTF_ABSENT };
}

/* The words "too low", "too high", "about right", "fits" are none of the text's verdicts. */
static void no_judgement(const char *t)
{
	const char *v = strstr(t, "\nverdict\n");

	assert_non_null(v);
	if (strstr(v, "too low") || strstr(v, "too high") || strstr(v, "about right") ||
	    strstr(v, " fits ")) {
		fprintf(stderr, "%s", v);
		fail_msg("the verdict above judges the value though task_hot() was not consulted");
	}
}

static void rules_besides_the_age(void **state)
{
	struct run *r = model();
	struct verdict_in vin = { .corr = &r->corr, .kernel_ns = 500 * US };
	char *plain, *t;

	(void)state;
	verdict_decide(&vin, &r->verdict);
	plain = text_of(r);
	/* checked, and none applies: not a byte more */
	quiet_rules(&r->env.rules);
	r->env.rules.scx_state[0] = '\0';
	t = text_of(r);
	assert_string_equal(t, plain);
	free(t);
	strcpy(r->env.rules.scx_state, "disabled");
	r->env.rules.numa_balancing = 1;		/* one node: no pull crosses nodes */
	r->env.rules.core_sched = RUN_CORE_AVAILABLE;
	r->env.rules.core_cookie_tasks = 0;
	t = text_of(r);
	assert_string_equal(t, plain);
	free(t);
	/* each that applies: one line before the conclusion, which stands */
	r->env.rules.numa_nodes = 2;
	r->env.rules.core_cookie_tasks = 3;
	r->env.rules.traced_cookie_tasks = 1;
	r->env.rules.preferred_llc = RUN_BTF_PRESENT;
	r->env.rules.llc = (struct run_llc_knobs){ 1, 1, 20, 50, 2, 5 };
	t = text_of(r);
	has(t, "  kernel's value:         500 µs  (read from /proc/x)\n"
	       "  NUMA balancing:        on (kernel.numa_balancing = 1, 2 nodes): for a pull "
	       "across nodes migrate_degrades_locality() decides before the age does");
	has(t, "\n  core scheduling:       in use (3 tasks of the machine carry a cookie; 1 of the "
	       "1 traced): task_hot() calls a task hot, whatever its age, when the destination "
	       "core runs another cookie\n");
	has(t, "\n  cache-aware balancing: this kernel's task_struct has preferred_llc");
	assert_true(strstr(t, "cache-aware balancing:") < strstr(t, "  => the kernel's 500 µs is "
								 "too low"));
	free(t);
	/* a BPF scheduler with every fair task: not applicable, the numbers as measured */
	strcpy(r->env.rules.scx_state, "enabled");
	strcpy(r->env.rules.scx_ops, "scx_lavd");
	r->env.rules.scx_switch_all = 1;
	verdict_not_applicable(&r->verdict);
	t = text_of(r);
	has(t, "\n  sched_ext:             scx_lavd is loaded (state enabled, every task of the "
	       "fair class): the traced tasks are not the fair class's, so task_hot() is not "
	       "consulted for them, whatever the kernel's value\n");
	has(t, "  observed hot time:   1.70 ms (95 % interval 1.50 ms to 2.00 ms)\n"
	       "  => not applicable: task_hot() is not consulted under a sched_ext scheduler; the "
	       "observed hot time is what a migration costs here");
	no_judgement(t);
	free(t);
	/* a file whose verdict was stored before: the text still says not applicable */
	verdict_decide(&vin, &r->verdict);
	assert_int_equal(r->verdict.kind, VERDICT_TOO_LOW);
	t = text_of(r);
	has(t, "  => not applicable: ");
	no_judgement(t);
	free(t);
	/* partial mode, the traced task not of policy SCHED_EXT: the verdict stands */
	r->env.rules.scx_switch_all = 0;
	t = text_of(r);
	has(t, "  sched_ext:             scx_lavd is loaded (state enabled, partial: only tasks of "
	       "policy SCHED_EXT; 0 of the 1 traced tasks were): the traced tasks stayed in the "
	       "fair class, where task_hot() decides\n");
	has(t, "  => the kernel's 500 µs is too low by");
	free(t);
	free(plain);
	run_free(r);
}

/* A grid under sched_ext: D* and each rate's hot time, no rate judged. */
static void by_rate_not_applicable(void **state)
{
	struct run *r = model();
	char *t;

	(void)state;
	r->corr.axis = CORR_AXIS_DISPLACED;
	r->verdict = (struct verdict){ .kind = VERDICT_BY_RATE, .kernel_ns = 500 * US,
				       .dstar_bytes = 900e3, .dstar_lo_bytes = 600e3,
				       .dstar_hi_bytes = 1e6, .fit_rate_mbps = 1800,
				       .fit_rate_lo_mbps = 1200, .fit_rate_hi_mbps = 2000,
				       .calib_over_observed = NAN, .nrates = 2 };
	r->verdict.rates[0] = (struct verdict_rate){ .rate_mbps = 200, .achieved_mbps = 180,
						     .kind = VERDICT_TOO_LOW, .hot_ns = 5e6,
						     .hot_lo_ns = 3e6, .hot_hi_ns = 6e6,
						     .factor = 10, .factor_lo = 7,
						     .factor_hi = 12 };
	r->verdict.rates[1] = (struct verdict_rate){ .rate_mbps = 5000, .achieved_mbps = 4200,
						     .kind = VERDICT_TOO_HIGH, .hot_ns = 2e5,
						     .hot_lo_ns = 1.5e5, .hot_hi_ns = 2.5e5,
						     .factor = 2.3, .factor_lo = 2,
						     .factor_hi = 3.3 };
	t = text_of(r);
	has(t, "  => the kernel's 500 µs fits when");
	free(t);
	quiet_rules(&r->env.rules);
	strcpy(r->env.rules.scx_state, "enabled");
	t = text_of(r);
	has(t, "  sched_ext:             a BPF scheduler is loaded (state enabled): the traced "
	       "tasks are not the fair class's");
	has(t, "  => not applicable: task_hot() is not consulted under a sched_ext scheduler; D* "
	       "(and each rate's hot time below) is what a migration costs here");
	has(t, "       180 MB/s           hot time 5.00 ms (3.00 ms to 6.00 ms): not applicable\n");
	no_judgement(t);
	free(t);
	run_free(r);
}

/*
 * Wakeup placements younger than the threshold with most records not kept (--max-records 5):
 * the share comes from the complete age histogram, bounded where its slot straddles the
 * threshold, never a kept count over the total (it said "32381, of which 0 (0.0 %)").
 */
static void wakeup_share_from_complete_histogram(void **state)
{
	struct run *r = model();
	__u64 *age = r->hists.age[MT_CAUSE_WAKEUP];
	char *t;

	(void)state;
	age[3] = 20;		/* 8-15 µs: under 500 µs */
	age[8] = 32358;		/* 256-511 µs: 500 µs splits it */
	age[9] = 3;		/* 512-1023 µs: over */
	r->stats.migrations[MT_CAUSE_WAKEUP] = 32381;
	r->sum.migrations = 32381;
	r->sum.wakeup_records = 5;	/* the first 5 kept, all of 600 µs */
	r->sum.wakeup_hot = 0;
	r->recs_not_kept = 32376;
	t = text_of(r);
	has(t, "  wakeup placements (task_hot() is never asked): 32381, of which at least 20 "
	       "(0.1 %) and at most 32378 (100.0 %) younger than 500 µs (from the in-kernel age "
	       "histogram, complete: not every placement has its record; its 256 -> 511 µs "
	       "slot, 32358 placements, straddles 500 µs)\n");
	assert_null(strstr(t, "of which 0 (0.0 %)"));
	free(t);
	/* a threshold on a slot's edge: the histogram's count is exact */
	r->meta.hot_ns = 512 * US;
	t = text_of(r);
	has(t, "32381, of which 32378 (100.0 %) younger than 512 µs (from the in-kernel age "
	       "histogram, complete: not every placement has its record)\n");
	free(t);
	/* every placement with its record: the records' own count, as before */
	r->meta.hot_ns = 500 * US;
	r->sum.wakeup_records = 32381;
	r->sum.wakeup_hot = 1234;
	r->recs_not_kept = 0;
	t = text_of(r);
	has(t, "32381, of which 1234 (3.8 %) younger than 500 µs\n");
	free(t);
	run_free(r);
}

/* The band's share of a natural run's migrations is of their records: when not all were
 * kept, the line says it is of those kept, not of the run's migrations. */
static void band_share_of_records_kept(void **state)
{
	struct run *r = model();
	struct verdict_in vin = { .corr = &r->corr, .kernel_ns = 500 * US };
	char *t;

	(void)state;
	verdict_decide(&vin, &r->verdict);
	r->verdict.has_run_share = true;
	r->verdict.run_migrations = 952;
	r->verdict.band_migrations = 476;
	t = text_of(r);
	has(t, "; 50 % of this run's 952 migrations were of tasks that age\n");
	free(t);
	r->stats.migrations[MT_CAUSE_LB_PULL] = 20185;
	r->recs_not_kept = 20185 - 952;
	t = text_of(r);
	has(t, "; 50 % of the 952 migration records kept were of tasks that age\n");
	free(t);
	run_free(r);
}

/* Names from outside (the command line, paths, the CPU model, any string of a run file)
 * reach the terminal escaped, as `ls -b` shows them: no escape sequence, no newline. */
static void hostile_names_escaped(void **state)
{
	struct run *a = model(), *b = model();
	struct run_compare c;
	char *t, *buf = NULL;
	size_t len;
	FILE *f;

	(void)state;
	snprintf(a->meta.command, sizeof(a->meta.command), "w\033[2J\nFAKE \xff =1+2");
	snprintf(a->meta.hot_source, sizeof(a->meta.hot_source), "read from /x\033]0;t\a");
	snprintf(a->setup.calibration_file, sizeof(a->setup.calibration_file), "c\r.json");
	a->verdict.has_calib = true;
	a->verdict.calib_ns = 300 * US;
	t = text_of(a);
	has(t, "Tracing migrations of w\\033[2J\\nFAKE \\377 =1+2 on CPUs 0-1; hot "
	       "means younger than 500 µs (read from /x\\033]0;t\\a). Hit Ctrl-C to end.\n");
	has(t, "\nw\\033[2J\\nFAKE \\377 =1+2: exited with status 0 after 0.00 s\n");
	has(t, "  kernel's value:      ");
	has(t, "(read from /x\\033]0;t\\a)\n");
	has(t, "(c\\r.json)\n");
	assert_null(strchr(t, '\033'));
	assert_null(strchr(t, '\r'));
	free(t);
	verdict_none(&a->verdict, 500 * US);
	snprintf(a->meta.end_reason, sizeof(a->meta.end_reason), "killed\n\033[1A");
	t = text_of(a);
	has(t, "interrupted (killed\\n\\033[1A) before");
	assert_null(strchr(t, '\033'));
	free(t);
	snprintf(b->env.cpu_model, sizeof(b->env.cpu_model), "EPYC\033[31m");
	snprintf(b->env.kernel_release, sizeof(b->env.kernel_release), "6.1\n");
	run_compare(a, b, &c);
	f = open_memstream(&buf, &len);
	render_compare(f, &c, "a\033.json", "b.json");
	fclose(f);
	has(buf, "  A: a\\033.json: w\\033[2J\\nFAKE \\377 =1+2\n");
	has(buf, "     kernel 6.1\\n, EPYC\\033[31m, ");
	assert_null(strchr(buf, '\033'));
	free(buf);
	run_free(a);
	run_free(b);
}

static void wilson(void **state)
{
	struct cmp_share s = cmp_wilson(50, 100);

	(void)state;
	assert_true(fabs(s.share - 0.5) < 1e-12);
	assert_true(fabs(s.lo - 0.4038) < 1e-4 && fabs(s.hi - 0.5962) < 1e-4);
	s = cmp_wilson(0, 10);
	assert_true(s.lo == 0 && fabs(s.hi - 0.2775) < 1e-4);
	s = cmp_wilson(0, 0);
	assert_true(isnan(s.share) && s.lo == 0 && s.hi == 1);
}

static void compare_flags_what_exceeds_intervals(void **state)
{
	struct run *a = model(), *b = model();
	struct run_compare c;
	char *buf = NULL;
	size_t len;
	FILE *f;

	(void)state;
	/* causes: 90/100 against 50/100 differ; 5/100 against 6/100 do not */
	a->stats.migrations[MT_CAUSE_WAKEUP] = 90;
	a->stats.migrations[MT_CAUSE_LB_PULL] = 10;
	b->stats.migrations[MT_CAUSE_WAKEUP] = 50;
	b->stats.migrations[MT_CAUSE_LB_PULL] = 50;
	a->hists.age[MT_CAUSE_WAKEUP][9] = 100;
	b->hists.age[MT_CAUSE_WAKEUP][9] = 94;
	b->hists.age[MT_CAUSE_WAKEUP][10] = 6;
	/* costs: the 50 µs cell moves beyond both intervals, the 1 ms one within them */
	b->corr.cells[0].cost_ns = 80 * US;
	b->corr.cells[0].cost_lo_ns = 70 * US;
	b->corr.cells[0].cost_hi_ns = 90 * US;
	b->corr.cells[1].cost_ns = 22 * US;
	b->corr.hot_ns = 4000 * US;
	b->corr.hot_lo_ns = 3000 * US;
	b->corr.hot_hi_ns = 4500 * US;
	run_compare(a, b, &c);
	assert_true(c.cause[MT_CAUSE_WAKEUP].differs && c.cause[MT_CAUSE_LB_PULL].differs);
	assert_false(c.cause[MT_CAUSE_AFFINITY].differs);
	assert_false(c.age[9].differs || c.age[10].differs);
	assert_int_equal(c.ncells, 3);
	assert_true(c.cells[0].differs);
	assert_false(c.cells[1].differs || c.cells[2].differs);
	assert_true(c.hot_differs);
	f = open_memstream(&buf, &len);
	render_compare(f, &c, "a.json", "b.json");
	fclose(f);
	has(buf, "  A: a.json: cachewalk --controlled\n");
	has(buf, "    50.0 µs  50.0 µs [45.0 µs, 55.0 µs]      80.0 µs [70.0 µs, 90.0 µs]     *\n");
	has(buf, "     1.00 ms  20.0 µs [15.0 µs, 25.0 µs]      22.0 µs [15.0 µs, 25.0 µs]\n");
	has(buf, "  observed (95 %)   1.70 ms [1.50 ms, 2.00 ms]            4.00 ms [3.00 ms, "
		 "4.50 ms]           *\n");
	/* no line ends in a space */
	assert_null(strstr(buf, " \n"));
	free(buf);
	run_free(a);
	run_free(b);
}

/*
 * A natural thread's units: warm 100 µs units, and after sleeps of 60 µs to 15 ms a first
 * unit whose penalty grows with log(age), 45 µs more at 3 ms than at 60 µs.
 */
static void natural_units(struct run *r)
{
	static const double ages_us[] = { 60, 150, 300, 700, 1500, 3000, 7000, 15000 };
	uint64_t t = 1000000;

	for (int rep = 0; rep < 20; rep++)
		for (int i = 0; i < 8; i++) {
			double pen = 45 * log2(ages_us[i] / 60) / log2(3000.0 / 60);
			struct mt_unit u = { .kind = MT_REC_UNIT, .pid = 9, .tgid = 9 };

			u.prev_end_ns = t - 10 * US;	/* ran on from the unit before: warm */
			u.start_ns = t;
			u.end_ns = t + 100 * US;
			assert_int_equal(run_record_add_unit(r, &u), 0);
			t = u.end_ns + (uint64_t)(ages_us[i] * US);
			u.prev_end_ns = u.end_ns;
			u.start_ns = t;
			u.end_ns = t + (uint64_t)((100 + pen) * US);
			u.switches_before = 1;
			u.last_off_ns = (uint64_t)(ages_us[i] * US);
			assert_int_equal(run_record_add_unit(r, &u), 0);
			t = u.end_ns + 10 * US;
		}
}

/*
 * A grid and a natural run beside a polluter: D* / the measured rate against the age by which
 * the natural run's same-CPU wakes cost 90 % of the grid's cost more (its units correlated
 * again), either way round; inside, outside, and not compared when D* is unbounded.
 */
static void compare_predicts_from_grid(void **state)
{
	struct run *g = model(), *n = model();
	struct run_compare c;
	char *buf = NULL;
	size_t len;
	FILE *f;

	(void)state;
	g->corr.axis = CORR_AXIS_DISPLACED;
	g->corr.regime = CORR_REGIME_SHARED;
	g->corr.dstar = (struct corr_fall){ .state = CORR_HOT_FOUND, .at = 900 * 1024,
					    .lo = 600 * 1024, .hi = 1200 * 1024 };
	n->setup.mode = n->corr.mode = CORR_NATURAL;
	n->corr.corunner_wakes = 2000;
	n->corr.corunner_mbps = 300;
	n->corr.corunner_lo_mbps = 290;
	n->corr.corunner_hi_mbps = 310;
	n->setup.cold_fraction = 0.1;
	natural_units(n);
	run_compare(n, g, &c);
	assert_int_equal(c.predict.state, CMP_PREDICT_DONE);
	assert_ptr_equal(c.predict.grid, g);
	/* 921600 B / 300 MB/s = 3.072 ms; [614400 / 310, 1228800 / 290] */
	assert_true(fabs(c.predict.predicted.est - 3072 * US) < 1);
	assert_true(fabs(c.predict.predicted.lo - 614400 / 310.0 * 1e3) < 1);
	assert_true(fabs(c.predict.predicted.hi - 1228800 / 290.0 * 1e3) < 1);
	/* the level: 90 % of the grid's 50 µs maximum; reached at the 3 ms sleeps */
	assert_true(fabs(c.predict.level_ns - 45 * US) < 1);
	assert_int_equal(c.predict.reach_state, CORR_HOT_FOUND);
	assert_true(fabs(c.predict.observed.est - 3000 * US) < 50 * US);
	assert_true(c.predict.within);
	f = open_memstream(&buf, &len);
	render_compare(f, &c, "nat.json", "grid.json");
	fclose(f);
	has(buf, "  D* / rate (95 %)         3.07 ms [1.98 ms, 4.24 ms]\n");
	has(buf, "  => the observed hot time is 0.98x D* / rate: inside its interval\n");
	has(buf, "have come to cost 45.0 µs more than at the first age, 90 % of the grid's cost "
		 "over its residual)\n");
	assert_null(strstr(buf, " \n"));
	free(buf);
	/* rates that disagree: the D* of the rate nearest the co-runner's 300 MB/s stands */
	g->corr.nrates = 2;
	g->corr.rates_agree = false;
	g->corr.rates[0] = (struct corr_rate){ .rate_mbps = 300, .achieved_mbps = 250,
		.dstar = { .state = CORR_HOT_FOUND, .at = 600 * 1024, .lo = 400 * 1024,
			   .hi = 800 * 1024 } };
	g->corr.rates[1] = (struct corr_rate){ .rate_mbps = 3000, .achieved_mbps = 2500,
		.dstar = { .state = CORR_HOT_FOUND, .at = 3000 * 1024, .lo = 2000 * 1024,
			   .hi = 4000 * 1024 } };
	run_compare(g, n, &c);
	assert_int_equal(c.predict.by_rate, 0);
	assert_true(c.predict.dstar.est == 600 * 1024);
	g->corr.rates_agree = true;
	run_compare(g, n, &c);
	assert_int_equal(c.predict.by_rate, -1);
	assert_true(c.predict.dstar.est == 900 * 1024);
	/* a rate 10x off puts it outside */
	n->corr.corunner_mbps *= 10;
	n->corr.corunner_lo_mbps *= 10;
	n->corr.corunner_hi_mbps *= 10;
	run_compare(g, n, &c);
	assert_int_equal(c.predict.state, CMP_PREDICT_DONE);
	assert_false(c.predict.within);
	/* far apart: D* beyond the buffer, nothing to divide */
	g->corr.regime = CORR_REGIME_BEYOND;
	g->corr.dstar = (struct corr_fall){ .state = CORR_HOT_ABOVE, .at = 4096 * 1024,
					    .lo = 4096 * 1024, .hi = INFINITY };
	run_compare(g, n, &c);
	assert_int_equal(c.predict.state, CMP_PREDICT_UNBOUNDED);
	buf = NULL;
	f = open_memstream(&buf, &len);
	render_compare(f, &c, "grid.json", "nat.json");
	fclose(f);
	has(buf, "  => not compared: D*'s interval is not bounded");
	free(buf);
	/* two grids, or a natural run without a polluter: no prediction */
	n->corr.corunner_wakes = 0;
	run_compare(g, n, &c);
	assert_int_equal(c.predict.state, CMP_PREDICT_NONE);
	run_free(g);
	run_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(too_low_from_numbers),
		cmocka_unit_test(too_high_and_about_right),
		cmocka_unit_test(odd_thresholds_and_none),
		cmocka_unit_test(rules_besides_the_age),
		cmocka_unit_test(by_rate_not_applicable),
		cmocka_unit_test(wakeup_share_from_complete_histogram),
		cmocka_unit_test(band_share_of_records_kept),
		cmocka_unit_test(compare_predicts_from_grid),
		cmocka_unit_test(hostile_names_escaped),
		cmocka_unit_test(wilson),
		cmocka_unit_test(compare_flags_what_exceeds_intervals),
	};

	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}

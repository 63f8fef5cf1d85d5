// SPDX-License-Identifier: GPL-2.0
/*
 * The exports over a model made by hand: what-if counts each threshold by task_hot()'s rule
 * (0: none hot, -1: all, else younger than it), its cost sums the cells under it as the
 * correlation's lost time does; the exposition's histogram is cumulative and its sum says
 * when it is estimated; CSV quotes what needs quoting and leaves nulls empty; the Perfetto
 * file of a run without records is still a trace.
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

#include "render_export.h"
#include "verdict.h"

#define US 1000.0

static void add_rec(struct run *r, uint8_t cause, uint64_t age_ns, int64_t kage_ns,
		    const char *comm)
{
	struct mt_migrate m = { .pid = 7, .tgid = 7, .src_cpu = 0, .dst_cpu = 1, .cause = cause,
				.age_ns = age_ns, .kernel_age_ns = kage_ns,
				.flags = kage_ns >= 0 ? MT_RF_KAGE_VALID : 0 };

	snprintf(m.comm, sizeof(m.comm), "%s", comm);
	assert_int_equal(run_record_add(r, &m), 0);
	r->stats.migrations[cause]++;
	r->hists.age[cause][age_ns < 2000 ? 0 : (int)floor(log2((double)age_ns / 1000))]++;
}

static struct run *model(void)
{
	struct run *r = run_new();

	assert_non_null(r);
	snprintf(r->meta.command, sizeof(r->meta.command), "w");
	r->meta.hot_ns = 500000;
	assert_int_equal(run_alloc_pairs(r, 2), 0);
	add_rec(r, MT_CAUSE_LB_PULL, 0, 100 * US, "a");
	add_rec(r, MT_CAUSE_LB_PULL, 0, 3000 * US, "a");
	add_rec(r, MT_CAUSE_LB_PULL, 0, -1, "a");		/* no kernel age: not judged */
	add_rec(r, MT_CAUSE_WAKEUP, 400 * US, -1, "x,\"y\"");
	add_rec(r, MT_CAUSE_WAKEUP, 6000 * US, -1, "b");
	r->has_corr = true;
	r->corr.mode = CORR_CONTROLLED;
	r->corr.ncells = 3;
	r->corr.cells[0] = (struct corr_cell){ .age_ns = 50 * US, .n_mig = 4, .cost_ns = 10 * US };
	r->corr.cells[1] = (struct corr_cell){ .age_ns = 1000 * US, .n_mig = 2,
					       .cost_ns = -5 * US };
	r->corr.cells[2] = (struct corr_cell){ .age_ns = 5000 * US, .n_mig = 3, .cost_ns = 2 * US };
	return r;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_whatif(void **state)
{
	const int64_t t[] = { 0, -1, 500000, 4000000, 10000000 };
	struct run *r = model();
	struct whatif w;

	(void)state;
	whatif_compute(r, t, 5, &w);
	assert_int_equal(w.n, 5);
	assert_true(w.records_complete);
	/* 0: task_hot() calls nothing hot */
	assert_int_equal(w.row[0].lb_judged, 2);
	assert_int_equal(w.row[0].lb_hot, 0);
	assert_int_equal(w.row[0].wakeup_hot, 0);
	assert_int_equal(w.row[0].cost_cells, 0);
	/* -1: everything is hot, every cell counts (a negative cost as 0) */
	assert_int_equal(w.row[1].lb_hot, 2);
	assert_int_equal(w.row[1].wakeup_hot, 2);
	assert_int_equal(w.row[1].cost_cells, 3);
	assert_true(near(w.row[1].cost_ns, 4 * 10 * US + 3 * 2 * US));
	/* 500 µs: the 100 µs pull, the 400 µs wakeup, the 50 µs cell */
	assert_int_equal(w.row[2].lb_hot, 1);
	assert_int_equal(w.row[2].wakeups, 2);
	assert_int_equal(w.row[2].wakeup_hot, 1);
	assert_int_equal(w.row[2].cost_cells, 1);
	assert_int_equal(w.row[2].cost_units, 4);
	assert_true(near(w.row[2].cost_ns, 40 * US));
	/* 4 ms: two cells, the second's cost below 0 counted as 0 */
	assert_int_equal(w.row[3].lb_hot, 2);
	assert_int_equal(w.row[3].cost_units, 6);
	assert_true(near(w.row[3].cost_ns, 40 * US));
	assert_int_equal(w.row[4].wakeup_hot, 2);
	r->stats.rb_dropped = 1;
	whatif_compute(r, t, 1, &w);
	assert_false(w.records_complete);
	run_free(r);
}

/* A cell's age as a run file may give it, beyond int64_t or not a number: never hot.
 * fuzz_run_file found an age of 5e21 ns taken as INT64_MIN, hot at every threshold. */
static void test_whatif_age_out_of_range(void **state)
{
	const int64_t t[] = { 10000000, -1 };
	struct run *r = model();
	struct whatif w;

	(void)state;
	r->corr.cells[1].age_ns = 5e21;
	r->corr.cells[2].age_ns = NAN;
	whatif_compute(r, t, 2, &w);
	assert_int_equal(w.row[0].cost_cells, 1);
	assert_int_equal(w.row[0].cost_units, 4);
	assert_int_equal(w.row[1].cost_cells, 3);	/* -1: all hot, whatever the age */
	run_free(r);
}

/* What a renderer wrote ("openmetrics", "perfetto", or a CSV file by its name), as a string
 * the caller frees. */
static char *capture(const struct run *r, const char *what, const struct whatif *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int csv = -1;

	assert_non_null(f);
	for (int i = 0; i < render_csv_nfiles; i++)
		if (!strcmp(render_csv_files[i].name, what))
			csv = i;
	if (!strcmp(what, "openmetrics"))
		render_openmetrics(f, r, w, "v-test");
	else if (!strcmp(what, "perfetto"))
		assert_int_equal(render_perfetto(f, r), 0);
	else if (csv >= 0)
		render_csv_files[csv].write(f, r, w);
	else
		fail_msg("no renderer writes %s", what);
	fclose(f);
	return buf;
}

static void test_openmetrics(void **state)
{
	struct run *r = model();
	struct whatif w;
	char *s;

	(void)state;
	s = capture(r, "openmetrics", NULL);
	/* the 400 µs wakeup is in slot 8, [256, 512) µs: under le=512 µs, not under 256 µs */
	assert_non_null(strstr(s, "_bucket{cause=\"wakeup\",le=\"0.000256\"} 0\n"));
	assert_non_null(strstr(s, "_bucket{cause=\"wakeup\",le=\"0.000512\"} 1\n"));
	assert_non_null(strstr(s, "_bucket{cause=\"wakeup\",le=\"+Inf\"} 2\n"));
	assert_non_null(strstr(s, "_sum{cause=\"wakeup\"} 0.0064\n"));
	assert_non_null(strstr(s, "_sum is exact"));
	assert_null(strstr(s, "migtrace_calibrated_hot_seconds"));	/* none: left out */
	assert_null(strstr(s, "migtrace_whatif"));
	free(s);
	/* a record not kept: the sum from slot midpoints (384 µs + 6144 µs), and said so */
	r->recs_not_kept = 1;
	s = capture(r, "openmetrics", NULL);
	assert_non_null(strstr(s, "_sum{cause=\"wakeup\"} 0.006528\n"));
	assert_non_null(strstr(s, "_sum is an estimate from slot midpoints"));
	free(s);
	/* the what-if counts are of the records kept, beside the complete totals: said so */
	whatif_compute(r, (const int64_t[]){ 500000 }, 1, &w);
	s = capture(r, "openmetrics", &w);
	assert_non_null(strstr(s, "# HELP migtrace_whatif_wakeups An estimate from this run (its "
			       "own moves judged again at threshold_seconds, not a run at it): "
			       "wakeup placement records, of those kept: not every migration has "
			       "its record here.\n"));
	free(s);
	run_free(r);
}

/* The wait side: T* with the ends it has (an open one left out, as run and report agree on
 * it), and what a pull at the kernel's value saves and costs. */
static void test_openmetrics_wait_side(void **state)
{
	struct run *r = model();
	char *s;

	(void)state;
	r->has_verdict = true;
	verdict_none(&r->verdict, 500000);
	s = capture(r, "openmetrics", NULL);
	assert_null(strstr(s, "migtrace_verdict_tstar_seconds"));	/* no wait side: none */
	free(s);
	r->verdict.tstar_state = CORR_HOT_FOUND;
	r->verdict.tstar_ns = 1500 * US;
	r->verdict.tstar_lo_ns = 1200 * US;
	r->verdict.tstar_hi_ns = INFINITY;
	r->verdict.wait_at_kernel_ns = 300 * US;
	r->verdict.refill_at_kernel_ns = 400 * US;
	s = capture(r, "openmetrics", NULL);
	assert_non_null(strstr(s, "migtrace_verdict_tstar_seconds{state=\"found\","
			       "bound=\"estimate\"} 0.0015\n"));
	assert_non_null(strstr(s, "migtrace_verdict_tstar_seconds{state=\"found\","
			       "bound=\"lower\"} 0.0012\n"));
	assert_null(strstr(s, "migtrace_verdict_tstar_seconds{state=\"found\","
			   "bound=\"upper\"}"));
	assert_non_null(strstr(s, "migtrace_verdict_pull_at_kernel_seconds{side=\"wait_avoided\"}"
			       " 0.0003\n"));
	assert_non_null(strstr(s, "migtrace_verdict_pull_at_kernel_seconds{side=\"refill\"} "
			       "0.0004\n"));
	free(s);
	run_free(r);
}

static void test_csv(void **state)
{
	/* a comm as given, and its cell */
	static const char *const cells[][2] = {
		{ "=1+2", "'=1+2" }, { "+1", "'+1" }, { "-1", "'-1" },
		{ "@SUM(A1)", "'@SUM(A1)" }, { "\tx", "'\tx" }, { "\rx", "\"'\rx\"" },
		{ "=a,\"b\"", "\"'=a,\"\"b\"\"\"" }, { "a=1", "a=1" },
	};
	struct run *r = model();
	char *s;

	(void)state;
	s = capture(r, "migrations.csv", NULL);
	assert_true(!strncmp(s, "ts_ns,pid,tgid,comm,src_cpu,dst_cpu,cause,", 42));
	/* a comma and quotes quoted, a missing kernel age empty, a preferred LLC not read
	 * empty */
	assert_non_null(strstr(s,
			       ",\"x,\"\"y\"\"\",0,1,wakeup,running,0,0,400000,0,,0,0,,,unknown,\n"));
	free(s);
	s = capture(r, "correlation.csv", NULL);
	assert_non_null(strstr(s, "\ncontrolled,50000,0,"));
	free(s);
	run_free(r);
	/* a text cell a spreadsheet would take for a formula starts with a quote (OWASP's CSV
	 * injection advice): = + - @, a tab or a carriage return; the rest as they are */
	r = model();
	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
		add_rec(r, MT_CAUSE_WAKEUP, 0, -1, cells[i][0]);
	snprintf(r->recs[r->nrecs - 1].cur_comm, sizeof(r->recs[0].cur_comm), "=by");
	s = capture(r, "migrations.csv", NULL);
	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), ",%s,0,1,", cells[i][1]);
		if (!strstr(s, want))
			fail_msg("%s is not in %s", want, s);
	}
	/* by_comm, before wait_ns (empty), the level and the preferred LLC (empty) */
	assert_non_null(strstr(s, ",0,'=by,,unknown,\n"));
	assert_null(strstr(s, ",="));
	free(s);
	s = capture(r, "histograms.csv", NULL);
	assert_non_null(strstr(s, "\n27,134217728,,"));	/* the last slot is open */
	free(s);
	run_free(r);
}

static void test_perfetto_empty(void **state)
{
	struct run *r = run_new();
	char *s;

	(void)state;
	assert_non_null(r);
	s = capture(r, "perfetto", NULL);
	assert_non_null(strstr(s, "\"traceEvents\":["));
	assert_non_null(strstr(s, "\"CPUs\""));
	free(s);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whatif),
		cmocka_unit_test(test_whatif_age_out_of_range),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_openmetrics_wait_side),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_perfetto_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

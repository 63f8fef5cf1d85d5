// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep model and its renderers on made-up runs: the summary per value (medians, the
 * normalisation, the best value and whether it leads beyond the noise), the values as the
 * table names them, the table's alignment with µs in it, the CSV and OpenMetrics exports'
 * rows and gauges, and the sweep file, CSV and OpenMetrics of fixed sweeps byte for byte.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render_sweep.h"
#include "sweep_schema.h"
#include "sweep_summary.h"
#include "units.h"

static char *const argv_hb[] = { "hackbench", "-g", "2", NULL };

/* 3 values x 2 repetitions, rotated as sweep runs them; throughput 10, 12 at 50 µs, ... */
static void made_up(struct sweep *s, struct sweep_run *runs)
{
	static const int64_t v[3] = { 50000, 5000000, 10000000 };
	static const double tput[3][2] = { { 10, 12 }, { 13, 15 }, { 11, 12.5 } };
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->argv = argv_hb;
	s->reps = 2;
	s->nvalues = 3;
	memcpy(s->values, v, sizeof(v));
	s->original = 500000;
	s->knob = "migration_cost_ns";
	s->unit = "ns";
	s->in_ns = true;
	s->schedstats_orig = 0;
	for (int rep = 0; rep < 2; rep++)
		for (int k = 0; k < 3; k++) {
			int i = (k + rep) % 3;
			struct sweep_run *r = &runs[n++];

			memset(r, 0, sizeof(*r));
			r->wake_p50_us = r->wake_p99_us = r->wait_p50_us = r->wait_p99_us = -1;
			r->tstar_ns = -1;
			r->value = v[i];
			r->rep = rep;
			r->wall_s = 1.5;
			r->tput = (struct sweep_tput){ tput[i][rep], "runs/s",
						       "hackbench 1 / Time" };
			r->idle_pct = 10.0 * (i + 1) + rep;
			r->migrations[MT_CAUSE_WAKEUP] = 100 + i;
			r->migrations[MT_CAUSE_LB_PULL] = 10;
			r->lb_judged = 10;
			r->lb_hot = (uint64_t)i;
			r->witness = true;
			r->failed_hot = 3 * (uint64_t)i;
		}
	s->runs = runs;
	s->nruns = n;
	s->complete = true;
	sweep_summarize(s);
}

static void summary(void **state)
{
	struct sweep_run runs[6];
	struct sweep s;

	(void)state;
	made_up(&s, runs);
	assert_int_equal(s.sv[0].n, 2);
	assert_true(s.sv[0].tmed == 11 && s.sv[0].tmin == 10 && s.sv[0].tmax == 12);
	assert_true(s.sv[1].tmed == 14 && s.sv[1].normalised == 14.0 / 11);
	assert_true(s.sv[2].idle_med == 30.5);
	assert_int_equal(s.sv[2].by_cause[MT_CAUSE_WAKEUP], 204);
	assert_int_equal(s.sv[2].migrations, 224);
	assert_int_equal(s.sv[1].failed_hot, 6);
	assert_int_equal(s.best, 1);		/* 5 ms: median 14 */
	assert_int_equal(s.second, 2);		/* 10 ms: median 11.75 */
	/* 5 ms's worst (13) beats 10 ms's best (12.5) */
	assert_true(sweep_best_beyond_noise(&s));
	runs[4].tput.value = 13.5;		/* 10 ms (rep 1): its best now above 5 ms's worst */
	sweep_summarize(&s);
	assert_false(sweep_best_beyond_noise(&s));
}

static void values_named(void **state)
{
	static const struct { int64_t ns; const char *want; } cases[] = {
		{ 500, "500 ns" }, { 50000, "50 µs" }, { 50500, "50.5 µs" }, { 100000, "0.1 ms" },
		{ 500000, "0.5 ms" }, { 2500000, "2.5 ms" }, { 5000000, "5 ms" },
		{ 250000000, "250 ms" },
	};
	char b[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(sweep_fmt_value(b, sizeof(b), cases[i].ns), cases[i].want);
}

static char *render(void (*fn)(FILE *, const struct sweep *), const struct sweep *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void table_aligned(void **state)
{
	struct sweep_run runs[6];
	struct sweep s;
	char *text, *line;
	size_t width = 0;
	int rows = 0;

	(void)state;
	made_up(&s, runs);
	text = render(render_sweep_text, &s);
	line = strstr(text, "\nvalue ");
	assert_non_null(line);
	for (line++; *line && *line != '\n'; rows++) {
		char *end = strchr(line, '\n');
		/* characters, not bytes: µ is two bytes of UTF-8 */
		size_t w = (size_t)utf8_columns(strndupa(line, (size_t)(end - line)));

		if (!width)
			width = w;
		if (w != width)
			fail_msg("row %d is %zu characters wide, the header %zu: %.*s", rows, w,
				 width, (int)(end - line), line);
		line = end + 1;
	}
	assert_int_equal(rows, 4);		/* the header and 3 values */
	assert_non_null(strstr(text, "\n50 µs      "));
	assert_non_null(strstr(text, "best: 5 ms (median 14 runs/s, 1.273 x the first value); "
			       "beyond the noise"));
	free(text);
}

static void csv_rows(void **state)
{
	struct sweep_run runs[6];
	struct sweep s;
	char *text, *p;
	int lines = 0;

	(void)state;
	made_up(&s, runs);
	text = render(render_sweep_csv, &s);
	for (p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 1 + 6 + 3);
	assert_memory_equal(text, "row,value_ns,rep,runs,wall_s,throughput,", 40);
	/* the first run: 50 µs, rep 0, 10 runs/s, 10/11 of the first value's median */
	assert_non_null(strstr(text, "\nrun,50000,0,,1.5,10,,,,0.9090909090909091,runs/s,"
			       "hackbench 1 / Time,10,,,,,,0,110,100,10,"));
	assert_non_null(strstr(text, "\nvalue,5000000,,2,,,13,14,15,1.2727272727272727,runs/s,"
			       "hackbench 1 / Time,20.5,,,,,,,222,202,20,0,0,0,0,0,0,20,2,6,0,\n"));
	free(text);
}

/*
 * Fixed sweeps rendered to the sweep file, sweep.csv and the OpenMetrics exposition, compared
 * byte for byte with tests/data/sweep-out/ (captured from the renderers as they were written
 * by hand, before they walked the schema tables of sweep_schema.c).
 */
#define SWEEP_OUT_DIR "tests/data/sweep-out"

static char *const argv_odd[] = { "sh", "-c", "echo \"a,b\" \\ done\nok", "50 µs", NULL };
static char *const argv_hb1[] = { "hackbench", NULL };

/* A sweep's header: its command, values, and the tunable's file and value before. */
static void header(struct sweep *s, char *const *argv, long reps, const int64_t *v, int nv,
		   const char *path, int64_t original_ns)
{
	memset(s, 0, sizeof(*s));
	s->argv = argv;
	s->reps = reps;
	s->nvalues = nv;
	memcpy(s->values, v, (size_t)nv * sizeof(*v));
	snprintf(s->tunable_path, sizeof(s->tunable_path), "%s", path);
	s->original = original_ns;
	s->knob = "migration_cost_ns";
	s->unit = "ns";
	s->in_ns = true;
}

/* Every branch of the three renderers: idle unknown for a run, a value the kernel's
 * witnesses never reached, lb_hot_gained for some runs, a source to quote in CSV, a command
 * to escape in JSON and in a label, a count past 2^53. */
static void fixture_full(struct sweep *s, struct sweep_run *runs)
{
	static const int64_t v[3] = { 500000, 2500000, 50000000 };
	static const double tput[3][2] = { { 1234.5678, 1300.25 }, { 1400.0 / 3, 1500 },
					   { 999.5, 1001 } };
	int n = 0;

	header(s, argv_odd, 2, v, 3, "/tmp/fake root/sys/kernel/debug/sched/migration_cost_ns",
	       500000);
	s->cpus_arg = "0-1";
	s->root = "/tmp/fake root";
	s->schedstats_orig = 0;
	s->has_schedstat = true;
	for (int rep = 0; rep < 2; rep++)
		for (int k = 0; k < 3; k++) {
			int i = (k + rep) % 3;
			struct sweep_run *r = &runs[n];

			memset(r, 0, sizeof(*r));
			r->value = v[i];
			r->rep = rep;
			r->wall_s = 2.000001 + n;
			r->tput = (struct sweep_tput){ tput[i][rep], "tps",
						       "pgbench tps, \"excluding\" connections" };
			r->tput_reported = true;
			r->idle_pct = n == 4 ? -1 : 12.25 * (i + 1) + rep / 3.0;
			for (int c = 0; c < MT_NR_CAUSES; c++)
				r->migrations[c] = (uint64_t)(c * 7 + n);
			r->lb_judged = 40 + (uint64_t)n;
			r->lb_hot = (uint64_t)(i * 3 + rep);
			r->witness = i != 2;
			r->failed_hot = 5 * (uint64_t)i + 1;
			r->forced = 2 * (uint64_t)rep;
			r->has_lb_hot_gained = i == 0 || (i == 1 && rep == 1);
			r->lb_hot_gained = i == 0 && rep == 1 ? UINT64_MAX / 4 : 17 + (uint64_t)n;
			/* run delay, one run without a wait seen; T* from two runs of 2.5 ms */
			r->wake_p50_us = 10.5 + n;
			r->wake_p99_us = 250 * (i + 1);
			r->wait_p50_us = n == 2 ? -1 : 40 + n;
			r->wait_p99_us = n == 2 ? -1 : 3000 + 100 * n;
			r->tstar_ns = i == 1 ? 600000 + 100000 * rep : -1;
			n++;
		}
	s->runs = runs;
	s->nruns = n;
	s->complete = true;
	sweep_summarize(s);
}

/* Stopped after two runs, on a kernel without schedstats, idle never read. */
static void fixture_stopped(struct sweep *s, struct sweep_run *runs)
{
	static const int64_t v[3] = { 50000, 5000000, 10000000 };

	header(s, argv_hb1, 3, v, 3, "/proc/sys/kernel/sched_migration_cost_ns", 5000000);
	s->schedstats_orig = -1;
	for (int i = 0; i < 2; i++) {
		memset(&runs[i], 0, sizeof(runs[i]));
		runs[i].value = v[i];
		runs[i].wall_s = 0.125 * (i + 1);
		runs[i].tput = (struct sweep_tput){ 1 / runs[i].wall_s, "runs/s", "1 / wall time" };
		runs[i].idle_pct = -1;
		runs[i].wake_p50_us = runs[i].wake_p99_us = -1;
		runs[i].wait_p50_us = runs[i].wait_p99_us = runs[i].tstar_ns = -1;
		runs[i].migrations[MT_CAUSE_WAKEUP] = 3;
		runs[i].exit_status = i ? 3 : 0;
	}
	s->runs = runs;
	s->nruns = 2;
	sweep_summarize(s);
}

/* The first value never ran (nothing to normalise to), the other's throughput not finite. */
static void fixture_unnormalised(struct sweep *s, struct sweep_run *runs)
{
	static const int64_t v[2] = { 1000, 2000 };

	header(s, NULL, 1, v, 2, "", 0);
	s->schedstats_orig = 1;
	memset(&runs[0], 0, sizeof(runs[0]));
	runs[0].value = 2000;
	runs[0].tput = (struct sweep_tput){ INFINITY, "ops/s", "perf bench ops/sec" };
	runs[0].idle_pct = 0;
	runs[0].wake_p50_us = runs[0].wake_p99_us = 0;	/* seen, and none waited */
	runs[0].wait_p50_us = runs[0].wait_p99_us = runs[0].tstar_ns = -1;
	runs[0].witness = true;
	s->runs = runs;
	s->nruns = 1;
	sweep_summarize(s);
}

/* No run at all. */
static void fixture_empty(struct sweep *s, struct sweep_run *runs)
{
	static const int64_t v[2] = { 1000000, 2000000 };

	(void)runs;
	header(s, argv_hb1, 1, v, 2, "", 0);
	sweep_summarize(s);
}

static const struct {
	const char *name;
	void (*make)(struct sweep *s, struct sweep_run *runs);
} fixtures[] = {
	{ "full", fixture_full }, { "stopped", fixture_stopped },
	{ "unnormalised", fixture_unnormalised }, { "empty", fixture_empty },
};

static void json_checked(FILE *f, const struct sweep *s)
{
	assert_int_equal(render_sweep_json(f, s), 0);
}

static void expect_file(const char *fixture, const char *ext, const char *text)
{
	char path[256], *want = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", SWEEP_OUT_DIR, fixture, ext);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: %s (run from the source tree)", path, strerror(errno));
	assert_int_equal(getdelim(&want, &len, '\0', f) >= 0 || feof(f), 1);
	fclose(f);
	if (strcmp(text, want ? want : ""))
		fail_msg("%s differs from what was rendered:\n%s", path, text);
	free(want);
}

static void rendered_as_captured(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		struct sweep_run runs[6];
		struct sweep s;
		char *text;

		fixtures[i].make(&s, runs);
		text = render(json_checked, &s);
		expect_file(fixtures[i].name, "json", text);
		free(text);
		text = render(render_sweep_csv, &s);
		expect_file(fixtures[i].name, "csv", text);
		free(text);
		text = render(render_sweep_openmetrics, &s);
		expect_file(fixtures[i].name, "prom", text);
		free(text);
	}
}

/* The run delays in the table carry their units: a median of 10.5 µs, a p99 of ms. */
static void delays_with_units(void **state)
{
	struct sweep_run runs[6];
	struct sweep s;
	char *text;

	(void)state;
	fixture_full(&s, runs);
	text = render(render_sweep_text, &s);
	if (!strstr(text, "wake-up p50/p99") || !strstr(text, " µs/") || !strstr(text, "42.5 µs/3.25 ms"))
		fail_msg("delays without their units:\n%s", text);
	assert_null(strstr(text, "e+0"));
	free(text);
}

static void openmetrics_gauges(void **state)
{
	struct sweep_run runs[6];
	struct sweep s;
	char *text;

	(void)state;
	made_up(&s, runs);
	text = render(render_sweep_openmetrics, &s);
	assert_non_null(strstr(text, "\nmigtrace_sweep_throughput_normalised_ratio"
			       "{value_seconds=\"5e-05\"} 1\n"));
	assert_non_null(strstr(text, "\nmigtrace_sweep_idle_ratio{value_seconds=\"0.01\"} "
			       "0.305\n"));
	assert_non_null(strstr(text, "\nmigtrace_sweep_migrations{value_seconds=\"0.005\","
			       "cause=\"wakeup\"} 202\n"));
	assert_non_null(strstr(text, "\nmigtrace_sweep_kernel_failed_migrations_hot"
			       "{value_seconds=\"0.01\"} 12\n"));
	assert_non_null(strstr(text, "\nmigtrace_sweep_best_value_seconds{beyond_noise=\"true\"} "
			       "0.005\n"));
	assert_non_null(strstr(text, "migtrace_sweep_info{workload=\"hackbench\","));
	assert_null(strstr(text, "-g 2"));	/* never the arguments */
	/* no /proc/schedstat: no lb_hot_gained family at all, rather than zeros */
	assert_null(strstr(text, "lb_hot_gained"));
	free(text);
	/* a sweep stopped before 10 ms ran: its runs gauge is 0, its counts are left out */
	s.nruns = 2;
	sweep_summarize(&s);
	text = render(render_sweep_openmetrics, &s);
	assert_non_null(strstr(text, "\nmigtrace_sweep_runs{value_seconds=\"0.01\"} 0\n"));
	assert_null(strstr(text, "migtrace_sweep_migrations{value_seconds=\"0.01\""));
	assert_null(strstr(text, "migtrace_sweep_lb_pulls_hot{value_seconds=\"0.01\""));
	assert_null(strstr(text, "migtrace_sweep_throughput{value_seconds=\"0.01\""));
	free(text);
}

/* Every member of the sweep's tables is in docs/sweep-file.md, and of the size it is read as. */
static void schema_tables_and_docs(void **state)
{
	char doc[1 << 16], quoted[80];
	FILE *f = fopen("docs/sweep-file.md", "r");
	size_t n;

	(void)state;
	if (!f)
		fail_msg("docs/sweep-file.md: %s (run from the repository's top)", strerror(errno));
	n = fread(doc, 1, sizeof(doc) - 1, f);
	doc[n] = '\0';
	fclose(f);
	for (int t = 0; t < rs_sweep_ntables; t++) {
		const struct rs_table *tb = rs_sweep_tables[t];

		assert_true(tb->n <= 64);
		for (int i = 0; i < tb->n; i++) {
			const struct rs_field *fl = &tb->f[i];

			if (fl->type == RS_U64_NAMED &&
			    fl->size != (size_t)fl->nnames * sizeof(uint64_t))
				fail_msg("%s.%s: %zu bytes for %d counts", tb->object, fl->name,
					 fl->size, fl->nnames);
			if ((fl->type == RS_CSTR || fl->type == RS_ARGV) &&
			    fl->size != sizeof(void *))
				fail_msg("%s.%s is not a pointer", tb->object, fl->name);
			snprintf(quoted, sizeof(quoted), "`%s`", fl->name);
			if (!strstr(doc, quoted))
				fail_msg("%s.%s is not in docs/sweep-file.md", tb->object,
					 fl->name);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summary),
		cmocka_unit_test(values_named),
		cmocka_unit_test(table_aligned),
		cmocka_unit_test(csv_rows),
		cmocka_unit_test(delays_with_units),
		cmocka_unit_test(openmetrics_gauges),
		cmocka_unit_test(rendered_as_captured),
		cmocka_unit_test(schema_tables_and_docs),
	};

	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Live intervals on synthetic aggregates: the difference of two reads word by word, -P's
 * top processes (most first, ties by tgid, monotone totals), the text block's figures
 * (rates, the pulls' compact histogram, hot share, p50/p99, completeness, partial), the
 * JSON line (one line, valid JSON, its counts), and the live exposition's families.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "interval.h"
#include "json_reader.h"
#include "render_export.h"
#include "render_interval.h"

static char *render(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void test_diff(void **state)
{
	struct mt_counts *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)),
			 *d = calloc(1, sizeof(*d));

	(void)state;
	a->stats.migrations[MT_CAUSE_WAKEUP] = 10;
	b->stats.migrations[MT_CAUSE_WAKEUP] = 25;
	a->stats.level_migrations[MT_LEVEL_LLC][MT_CAUSE_LB_PULL] = 3;
	b->stats.level_migrations[MT_LEVEL_LLC][MT_CAUSE_LB_PULL] = 7;
	b->stats.migrations[MT_CAUSE_FORK] = 2;
	a->hists.kernel_age[5] = 1;
	b->hists.kernel_age[5] = 4;
	b->hists.wakelat[27] = 9;
	a->stats.rb_dropped = 5;		/* went back: never, but 0, not a wrap */
	interval_diff(b, a, d);
	assert_int_equal(d->stats.migrations[MT_CAUSE_WAKEUP], 15);
	assert_int_equal(d->stats.level_migrations[MT_LEVEL_LLC][MT_CAUSE_LB_PULL], 4);
	assert_int_equal(d->hists.kernel_age[5], 3);
	assert_int_equal(d->hists.wakelat[27], 9);
	assert_int_equal(d->stats.rb_dropped, 0);
	assert_int_equal(interval_migrations(&d->stats), 17);
	assert_int_equal(interval_kernel_counted(&d->stats), 15);
	assert_int_equal(interval_level_migrations(&d->stats, MT_LEVEL_LLC), 4);
	free(a);
	free(b);
	free(d);
}

static void test_pids_top(void **state)
{
	struct interval_pids p = { 0 };
	struct interval_pid top[INTERVAL_TOP];
	int n;

	(void)state;
	/* 300 processes (the table grows twice), process k has k records; 5 threads of 42 */
	for (uint32_t k = 1; k <= 300; k++)
		for (uint32_t i = 0; i < k; i++)
			assert_int_equal(interval_pids_add(&p, k, i == 1 && k == 42 ? 4242 : k,
							   i == 1 && k == 42 ? "thread" : "main"), 0);
	assert_int_equal(p.t.n, 300);
	n = interval_pids_top(&p, true, top, INTERVAL_TOP);
	assert_int_equal(n, INTERVAL_TOP);
	for (int i = 0; i < n; i++)
		assert_int_equal(top[i].tgid, 300 - i);
	interval_pids_tick(&p);
	/* the next interval: 42 alone, and 7 and 8 tied */
	for (int i = 0; i < 3; i++)
		interval_pids_add(&p, 42, 4242, "thread");
	interval_pids_add(&p, 8, 8, "main");
	interval_pids_add(&p, 7, 7, "main");
	n = interval_pids_top(&p, false, top, INTERVAL_TOP);
	assert_int_equal(n, 3);
	assert_int_equal(top[0].tgid, 42);
	assert_string_equal(top[0].comm, "main");	/* the main thread's name */
	assert_int_equal(top[0].total - top[0].at_tick, 3);
	assert_int_equal(top[1].tgid, 7);
	assert_int_equal(top[2].tgid, 8);
	interval_pids_free(&p);
}

/* An interval of 2 s: 100 wakeups and 20 pulls, 5 of them hot, 10 wake-ups. */
static struct interval *sample(struct run *r)
{
	struct interval *iv = calloc(1, sizeof(*iv));

	assert_non_null(iv);
	iv->index = 3;
	iv->start_s = 4;
	iv->len_s = 2;
	iv->wall_end.tv_sec = 1796350207;
	iv->wall_end.tv_nsec = 123456789;
	iv->per_task = true;
	iv->delta.stats.migrations[MT_CAUSE_WAKEUP] = 100;
	iv->delta.stats.migrations[MT_CAUSE_LB_PULL] = 20;
	iv->delta.stats.level_migrations[MT_LEVEL_LLC][MT_CAUSE_WAKEUP] = 100;
	iv->delta.stats.level_migrations[MT_LEVEL_SMT][MT_CAUSE_LB_PULL] = 20;
	iv->delta.stats.lb_judged = 20;
	iv->delta.stats.lb_hot = 5;
	iv->delta.stats.kernel_migrations = 118;
	iv->delta.hists.kernel_age[4] = 15;	/* 16-32 µs */
	iv->delta.hists.kernel_age[10] = 5;	/* 1024-2048 µs */
	iv->delta.hists.wakelat[3] = 10;	/* 8-16 µs */
	iv->total = iv->delta;
	iv->total.stats.migrations[MT_CAUSE_WAKEUP] = 1000;
	r->meta.hot_ns = 500000;
	snprintf(r->meta.hot_source, sizeof(r->meta.hot_source), "tunable");
	snprintf(r->env.kernel_release, sizeof(r->env.kernel_release), "6.1.0-test");
	r->stats = iv->total.stats;
	r->hists = iv->total.hists;
	return iv;
}

struct text_arg {
	struct interval *iv;
	struct run *r;
};

static void text_fn(FILE *f, void *arg)
{
	struct text_arg *a = arg;

	render_interval_text(f, a->iv, a->r, false);
}

static void json_fn(FILE *f, void *arg)
{
	struct text_arg *a = arg;

	assert_int_equal(render_interval_json(f, a->iv, a->r), 0);
}

static void live_fn(FILE *f, void *arg)
{
	struct text_arg *a = arg;
	struct om_live live = { .last = a->iv, .version = "0.1 (v-test)", .pids = NULL };

	render_openmetrics_live(f, a->r, &live);
}

/* Sample lines (not # lines) of an exposition. */
static int series_of(const char *text)
{
	int n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += *l != '#' && *l != '\n';
	return n;
}

struct pids_arg {
	struct text_arg a;
	const struct interval_pids *pids;
};

static void live_pids_fn(FILE *f, void *arg)
{
	struct pids_arg *p = arg;
	struct om_live live = { .last = p->a.iv, .version = "0.1 (v-test)", .pids = p->pids };

	render_openmetrics_live(f, p->a.r, &live);
}

/*
 * The live exposition's series are bounded (docs/servers.md, "Series"): as many on 512 CPUs
 * as on 2 (no CPU pairs), and -P adds at most its 10 processes however many moved; the
 * whole at most LIVE_SERIES_MAX, the ceiling the doc gives.
 */
#define LIVE_SERIES_MAX 520
static void test_live_series_bounded(void **state)
{
	struct run *r = run_new();
	struct interval_pids pids = { 0 };
	struct pids_arg p = { { sample(r), r }, NULL };
	char *out, comm[16];
	int two, many, with_pids;

	(void)state;
	r->has_levels = true;
	out = render(live_pids_fn, &p);
	two = series_of(out);
	free(out);
	r->meta.nr_cpus = 512;
	out = render(live_pids_fn, &p);
	many = series_of(out);
	free(out);
	assert_int_equal(two, many);
	for (uint32_t tgid = 100; tgid < 1100; tgid++) {
		snprintf(comm, sizeof(comm), "task%u", tgid);
		for (uint32_t k = 0; k <= tgid % 7; k++)
			assert_int_equal(interval_pids_add(&pids, tgid, tgid, comm), 0);
	}
	p.pids = &pids;
	out = render(live_pids_fn, &p);
	with_pids = series_of(out);
	free(out);
	assert_int_equal(with_pids, two + 10);
	if (with_pids > LIVE_SERIES_MAX)
		fail_msg("%d series, over the documented ceiling of %d", with_pids, LIVE_SERIES_MAX);
	interval_pids_free(&pids);
	free(p.a.iv);
	run_free(r);
}

static void test_text(void **state)
{
	struct run *r = run_new();
	struct text_arg a = { sample(r), r };
	char *out;

	(void)state;
	out = render(text_fn, &a);
	assert_non_null(strstr(out, "interval 3: +4.00 s to +6.00 s (2.00 s)\n"));
	assert_non_null(strstr(out, "migrations       120 (60/s): wakeup 50/s lb_pull 10/s\n"));
	assert_non_null(strstr(out, "smt 10/s llc 50/s"));
	assert_non_null(strstr(out, " 16-32:15 1024-2048:5\n"));
	assert_non_null(strstr(out, "hot at 500 µs (tunable): 5 of 20 pulls judged (25.0 %)"));
	assert_non_null(strstr(out, "wake-up latency  p50 12.0 µs, p99 15.9 µs (10 wake-ups)"));
	assert_non_null(strstr(out, "the kernel counted 118"));
	assert_non_null(strstr(out, "migtrace 120, difference -2"));
	free(out);
	a.iv->partial = true;
	a.iv->per_task = false;
	out = render(text_fn, &a);
	assert_non_null(strstr(out, "interval 3 (partial: the run ended in it)"));
	assert_null(strstr(out, "completeness"));
	free(out);
	free(a.iv);
	run_free(r);
}

static void test_json(void **state)
{
	struct run *r = run_new();
	struct text_arg a = { sample(r), r };
	struct json_reader jr;
	char *out;

	(void)state;
	out = render(json_fn, &a);
	/* one line, one valid JSON document */
	assert_int_equal(strcspn(out, "\n") + 1, strlen(out));
	jr_init(&jr, out, strlen(out));
	assert_int_equal(jr_skip(&jr), 0);
	assert_int_equal(jr_end(&jr), 0);
	assert_non_null(strstr(out, "\"schema\":\"migtrace.interval/1\""));
	assert_non_null(strstr(out, "\"time\":\"2026-12-04T"));
	assert_non_null(strstr(out, ".123Z\""));
	assert_non_null(strstr(out, "\"migrations\":120,\"migrations_per_s\":60,"));
	assert_non_null(strstr(out, "\"migrations_since_start\":1020"));
	assert_non_null(strstr(out, "\"hot\":{\"threshold_ns\":500000,\"source\":\"tunable\","
			       "\"judged\":20,\"hot\":5,\"share\":0.25}"));
	assert_non_null(strstr(out, "\"completeness\":{\"kernel_counted\":118,"
			       "\"migtrace_counted\":120,\"difference\":-2}"));
	assert_null(strstr(out, "\"top\""));
	free(out);
	free(a.iv);
	run_free(r);
}

static void test_live_exposition(void **state)
{
	struct run *r = run_new();
	struct text_arg a = { sample(r), r };
	char *out;

	(void)state;
	r->has_levels = true;
	out = render(live_fn, &a);
	if (getenv("MT_DUMP_PROM")) {
		FILE *f = fopen(getenv("MT_DUMP_PROM"), "w");	/* for promtool, by hand */

		fputs(out, f);
		fclose(f);
	}
	assert_non_null(strstr(out, "migtrace_build_info{version=\"0.1\",revision=\"v-test\","
			       "backend=\"bpf\"} 1\n"));
	assert_null(strstr(out, "migtrace_info{"));
	assert_non_null(strstr(out, "migtrace_migrations_total{cause=\"wakeup\"} 1000\n"));
	assert_non_null(strstr(out, "migtrace_kernel_hot_seconds{source=\"tunable\"} 0.0005\n"));
	/* no rate, share or quantile computed here: rate() and histogram_quantile() make them */
	assert_null(strstr(out, "_per_second"));
	assert_null(strstr(out, "_ratio"));
	assert_null(strstr(out, "_p50_"));
	assert_null(strstr(out, "_p99_"));
	assert_non_null(strstr(out, "migtrace_pull_kernel_age_seconds_bucket{level=\"unknown\","
			       "le=\"+Inf\"}"));
	assert_non_null(strstr(out, "migtrace_kernel_counted_migrations_total 118\n"));
	assert_non_null(strstr(out, "migtrace_intervals_total 3\n"));
	/* no CPU pairs, no timestamps: every sample line is NAME{…} VALUE */
	assert_null(strstr(out, "cpu_pair"));
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
		char *tail = strrchr(l, '}') ? strrchr(l, '}') : l;
		int spaces = 0;

		for (char *c = tail; *c; c++)
			spaces += *c == ' ';
		if (*l != '#' && spaces != 1)
			fail_msg("a sample with more than a value: %s", l);
	}
	free(out);
	free(a.iv);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_pids_top),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_live_exposition),
		cmocka_unit_test(test_live_series_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

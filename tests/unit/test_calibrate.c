// SPDX-License-Identifier: GPL-2.0
/* The calibration's arithmetic and its seed print formats, on made-up and seed numbers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "calib_report.h"
#include "calibrate.h"
#include "fake_sysfs.h"
#include "stats.h"
#include "topology.h"

/* A delta that the 2004 kernel would have printed as "whole.tenth". */
static uint64_t seed_delta(int whole, int tenth)
{
	for (uint64_t k = 0; k < 1024; k++) {
		uint64_t d = ((uint64_t)whole << 20) + k * 1024;

		if ((d >> 20) == (uint64_t)whole && (((long)d >> 10) / 102) % 10 == tenth)
			return d;
	}
	fail_msg("no delta prints as %d.%d", whole, tenth);
	return 0;
}

static struct calib_result *make_result(int n, enum calib_method m)
{
	struct calib_result *r = calloc(1, sizeof(*r));

	r->method = m;
	r->ncpu = n;
	r->opts.method = m;
	r->opts.cpus.n = n;
	for (int i = 0; i < n; i++)
		r->opts.cpus.cpu[i] = i;
	r->cells = calloc((size_t)n * n, sizeof(*r->cells));
	for (int i = 0; i < n * n; i++) {
		r->cells[i].src = i / n;
		r->cells[i].dst = i % n;
	}
	return r;
}

static void free_result(struct calib_result *r)
{
	calib_result_free(r);
	free(r);
}

static char *capture(void (*print)(FILE *, const struct calib_result *, void *),
		     const struct calib_result *r, void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print(f, r, arg);
	fclose(f);
	return buf;
}

static void print_2004(FILE *f, const struct calib_result *r, void *arg)
{
	calib_print_seed_2004(f, r, *(long *)arg, 1000000);
}

static void print_2005(FILE *f, const struct calib_result *r, void *arg)
{
	calib_print_seed_2005(f, r, *(long *)arg);
}

static void cell_is_max_times_six(void **state)
{
	const uint64_t s[5] = { 100, 90, 400, 110, 95 };
	struct calib_cell c = { 0 };

	(void)state;
	assert_int_equal(calib_cell_from_samples(&c, s, 5), 0);
	assert_int_equal(c.max_ns, 400);
	assert_int_equal(c.min_ns, 90);
	assert_int_equal(c.cost_ns, 2400);	/* max x 6 */
	assert_true(c.median_ns == 100.0);
	assert_true(c.mad_ns == 10.0);		/* |.-100|: 0 10 300 10 5 -> 10 */
	/* 5 blocks of one fill; the anchor is their lower quartile, 95; undisturbed: <= 104.5,
	 * i.e. 90 95 100 */
	assert_true(c.anchor_ns == 95.0);
	assert_int_equal(c.fills, 5);
	assert_int_equal(c.undisturbed, 3);
	assert_true(c.undisturbed_ns == 95.0);
	assert_int_equal(c.robust_ns, 570);	/* median of the undisturbed x 6 */
	assert_int_not_equal(calib_cell_from_samples(&c, s, 0), 0);
}

static void seed_max_is_of_the_first_20(void **state)
{
	uint64_t s[1000];
	struct calib_cell c = { 0 };

	(void)state;
	for (int i = 0; i < 1000; i++)
		s[i] = 100 + i % 7;
	s[5] = 300;		/* inside the seed's window */
	s[500] = 9000;		/* a late outlier: the seed never took it */
	assert_int_equal(calib_cell_from_samples(&c, s, 1000), 0);
	assert_int_equal(c.max_ns, 300);
	assert_int_equal(c.cost_ns, 1800);
	assert_int_equal(c.robust_ns, 103 * 6);	/* median of all 1000 */
}

/* A quiet cell's fills: 40-42 us, spread evenly, in a scrambled order. */
static void quiet_fills(uint64_t *s, int n)
{
	for (int i = 0; i < n; i++)
		s[i] = 40000 + (uint64_t)(i * 7919 % 2001);
}

/*
 * What this VM does to a cell: a phase in which the host slows the vCPU by 20 % covers 60 %
 * of the fills, and 2 % are hit by an interrupt (5x), one inside the seed's 20.  The plain
 * median follows the slow phase and the seed's max the interrupt; the median of the
 * undisturbed fills stays where the quiet cell is.
 */
static void undisturbed_median_ignores_a_slow_phase(void **state)
{
	uint64_t quiet[1000], noisy[1000];
	struct calib_cell q = { 0 }, d = { 0 };

	(void)state;
	quiet_fills(quiet, 1000);
	quiet_fills(noisy, 1000);
	for (int i = 0; i < 600; i++)
		noisy[i] = noisy[i] * 12 / 10;
	for (int i = 7; i < 1000; i += 50)
		noisy[i] *= 5;
	assert_int_equal(calib_cell_from_samples(&q, quiet, 1000), 0);
	assert_int_equal(calib_cell_from_samples(&d, noisy, 1000), 0);
	/* quiet: every fill is undisturbed and the figure is the plain median */
	assert_int_equal(q.undisturbed, 1000);
	assert_true(q.undisturbed_ns == q.median_ns);
	/* noisy: the old rules move ... */
	assert_true(d.median_ns > 1.15 * q.median_ns);
	assert_true(d.cost_ns > 4 * q.cost_ns);
	/* ... the new one does not (within 1 %), and it left out the slow and the hit fills */
	assert_true(d.robust_ns > 0.99 * (double)q.robust_ns);
	assert_true(d.robust_ns < 1.01 * (double)q.robust_ns);
	assert_true(d.undisturbed < 400 && d.undisturbed > 350);
}

/* Even with 85 % of the fills disturbed, and half the blocks wholly, the anchor is an
 * undisturbed fill. */
static void undisturbed_median_holds_to_85_pct(void **state)
{
	double v[1000], scratch[1000 + CALIB_BLOCKS];
	struct calib_undisturbed u;

	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = 40000 + i * 7919 % 2001 + (i % 100 < 85 ? 10000 : 0);
	calib_undisturbed(v, 1000, scratch, &u);
	assert_true(u.anchor_ns < 42000);
	assert_true(fabs(u.median_ns - 41000) < 300);
	assert_int_equal(u.fills, 150);
	calib_undisturbed(v, 0, scratch, &u);
	assert_true(u.median_ns == 0 && u.fills == 0);
	v[0] = 5;
	calib_undisturbed(v, 1, scratch, &u);
	assert_true(u.anchor_ns == 5 && u.median_ns == 5 && u.fills == 1);
}

/*
 * The host put both vCPUs on one core for a fifth of the run: those fills are 30 % faster,
 * and a plain 10th percentile would take them for the undisturbed ones and leave out the
 * rest.  The anchor, over blocks, stays with the usual fills.
 */
static void undisturbed_median_ignores_a_short_fast_phase(void **state)
{
	uint64_t quiet[1000], fast[1000];
	struct calib_cell q = { 0 }, f = { 0 };
	double v[1000];

	(void)state;
	quiet_fills(quiet, 1000);
	quiet_fills(fast, 1000);
	for (int i = 0; i < 200; i++)
		fast[i] = fast[i] * 7 / 10;
	for (int i = 0; i < 1000; i++)
		v[i] = (double)fast[i];
	/* what the plain 10th percentile would do */
	assert_true(quantile_sorted_inplace(v, 1000, CALIB_ANCHOR_QUANTILE) < 30000);
	assert_int_equal(calib_cell_from_samples(&q, quiet, 1000), 0);
	assert_int_equal(calib_cell_from_samples(&f, fast, 1000), 0);
	assert_true(f.anchor_ns > 39000);
	assert_true(f.robust_ns > 0.985 * (double)q.robust_ns);
	assert_true(f.robust_ns < 1.015 * (double)q.robust_ns);
}

/* Fills samples[cell * reps + rep] of a 2x2 matrix: self cells 30 us, cross cells from f. */
static struct calib_result *matrix_2x2(uint64_t *samples, int reps,
				       void (*f)(uint64_t *, int, int))
{
	struct calib_result *r = make_result(2, CALIB_2004);

	r->opts.reps = reps;
	for (int i = 0; i < 4; i++) {
		uint64_t *s = &samples[(size_t)i * reps];

		quiet_fills(s, reps);
		if (i == 0 || i == 3)
			for (int k = 0; k < reps; k++)
				s[k] -= 10000;
		else
			f(s, reps, i);
		assert_int_equal(calib_cell_from_samples(&r->cells[i], s, reps), 0);
	}
	calib_finish_matrix(r);
	return r;
}

static void cross_quiet(uint64_t *s, int reps, int cell)
{
	(void)s;
	(void)reps;
	(void)cell;
}

/* Cell 0->1 is slow in a phase; cell 1->0 has undisturbed fills anywhere from 36 to 46 us. */
static void cross_noisy(uint64_t *s, int reps, int cell)
{
	for (int k = 0; k < reps; k++) {
		if (cell == 1 && k < reps / 2)
			s[k] = s[k] * 13 / 10;
		if (cell == 2)
			s[k] = 36000 + (uint64_t)(k * 104729 % 10001);
	}
}

static void interval_is_the_block_bootstrap(void **state)
{
	static uint64_t samples[4 * 1000];
	struct calib_result *r = matrix_2x2(samples, 1000, cross_quiet);
	uint64_t lo, hi, quiet_width;

	(void)state;
	assert_int_equal(calib_hot_interval(r, samples, 1000), 0);
	assert_true(r->has_interval);
	lo = r->hot_robust_lo_ns;
	hi = r->hot_robust_hi_ns;
	assert_true(lo <= r->hot_robust_ns && r->hot_robust_ns <= hi);
	/* 1000 fills spread over 2 us: the median is known to a fraction of a microsecond */
	quiet_width = hi - lo;
	assert_true(quiet_width < 6 * 300);
	/* the same samples give the same interval */
	assert_int_equal(calib_hot_interval(r, samples, 1000), 0);
	assert_int_equal(r->hot_robust_lo_ns, lo);
	assert_int_equal(r->hot_robust_hi_ns, hi);
	free_result(r);

	/* wider undisturbed fills: a wider interval, still around the figure */
	r = matrix_2x2(samples, 1000, cross_noisy);
	assert_int_equal(calib_hot_interval(r, samples, 1000), 0);
	assert_true(r->hot_robust_lo_ns <= r->hot_robust_ns &&
		    r->hot_robust_ns <= r->hot_robust_hi_ns);
	assert_true(r->hot_robust_hi_ns - r->hot_robust_lo_ns > 2 * quiet_width);
	free_result(r);

	/* fewer repetitions than blocks: one fill a block */
	r = matrix_2x2(samples, 5, cross_quiet);
	assert_int_equal(calib_hot_interval(r, samples, 5), 0);
	assert_true(r->has_interval && r->hot_robust_lo_ns <= r->hot_robust_hi_ns);
	free_result(r);

	/* one CPU: no hot time, no interval */
	r = make_result(1, CALIB_2004);
	quiet_fills(samples, 10);
	calib_cell_from_samples(&r->cells[0], samples, 10);
	calib_finish_matrix(r);
	assert_int_equal(calib_hot_interval(r, samples, 10), 0);
	assert_false(r->has_interval);
	free_result(r);
}

static void hot_time_is_min_cross(void **state)
{
	struct calib_result *r = make_result(3, CALIB_2004);
	const uint64_t max_ns[9] = { 50, 300, 200, 310, 40, 900, 250, 800, 60 };

	(void)state;
	for (int i = 0; i < 9; i++) {
		uint64_t s[3] = { max_ns[i] / 2, max_ns[i], max_ns[i] / 2 };

		calib_cell_from_samples(&r->cells[i], s, 3);
	}
	calib_finish_matrix(r);
	assert_true(r->has_hot);
	/* self cells (50, 40, 60) are ignored even though they are the smallest */
	assert_int_equal(r->hot_ns, 200 * 6);
	assert_int_equal(r->hot_robust_ns, 100 * 6);
	free_result(r);

	r = make_result(1, CALIB_2004);
	{
		uint64_t s[2] = { 10, 20 };

		calib_cell_from_samples(&r->cells[0], s, 2);
	}
	calib_finish_matrix(r);
	assert_false(r->has_hot);	/* one CPU: no migration cost */
	free_result(r);
}

static void seed_cells(void **state)
{
	char buf[32];

	(void)state;
	/* The 8-way P3's min_delta is the 87.9 cell of its matrix. */
	assert_string_equal(calib_seed_cell(buf, sizeof(buf), 91815564), " 87.9");
	assert_string_equal(calib_seed_cell(buf, sizeof(buf), 12586890), " 12.0");
	assert_string_equal(calib_seed_cell(buf, sizeof(buf), 1351361), "  1.2");
	assert_string_equal(calib_seed_cell(buf, sizeof(buf), seed_delta(184, 8)), "184.8");
	/* the fraction digit is (delta >> 10) / 102 % 10, not a rounded tenth */
	assert_string_equal(calib_seed_cell(buf, sizeof(buf), 193800000), "184.5");
}

/* The 2-way Celeron/128K box from the Oct 2004 patch mail, line for line. */
static void seed_2004_format(void **state)
{
	struct calib_result *r = make_result(2, CALIB_2004);
	long mhz = 467;
	char *out;

	(void)state;
	r->opts.cache_size = 131072;
	r->cells[0].cost_ns = seed_delta(9, 6);
	r->cells[1].cost_ns = 12586890;
	r->cells[2].cost_ns = seed_delta(12, 2);
	r->cells[3].cost_ns = seed_delta(9, 8);
	out = capture(print_2004, r, &mhz);
	assert_string_equal(out,
		"arch cache_decay_nsec: 1000000\n"
		"migration cost matrix (cache_size: 131072, cpu: 467 MHz):\n"
		"        [00]  [01]\n"
		"[00]:    9.6  12.0\n"
		"[01]:   12.2   9.8\n"
		"min_delta: 12586890\n"
		"using cache_decay nsec: 12586890 (12 msec)\n");
	free(out);
	free_result(r);

	/* The 8-way's last lines: 91815564 ns is "87 msec" (>> 20, rounded down). */
	r = make_result(2, CALIB_2004);
	r->opts.cache_size = 2097152;
	r->cells[0].cost_ns = seed_delta(92, 1);
	r->cells[1].cost_ns = 91815564;
	r->cells[2].cost_ns = seed_delta(184, 8);
	r->cells[3].cost_ns = seed_delta(92, 7);
	mhz = 700;
	out = capture(print_2004, r, &mhz);
	assert_non_null(strstr(out, "min_delta: 91815564\n"
				    "using cache_decay nsec: 91815564 (87 msec)\n"));
	free(out);
	free_result(r);
}

/* One CPU: the kernel's min_delta stayed -1 and the arch value was kept. */
static void seed_2004_one_cpu(void **state)
{
	struct calib_result *r = make_result(1, CALIB_2004);
	long mhz = -1;
	char *out;

	(void)state;
	r->opts.cache_size = 524288;
	r->cells[0].cost_ns = seed_delta(6, 1);
	out = capture(print_2004, r, &mhz);
	assert_non_null(strstr(out, "min_delta: -1\n"
				    "using cache_decay nsec: 1000000 (0 msec)\n"));
	free(out);
	free_result(r);
}

/* The ia64 boot log from the 2.6.16 era, line for line. */
static void seed_2005_format(void **state)
{
	struct calib_result *r = make_result(2, CALIB_2005);
	long mhz = -1;
	char *out;

	(void)state;
	r->opts.cache_size = 1572864;
	r->ndist = 1;
	r->dist = calloc(1, sizeof(*r->dist));
	r->dist[0].cost_ns = 1680204;
	r->cells[1].cost_ns = r->cells[2].cost_ns = 1680204;
	r->wall_s = 1.2;
	out = capture(print_2005, r, &mhz);
	assert_string_equal(out,
		"---------------------\n"
		"| migration cost matrix (max_cache_size: 1572864, cpu: -1 MHz):\n"
		"---------------------\n"
		"          [00]    [01]\n"
		"[00]:     -     1.6(0)\n"
		"[01]:   1.6(0)    -   \n"
		"--------------------------------\n"
		"| cacheflush times [1]: 1.6 (1680204)\n"
		"| calibration delay: 1 seconds\n"
		"--------------------------------\n");
	free(out);
	free_result(r);
}

/* The seed's 8-way matrix shows its 0,5,6,7 / 1,2,3,4 quads; sysfs says 0-3 / 4-7. */
static void groups_from_seed_matrix(void **state)
{
	static const double m[8][8] = {
		{ 92.1, 184.8, 184.8, 184.8, 184.9, 90.7, 90.6, 90.7 },
		{ 181.3, 92.7, 88.5, 88.6, 88.5, 181.5, 181.3, 181.4 },
		{ 181.4, 88.4, 92.5, 88.4, 88.5, 181.4, 181.3, 181.4 },
		{ 181.4, 88.4, 88.5, 92.5, 88.4, 181.5, 181.2, 181.4 },
		{ 181.4, 88.5, 88.4, 88.4, 92.5, 181.5, 181.3, 181.5 },
		{ 87.2, 181.5, 181.4, 181.5, 181.4, 90.0, 87.0, 87.1 },
		{ 87.2, 181.5, 181.4, 181.5, 181.4, 87.9, 90.0, 87.1 },
		{ 87.2, 181.5, 181.4, 181.5, 181.4, 87.9, 87.0, 90.0 },
	};
	struct calib_result *r = make_result(8, CALIB_2004);
	char *root = fs_tempdir();
	struct calib_groups g;
	struct topology t;

	(void)state;
	make_tree_2socket(root);
	assert_int_equal(topology_read(root, &t), 0);
	for (int i = 0; i < 64; i++)
		r->cells[i].robust_ns = (uint64_t)(m[i / 8][i % 8] * 1048576);
	calib_group(r, &t, &g);
	assert_int_equal(g.ngroups, 2);
	assert_true(g.split_ratio > 2.0);
	for (int cpu = 0; cpu < 8; cpu++)
		assert_int_equal(g.group_of[cpu], (cpu == 0 || cpu >= 5) ? 0 : 1);
	assert_true(g.llc_known);
	assert_string_equal(g.llc_source, "sysfs");
	assert_int_equal(g.sysfs_ngroups, 2);
	assert_int_equal(g.sysfs_group_of[3], 0);
	assert_int_equal(g.sysfs_group_of[4], 1);
	assert_false(g.agree);

	/* A flat matrix (this VM) is one group: no split is claimed below 1.3x. */
	for (int i = 0; i < 64; i++)
		r->cells[i].robust_ns = 200000 + (i % 3) * 1000;
	calib_group(r, &t, &g);
	assert_int_equal(g.ngroups, 1);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
	free_result(r);
}

/*
 * Intel hybrid (fake_sysfs.h: P-cores 0-7 in SMT pairs, E-core clusters 8-11 and 12-15 each
 * sharing an L2, one L3 for all): the LLC is one group, P and E cores alike; a measured
 * matrix where only the CPUs sharing an L2 are cheap splits along those L2s, not along the
 * core types, and is said to differ from the LLC grouping.
 */
static void groups_on_hybrid(void **state)
{
	struct calib_result *r = make_result(16, CALIB_2004);
	char *root = fs_tempdir();
	struct calib_groups g;
	struct topology t;

	(void)state;
	make_tree_hybrid(root, true);
	assert_int_equal(topology_read(root, &t), 0);
	/* 40 µs between CPUs sharing an L2 (an SMT pair, an E cluster), 120 µs via the L3 */
	for (int i = 0; i < 256; i++) {
		int a = i / 16, b = i % 16;
		bool l2 = a < 8 ? a / 2 == b / 2 : b >= 8 && a / 4 == b / 4;

		r->cells[i].robust_ns = l2 ? 40000 : 120000;
	}
	calib_group(r, &t, &g);
	assert_true(g.llc_known);
	assert_string_equal(g.llc_source, "sysfs");
	assert_int_equal(g.sysfs_ngroups, 1);
	assert_int_equal(g.ngroups, 6);
	for (int cpu = 8; cpu < 12; cpu++) {
		assert_int_equal(g.group_of[cpu], g.group_of[8]);
		assert_int_equal(g.group_of[cpu + 4], g.group_of[12]);
	}
	assert_int_not_equal(g.group_of[8], g.group_of[12]);
	assert_int_not_equal(g.group_of[7], g.group_of[8]);
	assert_false(g.agree);

	/* The same cost everywhere: one group, as the L3 says. */
	for (int i = 0; i < 256; i++)
		r->cells[i].robust_ns = 120000 + (i % 3) * 1000;
	calib_group(r, &t, &g);
	assert_int_equal(g.ngroups, 1);
	assert_true(g.agree);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
	free_result(r);
}

static void fill_pattern_dirties_every_line(void **state)
{
	const uint64_t bytes = 873813 - 873813 % sizeof(long);
	unsigned long *buf = calloc(bytes / sizeof(long), sizeof(long));
	uint64_t lines_missed = 0, words = bytes / sizeof(long);

	(void)state;
	calib_fill_2004(buf, bytes, 0xdeadbeef);
	/* every 64-byte line but possibly the last partial one holds a store */
	for (uint64_t w = 0; w + 8 <= words; w += 8) {
		bool hit = false;

		for (int k = 0; k < 8; k++)
			hit |= buf[w + k] == 0xdeadbeef;
		lines_missed += !hit;
	}
	assert_int_equal(lines_missed, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cell_is_max_times_six),
		cmocka_unit_test(seed_max_is_of_the_first_20),
		cmocka_unit_test(undisturbed_median_ignores_a_slow_phase),
		cmocka_unit_test(undisturbed_median_holds_to_85_pct),
		cmocka_unit_test(undisturbed_median_ignores_a_short_fast_phase),
		cmocka_unit_test(interval_is_the_block_bootstrap),
		cmocka_unit_test(hot_time_is_min_cross),
		cmocka_unit_test(seed_cells),
		cmocka_unit_test(seed_2004_format),
		cmocka_unit_test(seed_2004_one_cpu),
		cmocka_unit_test(seed_2005_format),
		cmocka_unit_test(groups_from_seed_matrix),
		cmocka_unit_test(groups_on_hybrid),
		cmocka_unit_test(fill_pattern_dirties_every_line),
	};

	return cmocka_run_group_tests_name("calibrate", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The calibration's arithmetic and its seed print formats, on made-up and seed numbers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "calib_file.h"
#include "calib_report.h"
#include "calibrate.h"
#include "fake_sysfs.h"
#include "render_text.h"
#include "run_file.h"
#include "stats.h"
#include "text_edit.h"
#include "topology.h"
#include "tunable.h"

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

static struct calibration *make_result(int n, enum calib_method m)
{
	struct calibration *r = calloc(1, sizeof(*r));

	r->method = m;
	r->cpus.n = n;
	for (int i = 0; i < n; i++)
		r->cpus.cpu[i] = i;
	r->cpu_mhz = -1;
	r->reps = 1;
	assert_int_equal(calib_alloc_cells(r, n), 0);
	for (int i = 0; i < n * n; i++) {
		r->cells[i].src_cpu = i / n;
		r->cells[i].dst_cpu = i % n;
	}
	return r;
}

static void free_result(struct calibration *r)
{
	calib_free(r);
	free(r);
}

static char *capture(void (*print)(FILE *, const struct calibration *),
		     const struct calibration *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print(f, r);
	fclose(f);
	return buf;
}

static void cell_is_max_times_six(void **state)
{
	const uint64_t s[5] = { 100, 90, 400, 110, 95 };
	struct calib_cell c = { 0 };

	(void)state;
	assert_int_equal(calib_cell_from_samples(&c, s, 5), 0);
	assert_int_equal(c.fill_max_ns, 400);
	assert_int_equal(c.fill_min_ns, 90);
	assert_int_equal(c.cost_ns, 2400);	/* max x 6 */
	assert_true(c.fill_median_ns == 100.0);
	assert_true(c.fill_mad_ns == 10.0);	/* |.-100|: 0 10 300 10 5 -> 10 */
	/* 5 blocks of one fill; the anchor is their lower quartile, 95; undisturbed: <= 104.5,
	 * i.e. 90 95 100 */
	assert_true(c.fill_anchor_ns == 95.0);
	assert_int_equal(c.fills_undisturbed, 3);
	assert_true(c.fill_undisturbed_ns == 95.0);
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
	assert_int_equal(c.fill_max_ns, 300);
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
	assert_int_equal(q.fills_undisturbed, 1000);
	assert_true(q.fill_undisturbed_ns == q.fill_median_ns);
	/* noisy: the old rules move ... */
	assert_true(d.fill_median_ns > 1.15 * q.fill_median_ns);
	assert_true(d.cost_ns > 4 * q.cost_ns);
	/* ... the new one does not (within 1 %), and it left out the slow and the hit fills */
	assert_true(d.robust_ns > 0.99 * (double)q.robust_ns);
	assert_true(d.robust_ns < 1.01 * (double)q.robust_ns);
	assert_true(d.fills_undisturbed < 400 && d.fills_undisturbed > 350);
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
	assert_true(f.fill_anchor_ns > 39000);
	assert_true(f.robust_ns > 0.985 * (double)q.robust_ns);
	assert_true(f.robust_ns < 1.015 * (double)q.robust_ns);
}

/* Fills samples[cell * reps + rep] of a 2x2 matrix: self cells 30 us, cross cells from f. */
static struct calibration *matrix_2x2(uint64_t *samples, int reps,
				      void (*f)(uint64_t *, int, int))
{
	struct calibration *r = make_result(2, CALIB_2004);

	r->reps = reps;
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
	struct calibration *r = matrix_2x2(samples, 1000, cross_quiet);
	double lo, hi, quiet_width;

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
	assert_true(r->hot_robust_lo_ns == lo);
	assert_true(r->hot_robust_hi_ns == hi);
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
	struct calibration *r = make_result(3, CALIB_2004);
	const uint64_t max_ns[9] = { 50, 300, 200, 310, 40, 900, 250, 800, 60 };

	(void)state;
	for (int i = 0; i < 9; i++) {
		uint64_t s[3] = { max_ns[i] / 2, max_ns[i], max_ns[i] / 2 };

		calib_cell_from_samples(&r->cells[i], s, 3);
	}
	calib_finish_matrix(r);
	assert_true(r->has_hot);
	/* self cells (50, 40, 60) are ignored even though they are the smallest */
	assert_true(r->hot_seed_ns == 200 * 6);
	assert_true(r->hot_robust_ns == 100 * 6);
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
	struct calibration *r = make_result(2, CALIB_2004);
	char *out;

	(void)state;
	r->cpu_mhz = 467;
	r->tunable.value_ns = 1000000;
	r->cache_bytes = 131072;
	r->cells[0].cost_ns = seed_delta(9, 6);
	r->cells[1].cost_ns = 12586890;
	r->cells[2].cost_ns = seed_delta(12, 2);
	r->cells[3].cost_ns = seed_delta(9, 8);
	out = capture(calib_print_seed_2004, r);
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
	r->tunable.value_ns = 1000000;
	r->cache_bytes = 2097152;
	r->cells[0].cost_ns = seed_delta(92, 1);
	r->cells[1].cost_ns = 91815564;
	r->cells[2].cost_ns = seed_delta(184, 8);
	r->cells[3].cost_ns = seed_delta(92, 7);
	r->cpu_mhz = 700;
	out = capture(calib_print_seed_2004, r);
	assert_non_null(strstr(out, "min_delta: 91815564\n"
				    "using cache_decay nsec: 91815564 (87 msec)\n"));
	free(out);
	free_result(r);
}

/* One CPU: the kernel's min_delta stayed -1 and the arch value was kept. */
static void seed_2004_one_cpu(void **state)
{
	struct calibration *r = make_result(1, CALIB_2004);
	char *out;

	(void)state;
	r->tunable.value_ns = 1000000;
	r->cache_bytes = 524288;
	r->cells[0].cost_ns = seed_delta(6, 1);
	out = capture(calib_print_seed_2004, r);
	assert_non_null(strstr(out, "min_delta: -1\n"
				    "using cache_decay nsec: 1000000 (0 msec)\n"));
	free(out);
	free_result(r);
}

/* The ia64 boot log from the 2.6.16 era, line for line. */
static void seed_2005_format(void **state)
{
	struct calibration *r = make_result(2, CALIB_2005);
	char *out;

	(void)state;
	r->cache_bytes = 1572864;
	r->ndist = 1;
	r->dist = calloc(1, sizeof(*r->dist));
	r->dist[0].cost_ns = 1680204;
	r->cells[1].cost_ns = r->cells[2].cost_ns = 1680204;
	r->wall_s = 1.2;
	out = capture(calib_print_seed_2005, r);
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
	struct calibration *r = make_result(8, CALIB_2004);
	char *root = fs_tempdir();
	struct topology t;

	(void)state;
	make_tree_2socket(root);
	assert_int_equal(topology_read(root, &t), 0);
	for (int i = 0; i < 64; i++)
		r->cells[i].robust_ns = (uint64_t)(m[i / 8][i % 8] * 1048576);
	calib_note_llc(r, &t);
	calib_group(r);
	assert_int_equal(r->groups.ngroups, 2);
	assert_true(r->groups.split_ratio > 2.0);
	for (int cpu = 0; cpu < 8; cpu++)
		assert_int_equal(r->groups.group_of[cpu], (cpu == 0 || cpu >= 5) ? 0 : 1);
	assert_true(r->llc.known);
	assert_string_equal(r->llc.source, "sysfs");
	assert_int_equal(r->llc.ngroups, 2);
	assert_int_equal(r->llc.group_of[3], 0);
	assert_int_equal(r->llc.group_of[4], 1);
	assert_false(r->groups.agree);

	/* A flat matrix (this VM) is one group: no split is claimed below 1.3x. */
	for (int i = 0; i < 64; i++)
		r->cells[i].robust_ns = 200000 + (i % 3) * 1000;
	calib_note_llc(r, &t);
	calib_group(r);
	assert_int_equal(r->groups.ngroups, 1);
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
	struct calibration *r = make_result(16, CALIB_2004);
	char *root = fs_tempdir();
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
	calib_note_llc(r, &t);
	calib_group(r);
	assert_true(r->llc.known);
	assert_string_equal(r->llc.source, "sysfs");
	assert_int_equal(r->llc.ngroups, 1);
	assert_int_equal(r->groups.ngroups, 6);
	for (int cpu = 8; cpu < 12; cpu++) {
		assert_int_equal(r->groups.group_of[cpu], r->groups.group_of[8]);
		assert_int_equal(r->groups.group_of[cpu + 4], r->groups.group_of[12]);
	}
	assert_int_not_equal(r->groups.group_of[8], r->groups.group_of[12]);
	assert_int_not_equal(r->groups.group_of[7], r->groups.group_of[8]);
	assert_false(r->groups.agree);

	/* The same cost everywhere: one group, as the L3 says. */
	for (int i = 0; i < 256; i++)
		r->cells[i].robust_ns = 120000 + (i % 3) * 1000;
	calib_note_llc(r, &t);
	calib_group(r);
	assert_int_equal(r->groups.ngroups, 1);
	assert_true(r->groups.agree);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
	free_result(r);
}

/* ---- the calibration model from end to end: report, file, file again ---- */

static uint64_t lcg_state;

/* A fixed sequence, so that the made-up fills below are the same on every run. */
static uint64_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 33;
}

/* The fake two-socket tree (fake_sysfs.h), read as calibrate reads a machine. */
static char *sample_topology(struct topology *t, struct tunable *k)
{
	char *root = fs_tempdir();

	make_tree_2socket(root);
	assert_int_equal(topology_read(root, t), 0);
	t->cpu_mhz = 2095;
	memset(k, 0, sizeof(*k));
	k->value_ns = 500000;
	k->readable = true;
	snprintf(k->path, sizeof(k->path), "/sys/kernel/debug/sched/migration_cost_ns");
	snprintf(k->source, sizeof(k->source), "read from %s", k->path);
	return root;
}

/*
 * What calibrate_run() makes of made-up fills on CPUs cpus[n] of that tree: 30 µs on the
 * same CPU, 41 µs within a socket, 90 µs across, each up to 2 µs more and one in ten 30 %
 * slower.
 */
static void sample_2004(struct calibration *c, const struct topology *t,
			const struct tunable *k, const int *cpus, int n, int reps)
{
	struct calib_opts o = { .method = CALIB_2004, .cache_size = 262144, .reps = reps,
				.factor = CALIB_FACTOR_SCALE, .topo = t, .kernel = k };
	uint64_t *s = calloc((size_t)n * n * reps, sizeof(*s));

	assert_non_null(s);
	lcg_state = 12345;
	o.cpus.n = n;
	memcpy(o.cpus.cpu, cpus, n * sizeof(int));
	assert_int_equal(calib_prepare(&o, c), 0);
	for (int i = 0; i < n * n; i++) {
		int a = cpus[i / n], b = cpus[i % n];
		uint64_t base = a == b ? 30000 : a / 4 == b / 4 ? 41000 : 90000;

		for (int r = 0; r < reps; r++) {
			uint64_t v = base + lcg() % 2000;

			s[(size_t)i * reps + r] = lcg() % 10 ? v : v * 13 / 10;
		}
		assert_int_equal(calib_cell_from_samples(&c->cells[i], &s[(size_t)i * reps],
							 reps), 0);
	}
	calib_finish_matrix(c);
	assert_int_equal(calib_hot_interval(c, s, reps), 0);
	c->wall_s = 1.234567;
	free(s);
}

/* The 2005 search on CPUs 0, 1, 4 and 5: one pair per distance, none at distance 1. */
static void sample_2005(struct calibration *c, const struct topology *t,
			const struct tunable *k)
{
	struct calib_opts o = { .method = CALIB_2005, .cache_size = 262144, .reps = 1,
				.factor = 192, .topo = t, .kernel = k,
				.cpus = { 4, { 0, 1, 4, 5 } } };
	static const struct calib_step steps[2] = {
		{ 131072, 100000, 100000, 50000 }, { 137970, -4000, 100000, 77000 },
	};

	assert_int_equal(calib_prepare(&o, c), 0);
	c->ndist = 3;
	c->dist = calloc(3, sizeof(*c->dist));
	assert_non_null(c->dist);
	c->dist[0] = (struct calib_distance){ 0, 1, 262144, 123456, 370368, 0, NULL };
	c->dist[1] = (struct calib_distance){ -1, -1, 0, 0, 0, 0, NULL };
	c->dist[2] = (struct calib_distance){ 0, 4, 393216, 2345678, 7037034, 2, NULL };
	c->dist[2].steps = malloc(sizeof(steps));
	assert_non_null(c->dist[2].steps);
	memcpy(c->dist[2].steps, steps, sizeof(steps));
	calib_finish_search(c);
	c->wall_s = 12.75;
}

static char *report_of(const struct calibration *c)
{
	return capture(calib_print_report, c);
}

/*
 * migtrace's own report, byte for byte as it was printed before the calibration had a model
 * of its own (user/cli/calib_report.c printed it from calibrate's result, the topology and
 * the tunable): the same made-up fills print the same text.
 */
static void report_text_unchanged(void **state)
{
	static const int cpus[4] = { 0, 1, 4, 5 };
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k), *out;

	(void)state;
	sample_2004(&c, &t, &k, cpus, 4, 200);
	out = report_of(&c);
	assert_string_equal(out,
		"method 2004 (boot-time auto-tuning: max of the first 20 timed fills after "
		"a migration, x 6; robust: median of the undisturbed fills of all 200, x 6)\n"
		"cache 256 KiB, buffer 427 KiB (5/3 x cache)\n"
		"migration cost (worst of the first 20 fills x 6, the seed's cell):\n"
		"               to 0       to 1       to 4       to 5\n"
		"  from 0     245 µs    332 µs    712 µs    711 µs\n"
		"  from 1     335 µs    245 µs    709 µs    718 µs\n"
		"  from 4     705 µs    552 µs    249 µs    335 µs\n"
		"  from 5     552 µs    714 µs    332 µs    245 µs\n"
		"fill time after the migration, median:\n"
		"               to 0       to 1       to 4       to 5\n"
		"  from 0    31.2 µs   42.1 µs   91.3 µs   91.1 µs\n"
		"  from 1    42.1 µs   31.0 µs   91.1 µs   91.1 µs\n"
		"  from 4    91.2 µs   91.1 µs   31.1 µs   42.0 µs\n"
		"  from 5    91.1 µs   91.1 µs   42.2 µs   31.2 µs\n"
		"spread of the fill time, MAD:\n"
		"               to 0       to 1       to 4       to 5\n"
		"  from 0      594 ns     565 ns     565 ns     517 ns\n"
		"  from 1      595 ns     595 ns     533 ns     532 ns\n"
		"  from 4      604 ns     518 ns     521 ns     520 ns\n"
		"  from 5      524 ns     550 ns     509 ns     520 ns\n"
		"fill time after the migration, median of the undisturbed fills (at most "
		"10 % above an undisturbed one):\n"
		"               to 0       to 1       to 4       to 5\n"
		"  from 0    31.1 µs   42.0 µs   91.1 µs   91.0 µs\n"
		"  from 1    42.0 µs   30.9 µs   91.0 µs   91.1 µs\n"
		"  from 4    91.0 µs   91.1 µs   31.1 µs   41.9 µs\n"
		"  from 5    91.1 µs   91.0 µs   42.1 µs   31.0 µs\n"
		"hot time: 251 µs (robust: median of the undisturbed fills x 6, min over "
		"cross-CPU pairs)\n"
		"hot time, 95 % interval: 250 µs to 252 µs (block bootstrap over this "
		"run's repetitions; a host that changes between runs can move it further)\n"
		"hot time, the seed's rule (max of the first 20 fills x 6): 332 µs\n"
		"kernel's value: 500 µs (read from /sys/kernel/debug/sched/migration_cost_ns)\n"
		"calibrated / kernel: 0.50x\n"
		"noise: median MAD 0.9 % of the median; max is 1.31x the median\n"
		"disturbed fills: 9.0 % (median over cells), left out of the robust hot time\n"
		"CPU groups by measured cost: {0-1} {4-5} (max/min cross cost 2.17x); "
		"sysfs LLC groups: {0-1} {4-5} — agree\n"
		"calibrated in 1.23 s\n");
	free(out);
	sample_2005(&c, &t, &k);
	out = report_of(&c);
	assert_string_equal(out,
		"method 2005 (2.6.16 auto-tuning: buffer-size sweep, cross-CPU minus "
		"same-CPU cost, max over sizes, x 2 x factor 192/128)\n"
		"cache 256 KiB, sweep from 128 KiB up in 5 % steps, 1 repetition per size\n"
		"  distance 0 (CPUs 0,1): max cost 123 µs at a working set of 256 KiB -> "
		"hot time 370 µs\n"
		"  distance 2 (CPUs 0,4): max cost 2.35 ms at a working set of 384 KiB -> "
		"hot time 7.04 ms\n"
		"hot time: 370 µs (method 2005, min over cross-CPU pairs)\n"
		"kernel's value: 500 µs (read from /sys/kernel/debug/sched/migration_cost_ns)\n"
		"calibrated / kernel: 0.74x\n"
		"calibrated in 12.75 s\n");
	free(out);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* c as a calibration file, in memory (the caller frees it). */
static char *file_of(const struct calibration *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(calib_file_write(f, c), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Written, read back and written again: the same bytes, and the same report. */
static void assert_round_trip(const struct calibration *c)
{
	struct calibration back;
	char err[400] = "", *one, *two, *text, *again;
	size_t n1, n2;
	int version = 0;

	one = file_of(c, &n1);
	if (calib_file_parse(one, n1, &back, &version, err, sizeof(err)))
		fail_msg("its own file refused: %s\n%s", err, one);
	assert_int_equal(version, 3);
	two = file_of(&back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	text = report_of(c);
	again = report_of(&back);
	assert_string_equal(text, again);
	assert_memory_equal(back.cells, c->cells, (size_t)c->cpus.n * c->cpus.n *
			    sizeof(*c->cells));
	free(one);
	free(two);
	free(text);
	free(again);
	calib_free(&back);
}

static void file_round_trip(void **state)
{
	static const int cpus[4] = { 0, 1, 4, 5 }, one_cpu[1] = { 2 };
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k);

	(void)state;
	/* 2004 on four CPUs, the LLC grouping known, with a size sweep */
	sample_2004(&c, &t, &k, cpus, 4, 200);
	c.sizes = calloc(CALIB_SWEEP_NSIZES, sizeof(*c.sizes));
	assert_non_null(c.sizes);
	c.nsizes = 2;
	c.sizes[0] = (struct calib_size){ 0.25, 65536, 109224, 8012.5, true, 15600 };
	c.sizes[1] = (struct calib_size){ 0.354, 92736, 154560, 11800, true, 22100.25 };
	assert_true(c.groups.valid && c.groups.compared && c.has_interval);
	assert_round_trip(&c);
	/* the LLC sharing unknown: no LLC grouping, nothing to agree with */
	c.llc.known = false;
	c.llc.source[0] = '\0';
	snprintf(c.llc.why, sizeof(c.llc.why), "CPUID 0x80000006 gives no sharing");
	calib_group(&c);
	assert_false(c.groups.compared);
	assert_round_trip(&c);
	/* one CPU: no hot time, no interval, no grouping */
	sample_2004(&c, &t, &k, one_cpu, 1, 30);
	assert_false(c.has_hot || c.has_interval || c.groups.valid);
	assert_round_trip(&c);
	/* 2005, its search's distances and steps */
	sample_2005(&c, &t, &k);
	assert_round_trip(&c);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* `run --calibration` still reads the files of schema 1 for their hot time. */
static void reads_version_1(void **state)
{
	const char *top = getenv("MT_ROOT");
	struct calibration c;
	char path[4096], err[400] = "";
	const char *one;
	int version = 0;

	(void)state;
	/* written by `migtrace calibrate --json` before this schema (json-c, "\/" and all) */
	snprintf(path, sizeof(path), "%s/tests/data/calibrate-v1.json", top ? top : ".");
	if (calib_file_read(path, &c, &version, err, sizeof(err)))
		fail_msg("%s: %s (run from the repository's top, or set MT_ROOT)", path, err);
	assert_int_equal(version, 1);
	assert_int_equal(c.method, CALIB_2004);
	assert_true(c.has_hot && c.hot_seed_ns == 386172 && c.hot_robust_ns == 253440);
	calib_free(&c);
	/* the oldest, before the robust hot time; and one CPU, no hot time at all */
	one = "{\"schema\":\"migtrace.calibrate/1\",\"method\":2005,\"hot_time_ns\":700000}";
	assert_int_equal(calib_file_parse(one, strlen(one), &c, &version, err, sizeof(err)), 0);
	assert_true(c.method == CALIB_2005 && c.has_hot && isnan(c.hot_robust_ns));
	one = "{\"schema\":\"migtrace.calibrate/1\",\"method\":2004,\"hot_time_ns\":null}";
	assert_int_equal(calib_file_parse(one, strlen(one), &c, &version, err, sizeof(err)), 0);
	assert_false(c.has_hot);
}

static void refuses_bad_calibration_files(void **state)
{
	static const struct {
		const char *from, *to, *says;
	} bad[] = {
		{ "\"cpu_mhz\":", "\"cpu_mhz\":1,\"cpu_mhz\":", "\"cpu_mhz\" appears twice" },
		{ "\"cells\":", "\"cells\":[],\"cells\":", "\"cells\" appears twice" },
		{ "\"assumed\":", "\"assumed\":true,\"assumed\":",
		  "tunable: \"assumed\" appears twice" },
		{ "\"size_sweep\":", "\"size_sweep\":null,\"size_sweep\":", "\"size_sweep\" "
		  "appears twice" },
		{ "\"cpu_mhz\":", "\"cpu_mhz_x\":1,\"cpu_mhz\":", "\"cpu_mhz_x\" is not a member" },
		{ "\"distance\":0}", "\"distance\":0,\"x\":1}", "cells[]: \"x\" is not a member" },
		{ "\"schema\":\"migtrace.calibrate/3\",\n\"method\":2004,",
		  "\"schema\":\"migtrace.calibrate/3\",\n", "second member is not \"method\"" },
		{ "\"method\":2004", "\"method\":2006", "neither 2004 nor 2005" },
		{ "migtrace.calibrate/3", "migtrace.run/2", "not a calibration file" },
		{ "\"chase\":null,", "", "has no \"chase\" (a migtrace.calibrate/3 file always" },
		{ "migtrace.calibrate/3", "migtrace.calibrate/2", "\"chase\" is not a member "
		  "(migtrace.calibrate/2" },
		{ "\"chase\":null", "\"chase\":null,\"chase\":null", "\"chase\" appears twice" },
		{ "\"reps\":200", "\"reps\":0", "reps: 0 is not a number" },
		{ "\"cpus\":[0,1,4,5]", "\"cpus\":[0,1,4]", "16 cells, not 9" },
		{ "\"src_cpu\":1,\"dst_cpu\":0,", "\"src_cpu\":0,\"dst_cpu\":1,", "cells[4]: CPUs "
		  "0 -> 1, not 1 -> 0" },
		{ "\"fill_mad_ns\":", "\"fill_mad_ns\":-", "times of 0 ns or more" },
		{ "\"hot_seed_ns\":331752", "\"hot_seed_ns\":null", "both times of 0 ns or more, "
		  "or both null" },
		{ "\"fill_statistics\":{", "\"fill_statistics\":null,\"y\":{",
		  "\"y\" is not a member" },
		{ "\"groups\":{\"group_of_cpu\":[0,0,1,1]",
		  "\"groups\":{\"group_of_cpu\":[0,0,2,2]", "group 2 before group 1" },
		{ "\"groups\":{\"group_of_cpu\":[0,0,1,1]", "\"groups\":{\"group_of_cpu\":[0,0,1]",
		  "3 entries, not one per CPU (4)" },
		{ "\"source\":\"sysfs\"", "\"source\":null", "source and group_of_cpu are both" },
		{ "\"size_search\":null", "\"size_search\":{\"factor\":1,\"distances\":[]}",
		  "fill_statistics is an object with method 2004" },
		{ "\"cache_cpuid_leaf\":null", "\"cache_cpuid_leaf\":7", "expected a string" },
		{ "\"tunable\":{", "\"tunable\":{\"value_ns\":1.5,", "value_ns" },
	};
	static const int cpus[4] = { 0, 1, 4, 5 };
	struct calibration c = { 0 }, back;
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k), *text, *e, err[400];
	size_t n;
	int version;

	(void)state;
	sample_2004(&c, &t, &k, cpus, 4, 200);
	text = file_of(&c, &n);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e = edit(text, bad[i].from, bad[i].to);
		err[0] = '\0';
		memset(&back, 0xff, sizeof(back));
		assert_int_equal(calib_file_parse(e, strlen(e), &back, &version, err,
						  sizeof(err)), -EINVAL);
		assert_null(back.cells);
		assert_null(back.sizes);
		if (!strstr(err, bad[i].says))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].says);
		assert_null(strchr(err, '\n'));
		free(e);
	}
	/* every cut of the file is refused, never half-read */
	for (size_t cut = 0; cut + 1 < n; cut += 61)
		assert_int_equal(calib_file_parse(text, cut, &back, &version, err, sizeof(err)),
				 -EINVAL);
	free(text);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/*
 * --sweep-size's table: the cost column is cross-CPU minus same-CPU (it once printed the
 * cache size again), and the peak names the size where that cost is largest.
 */
static void sweep_size_rows(void **state)
{
	struct calib_size sizes[3] = {
		{ 0.25, 262144, 436904, 8012.5, true, 15600 },
		{ 1, 1048576, 1747624, 30000, true, 47500 },
		{ 4, 4194304, 6990504, 140000, true, 150000 },
	};
	struct calib_size one_cpu = { 0.25, 262144, 436904, 8300, false, 0 };
	struct calibration c = { .reps = 3, .cache_bytes = 1048576, .nsizes = 3, .sizes = sizes };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	calib_print_sweep_head(f, &c);
	for (int i = 0; i < c.nsizes; i++)
		calib_print_sweep_size(f, &c, i);
	calib_print_sweep_peak(f, &c);
	c.sizes = &one_cpu;
	c.nsizes = 1;
	calib_print_sweep_size(f, &c, 0);
	calib_print_sweep_peak(f, &c);
	fclose(f);
	assert_string_equal(out,
		"\nsize sweep (method 2004, medians of 3 fills; cost = cross-CPU - same-CPU):\n"
		"  cache      buffer         same-CPU    cross-CPU         cost   cost per KiB\n"
		"  256 KiB    427 KiB         8.0 µs     15.6 µs      7.6 µs        17.8 ns\n"
		"  1 MiB      1.7 MiB        30.0 µs     47.5 µs     17.5 µs        10.3 ns\n"
		"  4 MiB      6.7 MiB         140 µs      150 µs     10.0 µs         1.5 ns\n"
		"migration cost peaks with a 1.7 MiB buffer (cache 1 MiB x 5/3): the cache "
		"behaves as about that size\n"
		"  256 KiB    427 KiB         8.3 µs            -            -         0.0 ns\n");
	free(out);
}

/*
 * The run file's calibration.measured is read by the same code, as the run file's reader
 * reads: a member it does not know is skipped (a later build's), one that appears twice is
 * refused.  The checked-in validate run has the matrix.
 */
static void run_file_measured_member(void **state)
{
	static const char cell[] = "{\"src_cpu\":0,\"dst_cpu\":1,";
	const char *top = getenv("MT_ROOT");
	char path[4096], err[400] = "", *text, *e;
	struct run *r = NULL;
	size_t n;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/sample-validate.json", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open it (run from the repository's top, or set MT_ROOT)",
			 path);
	text = calloc(1, 1 << 20);
	assert_non_null(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	e = edit(text, cell, "{\"src_cpu\":0,\"dst_cpu\":1,\"later\":[1,{}],");
	assert_int_equal(run_file_parse(e, strlen(e), NULL, &r, err, sizeof(err)), 0);
	assert_non_null(r->calib.cal.cells);
	assert_int_equal(r->calib.cal.cells[1].fill_max_ns, 1512255);
	run_free(r);
	free(e);
	e = edit(text, cell, "{\"src_cpu\":0,\"dst_cpu\":1,\"dst_cpu\":1,");
	assert_int_equal(run_file_parse(e, strlen(e), NULL, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "calibration.measured.cells[]: \"dst_cpu\" appears twice"));
	assert_int_equal(run_file_parse(text, n, NULL, &r, err, sizeof(err)), 0);
	run_free(r);
	free(e);
	free(text);
}

/* ---- the chase ---- */

/*
 * A made-up cost a line at D for the chase's sample: CPUs 0 and 1 (SMT siblings here) lose a
 * private cache of about 1 MiB and keep a 5 ns residual, CPUs 0 and 4 (two sockets) refill
 * from beyond everything the sweep displaces; more chains overlap their misses.
 */
static double made_up_cost(const struct chase_curve *x, uint64_t d)
{
	double l2 = log2((double)d), per_chain = 1 / pow(x->chains, 0.8);

	if (x->dst_cpu == 1)
		return 5 + 95 * per_chain * fmin(fmax((21 - l2) / 2, 0), 1);
	return 150 * per_chain - 30 * per_chain * fmin(fmax((l2 - 20) / 5, 0), 1);
}

/*
 * The chase on CPUs 0, 1 and 4 of the two-socket tree (L2 256 KiB, LLC 8 MiB), one working
 * set of 64 KiB, its samples made up: the walk on the source 10 ns a line, the move's the
 * made-up cost more, each up to 3 % off, one in ten rounds' trials 40 % slower.
 */
static void sample_chase(struct calibration *c, const struct topology *t,
			 const struct tunable *k, int rounds, uint64_t room)
{
	struct calib_opts o = { .method = CALIB_2004, .cache_size = 262144, .reps = 20,
				.factor = CALIB_FACTOR_SCALE, .topo = t, .kernel = k,
				.cpus = { 3, { 0, 1, 4 } }, .chase = true, .chase_rounds = rounds,
				.chase_nws = 1, .chase_ws = { 65536 }, .chase_room_bytes = room };
	struct calib_chase *ch;
	double *s;

	assert_int_equal(calib_prepare(&o, c), 0);
	ch = c->chase;
	assert_non_null(ch);
	s = calloc((size_t)rounds * ch->ncurves * CHASE_MAX_POINTS * 2, sizeof(*s));
	assert_non_null(s);
	lcg_state = 777;
	for (int r = 0; r < rounds; r++)
		for (int cv = 0; cv < ch->ncurves; cv++)
			for (int p = 0; p < ch->curves[cv].npoints; p++) {
				const struct chase_curve *x = &ch->curves[cv];
				uint64_t d = x->points[p].displaced_bytes;
				double same = 10, cross = same + made_up_cost(x, d);

				for (int arm = 0; arm < 2; arm++) {
					double off = 0.97 + (double)(lcg() % 600) / 1e4;
					double v = (arm ? same : cross) * off;

					s[CHASE_SAMPLE(ch, r, cv, p, arm)] =
						lcg() % 10 ? v : v * 1.4;
				}
			}
	ch->trials = rounds * ch->ncurves * ch->curves[0].npoints * 2;
	ch->redone = 3;
	ch->switched = 1;
	assert_int_equal(calib_chase_finish(ch, s, rounds), 0);
	ch->wall_s = 2.5;
	free(s);
	/* the 2004 figures of these CPUs beside it, as calibrate --method chase has them */
	c->chase = NULL;
	sample_2004(c, t, k, o.cpus.cpu, o.cpus.n, 200);
	c->chase = ch;
}

/* The plan: a pair per distance, D from a sixteenth of the L2 to 4 x the LLC, or less. */
static void chase_plan(void **state)
{
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k);
	const struct calib_chase *ch;

	(void)state;
	sample_chase(&c, &t, &k, 2, 1ULL << 40);
	ch = c.chase;
	assert_int_equal(ch->ncurves, 2 * CHASE_NCHAINS);
	for (int i = 0; i < ch->ncurves; i++) {
		const struct chase_curve *x = &ch->curves[i];

		assert_int_equal(x->chains, chase_chains[i % CHASE_NCHAINS]);
		assert_int_equal(x->src_cpu, 0);
		assert_int_equal(x->dst_cpu, i < CHASE_NCHAINS ? 1 : 4);
		assert_int_equal(x->ws_bytes, 65536);
		/* 16 KiB, 32 KiB, ... 32 MiB */
		assert_int_equal(x->npoints, 12);
		assert_int_equal(x->points[0].displaced_bytes, 16384);
		assert_int_equal(x->points[11].displaced_bytes, 32ULL << 20);
	}
	assert_true(ch->curves[0].distance < ch->curves[CHASE_NCHAINS].distance);
	assert_int_equal(ch->llc_bytes, 8ULL << 20);
	assert_int_equal(ch->polluter_bytes, 64ULL << 20);
	assert_string_equal(ch->sweep_why, "to 4 x the LLC, the L3 Unified 8 MiB (sysfs)");
	/* short of memory: the end halved until the polluter and the set fit in half of it */
	sample_chase(&c, &t, &k, 2, 40ULL << 20);
	assert_int_equal(c.chase->curves[0].points[c.chase->curves[0].npoints - 1].displaced_bytes,
			 8ULL << 20);
	assert_string_equal(c.chase->sweep_why, "to 4 x the LLC, the L3 Unified 8 MiB (sysfs); "
			    "8 MiB, not 32 MiB: memory is short (40 MiB given)");
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/*
 * The figures from made-up samples: the fit recovers the maximum, the residual and where the
 * cost falls between the two sizes it falls between; a cost that stays is beyond the sweep.
 */
static void chase_figures(void **state)
{
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k);
	const struct chase_curve *near, *far;

	(void)state;
	sample_chase(&c, &t, &k, 9, 1ULL << 40);
	near = &c.chase->curves[0];
	far = &c.chase->curves[CHASE_NCHAINS];
	/* 100 ns a line, 5 ns left, fallen 90 % of the way between 1 and 2 MiB (1.74 MiB) */
	assert_int_equal(near->state, CORR_HOT_FOUND);
	assert_true(fabs(near->max_ns - 100) < 5);
	assert_true(near->has_residual && fabs(near->residual_ns - 5) < 1.5);
	assert_true(near->dstar_bytes > 1.6 * (1 << 20) && near->dstar_bytes < 1.9 * (1 << 20));
	assert_true(near->has_interval && near->dstar_lo_bytes >= 1 << 20 &&
		    near->dstar_lo_bytes <= near->dstar_bytes &&
		    near->dstar_hi_bytes >= near->dstar_bytes && near->dstar_hi_bytes <= 2 << 20);
	/* more chains, less a line: their misses overlap */
	for (int i = 1; i < CHASE_NCHAINS; i++)
		assert_true(near[i].max_ns < near[i - 1].max_ns);
	for (int p = 0; p < near->npoints; p++) {
		assert_true(near->points[p].fit_ns <= near->points[0].fit_ns);
		assert_true(fabs(near->points[p].cost_ns - (near->points[p].cross_ns -
							    near->points[p].same_ns)) < 1e-9);
	}
	/* 150 ns still 120 at 32 MiB: no residual, D* beyond the sweep, unbounded above */
	assert_int_equal(far->state, CORR_HOT_ABOVE);
	assert_false(far->has_residual);
	assert_true(isnan(far->residual_ns));
	assert_true(far->has_interval && isinf(far->dstar_hi_bytes));
	/* the same samples give the same figures */
	{
		struct chase_curve was = *near;

		sample_chase(&c, &t, &k, 9, 1ULL << 40);
		assert_memory_equal(&was, &c.chase->curves[0], sizeof(was));
	}
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* A move that costs nothing: no cost, no D*, no interval; one round: no interval. */
static void chase_no_cost(void **state)
{
	struct calibration c = { 0 };
	struct calib_chase *ch;
	double s[CHASE_MAX_POINTS * 2 * 3];

	(void)state;
	assert_int_equal(calib_alloc_chase(&c, 1), 0);
	ch = c.chase;
	ch->residual_share = CHASE_RESIDUAL_SHARE;
	ch->curves[0].npoints = 3;
	for (int p = 0; p < 3; p++)
		ch->curves[0].points[p].displaced_bytes = 65536ULL << p;
	for (int r = 0; r < 3; r++)
		for (int p = 0; p < CHASE_MAX_POINTS; p++) {
			s[CHASE_SAMPLE(ch, r, 0, p, 0)] = 20 - r;
			s[CHASE_SAMPLE(ch, r, 0, p, 1)] = 20 + r;
		}
	assert_int_equal(calib_chase_finish(ch, s, 3), 0);
	assert_int_equal(ch->curves[0].state, CORR_HOT_NO_COST);
	assert_false(ch->curves[0].has_interval || ch->curves[0].has_residual);
	assert_int_equal(calib_chase_finish(ch, s, 1), 0);
	assert_false(ch->curves[0].has_interval);
	calib_free(&c);
}

/* The chase in migtrace's report, with the rate the 2004 rule assumes beside its hot time. */
static void chase_report(void **state)
{
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k), *out;
	size_t at;

	(void)state;
	sample_chase(&c, &t, &k, 9, 1ULL << 40);
	out = report_of(&c);
	assert_non_null(strstr(out, "the x 6 assumes"));
	at = (size_t)(strstr(out, "the x 6 assumes") - out);
	assert_string_equal(out + at,
		"the x 6 assumes that the tasks sharing a CPU displace its 256 KiB "
		"cache within the "
		"hot time: 1.04 GB/s (the cache / 252 µs)\n"
		"kernel's value: 500 µs (read from /sys/kernel/debug/sched/migration_cost_ns)\n"
		"calibrated / kernel: 0.50x\n"
		"noise: median MAD 1.2 % of the median; max is 1.31x the median\n"
		"disturbed fills: 9.0 % (median over cells), left out of the robust hot time\n"
		"CPU groups by measured cost: {0-1} {4} (max/min cross cost 2.17x); sysfs LLC "
		"groups: {0-1} {4} — agree\n"
		"chase: dependent loads over random cycles of lines, each written; warm on the "
		"source CPU, D bytes streamed through its caches as cachewalk's polluter streams "
		"them, then one walk on the destination CPU minus one on the source (median of 9 "
		"rounds, 2.50 s)\n"
		"trials: 1728, 3 tried again after the thread was switched out, 1 kept "
		"switched out "
		"after 2 tries\n"
		"D from 16 KiB in steps of 2 to 4 x the LLC, the L3 Unified 8 MiB (sysfs)\n"
		"CPUs 0 -> 1 (distance 0), working set 64 KiB (1024 lines):\n"
		"  cost a line, cross - same:    1 chain   2 chains   4 chains   8 chains\n"
		"    D 16 KiB                   101 ns      60 ns      36 ns      23 ns\n"
		"    D 32 KiB                   101 ns      59 ns      36 ns      23 ns\n"
		"    D 64 KiB                   101 ns      60 ns      37 ns      23 ns\n"
		"    D 128 KiB                  101 ns      60 ns      36 ns      23 ns\n"
		"    D 256 KiB                   98 ns      61 ns      35 ns      22 ns\n"
		"    D 512 KiB                  101 ns      60 ns      37 ns      23 ns\n"
		"    D 1 MiB                     53 ns      32 ns      21 ns      14 ns\n"
		"    D 2 MiB                      5 ns       5 ns       5 ns       5 ns\n"
		"    D 4 MiB                      5 ns       5 ns       5 ns       5 ns\n"
		"    D 8 MiB                      5 ns       5 ns       5 ns       5 ns\n"
		"    D 16 MiB                     5 ns       5 ns       5 ns       5 ns\n"
		"    D 32 MiB                     5 ns       5 ns       5 ns       5 ns\n"
		"  1 chain   refill 101 ns a line (104 µs a migration of the set), residual 5 ns a "
		"line, D* 1.7 MiB (95 % interval 1.7 MiB to 1.8 MiB)\n"
		"  2 chains  refill 60 ns a line (61.2 µs a migration of the set), residual 5 ns a "
		"line, D* 1.8 MiB (95 % interval 1.7 MiB to 1.9 MiB)\n"
		"  4 chains  refill 37 ns a line (37.5 µs a migration of the set), residual 5 ns a "
		"line, D* 1.7 MiB (95 % interval 1.7 MiB to 1.8 MiB)\n"
		"  8 chains  refill 23 ns a line (23.7 µs a migration of the set), residual 5 ns a "
		"line, D* 1.7 MiB (95 % interval 1.7 MiB to 9.0 MiB)\n"
		"at 1.04 GB/s, the rate the x 6 assumes, D* with 1 chain is a hot time of 1.75 ms "
		"(D* / rate), against the 2004 rule's 252 µs\n"
		"CPUs 0 -> 4 (distance 2), working set 64 KiB (1024 lines):\n"
		"  cost a line, cross - same:    1 chain   2 chains   4 chains   8 chains\n"
		"    D 16 KiB                   149 ns      85 ns      49 ns      29 ns\n"
		"    D 32 KiB                   154 ns      84 ns      50 ns      28 ns\n"
		"    D 64 KiB                   153 ns      86 ns      50 ns      29 ns\n"
		"    D 128 KiB                  151 ns      85 ns      50 ns      29 ns\n"
		"    D 256 KiB                  151 ns      85 ns      49 ns      29 ns\n"
		"    D 512 KiB                  150 ns      87 ns      50 ns      28 ns\n"
		"    D 1 MiB                    150 ns      86 ns      50 ns      29 ns\n"
		"    D 2 MiB                    146 ns      84 ns      49 ns      28 ns\n"
		"    D 4 MiB                    139 ns      79 ns      46 ns      26 ns\n"
		"    D 8 MiB                    133 ns      76 ns      44 ns      25 ns\n"
		"    D 16 MiB                   127 ns      73 ns      42 ns      24 ns\n"
		"    D 32 MiB                   122 ns      68 ns      39 ns      23 ns\n"
		"  1 chain   refill 152 ns a line (156 µs a migration of the set), D* "
		"beyond 32 MiB\n"
		"  2 chains  refill 86 ns a line (87.7 µs a migration of the set), D* "
		"beyond 32 MiB\n"
		"  4 chains  refill 50 ns a line (50.9 µs a migration of the set), D* "
		"beyond 32 MiB\n"
		"  8 chains  refill 29 ns a line (29.4 µs a migration of the set), D* "
		"beyond 32 MiB\n"
		"  most of the cost remains at 32 MiB: the refill comes from beyond what the sweep "
		"displaced (a cache the two CPUs do not share, or memory)\n"
		"at 1.04 GB/s, the rate the x 6 assumes, D* with 1 chain is a hot time "
		"of more than "
		"32.25 ms (D* / rate), against the 2004 rule's 252 µs\n"
		"calibrated in 1.23 s\n");
	free(out);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* Version 3 round trip with the chase; version 2 files still read, without it. */
static void chase_file(void **state)
{
	struct calibration c = { 0 }, back;
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k), *text, *e, err[400] = "";
	size_t n;
	int version;

	(void)state;
	sample_chase(&c, &t, &k, 9, 1ULL << 40);
	assert_round_trip(&c);
	text = file_of(&c, &n);
	/* curves out of their order, or of a CPU not calibrated, are refused */
	e = edit(text, "\"chains\":2,", "\"chains\":3,");
	assert_int_equal(calib_file_parse(e, strlen(e), &back, &version, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "chase.curves[1]: each pair of CPUs"));
	free(e);
	e = edit(text, "\"dst_cpu\":4,\"distance\"", "\"dst_cpu\":7,\"distance\"");
	assert_int_equal(calib_file_parse(e, strlen(e), &back, &version, err, sizeof(err)),
			 -EINVAL);
	free(e);
	free(text);
	/* a version 2 file: the same members but the chase */
	calib_free(&c);
	{
		static const int cpus[2] = { 0, 1 };

		sample_2004(&c, &t, &k, cpus, 2, 50);
	}
	text = file_of(&c, &n);
	e = edit(text, "migtrace.calibrate/3", "migtrace.calibrate/2");
	{
		char *e2 = edit(e, "\"chase\":null,\n", "");

		assert_int_equal(calib_file_parse(e2, strlen(e2), &back, &version, err,
						  sizeof(err)), 0);
		assert_int_equal(version, 2);
		assert_null(back.chase);
		assert_true(back.has_hot && back.hot_robust_ns == c.hot_robust_ns);
		calib_free(&back);
		free(e2);
	}
	free(e);
	free(text);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* The chase's member as a run file's calibration.measured has it: "chase":{...}. */
static char *chase_member(const struct calibration *c)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	jw_init(&w, f);
	jw_start_object(&w);
	calib_write_chase(&w, c);
	jw_end_object(&w);
	assert_int_equal(jw_finish(&w), 0);
	assert_int_equal(fclose(f), 0);
	/* the member without the braces around it (and the writer's last newline) */
	while (strlen(buf) && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = '\0';
	assert_true(buf[0] == '{' && buf[strlen(buf) - 1] == '}');
	buf[strlen(buf) - 1] = '\0';
	memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/*
 * validate's run file keeps its chase in calibration.measured: read, printed in step 1 and
 * written back; a curve to a CPU the run did not calibrate is refused.  (The checked-in
 * validate run has none, and prints as it did: see test_render.)
 */
static void run_file_chase(void **state)
{
	const char *top = getenv("MT_ROOT");
	char path[4096], err[400] = "", *text, *member, *with, *e, *out = NULL, *again = NULL;
	struct calibration c = { 0 };
	struct topology t;
	struct tunable k;
	char *root = sample_topology(&t, &k);
	struct run *r = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/sample-validate.json", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open it (run from the repository's top, or set MT_ROOT)",
			 path);
	text = calloc(1, 1 << 20);
	assert_non_null(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	assert_true(n > 0);
	sample_chase(&c, &t, &k, 5, 1ULL << 40);
	/* the run's two CPUs, 0 and 1, are the first pair's */
	c.chase->ncurves = CHASE_NCHAINS;
	member = chase_member(&c);
	assert_non_null(strstr(text, "\"measured\":{"));
	with = malloc(strlen(member) + 32);
	assert_non_null(with);
	sprintf(with, "\"measured\":{%s,", member);
	e = edit(text, "\"measured\":{", with);
	if (run_file_parse(e, strlen(e), NULL, &r, err, sizeof(err)))
		fail_msg("a run file with a chase refused: %s", err);
	assert_non_null(r->calib.cal.chase);
	assert_int_equal(r->calib.cal.chase->ncurves, CHASE_NCHAINS);
	f = open_memstream(&out, &len);
	render_text_calib_intro(f, r);
	render_text_calib_result(f, r);
	fclose(f);
	assert_non_null(strstr(out, "(method 2004, and the chase beside it)"));
	assert_non_null(strstr(out, "the x 6 assumes that the tasks sharing a CPU displace"));
	assert_non_null(strstr(out, "  1 chain   refill 101 ns a line"));
	f = open_memstream(&again, &len);
	assert_int_equal(run_file_write(f, r), 0);
	fclose(f);
	assert_non_null(strstr(again, member));
	run_free(r);
	free(e);
	free(out);
	free(again);
	/* a curve from 0 to 4: not a CPU of this run */
	c.chase->ncurves = 2 * CHASE_NCHAINS;
	free(member);
	member = chase_member(&c);
	free(with);
	with = malloc(strlen(member) + 32);
	assert_non_null(with);
	sprintf(with, "\"measured\":{%s,", member);
	e = edit(text, "\"measured\":{", with);
	assert_int_equal(run_file_parse(e, strlen(e), NULL, &r, err, sizeof(err)), -EINVAL);
	if (!strstr(err, "calibration.measured.chase.curves[4]: each pair of CPUs calibrated"))
		fail_msg("'%s'", err);
	free(e);
	free(with);
	free(member);
	free(text);
	calib_free(&c);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
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
		cmocka_unit_test(report_text_unchanged),
		cmocka_unit_test(sweep_size_rows),
		cmocka_unit_test(file_round_trip),
		cmocka_unit_test(reads_version_1),
		cmocka_unit_test(refuses_bad_calibration_files),
		cmocka_unit_test(run_file_measured_member),
		cmocka_unit_test(chase_plan),
		cmocka_unit_test(chase_figures),
		cmocka_unit_test(chase_no_cost),
		cmocka_unit_test(chase_report),
		cmocka_unit_test(chase_file),
		cmocka_unit_test(run_file_chase),
	};

	return cmocka_run_group_tests_name("calibrate", tests, NULL, NULL);
}

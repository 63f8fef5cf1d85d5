// SPDX-License-Identifier: GPL-2.0
/*
 * The footprint curve's levels and the polluter's size (docs/design.md, "The polluter's
 * size"), on fixed curves: one recorded on this project's EPYC VM, and synthetic shapes whose
 * answer is known (an LLC B shares, one it does not, a pair sharing everything, flat and
 * noisy curves, a curve that rises without a step, a curve with a hole); the hints judged
 * against them; the memory cap and --polluter-size; the curve through the run file and back,
 * and its text.  Every input is fixed: nothing here is random, so nothing can flake.
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

#include "footprint_levels.h"
#include "polluter_size.h"
#include "render_footprint.h"
#include "run_file.h"
#include "run_file_text.h"

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)
#define NPTS 13		/* 16 KiB to 64 MiB, doubling */

/* A curve of n points from 16 KiB doubling, latencies in ns a line. */
static void curve(struct footprint *fp, const double *a, const double *b, int n)
{
	memset(fp, 0, sizeof(*fp));
	fp->cpu_a = 0;
	fp->cpu_b = 1;
	fp->reps = FP_REPS;
	fp->polluter_level = -1;
	fp->npoints = n;
	for (int i = 0; i < n; i++) {
		fp->points[i].footprint_bytes = (16 * KIB) << i;
		fp->points[i].a_ns = a[i];
		fp->points[i].b_after_a_ns = b[i];
	}
}

static void hint(struct footprint *fp, int level, const char *type, uint64_t size,
		 const char *source)
{
	struct fp_hint *h = &fp->hints[fp->nhints++];

	h->level = level;
	snprintf(h->type, sizeof(h->type), "%s", type);
	h->size_bytes = size;
	snprintf(h->source, sizeof(h->source), "%s", source);
}

/* The caches sysfs lists on this project's VM: 32 KiB L1d, 512 KiB L2, 32 MiB L3. */
static void sysfs_hints(struct footprint *fp)
{
	hint(fp, 1, "Data", 32 * KIB, "sysfs");
	hint(fp, 2, "Unified", 512 * KIB, "sysfs");
	hint(fp, 3, "Unified", 32 * MIB, "sysfs");
}

/* A shaped like a 32 KiB L1, a 512 KiB L2 and a 32 MiB L3 before memory, ns a line. */
static const double three_levels[NPTS] = {
	1.3, 1.4, 4.0, 4.1, 4.3, 4.8, 14, 15, 15.5, 16, 18, 25, 95,
};

static void assert_levels(const struct footprint *fp, const uint64_t *cap, const bool *shared,
			  int n)
{
	assert_true(fp->readable);
	assert_int_equal(fp->nlevels, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(fp->levels[i].capacity_bytes, cap[i]);
		assert_int_equal(fp->levels[i].shared, shared[i]);
	}
}

/* The LLC shared: B after A fetches from A's L1 and L2 through it (~30 ns), and from the L3
 * as fast as A.  The polluter spans the L2: 2 x 512 KiB, 1 MiB, raised to the 4 MiB floor. */
static void shared_llc(void **state)
{
	static const double b[NPTS] = { 30, 30, 31, 31, 30, 31, 16, 15.6, 16, 16.5, 18.5, 26, 96 };
	static const uint64_t cap[] = { 32 * KIB, 512 * KIB, 32 * MIB };
	static const bool shared[] = { false, false, true };
	struct footprint fp;

	(void)state;
	curve(&fp, three_levels, b, NPTS);
	sysfs_hints(&fp);
	footprint_levels(&fp);
	assert_levels(&fp, cap, shared, 3);
	for (int h = 0; h < 3; h++) {
		assert_int_equal(fp.hints[h].state, FP_HINT_SEEN);
		assert_int_equal(fp.hints[h].matched, h);
		assert_int_equal(fp.levels[h].hint, h);
	}
	polluter_size(&fp, 512 * KIB, 16ULL << 30, "16 GiB", 0);
	assert_int_equal(fp.polluter_source, FP_POLLUTER_MEASURED);
	assert_int_equal(fp.polluter_level, 1);
	assert_int_equal(fp.polluter_bytes, 4 * MIB);
	assert_string_equal(fp.capped_why, "");
}

/* The LLC not shared (the vCPUs apart): B after A pays ~110 ns a line up to the LLC's size.
 * The polluter spans the LLC: 2 x 32 MiB. */
static void unshared_llc(void **state)
{
	static const double b[NPTS] = { 110, 112, 108, 111, 109, 110, 112, 111, 113, 112, 114, 113,
					120 };
	static const uint64_t cap[] = { 32 * KIB, 512 * KIB, 32 * MIB };
	static const bool shared[] = { false, false, false };
	struct footprint fp;

	(void)state;
	curve(&fp, three_levels, b, NPTS);
	sysfs_hints(&fp);
	footprint_levels(&fp);
	assert_levels(&fp, cap, shared, 3);
	assert_true(fp.levels[2].b_over_a > 4);
	polluter_size(&fp, 512 * KIB, 16ULL << 30, "16 GiB", 0);
	assert_int_equal(fp.polluter_source, FP_POLLUTER_MEASURED);
	assert_int_equal(fp.polluter_level, 2);
	assert_int_equal(fp.polluter_bytes, 64 * MIB);
}

/*
 * The hints a VM's CPUID gives: an L3 of 508 MiB, which a curve to 64 MiB cannot test, and an
 * L3 said to be 4 MiB, which it can and does not see; the 32 MiB level matches neither.
 */
static void hints_not_seen_and_beyond(void **state)
{
	static const double b[NPTS] = { 30, 30, 31, 31, 30, 31, 16, 15.6, 16, 16.5, 18.5, 26, 96 };
	struct footprint fp;

	(void)state;
	curve(&fp, three_levels, b, NPTS);
	hint(&fp, 2, "Unified", 512 * KIB, "CPUID");
	hint(&fp, 3, "Unified", 508 * MIB, "CPUID");
	hint(&fp, 3, "Unified", 4 * MIB, "sysfs");
	footprint_levels(&fp);
	assert_int_equal(fp.hints[0].state, FP_HINT_SEEN);
	assert_int_equal(fp.hints[1].state, FP_HINT_BEYOND);
	assert_int_equal(fp.hints[1].matched, -1);
	assert_int_equal(fp.hints[2].state, FP_HINT_NOT_SEEN);
	assert_int_equal(fp.levels[2].hint, -1);
}

/* Two SMT siblings share every level: the fallback, 2 x the per-core cache given. */
static void all_shared(void **state)
{
	double b[NPTS];
	struct footprint fp;

	(void)state;
	for (int i = 0; i < NPTS; i++)
		b[i] = three_levels[i] * 1.05;
	curve(&fp, three_levels, b, NPTS);
	footprint_levels(&fp);
	assert_int_equal(fp.nlevels, 3);
	polluter_size(&fp, 1280 * KIB, 0, NULL, 0);
	assert_int_equal(fp.polluter_source, FP_POLLUTER_ALL_SHARED);
	assert_int_equal(fp.polluter_level, -1);
	/* 2 x 1.25 MiB, up to a power of two */
	assert_int_equal(fp.polluter_bytes, 4 * MIB);
}

/*
 * Curves with no level: flat; noisy, with single doublings up 25 % and back; rising 15 % a
 * doubling all the way (no step, only a slope); one with a latency missing.  Each falls back
 * to 2 x the per-core cache, at least 1 MiB.
 */
static void no_level(void **state)
{
	static const double flat[NPTS] = { 1.5, 1.52, 1.49, 1.5, 1.51, 1.5, 1.48, 1.5, 1.53, 1.5,
					   1.49, 1.5, 1.52 };
	static const double noisy[NPTS] = { 4.0, 5.0, 4.2, 5.2, 4.3, 5.3, 4.4, 5.4, 4.4, 5.4, 4.5,
					    5.5, 4.6 };
	double slope[NPTS], hole[NPTS], b[NPTS];
	const double *shapes[] = { flat, noisy, slope, hole };
	struct footprint fp;

	(void)state;
	for (int i = 0; i < NPTS; i++) {
		slope[i] = 2.0 * pow(1.15, i);
		hole[i] = three_levels[i];
		b[i] = 100;
	}
	hole[5] = NAN;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		curve(&fp, shapes[s], b, NPTS);
		sysfs_hints(&fp);
		footprint_levels(&fp);
		assert_false(fp.readable);
		assert_int_equal(fp.nlevels, 0);
		/* a whole curve that reached 2 x a hint and showed no step did not see it; one
		 * with a hole tested nothing */
		assert_int_equal(fp.hints[0].state, shapes[s] == hole ? FP_HINT_BEYOND :
						      FP_HINT_NOT_SEEN);
		polluter_size(&fp, 256 * KIB, 0, NULL, 0);
		assert_int_equal(fp.polluter_source, FP_POLLUTER_UNREAD);
		assert_int_equal(fp.polluter_bytes, FP_POLLUTER_MIN_BYTES);
	}
	/* too short to read */
	curve(&fp, three_levels, b, 1);
	footprint_levels(&fp);
	assert_false(fp.readable);
}

/* A step spread over three doublings: the capacity is where it crosses its middle. */
static void spread_step(void **state)
{
	static const double a[8] = { 15, 15.2, 15.5, 16, 28, 60, 100, 104 };
	double b[8];
	struct footprint fp;

	(void)state;
	for (int i = 0; i < 8; i++)
		b[i] = a[i] * 6;
	curve(&fp, a, b, 8);
	footprint_levels(&fp);
	assert_int_equal(fp.nlevels, 1);
	/* 16 -> 28 -> 60 -> 100: the middle, 40 ns, is crossed a little past 256 KiB */
	assert_int_equal(fp.levels[0].capacity_bytes, 256 * KIB);
	assert_true(fp.levels[0].below_ns == 16 && fp.levels[0].above_ns == 100);
	assert_false(fp.levels[0].shared);
}

/*
 * Two curves recorded on this project's VM (2 vCPUs of an AMD EPYC; sysfs and CPUID leaf
 * 0x8000001d both list 32 KiB L1d, 512 KiB L2, 32 MiB L3 that day), on 2026-12-06 at 20:18:02
 * and 20:18:04 UTC, two seconds apart, by footprint_measure() from CPU 0 to CPU 1 (3 trials a
 * footprint, 16 KiB to 64 MiB), just after another test suite on the host had ended (load
 * average 0.7).  The host had placed the two vCPUs differently for each: in the first, B
 * after A paid 85-134 ns a line for what A's L1 and L2 held and 18-25 ns for what its L3 held
 * (A's own: 16-21 ns); in the second, 10-21 ns for both.  Both read L1 and L2 as not shared
 * and the LLC as shared, so the polluter spans the L2: 2 x 512 KiB or 2 x 256 KiB (where the
 * L2's step was read at 256 KiB), raised to the 4 MiB floor.  The L3 of 508 MiB that issue 32 read from CPUID's legacy
 * leaf 0x80000006 on this VM is added as a hint the curve cannot test.  No recording on an
 * Intel host, nor of two vCPUs that did not share the LLC, is here.
 */
static const double epyc_a[2][NPTS] = {
	{ 1.976, 2.072, 4.395, 4.469, 4.608, 9.714, 16.409, 16.968, 17.773, 21.324, 88.574,
	  108.090, 119.301 },
	{ 1.983, 2.075, 4.394, 4.918, 7.904, 10.585, 15.164, 18.177, 17.463, 20.682, 33.368,
	  99.431, 121.930 },
};
static const double epyc_b[2][NPTS] = {
	{ 110.715, 113.396, 133.991, 95.070, 90.195, 85.001, 18.585, 19.036, 18.164, 24.905,
	  90.565, 111.867, 122.656 },
	{ 10.059, 14.227, 15.674, 16.662, 19.688, 14.562, 15.267, 20.209, 17.572, 20.933, 35.579,
	  90.107, 161.297 },
};

static void recorded_epyc(void **state)
{
	static const uint64_t l2[2] = { 512 * KIB, 256 * KIB };
	struct footprint fp;

	(void)state;
	for (int k = 0; k < 2; k++) {
		const uint64_t cap[] = { 32 * KIB, l2[k], 16 * MIB };
		static const bool shared[] = { false, false, true };

		curve(&fp, epyc_a[k], epyc_b[k], NPTS);
		sysfs_hints(&fp);
		hint(&fp, 3, "Unified", 508 * MIB, "CPUID");
		footprint_levels(&fp);
		assert_levels(&fp, cap, shared, 3);
		/* B after A: well above A on the private levels, as fast on the LLC */
		assert_true(fp.levels[0].b_over_a > 4 && fp.levels[1].b_over_a > 3);
		assert_true(fp.levels[2].b_over_a > 0.8 && fp.levels[2].b_over_a < 1.2);
		for (int h = 0; h < 3; h++)
			assert_int_equal(fp.hints[h].state, FP_HINT_SEEN);
		assert_int_equal(fp.hints[3].state, FP_HINT_BEYOND);
		polluter_size(&fp, 512 * KIB, 16ULL << 30, "16 GiB", 0);
		assert_int_equal(fp.polluter_source, FP_POLLUTER_MEASURED);
		assert_int_equal(fp.polluter_level, 1);
		assert_int_equal(fp.polluter_bytes, 4 * MIB);
	}
}

/* The memory cap, and --polluter-size over the measurement. */
static void cap_and_given(void **state)
{
	static const double b[NPTS] = { 110, 112, 108, 111, 109, 110, 112, 111, 113, 112, 114, 113,
					120 };
	struct footprint fp;

	(void)state;
	curve(&fp, three_levels, b, NPTS);
	footprint_levels(&fp);
	polluter_size(&fp, 512 * KIB, 10 * MIB, "10 MiB of available memory (MemAvailable)", 0);
	assert_int_equal(fp.sized_bytes, 64 * MIB);
	assert_int_equal(fp.polluter_bytes, 2 * MIB);
	assert_non_null(strstr(fp.capped_why, "2 MiB, not 64 MiB: memory is short (10 MiB"));
	polluter_size(&fp, 512 * KIB, 0, NULL, 4 * MIB);
	assert_int_equal(fp.polluter_source, FP_POLLUTER_GIVEN);
	assert_int_equal(fp.polluter_bytes, 4 * MIB);
	assert_int_equal(fp.sized_bytes, 64 * MIB);
}

static char *text_of(const struct footprint *fp)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	render_footprint_intro(f, fp);
	render_footprint_result(f, fp);
	fclose(f);
	return buf;
}

/*
 * The curve in the recorded validate run of tests/data: written, read back, written again
 * byte for byte, and its text the same; the polluter's line names the level.  A file without
 * it reads as "not measured".
 */
static void through_the_file(void **state)
{
	static const double b[NPTS] = { 110, 112, 108, 111, 109, 110, 112, 111, 113, 112, 114, 113,
					120 };
	const char *root = getenv("MT_ROOT");
	char path[4096], err[400], *one, *two, *t1, *t2;
	struct run *r, *back;
	size_t n1, n2;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/sample-validate.json", root ? root : ".");
	if (run_file_read(path, NULL, &r, err, sizeof(err)))
		fail_msg("%s: %s (run from the repository's top, or set MT_ROOT)", path, err);
	assert_false(r->calib.has_footprint);
	one = write_to_string(r, &n1);
	assert_null(strstr(one, "\"footprint\":"));
	free(one);
	r->calib.has_footprint = true;
	curve(&r->calib.footprint, three_levels, b, NPTS);
	r->calib.footprint.bound_bytes = 64 * MIB;
	snprintf(r->calib.footprint.bound_why, sizeof(r->calib.footprint.bound_why),
		 "the bound of 64 MiB");
	sysfs_hints(&r->calib.footprint);
	hint(&r->calib.footprint, 3, "Unified", 508 * MIB, "CPUID");
	footprint_levels(&r->calib.footprint);
	polluter_size(&r->calib.footprint, 512 * KIB, 0, NULL, 0);
	one = write_to_string(r, &n1);
	assert_non_null(strstr(one, "\"polluter_source\":\"measured\",\"polluter_bytes\":67108864"));
	if (run_file_parse(one, n1, NULL, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(back->calib.has_footprint);
	assert_int_equal(back->calib.footprint.npoints, NPTS);
	assert_int_equal(back->calib.footprint.nlevels, 3);
	assert_int_equal(back->calib.footprint.nhints, 4);
	two = write_to_string(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	t1 = text_of(&r->calib.footprint);
	t2 = text_of(&back->calib.footprint);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "\npolluter: 64 MiB, 2x the 32 MiB level B does not share "
			       "(measured; listed as L3 Unified 32 MiB (sysfs))\n"));
	assert_non_null(strstr(t1, "L3 Unified 508 MiB (CPUID) not tested: the curve stops at "
			       "64 MiB"));
	free(t1);
	free(t2);
	free(one);
	free(two);
	run_free(back);
	run_free(r);
}

/* A file whose levels name a hint it does not have is refused, in one line saying where. */
static void refuses_bad_footprint(void **state)
{
	static const char *const bad[][2] = {
		{ "\"hint\":0", "\"hint\":7" },
		{ "\"polluter_level\":2", "\"polluter_level\":9" },
		{ "\"polluter_level\":2", "\"polluter_level\":-2" },
		{ "\"state\":\"seen\"", "\"state\":\"maybe\"" },
	};
	static const double b[NPTS] = { 110, 112, 108, 111, 109, 110, 112, 111, 113, 112, 114, 113,
					120 };
	const char *root = getenv("MT_ROOT");
	char path[4096], err[400], *one;
	struct run *r, *back;
	size_t n1;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/sample-validate.json", root ? root : ".");
	if (run_file_read(path, NULL, &r, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	r->calib.has_footprint = true;
	curve(&r->calib.footprint, three_levels, b, NPTS);
	sysfs_hints(&r->calib.footprint);
	footprint_levels(&r->calib.footprint);
	polluter_size(&r->calib.footprint, 512 * KIB, 0, NULL, 0);
	one = write_to_string(r, &n1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *at = strstr(one, bad[i][0]), *edited;
		size_t lo = strlen(bad[i][0]), ln = strlen(bad[i][1]);

		assert_non_null(at);
		edited = malloc(n1 + ln + 1);
		assert_non_null(edited);
		memcpy(edited, one, (size_t)(at - one));
		memcpy(edited + (at - one), bad[i][1], ln);
		strcpy(edited + (at - one) + ln, at + lo);
		back = NULL;
		assert_int_not_equal(run_file_parse(edited, strlen(edited), NULL, &back, err,
						    sizeof(err)), 0);
		assert_non_null(strstr(err, "calibration.footprint"));
		free(edited);
	}
	free(one);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorded_epyc),
		cmocka_unit_test(shared_llc),
		cmocka_unit_test(unshared_llc),
		cmocka_unit_test(hints_not_seen_and_beyond),
		cmocka_unit_test(all_shared),
		cmocka_unit_test(no_level),
		cmocka_unit_test(spread_step),
		cmocka_unit_test(cap_and_given),
		cmocka_unit_test(through_the_file),
		cmocka_unit_test(refuses_bad_footprint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

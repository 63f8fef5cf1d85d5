// SPDX-License-Identifier: GPL-2.0
/*
 * The judge of run --probe-moves (analysis/judge/probe_judge.c) on synthetic runs: which
 * units measure a moment (asleep before it, a move followed by a move, a sham not moved by
 * the kernel), the cost of a move recovered within its interval from the runs BPF times and
 * from a run's units, no bias finding from a coin's arms, and the run file's round trip of
 * the probes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "probe_judge.h"
#include "run_file.h"

#define US 1000ULL
#define MS 1000000ULL

/* A small deterministic jitter, ±20 µs. */
static uint64_t jitter(unsigned k)
{
	return (uint64_t)((k * 7919u) % 41u) * US;
}

/*
 * A unit of thread tid after a moment at ts: it slept 1-2 ms from before ts, then ran 100 µs
 * (plus cost_ns after a move); moved says whether a move (at ts + 10 µs) came before it.
 */
static struct mt_unit unit_after(uint32_t tid, uint64_t ts, bool moved, uint64_t cost_ns,
				 unsigned k)
{
	uint64_t off = 1 * MS + (k % 10) * 100 * US, start = ts + 50 * US;
	struct mt_unit u = {
		.kind = MT_REC_PROBE_UNIT, .pid = tid, .tgid = 100, .start_ns = start,
		.end_ns = start + 100 * US + jitter(k) + (moved ? cost_ns : 0),
		.switches_before = 1, .last_off_ns = off, .migs_before = moved,
		.mig_ts_ns = moved ? ts + 10 * US : 0, .mig_src_cpu = 0, .mig_dst_cpu = 1,
		.mig_cause = MT_CAUSE_AFFINITY, .mig_age_ns = moved ? off : 0,
	};

	return u;
}

static struct probe_setup probed_run_setup(void)
{
	return (struct probe_setup){ .on = true, .by_runs = true, .rate_hz = 20,
				     .max_share = 0.02, .workload_cpu_s = 10 };
}

static struct run *probed_run(bool by_runs)
{
	struct run *r = run_new();

	assert_non_null(r);
	r->probe = probed_run_setup();
	r->probe.by_runs = by_runs;
	r->meta.hot_ns = 500 * US;
	r->setup.cold_fraction = CORR_COLD_FRACTION;
	r->setup.bootstrap = 200;
	return r;
}

/* n moments, alternately move and sham, each with its probed run (cost_ns a move). */
static void add_runs(struct run *r, unsigned n, uint64_t cost_ns)
{
	for (unsigned k = 0; k < n; k++) {
		uint64_t ts = 1000 * MS + k * 20 * MS;
		bool move = k % 2;
		struct probe_moment m = { .ts_ns = ts, .tid = 200 + k % 4, .tgid = 100,
					  .kind = move ? MT_PROBE_MOVE : MT_PROBE_SHAM,
					  .src_cpu = 0, .dst_cpu = move ? 1 : -1 };
		struct mt_unit u = unit_after(m.tid, ts, move, cost_ns, k);

		u.tag = m.kind;
		u.nominal_age_ns = ts;
		assert_int_equal(run_record_add_moment(r, &m), 0);
		assert_int_equal(run_record_add_probe_unit(r, &u), 0);
		r->probe.moves += move;
		r->probe.shams += !move;
		r->probe.masks_narrowed += move;
		r->probe.masks_restored += move;
	}
	r->probe.drawn = n;
}

/* The cell's cost holds cost_ns in its interval, from n moves and shams. */
static void assert_recovers(const struct probe_result *pr, double cost_ns)
{
	int with_both = 0;

	for (int i = 0; i < pr->corr.ncells; i++) {
		const struct corr_cell *c = &pr->corr.cells[i];

		if (!c->n_mig || !c->n_stay)
			continue;
		with_both++;
		assert_true(c->cost_lo_ns <= cost_ns && c->cost_hi_ns >= cost_ns);
	}
	assert_true(with_both > 0);
}

static void runs_recover_cost(void **state)
{
	struct run *r = probed_run(true);
	struct probe_result *pr = &r->probe_result;

	(void)state;
	add_runs(r, 120, 300 * US);
	assert_int_equal(probe_judge(r), 0);
	assert_true(r->has_probe_result);
	assert_int_equal(pr->timed_moves, 60);
	assert_int_equal(pr->timed_shams, 60);
	assert_int_equal(pr->awake + pr->unseen + pr->kernel_moved + pr->spanning, 0);
	assert_recovers(pr, 300 * US);
	assert_int_equal(pr->verdict.judged, 60);
	assert_false(pr->verdict.bias);
	/* measured: 60 moves of 300 µs over 10 s of the workload's CPU */
	assert_true(fabs(pr->cost_share - 60 * 300e-6 / 10) < 0.0005);
	run_free(r);
}

/* Each rule that leaves a moment out, counted where it belongs and in no arm. */
static void samples_left_out(void **state)
{
	struct run *r = probed_run(true);
	struct probe_result *pr = &r->probe_result;
	struct mt_unit *u;

	(void)state;
	add_runs(r, 40, 300 * US);
	/* awake: the sleep the unit ends began after the moment */
	u = &r->probe_units[0];
	u->last_off_ns = 10 * US;
	/* a move not followed by a move */
	u = &r->probe_units[1];
	u->migs_before = 0;
	/* a sham the kernel moved after the moment: kept as a sham */
	u = &r->probe_units[2];
	u->migs_before = 1;
	u->mig_ts_ns = u->nominal_age_ns + 5 * US;
	/* a sham the kernel moved before the moment */
	u = &r->probe_units[4];
	u->migs_before = 1;
	u->mig_ts_ns = u->nominal_age_ns - 5 * US;
	/* a unit after the hold's limit, in either arm */
	u = &r->probe_units[6];
	u->start_ns += 2000 * MS;
	u->end_ns += 2000 * MS;
	u->last_off_ns += 2000 * MS;
	/* a move whose migration came before the moment: not the probe's */
	u = &r->probe_units[3];
	u->mig_ts_ns = u->nominal_age_ns - 5 * US;
	/* preempted inside */
	u = &r->probe_units[5];
	u->switches_during = 1;
	assert_int_equal(probe_judge(r), 0);
	assert_int_equal(pr->awake, 1);
	assert_int_equal(pr->unseen, 2);
	assert_int_equal(pr->kernel_moved, 1);
	assert_int_equal(pr->late, 1);
	assert_int_equal(pr->spanning, 1);
	assert_int_equal(pr->sham_moved, 1);
	assert_int_equal(pr->timed_moves + pr->timed_shams, 34);
	run_free(r);
}

/* With units: each moment's next unit, claimed once; a gone thread's moment has none. */
static void units_matched_to_moments(void **state)
{
	struct run *r = probed_run(false);
	struct probe_result *pr = &r->probe_result;

	(void)state;
	for (unsigned k = 0; k < 80; k++) {
		uint64_t ts = 1000 * MS + k * 20 * MS;
		bool move = k % 2;
		struct probe_moment m = { .ts_ns = ts, .tid = 300 + k % 3, .tgid = 100,
					  .kind = move ? MT_PROBE_MOVE : MT_PROBE_SHAM,
					  .src_cpu = 0, .dst_cpu = move ? 1 : -1 };
		struct mt_unit before = unit_after(m.tid, ts - 5 * MS, false, 0, k);
		struct mt_unit after = unit_after(m.tid, ts, move, 250 * US, k);

		before.kind = after.kind = MT_REC_UNIT;
		after.prev_end_ns = before.end_ns;
		/* the thread was inside a unit at one sham's moment: not between units */
		if (k == 6)
			after.prev_end_ns = ts + 20 * US;
		assert_int_equal(run_record_add_unit(r, &before), 0);
		assert_int_equal(run_record_add_unit(r, &after), 0);
		assert_int_equal(run_record_add_moment(r, &m), 0);
	}
	/* a second moment for the same unit (drawn twice while asleep): counted once */
	{
		struct probe_moment twice = r->moments[1];

		twice.ts_ns += 1 * US;
		assert_int_equal(run_record_add_moment(r, &twice), 0);
	}
	/* a thread gone: no unit sought */
	{
		struct probe_moment gone = r->moments[4];

		gone.ts_ns += 3 * MS;
		gone.outcome = PROBE_GONE;
		assert_int_equal(run_record_add_moment(r, &gone), 0);
	}
	assert_int_equal(probe_judge(r), 0);
	assert_int_equal(r->nprobe_units, 80);
	assert_int_equal(pr->no_unit, 1);
	assert_int_equal(pr->awake, 1);
	assert_int_equal(pr->timed_moves, 40);
	assert_int_equal(pr->timed_shams, 39);
	assert_recovers(pr, 250 * US);
	for (size_t i = 0; i < r->nprobe_units; i++)
		assert_true(r->probe_units[i].tag == MT_PROBE_MOVE ||
			    r->probe_units[i].tag == MT_PROBE_SHAM);
	run_free(r);
}

/*
 * Moves of two topology levels (4 CPUs, two LLCs): each level judged apart, its moves
 * against every sham, with its own cost; one level alone gives no per-level lines.
 */
static void levels_apart(void **state)
{
	struct run *r = probed_run(true);
	const struct run_level_cost *llc, *cross;

	(void)state;
	r->topo.ncpus = 4;
	for (int cpu = 0; cpu < 4; cpu++) {
		r->topo.core[cpu] = cpu;
		r->topo.llc[cpu] = cpu < 2 ? 0 : 2;
		r->topo.node[cpu] = 0;
	}
	add_runs(r, 240, 100 * US);
	/* every other move crosses to the other LLC, and costs 400 µs more */
	for (size_t i = 0, k = 0; i < r->nprobe_units; i++) {
		struct mt_unit *u = &r->probe_units[i];

		if (u->tag != MT_PROBE_MOVE || k++ % 2)
			continue;
		u->mig_dst_cpu = 2;
		u->end_ns += 400 * US;
	}
	assert_int_equal(probe_judge(r), 0);
	assert_true(r->has_probe_level_cost);
	llc = &r->probe_level_cost[MT_LEVEL_LLC];
	cross = &r->probe_level_cost[MT_LEVEL_CROSS_LLC];
	assert_int_equal(llc->pulls, 60);
	assert_int_equal(cross->pulls, 60);
	assert_true(llc->cells && cross->cells);
	assert_true(llc->cost_lo_ns <= 100 * US && llc->cost_hi_ns >= 100 * US);
	assert_true(cross->cost_lo_ns <= 500 * US && cross->cost_hi_ns >= 500 * US);
	assert_int_equal(r->probe_level_cost[MT_LEVEL_SMT].pulls, 0);
	run_free(r);

	r = probed_run(true);
	add_runs(r, 60, 100 * US);
	assert_int_equal(probe_judge(r), 0);
	assert_false(r->has_probe_level_cost);
	run_free(r);
}

/* Written and read back (a sample run's file, with probes added), the same result. */
static void round_trip(void **state)
{
	struct run *r = NULL, *back = NULL;
	char path[] = "/tmp/migtrace-test-probe.XXXXXX", err[256], sample[4096];
	const char *top = getenv("MT_ROOT");
	FILE *f;
	int fd;

	(void)state;
	snprintf(sample, sizeof(sample), "%s/tests/data/sample-run.json", top ? top : ".");
	if (run_file_read(sample, NULL, &r, err, sizeof(err)))
		fail_msg("%s: %s (run from the repository's top, or set MT_ROOT)", sample, err);
	r->probe = probed_run_setup();
	add_runs(r, 60, 300 * US);
	r->moments[0].outcome = PROBE_NOT_RUN;
	r->moments[1].held_ns = 3 * MS;
	assert_int_equal(probe_judge(r), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(run_file_write(f, r), 0);
	fclose(f);
	if (run_file_read(path, NULL, &back, err, sizeof(err)))
		fail_msg("reading it back: %s", err);
	unlink(path);
	assert_true(back->probe.on && back->probe.by_runs);
	assert_int_equal(back->nmoments, 60);
	assert_int_equal(back->nprobe_units, 60);
	assert_int_equal(back->moments[0].outcome, PROBE_NOT_RUN);
	assert_int_equal(back->moments[1].held_ns, 3 * MS);
	assert_int_equal(back->moments[0].dst_cpu, -1);
	assert_int_equal(back->probe.masks_narrowed, r->probe.masks_narrowed);
	assert_int_equal(probe_judge(back), 0);
	assert_int_equal(back->probe_result.timed_moves, r->probe_result.timed_moves);
	assert_true(back->probe_result.corr.cells[0].cost_ns ==
		    r->probe_result.corr.cells[0].cost_ns);
	run_free(back);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_recover_cost),
		cmocka_unit_test(samples_left_out),
		cmocka_unit_test(units_matched_to_moments),
		cmocka_unit_test(levels_apart),
		cmocka_unit_test(round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

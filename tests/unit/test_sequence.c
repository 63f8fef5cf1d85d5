// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling until it decides (docs/design.md, "Sampling until it decides"): the looks' level,
 * when a look ends the experiment and why, how many rounds the next look waits for under a
 * budget, the normal quantile the pooled intervals are read with at that level, and the
 * sequence through the run file and back.  Every input is fixed: nothing here is random or
 * timed, so nothing can flake.
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

#include "run_file.h"
#include "run_file_text.h"
#include "sequence.h"
#include "stats.h"

/* A sequential setup: the budget, the most rounds, 5 looks at 99 %. */
static struct run_setup setup(double budget_s, int samples)
{
	struct run_setup s = { 0 };

	s.budget_s = budget_s;
	s.max_looks = SEQ_DEFAULT_LOOKS;
	s.level = seq_level(s.max_looks);
	s.cw.samples = samples;
	return s;
}

static void level_is_bonferroni(void **state)
{
	(void)state;
	assert_true(fabs(seq_level(5) - 0.99) < 1e-12);
	assert_true(fabs(seq_level(1) - 0.95) < 1e-12);
	assert_true(fabs(seq_level(0) - 0.95) < 1e-12);
	/* the quantiles the pooled intervals use at 95 % and 99 % */
	assert_true(fabs(normal_quantile(0.975) - 1.959963984540054) < 1e-9);
	assert_true(fabs(normal_quantile(0.995) - 2.5758293035489) < 1e-9);
	assert_true(fabs(normal_quantile(0.5)) < 1e-12);
	assert_true(isnan(normal_quantile(0)) && isnan(normal_quantile(1)));
	assert_int_equal(seq_first_rounds(500), SEQ_FIRST_ROUNDS);
	assert_int_equal(seq_first_rounds(3), 3);
	assert_int_equal(seq_first_rounds(0), 1);
}

static void decided_kinds(void **state)
{
	(void)state;
	assert_true(seq_decided(VERDICT_TOO_LOW));
	assert_true(seq_decided(VERDICT_TOO_HIGH));
	assert_true(seq_decided(VERDICT_ABOUT_RIGHT));
	assert_true(seq_decided(VERDICT_BY_RATE));
	assert_true(seq_decided(VERDICT_NOT_APPLICABLE));
	assert_false(seq_decided(VERDICT_UNDETERMINED));
	assert_false(seq_decided(VERDICT_NONE));
}

/* A decided look ends it at once, whatever the budget still holds, once its interval spans
 * 2x at most; wider, the word is decided but the factor not yet: it goes on. */
static void decided_ends(void **state)
{
	struct run_setup s = setup(60, 500);
	struct run_sequence q = { 0 };
	struct seq_clock c = { .now_s = 12, .round_s = 0.8, .judge_s = 0.3 };
	struct verdict v = { .kind = VERDICT_TOO_LOW, .hot_lo_ns = 18e6, .hot_hi_ns = 43e6 };

	(void)state;
	assert_true(fabs(seq_span(&v) - 43.0 / 18) < 1e-12);
	assert_int_equal(seq_after_look(&s, &q, 8, VERDICT_TOO_LOW, seq_span(&v), &c), 12);
	assert_int_equal(q.end, SEQ_END_NONE);
	v.hot_hi_ns = INFINITY;
	assert_true(isinf(seq_span(&v)));
	v = (struct verdict){ .kind = VERDICT_BY_RATE, .dstar_lo_bytes = 1 << 20,
			      .dstar_hi_bytes = 2 << 20, .hot_lo_ns = 1, .hot_hi_ns = 100 };
	assert_true(seq_span(&v) == 2);
	v.kind = VERDICT_NOT_APPLICABLE;
	assert_true(seq_span(&v) == 1);
	memset(&q, 0, sizeof(q));
	assert_int_equal(seq_after_look(&s, &q, 8, VERDICT_TOO_LOW, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_DECIDED);
	assert_int_equal(q.nlooks, 1);
	assert_int_equal(q.rounds, 8);
	assert_int_equal(q.looks[0].kind, VERDICT_TOO_LOW);
	assert_true(q.looks[0].at_s == 12 && q.looks[0].judge_s == 0.3 && q.looks[0].span == 1.5);
}

/*
 * Undetermined every time, with room: the looks wait for half as many rounds again (8, 12,
 * 18, 27), and the fifth and last takes every round the budget holds: 60 s less the 25.5 s
 * spent, two judgings (0.6 s) and the 1 s kept back, at 0.8 s a round: 41 rounds (41.1).
 */
static void looks_grow_then_fill_the_budget(void **state)
{
	struct run_setup s = setup(60, 500);
	struct run_sequence q = { 0 };
	struct seq_clock c = { .round_s = 0.8, .judge_s = 0.3 };
	uint32_t r = 8, expect[] = { 12, 18, 27 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		c.now_s = 5 + r * c.round_s;
		r = seq_after_look(&s, &q, r, VERDICT_UNDETERMINED, 1.5, &c);
		assert_int_equal(r, expect[i]);
		assert_int_equal(q.end, SEQ_END_NONE);
	}
	c.now_s = 25.5;
	r = seq_after_look(&s, &q, 27, VERDICT_UNDETERMINED, 1.5, &c);
	assert_int_equal(r, 27 + 41);
	c.now_s = 4 + r * c.round_s;
	assert_int_equal(seq_after_look(&s, &q, r, VERDICT_UNDETERMINED, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_LOOKS);
	assert_int_equal(q.nlooks, 5);
	assert_int_equal(q.rounds, 68);
}

/* The budget: fewer rounds than a look's growth fit; fewer than two end it now. */
static void budget_bounds_the_next_look(void **state)
{
	struct run_setup s = setup(20, 500);
	struct run_sequence q = { 0 };
	struct seq_clock c = { .now_s = 14, .round_s = 1.0, .judge_s = 0.5 };

	(void)state;
	/* 20 - 14 - 1 - 1 = 4 rounds fit: the look would wait for 6 */
	assert_int_equal(seq_after_look(&s, &q, 12, VERDICT_UNDETERMINED, 1.5, &c), 16);
	c.now_s = 17.5;		/* 0.5 s: no two rounds fit */
	assert_int_equal(seq_after_look(&s, &q, 16, VERDICT_UNDETERMINED, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_BUDGET);
	/* past the deadline (3 s before the end) nothing more is planned, though short rounds
	 * would still fit */
	memset(&q, 0, sizeof(q));
	c = (struct seq_clock){ .now_s = 17.2, .round_s = 0.1, .judge_s = 0.1 };
	assert_int_equal(seq_after_look(&s, &q, 12, VERDICT_UNDETERMINED, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_BUDGET);
	/* a round that took no time yet (no estimate) fits nothing: ended, not a division by 0 */
	memset(&q, 0, sizeof(q));
	c = (struct seq_clock){ .now_s = 1, .round_s = 0, .judge_s = 0 };
	assert_int_equal(seq_after_look(&s, &q, 8, VERDICT_UNDETERMINED, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_BUDGET);
}

/* --samples bounds the rounds: the schedule's last round is its last look. */
static void samples_bound_the_rounds(void **state)
{
	struct run_setup s = setup(600, 20);
	struct run_sequence q = { 0 };
	struct seq_clock c = { .now_s = 10, .round_s = 0.8, .judge_s = 0.3 };

	(void)state;
	assert_int_equal(seq_after_look(&s, &q, 8, VERDICT_UNDETERMINED, 1.5, &c), 12);
	assert_int_equal(seq_after_look(&s, &q, 12, VERDICT_UNDETERMINED, 1.5, &c), 18);
	assert_int_equal(seq_after_look(&s, &q, 18, VERDICT_UNDETERMINED, 1.5, &c), 20);
	assert_int_equal(seq_after_look(&s, &q, 20, VERDICT_UNDETERMINED, 1.5, &c), 0);
	assert_int_equal(q.end, SEQ_END_ROUNDS);
	assert_int_equal(q.nlooks, 4);
}

/*
 * The recorded validate file (tests/data/sample-validate.json) predates the sequence: it
 * reads back with the 95 % level and no sequence.  Given a budget and two looks, the file
 * carries config.level, verdict.sequence and its looks, and reads back byte for byte.
 */
static void sequence_in_the_run_file(void **state)
{
	const char *root = getenv("MT_ROOT");
	char path[4096], err[400], *one, *two;
	struct run *r, *back;
	size_t n1, n2;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/sample-validate.json", root ? root : ".");
	if (run_file_read(path, NULL, &r, err, sizeof(err)))
		fail_msg("%s: %s (run from the repository's top, or set MT_ROOT)", path, err);
	assert_true(r->setup.level == CORR_LEVEL);
	assert_true(r->setup.budget_s == 0);
	one = write_to_string(r, &n1);
	assert_null(strstr(one, "\"sequence\":"));
	free(one);

	r->setup.budget_s = 60;
	r->setup.max_looks = 5;
	r->setup.level = 0.99;
	r->seq = (struct run_sequence){ .nlooks = 2, .rounds = 12, .end = SEQ_END_DECIDED };
	r->seq.looks[0] = (struct seq_look){ 8, 11.5, 0.25, VERDICT_UNDETERMINED, INFINITY };
	r->seq.looks[1] = (struct seq_look){ 12, 15.25, 0.5, VERDICT_TOO_LOW, 1.75 };
	one = write_to_string(r, &n1);
	assert_non_null(strstr(one, "\"level\":0.99,\"budget_s\":60,\"max_looks\":5"));
	assert_non_null(strstr(one, "\"sequence\":{\"rounds\":12,\"ended_by\":\"decided\""));
	if (run_file_parse(one, n1, NULL, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back->seq.nlooks, 2);
	assert_int_equal(back->seq.end, SEQ_END_DECIDED);
	assert_int_equal(back->seq.looks[1].rounds, 12);
	assert_int_equal(back->seq.looks[1].kind, VERDICT_TOO_LOW);
	assert_true(back->seq.looks[1].span == 1.75 && isnan(back->seq.looks[0].span));
	assert_true(back->setup.level == 0.99);
	two = write_to_string(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	free(one);
	free(two);
	run_free(back);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(level_is_bonferroni),
		cmocka_unit_test(decided_kinds),
		cmocka_unit_test(decided_ends),
		cmocka_unit_test(looks_grow_then_fill_the_budget),
		cmocka_unit_test(budget_bounds_the_next_look),
		cmocka_unit_test(samples_bound_the_rounds),
		cmocka_unit_test(sequence_in_the_run_file),
	};

	return cmocka_run_group_tests_name("sequence", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The looks of a sequential experiment (sequence.h).  A decided verdict whose interval is
 * still wide goes on: the word would not change, but the factor it gives would move more
 * than 2x between two runs.  The rounds between looks grow by half
 * each time (8, 12, 18, 27, ...): a verdict the first rounds already decide ends early, and
 * a hard one is not judged after every round, which would spend the looks (and the level)
 * on rounds that add little.  The last look allowed takes every round the budget still
 * holds.
 */
#include <math.h>

#include "sequence.h"

/* The chance, over all the looks, of calling a value that fits too low or too high. */
#define SEQ_ALPHA 0.05
/* Each look waits for this share more rounds than the one before, and at least
 * SEQ_MIN_ROUNDS: fewer would not move an interval enough to be worth a look. */
#define SEQ_GROWTH 0.5
#define SEQ_MIN_ROUNDS 2
/* Kept back from the budget beyond the final analysis (one more look's time): writing the
 * run file and the text. */
#define SEQ_RESERVE_S 1.0

double seq_level(int max_looks)
{
	return 1 - SEQ_ALPHA / (max_looks > 0 ? max_looks : 1);
}

bool seq_decided(enum verdict_kind kind)
{
	switch (kind) {
	case VERDICT_TOO_LOW:
	case VERDICT_ABOUT_RIGHT:
	case VERDICT_TOO_HIGH:
	case VERDICT_BY_RATE:
	case VERDICT_NOT_APPLICABLE:
		return true;
	default:
		return false;
	}
}

double seq_span(const struct verdict *v)
{
	double lo = v->kind == VERDICT_BY_RATE ? v->dstar_lo_bytes : v->hot_lo_ns;
	double hi = v->kind == VERDICT_BY_RATE ? v->dstar_hi_bytes : v->hot_hi_ns;

	if (v->kind == VERDICT_NOT_APPLICABLE)
		return 1;
	return lo > 0 && isfinite(hi) ? hi / lo : INFINITY;
}

uint32_t seq_first_rounds(int samples)
{
	uint32_t most = samples > 0 ? (uint32_t)samples : 1;

	return most < SEQ_FIRST_ROUNDS ? most : SEQ_FIRST_ROUNDS;
}

uint32_t seq_after_look(const struct run_setup *s, struct run_sequence *q, uint32_t rounds,
			enum verdict_kind kind, double span, const struct seq_clock *c)
{
	uint32_t most = s->cw.samples > 0 ? (uint32_t)s->cw.samples : 1, want;
	double room_s, fit;

	if (q->nlooks < SEQ_MAX_LOOKS)
		q->looks[q->nlooks] = (struct seq_look){ .rounds = rounds, .at_s = c->now_s,
							  .judge_s = c->judge_s, .kind = kind,
							  .span = span };
	q->nlooks++;
	q->rounds = rounds;
	q->end = seq_decided(kind) && span <= SEQ_PRECISE_SPAN ? SEQ_END_DECIDED :
		 rounds >= most ? SEQ_END_ROUNDS :
		 q->nlooks >= s->max_looks || q->nlooks >= SEQ_MAX_LOOKS ? SEQ_END_LOOKS :
		 SEQ_END_NONE;
	if (q->end != SEQ_END_NONE)
		return 0;
	/* the next look costs another judging of as many units or more, and the end one more;
	 * past the deadline nothing more is planned */
	room_s = s->budget_s - c->now_s - 2 * c->judge_s - SEQ_RESERVE_S;
	fit = c->round_s > 0 && c->now_s < s->budget_s - SEQ_DEADLINE_S ?
	      floor(room_s / c->round_s) : 0;
	if (!(fit >= SEQ_MIN_ROUNDS)) {
		q->end = SEQ_END_BUDGET;
		return 0;
	}
	want = q->nlooks == s->max_looks - 1 ? most - rounds :
	       (uint32_t)fmax(ceil(rounds * SEQ_GROWTH), SEQ_MIN_ROUNDS);
	if (want > fit)
		want = (uint32_t)fit;
	return rounds + want > most ? most : rounds + want;
}

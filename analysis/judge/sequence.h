/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling until it decides (docs/design.md, "Sampling until it decides"): validate's
 * experiment runs in rounds, and at a few looks the units so far are judged; it ends at the
 * first look whose verdict is decided and whose interval spans at most a factor 2 (so that
 * two runs give the same figure within 2x, not only the same word), when the next rounds
 * would not fit in the time budget, or at its last look.  Each look judges at the level 1 - 0.05 / max_looks, so that
 * over all the looks together a value that fits is called too low or too high with a
 * chance of at most 5 %, as one look at 95 % would (Bonferroni).  Plain numbers in and out:
 * validate times the looks, this decides what comes next.
 */
#ifndef MIGTRACE_SEQUENCE_H
#define MIGTRACE_SEQUENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "run.h"

#define SEQ_DEFAULT_LOOKS 5
#define SEQ_FIRST_ROUNDS 8	/* rounds before the first look */
/* the fewest rounds a look judges, however slow they run: the block bootstrap resamples
 * whole rounds, and 2 of them give 3 distinct resamples, an interval that means nothing */
#define SEQ_MIN_LOOK_ROUNDS 5
/* this long before the budget's end, the round under way is the last before a look, and a
 * look plans no more rounds: the final analysis and the files take the rest */
#define SEQ_DEADLINE_S 3.0
#define SEQ_PRECISE_SPAN 2.0	/* a decided look ends it once its interval's hi / lo is this */

/* The intervals' level for a sequence of at most max_looks looks: 0.99 for 5. */
double seq_level(int max_looks);
/* Whether a verdict of this kind is one more rounds would not change into another kind. */
bool seq_decided(enum verdict_kind kind);
/* The span of the interval v was judged by, hi / lo: the hot time's, or D*'s when by rate;
 * INFINITY when open at an end (1 for a sched_ext run, which has nothing to narrow). */
double seq_span(const struct verdict *v);
/* The rounds the first look waits for: SEQ_FIRST_ROUNDS, fewer when the schedule has
 * fewer (samples: its rounds). */
uint32_t seq_first_rounds(int samples);

/* What a look knows of time: all in s. */
struct seq_clock {
	double now_s;		/* since validate began */
	double round_s;		/* one round of the schedule, as the rounds so far took */
	double judge_s;		/* what this look took to judge: the last look's cost again */
};

/*
 * After a look at `rounds` rounds whose verdict was of this kind, judged by an interval of
 * this span (seq_span): records the look in q and returns the rounds to allow before the next
 * look, or 0 to end the experiment (q->end then says why).
 */
uint32_t seq_after_look(const struct run_setup *s, struct run_sequence *q, uint32_t rounds,
			enum verdict_kind kind, double span, const struct seq_clock *c);

#endif

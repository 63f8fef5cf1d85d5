/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model a grid's rates support, as numbers (docs/design.md, "Bytes-driven or
 * time-driven"): whether their D* agree (the cost falls with the bytes displaced), whether
 * their hot times by age agree (it falls with the time away), and the hot time by age pooled
 * over them.  Plain numbers in and out: the renderer words it, the verdict judges by it.
 */
#ifndef MIGTRACE_REGIME_H
#define MIGTRACE_REGIME_H

#include "findings.h"

/* The test between the two models over n rates' falls (each rate's D* and hot time by age,
 * with their intervals at level, 0.95 or a sequential experiment's), into *m; fewer than 2
 * rates: MODEL_NOT_TESTED. */
void regime_decide(const struct corr_rate *rates, int n, double level, struct verdict_model *m);
/* m with nothing tested: MODEL_NOT_TESTED, every number NAN. */
void regime_none(struct verdict_model *m);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text renderer: what `migtrace run` and `validate` print, made from the run model only,
 * so that `migtrace report` prints the same bytes for a saved run.  The pieces are printed
 * as a live run reaches them (validate's calibration, the header before the workload
 * starts, the results at the end); render_text() prints them all, in that order.
 */
#ifndef MIGTRACE_RENDER_TEXT_H
#define MIGTRACE_RENDER_TEXT_H

#include <stdio.h>

#include "run.h"

/* validate, before calibrating: which CPUs, against which cache. */
void render_text_calib_intro(FILE *f, const struct run *r);
/* validate, after calibrating: the hot time, then the second step's title. */
void render_text_calib_result(FILE *f, const struct run *r);
/* The first line of a run: what is traced, and the threshold it is judged at. */
void render_text_header(FILE *f, const struct run *r);
/* The end of a run: summary, correlation table and verdict. */
void render_text_results(FILE *f, const struct run *r);
/* All of the above, as the run printed it. */
void render_text(FILE *f, const struct run *r);

/* Pieces the files beside render_text.c print. */
/* The correlation table, with the falls of its curves (render_judged.c). */
void render_text_correlation(FILE *f, const struct run *r);
/* The verdict (render_judged.c). */
void render_text_verdict(FILE *f, const struct run *r);
/* run --probe-moves: the verdict by topology level, when the moves spanned more than one. */
void render_text_probe_levels(FILE *f, const struct run *r);
/* run --probe-moves: the intervention, its two arms and the verdict from them. */
void render_text_probe(FILE *f, const struct run *r);
/* The kernel's rule: what decided each judged pull before its age (render_levels.c). */
void render_text_rules(FILE *f, const struct run *r);
/* Migrations, pulls and the pulls' kernel ages by topology level (render_levels.c). */
void render_text_levels(FILE *f, const struct run *r);
/* The verdict's lines by topology level (render_levels.c). */
void render_text_levels_verdict(FILE *f, const struct run *r);
/* Cache-aware scheduling (7.2): what the moves did to each task's preferred LLC; nothing on a
 * kernel without it. */
void render_text_llc_pref(FILE *f, const struct run *r);
/* Its stickiness against the cost of leaving an LLC this run measured (the verdict's end). */
void render_text_llc_verdict(FILE *f, const struct run *r);

#endif

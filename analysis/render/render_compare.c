// SPDX-License-Identifier: GPL-2.0
/*
 * The compare view: two runs' numbers in two columns, a '*' where the difference exceeds
 * both runs' own 95 % intervals (compare.h says which intervals).  Formatting only.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "compare.h"
#include "hist.h"
#include "printable.h"
#include "render_compare.h"
#include "render_text.h"
#include "units.h"

#define MARK(d) ((d) ? " *" : "")

/* s padded with spaces to width columns: on the right (left-aligned) or the left. */
static char *pad(char *buf, size_t len, const char *s, int width, bool left)
{
	int n = width - utf8_columns(s);

	if (n < 0)
		n = 0;
	snprintf(buf, len, "%*s%s%*s", left ? 0 : n, "", s, left ? n : 0, "");
	return buf;
}

/* One line without trailing spaces. */
static void line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(FILE *f, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	fprintf(f, "%.*s\n", n, buf);
}

/* The run's file as given, its command line and where it ran: names from outside, printable
 * (the file may come from anywhere). */
static void describe(FILE *f, const char *tag, const char *label, const struct run *r)
{
	const struct run_environment *e = &r->env;
	char file[PRINTABLE_SIZE(PATH_MAX)], cmd[PRINTABLE_SIZE(sizeof(r->meta.command))];
	char rel[PRINTABLE_SIZE(sizeof(e->kernel_release))];
	char model[PRINTABLE_SIZE(sizeof(e->cpu_model))];
	char start[PRINTABLE_SIZE(sizeof(r->meta.start_time))];

	fprintf(f, "  %s: %s: %s%s\n", tag, printable(file, sizeof(file), label),
		printable(cmd, sizeof(cmd), r->meta.command),
		r->setup.kind == RUN_KIND_VALIDATE ? " (validate)" : "");
	fprintf(f, "     kernel %s, %s, %d online CPU%s, started %s\n",
		e->kernel_release[0] ? printable(rel, sizeof(rel), e->kernel_release) : "unknown",
		e->cpu_model[0] ? printable(model, sizeof(model), e->cpu_model) :
		"CPU model unknown", e->nr_online, e->nr_online == 1 ? "" : "s",
		r->meta.start_time[0] ? printable(start, sizeof(start), r->meta.start_time) : "-");
}

/* "342  95.8 %", or the count alone when the run has no migrations to share. */
static char *share(char *buf, int len, const struct cmp_share *s)
{
	if (isfinite(s->share))
		snprintf(buf, len, "%9llu %6.1f %%", (unsigned long long)s->count, 100 * s->share);
	else
		snprintf(buf, len, "%9llu %8s", (unsigned long long)s->count, "-");
	return buf;
}

static void causes(FILE *f, const struct run_compare *c)
{
	char a[40], b[40];

	fprintf(f, "\nmigrations by cause (share of each run's migrations)\n");
	line(f, "  %-22s %18s  %18s", "", "A", "B");
	line(f, "  %-22s %18llu  %18llu", "all causes",
	     (unsigned long long)run_total_migrations(c->a),
	     (unsigned long long)run_total_migrations(c->b));
	for (int k = 0; k < MT_NR_CAUSES; k++)
		if (c->cause[k].a.count || c->cause[k].b.count)
			line(f, "  %-22s %s  %s%s", mt_cause_titles[k],
			     share(a, sizeof(a), &c->cause[k].a),
			     share(b, sizeof(b), &c->cause[k].b), MARK(c->cause[k].differs));
}

static void ages(FILE *f, const struct run_compare *c)
{
	char a[40], b[40], range[48];

	fprintf(f, "\nage at migration, all causes (share of each run's migrations)\n");
	if (c->slot_hi < 0) {
		fprintf(f, "     (no samples)\n");
		return;
	}
	line(f, "  %-23s %18s  %18s", "     usecs", "A", "B");
	for (int s = c->slot_lo; s <= c->slot_hi; s++) {
		if (s == MT_HIST_SLOTS - 1)
			snprintf(range, sizeof(range), "%10llu -> inf",
				 (unsigned long long)hist_slot_low_us(s));
		else
			snprintf(range, sizeof(range), "%10llu -> %-10llu",
				 (unsigned long long)hist_slot_low_us(s),
				 (unsigned long long)((1ULL << (s + 1)) - 1));
		line(f, "  %-23s %s  %s%s", range, share(a, sizeof(a), &c->age[s].a),
		     share(b, sizeof(b), &c->age[s].b), MARK(c->age[s].differs));
	}
}

static char *value(char *buf, int len, const struct cmp_value *v)
{
	char x[32], y[32], z[32];

	if (!v->known)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s [%s, %s]", fmt_ns(x, sizeof(x), v->est),
			 fmt_ns(y, sizeof(y), v->lo), fmt_ns(z, sizeof(z), v->hi));
	return buf;
}

static void costs(FILE *f, const struct run_compare *c)
{
	char a[112], b[112], pa[160], pb[160], age[32], g[40], pg[48];
	double la = 100 * corr_level(&c->a->corr), lb = 100 * corr_level(&c->b->corr);

	if (la == lb)
		fprintf(f, "\nmigration cost by age (%.3g %% interval)\n", la);
	else
		fprintf(f, "\nmigration cost by age (A's %.3g %% interval, B's %.3g %%)\n", la, lb);
	if (!c->ncells) {
		fprintf(f, "     (neither run timed units)\n");
		return;
	}
	line(f, "  %10s  %s  %s", "age", pad(pa, sizeof(pa), "A", 30, true), "B");
	for (int i = 0; i < c->ncells; i++) {
		const struct cmp_cell *k = &c->cells[i];

		/* a grid's cells under their polluter rate */
		if (!isnan(k->rate_mbps) && (!i || k->rate_mbps != c->cells[i - 1].rate_mbps))
			fprintf(f, "  polluter %s:\n", k->rate_mbps > 0 ?
				fmt_rate(a, sizeof(a), k->rate_mbps) : "as fast as it can");
		snprintf(g, sizeof(g), "%s%s", k->natural ? ">=" : "", fmt_ns(age, sizeof(age),
			 k->age_ns));
		line(f, "  %s  %s  %s%s", pad(pg, sizeof(pg), g, 10, false),
		     pad(pa, sizeof(pa), value(a, sizeof(a), &k->a), 30, true),
		     pad(pb, sizeof(pb), value(b, sizeof(b), &k->b), 30, true), MARK(k->differs));
	}
}

static char *hot(char *buf, int len, const struct cmp_value *v)
{
	char x[32], y[32], z[32];

	if (!v->known)
		snprintf(buf, len, "-");
	else if (isinf(v->hi))
		snprintf(buf, len, "> %s (above the ages measured)", fmt_ns(x, sizeof(x), v->lo));
	else if (v->lo == 0)
		snprintf(buf, len, "< %s (below the ages measured)", fmt_ns(x, sizeof(x), v->hi));
	else
		snprintf(buf, len, "%s [%s, %s]", fmt_ns(x, sizeof(x), v->est),
			 fmt_ns(y, sizeof(y), v->lo), fmt_ns(z, sizeof(z), v->hi));
	return buf;
}

/* D* and its interval, open where it lies outside the displacements measured. */
static char *bytes_interval(char *buf, int len, const struct cmp_value *v)
{
	char x[32], y[32], z[32];

	if (!v->known)
		snprintf(buf, len, "-");
	else if (isinf(v->hi))
		snprintf(buf, len, "> %s (above the range)",
			 fmt_bytes(x, sizeof(x), (uint64_t)llround(v->lo)));
	else if (v->lo == 0)
		snprintf(buf, len, "< %s (below the range)",
			 fmt_bytes(x, sizeof(x), (uint64_t)llround(v->hi)));
	else
		snprintf(buf, len, "%s [%s, %s]", fmt_bytes(x, sizeof(x), (uint64_t)llround(v->est)),
			 fmt_bytes(y, sizeof(y), (uint64_t)llround(v->lo)),
			 fmt_bytes(z, sizeof(z), (uint64_t)llround(v->hi)));
	return buf;
}

/* A verdict in a few words: the run's own (v = &r->verdict, has = r->has_verdict) or its
 * probed moves'. */
static char *verdict_of(char *buf, int len, const struct run *r, const struct verdict *v,
			bool has)
{
	if (!has)
		snprintf(buf, len, "-");
	else if (v->kind == VERDICT_NONE)
		snprintf(buf, len, "none (interrupted)");
	else if (run_rules_scx(&r->env.rules))	/* as render_text_verdict() says it */
		snprintf(buf, len, "%s", verdict_names[VERDICT_NOT_APPLICABLE]);
	else if (v->kind == VERDICT_BY_RATE) {
		char x[32];

		snprintf(buf, len, "fits co-runners at %s", fmt_rate(x, sizeof(x),
								      v->fit_rate_mbps));
	} else if ((v->kind == VERDICT_TOO_LOW || v->kind == VERDICT_TOO_HIGH) &&
		 isfinite(v->factor))
		snprintf(buf, len, "%s by %s%.1f", verdict_names[v->kind],
			 v->factor_is_bound ? ">= " : "", v->factor);
	else
		snprintf(buf, len, "%s", verdict_names[v->kind]);
	return buf;
}

static char *verdict(char *buf, int len, const struct run *r)
{
	return verdict_of(buf, len, r, &r->verdict, r->has_verdict);
}

/* run --probe-moves: the cost of a move at the youngest age with both arms, and that age. */
static char *probed(char *buf, int len, const struct run *r)
{
	const struct probe_result *pr = &r->probe_result;
	char a[32], b[32], d[32], e[32];

	if (!r->has_probe_result) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (int i = 0; i < pr->corr.ncells; i++) {
		const struct corr_cell *c = &pr->corr.cells[i];

		if (!c->n_mig || !c->n_stay)
			continue;
		snprintf(buf, len, "%s [%s, %s] >=%s", fmt_ns(b, sizeof(b), c->cost_ns),
			 fmt_ns(d, sizeof(d), c->cost_lo_ns), fmt_ns(e, sizeof(e), c->cost_hi_ns),
			 fmt_ns(a, sizeof(a), c->age_ns));
		return buf;
	}
	snprintf(buf, len, "no age with both arms");
	return buf;
}

static void hot_times(FILE *f, const struct run_compare *c)
{
	char a[112], b[112], pa[160], pb[160];

	fprintf(f, "\nhot times\n");
	line(f, "  %-17s %s  %s", "kernel's value",
	     pad(pa, sizeof(pa), fmt_ns(a, sizeof(a), (double)c->a->meta.hot_ns), 36, true),
	     fmt_ns(b, sizeof(b), (double)c->b->meta.hot_ns));
	line(f, "  %-17s %s  %s", "calibrated",
	     pad(pa, sizeof(pa), c->a->calib.valid ? fmt_ns(a, sizeof(a), c->a->calib.hot_ns) :
		 "-", 36, true),
	     c->b->calib.valid ? fmt_ns(b, sizeof(b), c->b->calib.hot_ns) : "-");
	line(f, "  %-17s %s  %s%s", "observed (95 %)",
	     pad(pa, sizeof(pa), hot(a, sizeof(a), &c->hot_a), 36, true),
	     pad(pb, sizeof(pb), hot(b, sizeof(b), &c->hot_b), 36, true), MARK(c->hot_differs));
	if (c->dstar_a.known || c->dstar_b.known)
		line(f, "  %-17s %s  %s%s", "D* (95 %)",
		     pad(pa, sizeof(pa), bytes_interval(a, sizeof(a), &c->dstar_a), 36, true),
		     pad(pb, sizeof(pb), bytes_interval(b, sizeof(b), &c->dstar_b), 36, true),
		     MARK(c->dstar_differs));
	line(f, "  %-17s %s  %s", "verdict", pad(pa, sizeof(pa), verdict(a, sizeof(a), c->a), 36,
	     true), verdict(b, sizeof(b), c->b));
	if (!c->a->probe.on && !c->b->probe.on)
		return;
	/* run --probe-moves: the randomised moves' cost and verdict, beside the natural's */
	line(f, "  %-17s %s  %s", "probed (95 %)", pad(pa, sizeof(pa), probed(a, sizeof(a), c->a),
	     36, true), probed(b, sizeof(b), c->b));
	line(f, "  %-17s %s  %s", "probed verdict",
	     pad(pa, sizeof(pa), verdict_of(a, sizeof(a), c->a, &c->a->probe_result.verdict,
					    c->a->has_probe_result), 36, true),
	     verdict_of(b, sizeof(b), c->b, &c->b->probe_result.verdict, c->b->has_probe_result));
}

/*
 * A grid and a natural run beside a polluter: the hot time D* / the co-runner's measured
 * rate implies, against the one the natural run's same-CPU wakes show.
 */
static void prediction(FILE *f, const struct run_compare *c)
{
	const struct cmp_predict *p = &c->predict;
	const char *g = p->grid == c->a ? "A" : "B", *n = p->grid == c->a ? "B" : "A";
	char a[112], b[112], d[32], e[32];

	if (p->state == CMP_PREDICT_NONE)
		return;
	fprintf(f, "\nthe grid's D* against the natural run's co-runner (hot time = D* / the rate "
		"it displaced at)\n");
	if (p->by_rate >= 0)
		line(f, "  the grid's rates disagree (D* moves with the rate: something besides the "
		     "polluter decays the cache): the D* of its rate nearest the co-runner's, %s "
		     "achieved", fmt_rate(d, sizeof(d),
					  p->grid->corr.rates[p->by_rate].achieved_mbps));
	line(f, "  %-24s %s (%s's grid; its cost level %s, %s)", "D* (95 %)",
	     bytes_interval(a, sizeof(a), &p->dstar), g, fmt_ns(d, sizeof(d), p->grid_cost_ns),
	     p->regime == CORR_REGIME_SHARED ? "a residual at full displacement: the pair "
	     "shares the cache the polluter does not reach" : p->regime == CORR_REGIME_BEYOND ?
	     "most of it at full displacement: the refill comes from beyond what the polluter "
	     "evicts" : "regime not known");
	line(f, "  %-24s %s [%s, %s] over %zu same-CPU wakes (%s, measured: bytes streamed over "
	     "the time slept)", "co-runner's rate", fmt_rate(d, sizeof(d), p->rate.est),
	     fmt_rate(e, sizeof(e), p->rate.lo), fmt_rate(b, sizeof(b), p->rate.hi),
	     p->natural->corr.corunner_wakes, n);
	if (p->state == CMP_PREDICT_UNBOUNDED) {
		line(f, "  => not compared: D*'s interval is not bounded, so D* / the rate bounds no "
		     "hot time (more samples would bound it; with the vCPUs placed apart, a cost "
		     "level of a refill from beyond the shared cache, only a --polluter-size "
		     "larger than that cache would)");
		return;
	}
	line(f, "  %-24s %s", "D* / rate (95 %)", hot(a, sizeof(a), &p->predicted));
	line(f, "  %-24s %s (%s: where its same-CPU wakes have come to cost %s more than at the "
	     "first age, %.0f %% of the grid's cost over its residual)", "observed (95 %)",
	     hot(b, sizeof(b), &p->observed), n, fmt_ns(d, sizeof(d), p->level_ns),
	     100 * (1 - p->grid->corr.cold_fraction));
	if (!isfinite(p->ratio))
		line(f, "  => not compared: the natural run's same-CPU wakes did not reach that "
		     "inside the ages it measured (%s)", p->reach_state == CORR_HOT_ABOVE ?
		     "longer sleeps would place it" : p->reach_state == CORR_HOT_NO_COST ?
		     "reached before its first age: shorter sleeps would place it" :
		     "no same-CPU wakes");
	else
		line(f, "  => the observed hot time is %.2fx D* / rate: %s its interval", p->ratio,
		     p->within ? "inside" : "outside");
}

void render_compare(FILE *f, const struct run_compare *c, const char *label_a,
		    const char *label_b)
{
	fprintf(f, "comparing two runs; * marks a difference beyond both runs' own "
		"intervals\n(shares: Wilson intervals on each run's counts; costs and hot times: "
		"each run's bootstrap)\n");
	describe(f, "A", label_a, c->a);
	describe(f, "B", label_b, c->b);
	causes(f, c);
	ages(f, c);
	costs(f, c);
	hot_times(f, c);
	prediction(f, c);
}

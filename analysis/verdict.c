// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's value K against the observed hot time H and its 95 % interval [lo, hi]:
 * K < lo is too low (tasks between K and H are moved as cold and pay a refill), K > hi too
 * high (tasks between H and K are kept as hot although moving them is cheap), else about
 * right.  When H lies outside the measured ages the factor is a bound and says so.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "verdict.h"

const char *const verdict_names[] = { "undetermined", "too low", "about right", "too high" };

static const char *const hot_state_names[] = { "found", "above range", "no cost", "no data" };

/* Cells whose age lies in [lo, hi): count, mean cost and its share of a unit. */
static int band_cost(const struct corr_result *r, double lo, double hi, double *mean_cost,
		     double *max_cost)
{
	double sum = 0;
	int k = 0;

	*max_cost = -INFINITY;
	for (int c = 0; c < r->ncells; c++) {
		double a = r->mode == CORR_CONTROLLED ? r->cells[c].age_ns : r->cells[c].age_median_ns;

		if (a < lo || a >= hi)
			continue;
		sum += r->cells[c].cost_ns;
		*max_cost = fmax(*max_cost, r->cells[c].cost_ns);
		k++;
	}
	*mean_cost = k ? sum / k : NAN;
	return k;
}

/* Share of the run's migrations whose age is in [lo, hi), and of them load-balancer pulls. */
static double band_share(const struct verdict_in *in, double lo, double hi, size_t *n_band)
{
	size_t k = 0;

	for (size_t i = 0; i < in->nmigs; i++)
		if ((double)in->migs[i].age_ns >= lo && (double)in->migs[i].age_ns < hi)
			k++;
	*n_band = k;
	return in->nmigs ? 100.0 * (double)k / (double)in->nmigs : 0;
}

/* "473 µs-2.00 ms", with the bootstrap's out-of-range ends said as such. */
static char *fmt_interval(char *buf, int len, const struct corr_result *r)
{
	double first = r->mode == CORR_CONTROLLED ? r->cells[0].age_ns : r->cells[0].age_median_ns;
	double last = r->mode == CORR_CONTROLLED ? r->cells[r->ncells - 1].age_ns :
						   r->cells[r->ncells - 1].age_median_ns;
	char a[40], b[32];

	if (r->hot_lo_ns < first)
		snprintf(a, sizeof(a), "< %s", fmt_ns(b, sizeof(b), first));
	else
		fmt_ns(a, sizeof(a), r->hot_lo_ns);
	if (r->hot_hi_ns > last)
		snprintf(buf, len, "%s to > %s", a, fmt_ns(b, sizeof(b), last));
	else
		snprintf(buf, len, "%s to %s", a, fmt_ns(b, sizeof(b), r->hot_hi_ns));
	return buf;
}

void verdict_decide(const struct verdict_in *in, struct verdict *v)
{
	const struct corr_result *r = in->corr;
	double K = in->kernel_ns, H = r->hot_ns, lo = r->hot_lo_ns, hi = r->hot_hi_ns;
	double a0, an, mean, max, unit = r->baseline_ns;
	char a[32], b[96], c[32], d[32], e[32];
	size_t nb = 0;

	memset(v, 0, sizeof(*v));
	if (r->hot_state == CORR_HOT_NO_DATA || !r->ncells) {
		snprintf(v->headline, sizeof(v->headline), "undetermined: no age had units after "
			 "both a migration and a same-CPU wake");
		return;
	}
	a0 = r->mode == CORR_CONTROLLED ? r->cells[0].age_ns : r->cells[0].age_median_ns;
	an = r->mode == CORR_CONTROLLED ? r->cells[r->ncells - 1].age_ns :
					  r->cells[r->ncells - 1].age_median_ns;
	if (r->hot_state == CORR_HOT_NO_COST) {
		H = a0;
		lo = 0;
		hi = a0;
		v->factor_is_bound = true;
	} else if (r->hot_state == CORR_HOT_ABOVE) {
		H = an;
		lo = an;
		hi = INFINITY;
		v->factor_is_bound = true;
	}
	if (K < lo) {
		v->kind = VERDICT_TOO_LOW;
		v->factor = H / K;
	} else if (K > hi) {
		v->kind = VERDICT_TOO_HIGH;
		v->factor = K / H;
	} else {
		v->kind = VERDICT_ABOUT_RIGHT;
		v->factor = K > H ? K / H : H / K;
	}
	snprintf(v->headline, sizeof(v->headline), "the kernel's %s is %s%s%s", fmt_ns(a, sizeof(a), K),
		 verdict_names[v->kind], v->kind == VERDICT_ABOUT_RIGHT ? "" : v->factor_is_bound ?
		 " by a factor of at least " : " by a factor of ",
		 v->kind == VERDICT_ABOUT_RIGHT ? "" : (snprintf(b, sizeof(b), "%.1f", v->factor), b));

	if (v->kind == VERDICT_TOO_LOW) {
		band_cost(r, K, H, &mean, &max);
		band_share(in, K, H, &nb);
		snprintf(v->evidence, sizeof(v->evidence),
			 "at ages %s-%s a migration cost %s (%.0f %% of a %s unit); task_hot() "
			 "calls tasks of those ages cold%s",
			 fmt_ns(a, sizeof(a), K), fmt_ns(b, sizeof(b), H), fmt_ns(c, sizeof(c), mean),
			 100.0 * mean / unit, fmt_ns(d, sizeof(d), unit),
			 in->nmigs ? "" : "");
		if (in->nmigs) {
			size_t len = strlen(v->evidence);

			snprintf(v->evidence + len, sizeof(v->evidence) - len,
				 "; %.0f %% of this run's %zu migrations were of tasks that age",
				 100.0 * (double)nb / (double)in->nmigs, in->nmigs);
		}
	} else if (v->kind == VERDICT_TOO_HIGH) {
		int k = band_cost(r, H, K, &mean, &max);

		band_share(in, H, K, &nb);
		if (k)
			snprintf(v->evidence, sizeof(v->evidence),
				 "from %s to %s a migration costs at most %s (under %.0f %% of the "
				 "%s maximum, %.0f %% of a %s unit); task_hot() still calls these "
				 "tasks hot and the balancer leaves them waiting",
				 fmt_ns(a, sizeof(a), H), fmt_ns(b, sizeof(b), K),
				 fmt_ns(c, sizeof(c), fmax(max, 0)), 10.0,
				 fmt_ns(d, sizeof(d), r->max_cost_ns), 100.0 * fmax(max, 0) / unit,
				 fmt_ns(e, sizeof(e), unit));
		else
			snprintf(v->evidence, sizeof(v->evidence),
				 "no measured age between %s and %s showed a migration cost above "
				 "%.0f %% of the maximum (%s)", fmt_ns(a, sizeof(a), H),
				 fmt_ns(b, sizeof(b), K), 10.0, fmt_ns(c, sizeof(c), r->max_cost_ns));
		if (in->nmigs) {
			size_t len = strlen(v->evidence);

			snprintf(v->evidence + len, sizeof(v->evidence) - len,
				 "; %.0f %% of this run's %zu migrations were of tasks that age",
				 100.0 * (double)nb / (double)in->nmigs, in->nmigs);
		}
	} else {
		snprintf(v->evidence, sizeof(v->evidence),
			 "the 95 %% interval of the observed hot time, %s, contains the kernel's "
			 "value", fmt_interval(b, sizeof(b), r));
		(void)a;
		(void)c;
	}
}

void corr_print_table(FILE *f, const struct corr_result *r, const char *title)
{
	char a[32], b[96], c[32], d[32], e[32], g[32];

	fprintf(f, "\n%s\n", title);
	fprintf(f, "  warm unit (baseline): %s median over %zu thread%s, %zu warm units\n",
		fmt_ns(a, sizeof(a), r->baseline_ns), r->n_threads, r->n_threads == 1 ? "" : "s",
		r->n_baseline);
	fprintf(f, "  %10s %10s %16s %16s %30s\n", "age", "measured", "after migration",
		"after same-CPU", "migration cost (95% CI)");
	for (int i = 0; i < r->ncells; i++) {
		const struct corr_cell *cl = &r->cells[i];
		char ci[64];

		snprintf(ci, sizeof(ci), "%s [%s, %s]", fmt_ns(c, sizeof(c), cl->cost_ns),
			 fmt_ns(d, sizeof(d), cl->cost_lo_ns), fmt_ns(e, sizeof(e), cl->cost_hi_ns));
		if (r->mode == CORR_CONTROLLED)
			snprintf(g, sizeof(g), "%s", fmt_ns(a, sizeof(a), cl->age_ns));
		else
			snprintf(g, sizeof(g), ">=%s", fmt_ns(a, sizeof(a), cl->age_ns));
		fprintf(f, "  %10s %10s %10s (%3zu) %10s (%3zu) %30s\n", g,
			fmt_ns(b, sizeof(b), cl->age_median_ns),
			fmt_ns(d, sizeof(d), cl->pen_mig_ns), cl->n_mig,
			fmt_ns(e, sizeof(e), cl->pen_stay_ns), cl->n_stay, ci);
	}
	fprintf(f, "  (penalty = first unit after the event - the thread's warm unit; 10 %%-trimmed "
		"means, n in parentheses)\n");
	if (r->n_spanning || r->n_unseen)
		fprintf(f, "  left out: %zu units with a switch or migration inside, %zu "
			"\"migrated\" units whose migration the tracepoint did not show\n",
			r->n_spanning, r->n_unseen);
	switch (r->hot_state) {
	case CORR_HOT_FOUND:
		fprintf(f, "  observed hot time: %s (95 %% interval %s): beyond it the cost "
			"stays under 10 %% of its %s maximum\n", fmt_ns(a, sizeof(a), r->hot_ns),
			fmt_interval(b, sizeof(b), r), fmt_ns(d, sizeof(d), r->max_cost_ns));
		break;
	case CORR_HOT_ABOVE:
		fprintf(f, "  observed hot time: above %s, the largest age measured (cost still "
			">= 10 %% of its %s maximum there)\n", fmt_ns(a, sizeof(a), r->hot_ns),
			fmt_ns(b, sizeof(b), r->max_cost_ns));
		break;
	case CORR_HOT_NO_COST:
		fprintf(f, "  observed hot time: below %s, the smallest age measured: no age shows "
			"a migration cost above noise (max %s, its interval reaches 0)\n",
			fmt_ns(a, sizeof(a), r->hot_ns), fmt_ns(b, sizeof(b), r->max_cost_ns));
		break;
	default:
		fprintf(f, "  observed hot time: no data\n");
	}
}

void verdict_print(FILE *f, const struct verdict_in *in, const struct verdict *v)
{
	const struct corr_result *r = in->corr;
	char a[32], b[96];

	fprintf(f, "\nverdict\n");
	if (in->has_calib)
		fprintf(f, "  calibrated hot time: %10s  (%s)\n", fmt_ns(a, sizeof(a), in->calib_ns),
			in->calib_source);
	else
		fprintf(f, "  calibrated hot time: %10s  (not calibrated: give --calibration FILE)\n",
			"-");
	fprintf(f, "  kernel's value:      %10s  (%s)\n", fmt_ns(a, sizeof(a), in->kernel_ns),
		in->kernel_source);
	if (r->hot_state == CORR_HOT_FOUND)
		fprintf(f, "  observed hot time:   %10s  (95 %% interval %s)\n",
			fmt_ns(a, sizeof(a), r->hot_ns), fmt_interval(b, sizeof(b), r));
	else
		fprintf(f, "  observed hot time:   %10s  (%s)\n", r->hot_state == CORR_HOT_NO_DATA ?
			"-" : fmt_ns(a, sizeof(a), r->hot_ns), hot_state_names[r->hot_state]);
	fprintf(f, "  => %s\n", v->headline);
	if (v->evidence[0])
		fprintf(f, "     %s\n", v->evidence);
	if (r->n_mig_events)
		fprintf(f, "     refill cost per migration: %.1f %% of the run slice that followed "
			"(median); %s lost to migrations over %zu migrated units\n",
			100.0 * r->cost_frac_slice, fmt_ns(a, sizeof(a), r->lost_ns), r->n_mig_events);
	if (in->has_calib && r->hot_state == CORR_HOT_FOUND)
		fprintf(f, "     the calibrated value is %.2fx the observed hot time\n",
			in->calib_ns / r->hot_ns);
	fprintf(f, "     (task_hot() judges only load-balancer pulls; wakeup placement never "
		"asks it, and the same value gates newly-idle balancing)\n");
}

#define JADD(o, k, v) json_object_object_add((o), (k), (v))
#define JD(v) json_object_new_double(v)

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

struct json_object *corr_to_json(const struct corr_result *r)
{
	struct json_object *o = json_object_new_object(), *cells = json_object_new_array();

	JADD(o, "mode", json_object_new_string(r->mode == CORR_CONTROLLED ? "controlled" :
							 "natural"));
	JADD(o, "baseline_unit_ns", jnum(r->baseline_ns));
	JADD(o, "threads", json_object_new_int64((int64_t)r->n_threads));
	JADD(o, "units", json_object_new_int64((int64_t)r->n_units));
	JADD(o, "warm_units", json_object_new_int64((int64_t)r->n_baseline));
	JADD(o, "migrated_units", json_object_new_int64((int64_t)r->n_mig_events));
	JADD(o, "stayed_units", json_object_new_int64((int64_t)r->n_stay_events));
	JADD(o, "spanning_units_left_out", json_object_new_int64((int64_t)r->n_spanning));
	JADD(o, "unseen_migrations", json_object_new_int64((int64_t)r->n_unseen));
	for (int i = 0; i < r->ncells; i++) {
		const struct corr_cell *c = &r->cells[i];
		struct json_object *j = json_object_new_object();

		JADD(j, "age_ns", JD(c->age_ns));
		if (r->mode == CORR_NATURAL)
			JADD(j, "age_hi_ns", JD(c->age_hi_ns));
		JADD(j, "age_median_ns", jnum(c->age_median_ns));
		JADD(j, "n_migrated", json_object_new_int64((int64_t)c->n_mig));
		JADD(j, "n_stayed", json_object_new_int64((int64_t)c->n_stay));
		JADD(j, "penalty_migrated_ns", jnum(c->pen_mig_ns));
		JADD(j, "penalty_stayed_ns", jnum(c->pen_stay_ns));
		JADD(j, "migration_cost_ns", jnum(c->cost_ns));
		JADD(j, "migration_cost_lo_ns", jnum(c->cost_lo_ns));
		JADD(j, "migration_cost_hi_ns", jnum(c->cost_hi_ns));
		json_object_array_add(cells, j);
	}
	JADD(o, "cells", cells);
	JADD(o, "max_cost_ns", jnum(r->max_cost_ns));
	JADD(o, "hot_state", json_object_new_string(hot_state_names[r->hot_state]));
	JADD(o, "observed_hot_ns", jnum(r->hot_ns));
	JADD(o, "observed_hot_lo_ns", jnum(r->hot_lo_ns));
	JADD(o, "observed_hot_hi_ns", jnum(r->hot_hi_ns));
	JADD(o, "lost_ns", jnum(r->lost_ns));
	JADD(o, "cost_fraction_of_slice", jnum(r->cost_frac_slice));
	return o;
}

struct json_object *verdict_to_json(const struct verdict_in *in, const struct verdict *v)
{
	struct json_object *o = json_object_new_object();

	JADD(o, "verdict", json_object_new_string(verdict_names[v->kind]));
	JADD(o, "factor", jnum(v->factor));
	JADD(o, "factor_is_bound", json_object_new_boolean(v->factor_is_bound));
	JADD(o, "kernel_ns", JD(in->kernel_ns));
	JADD(o, "kernel_source", json_object_new_string(in->kernel_source));
	JADD(o, "calibrated_ns", in->has_calib ? JD(in->calib_ns) : NULL);
	JADD(o, "calibrated_source", in->has_calib ? json_object_new_string(in->calib_source) :
						     NULL);
	JADD(o, "observed_hot_ns", jnum(in->corr->hot_ns));
	JADD(o, "headline", json_object_new_string(v->headline));
	JADD(o, "evidence", json_object_new_string(v->evidence));
	return o;
}

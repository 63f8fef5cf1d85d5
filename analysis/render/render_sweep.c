// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's table and its file (sweep.h; the file's schema is docs/sweep-file.md, its flat
 * objects the tables of sweep_schema.c).
 */
#include <math.h>
#include <string.h>

#include "json_writer.h"
#include "run.h"
#include "render_sweep.h"
#include "sweep_schema.h"
#include "sweep_summary.h"
#include "units.h"

char *sweep_fmt_value(char *buf, size_t len, int64_t ns)
{
	if (ns >= 1000000 && ns % 1000000 == 0)
		snprintf(buf, len, "%lld ms", (long long)(ns / 1000000));
	else if (ns >= 100000)
		snprintf(buf, len, "%.3g ms", (double)ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.3g µs", (double)ns / 1e3);
	else
		snprintf(buf, len, "%lld ns", (long long)ns);
	return buf;
}

char *sweep_fmt_knob(const struct sweep *s, char *buf, size_t len, int64_t v)
{
	if (s->in_ns)
		return sweep_fmt_value(buf, len, v);
	snprintf(buf, len, "%lld%s%s", (long long)v, s->unit && s->unit[0] ? " " : "",
		 s->unit ? s->unit : "");
	return buf;
}

/* s left-aligned in a column of width characters: µ is two bytes but one column. */
static void column(FILE *f, const char *s, int width)
{
	int chars = utf8_columns(s);

	fputs(s, f);
	for (; chars < width; chars++)
		fputc(' ', f);
}

/* "12.5 µs/2.22 ms" (p50, p99 given in µs), "-" for a run delay not seen. */
static void delay_pair(char *buf, size_t len, double p50, double p99)
{
	char a[32], b[32];

	if (p50 < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s/%s", fmt_ns(a, sizeof(a), p50 * 1e3),
			 fmt_ns(b, sizeof(b), p99 * 1e3));
}

/* T*, from the runs' own verdicts, against the best values. */
static void print_tstar(FILE *f, const struct sweep *s)
{
	char a[32], b[32], c[32];

	if (!s->in_ns)
		return;	/* a time, against values that are not */
	if (s->tstar_ns < 0) {
		fprintf(f, "T*: no run found one (it needs load-balancer pulls with units timed, "
			"and the run's waits: docs/design.md \"The wait side\")\n");
		return;
	}
	fprintf(f, "T*: %s (median over the %d runs that found one) %s the best values, %s to %s "
		"(those whose best run reaches the best value's worst)\n",
		sweep_fmt_value(a, sizeof(a), llround(s->tstar_ns)), s->tstar_runs,
		s->tstar_in_best ? "lies within" : "lies outside",
		sweep_fmt_value(b, sizeof(b), s->best_lo),
		sweep_fmt_value(c, sizeof(c), s->best_hi));
}

void render_sweep_text(FILE *f, const struct sweep *s)
{
	const char *unit = s->nruns ? s->runs[0].tput.unit : "";
	const char *src = s->nruns ? s->runs[0].tput.source : "";
	const struct sweep_value *sv = s->sv;
	double base = sv[0].n ? sv[0].tmed : 0;
	char v[32];

	fprintf(f, "\nmigtrace sweep of %s: %d values x %ld repetitions; throughput from %s (%s, "
		"higher is better), normalised to %s\n\n", s->knob ? s->knob : "migration_cost_ns",
		s->nvalues, s->reps, src, unit, sweep_fmt_knob(s, v, sizeof(v), s->values[0]));
	fprintf(f, "%-10s %6s %9s  %-32s %7s %10s %15s %9s %9s %9s  ", "value", "runs", "norm.",
		"throughput min / median / max", "idle %", "migrations", "lb hot/judged",
		"k:hotfail", "k:forced", "k:lbhot");
	column(f, "wake-up p50/p99", 21);
	fputc(' ', f);
	column(f, "runnable p50/p99", 21);
	fputc('\n', f);
	for (int i = 0; i < s->nvalues; i++) {
		const struct sweep_value *x = &sv[i];
		char tp[64], lb[32], k1[16] = "-", k2[16] = "-", k3[16] = "-", idle[16] = "-";
		char wake[48], wait[48];

		snprintf(tp, sizeof(tp), "%.4g / %.4g / %.4g", x->tmin, x->tmed, x->tmax);
		snprintf(lb, sizeof(lb), "%llu/%llu", (unsigned long long)x->lb_hot,
			 (unsigned long long)x->lb_judged);
		if (x->idle_med >= 0)
			snprintf(idle, sizeof(idle), "%.1f", x->idle_med);
		if (x->witness && s->schedstats_orig >= 0) {
			snprintf(k1, sizeof(k1), "%llu", (unsigned long long)x->failed_hot);
			snprintf(k2, sizeof(k2), "%llu", (unsigned long long)x->forced);
		}
		if (x->has_gained)
			snprintf(k3, sizeof(k3), "%llu", (unsigned long long)x->lb_hot_gained);
		delay_pair(wake, sizeof(wake), x->wake_p50_us, x->wake_p99_us);
		delay_pair(wait, sizeof(wait), x->wait_p50_us, x->wait_p99_us);
		column(f, sweep_fmt_knob(s, v, sizeof(v), x->value), 10);
		fprintf(f, " %6d %9.3f  %-32s %7s %10llu %15s %9s %9s %9s  ", x->n,
			base > 0 ? x->tmed / base : 0, tp, idle, (unsigned long long)x->migrations,
			lb, k1, k2, k3);
		/* padded by characters: a µ is two bytes */
		column(f, wake, 21);
		fputc(' ', f);
		column(f, wait, 21);
		fputc('\n', f);
	}
	fprintf(f, "\nnorm.: median throughput / the first value's; idle %%: median of the CPU "
		"set's idle + iowait time (/proc/stat); migrations, lb hot/judged: migtrace's "
		"counts over all runs of the value (load-balancer pulls of tasks younger than "
		"the value / all pulls with an age); run delay, medians over the runs of each "
		"run's 50th / 99th percentile, run-queue clock: wake-up to run, and every runnable "
		"wait (wake-ups and preempted requeues)\n");
	if (s->schedstats_orig < 0)
		fprintf(f, "kernel witnesses: none - this kernel has no schedstats "
			"(kernel.sched_schedstats absent, CONFIG_SCHEDSTATS=n)\n");
	else
		fprintf(f, "kernel witnesses (schedstats, summed over all runs): k:hotfail = "
			"nr_failed_migrations_hot, k:forced = nr_forced_migrations of the traced "
			"tasks (read every %d ms while they ran: lower bounds); k:lbhot = "
			"lb_hot_gained from /proc/schedstat over all CPUs, all tasks%s; '-': not "
			"found\n", SWEEP_WITNESS_PERIOD_MS,
			s->has_schedstat ? "" : " (no /proc/schedstat here)");
	if (s->best < 0)
		return;
	print_tstar(f, s);
	sweep_fmt_knob(s, v, sizeof(v), sv[s->best].value);
	fprintf(f, "best: %s (median %.4g %s, %.3f x the first value)", v, sv[s->best].tmed, unit,
		base > 0 ? sv[s->best].tmed / base : 0);
	if (s->second >= 0) {
		char v2[32];

		sweep_fmt_knob(s, v2, sizeof(v2), sv[s->second].value);
		if (sweep_best_beyond_noise(s))
			fprintf(f, "; beyond the noise: its worst run (%.4g) beats the runner-up "
				"%s's best (%.4g)\n", sv[s->best].tmin, v2, sv[s->second].tmax);
		else
			fprintf(f, "; within the noise: its worst run (%.4g) does not beat the "
				"runner-up %s's best (%.4g)%s\n", sv[s->best].tmin, v2,
				sv[s->second].tmax,
				sv[s->best].n > 1 ? "" : " - one run each; use --reps");
	} else {
		fputc('\n', f);
	}
}

/* A flat object of the sweep file: named (NULL in an array), written from its table. */
static void json_object(struct json_writer *w, const char *name, const void *base,
			const struct rs_table *t)
{
	if (name)
		jw_name(w, name);
	jw_start_object(w);
	rs_write(w, base, t);
	jw_end_object(w);
}

int render_sweep_json(FILE *f, const struct sweep *s)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_start_object_lines(&w);
	jw_field_string(&w, "schema", SWEEP_SCHEMA);
	rs_write(&w, s, &rs_sweep);
	json_object(&w, "tunable", s, &rs_sweep_tunable);
	json_object(&w, "schedstats", s, &rs_sweep_schedstats);
	jw_name(&w, "runs");
	jw_start_array_lines(&w);
	for (int i = 0; i < s->nruns; i++)
		json_object(&w, NULL, &s->runs[i], &rs_sweep_run);
	jw_end_array(&w);
	jw_name(&w, "values");
	jw_start_array_lines(&w);
	for (int i = 0; i < s->nvalues; i++)
		json_object(&w, NULL, &s->sv[i], &rs_sweep_value);
	jw_end_array(&w);
	/* the summary's finding, not a member of the model */
	if (s->best >= 0 && s->in_ns)
		jw_field_s64(&w, "best_ns", s->sv[s->best].value);
	else
		jw_field_null(&w, "best_ns");
	if (s->best >= 0) {
		jw_field_s64(&w, "best", s->sv[s->best].value);	/* in tunable.unit */
		jw_field_bool(&w, "best_beyond_noise", sweep_best_beyond_noise(s));
	} else {
		jw_field_null(&w, "best");
		jw_field_null(&w, "best_beyond_noise");
	}
	jw_end_object(&w);
	return jw_finish(&w);
}

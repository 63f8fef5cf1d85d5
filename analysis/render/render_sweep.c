// SPDX-License-Identifier: GPL-2.0
/* The sweep's table and its file (sweep.h; the file's schema is docs/sweep-file.md). */
#include <string.h>

#include "json_writer.h"
#include "run.h"
#include "render_sweep.h"
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

/* s left-aligned in a column of width characters: µ is two bytes but one column. */
static void column(FILE *f, const char *s, int width)
{
	int chars = utf8_columns(s);

	fputs(s, f);
	for (; chars < width; chars++)
		fputc(' ', f);
}

void render_sweep_text(FILE *f, const struct sweep *s)
{
	const char *unit = s->nruns ? s->runs[0].tput.unit : "";
	const char *src = s->nruns ? s->runs[0].tput.source : "";
	const struct sweep_value *sv = s->sv;
	double base = sv[0].n ? sv[0].tmed : 0;
	char v[32];

	fprintf(f, "\nmigtrace sweep: %d values x %ld repetitions; throughput from %s (%s, "
		"higher is better), normalised to %s\n\n", s->nvalues, s->reps, src, unit,
		sweep_fmt_value(v, sizeof(v), s->values[0]));
	fprintf(f, "%-10s %6s %9s  %-32s %7s %10s %15s %9s %9s %9s\n", "value", "runs",
		"norm.", "throughput min / median / max", "idle %", "migrations",
		"lb hot/judged", "k:hotfail", "k:forced", "k:lbhot");
	for (int i = 0; i < s->nvalues; i++) {
		const struct sweep_value *x = &sv[i];
		char tp[64], lb[32], k1[16] = "-", k2[16] = "-", k3[16] = "-", idle[16] = "-";

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
		column(f, sweep_fmt_value(v, sizeof(v), x->value_ns), 10);
		fprintf(f, " %6d %9.3f  %-32s %7s %10llu %15s %9s %9s %9s\n", x->n,
			base > 0 ? x->tmed / base : 0, tp, idle, (unsigned long long)x->migrations,
			lb, k1, k2, k3);
	}
	fprintf(f, "\nnorm.: median throughput / the first value's; idle %%: median of the CPU "
		"set's idle + iowait time (/proc/stat); migrations, lb hot/judged: migtrace's "
		"counts over all runs of the value (load-balancer pulls of tasks younger than "
		"the value / all pulls with an age)\n");
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
	sweep_fmt_value(v, sizeof(v), sv[s->best].value_ns);
	fprintf(f, "best: %s (median %.4g %s, %.3f x the first value)", v, sv[s->best].tmed, unit,
		base > 0 ? sv[s->best].tmed / base : 0);
	if (s->second >= 0) {
		char v2[32];

		sweep_fmt_value(v2, sizeof(v2), sv[s->second].value_ns);
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

static void json_run(struct json_writer *w, const struct sweep *s, const struct sweep_run *sr)
{
	jw_start_object(w);
	jw_field_s64(w, "value_ns", sr->value_ns);
	jw_field_s64(w, "rep", sr->rep);
	jw_field_double(w, "wall_s", sr->wall_s);
	jw_field_double(w, "throughput", sr->tput.value);
	jw_field_string(w, "throughput_unit", sr->tput.unit);
	jw_field_string(w, "throughput_source", sr->tput.source);
	if (sr->idle_pct >= 0)
		jw_field_double(w, "idle_pct", sr->idle_pct);
	else
		jw_field_null(w, "idle_pct");
	jw_field_s64(w, "exit_status", sr->exit_status);
	jw_name(w, "migrations");
	jw_start_object(w);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		jw_field_u64(w, mt_cause_names[c], sr->migrations[c]);
	jw_end_object(w);
	jw_field_u64(w, "lb_judged", sr->lb_judged);
	jw_field_u64(w, "lb_hot", sr->lb_hot);
	if (sr->witness && s->schedstats_orig >= 0) {
		jw_field_u64(w, "nr_failed_migrations_hot", sr->failed_hot);
		jw_field_u64(w, "nr_forced_migrations", sr->forced);
	} else {
		jw_field_null(w, "nr_failed_migrations_hot");
		jw_field_null(w, "nr_forced_migrations");
	}
	if (sr->has_lb_hot_gained)
		jw_field_u64(w, "lb_hot_gained", sr->lb_hot_gained);
	else
		jw_field_null(w, "lb_hot_gained");
	jw_end_object(w);
}

int render_sweep_json(FILE *f, const struct sweep *s)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_start_object_lines(&w);
	jw_field_string(&w, "schema", SWEEP_SCHEMA);
	jw_field_bool(&w, "complete", s->complete);
	jw_name(&w, "command");
	jw_start_array(&w);
	for (char *const *a = s->argv; a && *a; a++)
		jw_string(&w, *a);
	jw_end_array(&w);
	jw_field_string(&w, "cpus", s->cpus_arg ? s->cpus_arg : "");
	jw_field_s64(&w, "reps", s->reps);
	jw_name(&w, "tunable");
	jw_start_object(&w);
	jw_field_string(&w, "path", s->tunable_path);
	jw_field_s64(&w, "original_ns", s->original_ns);
	jw_field_string(&w, "root", s->root ? s->root : "");
	jw_end_object(&w);
	jw_name(&w, "schedstats");
	jw_start_object(&w);
	jw_field_bool(&w, "available", s->schedstats_orig >= 0);
	jw_field_bool(&w, "proc_schedstat", s->has_schedstat);
	jw_field_s64(&w, "original", s->schedstats_orig);
	jw_end_object(&w);
	jw_name(&w, "runs");
	jw_start_array_lines(&w);
	for (int i = 0; i < s->nruns; i++)
		json_run(&w, s, &s->runs[i]);
	jw_end_array(&w);
	jw_name(&w, "values");
	jw_start_array_lines(&w);
	for (int i = 0; i < s->nvalues; i++) {
		const struct sweep_value *x = &s->sv[i];

		jw_start_object(&w);
		jw_field_s64(&w, "value_ns", x->value_ns);
		jw_field_s64(&w, "runs", x->n);
		jw_field_double(&w, "throughput_min", x->tmin);
		jw_field_double(&w, "throughput_median", x->tmed);
		jw_field_double(&w, "throughput_max", x->tmax);
		jw_field_double(&w, "normalised", x->normalised);
		if (x->idle_med >= 0)
			jw_field_double(&w, "idle_pct_median", x->idle_med);
		else
			jw_field_null(&w, "idle_pct_median");
		jw_end_object(&w);
	}
	jw_end_array(&w);
	if (s->best >= 0) {
		jw_field_s64(&w, "best_ns", s->sv[s->best].value_ns);
		jw_field_bool(&w, "best_beyond_noise", sweep_best_beyond_noise(s));
	} else {
		jw_field_null(&w, "best_ns");
		jw_field_null(&w, "best_beyond_noise");
	}
	jw_end_object(&w);
	return jw_finish(&w);
}

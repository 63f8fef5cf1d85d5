// SPDX-License-Identifier: GPL-2.0
/*
 * The text renderer.  Counts come from the in-kernel aggregates (complete even when records
 * were lost); per-record figures (the wakeup placements' ages) come from the analysis, and
 * say so when some records were lost.  Only formatting happens here: every number is in the
 * run model already, so a run file read back prints the same bytes.
 */
#include <math.h>
#include <string.h>

#include "hist.h"
#include "render_text.h"
#include "units.h"

/* "CPUID" for CPUID, as the text names sources; others as they are. */
static const char *source_name(const char *s)
{
	return !strcmp(s, "cpuid") ? "CPUID" : s;
}

void render_text_calib_intro(FILE *f, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char b[32];

	fprintf(f, "== step 1 of 2: calibrate CPUs %d and %d (method %d)\n", c->cpus.cpu[0],
		c->cpus.cpu[1], c->method);
	fprintf(f, "against the %s (buffer %s)\n", c->cache_what,
		fmt_bytes(b, sizeof(b), c->buffer_bytes));
}

void render_text_calib_result(FILE *f, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char a[32], b[32], d[32];

	fprintf(f, "calibrated hot time: %s (undisturbed median x 6; the seed's max rule: %s), cache %s from "
		"%s\n", fmt_ns(a, sizeof(a), c->hot_robust_ns),
		fmt_ns(b, sizeof(b), c->hot_seed_ns), fmt_bytes(d, sizeof(d), c->cache_bytes),
		source_name(c->cache_source));
	fprintf(f, "\n== step 2 of 2: controlled experiment (cachewalk)\n");
}

char *render_calib_source(char *buf, int len, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char a[32], b[32];

	if (r->calib.inline_run)
		snprintf(buf, len, "method %d inline, robust (undisturbed median x 6); seed rule gave %s; "
			 "cache %s from %s", c->method, fmt_ns(a, sizeof(a), c->hot_seed_ns),
			 fmt_bytes(b, sizeof(b), c->cache_bytes), source_name(c->cache_source));
	else
		snprintf(buf, len, "%s%s", r->setup.calibration_file,
			 r->calib.robust ? ", robust (undisturbed median x 6)" : "");
	return buf;
}

void render_text_header(FILE *f, const struct run *r)
{
	char hbuf[32], cbuf[256];

	fprintf(f, "Tracing migrations of %s (pid %d) on CPUs %s; hot means younger than %s (%s). "
		"Hit Ctrl-C to end.\n", r->meta.command, r->meta.pid,
		format_cpu_list(&r->meta.cpus, cbuf, sizeof(cbuf)),
		fmt_ns(hbuf, sizeof(hbuf), (double)r->meta.hot_ns), r->meta.hot_source);
}

void render_text_pairs(FILE *f, const struct run *r)
{
	int n = r->meta.nr_cpus, lo = n, hi = -1;
	char buf[16];

	/* Only the CPUs that appear, so a 2-CPU workload on a 64-CPU box stays readable. */
	for (int i = 0; r->pairs && i < n * n; i++) {
		if (!r->pairs[i])
			continue;
		if (i / n < lo)
			lo = i / n;
		if (i % n < lo)
			lo = i % n;
		if (i / n > hi)
			hi = i / n;
		if (i % n > hi)
			hi = i % n;
	}
	if (hi < 0)
		return;
	fprintf(f, "\nmigrations by CPU pair (row: from, column: to):\n        ");
	for (int d = lo; d <= hi; d++) {
		snprintf(buf, sizeof(buf), "to %d", d);
		fprintf(f, " %8s", buf);
	}
	fprintf(f, "\n");
	for (int s = lo; s <= hi; s++) {
		fprintf(f, "  from %-2d", s);
		for (int d = lo; d <= hi; d++) {
			if (s == d)
				fprintf(f, " %8s", "-");
			else
				fprintf(f, " %8llu", (unsigned long long)r->pairs[s * n + d]);
		}
		fprintf(f, "\n");
	}
}

static void print_cost(FILE *f, const struct run_cost *c)
{
	double self_s = c->self_user_s + c->self_sys_s;
	char a[32];

	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].recursion_misses)
			fprintf(f, "  %s: %llu events not seen (the kernel skipped the program: it "
				"was already running on that CPU)\n", c->progs[i].name,
				(unsigned long long)c->progs[i].recursion_misses);

	fprintf(f, "cost: migtrace used %.3f s of CPU (%.3f s user, %.3f s system; %.3f s of it "
		"loading and attaching)", self_s, c->self_user_s, c->self_sys_s, c->self_startup_s);
	if (c->workload_cpu_s > 0)
		fprintf(f, ", %.2f %% of the workload's %.3f s (%.2f %% while tracing)",
			100.0 * self_s / c->workload_cpu_s, c->workload_cpu_s,
			100.0 * (self_s - c->self_startup_s) / c->workload_cpu_s);
	fprintf(f, "; peak RSS %s\n",
		fmt_bytes(a, sizeof(a), (uint64_t)c->self_max_rss_kib * 1024));
	if (!c->bpf_stats) {
		fprintf(f, "  (per-program BPF cost: run with sysctl "
			"kernel.bpf_stats_enabled=1)\n");
		return;
	}
	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].run_cnt)
			fprintf(f, "  %-18s %10llu runs, %7.1f ns each (bpf_stats)\n",
				c->progs[i].name, (unsigned long long)c->progs[i].run_cnt,
				(double)c->progs[i].run_time_ns / (double)c->progs[i].run_cnt);
}

static void print_summary(FILE *f, const struct run *r)
{
	const struct mt_stats *s = &r->stats;
	const struct run_summary *sum = &r->sum;
	__u64 all_age[MT_HIST_SLOTS] = { 0 };
	uint64_t lost = s->rb_dropped;
	char a[32], b[32];

	fprintf(f, "\n%s: %s after %.2f s\n", r->meta.command, r->meta.end_reason,
		r->meta.duration_s);
	fprintf(f, "migrations: %llu (%llu traced tasks)\n", (unsigned long long)sum->migrations,
		(unsigned long long)s->tracked_tasks);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, "  %-18s %8llu  %5.1f %%\n", mt_cause_titles[c],
			(unsigned long long)s->migrations[c],
			pct(s->migrations[c], sum->migrations));
	fprintf(f, "  (%llu sched_migrate_task events with src == dst were not migrations)\n",
		(unsigned long long)s->same_cpu);
	render_text_pairs(f, r);

	for (int c = 0; c < MT_NR_CAUSES; c++)
		for (int k = 0; k < MT_HIST_SLOTS; k++)
			all_age[k] += r->hists.age[c][k];
	fprintf(f, "\nage at migration, all causes (since the last switch-out on src; 0 for a "
		"running task):\n");
	hist_print_log2(f, all_age, MT_HIST_SLOTS, "usecs");

	fprintf(f, "\nthe kernel's judgement at %s (%s):\n",
		fmt_ns(a, sizeof(a), (double)r->meta.hot_ns), r->meta.hot_source);
	fprintf(f, "  load-balance pulls task_hot() would call hot: %llu of %llu",
		(unsigned long long)s->lb_hot, (unsigned long long)s->lb_judged);
	if (s->lb_judged)
		fprintf(f, " (%.1f %%; kernel age = rq_clock_task(src) - se.exec_start)",
			pct(s->lb_hot, s->lb_judged));
	fprintf(f, "\n");
	fprintf(f, "  wakeup placements (task_hot() is never asked): %llu, of which %llu "
		"(%.1f %%) younger than %s%s\n",
		(unsigned long long)s->migrations[MT_CAUSE_WAKEUP],
		(unsigned long long)sum->wakeup_hot, pct(sum->wakeup_hot, sum->wakeup_records),
		fmt_ns(b, sizeof(b), (double)r->meta.hot_ns),
		lost || r->recs_not_kept ? " (of the records kept)" : "");

	fprintf(f, "\nrun slices of traced tasks:\n");
	hist_print_log2(f, r->hists.slice, MT_HIST_SLOTS, "usecs");
	fprintf(f, "\nwakeup-to-run latency of traced tasks (run-queue clock, as schedstat%s):\n",
		!strcmp(r->meta.wakeup_latency_from, "sched_info.last_queued") ?
			"; from the kernel's enqueue stamp" :
		!strcmp(r->meta.wakeup_latency_from, "sched_wakeup") ?
			"; from sched_wakeup" : "");
	hist_print_log2(f, r->hists.wakelat, MT_HIST_SLOTS, "usecs");

	fprintf(f, "\ndata quality: %llu migration records, %llu lost (%.2f %%), ring buffer %s\n",
		(unsigned long long)(s->rb_records + lost), (unsigned long long)lost,
		pct(lost, s->rb_records + lost), fmt_bytes(a, sizeof(a), r->meta.ringbuf_bytes));
	if (r->recs_not_kept || r->units_not_kept)
		fprintf(f, "  kept the first %llu of each kind: %llu migration and %llu unit "
			"records were counted, not kept (--max-records)\n",
			(unsigned long long)r->setup.max_records,
			(unsigned long long)r->recs_not_kept,
			(unsigned long long)r->units_not_kept);
	fprintf(f, "completeness: the kernel counted %llu migrations of the traced tasks while "
		"traced (se.nr_migrations, up to each task's last run); migtrace saw %llu (%llu "
		"with no sched_migrate_task event, found where the task next ran); difference "
		"%lld\n", (unsigned long long)s->kernel_migrations,
		(unsigned long long)sum->kernel_counted,
		(unsigned long long)s->migrations[MT_CAUSE_UNSEEN],
		(long long)sum->completeness_gap);
	if (s->storage_busy)
		fprintf(f, "  %llu events of traced tasks found their task storage busy (nested "
			"in another program on that CPU) and were not handled; a move among them "
			"is counted as unseen\n",
			(unsigned long long)s->storage_busy);
	print_cost(f, &r->cost);
}

char *render_interval(char *buf, int len, const struct corr_result *c)
{
	double first = corr_cell_age(c, 0), last = corr_cell_age(c, c->ncells - 1);
	char a[40], b[32];

	if (c->hot_lo_ns < first)
		snprintf(a, sizeof(a), "< %s", fmt_ns(b, sizeof(b), first));
	else
		fmt_ns(a, sizeof(a), c->hot_lo_ns);
	if (c->hot_hi_ns > last)
		snprintf(buf, len, "%s to > %s", a, fmt_ns(b, sizeof(b), last));
	else
		snprintf(buf, len, "%s to %s", a, fmt_ns(b, sizeof(b), c->hot_hi_ns));
	return buf;
}

static void print_correlation(FILE *f, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	double cold = 100 * c->cold_fraction;
	char a[32], b[96], d[32], e[32], g[32], ci[112];

	fprintf(f, "\n%s\n", r->setup.mode == CORR_CONTROLLED ?
		"controlled experiment: refill penalty by age (cachewalk, real migrations by "
		"sched_setaffinity, same-CPU control arm)" :
		"natural migrations: refill penalty by age (the scheduler decided)");
	fprintf(f, "  warm unit (baseline): %s median over %zu thread%s, %zu warm units\n",
		fmt_ns(a, sizeof(a), c->baseline_ns), c->n_threads, c->n_threads == 1 ? "" : "s",
		c->n_baseline);
	if (r->meta.unit_probe_ns >= 0)
		fprintf(f, "  probing: each unit is inflated by ~%s (uprobe + uretprobe, measured "
			"at start on an empty function: %.0f %% of the warm unit)\n",
			fmt_ns(a, sizeof(a), r->meta.unit_probe_ns),
			c->baseline_ns > 0 ? 100.0 * r->meta.unit_probe_ns / c->baseline_ns : 0.0);
	fprintf(f, "  %10s %10s %16s %16s %30s\n", "age", "measured", "after migration",
		"after same-CPU", "migration cost (95% CI)");
	for (int i = 0; i < c->ncells; i++) {
		const struct corr_cell *cl = &c->cells[i];

		snprintf(ci, sizeof(ci), "%s [%s, %s]", fmt_ns(a, sizeof(a), cl->cost_ns),
			 fmt_ns(d, sizeof(d), cl->cost_lo_ns),
			 fmt_ns(e, sizeof(e), cl->cost_hi_ns));
		if (c->mode == CORR_CONTROLLED)
			snprintf(g, sizeof(g), "%s", fmt_ns(a, sizeof(a), cl->age_ns));
		else
			snprintf(g, sizeof(g), ">=%s", fmt_ns(a, sizeof(a), cl->age_ns));
		fprintf(f, "  %10s %10s %10s (%3zu) %10s (%3zu) %30s\n", g,
			fmt_ns(b, sizeof(b), cl->age_median_ns),
			fmt_ns(d, sizeof(d), cl->pen_mig_ns), cl->n_mig,
			fmt_ns(e, sizeof(e), cl->pen_stay_ns), cl->n_stay, ci);
	}
	fprintf(f, "  (penalty = first unit after the event - the thread's warm unit; "
		"%.0f %%-trimmed means, n in parentheses)\n", 100 * CORR_TRIM);
	if (c->n_spanning || c->n_unseen)
		fprintf(f, "  left out: %zu units with a switch or migration inside, %zu "
			"\"migrated\" units whose migration the tracepoint did not show\n",
			c->n_spanning, c->n_unseen);
	switch (c->hot_state) {
	case CORR_HOT_FOUND:
		fprintf(f, "  observed hot time: %s (95 %% interval %s): beyond it the cost "
			"stays under %.0f %% of its %s maximum\n", fmt_ns(a, sizeof(a), c->hot_ns),
			render_interval(b, sizeof(b), c), cold,
			fmt_ns(d, sizeof(d), c->max_cost_ns));
		break;
	case CORR_HOT_ABOVE:
		fprintf(f, "  observed hot time: above %s, the largest age measured (cost still "
			">= %.0f %% of its %s maximum there)\n", fmt_ns(a, sizeof(a), c->hot_ns),
			cold, fmt_ns(b, sizeof(b), c->max_cost_ns));
		break;
	case CORR_HOT_NO_COST:
		fprintf(f, "  observed hot time: below %s, the smallest age measured: no age shows "
			"a migration cost above noise (max %s, its interval reaches 0)\n",
			fmt_ns(a, sizeof(a), c->hot_ns), fmt_ns(b, sizeof(b), c->max_cost_ns));
		break;
	default:
		fprintf(f, "  observed hot time: no data\n");
	}
}

static void print_headline(FILE *f, const struct verdict *v)
{
	char a[32];

	if (v->kind == VERDICT_UNDETERMINED) {
		fprintf(f, "  => undetermined: no age had units after both a migration and a "
			"same-CPU wake\n");
		return;
	}
	fprintf(f, "  => the kernel's %s is %s", fmt_ns(a, sizeof(a), v->kernel_ns),
		verdict_names[v->kind]);
	if (v->kind != VERDICT_ABOUT_RIGHT && !isfinite(v->factor))
		fprintf(f, " by an unbounded factor");
	else if (v->kind != VERDICT_ABOUT_RIGHT)
		fprintf(f, " by a factor of %s%.1f", v->factor_is_bound ? "at least " : "",
			v->factor);
	fprintf(f, "\n");
}

/* The band's share of this run's own migrations (natural runs). */
static void print_run_share(FILE *f, const struct verdict *v)
{
	if (v->has_run_share)
		fprintf(f, "; %.0f %% of this run's %llu migrations were of tasks that age",
			pct(v->band_migrations, v->run_migrations),
			(unsigned long long)v->run_migrations);
}

static void print_evidence(FILE *f, const struct run *r, const struct verdict *v)
{
	char a[32], b[96], c[32], d[32], e[32];

	switch (v->kind) {
	case VERDICT_TOO_LOW:
		if (v->band_cells)
			fprintf(f, "     at ages %s-%s a migration cost %s (%.0f %% of a %s unit); "
				"task_hot() calls tasks of those ages cold",
				fmt_ns(a, sizeof(a), v->band_lo_ns),
				fmt_ns(b, sizeof(b), v->band_hi_ns),
				fmt_ns(c, sizeof(c), v->band_cost_ns), 100.0 * v->band_cost_share,
				fmt_ns(d, sizeof(d), v->unit_ns));
		else
			fprintf(f, "     task_hot() calls tasks of ages %s-%s cold; no age "
				"measured lies in that band (--ages), so what a migration costs "
				"there is not known", fmt_ns(a, sizeof(a), v->band_lo_ns),
				fmt_ns(b, sizeof(b), v->band_hi_ns));
		break;
	case VERDICT_TOO_HIGH:
		if (v->band_cells)
			fprintf(f, "     from %s to %s a migration costs at most %s (under %.0f "
				"%% of the %s maximum, %.0f %% of a %s unit); task_hot() still "
				"calls these tasks hot and the balancer leaves them waiting",
				fmt_ns(a, sizeof(a), v->band_lo_ns),
				fmt_ns(b, sizeof(b), v->band_hi_ns),
				fmt_ns(c, sizeof(c), v->band_cost_ns), 100 * v->cold_fraction,
				fmt_ns(d, sizeof(d), v->max_cost_ns), 100.0 * v->band_cost_share,
				fmt_ns(e, sizeof(e), v->unit_ns));
		else
			fprintf(f, "     no measured age between %s and %s showed a migration cost "
				"above %.0f %% of the maximum (%s)",
				fmt_ns(a, sizeof(a), v->band_lo_ns),
				fmt_ns(b, sizeof(b), v->band_hi_ns), 100 * v->cold_fraction,
				fmt_ns(c, sizeof(c), v->max_cost_ns));
		break;
	case VERDICT_ABOUT_RIGHT:
		fprintf(f, "     the 95 %% interval of the observed hot time, %s, contains the "
			"kernel's value\n", render_interval(b, sizeof(b), &r->corr));
		return;
	default:
		return;
	}
	print_run_share(f, v);
	fprintf(f, "\n");
}

static void print_verdict(FILE *f, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	const struct verdict *v = &r->verdict;
	char a[32], b[96], src[700];

	if (v->kind == VERDICT_NONE) {
		fprintf(f, "\nverdict: none: the controlled experiment was interrupted (%s) before "
			"it finished its schedule; the table above is partial, and no verdict is "
			"given from an incomplete experiment\n", r->meta.end_reason);
		return;
	}
	fprintf(f, "\nverdict\n");
	if (v->has_calib)
		fprintf(f, "  calibrated hot time: %10s  (%s)\n", fmt_ns(a, sizeof(a), v->calib_ns),
			render_calib_source(src, sizeof(src), r));
	else
		fprintf(f, "  calibrated hot time: %10s  (not calibrated: give --calibration "
			"FILE)\n", "-");
	fprintf(f, "  kernel's value:      %10s  (%s)\n", fmt_ns(a, sizeof(a), v->kernel_ns),
		r->meta.hot_source);
	if (c->hot_state == CORR_HOT_FOUND)
		fprintf(f, "  observed hot time:   %10s  (95 %% interval %s)\n",
			fmt_ns(a, sizeof(a), c->hot_ns), render_interval(b, sizeof(b), c));
	else
		fprintf(f, "  observed hot time:   %10s  (%s)\n", c->hot_state == CORR_HOT_NO_DATA ?
			"-" : fmt_ns(a, sizeof(a), c->hot_ns),
			corr_hot_state_names[c->hot_state & 3]);
	print_headline(f, v);
	print_evidence(f, r, v);
	if (c->n_mig_events)
		fprintf(f, "     refill cost per migration: %.1f %% of the run slice that followed "
			"(median); %s lost to migrations over %zu migrated units\n",
			100.0 * c->cost_frac_slice, fmt_ns(a, sizeof(a), c->lost_ns),
			c->n_mig_events);
	if (isfinite(v->calib_over_observed))
		fprintf(f, "     the calibrated value is %.2fx the observed hot time\n",
			v->calib_over_observed);
	if (r->meta.unit_probe_ns >= 0)
		fprintf(f, "     units are inflated by ~%s by probing; the migration cost is a "
			"difference of two probed arms, so it cancels there but its noise does not\n",
			fmt_ns(a, sizeof(a), r->meta.unit_probe_ns));
	fprintf(f, "     (task_hot() judges only load-balancer pulls; wakeup placement never "
		"asks it, and the same value gates newly-idle balancing)\n");
}

void render_text_results(FILE *f, const struct run *r)
{
	print_summary(f, r);
	if (r->has_corr)
		print_correlation(f, r);
	if (r->has_verdict)
		print_verdict(f, r);
}

void render_text(FILE *f, const struct run *r)
{
	if (r->setup.kind == RUN_KIND_VALIDATE && r->calib.inline_run) {
		render_text_calib_intro(f, r);
		render_text_calib_result(f, r);
	}
	render_text_header(f, r);
	render_text_results(f, r);
}

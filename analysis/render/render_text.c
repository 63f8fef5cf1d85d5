// SPDX-License-Identifier: GPL-2.0
/*
 * The text renderer.  Counts come from the in-kernel aggregates (complete even when records
 * were lost); per-record figures (the wakeup placements' ages) come from the analysis, and
 * say so when some records were lost.  Only formatting happens here: every number is in the
 * run model already, so a run file read back prints the same bytes.  Every name from outside
 * (the command line, paths, what sysfs or a run file says) goes through printable().
 */
#include <math.h>
#include <string.h>

#include "calib_report.h"
#include "hist.h"
#include "printable.h"
#include "render_footprint.h"
#include "render_text.h"
#include "units.h"

void render_text_calib_intro(FILE *f, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char b[32], what[PRINTABLE_SIZE(sizeof(c->cache_what))];

	fprintf(f, "== step 1 of 2: calibrate CPUs %d and %d (method %d%s)\n", c->cpus.cpu[0],
		c->cpus.cpu[1], c->method, c->chase ? ", and the chase beside it" : "");
	fprintf(f, "against the %s (buffer %s)\n", printable(what, sizeof(what), c->cache_what),
		fmt_bytes(b, sizeof(b), c->buffer_bytes));
	/* files written before the footprint curve print what their run printed */
	if (r->calib.has_footprint)
		render_footprint_intro(f, &r->calib.footprint);
}

void render_text_calib_result(FILE *f, const struct run *r)
{
	const struct calibration *c = &r->calib.cal;
	char a[32], b[32], d[32], src[PRINTABLE_SIZE(sizeof(c->cache_source))];

	fprintf(f, "calibrated hot time: %s (undisturbed median x 6; the seed's max rule: %s), cache %s from "
		"%s\n", fmt_ns(a, sizeof(a), c->hot_robust_ns),
		fmt_ns(b, sizeof(b), c->hot_seed_ns), fmt_bytes(d, sizeof(d), c->cache_bytes),
		calib_source_name(src, sizeof(src), c->cache_source));
	/* files written before the chase print what their run printed */
	if (c->chase) {
		calib_print_assumed_rate(f, c);
		calib_print_chase(f, c, true);
	}
	if (r->calib.has_footprint)
		render_footprint_result(f, &r->calib.footprint);
	fprintf(f, "\n== step 2 of 2: controlled experiment (cachewalk)\n");
}

/* What a sched event's absence costs a replayed run (docs/ftrace.md, "What is not"). */
static const char *missing_cost(const char *event)
{
	static const struct {
		const char *event, *cost;
	} costs[] = {
		{ "sched_switch", "ages cannot be computed" },
		{ "sched_migrate_task", "moves are seen only where a task next ran (unseen)" },
		{ "sched_waking", "wake-up placements are told from the last switch-out alone" },
		{ "sched_wakeup", "wake-up latency cannot be computed" },
		{ "sched_wakeup_new", "fork placements cannot be seen" },
		{ "sched_process_fork", "new tasks are first seen at their first event" },
		{ "sched_process_exec", "sched_exec's moves are counted as active*" },
		{ "sched_process_exit", "exited tasks' state is kept to the end" },
	};

	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++)
		if (!strcmp(event, costs[i].event))
			return costs[i].cost;
	return "not read";
}

/* A replayed run's missing sched events, one line each with what their absence costs. */
static void render_text_missing(FILE *f, const struct run *r, const char *indent)
{
	const char *s = r->meta.backend.missing;
	char name[64], pr[PRINTABLE_SIZE(sizeof(name))];

	while (*s) {
		size_t n = strcspn(s, ",");

		snprintf(name, sizeof(name), "%.*s", (int)n, s);
		if (name[0])
			fprintf(f, "%sno %s: %s\n", indent, printable(pr, sizeof(pr), name),
				missing_cost(name));
		s += n + (s[n] == ',');
	}
}

/* "Backend: ...", for a run that says which tracer recorded it. */
static void print_backend(FILE *f, const struct run *r)
{
	const struct run_backend *b = &r->meta.backend;
	char name[PRINTABLE_SIZE(sizeof(b->name))], why[PRINTABLE_SIZE(sizeof(b->why))];

	if (!b->name[0])
		return;
	fprintf(f, "Backend: %s", printable(name, sizeof(name), b->name));
	if (b->why[0])
		fprintf(f, " (%s)", printable(why, sizeof(why), b->why));
	if (b->replayed)
		fprintf(f, "; scheduler events replayed in user space: the causes marked * are not "
			"told apart, the kernel's clock and counts are not read");
	fprintf(f, "\n");
}

void render_text_header(FILE *f, const struct run *r)
{
	char hbuf[32], cbuf[256], cmd[PRINTABLE_SIZE(sizeof(r->meta.command))];
	char src[PRINTABLE_SIZE(sizeof(r->meta.hot_source))], pid[64] = "";
	char file[PRINTABLE_SIZE(sizeof(r->meta.backend.source))];

	if (!strcmp(r->meta.backend.name, "trace-cmd")) {
		/* report --pid: one task and those it forked in the capture */
		if (r->meta.pid > 0)
			snprintf(pid, sizeof(pid), " of pid %d and the tasks it forked", r->meta.pid);
		fprintf(f, "Migrations%s in the trace-cmd capture %s (%d CPUs); hot means younger "
			"than %s (%s).\n", pid,
			printable(file, sizeof(file), r->meta.backend.source), r->meta.nr_cpus,
			fmt_ns(hbuf, sizeof(hbuf), (double)r->meta.hot_ns),
			printable(src, sizeof(src), r->meta.hot_source));
		print_backend(f, r);
		return;
	}
	/* -a and --cgroup trace no one process */
	if (r->meta.pid > 0)
		snprintf(pid, sizeof(pid), " (pid %d)", r->meta.pid);
	fprintf(f, "Tracing migrations of %s%s on CPUs %s; hot means younger than %s (%s). "
		"Hit Ctrl-C to end.\n", printable(cmd, sizeof(cmd), r->meta.command), pid,
		format_cpu_list(&r->meta.cpus, cbuf, sizeof(cbuf)),
		fmt_ns(hbuf, sizeof(hbuf), (double)r->meta.hot_ns),
		printable(src, sizeof(src), r->meta.hot_source));
	print_backend(f, r);
}

static void render_text_pairs(FILE *f, const struct run *r)
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

/* bpf: the run had BPF programs (not events replayed): their per-program cost is said */
static void print_cost(FILE *f, const struct run_cost *c, bool bpf)
{
	double self_s = c->self_user_s + c->self_sys_s;
	char a[32], name[PRINTABLE_SIZE(sizeof(c->progs[0].name))];

	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].recursion_misses)
			fprintf(f, "  %s: %llu events not seen (the kernel skipped the program: it "
				"was already running on that CPU)\n",
				printable(name, sizeof(name), c->progs[i].name),
				(unsigned long long)c->progs[i].recursion_misses);

	fprintf(f, "cost: migtrace used %.3f s of CPU (%.3f s user, %.3f s system; %.3f s of it "
		"loading and attaching)", self_s, c->self_user_s, c->self_sys_s, c->self_startup_s);
	if (c->workload_cpu_s > 0)
		fprintf(f, ", %.2f %% of the workload's %.3f s (%.2f %% while tracing)",
			100.0 * self_s / c->workload_cpu_s, c->workload_cpu_s,
			100.0 * (self_s - c->self_startup_s) / c->workload_cpu_s);
	fprintf(f, "; peak RSS %s\n",
		fmt_bytes(a, sizeof(a), (uint64_t)c->self_max_rss_kib * 1024));
	if (!bpf)
		return;
	if (!c->bpf_stats) {
		fprintf(f, "  (per-program BPF cost: run with sysctl "
			"kernel.bpf_stats_enabled=1)\n");
		return;
	}
	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].run_cnt)
			fprintf(f, "  %-18s %10llu runs, %7.1f ns each (bpf_stats)\n",
				printable(name, sizeof(name), c->progs[i].name),
				(unsigned long long)c->progs[i].run_cnt,
				(double)c->progs[i].run_time_ns / (double)c->progs[i].run_cnt);
}

/*
 * The wakeup placements younger than the threshold, of all of them: from their records when
 * every one has its record, else from the in-kernel age histogram, which is complete, and
 * bounded when the threshold splits a slot.  Never the records kept over the total.
 */
static void print_wakeup_share(FILE *f, const struct run *r)
{
	const __u64 *age = r->hists.age[MT_CAUSE_WAKEUP];
	uint64_t n = r->stats.migrations[MT_CAUSE_WAKEUP], lo = n, hi = n;
	char b[32];
	int split = -1;

	fmt_ns(b, sizeof(b), (double)r->meta.hot_ns);
	fprintf(f, "  wakeup placements (task_hot() is never asked): %llu, of which ",
		(unsigned long long)n);
	if (r->sum.wakeup_records == n) {
		fprintf(f, "%llu (%.1f %%) younger than %s\n",
			(unsigned long long)r->sum.wakeup_hot, pct(r->sum.wakeup_hot, n), b);
		return;
	}
	/* task_hot()'s rule (MT_TASK_HOT): below 0 every age is hot, at 0 none */
	if (r->meta.hot_ns >= 0)
		split = hist_count_under(age, MT_HIST_SLOTS, (uint64_t)r->meta.hot_ns, &lo, &hi);
	if (split < 0)
		fprintf(f, "%llu (%.1f %%)", (unsigned long long)lo, pct(lo, n));
	else
		fprintf(f, "at least %llu (%.1f %%) and at most %llu (%.1f %%)",
			(unsigned long long)lo, pct(lo, n), (unsigned long long)hi, pct(hi, n));
	fprintf(f, " younger than %s (from the in-kernel age histogram, complete: not every "
		"placement has its record", b);
	if (split >= 0)
		fprintf(f, "; its %llu -> %llu µs slot, %llu placements, straddles %s",
			(unsigned long long)hist_slot_low_us(split),
			(unsigned long long)(2ULL << split) - 1, (unsigned long long)age[split], b);
	fprintf(f, ")\n");
}

static void print_summary(FILE *f, const struct run *r)
{
	const struct mt_stats *s = &r->stats;
	const struct run_summary *sum = &r->sum;
	__u64 all_age[MT_HIST_SLOTS] = { 0 };
	uint64_t lost = s->rb_dropped;
	char a[32], cmd[PRINTABLE_SIZE(sizeof(r->meta.command))];
	char end[PRINTABLE_SIZE(sizeof(r->meta.end_reason))];
	char src[PRINTABLE_SIZE(sizeof(r->meta.hot_source))];
	bool replayed = run_replayed(r);

	fprintf(f, "\n%s: %s after %.2f s\n", printable(cmd, sizeof(cmd), r->meta.command),
		printable(end, sizeof(end), r->meta.end_reason), r->meta.duration_s);
	fprintf(f, "migrations: %llu (%llu traced tasks)\n", (unsigned long long)sum->migrations,
		(unsigned long long)s->tracked_tasks);
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		char title[32];

		/* replayed events cannot tell the stopper's moves apart */
		snprintf(title, sizeof(title), "%s%s", mt_cause_titles[c],
			 replayed && (c == MT_CAUSE_ACTIVE || c == MT_CAUSE_AFFINITY) ? "*" : "");
		fprintf(f, "  %-18s %8llu  %5.1f %%\n", title,
			(unsigned long long)s->migrations[c],
			pct(s->migrations[c], sum->migrations));
	}
	if (replayed)
		fprintf(f, "  (active*: active balance, affinity or sched_exec, not told apart by "
			"ftrace: %llu moves by a stopper; affinity*: counted there)\n",
			(unsigned long long)r->meta.backend.stopper_moves);
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
		fmt_ns(a, sizeof(a), (double)r->meta.hot_ns),
		printable(src, sizeof(src), r->meta.hot_source));
	if (replayed)
		fprintf(f, "  load-balance pulls task_hot() would call hot: not read (the kernel's "
			"age, rq_clock_task(src) - se.exec_start, is not in the events)");
	else
		fprintf(f, "  load-balance pulls task_hot() would call hot: %llu of %llu",
			(unsigned long long)s->lb_hot, (unsigned long long)s->lb_judged);
	if (s->lb_judged)
		fprintf(f, " (%.1f %%; kernel age = rq_clock_task(src) - se.exec_start%s)",
			pct(s->lb_hot, s->lb_judged),
			r->has_levels ? "; the tests before the age first" : "");
	fprintf(f, "\n");
	render_text_rules(f, r);
	print_wakeup_share(f, r);
	render_text_levels(f, r);

	fprintf(f, "\nrun slices of traced tasks:\n");
	hist_print_log2(f, r->hists.slice, MT_HIST_SLOTS, "usecs");
	/* a replayed run's stamps are the trace's clock, its waits told from the events */
	if (replayed)
		fprintf(f, "\nwakeup-to-run latency of traced tasks (the trace's clock, "
			"sched_wakeup to sched_switch):\n");
	else
		fprintf(f, "\nwakeup-to-run latency of traced tasks (run-queue clock, as "
			"schedstat%s):\n",
			!strcmp(r->meta.wakeup_latency_from, "sched_info.last_queued") ?
				"; from the kernel's enqueue stamp" :
			!strcmp(r->meta.wakeup_latency_from, "sched_wakeup") ?
				"; from sched_wakeup" : "");
	hist_print_log2(f, r->hists.wakelat, MT_HIST_SLOTS, "usecs");
	if (hist_any(r->hists.runwait, MT_HIST_SLOTS)) {
		fprintf(f, "\nrunnable waits of traced tasks, ended by a run (%s):\n", replayed ?
			"the trace's clock, from each wake-up or preempted switch-out" :
			"run-queue clock, from the kernel's enqueue stamp: wake-ups and "
			"preempted requeues");
		hist_print_log2(f, r->hists.runwait, MT_HIST_SLOTS, "usecs");
		fprintf(f, "  and %llu waits cut short by a load-balancer pull\n",
			(unsigned long long)hist_count(r->hists.runwait_pulled, MT_HIST_SLOTS));
	}

	if (replayed) {
		fprintf(f, "\ndata quality: %llu events replayed, %llu out of order (dropped), "
			"%s%llu lost by the trace's buffers; %llu migrations of tasks never seen "
			"switching out (age not known)\n",
			(unsigned long long)r->meta.backend.events,
			(unsigned long long)r->meta.backend.out_of_order,
			/* the live rings count their overruns; a capture shows only a gap */
			r->meta.backend.lost_events && !strcmp(r->meta.backend.name, "trace-cmd") ?
				"at least " : "",
			(unsigned long long)r->meta.backend.lost_events,
			(unsigned long long)r->meta.backend.unknown_age);
		render_text_missing(f, r, "  ");
		if (r->meta.backend.lost_events)
			fprintf(f, "  the trace's buffers lost events (a full ring overwritten, or "
				"full and dropping; a gap of unknown size counts 1): moves and "
				"switches among them are missing, and a move found where its task "
				"next ran is counted as unseen; a larger buffer keeps them\n");
	} else if (r->records_off)
		fprintf(f, "\ndata quality: no migration records were sent (-a or --cgroup without "
			"-o): every count, histogram and CPU pair above is the kernel's, complete; "
			"what needs the records (-o, --csv, --perfetto, --what-if) sends them\n");
	else
		fprintf(f, "\ndata quality: %llu migration records, %llu lost (%.2f %%), ring "
			"buffer %s\n", (unsigned long long)(s->rb_records + lost),
			(unsigned long long)lost, pct(lost, s->rb_records + lost),
			fmt_bytes(a, sizeof(a), r->meta.ringbuf_bytes));
	if (r->recs_not_kept || r->units_not_kept)
		fprintf(f, "  kept the first %llu of each kind: %llu migration and %llu unit "
			"records were counted, not kept (--max-records)\n",
			(unsigned long long)r->setup.max_records,
			(unsigned long long)r->recs_not_kept,
			(unsigned long long)r->units_not_kept);
	if (replayed)
		fprintf(f, "completeness: the kernel's count (se.nr_migrations) is not read from "
			"events; migtrace saw %llu (%llu with no sched_migrate_task event, found "
			"where the task next ran)\n", (unsigned long long)sum->kernel_counted,
			(unsigned long long)s->migrations[MT_CAUSE_UNSEEN]);
	else
		fprintf(f, "completeness: the kernel counted %llu migrations of the traced tasks "
			"while traced (se.nr_migrations, up to each task's last run); migtrace saw "
			"%llu (%llu with no sched_migrate_task event, found where the task next "
			"ran); difference %lld\n", (unsigned long long)s->kernel_migrations,
			(unsigned long long)sum->kernel_counted,
			(unsigned long long)s->migrations[MT_CAUSE_UNSEEN],
			(long long)sum->completeness_gap);
	if (s->storage_busy)
		fprintf(f, "  %llu events of traced tasks found their task storage busy (nested "
			"in another program on that CPU) and were not handled; a move among them "
			"is counted as unseen\n",
			(unsigned long long)s->storage_busy);
	if (s->switch_ins_untraced)
		fprintf(f, "  %llu switch-ins of traced tasks fired no event (the kernel traced "
			"nothing in the context of the task they followed%s); each was accounted "
			"at the task's next switch-out\n",
			(unsigned long long)s->switch_ins_untraced,
			replayed ? ", or the events were lost" : "");
	/* a capture read afterwards cost nothing to trace, as far as migtrace knows */
	if (strcmp(r->meta.backend.name, "trace-cmd"))
		print_cost(f, &r->cost, !replayed);
}

void render_text_results(FILE *f, const struct run *r)
{
	print_summary(f, r);
	render_text_llc_pref(f, r);
	if (r->has_corr)
		render_text_correlation(f, r);
	if (r->has_verdict)
		render_text_verdict(f, r);
	render_text_probe(f, r);
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

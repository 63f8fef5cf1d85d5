// SPDX-License-Identifier: GPL-2.0
/*
 * The summary of a `migtrace run` and its run file.  Counts come from the in-kernel
 * aggregates (complete even when records were lost); per-record facts (ages of wakeup
 * placements, per-pid counts) come from the records, and say so when some were lost.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "run.h"
#include "units.h"

const char *const mt_cause_names[MT_NR_CAUSES] = {
	"wakeup", "lb_pull", "active_balance", "affinity", "fork", "exec", "unknown", "unseen",
};

const char *const mt_cause_titles[MT_NR_CAUSES] = {
	"wakeup placement", "load-balance pull", "active balance", "affinity change",
	"fork placement", "exec balance", "unknown", "unseen (no event)",
};

const char *const mt_state_names[4] = { "running", "queued", "waking", "new" };

/* Makes room for one more element of size elem in *buf (capacity *cap, n in use). */
static int grow(void **buf, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n == *cap) {
		size_t c = *cap ? *cap * 2 : first;
		void *p = realloc(*buf, c * elem);

		if (!p)
			return -ENOMEM;
		*buf = p;
		*cap = c;
	}
	return 0;
}

/* Appends one record of size bytes, or past max_kept (0: no limit) only counts it. */
static int keep(void **buf, size_t *cap, size_t *n, uint64_t *not_kept, size_t max_kept,
		const void *rec, size_t size, size_t first)
{
	if (max_kept && *n >= max_kept) {
		(*not_kept)++;
		return 0;
	}
	if (grow(buf, cap, *n, size, first))
		return -ENOMEM;
	memcpy((char *)*buf + *n * size, rec, size);
	(*n)++;
	return 0;
}

int run_record_add(struct run_record *r, const struct mt_migrate *m)
{
	return keep((void **)&r->recs, &r->cap, &r->nrecs, &r->recs_not_kept, r->max_kept, m,
		    sizeof(*m), 1024);
}

int run_record_add_unit(struct run_record *r, const struct mt_unit *u)
{
	return keep((void **)&r->units, &r->ucap, &r->nunits, &r->units_not_kept, r->max_kept,
		    u, sizeof(*u), 4096);
}

void run_record_free(struct run_record *r)
{
	free(r->units);
	r->units = NULL;
	r->nunits = r->ucap = 0;
	free(r->recs);
	free(r->pairs);
	r->recs = NULL;
	r->pairs = NULL;
	r->nrecs = r->cap = 0;
}

uint64_t run_total_migrations(const struct run_record *r)
{
	uint64_t t = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		t += r->stats.migrations[c];
	return t;
}

uint64_t run_kernel_counted(const struct run_record *r)
{
	/* wake_up_new_task() places a new task with __set_task_cpu(): the kernel does not
	 * count a fork placement in se.nr_migrations */
	return run_total_migrations(r) - r->stats.migrations[MT_CAUSE_FORK];
}

int64_t run_completeness_gap(const struct run_record *r)
{
	return (int64_t)r->stats.kernel_migrations - (int64_t)run_kernel_counted(r);
}

static void print_pairs(FILE *f, const struct run_record *r)
{
	int n = r->nr_cpus, lo = n, hi = -1;
	char buf[16];

	/* Only the CPUs that appear, so a 2-CPU workload on a 64-CPU box stays readable. */
	for (int i = 0; i < n * n; i++) {
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
	fprintf(f, "; peak RSS %s\n", fmt_bytes(a, sizeof(a), (uint64_t)c->self_max_rss_kib * 1024));
	if (!c->bpf_stats) {
		fprintf(f, "  (per-program BPF cost: run with sysctl kernel.bpf_stats_enabled=1)\n");
		return;
	}
	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].run_cnt)
			fprintf(f, "  %-18s %10llu runs, %7.1f ns each (bpf_stats)\n",
				c->progs[i].name, (unsigned long long)c->progs[i].run_cnt,
				(double)c->progs[i].run_time_ns / (double)c->progs[i].run_cnt);
}

void run_print_summary(FILE *f, const struct run_record *r)
{
	const struct mt_stats *s = &r->stats;
	__u64 all_age[MT_HIST_SLOTS] = { 0 };
	uint64_t total = run_total_migrations(r);
	uint64_t wake_young = 0, wake_seen = 0, lost = s->rb_dropped;
	char a[32], b[32];

	fprintf(f, "\n%s: %s after %.2f s\n", r->command, r->end_reason, r->duration_s);
	fprintf(f, "migrations: %llu (%llu traced tasks)\n", (unsigned long long)total,
		(unsigned long long)s->tracked_tasks);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, "  %-18s %8llu  %5.1f %%\n", mt_cause_titles[c],
			(unsigned long long)s->migrations[c],
			total ? 100.0 * (double)s->migrations[c] / (double)total : 0.0);
	fprintf(f, "  (%llu sched_migrate_task events with src == dst were not migrations)\n",
		(unsigned long long)s->same_cpu);
	print_pairs(f, r);

	for (int c = 0; c < MT_NR_CAUSES; c++)
		for (int k = 0; k < MT_HIST_SLOTS; k++)
			all_age[k] += r->hists.age[c][k];
	fprintf(f, "\nage at migration, all causes (since the last switch-out on src; 0 for a "
		"running task):\n");
	hist_print_log2(f, all_age, MT_HIST_SLOTS, "usecs");

	fprintf(f, "\nthe kernel's judgement at %s (%s):\n", fmt_ns(a, sizeof(a), (double)r->hot_ns),
		r->hot_source);
	fprintf(f, "  load-balance pulls task_hot() would call hot: %llu of %llu",
		(unsigned long long)s->lb_hot, (unsigned long long)s->lb_judged);
	if (s->lb_judged)
		fprintf(f, " (%.1f %%; kernel age = rq_clock_task(src) - se.exec_start)",
			100.0 * (double)s->lb_hot / (double)s->lb_judged);
	fprintf(f, "\n");
	for (size_t i = 0; i < r->nrecs; i++) {
		if (r->recs[i].cause != MT_CAUSE_WAKEUP)
			continue;
		wake_seen++;
		wake_young += (int64_t)r->recs[i].age_ns < r->hot_ns;
	}
	fprintf(f, "  wakeup placements (task_hot() is never asked): %llu, of which %llu "
		"(%.1f %%) younger than %s%s\n", (unsigned long long)s->migrations[MT_CAUSE_WAKEUP],
		(unsigned long long)wake_young,
		wake_seen ? 100.0 * (double)wake_young / (double)wake_seen : 0.0,
		fmt_ns(b, sizeof(b), (double)r->hot_ns), lost || r->recs_not_kept ? " (of the records kept)" : "");

	fprintf(f, "\nrun slices of traced tasks:\n");
	hist_print_log2(f, r->hists.slice, MT_HIST_SLOTS, "usecs");
	fprintf(f, "\nwakeup-to-run latency of traced tasks (run-queue clock, as schedstat):\n");
	hist_print_log2(f, r->hists.wakelat, MT_HIST_SLOTS, "usecs");

	fprintf(f, "\ndata quality: %llu migration records, %llu lost (%.2f %%), ring buffer %s\n",
		(unsigned long long)(s->rb_records + lost), (unsigned long long)lost,
		s->rb_records + lost ? 100.0 * (double)lost / (double)(s->rb_records + lost) : 0.0,
		fmt_bytes(a, sizeof(a), r->ringbuf_bytes));
	if (r->recs_not_kept || r->units_not_kept)
		fprintf(f, "  kept the first %zu of each kind: %llu migration and %llu unit records "
			"were counted, not kept (--max-records)\n", r->max_kept,
			(unsigned long long)r->recs_not_kept, (unsigned long long)r->units_not_kept);
	fprintf(f, "completeness: the kernel counted %llu migrations of the traced tasks while "
		"traced (se.nr_migrations, up to each task's last run); migtrace saw %llu (%llu "
		"with no sched_migrate_task event, found where the task next ran); difference "
		"%lld\n", (unsigned long long)s->kernel_migrations,
		(unsigned long long)run_kernel_counted(r),
		(unsigned long long)s->migrations[MT_CAUSE_UNSEEN], (long long)run_completeness_gap(r));
	if (s->storage_busy)
		fprintf(f, "  %llu events of traced tasks found their task storage busy (an "
			"interrupt nested in a uprobe program on that CPU) and were not seen: "
			"the moves among them are the unseen ones\n",
			(unsigned long long)s->storage_busy);
	print_cost(f, &r->cost);
}

static struct json_object *hist_json(const __u64 *slots)
{
	struct json_object *a = json_object_new_array();

	for (int k = 0; k < MT_HIST_SLOTS; k++)
		json_object_array_add(a, json_object_new_int64((int64_t)slots[k]));
	return a;
}

#define JADD(o, k, v) json_object_object_add((o), (k), (v))
#define JI(v) json_object_new_int64((int64_t)(v))

static struct json_object *cost_json(const struct run_cost *c)
{
	struct json_object *o = json_object_new_object(), *progs = json_object_new_object();

	JADD(o, "self_user_s", json_object_new_double(c->self_user_s));
	JADD(o, "self_sys_s", json_object_new_double(c->self_sys_s));
	JADD(o, "self_startup_s", json_object_new_double(c->self_startup_s));
	JADD(o, "self_max_rss_kib", JI(c->self_max_rss_kib));
	JADD(o, "workload_cpu_s", c->workload_cpu_s < 0 ? NULL :
				   json_object_new_double(c->workload_cpu_s));
	JADD(o, "bpf_stats_enabled", json_object_new_boolean(c->bpf_stats));
	for (int i = 0; i < c->nprogs; i++) {
		struct json_object *p = json_object_new_object();

		JADD(p, "run_cnt", JI(c->progs[i].run_cnt));
		JADD(p, "run_time_ns", JI(c->progs[i].run_time_ns));
		JADD(p, "recursion_misses", JI(c->progs[i].recursion_misses));
		JADD(progs, c->progs[i].name, p);
	}
	JADD(o, "programs", progs);
	return o;
}

struct json_object *run_to_json(const struct run_record *r)
{
	struct json_object *o = json_object_new_object(), *meta, *stats, *causes, *completeness, *hists, *ages;
	struct json_object *pairs, *cpus, *clocks;
	const struct mt_stats *s = &r->stats;

	if (!o)
		return NULL;
	JADD(o, "schema", json_object_new_string("migtrace.run/1"));
	meta = json_object_new_object();
	JADD(meta, "command", json_object_new_string(r->command));
	JADD(meta, "pid", JI(r->pid));
	JADD(meta, "attached", json_object_new_boolean(r->attached));
	cpus = json_object_new_array();
	for (int i = 0; i < r->cpus.n; i++)
		json_object_array_add(cpus, JI(r->cpus.cpu[i]));
	JADD(meta, "cpus", cpus);
	JADD(meta, "hot_ns", JI(r->hot_ns));
	JADD(meta, "hot_source", json_object_new_string(r->hot_source));
	JADD(meta, "duration_s", json_object_new_double(r->duration_s));
	JADD(meta, "exit_status", JI(r->exit_status));
	JADD(meta, "end_reason", json_object_new_string(r->end_reason));
	JADD(meta, "interrupted", json_object_new_boolean(r->interrupted));
	JADD(meta, "ringbuf_bytes", JI(r->ringbuf_bytes));
	clocks = json_object_new_object();
	JADD(clocks, "ts_ns", json_object_new_string("CLOCK_MONOTONIC (bpf_ktime_get_ns)"));
	JADD(clocks, "age_ns", json_object_new_string("CLOCK_MONOTONIC (bpf_ktime_get_ns)"));
	JADD(clocks, "kernel_age_ns", json_object_new_string("rq_clock_task of the source CPU"));
	JADD(meta, "clocks", clocks);
	JADD(o, "meta", meta);

	stats = json_object_new_object();
	causes = json_object_new_object();
	for (int c = 0; c < MT_NR_CAUSES; c++)
		JADD(causes, mt_cause_names[c], JI(s->migrations[c]));
	JADD(stats, "migrations", JI(run_total_migrations(r)));
	JADD(stats, "by_cause", causes);
	JADD(stats, "same_cpu_events", JI(s->same_cpu));
	JADD(stats, "records", JI(s->rb_records));
	JADD(stats, "records_lost", JI(s->rb_dropped));
	JADD(stats, "records_read", JI(r->nrecs));
	JADD(stats, "records_not_kept", JI(r->recs_not_kept));
	JADD(stats, "lb_judged", JI(s->lb_judged));
	JADD(stats, "lb_hot", JI(s->lb_hot));
	JADD(stats, "switches_in", JI(s->switches_in));
	JADD(stats, "traced_tasks", JI(s->tracked_tasks));
	completeness = json_object_new_object();
	JADD(completeness, "kernel_counted", JI(s->kernel_migrations));
	JADD(completeness, "seen", JI(run_kernel_counted(r)));
	JADD(completeness, "unseen_found", JI(s->migrations[MT_CAUSE_UNSEEN]));
	JADD(completeness, "difference", JI(run_completeness_gap(r)));
	JADD(completeness, "storage_busy_events", JI(s->storage_busy));
	JADD(completeness, "source", json_object_new_string(
		"se.nr_migrations at each switch-in of a traced task, against the migrations "
		"recorded less fork placements"));
	JADD(stats, "completeness", completeness);
	JADD(o, "stats", stats);
	JADD(o, "cost", cost_json(&r->cost));

	hists = json_object_new_object();
	JADD(hists, "unit", json_object_new_string("log2 µs: slot k = [2^k, 2^(k+1)) µs, "
						   "slot 0 = [0, 2) µs"));
	ages = json_object_new_object();
	for (int c = 0; c < MT_NR_CAUSES; c++)
		JADD(ages, mt_cause_names[c], hist_json(r->hists.age[c]));
	JADD(hists, "age", ages);
	JADD(hists, "kernel_age_lb_pull", hist_json(r->hists.kernel_age));
	JADD(hists, "run_slice", hist_json(r->hists.slice));
	JADD(hists, "wakeup_latency", hist_json(r->hists.wakelat));
	JADD(o, "histograms", hists);

	pairs = json_object_new_array();
	for (int i = 0; r->pairs && i < r->nr_cpus * r->nr_cpus; i++) {
		struct json_object *p;

		if (!r->pairs[i])
			continue;
		p = json_object_new_object();
		JADD(p, "src", JI(i / r->nr_cpus));
		JADD(p, "dst", JI(i % r->nr_cpus));
		JADD(p, "count", JI(r->pairs[i]));
		json_object_array_add(pairs, p);
	}
	JADD(o, "cpu_pairs", pairs);

	if (r->unit_spec[0] || r->nunits) {
		JADD(meta, "unit", json_object_new_string(r->unit_spec));
		JADD(stats, "units", JI(s->units));
		JADD(stats, "units_lost", JI(s->units_dropped));
		JADD(stats, "units_not_kept", JI(r->units_not_kept));
	}
	return o;
}

static struct json_object *migrate_json(const struct mt_migrate *m)
{
	struct json_object *j = json_object_new_object();

	JADD(j, "ts_ns", JI(m->ts_ns));
	JADD(j, "pid", JI(m->pid));
	JADD(j, "tgid", JI(m->tgid));
	JADD(j, "comm", json_object_new_string_len(m->comm, strnlen(m->comm, MT_COMM_LEN)));
	JADD(j, "src_cpu", JI(m->src_cpu));
	JADD(j, "dst_cpu", JI(m->dst_cpu));
	JADD(j, "cause", json_object_new_string(m->cause < MT_NR_CAUSES ?
						mt_cause_names[m->cause] : "unknown"));
	JADD(j, "state", json_object_new_string(m->state < 4 ? mt_state_names[m->state] :
						"unknown"));
	JADD(j, "on_rq", JI(m->on_rq));
	JADD(j, "age_ns", JI(m->age_ns));
	JADD(j, "off_cpu_ns", JI(m->off_cpu_ns));
	JADD(j, "kernel_age_ns", m->flags & MT_RF_KAGE_VALID ? JI(m->kernel_age_ns) : NULL);
	JADD(j, "runtime_since_migration_ns", JI(m->runtime_since_mig_ns));
	JADD(j, "by_pid", JI(m->cur_pid));
	JADD(j, "by_comm", json_object_new_string_len(m->cur_comm,
						       strnlen(m->cur_comm, MT_COMM_LEN)));
	return j;
}

static struct json_object *unit_json(const struct mt_unit *u)
{
	struct json_object *j = json_object_new_object();

	JADD(j, "pid", JI(u->pid));
	JADD(j, "tgid", JI(u->tgid));
	JADD(j, "cpu_start", JI(u->cpu_start));
	JADD(j, "cpu_end", JI(u->cpu_end));
	JADD(j, "start_ns", JI(u->start_ns));
	JADD(j, "end_ns", JI(u->end_ns));
	JADD(j, "prev_end_ns", JI(u->prev_end_ns));
	JADD(j, "tag", JI(u->tag));
	JADD(j, "nominal_age_ns", JI(u->nominal_age_ns));
	JADD(j, "migs_before", JI(u->migs_before));
	JADD(j, "switches_before", JI(u->switches_before));
	JADD(j, "migs_during", JI(u->migs_during));
	JADD(j, "switches_during", JI(u->switches_during));
	JADD(j, "last_off_ns", JI(u->last_off_ns));
	if (u->migs_before) {
		JADD(j, "mig_age_ns", JI(u->mig_age_ns));
		JADD(j, "mig_src_cpu", JI(u->mig_src_cpu));
		JADD(j, "mig_dst_cpu", JI(u->mig_dst_cpu));
		JADD(j, "mig_cause", json_object_new_string(u->mig_cause < MT_NR_CAUSES ?
				mt_cause_names[u->mig_cause] : "unknown"));
	}
	return j;
}

/* One record: a small tree, printed and freed at once. */
static int put_record(FILE *f, struct json_object *j, bool first)
{
	if (!j)
		return -ENOMEM;
	fprintf(f, "%s%s", first ? "" : ",",
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return 0;
}

int run_write_json(FILE *f, const struct run_record *r, struct json_object *o)
{
	const char *head = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	size_t len = strlen(head);
	int err = 0;

	/* The tree without its closing brace, then the arrays, then the brace. */
	if (len < 2 || head[len - 1] != '}')
		return -EINVAL;
	fwrite(head, 1, len - 1, f);
	fprintf(f, "%s\"migrations\":[", len > 2 ? "," : "");
	for (size_t i = 0; i < r->nrecs && !err; i++)
		err = put_record(f, migrate_json(&r->recs[i]), i == 0);
	fprintf(f, "]");
	if (r->unit_spec[0] || r->nunits) {
		fprintf(f, ",\"units\":[");
		for (size_t i = 0; i < r->nunits && !err; i++)
			err = put_record(f, unit_json(&r->units[i]), i == 0);
		fprintf(f, "]");
	}
	fprintf(f, "}");
	return err;
}

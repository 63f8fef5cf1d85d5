// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto export: Chrome trace-event JSON, which ui.perfetto.dev (and chrome://tracing)
 * opens.  One track per traced thread (process tgid, thread pid, as the kernel numbers them)
 * with each unit as a slice and each migration as an instant carrying its source,
 * destination, age and cause; one track per CPU, under a process named "CPUs", with the
 * units that ran there whole (no switch or migration inside: such units cannot overlap on a
 * CPU, so the slices nest as the format requires) and each migration arriving there.
 * Times are CLOCK_MONOTONIC, as in the run file, in µs with ns digits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "render_export.h"
#include "render_perfetto.h"
#include "unit.h"

/* The CPU tracks' process and threads: above PID_MAX_LIMIT (2^22), so no task has them. */
#define CPU_PID (1 << 22)
#define CPU_TID(cpu) (CPU_PID + 1 + (cpu))

static void meta_event(struct json_writer *w, const char *what, long pid, long tid,
		       const char *name, int sort)
{
	jw_start_object(w);
	jw_field_string(w, "ph", "M");
	jw_field_string(w, "name", what);
	jw_field_s64(w, "pid", pid);
	jw_field_s64(w, "tid", tid);
	jw_name(w, "args");
	jw_start_object(w);
	if (name)
		jw_field_string(w, "name", name);
	else
		jw_field_s64(w, "sort_index", sort);
	jw_end_object(w);
	jw_end_object(w);
}

static void event_head(struct json_writer *w, const char *ph, const char *name,
		       const char *cat, long pid, long tid, uint64_t ts_ns)
{
	jw_start_object(w);
	jw_field_string(w, "ph", ph);
	jw_field_string(w, "name", name);
	jw_field_string(w, "cat", cat);
	jw_field_s64(w, "pid", pid);
	jw_field_s64(w, "tid", tid);
	jw_field_double(w, "ts", (double)ts_ns / 1e3);
}

void render_perfetto_thread_name(const struct run *r, uint32_t pid, char *buf, size_t len)
{
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].pid == pid) {
			snprintf(buf, len, "%.*s %u", MT_COMM_LEN, r->recs[i].comm, pid);
			return;
		}
	snprintf(buf, len, "thread %u", pid);
}

static int cmp_track(const void *a, const void *b)
{
	const struct perfetto_thread *x = a, *y = b;

	return x->tgid != y->tgid ? (x->tgid > y->tgid) - (x->tgid < y->tgid) :
	       (x->pid > y->pid) - (x->pid < y->pid);
}

struct perfetto_thread *render_perfetto_threads(const struct run *r, size_t *n)
{
	struct perfetto_thread *t = malloc((r->nrecs + r->nunits + 1) * sizeof(*t));
	size_t k = 0, m = 0;

	*n = 0;
	if (!t)
		return NULL;
	for (size_t i = 0; i < r->nrecs; i++)
		t[k++] = (struct perfetto_thread){ r->recs[i].pid, r->recs[i].tgid };
	for (size_t i = 0; i < r->nunits; i++)
		t[k++] = (struct perfetto_thread){ r->units[i].pid, r->units[i].tgid };
	qsort(t, k, sizeof(*t), cmp_track);
	for (size_t i = 0; i < k; i++)
		if (!m || cmp_track(&t[m - 1], &t[i]))
			t[m++] = t[i];
	*n = m;
	return t;
}

static void tracks(struct json_writer *w, const struct run *r, const struct perfetto_thread *t,
		   size_t n, const bool *cpu_seen)
{
	char name[64];

	for (size_t i = 0; i < n; i++) {
		if (!i || t[i].tgid != t[i - 1].tgid) {
			if ((int)t[i].tgid == r->meta.pid)
				meta_event(w, "process_name", t[i].tgid, t[i].tgid,
					   render_workload_name(r, name, sizeof(name)), 0);
			else {
				snprintf(name, sizeof(name), "process %u", t[i].tgid);
				meta_event(w, "process_name", t[i].tgid, t[i].tgid, name, 0);
			}
		}
		render_perfetto_thread_name(r, t[i].pid, name, sizeof(name));
		meta_event(w, "thread_name", t[i].tgid, t[i].pid, name, 0);
	}
	meta_event(w, "process_name", CPU_PID, CPU_PID, "CPUs", 0);
	for (int c = 0; c < RUN_MAX_NR_CPUS; c++) {
		if (!cpu_seen[c])
			continue;
		snprintf(name, sizeof(name), "CPU %d", c);
		meta_event(w, "thread_name", CPU_PID, CPU_TID(c), name, 0);
		meta_event(w, "thread_sort_index", CPU_PID, CPU_TID(c), NULL, c);
	}
}

static void unit_event(struct json_writer *w, const struct mt_unit *u, bool on_cpu)
{
	char name[48];

	snprintf(name, sizeof(name), on_cpu ? "unit %u" : "unit", u->pid);
	event_head(w, "X", name, "unit", on_cpu ? CPU_PID : (long)u->tgid,
		   on_cpu ? CPU_TID(u->cpu_start) : (long)u->pid, u->start_ns);
	jw_field_double(w, "dur", (double)(u->end_ns - u->start_ns) / 1e3);
	jw_name(w, "args");
	jw_start_object(w);
	jw_field_u64(w, "duration_ns", u->end_ns - u->start_ns);
	jw_field_s64(w, "cpu_start", u->cpu_start);
	jw_field_s64(w, "cpu_end", u->cpu_end);
	jw_field_u64(w, "tag", u->tag);
	jw_field_u64(w, "migs_before", u->migs_before);
	jw_field_u64(w, "switches_during", u->switches_during);
	if (unit_migrated(u)) {
		jw_field_u64(w, "mig_age_ns", u->mig_age_ns);
		jw_field_string(w, "mig_cause", u->mig_cause < MT_NR_CAUSES ?
				mt_cause_names[u->mig_cause] : "?");
	}
	jw_end_object(w);
	jw_end_object(w);
}

static void migration_event(struct json_writer *w, const struct mt_migrate *m, bool on_cpu)
{
	const char *cause = m->cause < MT_NR_CAUSES ? mt_cause_names[m->cause] : "?";
	char name[64];

	if (on_cpu)
		snprintf(name, sizeof(name), "in: %u from CPU %u (%s)", m->pid, m->src_cpu, cause);
	else
		snprintf(name, sizeof(name), "migration CPU %u -> %u (%s)", m->src_cpu, m->dst_cpu,
			 cause);
	event_head(w, "i", name, "migration", on_cpu ? CPU_PID : (long)m->tgid,
		   on_cpu ? CPU_TID(m->dst_cpu) : (long)m->pid, m->ts_ns);
	jw_field_string(w, "s", "t");
	jw_name(w, "args");
	jw_start_object(w);
	jw_field_s64(w, "src_cpu", m->src_cpu);
	jw_field_s64(w, "dst_cpu", m->dst_cpu);
	jw_field_u64(w, "age_ns", m->age_ns);
	jw_field_string(w, "cause", cause);
	if (m->flags & MT_RF_KAGE_VALID)
		jw_field_s64(w, "kernel_age_ns", m->kernel_age_ns);
	jw_field_u64(w, "pid", m->pid);
	jw_end_object(w);
	jw_end_object(w);
}

/* A unit that ran whole on one CPU: its slice goes on that CPU's track too. */
static bool whole_on_cpu(const struct mt_unit *u)
{
	return unit_clean_inside(u) && u->cpu_start == u->cpu_end &&
	       u->cpu_start < RUN_MAX_NR_CPUS;
}

int render_perfetto(FILE *f, const struct run *r)
{
	bool *cpu_seen = calloc(RUN_MAX_NR_CPUS, sizeof(bool));
	struct json_writer w;
	char name[OM_WORKLOAD_MAX + 1];
	struct perfetto_thread *t;
	size_t nt;
	int err = 0;

	t = render_perfetto_threads(r, &nt);
	jw_init(&w, f);
	if (!cpu_seen || !t) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].dst_cpu < RUN_MAX_NR_CPUS && r->recs[i].src_cpu < RUN_MAX_NR_CPUS)
			cpu_seen[r->recs[i].dst_cpu] = cpu_seen[r->recs[i].src_cpu] = true;
	for (size_t i = 0; i < r->nunits; i++)
		if (whole_on_cpu(&r->units[i]))
			cpu_seen[r->units[i].cpu_start] = true;
	jw_start_object_lines(&w);
	jw_field_string(&w, "displayTimeUnit", "ns");
	jw_name(&w, "otherData");
	jw_start_object(&w);
	jw_field_string(&w, "source", "migtrace (schema " RUN_SCHEMA ")");
	/* the program's name, not its arguments: a trace is a file that gets shared */
	jw_field_string(&w, "workload", render_workload_name(r, name, sizeof(name)));
	jw_field_string(&w, "start_time", r->meta.start_time);
	jw_field_string(&w, "clock", "CLOCK_MONOTONIC, us");
	jw_end_object(&w);
	jw_name(&w, "traceEvents");
	jw_start_array_lines(&w);
	tracks(&w, r, t, nt, cpu_seen);
	for (size_t i = 0; i < r->nunits; i++) {
		unit_event(&w, &r->units[i], false);
		if (whole_on_cpu(&r->units[i]))
			unit_event(&w, &r->units[i], true);
	}
	for (size_t i = 0; i < r->nrecs; i++) {
		migration_event(&w, &r->recs[i], false);
		if (r->recs[i].dst_cpu < RUN_MAX_NR_CPUS)
			migration_event(&w, &r->recs[i], true);
	}
	jw_end_array(&w);
	jw_end_object(&w);
	err = jw_finish(&w);
out:
	free(cpu_seen);
	free(t);
	return err;
}

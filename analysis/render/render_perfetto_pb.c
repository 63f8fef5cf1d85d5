// SPDX-License-Identifier: GPL-2.0
/*
 * The native Perfetto export (`--perfetto FILE.pftrace`): a protobuf Trace, encoded with
 * protobuf-c from perfetto_trace.proto, the part of Perfetto's format migtrace writes, which
 * ui.perfetto.dev and trace_processor read without a JSON importer in between:
 *   - a process track per traced process, a thread track under it per thread (its comm);
 *   - on each thread track, its units as slices and its migrations as instants whose debug
 *     annotations carry source and destination CPU, cause, topology level, age, the kernel's
 *     age, whether task_hot() called it hot at the run's threshold and, where a unit
 *     followed it, its refill: that unit less its thread's warm baseline (refill_ns);
 *   - a track per CPU with the migrations arriving there;
 *   - counter tracks: migrations per second and, of the judged load-balancer pulls, the
 *     share task_hot() called hot, in bins over the run.
 * Each TracePacket is written as it is made, as field 1 of Trace (the file is the
 * concatenation), on one packet sequence.  Times are the records' CLOCK_MONOTONIC ns.
 *   - when the run recorded them (`run --perfetto FILE.pftrace`, the run file's switches
 *     and wakings), the context switches with a traced task on a side and the traced
 *     tasks' wakings, as ftrace sched_switch and sched_waking events in per-CPU bundles:
 *     Perfetto's sched table, its per-CPU "what ran" tracks and the threads' states.  Without
 *     them the CPU tracks hold what migtrace saw arrive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "perfetto_trace.pb-c.h"
#include "stats.h"
#include "render_export.h"
#include "render_perfetto.h"
#include "unit.h"

#define SEQ_ID 1
#define SEQ_INCREMENTAL_STATE_CLEARED 1
/* track uuids: a process is its tgid, a thread, a CPU and the counters live above 2^32 */
#define THREAD_UUID(pid) ((1ULL << 32) | (pid))
#define CPU_UUID(cpu) ((2ULL << 32) | (cpu))
#define RATE_UUID (3ULL << 32)
#define HOT_UUID ((3ULL << 32) | 1)
#define COUNTER_BINS 2000		/* at most, over the run */
#define COUNTER_MIN_BIN_NS 100000000ULL	/* 100 ms */
#define MAX_ANNOTATIONS 10
#define SWITCH_BUNDLE 1024	/* sched_switch and sched_waking events a packet, at most */

typedef Perfetto__Protos__TracePacket Packet;
typedef Perfetto__Protos__TrackEvent Event;
typedef Perfetto__Protos__TrackDescriptor Track;
typedef Perfetto__Protos__DebugAnnotation Annotation;

struct pb_writer {
	FILE *f;
	uint8_t *buf;
	size_t cap;
	bool first;
	int err;
};

/* Packet p, as field 1 (length-delimited) of the Trace the file is. */
static void put(struct pb_writer *w, Packet *p)
{
	size_t len, n = 0;
	uint8_t head[11];

	if (w->err)
		return;
	p->has_trusted_packet_sequence_id = 1;
	p->trusted_packet_sequence_id = SEQ_ID;
	if (w->first) {
		p->has_sequence_flags = 1;
		p->sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED;
		w->first = false;
	}
	len = perfetto__protos__trace_packet__get_packed_size(p);
	if (len > w->cap) {
		uint8_t *b = realloc(w->buf, len);

		if (!b) {
			w->err = -ENOMEM;
			return;
		}
		w->buf = b;
		w->cap = len;
	}
	perfetto__protos__trace_packet__pack(p, w->buf);
	head[n++] = 0x0a;	/* field 1, wire type 2 */
	for (size_t v = len; ; v >>= 7) {
		head[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		if (v < 0x80)
			break;
	}
	if (fwrite(head, 1, n, w->f) != n || fwrite(w->buf, 1, len, w->f) != len)
		w->err = -EIO;
}

static void put_track(struct pb_writer *w, Track *t)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.track_descriptor = t;
	put(w, &p);
}

static void put_event(struct pb_writer *w, uint64_t ts_ns, Event *e)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.has_timestamp = 1;
	p.timestamp = ts_ns;
	p.track_event = e;
	put(w, &p);
}

/* Annotations of one event, kept in arrays of their own (no allocation). */
struct notes {
	Annotation a[MAX_ANNOTATIONS];
	Annotation *p[MAX_ANNOTATIONS];
	Annotation spare;	/* one past MAX_ANNOTATIONS is filled here and left out */
	size_t n;
};

static Annotation *note(struct notes *n, const char *name)
{
	Annotation *a = n->n < MAX_ANNOTATIONS ? &n->a[n->n] : &n->spare;

	*a = (Annotation)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	a->name = (char *)name;
	if (n->n < MAX_ANNOTATIONS)
		n->p[n->n++] = a;
	return a;
}

static void note_uint(struct notes *n, const char *name, uint64_t v)
{
	Annotation *a = note(n, name);

	a->has_uint_value = 1;
	a->uint_value = v;
}

static void note_int(struct notes *n, const char *name, int64_t v)
{
	Annotation *a = note(n, name);

	a->has_int_value = 1;
	a->int_value = v;
}

static void note_str(struct notes *n, const char *name, const char *v)
{
	note(n, name)->string_value = (char *)v;
}

static void note_bool(struct notes *n, const char *name, bool v)
{
	Annotation *a = note(n, name);

	a->has_bool_value = 1;
	a->bool_value = v;
}

static void tracks(struct pb_writer *w, const struct run *r, const struct perfetto_thread *t,
		   size_t nt, const bool *cpu_seen)
{
	Perfetto__Protos__ProcessDescriptor pd;
	Perfetto__Protos__ThreadDescriptor td;
	Perfetto__Protos__CounterDescriptor cd;
	char name[64], wl[OM_WORKLOAD_MAX + 1];
	Track tr;

	for (size_t i = 0; i < nt; i++) {
		if (!i || t[i].tgid != t[i - 1].tgid) {
			pd = (Perfetto__Protos__ProcessDescriptor)
				PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
			pd.has_pid = 1;
			pd.pid = (int32_t)t[i].tgid;
			/* the workload's program name, never its arguments (docs/servers.md) */
			if ((int)t[i].tgid == r->meta.pid)
				snprintf(name, sizeof(name), "%s",
					 render_workload_name(r, wl, sizeof(wl)));
			else
				snprintf(name, sizeof(name), "process %u", t[i].tgid);
			pd.process_name = name;
			tr = (Track)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
			tr.has_uuid = 1;
			tr.uuid = t[i].tgid;
			tr.process = &pd;
			put_track(w, &tr);
		}
		td = (Perfetto__Protos__ThreadDescriptor)PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
		td.has_pid = td.has_tid = 1;
		td.pid = (int32_t)t[i].tgid;
		td.tid = (int32_t)t[i].pid;
		render_perfetto_thread_name(r, t[i].pid, name, sizeof(name));
		td.thread_name = name;
		tr = (Track)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		tr.has_uuid = tr.has_parent_uuid = 1;
		tr.uuid = THREAD_UUID(t[i].pid);
		tr.parent_uuid = t[i].tgid;
		tr.thread = &td;
		put_track(w, &tr);
	}
	for (int c = 0; c < RUN_MAX_NR_CPUS; c++) {
		if (!cpu_seen[c])
			continue;
		snprintf(name, sizeof(name), "CPU %d: migrations in", c);
		tr = (Track)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		tr.has_uuid = 1;
		tr.uuid = CPU_UUID(c);
		tr.name = name;
		put_track(w, &tr);
	}
	for (int i = 0; i < 2; i++) {
		cd = (Perfetto__Protos__CounterDescriptor)PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
		cd.has_unit = 1;
		cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
		tr = (Track)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		tr.has_uuid = 1;
		tr.uuid = i ? HOT_UUID : RATE_UUID;
		tr.name = i ? "hot share of the judged pulls" : "migrations per second";
		tr.counter = &cd;
		put_track(w, &tr);
	}
}

/*
 * The refill a migration cost its thread: the unit that follows it (clean inside) less the
 * thread's warm baseline, the median of its warm units (unit.h), as the correlation has it.
 * One per migrated unit, found by thread and the migration's stamp.
 */
struct refill {
	uint32_t pid;
	uint64_t mig_ts_ns;
	int64_t refill_ns;
};

static int by_pid_ts(const void *a, const void *b)
{
	const struct refill *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->mig_ts_ns < y->mig_ts_ns ? -1 : x->mig_ts_ns > y->mig_ts_ns;
}

static int unit_by_pid(const void *a, const void *b)
{
	const struct mt_unit *x = *(const struct mt_unit *const *)a;
	const struct mt_unit *y = *(const struct mt_unit *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The refills of r's migrated units, sorted by (pid, stamp), into *out.  0 or -ENOMEM. */
static int refills_of(const struct run *r, struct refill **out, size_t *nout)
{
	const struct mt_unit **u = malloc((r->nunits ? r->nunits : 1) * sizeof(*u));
	double *warm = malloc((r->nunits ? r->nunits : 1) * sizeof(*warm));
	struct refill *f = malloc((r->nunits ? r->nunits : 1) * sizeof(*f));
	size_t nf = 0;

	*out = NULL;
	*nout = 0;
	if (!u || !warm || !f) {
		free(u);
		free(warm);
		free(f);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->nunits; i++)
		u[i] = &r->units[i];
	qsort(u, r->nunits, sizeof(*u), unit_by_pid);
	for (size_t lo = 0, hi; lo < r->nunits; lo = hi) {
		size_t nw = 0;
		double base;

		for (hi = lo; hi < r->nunits && u[hi]->pid == u[lo]->pid; hi++)
			if (unit_warm(u[hi]))
				warm[nw++] = (double)(u[hi]->end_ns - u[hi]->start_ns);
		if (!nw)
			continue;	/* no warm unit: nothing to measure against */
		base = median_inplace(warm, nw);
		for (size_t i = lo; i < hi; i++)
			if (unit_migrated(u[i]) && unit_clean_inside(u[i]))
				f[nf++] = (struct refill){ u[i]->pid, u[i]->mig_ts_ns,
							   (int64_t)((double)(u[i]->end_ns -
									      u[i]->start_ns) -
								     base) };
	}
	qsort(f, nf, sizeof(*f), by_pid_ts);
	free(u);
	free(warm);
	*out = f;
	*nout = nf;
	return 0;
}

/* The refill after the migration of pid at ts, or NULL. */
static const struct refill *refill_of(const struct refill *f, size_t n, uint32_t pid,
				      uint64_t ts)
{
	struct refill key = { .pid = pid, .mig_ts_ns = ts };

	return n ? bsearch(&key, f, n, sizeof(*f), by_pid_ts) : NULL;
}

static void unit_slice(struct pb_writer *w, const struct mt_unit *u, const struct refill *f,
		       size_t nf)
{
	static char *cats[] = { "unit" };
	Event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	struct notes n = { .n = 0 };

	e.has_type = e.has_track_uuid = 1;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	e.track_uuid = THREAD_UUID(u->pid);
	e.n_categories = 1;
	e.categories = cats;
	e.name = "unit";
	note_uint(&n, "duration_ns", u->end_ns - u->start_ns);
	note_int(&n, "cpu_start", u->cpu_start);
	note_int(&n, "cpu_end", u->cpu_end);
	note_uint(&n, "migs_before", u->migs_before);
	note_uint(&n, "switches_during", u->switches_during);
	if (unit_migrated(u)) {
		const struct refill *rf = refill_of(f, nf, u->pid, u->mig_ts_ns);

		note_uint(&n, "mig_age_ns", u->mig_age_ns);
		note_str(&n, "mig_cause", u->mig_cause < MT_NR_CAUSES ?
			 mt_cause_names[u->mig_cause] : "?");
		if (rf)
			note_int(&n, "refill_ns", rf->refill_ns);
	}
	e.n_debug_annotations = n.n;
	e.debug_annotations = n.p;
	put_event(w, u->start_ns, &e);
	e = (Event)PERFETTO__PROTOS__TRACK_EVENT__INIT;
	e.has_type = e.has_track_uuid = 1;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	e.track_uuid = THREAD_UUID(u->pid);
	put_event(w, u->end_ns, &e);
}

/* A migration: on its thread's track, and (on_cpu) on its destination CPU's. */
static void migration_instant(struct pb_writer *w, const struct run *r,
			      const struct mt_migrate *m, bool on_cpu, const struct refill *f,
			      size_t nf)
{
	const struct refill *rf = refill_of(f, nf, m->pid, m->ts_ns);
	static char *thread_cat[] = { "migration" }, *cpu_cat[] = { "migration_in" };
	const char *cause = m->cause < MT_NR_CAUSES ? mt_cause_names[m->cause] : "?";
	Event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	struct notes n = { .n = 0 };
	char name[64];

	e.has_type = e.has_track_uuid = 1;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	e.track_uuid = on_cpu ? CPU_UUID(m->dst_cpu) : THREAD_UUID(m->pid);
	e.n_categories = 1;
	e.categories = on_cpu ? cpu_cat : thread_cat;
	if (on_cpu)
		snprintf(name, sizeof(name), "in: %u from CPU %u (%s)", m->pid, m->src_cpu, cause);
	else
		snprintf(name, sizeof(name), "migration CPU %u -> %u (%s)", m->src_cpu,
			 m->dst_cpu, cause);
	e.name = name;
	note_uint(&n, "src_cpu", m->src_cpu);
	note_uint(&n, "dst_cpu", m->dst_cpu);
	note_str(&n, "cause", cause);
	note_str(&n, "level", m->level < MT_NR_LEVELS ? mt_level_names[m->level] : "?");
	note_uint(&n, "age_ns", m->age_ns);
	note_uint(&n, "pid", m->pid);
	if (m->flags & MT_RF_KAGE_VALID) {
		note_int(&n, "kernel_age_ns", m->kernel_age_ns);
		/* task_hot()'s age test at the run's threshold (-1: always hot) */
		note_bool(&n, "hot", r->meta.hot_ns < 0 || m->kernel_age_ns < r->meta.hot_ns);
	}
	/* what it cost: the unit after it against its thread's warm ones */
	if (rf)
		note_int(&n, "refill_ns", rf->refill_ns);
	e.n_debug_annotations = n.n;
	e.debug_annotations = n.p;
	put_event(w, m->ts_ns, &e);
}

static void counter(struct pb_writer *w, uint64_t uuid, uint64_t ts_ns, double v)
{
	Event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	e.has_type = e.has_track_uuid = e.has_double_counter_value = 1;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
	e.track_uuid = uuid;
	e.double_counter_value = v;
	put_event(w, ts_ns, &e);
}

/* Migrations per second and the hot share of the judged pulls, in bins from the first
 * record to the last (the records kept: counted as the text counts them). */
static void counters(struct pb_writer *w, const struct run *r)
{
	uint64_t lo = UINT64_MAX, hi = 0, bin;
	size_t nbins;
	uint32_t *moves, *judged, *hot;

	for (size_t i = 0; i < r->nrecs; i++) {
		lo = r->recs[i].ts_ns < lo ? r->recs[i].ts_ns : lo;
		hi = r->recs[i].ts_ns > hi ? r->recs[i].ts_ns : hi;
	}
	if (!r->nrecs)
		return;
	bin = (hi - lo) / COUNTER_BINS + 1;
	bin = bin < COUNTER_MIN_BIN_NS ? COUNTER_MIN_BIN_NS : bin;
	nbins = (size_t)((hi - lo) / bin + 1);
	moves = calloc(nbins, sizeof(*moves));
	judged = calloc(nbins, sizeof(*judged));
	hot = calloc(nbins, sizeof(*hot));
	if (!moves || !judged || !hot) {
		w->err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct mt_migrate *m = &r->recs[i];
		size_t b = (size_t)((m->ts_ns - lo) / bin);

		moves[b]++;
		if (m->cause == MT_CAUSE_LB_PULL && (m->flags & MT_RF_KAGE_VALID)) {
			judged[b]++;
			hot[b] += r->meta.hot_ns < 0 || m->kernel_age_ns < r->meta.hot_ns;
		}
	}
	for (size_t b = 0; b < nbins; b++) {
		counter(w, RATE_UUID, lo + b * bin, (double)moves[b] * 1e9 / (double)bin);
		if (judged[b])
			counter(w, HOT_UUID, lo + b * bin, (double)hot[b] / judged[b]);
	}
out:
	free(moves);
	free(judged);
	free(hot);
}

bool render_perfetto_native(const char *path)
{
	return path_has_suffix(path, ".pftrace") || path_has_suffix(path, ".perfetto-trace");
}

/* A switch or a waking, for the per-CPU bundles. */
struct sched_item {
	uint64_t ts_ns;
	uint16_t cpu;
	const struct mt_switch *sw;	/* or */
	const struct mt_waking *wk;
};

static int by_cpu_time(const void *a, const void *b)
{
	const struct sched_item *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

/* The event of item it into ev, with its payload in sw or wk and its comms in comm. */
static void sched_event(const struct sched_item *it, Perfetto__Protos__FtraceEvent *ev,
			Perfetto__Protos__SchedSwitchFtraceEvent *sw,
			Perfetto__Protos__SchedWakingFtraceEvent *wk, char comm[2][MT_COMM_LEN + 1])
{
	*ev = (Perfetto__Protos__FtraceEvent)PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	ev->has_timestamp = ev->has_pid = 1;
	ev->timestamp = it->ts_ns;
	comm[0][MT_COMM_LEN] = comm[1][MT_COMM_LEN] = 0;
	if (it->sw) {
		const struct mt_switch *s = it->sw;

		*sw = (Perfetto__Protos__SchedSwitchFtraceEvent)
			PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;
		memcpy(comm[0], s->prev_comm, MT_COMM_LEN);
		memcpy(comm[1], s->next_comm, MT_COMM_LEN);
		ev->pid = s->prev_pid;	/* the task running when it fired */
		sw->prev_comm = comm[0];
		sw->has_prev_pid = sw->has_prev_prio = sw->has_prev_state = 1;
		sw->prev_pid = (int32_t)s->prev_pid;
		sw->prev_prio = s->prev_prio;
		sw->prev_state = s->prev_state;
		sw->next_comm = comm[1];
		sw->has_next_pid = sw->has_next_prio = 1;
		sw->next_pid = (int32_t)s->next_pid;
		sw->next_prio = s->next_prio;
		ev->sched_switch = sw;
	} else {
		const struct mt_waking *w = it->wk;

		*wk = (Perfetto__Protos__SchedWakingFtraceEvent)
			PERFETTO__PROTOS__SCHED_WAKING_FTRACE_EVENT__INIT;
		memcpy(comm[0], w->comm, MT_COMM_LEN);
		ev->pid = 0;		/* the waker is not recorded */
		ev->has_pid = 0;
		wk->comm = comm[0];
		wk->has_pid = wk->has_prio = wk->has_success = wk->has_target_cpu = 1;
		wk->pid = (int32_t)w->pid;
		wk->prio = w->prio;
		wk->success = 1;
		wk->target_cpu = w->target_cpu;
		ev->sched_waking = wk;
	}
}

/*
 * The switches and wakings (run --perfetto) as ftrace sched_switch and sched_waking events,
 * a bundle of at most SWITCH_BUNDLE per packet, each CPU's in time order: Perfetto's sched
 * table, its per-CPU "what ran" tracks and thread states are made from them.
 */
static void switches(struct pb_writer *w, const struct run *r)
{
	Perfetto__Protos__FtraceEvent *ev = NULL, **evp = NULL;
	Perfetto__Protos__SchedSwitchFtraceEvent *sw = NULL;
	Perfetto__Protos__SchedWakingFtraceEvent *wk = NULL;
	char (*comm)[2][MT_COMM_LEN + 1] = NULL;
	struct sched_item *items = NULL;
	size_t n = r->nswitches + r->nwakings;

	if (!n)
		return;
	items = malloc(n * sizeof(*items));
	ev = calloc(SWITCH_BUNDLE, sizeof(*ev));
	evp = calloc(SWITCH_BUNDLE, sizeof(*evp));
	sw = calloc(SWITCH_BUNDLE, sizeof(*sw));
	wk = calloc(SWITCH_BUNDLE, sizeof(*wk));
	comm = calloc(SWITCH_BUNDLE, sizeof(*comm));
	if (!items || !ev || !evp || !sw || !wk || !comm) {
		w->err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->nswitches; i++)
		items[i] = (struct sched_item){ r->switches[i].ts_ns, r->switches[i].cpu,
						&r->switches[i], NULL };
	for (size_t i = 0; i < r->nwakings; i++)
		items[r->nswitches + i] = (struct sched_item){ r->wakings[i].ts_ns,
							       r->wakings[i].cpu, NULL,
							       &r->wakings[i] };
	qsort(items, n, sizeof(*items), by_cpu_time);
	for (size_t i = 0; i < n && !w->err;) {
		Perfetto__Protos__FtraceEventBundle b = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
		Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
		size_t k = 0;

		b.has_cpu = 1;
		b.cpu = items[i].cpu;
		for (; i < n && k < SWITCH_BUNDLE && items[i].cpu == b.cpu; i++, k++) {
			sched_event(&items[i], &ev[k], &sw[k], &wk[k], comm[k]);
			evp[k] = &ev[k];
		}
		b.n_event = k;
		b.event = evp;
		p.ftrace_events = &b;
		put(w, &p);
	}
out:
	free(items);
	free(ev);
	free(evp);
	free(sw);
	free(wk);
	free(comm);
}

int render_perfetto_pb(FILE *f, const struct run *r)
{
	bool *cpu_seen = calloc(RUN_MAX_NR_CPUS, sizeof(bool));
	struct pb_writer w = { .f = f, .first = true };
	struct perfetto_thread *t;
	struct refill *fills = NULL;
	size_t nt, nf = 0;

	t = render_perfetto_threads(r, &nt);
	if (!cpu_seen || (!t && (r->nrecs || r->nunits)) || refills_of(r, &fills, &nf)) {
		w.err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].dst_cpu < RUN_MAX_NR_CPUS)
			cpu_seen[r->recs[i].dst_cpu] = true;
	tracks(&w, r, t, nt, cpu_seen);
	for (size_t i = 0; i < r->nunits; i++)
		unit_slice(&w, &r->units[i], fills, nf);
	for (size_t i = 0; i < r->nrecs; i++) {
		migration_instant(&w, r, &r->recs[i], false, fills, nf);
		if (r->recs[i].dst_cpu < RUN_MAX_NR_CPUS)
			migration_instant(&w, r, &r->recs[i], true, fills, nf);
	}
	counters(&w, r);
	switches(&w, r);
	if (!w.err && (fflush(f) || ferror(f)))
		w.err = -EIO;
out:
	free(w.buf);
	free(cpu_seen);
	free(t);
	free(fills);
	return w.err;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace-cmd capture read into the run model (trace_dat.h).  libtracecmd opens the file and
 * merges its per-CPU buffers in timestamp order (tracecmd_iterate_events); each sched event
 * is decoded with libtraceevent through fields resolved once per event type, never per
 * record, into struct sched_event, and replayed (sched_replay.c) over every task.  A capture
 * whose top buffer holds no sched event is read from its first instance that does (a
 * capture made with `trace-cmd extract -B NAME`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "run.h"
#include "sched_replay.h"
#include "trace_dat.h"

/* The kernel's default sysctl_sched_migration_cost, ns: a capture does not hold the host's. */
#define TRACE_DAT_DEFAULT_HOT_NS 500000

/* What the replay reads of an event, by slot: each event type names its fields per slot. */
enum { F_COMM, F_PID, F_PRIO, F_STATE, F_COMM2, F_PID2, F_CPU1, F_CPU2, NR_F };

struct decoder {
	const char *name;		/* sched_switch, … */
	uint8_t type;			/* enum sched_event_type */
	const char *field[NR_F];	/* the event's field per slot; NULL: not read */
	/* resolved against the capture's formats */
	int id;				/* -1: the capture has no such event */
	struct tep_format_field *f[NR_F];
	uint64_t records;		/* events of this type read */
};

#define DEC(n, t, ...) { .name = n, .type = t, .field = { __VA_ARGS__ } }
static const struct decoder decoders_init[] = {
	DEC("sched_switch", SE_SWITCH, "prev_comm", "prev_pid", "prev_prio", "prev_state",
	    "next_comm", "next_pid"),
	DEC("sched_migrate_task", SE_MIGRATE, "comm", "pid", "prio", NULL, NULL, NULL,
	    "orig_cpu", "dest_cpu"),
	DEC("sched_waking", SE_WAKING, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_wakeup", SE_WAKEUP, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_wakeup_new", SE_WAKEUP_NEW, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_process_fork", SE_FORK, "child_comm", "parent_pid", NULL, NULL, NULL,
	    "child_pid"),
	DEC("sched_process_exec", SE_EXEC, NULL, "pid", NULL, NULL, NULL, "old_pid"),
	DEC("sched_process_exit", SE_EXIT, "comm", "pid"),
};
#undef DEC
#define NR_DECODERS (int)(sizeof(decoders_init) / sizeof(decoders_init[0]))

struct reader {
	struct run *r;
	struct tep_handle *tep;
	struct sched_replay *rp;
	struct decoder dec[NR_DECODERS];
	bool keep;			/* keep the records (an output lists them) */
	uint64_t first_ts, last_ts;
	uint64_t lost;			/* events the buffers lost (at least) */
	int err;			/* a callback's error: the iteration stops */
};

/*
 * libtraceevent 1.7 keeps a 2-byte string of an event format it parsed past tracecmd_close()
 * (a leak of its own, in tep_parse_event): the sanitized builds' LeakSanitizer ignores it.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

bool trace_dat_magic(const void *buf, size_t len)
{
	return len >= TRACE_DAT_MAGIC_LEN && !memcmp(buf, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN);
}

bool trace_dat_is_capture(const char *path)
{
	char buf[TRACE_DAT_MAGIC_LEN];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return trace_dat_magic(buf, n);
}

/* The event types' ids and fields in this capture: once, before any record. */
static void resolve(struct reader *rd)
{
	for (int i = 0; i < NR_DECODERS; i++) {
		struct decoder *d = &rd->dec[i];
		struct tep_event *ev;

		*d = decoders_init[i];
		d->id = -1;
		ev = tep_find_event_by_name(rd->tep, "sched", d->name);
		if (!ev)
			continue;
		for (int s = 0; s < NR_F; s++)
			d->f[s] = d->field[s] ? tep_find_field(ev, d->field[s]) : NULL;
		d->id = ev->id;
		/* a format without a field read is not read; prio alone may be missing */
		for (int s = 0; s < NR_F; s++)
			if (d->field[s] && !d->f[s] && s != F_PRIO)
				d->id = -1;
	}
}

static uint64_t num(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f && tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		v = 0;
	return v;
}

static void comm(char *dst, const struct tep_format_field *f, const struct tep_record *rec)
{
	int n = f ? f->size : 0;

	memset(dst, 0, MT_COMM_LEN);
	if (n > MT_COMM_LEN)
		n = MT_COMM_LEN;
	if (f && n > 0 && f->offset + n <= rec->size)
		memcpy(dst, (const char *)rec->data + f->offset, n);
}

/* The comm of the task that ran a move, from the capture's saved pid -> comm map. */
static void cur_comm(struct reader *rd, char *dst, int pid)
{
	const char *c = tep_data_comm_from_pid(rd->tep, pid);

	memset(dst, 0, MT_COMM_LEN);
	if (c && c[0] != '<')	/* "<...>": not saved */
		memcpy(dst, c, strnlen(c, MT_COMM_LEN));
}

static int decode(struct reader *rd, struct decoder *d, struct tep_record *rec)
{
	struct sched_event e = {
		.ts_ns = rec->ts,
		.cpu = (uint32_t)rec->cpu,
		.type = d->type,
		.cur_pid = (uint32_t)tep_data_pid(rd->tep, rec),
		.pid = (uint32_t)num(d->f[F_PID], rec),
		.pid2 = (uint32_t)num(d->f[F_PID2], rec),
		.prev_state = (int64_t)num(d->f[F_STATE], rec),
		.orig_cpu = (uint32_t)num(d->f[F_CPU1], rec),
		.dest_cpu = (uint32_t)num(d->f[F_CPU2], rec),
		.prio = (int32_t)num(d->f[F_PRIO], rec),
		.has_prio = d->f[F_PRIO] && d->type == SE_MIGRATE,
	};

	comm(e.comm, d->f[F_COMM], rec);
	if (d->type == SE_SWITCH)
		comm(e.comm2, d->f[F_COMM2], rec);
	else if (d->type == SE_MIGRATE)
		cur_comm(rd, e.comm2, (int)e.cur_pid);
	return sched_replay_event(rd->rp, &e);
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	struct reader *rd = ctx;
	int id = tep_data_type(rd->tep, rec);

	(void)h;
	(void)cpu;
	/* a gap before this record: its count, or -1 when the buffer did not say */
	if (rec->missed_events)
		rd->lost += rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;
	for (int i = 0; i < NR_DECODERS; i++) {
		struct decoder *d = &rd->dec[i];

		if (d->id != id)
			continue;
		if (!rd->first_ts)
			rd->first_ts = rec->ts;
		if (rec->ts > rd->last_ts)
			rd->last_ts = rec->ts;
		d->records++;
		rd->err = decode(rd, d, rec);
		return rd->err ? 1 : 0;
	}
	return 0;
}

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct reader *rd = ctx;

	run_tally_migration(&rd->r->tally, m, rd->r->meta.hot_ns);
	return rd->keep ? run_record_add(rd->r, m) : 0;
}

static uint64_t sched_records(const struct reader *rd)
{
	uint64_t n = 0;

	for (int i = 0; i < NR_DECODERS; i++)
		n += rd->dec[i].records;
	return n;
}

/* One buffer of the capture replayed into rd->r.  0, or a callback's -errno. */
static int replay_buffer(struct reader *rd, struct tracecmd_input *h)
{
	struct sched_replay_opts o = {
		.hot_ns = rd->r->meta.hot_ns,
		.nr_cpus = rd->r->meta.nr_cpus,
		.scope = MT_SCOPE_ALL,
		.on_migrate = on_migrate,
		.ctx = rd,
	};

	rd->tep = tracecmd_get_tep(h);
	if (!rd->tep)
		return 0;
	resolve(rd);
	rd->rp = sched_replay_new(&o);
	if (!rd->rp)
		return -ENOMEM;
	rd->first_ts = rd->last_ts = rd->lost = 0;
	rd->err = 0;
	tracecmd_iterate_events(h, NULL, 0, on_record, rd);
	if (!rd->err)
		rd->err = sched_replay_flush(rd->rp);
	return rd->err;
}

/* The model's meta for a capture: what a run's capture would fill. */
static void fill_meta(struct run *r, const char *path, const struct trace_dat_opts *o,
		      int nr_cpus)
{
	struct run_meta *m = &r->meta;

	snprintf(m->command, sizeof(m->command), "%s", path);
	m->attached = true;
	m->nr_cpus = nr_cpus;
	m->cpus.n = nr_cpus < MT_MAX_CPUS_USER ? nr_cpus : MT_MAX_CPUS_USER;
	for (int i = 0; i < m->cpus.n; i++)
		m->cpus.cpu[i] = i;
	m->exit_status = -1;
	m->unit_probe_ns = -1;
	snprintf(m->end_reason, sizeof(m->end_reason), "recorded by trace-cmd");
	snprintf(m->wakeup_latency_from, sizeof(m->wakeup_latency_from), "sched_wakeup");
	r->setup.hot_ns_arg = o->hot_ns;
	if (o->hot_ns != RUN_NO_HOT_ARG) {
		m->hot_ns = o->hot_ns;
		snprintf(m->hot_source, sizeof(m->hot_source), "--hot-ns");
	} else {
		m->hot_ns = TRACE_DAT_DEFAULT_HOT_NS;
		snprintf(m->hot_source, sizeof(m->hot_source), "the kernel's default: a capture "
			 "does not hold the host's value; --hot-ns judges at another");
	}
	r->cost.workload_cpu_s = -1;
	snprintf(m->backend.name, sizeof(m->backend.name), "trace-cmd");
	snprintf(m->backend.why, sizeof(m->backend.why), "a capture read by migtrace report");
	snprintf(m->backend.source, sizeof(m->backend.source), "%s", path);
	snprintf(m->backend.not_read, sizeof(m->backend.not_read),
		 "kernel_age,kernel_migrations,affinity,numa,core_cookie,topology");
	m->backend.replayed = true;
}

/* What the replay found, into the model; each missing event named (one line each). */
static void fill_results(struct reader *rd, const struct trace_dat_opts *o)
{
	struct run *r = rd->r;
	struct run_backend *b = &r->meta.backend;
	struct sched_replay_info info;

	sched_replay_counts(rd->rp, &r->stats, &r->hists);
	sched_replay_pairs(rd->rp, r->pairs);
	sched_replay_info(rd->rp, &info);
	b->events = info.events;
	b->out_of_order = info.out_of_order;
	b->stopper_moves = info.stopper_moves;
	b->unknown_age = info.unknown_age;
	b->lost_events = rd->lost;
	r->meta.duration_s = (double)(rd->last_ts - rd->first_ts) / 1e9;
	for (int i = 0; i < NR_DECODERS; i++) {
		size_t len = strlen(b->missing);

		if (rd->dec[i].records)
			continue;
		snprintf(b->missing + len, sizeof(b->missing) - len, "%s%s", len ? "," : "",
			 rd->dec[i].name);
	}
	if (!o->quiet) {
		char *s = b->missing;

		while (*s) {
			size_t n = strcspn(s, ",");

			fprintf(stderr, "migtrace: %s: no %.*s in the capture\n", b->source,
				(int)n, s);
			s += n + (s[n] == ',');
		}
	}
}

int trace_dat_read(const char *path, const struct trace_dat_opts *o, struct run **out,
		   char *err, size_t errlen)
{
	struct reader rd = { .keep = !o->drop_records };
	struct tracecmd_input *h, *inst = NULL;
	int rc = -EINVAL, ninst, nr_cpus;

	*out = NULL;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		snprintf(err, errlen, "not a trace-cmd capture libtracecmd can read (truncated, or "
			 "of another version)");
		return -EINVAL;
	}
	rd.r = run_new();
	if (!rd.r) {
		rc = -ENOMEM;
		goto nomem;
	}
	nr_cpus = tep_get_cpus(tracecmd_get_tep(h));
	if (nr_cpus < 1 || nr_cpus > RUN_MAX_NR_CPUS)
		nr_cpus = RUN_MAX_NR_CPUS < 256 ? RUN_MAX_NR_CPUS : 256;
	fill_meta(rd.r, path, o, nr_cpus);
	if (run_alloc_pairs(rd.r, nr_cpus)) {
		rc = -ENOMEM;
		goto nomem;
	}
	run_tally_init(&rd.r->tally, o->threshold_ns, o->nthresholds);
	rd.r->tally.records_dropped = o->drop_records;
	rc = replay_buffer(&rd, h);
	/* nothing in the top buffer: the first instance that has sched events */
	ninst = tracecmd_buffer_instances(h);
	for (int i = 0; !rc && !sched_records(&rd) && i < ninst; i++) {
		sched_replay_free(rd.rp);
		rd.rp = NULL;
		inst = tracecmd_buffer_instance_handle(h, i);
		if (inst)
			rc = replay_buffer(&rd, inst);
		if (!rc && !sched_records(&rd)) {
			tracecmd_close(inst);
			inst = NULL;
		}
	}
	if (rc == -ENOMEM)
		goto nomem;
	if (rc) {
		snprintf(err, errlen, "replaying its events failed: %s", strerror(-rc));
		goto fail;
	}
	if (!sched_records(&rd)) {
		snprintf(err, errlen, "a trace-cmd capture with no sched event (sched_switch, "
			 "sched_migrate_task, ...): record with trace-cmd record -e sched");
		rc = -EINVAL;
		goto fail;
	}
	fill_results(&rd, o);
	*out = rd.r;
	rd.r = NULL;
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory reading it");
fail:
	run_free(rd.r);
out:
	sched_replay_free(rd.rp);
	if (inst)
		tracecmd_close(inst);
	tracecmd_close(h);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace-cmd capture read into the run model (trace_dat.h).  libtracecmd opens the file and
 * merges its per-CPU buffers in timestamp order (tracecmd_iterate_events); each sched event
 * is decoded (sched_decode.c: fields resolved once per event type, never per record) into
 * struct sched_event, and replayed (sched_replay.c) over every task.  A capture
 * whose top buffer holds no sched event is read from its first instance that does (a
 * capture made with `trace-cmd extract -B NAME`).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "run.h"
#include "sched_decode.h"
#include "sched_replay.h"
#include "trace_dat.h"

/* The kernel's default sysctl_sched_migration_cost, ns: a capture does not hold the host's. */
#define TRACE_DAT_DEFAULT_HOT_NS 500000

struct reader {
	struct run *r;
	struct sched_replay *rp;
	struct sched_decoder *dec;
	bool keep;			/* keep the records (an output lists them) */
	uint32_t pid;			/* --pid; 0: every task */
	uint64_t first_ts, last_ts;
	uint64_t lost;			/* events the buffers lost (at least) */
	int err;			/* a callback's error: the iteration stops */
};

/* Whether the bytes start a trace.dat. */
static bool trace_dat_magic(const void *buf, size_t len)
{
	return len >= TRACE_DAT_MAGIC_LEN && !memcmp(buf, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN);
}

bool trace_dat_is_capture(const char *path)
{
	char buf[TRACE_DAT_MAGIC_LEN];
	struct stat st;
	FILE *f;
	size_t n;

	/* a regular file only: a peek at a pipe would take its first bytes from the reader */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return trace_dat_magic(buf, n);
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	struct reader *rd = ctx;
	struct sched_event e;

	(void)h;
	(void)cpu;
	/* a gap before this record: its count, or -1 when the buffer did not say */
	if (rec->missed_events)
		rd->lost += rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;
	if (!sched_decode(rd->dec, rec, &e))
		return 0;
	if (!rd->first_ts)
		rd->first_ts = rec->ts;
	if (rec->ts > rd->last_ts)
		rd->last_ts = rec->ts;
	rd->err = sched_replay_event(rd->rp, &e);
	return rd->err ? 1 : 0;
}

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct reader *rd = ctx;

	run_tally_migration(&rd->r->tally, m, rd->r->meta.hot_ns);
	return rd->keep ? run_record_add(rd->r, m) : 0;
}

static uint64_t sched_records(const struct reader *rd)
{
	return rd->dec ? sched_decoded(rd->dec, 0) : 0;
}

/* One buffer of the capture replayed into rd->r.  0, or a callback's -errno. */
static int replay_buffer(struct reader *rd, struct tracecmd_input *h)
{
	struct sched_replay_opts o = {
		.hot_ns = rd->r->meta.hot_ns,
		.nr_cpus = rd->r->meta.nr_cpus,
		.scope = rd->pid ? MT_SCOPE_TGIDS : MT_SCOPE_ALL,
		.on_migrate = on_migrate,
		.ctx = rd,
	};
	struct tep_handle *tep = tracecmd_get_tep(h);

	/* a buffer tried before had no sched event: start afresh */
	sched_replay_free(rd->rp);
	sched_decoder_free(rd->dec);
	rd->rp = NULL;
	rd->dec = NULL;
	if (!tep)
		return 0;
	rd->dec = sched_decoder_new(tep);
	rd->rp = sched_replay_new(&o);
	if (!rd->dec || !rd->rp || (rd->pid && sched_replay_track(rd->rp, rd->pid, false)))
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

	if (o->pid)
		snprintf(m->command, sizeof(m->command), "pid %u in %s", o->pid, path);
	else
		snprintf(m->command, sizeof(m->command), "%s", path);
	m->pid = (int)o->pid;
	/* the machine: what the capture says of it, its CPUs (trace-cmd keeps a buffer each) */
	r->env.nr_online = nr_cpus;
	snprintf(r->env.online_cpus, sizeof(r->env.online_cpus), nr_cpus > 1 ? "0-%d" : "0",
		 nr_cpus - 1);
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
	/* the tunable of the machine the capture was made on was not read */
	r->env.tunable.value_ns = TRACE_DAT_DEFAULT_HOT_NS;
	r->env.tunable.assumed = true;
	snprintf(r->env.tunable.source, sizeof(r->env.tunable.source), "kernel default, assumed: "
		 "a trace-cmd capture does not hold the tunable");
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
}

/* What the replay found, into the model; each missing event named (one line each). */
static void fill_results(struct reader *rd, const struct trace_dat_opts *o)
{
	struct run *r = rd->r;
	struct run_backend *b = &r->meta.backend;

	sched_replay_to_run(rd->rp, r);
	b->lost_events = rd->lost;
	r->meta.duration_s = (double)(rd->last_ts - rd->first_ts) / 1e9;
	if (!o->quiet && rd->dec && sched_malformed(rd->dec))
		fprintf(stderr, "migtrace: %s: %llu records hold less than their event's format "
			"says: left out (a damaged capture?)\n", b->source,
			(unsigned long long)sched_malformed(rd->dec));
	if (!o->quiet) {
		const char *s = b->missing;

		while (*s) {
			size_t n = strcspn(s, ",");

			fprintf(stderr, "migtrace: %s: no %.*s in the capture\n", b->source,
				(int)n, s);
			s += n + (s[n] == ',');
		}
	}
}

/*
 * Zero bytes at the file's end (a padded or preallocated copy): libtracecmd reads them as
 * pages and takes ~0.5 s a MiB to find nothing.  How many there are, read backwards in
 * chunks (at memory speed); -errno when the file cannot be read.
 */
static long long trailing_zeros(const char *path, long long *size)
{
	static unsigned char buf[1 << 16];
	long long zeros = 0, at;
	struct stat st;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	*size = st.st_size;
	for (at = st.st_size; at > 0; ) {
		size_t len = at < (long long)sizeof(buf) ? (size_t)at : sizeof(buf);
		ssize_t n = pread(fd, buf, len, at - (long long)len);
		size_t i = len;

		if (n != (ssize_t)len) {
			rc = n < 0 ? -errno : -EIO;
			goto out;
		}
		while (i > 0 && !buf[i - 1])
			i--;
		zeros += (long long)(len - i);
		if (i > 0)
			break;
		at -= (long long)len;
	}
out:
	close(fd);
	return rc ? rc : zeros;
}

/* More than this many zero bytes at the end are no capture's: its last page holds fewer. */
#define TRACE_DAT_MAX_TRAILING_ZEROS (1LL << 20)

int trace_dat_read(const char *path, const struct trace_dat_opts *o, struct run **out,
		   char *err, size_t errlen)
{
	struct reader rd = { .keep = !o->drop_records, .pid = o->pid };
	struct tracecmd_input *h, *inst = NULL;
	int rc = -EINVAL, ninst, nr_cpus;
	long long zeros, size = 0;

	*out = NULL;
	zeros = trailing_zeros(path, &size);
	if (zeros > TRACE_DAT_MAX_TRAILING_ZEROS) {
		snprintf(err, errlen, "it ends with %lld MiB of zero bytes past its data (a padded "
			 "or preallocated copy): cut them off (truncate -s %lld FILE) and read it "
			 "again", zeros >> 20, (size - zeros + 4095) / 4096 * 4096);
		return -EINVAL;
	}
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
		inst = tracecmd_buffer_instance_handle(h, i);
		if (inst)
			rc = replay_buffer(&rd, inst);
		if (!rc && !sched_records(&rd)) {
			sched_decoder_free(rd.dec);
			rd.dec = NULL;
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
	sched_decoder_free(rd.dec);
	if (inst)
		tracecmd_close(inst);
	tracecmd_close(h);
	return rc;
}

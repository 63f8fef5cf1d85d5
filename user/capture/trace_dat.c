// SPDX-License-Identifier: GPL-2.0
/*
 * A trace-cmd capture read into the run model (trace_dat.h).  libtracecmd opens the file and
 * merges its per-CPU buffers in timestamp order (tracecmd_iterate_events); each sched event
 * is decoded (sched_decode.c: fields resolved once per event type, never per record) into
 * struct sched_event, and replayed (sched_replay.c) over every task.  A capture
 * whose top buffer holds no sched event is read from its first instance that does (a
 * capture made with `trace-cmd extract -B NAME`).
 *
 * libtracecmd runs in a child process of its own.  It trusts the file: a damaged capture
 * made version 3.1.6 free twice, divide by a page size of 0 or read past its maps, and a
 * crash there took migtrace with it.  The child opens, iterates and decodes, and sends the
 * decoded events on a pipe; this process replays them.  A child that dies before its last
 * message is one line, "libtracecmd could not read it", and exit 2 (docs/ftrace.md,
 * "Captures").  Its stderr is closed: the library prints lines of its own ("mmap: Unknown
 * error -22") that say nothing to a user.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define MT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MT_SANITIZED 1
#endif
#endif
#ifdef MT_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

#include "run.h"
#include "sched_decode.h"
#include "sched_replay.h"
#include "trace_dat.h"

/* The kernel's default sysctl_sched_migration_cost, ns: a capture does not hold the host's. */
#define TRACE_DAT_DEFAULT_HOT_NS 500000

/*
 * The child's messages: a kind byte, then the kind's fixed payload (REFUSED: a length, then
 * that many bytes of text).  OPENED first, or REFUSED; then per buffer tried, BUFFER, its
 * LOST and EVENT messages in timestamp order, BUFFER_END; then DONE.
 */
enum {
	MSG_OPENED = 1,		/* int32_t nr_cpus */
	MSG_REFUSED,		/* uint16_t n, char text[n]: libtracecmd cannot open it */
	MSG_BUFFER,		/* a buffer's replay starts afresh */
	MSG_LOST,		/* uint64_t: events its ring lost before the next record */
	MSG_EVENT,		/* struct sched_event */
	MSG_BUFFER_END,		/* struct buffer_end */
	MSG_DONE,
};

struct buffer_end {
	uint64_t decoded;	/* sched records decoded */
	uint64_t malformed;	/* records shorter than their format says: left out */
};

/* The child's side: where its messages go, and the decoder of the buffer being read. */
struct child {
	FILE *out;
	struct sched_decoder *dec;
	bool failed;		/* a write failed (the parent is gone): stop */
};

/* The parent's side: the replay of the events the child sends. */
struct reader {
	struct run *r;
	struct sched_replay *rp;
	bool keep;			/* keep the records (an output lists them) */
	uint32_t pid;			/* --pid; 0: every task */
	uint64_t first_ts, last_ts;
	uint64_t lost;			/* events the buffers lost (at least) */
	struct buffer_end end;		/* the last buffer's counts */
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

static void send(struct child *c, uint8_t kind, const void *payload, size_t len)
{
	if (c->failed)
		return;
	if (fwrite(&kind, 1, 1, c->out) != 1 || (len && fwrite(payload, len, 1, c->out) != 1))
		c->failed = true;
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	struct child *c = ctx;
	struct sched_event e;

	(void)h;
	(void)cpu;
	/* a gap before this record: its count, or -1 when the buffer did not say */
	if (rec->missed_events) {
		uint64_t n = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;

		send(c, MSG_LOST, &n, sizeof(n));
	}
	if (sched_decode(c->dec, rec, &e))
		send(c, MSG_EVENT, &e, sizeof(e));
	return c->failed ? 1 : 0;
}

/* One buffer of the capture sent to the parent; its sched records decoded. */
static uint64_t child_buffer(struct child *c, struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct buffer_end end = { 0 };

	send(c, MSG_BUFFER, NULL, 0);
	c->dec = tep ? sched_decoder_new(tep) : NULL;
	if (c->dec) {
		tracecmd_iterate_events(h, NULL, 0, on_record, c);
		end.decoded = sched_decoded(c->dec, 0);
		end.malformed = sched_malformed(c->dec);
	}
	sched_decoder_free(c->dec);
	c->dec = NULL;
	send(c, MSG_BUFFER_END, &end, sizeof(end));
	return end.decoded;
}

/*
 * The child's heap, bounded: a capture whose sizes lie made libtracecmd 3.1.6 take 4.5 GB
 * and 13 s before it crashed.  1 GiB and 4 bytes a byte of the file past what the child
 * already has (the sanitizers' shadow, in their builds), as RLIMIT_DATA: a bigger
 * allocation fails, and the child's death is the refusal.
 */
static void child_limit_heap(long long file_bytes)
{
	unsigned long long have_kib = 0;
	struct rlimit lim;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmData: %llu kB", &have_kib) == 1)
			break;
	if (f)
		fclose(f);
	if (getrlimit(RLIMIT_DATA, &lim))
		return;
	lim.rlim_cur = (rlim_t)(have_kib * 1024 + (1ULL << 30) + 4ULL * (unsigned long long)file_bytes);
	if (lim.rlim_max != RLIM_INFINITY && lim.rlim_cur > lim.rlim_max)
		lim.rlim_cur = lim.rlim_max;
	setrlimit(RLIMIT_DATA, &lim);
}

/*
 * The child's whole life: open the capture, send its sched events (the top buffer's, or
 * the first instance's that has any), and end.  It never returns.
 */
static void child_main(const char *path, long long file_bytes, int fd)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	static char buf[1 << 16];
	struct child c = { .out = fdopen(fd, "w") };
	struct tracecmd_input *h, *inst;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int32_t nr_cpus;

	/* a crash in the library is the child's death, which the parent reports: no handler of
	 * migtrace's, or of a sanitizer or fuzzer in their builds, runs for it here */
	for (size_t i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		signal(deadly[i], SIG_DFL);
#ifdef MT_SANITIZED
	__sanitizer_set_death_callback(NULL);
#endif
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	if (!c.out)
		_exit(1);
	setvbuf(c.out, buf, _IOFBF, sizeof(buf));
	child_limit_heap(file_bytes);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		static const char why[] = "not a trace-cmd capture libtracecmd can read "
			"(truncated, or of another version)";
		uint16_t n = sizeof(why) - 1;

		send(&c, MSG_REFUSED, &n, sizeof(n));
		if (!c.failed && fwrite(why, n, 1, c.out) != 1)
			c.failed = true;
		_exit(fflush(c.out) || c.failed ? 1 : 0);
	}
	nr_cpus = tep_get_cpus(tracecmd_get_tep(h));
	send(&c, MSG_OPENED, &nr_cpus, sizeof(nr_cpus));
	/* nothing in the top buffer: the first instance that has sched events */
	if (!child_buffer(&c, h)) {
		int ninst = tracecmd_buffer_instances(h);

		for (int i = 0; i < ninst && !c.failed; i++) {
			uint64_t n;

			inst = tracecmd_buffer_instance_handle(h, i);
			if (!inst)
				continue;
			n = child_buffer(&c, inst);
			tracecmd_close(inst);
			if (n)
				break;
		}
	}
	send(&c, MSG_DONE, NULL, 0);
	/* _exit: no atexit handler of migtrace's, no sanitizer's leak report, runs here */
	_exit(fflush(c.out) || c.failed ? 1 : 0);
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
	struct sched_replay_info info;

	sched_replay_to_run(rd->rp, r);
	b->lost_events = rd->lost;
	r->meta.duration_s = (double)(rd->last_ts - rd->first_ts) / 1e9;
	if (rd->first_ts) {
		r->meta.traced_from_ns = (int64_t)rd->first_ts;
		r->meta.traced_until_ns = (int64_t)rd->last_ts;
	}
	sched_replay_info(rd->rp, &info);
	if (!o->quiet && info.bad_cpu)
		fprintf(stderr, "migtrace: %s: %llu events name a CPU past the capture's %d: left "
			"out (a damaged capture?)\n", b->source, (unsigned long long)info.bad_cpu,
			r->meta.nr_cpus);
	if (!o->quiet && rd->end.malformed)
		fprintf(stderr, "migtrace: %s: %llu records hold less than their event's format "
			"says: left out (a damaged capture?)\n", b->source,
			(unsigned long long)rd->end.malformed);
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

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct reader *rd = ctx;

	run_tally_migration(&rd->r->tally, m, rd->r->meta.hot_ns);
	return rd->keep ? run_record_add(rd->r, m) : 0;
}

/* A buffer's replay, started afresh (the child tries buffers until one has sched events). */
static int buffer_start(struct reader *rd)
{
	struct sched_replay_opts o = {
		.hot_ns = rd->r->meta.hot_ns,
		.nr_cpus = rd->r->meta.nr_cpus,
		.scope = rd->pid ? MT_SCOPE_TGIDS : MT_SCOPE_ALL,
		.on_migrate = on_migrate,
		.ctx = rd,
	};

	sched_replay_free(rd->rp);
	rd->rp = sched_replay_new(&o);
	if (!rd->rp || (rd->pid && sched_replay_track(rd->rp, rd->pid, false)))
		return -ENOMEM;
	rd->first_ts = rd->last_ts = rd->lost = 0;
	rd->end = (struct buffer_end){ 0 };
	return 0;
}

/* The model made for the capture, once the child has opened it. */
static int opened(struct reader *rd, const char *path, const struct trace_dat_opts *o,
		  int32_t nr_cpus)
{
	if (nr_cpus < 1 || nr_cpus > RUN_MAX_NR_CPUS)
		nr_cpus = RUN_MAX_NR_CPUS < 256 ? RUN_MAX_NR_CPUS : 256;
	rd->r = run_new();
	if (!rd->r)
		return -ENOMEM;
	fill_meta(rd->r, path, o, nr_cpus);
	if (run_alloc_pairs(rd->r, nr_cpus))
		return -ENOMEM;
	run_tally_init(&rd->r->tally, o->threshold_ns, o->nthresholds);
	rd->r->tally.records_dropped = o->drop_records;
	return 0;
}

/* What replay_messages found at the pipe's end. */
enum { CHILD_DIED, CHILD_DONE, CHILD_REFUSED };

/*
 * The child's messages, replayed until DONE: CHILD_DONE; CHILD_DIED when the pipe ended
 * before it; CHILD_REFUSED with err set when libtracecmd could not open the file; -ENOMEM,
 * or a replay's -errno.
 */
static int replay_messages(struct reader *rd, FILE *in, const char *path,
			   const struct trace_dat_opts *o, char *err, size_t errlen)
{
	union {
		int32_t nr_cpus;
		uint64_t lost;
		struct sched_event e;
		struct buffer_end end;
		uint16_t n;
	} m;
	static const size_t size[MSG_DONE + 1] = {
		[MSG_OPENED] = sizeof(m.nr_cpus), [MSG_REFUSED] = sizeof(m.n),
		[MSG_LOST] = sizeof(m.lost), [MSG_EVENT] = sizeof(m.e),
		[MSG_BUFFER_END] = sizeof(m.end),
	};
	int rc = 0, kind;

	while ((kind = getc(in)) != EOF) {
		if (kind < MSG_OPENED || kind > MSG_DONE ||
		    (size[kind] && fread(&m, size[kind], 1, in) != 1))
			return CHILD_DIED;	/* mid-message, or worse */
		/* every kind but OPENED and REFUSED needs the model OPENED made */
		if (!rd->r && kind != MSG_OPENED && kind != MSG_REFUSED)
			return CHILD_DIED;
		/* and every event kind a buffer's replay */
		if (!rd->rp && (kind == MSG_LOST || kind == MSG_EVENT || kind == MSG_BUFFER_END))
			return CHILD_DIED;
		switch (kind) {
		case MSG_OPENED:
			rc = rd->r ? 0 : opened(rd, path, o, m.nr_cpus);
			break;
		case MSG_REFUSED: {
			size_t n = m.n < errlen ? m.n : errlen - 1;

			if (fread(err, 1, n, in) != n)
				return CHILD_DIED;
			err[n] = '\0';
			return CHILD_REFUSED;
		}
		case MSG_BUFFER:
			rc = buffer_start(rd);
			break;
		case MSG_LOST:
			rd->lost += m.lost;
			break;
		case MSG_EVENT:
			if (!rd->first_ts)
				rd->first_ts = m.e.ts_ns;
			if (m.e.ts_ns > rd->last_ts)
				rd->last_ts = m.e.ts_ns;
			rc = sched_replay_event(rd->rp, &m.e);
			break;
		case MSG_BUFFER_END:
			rd->end = m.end;
			rc = sched_replay_flush(rd->rp);
			break;
		case MSG_DONE:
			return CHILD_DONE;
		}
		if (rc)
			return rc;
	}
	return CHILD_DIED;
}

/* How the reading child ended, in words: "died of SIGSEGV", "exited with status 1". */
static void child_end(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "died of SIG%s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?");
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

int trace_dat_read(const char *path, const struct trace_dat_opts *o, struct run **out,
		   char *err, size_t errlen)
{
	struct reader rd = { .keep = !o->drop_records, .pid = o->pid };
	long long zeros, size = 0;
	int fds[2], rc, status = 0;
	char how[64];
	FILE *in;
	pid_t pid;

	*out = NULL;
	zeros = trailing_zeros(path, &size);
	if (zeros > TRACE_DAT_MAX_TRAILING_ZEROS) {
		snprintf(err, errlen, "it ends with %lld MiB of zero bytes past its data (a padded "
			 "or preallocated copy): cut them off (truncate -s %lld FILE) and read it "
			 "again", zeros >> 20, (size - zeros + 4095) / 4096 * 4096);
		return -EINVAL;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errlen, "making a pipe to its reader failed: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);	/* nothing buffered here is written twice by the child */
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(err, errlen, "starting its reader failed: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(path, size, fds[1]);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (!in) {
		close(fds[0]);
		rc = -ENOMEM;
	} else {
		rc = replay_messages(&rd, in, path, o, err, errlen);
		fclose(in);	/* a child still writing gets EPIPE and ends */
	}
	if (rc != CHILD_DONE)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == CHILD_DIED) {
		child_end(status, how, sizeof(how));
		snprintf(err, errlen, "libtracecmd could not read it: its reader %s (a damaged or "
			 "truncated capture)", how);
		rc = -EINVAL;
		goto fail;
	}
	if (rc == CHILD_REFUSED) {
		rc = -EINVAL;
		goto fail;
	}
	if (rc == -ENOMEM)
		goto nomem;
	if (rc < 0) {
		snprintf(err, errlen, "replaying its events failed: %s", strerror(-rc));
		goto fail;
	}
	if (!rd.end.decoded) {
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
	return rc;
}

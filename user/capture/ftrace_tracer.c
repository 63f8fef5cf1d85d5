// SPDX-License-Identifier: GPL-2.0
/*
 * The live ftrace backend: two private tracefs instances, read raw and replayed.
 *
 * "migtrace-<pid>" records sched_switch, the wake-ups and fork/exec/exit of the traced
 * tasks: for a launched or -p workload its pids go into set_event_pid with event-fork on, so
 * its children are added by the kernel.  That filter decides by the task running on the CPU
 * (and, for a wake-up, by the woken one too): a sched_migrate_task of a traced task run by a
 * waker, the balancer or the stopper would be dropped.  So sched_migrate_task comes from a
 * second, unfiltered instance "migtrace-<pid>-mig" and the replay keeps those of its tracked
 * tasks (with -a one instance records everything).  Both use trace_clock "mono", the
 * CLOCK_MONOTONIC of the BPF side's stamps and of cachewalk's unit log, and overwrite off, so
 * that a full ring drops new events and counts them ("dropped events").
 *
 * Each CPU's buffer is in time order, the CPUs are not with each other: a poll reads all of
 * them, sorts what it read with what it kept, and replays only events older than the poll's
 * start minus REORDER_SLACK_NS; tracer_stop replays the rest.  An event is stamped when its
 * room is reserved and seen by readers only once committed: µs later on hardware, but a
 * vCPU descheduled by its host between the two (an emulator's thread, a busy hypervisor)
 * commits it milliseconds later, and an event read after younger ones were replayed is
 * dropped as out of order.  Hence a slack of tens of ms, and a pause after tracing stops.
 *
 * The instances must not outlive migtrace, SIGKILL included: a guard process (as the
 * workload's, launch.c) holds one end of a pipe and, when it reads EOF, removes them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "elf_sym.h"
#include "ftrace_tracer.h"
#include "launch.h"
#include "run.h"
#include "sched_decode.h"
#include "sched_replay.h"
#include "tracer.h"
#include "trace_keep.h"
#include "tracer_backend.h"
#include "u32_table.h"
#include "unit_join.h"

#define REORDER_SLACK_NS 50000000ULL	/* 50 ms past a read's start: later CPUs' events
					 * wait (the events held: 50 ms of them) */
#define STOP_SETTLE_MS 20		/* after tracing stops, for commits in flight */
#define READ_EVERY_MS 10		/* the rings are read this often while a poll waits */
/* per CPU, at least: 1 MiB holds ~15k events, 100 ms of a busy CPU's switches and wake-ups;
 * the unfiltered moves are fewer */
#define FT_MAIN_MIN_KIB 1024
#define FT_MIG_MIN_KIB 256
#define FT_NAME_LEN 64
#define GUARD_RMDIR_TRIES 500		/* 5 s in 10 ms steps: our reader's fds close first */

enum { FT_MAIN, FT_MIG, FT_NR_INST };

/*
 * --unit: a uprobe and a uretprobe "unit_entry"/"unit_exit" in the system migtrace_<pid>,
 * enabled in the pid-filtered instance, replayed with the sched events (these two types are
 * the window's, not the replay's) and joined with the replay's migrations and off-CPU periods
 * by unit_join.c, as the units cachewalk logs itself.
 */
#define FT_UNIT_ENTER 200
#define FT_UNIT_EXIT 201
#define FT_UNIT_THREADS 4096	/* threads with a unit in progress, at most */
static const char *const unit_events[2] = { "unit_entry", "unit_exit" };

struct ft_unit_thread {
	uint32_t tid;		/* the table's key: first (u32_table.h) */
	uint32_t depth;		/* nesting: only the outermost call is a unit */
	uint32_t cpu;
	uint64_t start_ns;
};

/*
 * The sched events recorded, by enum sched_event_type (decoded by sched_decode.c, shared with
 * trace-cmd captures); without a switch, a move or a fork the replay cannot run.
 */
static bool event_required(int type)
{
	return type == SE_SWITCH || type == SE_MIGRATE || type == SE_FORK;
}

struct ft_cpu {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void *page;
	int page_size;
};

struct ftrace_tracer {
	struct tracefs_instance *inst[FT_NR_INST];	/* FT_MIG: NULL with -a */
	char name[FT_NR_INST][FT_NAME_LEN];
	struct ft_cpu *cpus[FT_NR_INST];		/* nr_cpus each */
	int nr_cpus;
	struct tep_handle *tep;
	struct sched_decoder *dec;
	struct sched_replay *rp;
	bool all;				/* -a: no pid filter, one instance */
	/* the reorder window: events read but not yet replayed, sorted by ts at each poll */
	struct sched_event *pending;
	size_t npending, cap;
	int err;				/* the replay's callbacks' first error */
	/* --unit */
	char unit_system[FT_NAME_LEN];
	struct tracefs_dynevent *unit_probe[2];	/* entry, return */
	int unit_id[2];				/* their event ids; -1: none */
	struct unit_join *join;
	struct u32_table unit_threads;	/* struct ft_unit_thread by tid, unit in progress */
	uint64_t units, units_dropped;		/* emitted; lost (no room, unjoinable) */
	uint32_t tgid;				/* the first tracked: the join's process */
	tracer_migrate_fn on_migrate;		/* the caller's, behind the join */
	tracer_offcpu_fn on_offcpu;
	tracer_unit_fn on_unit;
	void *ctx;
	struct trace_keep *keep;		/* --keep-trace: every event read, spooled */
	const char *keep_path;
	pid_t guard;				/* -1: none */
	int guard_fd;
	int read_every_ms;			/* READ_EVERY_MS, or the tests' own */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int ftrace_tracer_check(char *why, size_t len)
{
	const char *dir = tracefs_tracing_dir();	/* mounts tracefs when it can */
	char path[512];

	if (!dir) {
		snprintf(why, len, "tracefs is not mounted and could not be mounted: run `mount -t "
			 "tracefs nodev /sys/kernel/tracing` as root");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK)) {
		int err = -errno;

		snprintf(why, len, "%s is not writable (%s): ftrace needs root (or a tracefs "
			 "mounted writable for this user)", path, strerror(errno));
		return err;
	}
	for (int t = SE_SWITCH; t <= SE_EXIT; t++) {
		if (!event_required(t))
			continue;
		snprintf(path, sizeof(path), "%s/events/sched/%s/format", dir,
			 sched_replay_event_name(t));
		if (access(path, R_OK)) {
			int err = -errno;

			snprintf(why, len, "this kernel has no sched:%s event (%s: %s)",
				 sched_replay_event_name(t), path, strerror(errno));
			return err;
		}
	}
	snprintf(why, len, "tracefs at %s, the sched events present", dir);
	return 0;
}

/* pid's comm from /proc, its newline kept ("" when unread); false when pid is gone. */
static bool pid_comm(long pid, char *comm, int len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, len, f))
		comm[0] = 0;
	fclose(f);
	return true;
}

/* Whether pid is a live migtrace (a run, or its guard while it removes what the run left). */
static bool migtrace_alive(long pid)
{
	char comm[32];

	/* and migtrace-san, the sanitized build */
	return pid_comm(pid, comm, sizeof(comm)) && !strncmp(comm, "migtrace", 8);
}

/* Removes the unit probes of system migtrace_PID; O_APPEND: O_TRUNC would remove all. */
static void remove_unit_probes(const char *probes, const char *system)
{
	for (int i = 0; i < 2; i++) {
		char line[128];
		int pfd = open(probes, O_WRONLY | O_APPEND | O_CLOEXEC);
		ssize_t w;

		if (pfd < 0)
			break;
		snprintf(line, sizeof(line), "-:%s/%s\n", system, unit_events[i]);
		w = write(pfd, line, strlen(line));	/* ENOENT: there was none */
		(void)w;
		close(pfd);
	}
}

int ftrace_tracer_orphans(bool remove, char *names, size_t len)
{
	const char *dir = tracefs_tracing_dir();
	char path[512], probes[512], system[64];
	struct dirent *e;
	size_t used = 0;
	int n = 0;
	DIR *d;

	names[0] = 0;
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/instances", dir);
	snprintf(probes, sizeof(probes), "%s/uprobe_events", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, "migtrace-", 9))
			continue;
		pid = strtol(e->d_name + 9, &end, 10);
		if (end == e->d_name + 9 || (*end && strcmp(end, "-mig")) || migtrace_alive(pid))
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s", used ? " " : "",
						 e->d_name);
		if (!remove)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", dir, e->d_name);
		for (int t = 0; t < GUARD_RMDIR_TRIES && rmdir(path) && errno == EBUSY; t++)
			usleep(10000);
		snprintf(system, sizeof(system), "migtrace_%ld", pid);
		remove_unit_probes(probes, system);
	}
	closedir(d);
	return n;
}

/* What runs killed with their guard left, still recording (a cost on every switch): gone. */
static void remove_orphans(void)
{
	char gone[256];
	int n = ftrace_tracer_orphans(true, gone, sizeof(gone));

	if (n)
		fprintf(stderr, "migtrace: removed %d tracefs instance%s left recording by migtrace "
			"runs killed with their guard: %s\n", n, n > 1 ? "s" : "", gone);
}

/*
 * The guard's whole life: detached (launch_guard_detach), it reads its pipe to EOF
 * (migtrace ended, however) and removes the instances still there.  rmdir fails with EBUSY
 * while a dead migtrace's buffer descriptors are still being closed: it is tried again.
 */
static void guard_main(int fd, char paths[FT_NR_INST][512], const char *probes,
		       const char *system)
{
	ssize_t n;
	char c;

	launch_guard_detach(fd);
	do {
		n = read(fd, &c, 1);
	} while (n != 0 && (n > 0 || errno == EINTR));
	for (int i = 0; i < FT_NR_INST; i++) {
		for (int t = 0; paths[i][0] && t < GUARD_RMDIR_TRIES; t++) {
			if (!rmdir(paths[i]) || errno == ENOENT)
				break;
			usleep(10000);
		}
	}
	/* the unit probes, once no instance uses them */
	remove_unit_probes(probes, system);
	_exit(0);
}

static int guard_start(struct ftrace_tracer *ft)
{
	static char paths[FT_NR_INST][512], probes[512];
	const char *dir = tracefs_tracing_dir();
	int p[2], err;

	snprintf(probes, sizeof(probes), "%s/uprobe_events", dir);
	for (int i = 0; i < FT_NR_INST; i++)
		if (ft->name[i][0])
			snprintf(paths[i], sizeof(paths[i]), "%s/instances/%s", dir, ft->name[i]);
		else
			paths[i][0] = 0;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	ft->guard = fork();
	if (ft->guard == 0)
		guard_main(p[0], paths, probes, ft->unit_system);
	err = errno;
	close(p[0]);
	if (ft->guard < 0) {
		close(p[1]);
		return -err;
	}
	ft->guard_fd = p[1];
	return 0;
}

static void guard_dismiss(struct ftrace_tracer *ft)
{
	if (ft->guard <= 0)
		return;
	close(ft->guard_fd);	/* EOF: it finds the instances gone and ends */
	waitpid(ft->guard, NULL, 0);
	ft->guard = -1;
	ft->guard_fd = -1;
}

/* An event's format into the tep and its id: the sched events at load, the probes' once made. */
static int parse_event(struct ftrace_tracer *ft, const char *system, const char *name)
{
	struct tep_event *ev;
	int size = 0;
	char *fmt = tracefs_event_file_read(NULL, system, name, "format", &size);

	if (!fmt)
		return -errno ? -errno : -EIO;
	tep_parse_event(ft->tep, fmt, (unsigned long)size, system);
	free(fmt);
	ev = tep_find_event_by_name(ft->tep, system, name);
	return ev ? ev->id : -ENOENT;
}

/*
 * The ring's page header and the formats of the sched events the replay reads, each from
 * its own file.  Not tracefs_local_events_system(): it also loads /proc/kallsyms,
 * saved_cmdlines and printk_formats, which no sched event needs, and they were most of the
 * backend's start-up (docs/ftrace.md, "Start-up").
 */
static int resolve_events(struct ftrace_tracer *ft)
{
	int size = 0;
	char *header;

	ft->tep = tep_alloc();
	if (!ft->tep) {
		fprintf(stderr, "migtrace: no memory for the sched events' formats\n");
		return -ENOMEM;
	}
	header = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!header) {
		fprintf(stderr, "migtrace: reading %s/events/header_page failed: %s\n",
			tracefs_tracing_dir(), strerror(errno));
		return -EIO;
	}
	tep_parse_header_page(ft->tep, header, size, sizeof(long));
	free(header);
	/* the kernel's long, by which the ring's pages are laid out: the size of the page
	 * header's commit field, as tracefs_local_events_system() sets it (tep_kbuffer()
	 * takes an unset one for 4 bytes, and then reads no record right) */
	tep_set_long_size(ft->tep, tep_get_header_page_size(ft->tep));
	/* an event this kernel lacks is said below when the replay needs it */
	for (int t = SE_SWITCH; t <= SE_EXIT; t++)
		parse_event(ft, "sched", sched_replay_event_name(t));
	ft->dec = sched_decoder_new(ft->tep);
	if (!ft->dec) {
		fprintf(stderr, "migtrace: no memory for the sched events' decoder\n");
		return -ENOMEM;
	}
	for (int t = SE_SWITCH; t <= SE_EXIT; t++) {
		if (!event_required(t) || sched_decoder_has(ft->dec, t))
			continue;
		fprintf(stderr, "migtrace: this kernel's sched:%s lacks a field the replay reads "
			"(or the event): the ftrace backend cannot run here (use --backend bpf)\n",
			sched_replay_event_name(t));
		return -ENOENT;
	}
	return 0;
}

/* Names and creates one instance, tracing off until attach. */
static int make_instance(struct ftrace_tracer *ft, int i, const char *suffix)
{
	snprintf(ft->name[i], sizeof(ft->name[i]), "migtrace-%d%s", (int)getpid(), suffix);
	/* a leftover of an earlier migtrace that had this pid: its settings are not ours */
	if (tracefs_instance_exists(ft->name[i])) {
		struct tracefs_instance *old = tracefs_instance_alloc(NULL, ft->name[i]);

		if (old) {
			tracefs_instance_destroy(old);
			tracefs_instance_free(old);
		}
	}
	ft->inst[i] = tracefs_instance_create(ft->name[i]);
	if (!ft->inst[i]) {
		int err = -errno;

		fprintf(stderr, "migtrace: creating the tracefs instance %s failed: %s (is "
			"%s/instances writable? ftrace needs root)\n", ft->name[i],
			strerror(errno), tracefs_tracing_dir());
		return err ? err : -EIO;
	}
	tracefs_trace_off(ft->inst[i]);
	return 0;
}

/* A test aid's value from the environment: a positive whole number, or 0 when unset. */
static unsigned long test_aid(const char *name)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 10) : 0;
}

/* The clock, the ring's mode and size: one instance's settings before its events. */
static int set_ring(struct ftrace_tracer *ft, int i, uint64_t ringbuf_bytes)
{
	struct tracefs_instance *in = ft->inst[i];
	size_t min_kib = i == FT_MAIN ? FT_MAIN_MIN_KIB : FT_MIG_MIN_KIB;
	size_t kib = ringbuf_bytes / 1024;
	unsigned long forced = test_aid("MIGTRACE_FTRACE_KIB");

	/* --ringbuf sizes BPF's one ring of records; here each CPU has a ring of raw events */
	if (kib < min_kib)
		kib = min_kib;
	/* MIGTRACE_FTRACE_KIB=N: N KiB a CPU, so that tests can make the rings lose events */
	if (forced)
		kib = forced;
	if (tracefs_instance_file_write(in, "trace_clock", "mono") < 0) {
		fprintf(stderr, "migtrace: setting trace_clock to mono in %s failed: this kernel's "
			"ftrace cannot stamp events with CLOCK_MONOTONIC (use --backend bpf)\n",
			ft->name[i]);
		return -EIO;
	}
	if (tracefs_option_disable(in, TRACEFS_OPTION_OVERWRITE) ||
	    tracefs_instance_set_buffer_size(in, kib, -1) < 0) {
		fprintf(stderr, "migtrace: setting up the ring of %s (overwrite off, %zu KiB a CPU) "
			"failed: %s\n", ft->name[i], kib, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int enable_event(struct ftrace_tracer *ft, int i, int type)
{
	const char *name = sched_replay_event_name(type);
	char path[128];

	if (!sched_decoder_has(ft->dec, type))
		return 0;	/* optional, and not in this kernel: said in meta.backend */
	/* the file itself: tracefs_event_enable() lists every system and every event of
	 * sched to match its regular expressions, for each event enabled */
	snprintf(path, sizeof(path), "events/sched/%s/enable", name);
	if (tracefs_instance_file_write(ft->inst[i], path, "1") > 0)
		return 0;
	fprintf(stderr, "migtrace: enabling sched:%s in %s failed: %s\n", name, ft->name[i],
		strerror(errno));
	return -EIO;
}

static int unit_migrate(void *ctx, const struct mt_migrate *m)
{
	struct ftrace_tracer *ft = ctx;
	int err = ft->join ? unit_join_migration(ft->join, m) : 0;

	if (err)
		return err;
	return ft->on_migrate ? ft->on_migrate(ft->ctx, m) : 0;
}

static int unit_offcpu(void *ctx, const struct mt_offcpu *o)
{
	struct ftrace_tracer *ft = ctx;
	int err = ft->join ? unit_join_offcpu(ft->join, o) : 0;

	if (err)
		return err;
	return ft->on_offcpu ? ft->on_offcpu(ft->ctx, o) : 0;
}

static int unit_emit(void *ctx, const struct mt_unit *u)
{
	struct ftrace_tracer *ft = ctx;

	ft->units++;
	return ft->on_unit ? ft->on_unit(ft->ctx, u) : 0;
}

static uint32_t tgid_of(void *ctx, uint32_t pid)
{
	pid_t tgid = launch_tgid_of((pid_t)pid);

	(void)ctx;
	return tgid > 0 ? (uint32_t)tgid : 0;
}

/*
 * Names every CPU's stopper ("migration/N") for the replay before the first event: its moves
 * (active balance, sched_exec) are told by the current task, learnt from sched_switch,
 * and a kernel may trace no switch while some task runs (docs/ftrace.md, "How causes are
 * told").  The stoppers are kernel threads made at boot, so /proc lists them first: the
 * scan ends once nr_cpus are found.  0, or -ENOMEM.
 */
static int name_stoppers(struct ftrace_tracer *ft)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0, err = 0;

	while (d && !err && found < ft->nr_cpus && (e = readdir(d))) {
		unsigned long pid = strtoul(e->d_name, NULL, 10);
		unsigned int cpu;
		char comm[32], tail;

		/* gone meanwhile, or not a stopper */
		if (!pid || pid > UINT32_MAX || !pid_comm((long)pid, comm, sizeof(comm)) ||
		    sscanf(comm, "migration/%u%c", &cpu, &tail) != 2 || tail != '\n' ||
		    cpu >= (unsigned int)ft->nr_cpus)
			continue;
		err = sched_replay_note_stopper(ft->rp, (uint32_t)pid, (int)cpu);
		found++;
	}
	if (d)
		closedir(d);
	return err;
}

static int ftrace_tracer_load(struct tracer *tr, const struct tracer_opts *o)
{
	int nr_cpus = tr->nr_cpus;
	struct ftrace_tracer *ft = calloc(1, sizeof(*ft));
	struct sched_replay_opts ro = {
		.hot_ns = o->hot_ns, .topo = o->topo, .nr_cpus = nr_cpus, .scope = o->scope,
		.tgid_of = tgid_of, .on_migrate = o->on_migrate, .on_offcpu = o->on_offcpu, .on_switch = o->on_switch,
		.on_waking = o->on_waking,
		.ctx = o->ctx, .no_records = o->no_records,
	};
	char why[256];
	int err;

	tr->backend_state = ft;
	if (!ft)
		return -ENOMEM;
	ft->guard = -1;
	ft->guard_fd = -1;
	ft->nr_cpus = nr_cpus;
	ft->unit_id[0] = ft->unit_id[1] = -1;
	/* MIGTRACE_FTRACE_READ_MS=N: read every N ms, so that tests can make small rings
	 * overflow whatever the machine's event rate (see MIGTRACE_FTRACE_KIB) */
	ft->read_every_ms = (int)test_aid("MIGTRACE_FTRACE_READ_MS");
	if (ft->read_every_ms <= 0 || ft->read_every_ms > 60000)
		ft->read_every_ms = READ_EVERY_MS;
	ft->on_migrate = o->on_migrate;
	ft->on_offcpu = o->on_offcpu;
	ft->on_unit = o->on_unit;
	ft->ctx = o->ctx;
	snprintf(ft->unit_system, sizeof(ft->unit_system), "migtrace_%d", (int)getpid());
	if (o->unit_probes) {
		/* the units are joined here with the moves and off-CPU periods: see both */
		ro.on_migrate = unit_migrate;
		ro.on_offcpu = unit_offcpu;
		ro.ctx = ft;
		ro.no_records = false;
	}
	ft->all = o->scope == MT_SCOPE_ALL;
	if (o->keep_trace) {
		ft->keep_path = o->keep_trace;
		ft->keep = trace_keep_new(FT_NR_INST, nr_cpus);
		if (!ft->keep) {
			fprintf(stderr, "migtrace: --keep-trace: no spool files for the capture "
				"(one a CPU and instance, %d): %s%s\n", FT_NR_INST * nr_cpus,
				strerror(errno), errno == EMFILE ? "; raise the open-file limit "
				"(`ulimit -n`) and try again" : "");
			return -errno ? -errno : -ENOMEM;
		}
	}
	if (o->scope == MT_SCOPE_CGROUP) {
		fprintf(stderr, "migtrace: --cgroup needs the BPF backend (ftrace cannot filter "
			"by cgroup here): use --backend bpf or -p/-a\n");
		return -EOPNOTSUPP;
	}
	err = ftrace_tracer_check(why, sizeof(why));
	if (err) {
		fprintf(stderr, "migtrace: the ftrace backend cannot run: %s\n", why);
		return err;
	}
	ft->rp = sched_replay_new(&ro);
	if (!ft->rp) {
		fprintf(stderr, "migtrace: no memory for the replay of the sched events\n");
		return -ENOMEM;
	}
	err = name_stoppers(ft);
	if (err) {
		fprintf(stderr, "migtrace: no memory for the replay of the sched events\n");
		return err;
	}
	err = resolve_events(ft);
	if (err)
		return err;
	remove_orphans();
	/* names first, so that the guard knows what to remove before anything exists */
	snprintf(ft->name[FT_MAIN], FT_NAME_LEN, "migtrace-%d", (int)getpid());
	if (!ft->all)
		snprintf(ft->name[FT_MIG], FT_NAME_LEN, "migtrace-%d-mig", (int)getpid());
	err = guard_start(ft);
	if (err) {
		fprintf(stderr, "migtrace: starting the guard of the tracefs instances failed: "
			"%s\n", strerror(-err));
		return err;
	}
	for (int i = 0; i < FT_NR_INST && !err; i++) {
		if (!ft->name[i][0])
			continue;
		err = make_instance(ft, i, i == FT_MIG ? "-mig" : "");
		if (!err)
			err = set_ring(ft, i, o->ringbuf_bytes);
	}
	for (int t = SE_SWITCH; t <= SE_EXIT && !err; t++)
		err = enable_event(ft, t == SE_MIGRATE && !ft->all ? FT_MIG : FT_MAIN, t);
	if (!err && !ft->all && tracefs_option_enable(ft->inst[FT_MAIN], TRACEFS_OPTION_EVENT_FORK)) {
		fprintf(stderr, "migtrace: turning event-fork on in %s failed: %s\n",
			ft->name[FT_MAIN], strerror(errno));
		err = -EIO;
	}
	return err;
}

/* Appends the threads of tgid to the instance's set_event_pid. */
static int filter_threads(struct ftrace_tracer *ft, uint32_t tgid)
{
	char dir[64], pid[24];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%u/task", tgid);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		unsigned long tid = strtoul(e->d_name, NULL, 10);

		if (!tid)
			continue;
		snprintf(pid, sizeof(pid), "%lu ", tid);
		if (tracefs_instance_file_append(ft->inst[FT_MAIN], "set_event_pid", pid) < 0)
			break;
		n++;
	}
	if (d)
		closedir(d);
	if (!n) {	/* gone already, or /proc unreadable: the leader at least */
		snprintf(pid, sizeof(pid), "%u", tgid);
		if (tracefs_instance_file_append(ft->inst[FT_MAIN], "set_event_pid", pid) < 0) {
			fprintf(stderr, "migtrace: adding pid %u to %s's set_event_pid failed: "
				"%s\n", tgid, ft->name[FT_MAIN], strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

static int ftrace_tracer_track(struct tracer *tr, uint32_t tgid, bool from_exec)
{
	struct ftrace_tracer *ft = tr->backend_state;
	int err = sched_replay_track(ft->rp, tgid, from_exec);

	if (!ft->tgid)
		ft->tgid = tgid;
	if (err || ft->all)
		return err;
	return filter_threads(ft, tgid);
}

static int open_cpus(struct ftrace_tracer *ft, int i)
{
	ft->cpus[i] = calloc((size_t)ft->nr_cpus, sizeof(*ft->cpus[i]));
	if (!ft->cpus[i])
		return -ENOMEM;
	for (int cpu = 0; cpu < ft->nr_cpus; cpu++) {
		struct ft_cpu *c = &ft->cpus[i][cpu];

		c->tcpu = tracefs_cpu_open(ft->inst[i], cpu, true);
		if (!c->tcpu)
			continue;	/* a possible CPU that is not there: nothing to read */
		c->page_size = tracefs_cpu_read_size(c->tcpu);
		c->page = malloc((size_t)(c->page_size > 0 ? c->page_size : 4096));
		c->kbuf = tep_kbuffer(ft->tep);
		if (!c->page || !c->kbuf) {
			fprintf(stderr, "migtrace: no memory for the reader of CPU %d's buffer\n",
				cpu);
			return -ENOMEM;
		}
	}
	return 0;
}

static int ftrace_tracer_attach(struct tracer *tr)
{
	struct ftrace_tracer *ft = tr->backend_state;
	int err = 0;

	for (int i = 0; i < FT_NR_INST && !err; i++)
		if (ft->inst[i])
			err = open_cpus(ft, i);
	if (err)
		return err;
	/* the unfiltered moves first: a traced task's first move is not missed */
	for (int i = FT_NR_INST - 1; i >= 0; i--) {
		if (ft->inst[i] && tracefs_trace_on(ft->inst[i]) < 0) {
			fprintf(stderr, "migtrace: turning tracing on in %s failed: %s\n",
				ft->name[i], strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

static int ftrace_tracer_attach_unit(struct tracer *tr, const char *binary,
				     const char *function)
{
	struct ftrace_tracer *ft = tr->backend_state;
	uint64_t off;
	int err = elf_function_offset(binary, function, &off);

	if (err) {
		fprintf(stderr, "migtrace: finding %s in %s failed: %s (is the function in the "
			"binary's symbol table?)\n", function, binary, strerror(-err));
		return err;
	}
	if (ft->unit_probe[0]) {
		fprintf(stderr, "migtrace: the ftrace backend times one --unit function\n");
		return -E2BIG;
	}
	u32_table_init(&ft->unit_threads, sizeof(struct ft_unit_thread));
	ft->join = unit_join_new(ft->tgid, unit_emit, ft);
	if (!ft->join)
		return -ENOMEM;
	for (int i = 0; i < 2; i++) {
		ft->unit_probe[i] = i ? tracefs_uretprobe_alloc(ft->unit_system, unit_events[i],
								binary, off, NULL) :
					tracefs_uprobe_alloc(ft->unit_system, unit_events[i], binary,
							     off, NULL);
		if (!ft->unit_probe[i] || tracefs_dynevent_create(ft->unit_probe[i])) {
			fprintf(stderr, "migtrace: adding a %s on %s:%s to uprobe_events failed: "
				"%s\n", i ? "uretprobe" : "uprobe", binary, function,
				strerror(errno));
			return -EIO;
		}
		ft->unit_id[i] = parse_event(ft, ft->unit_system, unit_events[i]);
		if (ft->unit_id[i] < 0) {
			fprintf(stderr, "migtrace: reading the format of %s/%s failed: %s\n",
				ft->unit_system, unit_events[i], strerror(-ft->unit_id[i]));
			return ft->unit_id[i];
		}
		if (tracefs_event_enable(ft->inst[FT_MAIN], ft->unit_system, unit_events[i])) {
			fprintf(stderr, "migtrace: enabling %s/%s in %s failed: %s\n",
				ft->unit_system, unit_events[i], ft->name[FT_MAIN], strerror(errno));
			return -EIO;
		}
	}
	return 0;
}

static int push_event(struct ftrace_tracer *ft, const struct sched_event *e)
{
	if (ft->npending == ft->cap) {
		size_t cap = ft->cap ? ft->cap * 2 : 4096;
		struct sched_event *p = realloc(ft->pending, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ft->pending = p;
		ft->cap = cap;
	}
	ft->pending[ft->npending++] = *e;
	return 0;
}

/* One raw event into the window: those not of the events replayed are skipped. */
static int decode(struct ftrace_tracer *ft, void *data, int size, uint64_t ts, int cpu)
{
	struct tep_record rec = { .ts = ts, .cpu = cpu, .data = data, .size = size };
	struct sched_event e = { .ts_ns = ts, .cpu = (uint32_t)cpu };
	int id = tep_data_type(ft->tep, &rec);

	for (int u = 0; u < 2; u++) {
		if (ft->unit_id[u] == id) {
			e.type = u ? FT_UNIT_EXIT : FT_UNIT_ENTER;
			e.pid = (uint32_t)tep_data_pid(ft->tep, &rec);
			return push_event(ft, &e);
		}
	}
	if (sched_decode(ft->dec, &rec, &e) != 1)
		return 0;
	return push_event(ft, &e);
}

/* Everything CPU cpu's buffer of instance i holds now (flush: also a partial page). */
static int read_cpu(struct ftrace_tracer *ft, int i, int cpu, bool flush)
{
	struct ft_cpu *c = &ft->cpus[i][cpu];
	int n = 0, err;

	if (!c->tcpu)
		return 0;
	for (;;) {
		unsigned long long ts;
		void *data;
		int len = flush ? tracefs_cpu_flush(c->tcpu, c->page) :
				  tracefs_cpu_read(c->tcpu, c->page, true);

		if (len <= 0)
			break;
		if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
			break;
		for (data = kbuffer_read_event(c->kbuf, &ts); data;
		     data = kbuffer_next_event(c->kbuf, &ts)) {
			if (ft->keep && (err = trace_keep_event(ft->keep, i, cpu, ts, data,
								(unsigned)kbuffer_event_size(c->kbuf))))
				return err;
			err = decode(ft, data, kbuffer_event_size(c->kbuf), ts, cpu);
			if (err)
				return err;
			n++;
		}
	}
	return n;
}

static int by_ts(const void *a, const void *b)
{
	const struct sched_event *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	/* a move and the switch at the same stamp: the move first, as the kernel ran them */
	return (x->type != SE_MIGRATE) - (y->type != SE_MIGRATE);
}

/* The thread's slot for a unit in progress: found, or taken (NULL: no room). */
static struct ft_unit_thread *unit_thread(struct ftrace_tracer *ft, uint32_t tid, bool take)
{
	struct ft_unit_thread *t = u32_table_find(&ft->unit_threads, tid);

	if (t || !take || ft->unit_threads.n >= FT_UNIT_THREADS)
		return t;
	return u32_table_insert(&ft->unit_threads, tid);
}

/* A unit probe's event, in time order: the outermost call's return is a unit. */
static int unit_event(struct ftrace_tracer *ft, const struct sched_event *e)
{
	struct ft_unit_thread *t = unit_thread(ft, e->pid, e->type == FT_UNIT_ENTER);
	struct uj_unit u = { .tid = e->pid, .tag = CW_TAG_NATURAL };

	if (!t) {
		ft->units_dropped += e->type == FT_UNIT_ENTER;
		return 0;
	}
	if (e->type == FT_UNIT_ENTER) {
		if (!t->depth++) {
			t->start_ns = e->ts_ns;
			t->cpu = e->cpu;
		}
		return 0;
	}
	if (!t->depth || --t->depth)
		return 0;
	u.cpu_start = (uint16_t)t->cpu;
	u.cpu_end = (uint16_t)e->cpu;
	u.start_ns = t->start_ns;
	u.end_ns = e->ts_ns;
	u32_table_remove(&ft->unit_threads, t->tid);
	return ft->join ? unit_join_unit(ft->join, &u) : 0;
}

/* Replays the window's events older than upto_ns, keeps the rest. */
static int replay_upto(struct ftrace_tracer *ft, uint64_t upto_ns)
{
	size_t k = 0;

	qsort(ft->pending, ft->npending, sizeof(*ft->pending), by_ts);
	for (; k < ft->npending && ft->pending[k].ts_ns < upto_ns; k++) {
		const struct sched_event *e = &ft->pending[k];
		int err = e->type >= FT_UNIT_ENTER ? unit_event(ft, e) :
						     sched_replay_event(ft->rp, e);

		if (err && !ft->err)
			ft->err = err;
	}
	memmove(ft->pending, ft->pending + k, (ft->npending - k) * sizeof(*ft->pending));
	ft->npending -= k;
	if (ft->join && !ft->err)
		ft->err = unit_join_flush(ft->join, upto_ns);
	return ft->err;
}

static int read_all(struct ftrace_tracer *ft, bool flush)
{
	int total = 0;

	for (int i = 0; i < FT_NR_INST; i++) {
		for (int cpu = 0; ft->cpus[i] && cpu < ft->nr_cpus; cpu++) {
			int n = read_cpu(ft, i, cpu, flush);

			if (n < 0)
				return n;
			total += n;
		}
	}
	return total;
}

static int ftrace_tracer_poll(struct tracer *tr, int timeout_ms)
{
	struct ftrace_tracer *ft = tr->backend_state;
	uint64_t start = mono_ns(), end = start + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000;
	int n, total = 0, err;

	/*
	 * The rings are read every READ_EVERY_MS while the caller waits: a CPU switching
	 * half a million times a second writes ~36 MB/s of events, more than its ring holds
	 * in 100 ms (pipe-pinned lost 197296 events in 2 s when read only at each poll).
	 */
	for (;;) {
		uint64_t now;

		start = mono_ns();
		n = read_all(ft, false);
		if (n < 0)
			return n;
		total += n;
		now = mono_ns();
		if (now >= end)
			break;
		if (poll(NULL, 0, (int)((end - now) / 1000000 < (uint64_t)ft->read_every_ms ?
					(end - now + 999999) / 1000000 : (uint64_t)ft->read_every_ms)) < 0 &&
		    errno == EINTR) {
			replay_upto(ft, start > REORDER_SLACK_NS ? start - REORDER_SLACK_NS : 0);
			return -EINTR;
		}
	}
	err = replay_upto(ft, start > REORDER_SLACK_NS ? start - REORDER_SLACK_NS : 0);
	return err ? err : total;
}

static int ftrace_tracer_stop(struct tracer *tr)
{
	struct ftrace_tracer *ft = tr->backend_state;
	int n;

	if (!ft)
		return 0;
	for (int i = 0; i < FT_NR_INST; i++)
		if (ft->inst[i])
			tracefs_trace_off(ft->inst[i]);
	if (!ft->cpus[FT_MAIN])
		return 0;
	poll(NULL, 0, STOP_SETTLE_MS);
	n = read_all(ft, false);
	if (n >= 0)
		n = read_all(ft, true);
	if (n < 0)
		return n;
	/* every event is read: the capture can be written whole */
	if (ft->keep) {
		n = trace_keep_write(ft->keep, ft->tep, ft->keep_path);
		if (n)
			return n;
		fprintf(stderr, "migtrace: kept the capture in %s (%llu events; trace-cmd report "
			"reads it)\n", ft->keep_path,
			(unsigned long long)trace_keep_events(ft->keep));
		trace_keep_free(ft->keep);
		ft->keep = NULL;
	}
	n = replay_upto(ft, UINT64_MAX);
	/* the stopper's moves still waiting for an exec are active balance now */
	if (!n)
		n = sched_replay_flush(ft->rp);
	if (!n && ft->join)
		n = unit_join_flush(ft->join, UINT64_MAX);
	return n;
}

/* "overrun: N" and "dropped events: N" of every CPU of instance i. */
static uint64_t lost_of(const struct ftrace_tracer *ft, int i)
{
	uint64_t lost = 0;
	char file[64];

	for (int cpu = 0; cpu < ft->nr_cpus; cpu++) {
		char *text, *p;
		unsigned long long v;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(ft->inst[i], file, NULL);
		if (!text)
			continue;
		if ((p = strstr(text, "overrun:")) && sscanf(p, "overrun: %llu", &v) == 1)
			lost += v;
		if ((p = strstr(text, "dropped events:")) &&
		    sscanf(p, "dropped events: %llu", &v) == 1)
			lost += v;
		free(text);
	}
	return lost;
}

static uint64_t ftrace_tracer_lost(const struct ftrace_tracer *ft)
{
	uint64_t lost = 0;

	for (int i = 0; i < FT_NR_INST; i++)
		if (ft->inst[i])
			lost += lost_of(ft, i);
	return lost;
}

static int ftrace_tracer_read_counts(const struct tracer *tr, struct mt_stats *stats,
				     struct mt_hists *hists)
{
	const struct ftrace_tracer *ft = tr->backend_state;

	/* the rings' lost events are meta.backend.lost_events (ftrace_tracer_describe), not
	 * lost records: what the replay counted misses them, and the run says so */
	sched_replay_counts(ft->rp, stats, hists);
	if (ft->join) {
		stats->units = ft->units;
		stats->units_dropped = ft->units_dropped + unit_join_unjoinable(ft->join);
	}
	return 0;
}

static int ftrace_tracer_read_pairs(const struct tracer *tr, uint64_t *pairs)
{
	const struct ftrace_tracer *ft = tr->backend_state;

	sched_replay_pairs(ft->rp, pairs);
	return 0;
}

static void ftrace_tracer_describe(const struct tracer *tr, struct run_backend *b)
{
	const struct ftrace_tracer *ft = tr->backend_state;
	struct sched_replay_info info;
	size_t len;

	if (!ft)
		return;
	sched_replay_info(ft->rp, &info);
	b->replayed = true;
	b->events = info.events;
	b->out_of_order = info.out_of_order;
	b->stopper_moves = info.stopper_moves;
	b->unknown_age = info.unknown_age;
	b->lost_events = ftrace_tracer_lost(ft);
	/* the topology is the host's, read as for BPF; the rest no event carries */
	snprintf(b->not_read, sizeof(b->not_read),
		 "kernel_age,kernel_migrations,affinity,numa,core_cookie");
	b->missing[0] = 0;
	for (int t = SE_SWITCH; t <= SE_EXIT; t++) {
		if (sched_decoder_has(ft->dec, t))
			continue;
		len = strlen(b->missing);
		snprintf(b->missing + len, sizeof(b->missing) - len, "%s%s", len ? "," : "",
			 sched_replay_event_name(t));
	}
}

static void ftrace_tracer_destroy(struct tracer *tr)
{
	struct ftrace_tracer *ft = tr->backend_state;

	if (!ft)
		return;
	tr->backend_state = NULL;
	for (int i = 0; i < FT_NR_INST; i++) {
		for (int cpu = 0; ft->cpus[i] && cpu < ft->nr_cpus; cpu++) {
			tracefs_cpu_close(ft->cpus[i][cpu].tcpu);
			kbuffer_free(ft->cpus[i][cpu].kbuf);
			free(ft->cpus[i][cpu].page);
		}
		free(ft->cpus[i]);
		if (ft->inst[i]) {
			tracefs_trace_off(ft->inst[i]);
			tracefs_instance_destroy(ft->inst[i]);
			tracefs_instance_free(ft->inst[i]);
		}
	}
	for (int i = 0; i < 2; i++) {
		if (!ft->unit_probe[i])
			continue;
		tracefs_dynevent_destroy(ft->unit_probe[i], true);
		tracefs_dynevent_free(ft->unit_probe[i]);
	}
	trace_keep_free(ft->keep);	/* a run that ended before its stop: nothing written */
	guard_dismiss(ft);
	unit_join_free(ft->join);
	u32_table_free(&ft->unit_threads);
	sched_decoder_free(ft->dec);
	tep_free(ft->tep);
	sched_replay_free(ft->rp);
	free(ft->pending);
	free(ft);
}

const struct tracer_backend ftrace_tracer_backend = {
	.id = TRACER_BACKEND_FTRACE,
	.load = ftrace_tracer_load,
	.track = ftrace_tracer_track,
	.attach = ftrace_tracer_attach,
	.attach_unit = ftrace_tracer_attach_unit,
	.poll = ftrace_tracer_poll,
	.stop = ftrace_tracer_stop,
	.read_counts = ftrace_tracer_read_counts,
	.read_pairs = ftrace_tracer_read_pairs,
	.describe = ftrace_tracer_describe,
	.destroy = ftrace_tracer_destroy,
};

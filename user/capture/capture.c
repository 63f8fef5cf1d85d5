// SPDX-License-Identifier: GPL-2.0
/*
 * Capture: the workload is forked first and held at a barrier, the BPF programs are loaded
 * with its pid in the traced set and attached, then it is released: nothing it does is
 * missed, and nothing before it counted.  Records drained from the ring buffer go straight
 * into the run model (one stream, one consumer per kind of record); the in-kernel counters,
 * histograms and CPU pairs are read once tracing has stopped.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf_util.h"
#include "capture.h"
#include "clock.h"
#include "interval_clock.h"
#include "launch.h"
#include "llc_ids.h"
#include "probe_cost.h"
#include "probe_moves.h"
#include "sched_rules.h"
#include "tracer.h"
#include "unit_join.h"
#include "unit_log_reader.h"
#include "status.h"

#define GRACE_NS 2000000000ULL	/* between the signals that end a workload */
#define UNIT_LOG_SLOTS 32768	/* 1.5 MiB: over half a second of 40 µs units on 2 CPUs */
/*
 * The join waits this long past a poll's start for records still being written on another
 * CPU: a BPF program runs with preemption off and takes µs.
 */
#define JOIN_SLACK_NS 1000000ULL

/*
 * Ending a launched workload: the first signal goes to its whole process group; whatever
 * is still there GRACE_NS later gets SIGTERM, then SIGKILL.  Each step is said, so a
 * workload that ignores SIGINT does not leave the user guessing.
 */
struct ending {
	int next_sig;		/* 0: nothing pending */
	uint64_t next_ns;	/* when to send it */
	int nsig;		/* signals migtrace itself received */
	int first_sig;		/* the first of them: sweep ends with 128 + it */
	bool by_duration;	/* --duration ended it */
	bool by_count;		/* --count's last interval ended it */
	bool by_reader;		/* the reader of the interval lines went away */
};

struct capture {
	const struct run_config *cfg;
	struct run *r;
	struct launch child;
	struct tracer tr;
	struct ending ending;
	struct rusage entry;	/* our rusage when the capture began */
	double start_cpu_s;	/* our CPU when tracing began, after load and attach */
	uint64_t deadline_ns;	/* --duration's end, 0 for none */
	/* self-timed units (the built-in cachewalk): its log and their join */
	struct unit_log_reader ulog;
	struct unit_join *join;
	int join_err;		/* the first error of the join: out of memory */
	struct interval_clock ic;	/* --interval */
	uint64_t gate_seen_ns;		/* the workload reached the round gate; 0: not */
	int probe_backend;	/* whose probes --unit's probe cost timed (TRACER_BACKEND_*) */
	/* --cgroup: the id traced now, when its path is looked at next, and whether it is gone */
	uint64_t cgroup_id;
	uint64_t cgroup_next_ns;
	bool cgroup_gone;
	struct probe_mover *mover;	/* --probe-moves; NULL: none */
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
}

/*
 * Peak RSS of this process image.  Not ru_maxrss: Linux carries the pre-exec image's peak
 * into it, so under a big parent (a Python harness) it reports the parent's size.
 */
static long self_peak_rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* The consumers of the record stream: each kind of record into the model. */
static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	struct capture *cap = ctx;

	if (cap->join && !cap->join_err)
		cap->join_err = unit_join_migration(cap->join, m);
	interval_clock_record(&cap->ic, m);
	return run_record_add(cap->r, m);
}

static int on_unit(void *ctx, const struct mt_unit *u)
{
	struct capture *cap = ctx;
	struct mt_unit probed;

	/* --probe-moves: a moment's next unit, kept whatever --max-records keeps */
	if (probe_mover_unit(cap->mover, u, &probed) &&
	    run_record_add_probe_unit(cap->r, &probed))
		return -ENOMEM;
	return run_record_add_unit(cap->r, u);
}

static int on_offcpu(void *ctx, const struct mt_offcpu *o)
{
	struct capture *cap = ctx;

	if (!cap->join_err)
		cap->join_err = unit_join_offcpu(cap->join, o);
	return 0;
}

static int on_switch(void *ctx, const struct mt_switch *s)
{
	struct capture *cap = ctx;

	return run_record_add_switch(cap->r, s);
}

static int on_waking(void *ctx, const struct mt_waking *w)
{
	struct capture *cap = ctx;

	return run_record_add_waking(cap->r, w);
}

static int on_probe_unit(void *ctx, const struct mt_unit *u)
{
	struct capture *cap = ctx;

	return run_record_add_probe_unit(cap->r, u);
}

static int on_logged_unit(void *ctx, const struct mt_unit_slot *s)
{
	struct capture *cap = ctx;
	struct uj_unit u = {
		.tid = s->tid, .cpu_start = s->cpu_start, .cpu_end = s->cpu_end,
		.start_ns = s->start_ns, .end_ns = s->end_ns, .tag = s->tag,
		.trial = { .nominal_age_ns = s->nominal_age_ns,
			   .streamed_bytes = s->streamed_bytes, .round = s->round,
			   .rate_mbps = s->rate_mbps },
	};

	if (!cap->join_err)
		cap->join_err = unit_join_unit(cap->join, &u);
	return 0;
}

/*
 * Units the workload timed itself arrive through the unit log, and are joined with the
 * records read so far: those of units that ended before watermark_ns (UINT64_MAX: all).
 */
static void join_units(struct capture *cap, uint64_t watermark_ns, bool final)
{
	if (!cap->join)
		return;
	unit_log_drain(&cap->ulog, final, on_logged_unit, cap);
	if (!cap->join_err)
		cap->join_err = unit_join_flush(cap->join, watermark_ns);
}

/*
 * Units: --unit BINARY:FUNCTION is timed by a uprobe + uretprobe pair; the built-in cachewalk
 * times its own units and logs them (workloads/unit_log.h), which costs it no trap.
 */
static int attach_units(struct capture *cap)
{
	const struct run_config *cfg = cap->cfg;
	int err;

	if (cap->join) {
		snprintf(cap->r->meta.unit_spec, sizeof(cap->r->meta.unit_spec), "unit-log:%s",
			 cfg->path);
		return 0;
	}
	if (!cfg->unit_arg)
		return 0;
	err = tracer_attach_unit(&cap->tr, cfg->unit_bin, cfg->unit_func);
	if (!err)
		snprintf(cap->r->meta.unit_spec, sizeof(cap->r->meta.unit_spec), "%s:%s",
			 cfg->unit_bin, cfg->unit_func);
	return err;
}

/*
 * -a, --cgroup: which tasks the programs trace, and whether they send a record per
 * migration: not when nothing reads the records (docs/design.md, "System-wide and cgroup
 * scope").
 */
static void set_scope(const struct run_config *cfg, struct run *r, struct tracer_opts *o)
{
	if (!run_config_scoped(cfg))
		return;
	o->scope = cfg->all ? MT_SCOPE_ALL : MT_SCOPE_CGROUP;
	o->cgroup_id = cfg->cgroup_id;
	o->no_records = r->records_off = run_config_aggregates_only(cfg);
}

/*
 * --probe-moves: the mover and its guard, ready to draw once the workload is released.  A
 * program without units has its probed runs timed by the BPF programs alone.
 */
static int start_mover(struct capture *cap)
{
	struct run *r = cap->r;
	struct probe_mover_opts po = {
		.setup = &r->probe,
		.root = (pid_t)r->meta.pid,
		.cpus = r->meta.attached ? NULL : &r->meta.cpus,
		.tr = &cap->tr,
	};

	if (r->probe.by_runs && cap->tr.backend != TRACER_BACKEND_BPF) {
		fprintf(stderr, "migtrace run: --probe-moves times a program without units by its "
			"runs to the next block, which only the BPF programs record: give --unit "
			"BINARY:FUNCTION, or --backend bpf\n");
		return -EOPNOTSUPP;
	}
	cap->mover = probe_mover_new(&po);
	return cap->mover ? 0 : -ENOMEM;
}

struct capture *capture__open(const struct run_config *cfg, struct run *r, int *status)
{
	struct capture *cap = calloc(1, sizeof(*cap));
	struct tracer_opts topts = { 0 };
	struct launch_fd pass = { .env = MT_UNIT_LOG_ENV };
	bool self_timed;

	*status = MT_EXIT_FAIL;
	if (!cap)
		return NULL;
	cap->cfg = cfg;
	cap->r = r;
	cap->child = (struct launch){ .pid = -1, .go_fd = -1, .err_fd = -1, .guard = -1,
				      .guard_fd = -1 };
	cap->ulog.fd = -1;
	/* the kernel's count compares per task: the tasks of a launched workload or of -p */
	interval_clock_init(&cap->ic, cfg->interval_ns, cfg->interval_count, cfg->per_pid,
			    cfg->exec_argv || cfg->pid, cfg->on_interval, cfg->on_interval_ctx);
	getrusage(RUSAGE_SELF, &cap->entry);
	mt_libbpf_init(mt_verbose);
	self_timed = cfg->exec_argv && cfg->cachewalk && !cfg->unit_arg;
	if (cfg->unit_arg) {
		struct probe_cost pc;

		/* before the run's own tracer: its instance is gone by then; with the backend
		 * the run asks for, whose probes differ (docs/ftrace.md, "The pid filter's
		 * pitfall") */
		probe_cost_measure(&pc, cfg->backend);
		cap->probe_backend = pc.backend;
		r->meta.unit_probe_ns = pc.measured ? pc.ns : -1;
		if (!pc.measured)
			fprintf(stderr, "migtrace run: the cost of the unit probes was not measured: "
				"%s\n", pc.why);
	}
	if (self_timed && unit_log_create(&cap->ulog, UNIT_LOG_SLOTS))
		goto fail;
	/* before the workload maps the log: it finds its gate set or not from the start */
	if (self_timed && cfg->on_round && cfg->first_rounds)
		__atomic_store_n(&cap->ulog.log->rounds_allowed, cfg->first_rounds,
				 __ATOMIC_RELEASE);
	pass.fd = cap->ulog.fd;
	if (cfg->exec_argv && launch_fork(&cap->child, cfg->path, cfg->exec_argv, &r->meta.cpus,
					  cfg->user, run_config_text(cfg) == stderr,
					  self_timed ? &pass : NULL))
		goto fail;
	/* -a and --cgroup: no one process (0, as run-file.md says) */
	r->meta.pid = cfg->pid ? (int)cfg->pid : run_config_scoped(cfg) ? 0 : cap->child.pid;
	/* the traced tasks' policy and core-scheduling cookie, as tracing begins */
	if (r->env.rules.checked && r->meta.pid > 0)
		sched_rules_probe_tasks(NULL, r->meta.pid, &r->env.rules);
	if (self_timed && !(cap->join = unit_join_new((uint32_t)r->meta.pid, on_unit, cap))) {
		fprintf(stderr, "migtrace run: no memory for the join of units\n");
		goto fail;
	}

	topts.hot_ns = r->meta.hot_ns;
	topts.ringbuf_bytes = cfg->ringbuf_bytes;
	topts.topo = &r->topo;
	topts.on_migrate = on_migrate;
	topts.on_unit = on_unit;
	topts.on_offcpu = cap->join ? on_offcpu : NULL;
	topts.on_switch = cfg->switch_records ? on_switch : NULL;
	topts.on_waking = cfg->switch_records ? on_waking : NULL;
	topts.unit_probes = !cap->join && cfg->unit_arg;
	topts.on_probe_unit = r->probe.on && r->probe.by_runs ? on_probe_unit : NULL;
	topts.ctx = cap;
	topts.backend = cfg->backend;
	topts.keep_trace = cfg->keep_trace;
	set_scope(cfg, r, &topts);
	if (tracer_load(&cap->tr, &topts) ||
	    (!run_config_scoped(cfg) &&
	     tracer_track(&cap->tr, (uint32_t)r->meta.pid, !r->meta.attached)) ||
	    tracer_attach(&cap->tr) || attach_units(cap))
		goto fail;
	snprintf(r->meta.wakeup_latency_from, sizeof(r->meta.wakeup_latency_from), "%s",
		 cap->tr.wakeup_from_queued ? "sched_info.last_queued" : "sched_wakeup");
	/* cache-aware scheduling: the BPF records carry each move's preferred LLC, in the
	 * kernel's numbering, which this table turns into CPUs */
	if (run_rules_llc(&r->env.rules) && cap->tr.backend == TRACER_BACKEND_BPF) {
		char why[256];

		if (llc_ids_read(r->env.rules.llc_ids, sizeof(r->env.rules.llc_ids), why,
				 sizeof(why)))
			fprintf(stderr, "migtrace run: cache-aware scheduling: the CPUs of each "
				"preferred LLC are not known: %s\n", why);
	}
	if (r->probe.on && start_mover(cap))
		goto fail;
	tracer_describe(&cap->tr, &r->meta.backend);	/* the text's header says it */
	/* auto took another backend than the probe cost's own load did: not this run's cost */
	if (r->meta.unit_probe_ns >= 0 && cap->probe_backend != cap->tr.backend) {
		fprintf(stderr, "migtrace run: the cost of the unit probes was not measured: it "
			"was timed with %s's probes, and the run records with %s\n",
			tracer_backend_name(cap->probe_backend),
			tracer_backend_name(cap->tr.backend));
		r->meta.unit_probe_ns = -1;
	}
	return cap;
fail:
	capture__free(cap);
	return NULL;
}

static void end_step(struct ending *e, const struct launch *child, int sig, const char *why)
{
	launch_signal(child, sig);
	if (sig == SIGKILL) {
		fprintf(stderr,
			"migtrace run: %s: sent SIGKILL to the workload's process group %d\n",
			why, (int)child->pid);
		e->next_sig = 0;
		return;
	}
	e->next_sig = sig == SIGTERM ? SIGKILL : SIGTERM;
	e->next_ns = now_ns() + GRACE_NS;
	fprintf(stderr, "migtrace run: %s: sent SIG%s to the workload's process group %d; waiting "
		"for it to end (SIG%s in 2 s; Ctrl-C again: SIGKILL now)\n", why, sigabbrev_np(sig),
		(int)child->pid, sigabbrev_np(e->next_sig));
}

static void end_reason(struct run_meta *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void end_reason(struct run_meta *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->end_reason, sizeof(m->end_reason), fmt, ap);
	va_end(ap);
}

/* A signal to migtrace: ends tracing of -p, else passes it on to the workload.  1: over. */
static int handle_signal(struct capture *cap)
{
	int sig = got_signal;
	char why[64];

	got_signal = 0;
	/* an exporter's SIGHUP: its directory checked again and a file written, not an end */
	if (sig == SIGHUP && cap->cfg->textfile_dir) {
		interval_clock_reopen(&cap->ic, &cap->tr, cap->r);
		return 0;
	}
	cap->ending.nsig++;
	if (!cap->ending.first_sig)
		cap->ending.first_sig = sig;
	if (!cap->cfg->exec_argv) {
		end_reason(&cap->r->meta, "tracing ended by %s", strsignal(sig));
		return 1;
	}
	snprintf(why, sizeof(why), "%s", cap->ending.nsig > 1 ? "asked again" : strsignal(sig));
	end_step(&cap->ending, &cap->child, cap->ending.nsig > 1 ? SIGKILL : sig, why);
	return 0;
}

/* Whether what is traced has ended: the launched workload reaped, or -p's process gone. */
static int workload_ended(struct capture *cap)
{
	struct run_meta *m = &cap->r->meta;
	int wstatus = 0;

	if (run_config_scoped(cap->cfg))
		return 0;	/* -a, --cgroup: until a signal or --duration */
	if (!cap->cfg->exec_argv) {
		/* a zombie has exited: waiting for its parent to reap it is not tracing (but a
		 * leader that called pthread_exit() is one while its threads run on) */
		if (launch_process_alive((pid_t)cap->cfg->pid))
			return 0;
		end_reason(m, "process exited");
		return 1;
	}
	if (waitpid(cap->child.pid, &wstatus, WNOHANG) != cap->child.pid)
		return 0;
	cap->child.pid = -1;
	launch_dismiss_guard(&cap->child);
	m->exit_status = launch_exit_status(wstatus);
	m->interrupted = cap->ending.by_duration || cap->ending.by_count || cap->ending.nsig > 0;
	if (cap->ending.by_duration)
		end_reason(m, "ended by --duration");
	else if (cap->ending.by_count)
		end_reason(m, "ended by --count");
	else if (WIFSIGNALED(wstatus))
		end_reason(m, "killed by signal %d (%s)", WTERMSIG(wstatus),
			   strsignal(WTERMSIG(wstatus)));
	else
		end_reason(m, "exited with status %d", m->exit_status);
	return 1;
}

/* --duration: ends tracing of -p, else starts ending the workload.  1: over. */
static int check_deadline(struct capture *cap)
{
	if (!cap->deadline_ns || now_ns() < cap->deadline_ns)
		return 0;
	cap->deadline_ns = 0;
	if (!cap->cfg->exec_argv) {
		end_reason(&cap->r->meta, "ended by --duration");
		return 1;
	}
	cap->ending.by_duration = true;
	end_step(&cap->ending, &cap->child, SIGTERM, "--duration is over");
	return 0;
}

/* --count's last interval has ended: ends tracing of -p, else starts ending the workload.
 * 1: over. */
static int end_by_count(struct capture *cap)
{
	if (!cap->cfg->exec_argv) {
		end_reason(&cap->r->meta, "ended by --count");
		return 1;
	}
	cap->ending.by_count = true;
	end_step(&cap->ending, &cap->child, SIGTERM, "--count is over");
	return 0;
}

/*
 * The round gate (workloads/unit_log.h): once the workload waits after the rounds allowed,
 * and the records of its last trial have had JOIN_SLACK_NS to arrive (two polls at least),
 * its units are joined and judged by on_round, which allows more rounds or ends it.
 */
static void gate_poll(struct capture *cap)
{
	struct mt_unit_log *log = cap->ulog.log;
	uint32_t done, next;
	uint64_t now;

	if (!cap->cfg->on_round || !log || __atomic_load_n(&log->gate_end, __ATOMIC_RELAXED))
		return;
	done = __atomic_load_n(&log->rounds_done, __ATOMIC_ACQUIRE);
	now = now_ns();
	/* rounds slower than planned (a loaded host): the deadline brings the look forward, to
	 * the end of the round under way; the workload reads the allowance only between rounds,
	 * so lowering it never cuts one short */
	if (cap->cfg->gate_deadline_ns && now >= cap->cfg->gate_deadline_ns &&
	    done + 1 >= cap->cfg->min_look_rounds &&
	    __atomic_load_n(&log->rounds_allowed, __ATOMIC_RELAXED) > done + 1)
		__atomic_store_n(&log->rounds_allowed, done + 1, __ATOMIC_RELEASE);
	if (!done || done < __atomic_load_n(&log->rounds_allowed, __ATOMIC_RELAXED))
		return;
	if (!cap->gate_seen_ns) {
		cap->gate_seen_ns = now;
		return;
	}
	if (now < cap->gate_seen_ns + 2 * JOIN_SLACK_NS)
		return;
	cap->gate_seen_ns = 0;
	join_units(cap, now - JOIN_SLACK_NS, false);
	next = cap->cfg->on_round(cap->cfg->on_round_ctx, cap->r, done);
	if (next > done)
		__atomic_store_n(&log->rounds_allowed, next, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&log->gate_end, 1, __ATOMIC_RELEASE);
}

/*
 * The reader of the interval lines went away (`run -a 1 | head -2`): with SIGPIPE ignored, the
 * writes fail with EPIPE and nobody would ever read the rest, so the run ends as on SIGINT,
 * its files written.  1: over.
 */
static int end_by_reader(struct capture *cap)
{
	if (!cap->cfg->exec_argv) {
		end_reason(&cap->r->meta, "tracing ended: the reader of its output went away");
		return 1;
	}
	if (!cap->ending.by_reader) {
		cap->ending.by_reader = true;
		end_step(&cap->ending, &cap->child, SIGINT, "the reader of the output went away");
	}
	return 0;
}

/*
 * --cgroup: a cgroup removed and created again at its path (a service's restart) is a new
 * cgroup, with a new id, and would be traced no more: looked at every second, followed, and
 * said on stderr, as its removal is.
 */
static void follow_cgroup(struct capture *cap)
{
	const char *path = cap->cfg->cgroup_arg;
	uint64_t now = now_ns(), id;
	int err;

	if (!path || now < cap->cgroup_next_ns)
		return;
	cap->cgroup_next_ns = now + 1000000000ULL;
	if (!cap->cgroup_id)
		cap->cgroup_id = cap->cfg->cgroup_id;
	err = run_config_cgroup_id(path, &id);
	if (err == -ENOENT) {
		if (!cap->cgroup_gone)
			fprintf(stderr, "migtrace run: the cgroup %s was removed: traced again if "
				"it is created again\n", path);
		cap->cgroup_gone = true;
		return;
	}
	if (err || id == cap->cgroup_id)
		return;
	err = tracer_scope_cgroup(&cap->tr, id);
	if (err) {
		fprintf(stderr, "migtrace run: following the cgroup %s to its new id %llu "
			"failed: %s\n", path, (unsigned long long)id, strerror(-err));
	} else {
		fprintf(stderr, "migtrace run: the cgroup %s was created again (id %llu, was "
			"%llu): tracing the new one\n", path, (unsigned long long)id,
			(unsigned long long)cap->cgroup_id);
	}
	cap->cgroup_id = id;
	cap->cgroup_gone = false;
}

/* Polls the ring buffer every 100 ms (or to the next interval's end, or 10 ms while the
 * round gate waits for its records) until what is traced has ended. */
static void trace_loop(struct capture *cap)
{
	uint64_t polled_ns;
	int err;

	for (;;) {
		polled_ns = now_ns();
		err = tracer_poll(&cap->tr, interval_clock_timeout_ms(&cap->ic,
							      cap->gate_seen_ns ? 10 : 100));
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "migtrace run: reading the ring buffer failed: %s\n",
				strerror(-err));
			return;
		}
		join_units(cap, polled_ns - JOIN_SLACK_NS, false);
		gate_poll(cap);
		follow_cgroup(cap);
		if (interval_clock_poll(&cap->ic, &cap->tr, cap->r) == 1 && end_by_count(cap))
			return;
		if (cap->ic.reader_gone && end_by_reader(cap))
			return;
		if (got_signal && handle_signal(cap))
			return;
		if (cap->ending.next_sig && now_ns() >= cap->ending.next_ns)
			end_step(&cap->ending, &cap->child, cap->ending.next_sig, "still running");
		if (workload_ended(cap) || check_deadline(cap))
			return;
	}
}

/*
 * What tracing cost: our own CPU and RSS, the workload's CPU, each program's runs; counted
 * from the capture's start (validate calibrates before it, which is not tracing's cost).
 */
static void measure_cost(struct capture *cap)
{
	struct tracer_prog_stat ps[RUN_MAX_PROGS];
	struct run_cost *c = &cap->r->cost;
	struct rusage self, children;
	int n;

	getrusage(RUSAGE_SELF, &self);
	c->self_user_s = tv_s(self.ru_utime) - tv_s(cap->entry.ru_utime);
	c->self_sys_s = tv_s(self.ru_stime) - tv_s(cap->entry.ru_stime);
	c->self_startup_s = cap->start_cpu_s - tv_s(cap->entry.ru_utime) -
			    tv_s(cap->entry.ru_stime);
	c->self_max_rss_kib = self_peak_rss_kib();
	c->workload_cpu_s = -1;
	/* Our children: the launched workload, waited for, and the guards (launch.c's, the
	 * masks'), which take next to nothing. */
	if (!cap->r->meta.attached && !getrusage(RUSAGE_CHILDREN, &children))
		c->workload_cpu_s = tv_s(children.ru_utime) + tv_s(children.ru_stime);
	c->bpf_stats = mt_bpf_stats_enabled() == 1;
	n = tracer_prog_stats(&cap->tr, ps, RUN_MAX_PROGS);
	for (int i = 0; i < n; i++) {
		snprintf(c->progs[i].name, sizeof(c->progs[i].name), "%s", ps[i].name);
		c->progs[i].run_cnt = ps[i].run_cnt;
		c->progs[i].run_time_ns = ps[i].run_time_ns;
		c->progs[i].recursion_misses = ps[i].recursion_misses;
	}
	c->nprogs = n > 0 ? n : 0;
}

static void start_time(struct run_meta *m)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(m->start_time, sizeof(m->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int capture__run(struct capture *cap)
{
	struct sigaction sa = { 0 };
	struct run *r = cap->r;
	uint64_t t0, t_end;
	int err;

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout (`| head`) fails writes with EPIPE instead of killing the run before
	 * its file is written: main.c ignores SIGPIPE (launch_ignore_signals), the workload
	 * keeps what migtrace was given */

	cap->start_cpu_s = self_cpu_s();	/* loading, verifying, attaching: paid once */
	start_time(&r->meta);
	t0 = now_ns();
	r->meta.traced_from_ns = (int64_t)t0;	/* the programs are attached: from here on */
	interval_clock_start(&cap->ic, t0);
	if (cap->cfg->duration_ns)
		cap->deadline_ns = t0 + cap->cfg->duration_ns;
	if (cap->cfg->exec_argv) {
		err = launch_release(&cap->child);
		if (err) {
			fprintf(stderr, "migtrace run: cannot run '%s': %s\n", cap->cfg->path,
				strerror(-err));
			waitpid(cap->child.pid, NULL, 0);
			cap->child.pid = -1;
			return 127;
		}
	}
	/* a mover that cannot start said why: the run goes on, its probe counts stay 0 */
	if (cap->mover)
		probe_mover_go(cap->mover);
	trace_loop(cap);
	/* every mask given back before tracing stops: the last probed runs are recorded */
	err = probe_mover_finish(cap->mover, r);
	cap->mover = NULL;
	if (err)
		return MT_EXIT_FAIL;
	t_end = now_ns();
	r->meta.duration_s = (double)(t_end - t0) / 1e9;
	/* what is stamped up to here is recorded: tracing stops after it (a move by a thread
	 * still dying after its process left /proc may come later, and be missed) */
	r->meta.traced_until_ns = (int64_t)t_end;
	tracer_stop(&cap->tr);
	join_units(cap, UINT64_MAX, true);
	if (tracer_read_counts(&cap->tr, &r->stats, &r->hists))
		return MT_EXIT_FAIL;
	tracer_describe(&cap->tr, &r->meta.backend);
	interval_clock_final(&cap->ic, r, t_end);
	if (cap->join_err) {
		fprintf(stderr, "migtrace run: joining the units with the records failed: %s\n",
			strerror(-cap->join_err));
		return MT_EXIT_FAIL;
	}
	if (cap->join) {
		r->stats.units = r->nunits + r->units_not_kept;
		r->stats.units_dropped = unit_log_lost(&cap->ulog) +
					 unit_join_unjoinable(cap->join);
	}
	err = run_alloc_pairs(r, cap->tr.nr_cpus);
	if (err) {
		fprintf(stderr, "migtrace run: no room for the %d x %d CPU-pair matrix: %s\n",
			cap->tr.nr_cpus, cap->tr.nr_cpus, strerror(-err));
		return MT_EXIT_FAIL;
	}
	if (tracer_read_pairs(&cap->tr, r->pairs))
		return MT_EXIT_FAIL;
	measure_cost(cap);
	return 0;
}

int capture__exit_status(const struct capture *cap)
{
	if (cap->cfg->pid || run_config_scoped(cap->cfg) || cap->ending.by_duration ||
	    cap->ending.by_count)
		return MT_EXIT_OK;
	return cap->r->meta.exit_status;
}

int capture__signal(const struct capture *cap)
{
	return cap ? cap->ending.first_sig : 0;
}

void capture__free(struct capture *cap)
{
	if (!cap)
		return;
	probe_mover_finish(cap->mover, NULL);	/* an error path: masks given back first */
	cap->mover = NULL;
	if (cap->child.pid > 0)
		launch_abort(&cap->child);
	launch_dismiss_guard(&cap->child);	/* the workload was reaped: nothing to kill */
	tracer_destroy(&cap->tr);
	unit_join_free(cap->join);
	unit_log_close(&cap->ulog);
	interval_clock_free(&cap->ic);
	free(cap);
}

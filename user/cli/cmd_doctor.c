// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace doctor: one line per capability migtrace depends on, ok / missing / limited, and
 * what to do.  Everything is probed for real (a program is loaded, attached and triggered),
 * nothing is inferred from version numbers.
 */
#include <argp.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "bpf_util.h"
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "ftrace_tracer.h"
#include "launch.h"
#include "sched_rules.h"
#include "topology.h"
#include "tracer.h"
#include "tunable.h"

#define TRACEFS_DIR "/sys/kernel/tracing"
#define TRACEFS_MAGIC_NR 0x74726163

enum status { ST_OK, ST_LIMITED, ST_MISSING };

static struct doctor_env {
	bool fix;
	const char *root;
} env;

struct doctor {
	int nmissing_for_run;	/* checks whose absence stops `migtrace run` */
};

static const char doc[] =
"Check what this kernel and these privileges allow migtrace to do.\n"
"\n"
"USAGE: migtrace doctor [--fix]\n"
"\n"
"Exit status is 0 when `migtrace run` can work here, 1 when it cannot.\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace doctor\n"
"    sudo migtrace doctor --fix    # also mount tracefs when it is not mounted\n";

enum { OPT_ROOT = 1000 };

static const struct argp_option opts[] = {
	{ "fix", 'f', NULL, 0, "Mount tracefs if it is not mounted", 0 },
	{ "root", OPT_ROOT, "DIR", 0, "Read the CPU topology from DIR", 0 },
	MT_CLI_OPT_VERBOSE_LIBBPF,
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (mt_cli_common(state, key, arg, NULL))
		return 0;
	switch (key) {
	case 'f':
		env.fix = true;
		break;
	case OPT_ROOT:
		env.root = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void line(struct doctor *d, enum status st, bool needed_by_run, const char *what,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void line(struct doctor *d, enum status st, bool needed_by_run, const char *what,
		 const char *fmt, ...)
{
	static const char *const names[] = { "ok", "limited", "missing" };
	va_list ap;

	printf("%-8s %-22s ", names[st], what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (st == ST_MISSING && needed_by_run)
		d->nmissing_for_run++;
}

static void check_privileges(struct doctor *d)
{
	bool admin = mt_has_cap(21), bpf = mt_has_cap(39), perfmon = mt_has_cap(38);
	const char *missing = mt_missing_bpf_cap();

	if (!missing)
		line(d, ST_OK, true, "privileges", "uid %d; CAP_SYS_ADMIN %s, CAP_BPF %s, "
		     "CAP_PERFMON %s", (int)geteuid(), admin ? "yes" : "no", bpf ? "yes" : "no",
		     perfmon ? "yes" : "no");
	else
		line(d, ST_MISSING, true, "privileges", "uid %d lacks %s: run as root (sudo) or "
		     "grant CAP_BPF and CAP_PERFMON", (int)geteuid(), missing);
}

/* Both backends name tasks by the host's pids: a child pid namespace cannot trace its own. */
static void check_pid_ns(struct doctor *d)
{
	int child = launch_in_child_pid_ns();

	if (child == 1)
		line(d, ST_MISSING, true, "pid namespace", "this process is in a pid namespace of "
		     "its own (a container's), and the scheduler's events name tasks by the host's "
		     "pids: run migtrace in the host's pid namespace (docker run --pid=host)");
	else if (child == 0)
		line(d, ST_OK, false, "pid namespace", "the host's: the events' pids are this "
		     "process's");
}

static void check_btf(struct doctor *d)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		line(d, ST_OK, true, "kernel BTF", "/sys/kernel/btf/vmlinux (CO-RE and tp_btf)");
	else
		line(d, ST_MISSING, true, "kernel BTF", "/sys/kernel/btf/vmlinux absent: a kernel "
		     "built with CONFIG_DEBUG_INFO_BTF=y is needed for tp_btf programs");
}

/* Never inlined, so the uprobe has a function entry to attach to. */
__attribute__((noinline)) int mt_doctor_uprobe_target(int x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x + 1;
}

/* Moves this thread to another online CPU and back: two real migrations to count. */
static void trigger_migrations(void)
{
	cpu_set_t saved, one;
	int here = sched_getcpu(), ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpu < 2 || sched_getaffinity(0, sizeof(saved), &saved))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (cpu == here || !CPU_ISSET(cpu, &saved))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		break;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
}

static int count_record(void *ctx, const struct mt_migrate *rec)
{
	(void)rec;
	(*(int *)ctx)++;
	return 0;
}

/* "mt_switch, mt_migrate, ..." of the loaded object, and how many there are. */
static int program_names(const struct tracer *tr, char *buf, size_t len)
{
	struct tracer_prog_stat progs[16];
	int n = tracer_prog_stats(tr, progs, 16);
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", progs[i].name);
	return n;
}

static int count_offcpu(void *ctx, const struct mt_offcpu *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

static int count_switch(void *ctx, const struct mt_switch *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

static int count_waking(void *ctx, const struct mt_waking *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

static int count_probe_unit(void *ctx, const struct mt_unit *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

/*
 * Loads the object as `run` or `validate` loads it (tracer_load) and, when the kernel refuses
 * it, prints the program and the verifier's decisive line.  BUILD names the build for that
 * line ("" for run's).  0 or -errno.
 */
static int load_checked(struct doctor *d, struct tracer *tr, const struct tracer_opts *o,
			const char *build)
{
	struct mt_verifier_verdict v;
	char *log;
	int err;

	if ((err = mt_libbpf_capture_begin())) {
		line(d, ST_MISSING, true, "BPF load", "cannot keep libbpf's log: %s",
		     strerror(-err));
		return err;
	}
	err = tracer_load(tr, o);
	log = mt_libbpf_capture_end();
	if (err && mt_verifier_verdict(log, &v))
		line(d, ST_MISSING, true, "BPF load", "the kernel refused migtrace's BPF "
		     "object%s: %s; rerun with -v for libbpf's messages", build, strerror(-err));
	else if (err)
		line(d, ST_MISSING, true, "BPF load", "the kernel refused program %s%s, "
		     "which run uses: \"%s\"%s%s%s; rerun with -v for the verifier's whole "
		     "log", v.prog, build, v.reason[0] ? v.reason : strerror(-err),
		     v.source[0] ? " at `" : "", v.source, v.source[0] ? "`" : "");
	free(log);
	return err;
}

/*
 * The programs `run` and `validate` use, loaded exactly as they load them (tracer_load), so
 * that "run can work here" means their verifier passed: a small probe of our own proved
 * nothing about mt_migrate on a kernel whose verifier refused it.  The object is built
 * three ways by read-only values, and the verifier prunes the branches a frozen read-only
 * value rules out: a run of the built-in workloads (validate, `run cachewalk`) sets
 * offcpu_records (the off-CPU records in mt_switch), `run --perfetto FILE.pftrace` sets
 * switch_records (the switch records there: loaded here with the off-CPU ones, so that
 * both are verified), `run --probe-moves` without units sets probe_runs (the probed runs:
 * loaded with them too), --unit sets unit_probes (the notes a
 * migration leaves for the next unit), run -- CMD sets neither: its code is --unit's less
 * those notes.  The first two are loaded; --unit's is then attached to this process for a
 * moment: its switches, its own migrations and a unit timed on a function of this binary
 * must be seen.
 */
/*
 * What the BPF object takes of this kernel beyond 5.10 (bpf/compat.bpf.h), each with the
 * release that brought it and what its absence costs.  true: --unit's build can load.
 */
static bool check_bpf_features(struct doctor *d)
{
	struct mt_bpf_features f;
	bool units;

	mt_bpf_features_probe(&f);
	units = f.task_storage && f.current_task_btf;
	if (units && f.atomics)
		line(d, ST_OK, false, "BPF features", "task storage and bpf_get_current_task_btf() "
		     "(5.11), atomics (5.12): all here");
	else
		line(d, ST_LIMITED, false, "BPF features", "%s%s%s", units ? "" :
		     "no task storage or bpf_get_current_task_btf() (5.11): --unit needs "
		     "--backend ftrace, and a task whose pid slot another task holds is not "
		     "traced (counted)", units || f.atomics ? "" : "; ",
		     f.atomics ? "" : "no BPF atomics (5.12): the programs built without them "
		     "are loaded");
	return units;
}

static void check_bpf(struct doctor *d)
{
	/* --unit's build (doctor attaches a unit probe): run -- CMD's code and the unit notes */
	struct tracer_opts o = { .hot_ns = 500000, .ringbuf_bytes = 1 << 16,
				 .on_migrate = count_record, .unit_probes = true,
				 .quiet_load = true, .backend = TRACER_BACKEND_BPF };
	struct tracer_opts oself = o;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct tracer tr = { 0 }, tself = { 0 };
	struct mt_stats stats;
	struct mt_hists hists;
	unsigned long long migs = 0;
	char names[512];
	int err, nprogs, records = 0;
	uint64_t t0;

	o.ctx = &records;
	o.unit_probes = check_bpf_features(d);
	oself.on_offcpu = count_offcpu;
	oself.on_switch = count_switch;
	oself.on_waking = count_waking;
	oself.on_probe_unit = count_probe_unit;
	oself.unit_probes = false;
	t0 = now_ns();
	err = load_checked(d, &tr, &o, "");
	if (!err)
		err = load_checked(d, &tself, &oself, " in the build validate and the built-in "
				   "workloads load, and --perfetto's and --probe-moves' (with "
				   "off-CPU, switch and probed-run records)");
	tracer_destroy(&tself);
	if (err)
		goto cleanup;
	nprogs = program_names(&tr, names, sizeof(names));
	line(d, ST_OK, true, "BPF load", "the %d programs run uses pass this kernel's verifier, "
	     "in both builds (%s, and with off-CPU, switch and probed-run records) (%.0f ms): %s",
	     nprogs,
	     o.unit_probes ? "--unit's" : "run's", (double)(now_ns() - t0) / 1e6, names);

	err = tracer_track(&tr, (uint32_t)getpid(), false);
	if (!err)
		err = tracer_attach(&tr);
	if (err) {
		line(d, ST_MISSING, true, "tp_btf attach", "attaching run's programs to the sched "
		     "tracepoints failed: %s", strerror(-err));
		goto cleanup;
	}
	err = o.unit_probes ? tracer_attach_unit(&tr, "/proc/self/exe",
						 "mt_doctor_uprobe_target") : -EOPNOTSUPP;
	trigger_migrations();
	nanosleep(&ts, NULL);
	if (!err)
		mt_doctor_uprobe_target(1);
	tracer_stop(&tr);
	if (tracer_read_counts(&tr, &stats, &hists)) {
		line(d, ST_MISSING, true, "tp_btf attach", "attached, but the counters could not "
		     "be read");
		goto cleanup;
	}
	for (int c = 0; c < MT_NR_CAUSES; c++)
		migs += stats.migrations[c];
	if (stats.switches_in && migs)
		line(d, ST_OK, true, "tp_btf attach", "this process was switched in %llu times and "
		     "migrated %llu times (%d ring-buffer records) in 20 ms",
		     (unsigned long long)stats.switches_in, migs, records);
	else if (stats.switches_in)
		line(d, ST_LIMITED, false, "tp_btf attach", "sched_switch fires, but no migration "
		     "of this process was seen (one CPU, or affinity restricted?)");
	else
		line(d, ST_MISSING, true, "tp_btf attach", "attached, but this process was never "
		     "seen switching in 20 ms");

	if (err == -EOPNOTSUPP && !o.unit_probes)
		line(d, ST_LIMITED, false, "uprobes", "not tried with BPF: its unit probes need "
		     "task storage (5.11); --backend ftrace times --unit with uprobe events");
	else if (err)
		line(d, ST_MISSING, false, "uprobes", "attaching the unit probes failed: %s "
		     "(needed by --unit and cachewalk's unit timings)", strerror(-err));
	else if (stats.units)
		line(d, ST_OK, false, "uprobes", "a unit timed on a function of this binary "
		     "(uprobe + uretprobe) was recorded");
	else
		line(d, ST_MISSING, false, "uprobes", "the unit probes attached, but no unit was "
		     "recorded");
cleanup:
	tracer_destroy(&tr);
}

static void check_tracefs(struct doctor *d)
{
	struct statfs sfs;

	if (statfs(TRACEFS_DIR, &sfs) == 0 && sfs.f_type == TRACEFS_MAGIC_NR) {
		line(d, ST_OK, false, "tracefs", "mounted at %s (classic tp/ tracepoints, perf "
		     "sched)", TRACEFS_DIR);
		return;
	}
	if (env.fix) {
		if (mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) == 0) {
			line(d, ST_OK, false, "tracefs", "was not mounted; mounted it at %s",
			     TRACEFS_DIR);
			return;
		}
		line(d, ST_MISSING, false, "tracefs", "mounting at %s failed: %s", TRACEFS_DIR,
		     strerror(errno));
		return;
	}
	line(d, ST_LIMITED, false, "tracefs", "not mounted (tp_btf does not need it; perf sched "
	     "does): migtrace doctor --fix, or mount -t tracefs nodev %s", TRACEFS_DIR);
}

/*
 * The ftrace backend, as `run --backend ftrace` uses it: its instances made, this process
 * tracked, moved between two CPUs, and the moves read back through the replay.  ftrace_ok:
 * whether run could record with it here (auto's fallback).
 */
/* Instances left recording by runs killed with their guard (systemd's final kill): said,
 * then removed, before the ftrace check makes its own. */
static void check_ftrace_orphans(struct doctor *d)
{
	char names[256];
	int n = ftrace_tracer_orphans(true, names, sizeof(names));

	if (n)
		line(d, ST_LIMITED, false, "ftrace orphans", "%d tracefs instance%s left recording "
		     "by migtrace runs killed with their guard, removed now: %s", n,
		     n > 1 ? "s" : "", names);
}

static void check_ftrace(struct doctor *d, bool *ftrace_ok)
{
	struct tracer_opts o = { .hot_ns = 500000, .on_migrate = count_record,
				 .backend = TRACER_BACKEND_FTRACE };
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct tracer tr = { 0 };
	struct mt_stats stats;
	struct mt_hists hists;
	unsigned long long migs = 0;
	int err, records = 0;
	char why[256];
	uint64_t t0 = now_ns();

	*ftrace_ok = false;
	if (ftrace_tracer_check(why, sizeof(why))) {
		line(d, ST_MISSING, false, "ftrace backend", "cannot record here: %s", why);
		return;
	}
	o.ctx = &records;
	err = tracer_load(&tr, &o);
	if (!err)
		err = tracer_track(&tr, (uint32_t)getpid(), false);
	if (!err)
		err = tracer_attach(&tr);
	if (err) {
		line(d, ST_MISSING, false, "ftrace backend", "setting up a tracefs instance failed "
		     "(%s; the line above says which step)", strerror(-err));
		goto cleanup;
	}
	trigger_migrations();
	nanosleep(&ts, NULL);
	err = tracer_stop(&tr);
	if (!err)
		err = tracer_read_counts(&tr, &stats, &hists);
	if (err) {
		line(d, ST_MISSING, false, "ftrace backend", "reading the instance's buffers "
		     "failed: %s", strerror(-err));
		goto cleanup;
	}
	for (int c = 0; c < MT_NR_CAUSES; c++)
		migs += stats.migrations[c];
	*ftrace_ok = migs > 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2;
	line(d, *ftrace_ok ? ST_OK : ST_LIMITED, false, "ftrace backend", "%s: a tracefs "
	     "instance saw this process migrate %llu time%s (%llu events lost) in %.0f ms%s",
	     why, migs, migs == 1 ? "" : "s", (unsigned long long)stats.rb_dropped, (double)(now_ns() - t0) / 1e6,
	     *ftrace_ok ? "" : " (one CPU, or affinity restricted?)");
cleanup:
	tracer_destroy(&tr);
}

static void check_pmu(struct doctor *d)
{
	struct perf_event_attr attr = { 0 };
	int fd;

	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_CACHE_MISSES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		line(d, ST_OK, false, "hardware PMU", "cache-miss counters available");
	} else {
		line(d, ST_LIMITED, false, "hardware PMU", "no hardware counters (%s): refill cost "
		     "is measured by timing units, not by counting misses", strerror(errno));
	}
}

static void check_bpf_stats(struct doctor *d)
{
	int v = mt_bpf_stats_enabled();

	if (v < 0)
		line(d, ST_LIMITED, false, "BPF run-time stats", "kernel.bpf_stats_enabled not "
		     "readable: per-program overhead cannot be measured");
	else
		line(d, ST_OK, false, "BPF run-time stats", "kernel.bpf_stats_enabled = %d (the "
		     "benchmark turns it on for its run)", v);
}

static void check_tunable(struct doctor *d)
{
	struct tunable t;

	tunable_probe(&t);
	if (t.readable && t.writable)
		line(d, ST_OK, false, "migration-cost tunable", "%s = %lld ns, readable and "
		     "writable (sweep can run); origin: %s", t.path, (long long)t.value_ns,
		     t.origin);
	else if (t.readable)
		line(d, ST_LIMITED, false, "migration-cost tunable", "%s = %lld ns, read-only: %s; "
		     "origin: %s", t.path, (long long)t.value_ns, t.why, t.origin);
	else
		line(d, ST_LIMITED, false, "migration-cost tunable", "not readable: %s; verdicts "
		     "use the kernel default %lld ns, marked assumed; sweep cannot run", t.why,
		     (long long)t.value_ns);
}

static void check_scx(struct doctor *d, const struct run_sched_rules *s)
{
	const char *name = s->scx_ops[0] ? s->scx_ops : "a BPF scheduler";

	if (!s->scx_state[0])
		line(d, ST_OK, false, "sched_ext", "not in this kernel (no /sys/kernel/sched_ext): "
		     "the fair class has the tasks, and task_hot() judges its pulls");
	else if (!strcmp(s->scx_state, "disabled"))
		line(d, ST_OK, false, "sched_ext", "no BPF scheduler loaded (state disabled): the "
		     "fair class has the tasks, and task_hot() judges its pulls");
	else if (run_rules_scx(s))
		line(d, ST_LIMITED, false, "sched_ext", "%s is loaded (state %s, %s): task_hot() "
		     "is not consulted for its tasks; verdicts here say not applicable", name,
		     s->scx_state, s->scx_switch_all > 0 ? "every task of the fair class" :
		     s->scx_switch_all ? "mode not known" : "partial, this process of policy "
		     "SCHED_EXT");
	else if (s->scx_switch_all == 0)
		line(d, ST_OK, false, "sched_ext", "%s is loaded in partial mode (state %s): only "
		     "tasks of policy SCHED_EXT are its; the others stay in the fair class, where "
		     "task_hot() judges pulls", name, s->scx_state);
	else
		line(d, ST_LIMITED, false, "sched_ext", "%s is being loaded or unloaded (state "
		     "%s): run again once it settles", name, s->scx_state);
}

static void check_numa(struct doctor *d, const struct run_sched_rules *s)
{
	char nodes[32];

	snprintf(nodes, sizeof(nodes), s->numa_nodes ? "%d NUMA node%s" : "NUMA nodes not known",
		 s->numa_nodes, s->numa_nodes == 1 ? "" : "s");
	if (s->numa_balancing < 0)
		line(d, ST_OK, false, "NUMA balancing", "no kernel.numa_balancing (a kernel "
		     "without CONFIG_NUMA_BALANCING); %s", nodes);
	else if (!s->numa_balancing)
		line(d, ST_OK, false, "NUMA balancing", "off (kernel.numa_balancing = 0); %s",
		     nodes);
	else if (run_rules_numa(s))
		line(d, ST_LIMITED, false, "NUMA balancing", "on (kernel.numa_balancing = %d), %s: "
		     "for a pull across nodes migrate_degrades_locality() decides before the age "
		     "does; verdicts here say so", s->numa_balancing, nodes);
	else
		line(d, s->numa_nodes ? ST_OK : ST_LIMITED, false, "NUMA balancing", "on "
		     "(kernel.numa_balancing = %d), %s: no pull crosses nodes, so "
		     "migrate_degrades_locality() has none to decide", s->numa_balancing, nodes);
}

static void check_core(struct doctor *d, const struct run_sched_rules *s)
{
	const char *self = s->traced_cookie_tasks ? "this process has one" :
			   "this process has none";

	if (s->core_sched == RUN_CORE_NOT_BUILT)
		line(d, ST_OK, false, "core scheduling", "not in this kernel (PR_SCHED_CORE: "
		     "EINVAL, no CONFIG_SCHED_CORE): no cookie can make task_hot() call a task "
		     "hot");
	else if (s->core_sched == RUN_CORE_NO_SMT)
		line(d, ST_OK, false, "core scheduling", "built, but no core has SMT siblings "
		     "(PR_SCHED_CORE: ENODEV): no cookie can be set");
	else if (s->core_sched == RUN_CORE_NOT_CHECKED)
		line(d, ST_LIMITED, false, "core scheduling", "PR_SCHED_CORE_GET failed for this "
		     "process: whether cookies make task_hot() call tasks hot is not known");
	else if (run_rules_core(s))
		line(d, ST_LIMITED, false, "core scheduling", "in use: %d tasks of this machine "
		     "carry a cookie (%s): task_hot() calls a task hot, whatever its age, when the "
		     "destination core runs another cookie; verdicts here say so",
		     s->core_cookie_tasks, self);
	else if (s->core_cookie_tasks < 0)
		line(d, ST_LIMITED, false, "core scheduling", "available, but this machine's tasks "
		     "could not be listed for cookies (%s)", self);
	else
		line(d, ST_OK, false, "core scheduling", "available; no task of this machine "
		     "carries a cookie");
}

/*
 * The knobs of cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2: debugfs sched/llc_balancing/),
 * as sched_rules_probe read them: "enabled 1, imb_pct 20 %, ..." into buf, or why not.
 */
static void llc_knobs(const struct run_llc_knobs *k, char *buf, size_t len)
{
	if (k->enabled < 0)
		snprintf(buf, len, "its knobs not readable: %s/enabled (debugfs not mounted, or "
			 "locked down)", SCHED_LLC_KNOBS);
	else
		snprintf(buf, len, "enabled %d, aggr_tolerance %d, imb_pct %d %%, overaggr_pct %d "
			 "%%, epoch_period %d jiffies, epoch_affinity_timeout %d epochs", k->enabled,
			 k->aggr_tolerance, k->imb_pct, k->overaggr_pct, k->epoch_period,
			 k->epoch_affinity_timeout);
}

static void check_llc(struct doctor *d, const struct run_sched_rules *s, int btf_err,
		      double ms)
{
	char knobs[256];

	if (s->preferred_llc == RUN_BTF_ABSENT) {
		line(d, ST_OK, false, "cache-aware balancing", "cache-aware scheduling: not in "
		     "this kernel (%.0f ms)", ms);
	} else if (s->preferred_llc == RUN_BTF_PRESENT) {
		llc_knobs(&s->llc, knobs, sizeof(knobs));
		line(d, ST_LIMITED, false, "cache-aware balancing", "task_struct.preferred_llc is "
		     "in this kernel's BTF (llc_balancing: %s): can_migrate_task() may refuse a "
		     "pull out of a task's preferred LLC, whatever its age; verdicts here say so, "
		     "and run's BPF backend records for each move whether it left or entered the "
		     "task's preferred LLC (%.0f ms)", knobs, ms);
	} else {
		line(d, ST_LIMITED, false, "cache-aware balancing", "not checked: "
		     "/sys/kernel/btf/vmlinux: %s", strerror(-btf_err));
	}
}

/*
 * What besides task_hot()'s age decides a pull here (docs/design.md, "When the threshold
 * does not govern"), one line per rule; this process stands for the traced tasks.  The BTF
 * is parsed whole when its strings do not settle the answer.
 */
static void check_sched_rules(struct doctor *d)
{
	struct run_sched_rules s;
	uint64_t t0 = now_ns();
	int btf_err;

	sched_rules_probe(NULL, true, &s, &btf_err);
	sched_rules_probe_tasks(NULL, getpid(), &s);
	check_scx(d, &s);
	check_numa(d, &s);
	check_core(d, &s);
	check_llc(d, &s, btf_err, (double)(now_ns() - t0) / 1e6);
}

static void check_topology(struct doctor *d)
{
	struct topology t;
	const char *src;

	if (topology_read(env.root, &t)) {
		line(d, ST_MISSING, false, "CPU topology", "cannot read %s/devices/system/cpu",
		     env.root ? env.root : "/sys");
		return;
	}
	src = topology_cache_source(&t);
	if (t.online.n < 2)
		line(d, ST_LIMITED, false, "CPU topology", "one online CPU: nothing can migrate");
	else if (!strcmp(src, "none"))
		line(d, ST_LIMITED, false, "CPU topology", "CPUs from sysfs; no cache sizes from "
		     "sysfs or CPUID: calibrate and validate need --size");
	else
		line(d, ST_OK, false, "CPU topology", "CPUs from sysfs, caches from %s:", src);
	topology_print_summary(&t, stdout);
	topology_free(&t);
}

int cmd_doctor(int argc, char **argv)
{
	static const struct argp_child children[] = { MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	/* the spelling before the vocabulary of migtrace(8), kept one release */
	static const struct mt_cli_rename renamed[] = {
		{ "--sysfs-root", "--root", true, -1, NULL },
		{ 0 },
	};
	struct doctor d = { 0 };
	bool ftrace_ok;
	int bpf_missing;

	memset(&env, 0, sizeof(env));
	mt_cli_renames(&argp, renamed, false, argc, argv);
	if (argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, NULL))
		return MT_EXIT_USAGE;
	mt_libbpf_init(mt_verbose);
	check_privileges(&d);
	check_btf(&d);
	check_bpf(&d);
	bpf_missing = d.nmissing_for_run;
	check_tracefs(&d);
	check_ftrace_orphans(&d);
	check_ftrace(&d, &ftrace_ok);
	check_pid_ns(&d);
	check_pmu(&d);
	check_bpf_stats(&d);
	check_tunable(&d);
	check_sched_rules(&d);
	line(&d, ST_LIMITED, false, "fentry/kprobes", "not used by migtrace (tp_btf and "
	     "uprobes are enough)");
	check_topology(&d);
	if (bpf_missing && ftrace_ok && d.nmissing_for_run == bpf_missing) {
		printf("migtrace run can work here with the ftrace backend only (auto takes it): "
		       "BPF cannot, %d required check%s missing\n", bpf_missing,
		       bpf_missing > 1 ? "s are" : " is");
		return MT_EXIT_OK;
	}
	if (d.nmissing_for_run) {
		printf("migtrace run cannot work here: %d required check%s missing\n",
		       d.nmissing_for_run, d.nmissing_for_run > 1 ? "s are" : " is");
		return MT_EXIT_FAIL;
	}
	printf("migtrace run can work here (backends: bpf%s; auto takes bpf)\n",
	       ftrace_ok ? " and ftrace" : " only");
	return MT_EXIT_OK;
}

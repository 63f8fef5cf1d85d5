// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace run: trace every migration of a workload.  The workload is forked first and
 * held at a barrier, the BPF programs are loaded with its pid in the traced set and
 * attached, then it is released: nothing it does is missed, and nothing before it counted.
 */
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bpf_util.h"
#include "clock.h"
#include "cachewalk.h"
#include "commands.h"
#include "correlate.h"
#include "elf_sym.h"
#include "verdict.h"
#include "launch.h"
#include "parse.h"
#include "run.h"
#include "topology.h"
#include "tracer.h"
#include "tunable.h"
#include "units.h"

static struct run_env {
	long pid;			/* -p: trace an existing process */
	const char *cpus_arg;
	const char *output;
	const char *user;
	const char *unit_arg;		/* --unit BINARY:FUNCTION */
	char unit_bin[PATH_MAX];	/* ... its binary, resolved */
	char unit_func[256];		/* ... its function */
	const char *calibration;	/* --calibration FILE.json */
	uint64_t duration_ns;		/* 0: until the workload ends or Ctrl-C */
	int64_t hot_ns;			/* --hot-ns, or -2 when not given */
	uint64_t ringbuf_bytes;
	long max_records;		/* records of each kind kept for the run file */
	char **argv;			/* the workload's command line */
} env;

static volatile sig_atomic_t got_signal;

static const char doc[] =
"Trace every real migration of a workload with BPF: its age, its cause, the\n"
"CPU pair, and whether the kernel's own threshold judged it cache-hot.\n"
"\n"
"USAGE: migtrace run [OPTIONS] WORKLOAD [ARGS]\n"
"       migtrace run [OPTIONS] -- CMD ARGS\n"
"       migtrace run [OPTIONS] -p PID\n"
"\n"
"WORKLOAD is a built-in workload (wakeup) or any program.  The workload is\n"
"pinned to --cpus and released only once tracing is attached.  migtrace exits\n"
"with the workload's status (128+N if it was killed by signal N).\n"
"\n"
"The workload runs in a process group of its own.  Ctrl-C, SIGTERM, SIGHUP and\n"
"--duration are passed to that whole group; if it has not ended 2 s later it\n"
"gets SIGTERM, 2 s after that SIGKILL (a second Ctrl-C: SIGKILL at once).  If\n"
"migtrace itself is killed, the workload is killed with it (PR_SET_PDEATHSIG).\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace run wakeup                 # built-in run-and-sleep workload\n"
"    sudo migtrace run --cpus 0,1 -o run.json -- ./server --port 8080\n"
"    sudo migtrace run -p 1234 --duration 30s # a running process, all threads\n"
"    sudo migtrace run --hot-ns 5000000 -- make -j4   # judge at 5 ms instead\n";

enum { OPT_HOT = 1000, OPT_RINGBUF, OPT_UNIT, OPT_CALIB, OPT_MAXREC };

static const struct argp_option opts[] = {
	{ "pid", 'p', "PID", 0, "Trace an existing process (all its threads)", 0 },
	{ "cpus", 'c', "LIST", 0, "Pin the workload to these CPUs (default: all online)", 0 },
	{ "duration", 'd', "DUR", 0, "Stop after DUR (10s, 500ms, 2m)", 0 },
	{ "output", 'o', "FILE", 0, "Write the run record as JSON to FILE (atomically)", 0 },
	{ "user", 'u', "NAME", 0, "Run the workload as user NAME", 0 },
	{ "hot-ns", OPT_HOT, "NS", 0, "Judge hotness at NS instead of the kernel's value", 0 },
	{ "ringbuf", OPT_RINGBUF, "SIZE", 0, "Ring-buffer size, a power of two (default 1M)", 0 },
	{ "unit", OPT_UNIT, "BINARY:FUNCTION", 0, "Time every call of FUNCTION as a unit of work "
	  "(uprobe + uretprobe); automatic for cachewalk", 0 },
	{ "max-records", OPT_MAXREC, "N", 0, "Keep at most N migration and N unit records for "
	  "-o and the correlation (default 200000, ~20 MiB each; 0: no limit); the counts and "
	  "histograms stay complete", 0 },
	{ "calibration", OPT_CALIB, "FILE", 0, "A `migtrace calibrate --json` result for the "
	  "verdict", 0 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's messages", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	uint64_t v;
	long l;

	switch (key) {
	case 'p':
		if (parse_long(arg, 1, INT_MAX, &env.pid))
			argp_error(state, "--pid: '%s' is not a process id", arg);
		break;
	case 'c':
		env.cpus_arg = arg;
		break;
	case 'd':
		if (parse_duration(arg, &env.duration_ns) || !env.duration_ns)
			argp_error(state, "--duration: '%s' is not a duration (10s, 500ms, 2m)", arg);
		break;
	case 'o':
		env.output = arg;
		break;
	case 'u':
		env.user = arg;
		break;
	case OPT_HOT:
		if (parse_long(arg, -1, LONG_MAX, &l))
			argp_error(state, "--hot-ns: '%s' is not a number of ns (-1 = always hot)",
				   arg);
		env.hot_ns = l;
		break;
	case OPT_RINGBUF:
		if (parse_size(arg, &v) || v < 4096 || (v & (v - 1)) || v > (1ULL << 30))
			argp_error(state, "--ringbuf: '%s' is not a power of two from 4K to 1G", arg);
		env.ringbuf_bytes = v;
		break;
	case OPT_MAXREC:
		if (parse_long(arg, 0, LONG_MAX, &env.max_records))
			argp_error(state, "--max-records: '%s' is not a count", arg);
		break;
	case OPT_CALIB:
		env.calibration = arg;
		break;
	case OPT_UNIT:
		if (!strchr(arg, ':') || strchr(arg, ':') == arg || !strchr(arg, ':')[1])
			argp_error(state, "--unit: '%s' is not BINARY:FUNCTION", arg);
		env.unit_arg = arg;
		break;
	case 'v':
		mt_verbose++;
		break;
	case ARGP_KEY_ARG:
		/* The first non-option starts the workload's own command line. */
		env.argv = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!env.argv && !env.pid)
			argp_error(state, "give a WORKLOAD, '-- CMD ARGS', or -p PID");
		if (env.argv && env.pid)
			argp_error(state, "-p PID and a WORKLOAD exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

#define GRACE_NS 2000000000ULL	/* between the signals that end a workload */

/*
 * Ending a launched workload: the first signal goes to its whole process group; whatever
 * is still there GRACE_NS later gets SIGTERM, then SIGKILL.  Each step is said, so a
 * workload that ignores SIGINT does not leave the user guessing.
 */
struct ending {
	int next_sig;		/* 0: nothing pending */
	uint64_t next_ns;	/* when to send it */
};

static void end_step(struct ending *e, const struct launch *child, int sig, const char *why)
{
	launch_signal(child, sig);
	if (sig == SIGKILL) {
		fprintf(stderr, "migtrace run: %s: sent SIGKILL to the workload's process group %d\n",
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

/* Built-in workloads live beside the binary: .output/workloads/NAME in a build tree. */
static int resolve_workload(const char *name, char *path, size_t len)
{
	char exe[PATH_MAX], *dir;
	const char *over = getenv("MIGTRACE_WORKLOADS");
	ssize_t n;

	if (!strchr(name, '/')) {
		if (over) {
			snprintf(path, len, "%s/%s", over, name);
			if (access(path, X_OK) == 0)
				return 0;
		}
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			dir = dirname(exe);
			snprintf(path, len, "%s/.output/workloads/%s", dir, name);
			if (access(path, X_OK) == 0)
				return 0;
			snprintf(path, len, "%s/workloads/%s", dir, name);
			if (access(path, X_OK) == 0)
				return 0;
		}
	}
	return launch_resolve(name, path, len);
}

static int on_migrate(void *ctx, const struct mt_migrate *m)
{
	return run_record_add(ctx, m);
}

static int on_unit(void *ctx, const struct mt_unit *u)
{
	return run_record_add_unit(ctx, u);
}

static int resolve_cpus(struct cpu_set_list *cpus, int16_t *cpu_node, int ncpu_node)
{
	struct topology t;
	int rc = 0;

	if (topology_read(NULL, &t))
		return MT_EXIT_FAIL;
	for (int cpu = 0; cpu < ncpu_node; cpu++)
		cpu_node[cpu] = cpu <= t.max_cpu && t.cpu[cpu].node >= 0 ? (int16_t)t.cpu[cpu].node : 0;
	if (topology_cpus_arg(&t, env.cpus_arg, "run", cpus))
		rc = MT_EXIT_USAGE;
	topology_free(&t);
	return rc;
}

/*
 * Units: --unit BINARY:FUNCTION, or the built-in cachewalk's own unit function.  A unit
 * binary given by name is looked up like a command.
 */
/*
 * --unit BINARY:FUNCTION, resolved and checked before anything is launched or attached:
 * the binary found the way the shell would, and the function defined in its symbol table.
 */
static int resolve_unit_arg(void)
{
	const char *colon = strrchr(env.unit_arg, ':');
	char *name = strndupa(env.unit_arg, (size_t)(colon - env.unit_arg));
	int err;

	snprintf(env.unit_func, sizeof(env.unit_func), "%s", colon + 1);
	/* a path is taken as it is: a shared library need not be executable */
	if (strchr(name, '/'))
		err = snprintf(env.unit_bin, sizeof(env.unit_bin), "%s", name) >=
		      (int)sizeof(env.unit_bin) ? -ENAMETOOLONG : 0;
	else
		err = launch_resolve(name, env.unit_bin, sizeof(env.unit_bin));
	if (!err)
		err = elf_defines_function(env.unit_bin, env.unit_func);
	switch (err) {
	case 0:
		return 0;
	case -ENOENT:
		if (access(env.unit_bin, F_OK) == 0) {
			fprintf(stderr, "migtrace run: --unit: %s defines no function '%s' (see nm "
				"-D %s; a stripped binary has only its dynamic symbols)\n",
				env.unit_bin, env.unit_func, env.unit_bin);
			return err;
		}
		break;
	case -ENOEXEC:
		fprintf(stderr, "migtrace run: --unit: %s is not an ELF binary\n", env.unit_bin);
		return err;
	}
	fprintf(stderr, "migtrace run: --unit: cannot use '%.*s': %s\n",
		(int)(colon - env.unit_arg), env.unit_arg, strerror(-err));
	return err;
}

static int attach_units(struct tracer *tr, struct run_record *rec, const char *workload)
{
	const char *bin = env.unit_bin, *func = env.unit_func;
	bool cachewalk = false;
	int err;

	if (!env.unit_arg) {
		if (!workload || strcmp(basename(strdupa(workload)), "cachewalk"))
			return 0;
		bin = workload;
		func = CACHEWALK_UNIT_FUNC;
		cachewalk = true;
	}
	err = tracer_attach_unit(tr, bin, func, cachewalk);
	if (!err)
		snprintf(rec->unit_spec, sizeof(rec->unit_spec), "%s:%s", bin, func);
	return err;
}

static void describe_command(struct run_record *rec)
{
	size_t off = 0, len = sizeof(rec->command) - 1;

	if (env.pid) {
		snprintf(rec->command, sizeof(rec->command), "pid %ld", env.pid);
		return;
	}
	for (char **a = env.argv; *a; a++)
		off += (size_t)snprintf(rec->command + (off < len ? off : len),
					off < len ? len - off : 0, "%s%s",
					a == env.argv ? "" : " ", *a);
	/* A long command is cut where it says so, not silently. */
	if (off >= len)
		snprintf(rec->command + len - 64, 65, " [cut here: %u more characters, %u in all]",
			 (unsigned)(off - (len - 64)), (unsigned)off);
}

/* Reads the hot time from a calibrate --json file: the robust one when it is there. */
static int read_calibration(const char *path, struct run_calibration *cal)
{
	struct json_object *o = json_object_from_file(path), *v;
	int err = 0;

	if (!o) {
		fprintf(stderr, "migtrace run: --calibration %s: not a JSON file migtrace can read "
			"(%s)\n", path, json_util_get_last_err());
		return -EINVAL;
	}
	if (json_object_object_get_ex(o, "hot_time_robust_ns", &v) && v) {
		cal->hot_ns = json_object_get_double(v);
		snprintf(cal->source, sizeof(cal->source), "%s, robust (median x 6)", path);
	} else if (json_object_object_get_ex(o, "hot_time_ns", &v) && v) {
		cal->hot_ns = json_object_get_double(v);
		snprintf(cal->source, sizeof(cal->source), "%s", path);
	} else {
		fprintf(stderr, "migtrace run: --calibration %s has no hot time (one CPU?)\n", path);
		err = -EINVAL;
	}
	cal->valid = !err;
	json_object_put(o);
	return err;
}

/* Units were timed: the correlation table and the verdict, on stdout and in the run file. */
static void analyze_units(const struct run_record *rec, const struct run_calibration *cal,
			  struct json_object **corr_json, struct json_object **verdict_json)
{
	enum corr_mode mode = CORR_NATURAL;
	struct corr_result *cr = calloc(1, sizeof(*cr));
	struct corr_opts co;
	struct verdict_in vin = { 0 };
	struct verdict v;

	if (!cr)
		return;
	for (size_t i = 0; i < rec->nunits; i++)
		if (rec->units[i].tag == CW_TAG_MIGRATED || rec->units[i].tag == CW_TAG_STAYED)
			mode = CORR_CONTROLLED;
	corr_default_opts(&co, mode);
	if (correlate_units(rec->units, rec->nunits, &co, cr)) {
		fprintf(stderr, "migtrace run: correlating units failed: out of memory\n");
		free(cr);
		return;
	}
	corr_print_table(stdout, cr, mode == CORR_CONTROLLED ?
			 "controlled experiment: refill penalty by age (cachewalk, real migrations "
			 "by sched_setaffinity, same-CPU control arm)" :
			 "natural migrations: refill penalty by age (the scheduler decided)");
	/* An experiment cut short has not measured every age of its schedule: a verdict from
	 * it would look as sure as a whole one.  (Natural runs end when the user says.) */
	if (mode == CORR_CONTROLLED && rec->interrupted) {
		printf("\nverdict: none: the controlled experiment was interrupted (%s) before it "
		       "finished its schedule; the table above is partial, and no verdict is "
		       "given from an incomplete experiment\n", rec->end_reason);
		*corr_json = corr_to_json(cr);
		*verdict_json = json_object_new_object();
		json_object_object_add(*verdict_json, "none", json_object_new_string(
			"the controlled experiment was interrupted before it finished"));
		free(cr);
		return;
	}
	vin.corr = cr;
	vin.kernel_ns = (double)rec->hot_ns;
	vin.kernel_source = rec->hot_source;
	vin.has_calib = cal && cal->valid;
	vin.calib_ns = cal ? cal->hot_ns : 0;
	vin.calib_source = cal ? cal->source : "";
	if (mode == CORR_NATURAL) {
		vin.migs = rec->recs;
		vin.nmigs = rec->nrecs;
	}
	verdict_decide(&vin, &v);
	verdict_print(stdout, &vin, &v);
	*corr_json = corr_to_json(cr);
	*verdict_json = verdict_to_json(&vin, &v);
	free(cr);
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

/*
 * What tracing cost: our own CPU and RSS, the workload's CPU, each program's runs.  entry:
 * our rusage when the run command began (validate calibrates before it, which is not
 * tracing's cost); start_cpu_s: our CPU when tracing began, after load and attach.
 */
static void measure_cost(const struct tracer *tr, struct run_record *rec,
			 const struct rusage *entry, double start_cpu_s)
{
	struct tracer_prog_stat ps[RUN_MAX_PROGS];
	struct run_cost *c = &rec->cost;
	struct rusage self, children;
	int n;

	getrusage(RUSAGE_SELF, &self);
	c->self_user_s = tv_s(self.ru_utime) - tv_s(entry->ru_utime);
	c->self_sys_s = tv_s(self.ru_stime) - tv_s(entry->ru_stime);
	c->self_startup_s = start_cpu_s - tv_s(entry->ru_utime) - tv_s(entry->ru_stime);
	c->self_max_rss_kib = self_peak_rss_kib();
	c->workload_cpu_s = -1;
	/* The launched workload is our only child, and it has been waited for. */
	if (!rec->attached && !getrusage(RUSAGE_CHILDREN, &children))
		c->workload_cpu_s = tv_s(children.ru_utime) + tv_s(children.ru_stime);
	c->bpf_stats = mt_bpf_stats_enabled() == 1;
	n = tracer_prog_stats(tr, ps, RUN_MAX_PROGS);
	for (int i = 0; i < n; i++) {
		snprintf(c->progs[i].name, sizeof(c->progs[i].name), "%s", ps[i].name);
		c->progs[i].run_cnt = ps[i].run_cnt;
		c->progs[i].run_time_ns = ps[i].run_time_ns;
		c->progs[i].recursion_misses = ps[i].recursion_misses;
	}
	c->nprogs = n > 0 ? n : 0;
}

static int write_run(const struct run_record *rec, struct json_object *corr,
		     struct json_object *verdict)
{
	struct json_object *o = run_to_json(rec);
	struct atomic_file af;
	int err;

	if (!o)
		return -ENOMEM;
	if (corr)
		json_object_object_add(o, "correlation", json_object_get(corr));
	if (verdict)
		json_object_object_add(o, "verdict", json_object_get(verdict));
	err = atomic_file_open(&af, env.output);
	if (!err) {
		err = run_write_json(af.f, rec, o);
		if (err) {
			fprintf(stderr, "migtrace run: building %s failed: %s\n", env.output,
				strerror(-err));
			atomic_file_abort(&af);
		} else {
			err = atomic_file_commit(&af);
		}
	}
	json_object_put(o);
	return err;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, NULL);
}

int run_command(int argc, char **argv, const struct run_calibration *inline_cal)
{
	static const struct argp argp = { opts, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct json_object *corr_json = NULL, *verdict_json = NULL;
	struct run_calibration file_cal = { 0 };
	struct sigaction sa = { 0 };
	struct run_record rec = { 0 };
	struct launch child = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct tracer tr = { 0 };
	struct tracer_opts topts = { 0 };
	struct tunable kern;
	int16_t cpu_node[1024];
	char path[PATH_MAX], hbuf[32], cbuf[256];
	const char *missing;
	uint64_t t0, deadline = 0;
	struct rusage entry;
	double start_cpu_s;
	int rc = MT_EXIT_FAIL, err, wstatus = 0, ended_by_us = 0, nsig = 0;
	struct ending ending = { 0 };
	char why[64];

	getrusage(RUSAGE_SELF, &entry);
	memset(&env, 0, sizeof(env));
	env.hot_ns = -2;
	env.max_records = 200000;
	env.ringbuf_bytes = 1 << 20;	/* 10 k records; counted twice in RSS (mapped twice) */
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, NULL))
		return MT_EXIT_USAGE;
	if ((missing = mt_missing_bpf_cap())) {
		fprintf(stderr, "migtrace run: needs %s to load BPF programs: run as root (sudo) "
			"or grant CAP_BPF and CAP_PERFMON\n", missing);
		return MT_EXIT_FAIL;
	}
	if ((err = resolve_cpus(&rec.cpus, cpu_node, 1024)))
		return err;
	if (env.argv && (err = resolve_workload(env.argv[0], path, sizeof(path)))) {
		fprintf(stderr, "migtrace run: cannot run '%s': %s\n", env.argv[0],
			err == -ENOENT ? "no such built-in workload or program in PATH" :
			strerror(-err));
		return 127;
	}
	/* A bad output path or unit is found now, not after the whole workload has run. */
	if (env.output && atomic_file_check(env.output))
		return MT_EXIT_USAGE;
	if (env.unit_arg && resolve_unit_arg())
		return MT_EXIT_USAGE;
	if (env.calibration && read_calibration(env.calibration, &file_cal))
		return MT_EXIT_USAGE;
	if (env.pid) {
		pid_t tgid = launch_tgid_of((pid_t)env.pid);
		char state = launch_process_state((pid_t)env.pid);

		if (tgid < 0 || !state || state == 'Z' || state == 'X') {
			fprintf(stderr, "migtrace run: -p %ld: no such process%s\n", env.pid,
				state == 'Z' ? " (it has exited: a zombie not yet reaped)" : "");
			return MT_EXIT_USAGE;
		}
		/* Threads are traced by their process: a thread id alone would match nothing. */
		if (tgid != (pid_t)env.pid) {
			fprintf(stderr, "migtrace run: -p %ld is a thread of process %d: tracing "
				"process %d, all its threads\n", env.pid, (int)tgid, (int)tgid);
			env.pid = tgid;
		}
	}

	tunable_probe(&kern);
	if (env.hot_ns != -2) {
		rec.hot_ns = env.hot_ns;
		snprintf(rec.hot_source, sizeof(rec.hot_source), "--hot-ns");
	} else {
		rec.hot_ns = kern.value_ns;
		snprintf(rec.hot_source, sizeof(rec.hot_source), "%s", kern.source);
	}
	rec.ringbuf_bytes = env.ringbuf_bytes;
	rec.max_kept = (size_t)env.max_records;
	rec.exit_status = -1;
	describe_command(&rec);
	mt_libbpf_init(mt_verbose);

	if (env.argv && launch_fork(&child, path, env.argv, &rec.cpus, env.user))
		goto cleanup;
	rec.pid = env.pid ? (int)env.pid : child.pid;
	rec.attached = env.pid != 0;

	topts.hot_ns = rec.hot_ns;
	topts.ringbuf_bytes = env.ringbuf_bytes;
	topts.cpu_node = cpu_node;
	topts.on_migrate = on_migrate;
	topts.on_unit = on_unit;
	topts.ctx = &rec;
	if (tracer_load(&tr, &topts) || tracer_track(&tr, (uint32_t)rec.pid, !rec.attached) ||
	    tracer_attach(&tr) || attach_units(&tr, &rec, env.argv ? path : NULL))
		goto cleanup;

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed stdout (`| head`) must not kill the run before its file is written: writes
	 * fail with EPIPE instead.  Set after the fork: the workload keeps the default. */
	signal(SIGPIPE, SIG_IGN);

	printf("Tracing migrations of %s (pid %d) on CPUs %s; hot means younger than %s (%s). "
	       "Hit Ctrl-C to end.\n", rec.command, rec.pid,
	       format_cpu_list(&rec.cpus, cbuf, sizeof(cbuf)),
	       fmt_ns(hbuf, sizeof(hbuf), (double)rec.hot_ns), rec.hot_source);
	fflush(stdout);
	start_cpu_s = self_cpu_s();	/* loading, verifying, attaching: paid once */
	t0 = now_ns();
	if (env.duration_ns)
		deadline = t0 + env.duration_ns;
	if (env.argv) {
		err = launch_release(&child);
		if (err) {
			fprintf(stderr, "migtrace run: cannot run '%s': %s\n", path, strerror(-err));
			waitpid(child.pid, NULL, 0);
			child.pid = -1;
			rc = 127;
			goto cleanup;
		}
	}

	for (;;) {
		err = tracer_poll(&tr, 100);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "migtrace run: reading the ring buffer failed: %s\n",
				strerror(-err));
			break;
		}
		if (got_signal) {
			int sig = got_signal;

			got_signal = 0;
			nsig++;
			if (!env.argv) {
				snprintf(rec.end_reason, sizeof(rec.end_reason), "tracing ended by %s",
					 strsignal(sig));
				break;
			}
			snprintf(why, sizeof(why), "%s", nsig > 1 ? "asked again" : strsignal(sig));
			end_step(&ending, &child, nsig > 1 ? SIGKILL : sig, why);
		}
		if (ending.next_sig && now_ns() >= ending.next_ns)
			end_step(&ending, &child, ending.next_sig, "still running");
		if (env.argv) {
			pid_t w = waitpid(child.pid, &wstatus, WNOHANG);

			if (w == child.pid) {
				rec.exit_status = launch_exit_status(wstatus);
				rec.interrupted = ended_by_us || nsig > 0;
				child.pid = -1;
				if (ended_by_us)
					snprintf(rec.end_reason, sizeof(rec.end_reason),
						 "ended by --duration");
				else if (WIFSIGNALED(wstatus))
					snprintf(rec.end_reason, sizeof(rec.end_reason),
						 "killed by signal %d (%s)", WTERMSIG(wstatus),
						 strsignal(WTERMSIG(wstatus)));
				else
					snprintf(rec.end_reason, sizeof(rec.end_reason),
						 "exited with status %d", rec.exit_status);
				break;
			}
		} else {
			char state = launch_process_state((pid_t)env.pid);

			/* a zombie has exited: waiting for its parent to reap it is not tracing */
			if (!state || state == 'Z' || state == 'X') {
				snprintf(rec.end_reason, sizeof(rec.end_reason), "process exited");
				break;
			}
		}
		if (deadline && now_ns() >= deadline) {
			deadline = 0;
			if (!env.argv) {
				snprintf(rec.end_reason, sizeof(rec.end_reason), "ended by --duration");
				break;
			}
			ended_by_us = 1;
			end_step(&ending, &child, SIGTERM, "--duration is over");
		}
	}
	rec.duration_s = (double)(now_ns() - t0) / 1e9;
	tracer_stop(&tr);
	if (tracer_read_counts(&tr, &rec.stats, &rec.hists))
		goto cleanup;
	rec.nr_cpus = tr.nr_cpus;
	rec.pairs = calloc((size_t)tr.nr_cpus * tr.nr_cpus, sizeof(uint64_t));
	if (!rec.pairs || tracer_read_pairs(&tr, rec.pairs))
		goto cleanup;
	measure_cost(&tr, &rec, &entry, start_cpu_s);
	run_print_summary(stdout, &rec);
	if (rec.nunits)
		analyze_units(&rec, env.calibration ? &file_cal : inline_cal, &corr_json,
			      &verdict_json);
	if (env.output && write_run(&rec, corr_json, verdict_json))
		goto cleanup;
	if (env.pid || ended_by_us)
		rc = MT_EXIT_OK;
	else
		rc = rec.exit_status;
cleanup:
	json_object_put(corr_json);
	json_object_put(verdict_json);
	if (child.pid > 0)
		launch_abort(&child);
	tracer_destroy(&tr);
	run_record_free(&rec);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace sweep: the 2004 cache_hot_time experiment on today's kernel.  For each value of
 * the migration-cost tunable, interleaved and repeated, set it (verified by reading it back),
 * run the workload under the tracer (run's own stages: run_config, capture, analyze), and
 * record its throughput, the CPU set's idle time, the migrations by cause and the hot pulls,
 * beside the kernel's own schedstat witnesses (user/host/sched_witness.c reads them).  The
 * original value is put back on every exit path; a restore record lets `sweep --restore` do
 * it after a kill -9.  What was measured is the sweep model (analysis/model/sweep.h), which
 * the table, the sweep file and the exports render.  This file is the command's glue.
 */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "atomic_file.h"
#include "capture.h"
#include "cli.h"
#include "commands.h"
#include "export.h"
#include "hist.h"
#include "parse.h"
#include "run_config.h"
#include "render_sweep.h"
#include "sched_witness.h"
#include "sweep_summary.h"
#include "sweep_parse.h"
#include "tunable.h"

#define SWEEP_OUT_MAX (1 << 20)	/* bytes of the workload's output kept for its report */

static const char doc[] =
"Sweep the scheduler's migration cost: run a workload under the tracer at each\n"
"value, interleaved and repeated, and show throughput and idle time per value\n"
"(the 2004 cache_hot_time experiment on today's kernel).\n"
"\n"
"USAGE: migtrace sweep --values LIST [--reps N] [--cpus LIST] [-o FILE]\n"
"                      [--csv DIR] [--openmetrics FILE] [--plot DIR]\n"
"                      [--root DIR] (WORKLOAD [ARGS] | -- CMD ARGS)\n"
"       migtrace sweep --knob NAME --values LIST [--reps N] [--cpus LIST]\n"
"                      [-o FILE] (WORKLOAD [ARGS] | -- CMD ARGS)\n"
"       migtrace sweep --restore [--root DIR]\n"
"\n"
"Each value is set and read back before its run; the runs go value by value,\n"
"the order rotated each repetition.  Throughput is the workload's own report\n"
"where it prints one (pgbench tps, hackbench Time, perf bench sched, wakeup,\n"
"cachewalk), else 1 / wall time.  Where schedstats exist, sched_schedstats is\n"
"set to 1 for the sweep and the kernel's own counts (nr_failed_migrations_hot,\n"
"nr_forced_migrations, lb_hot_gained) are shown beside migtrace's hot pulls.\n"
"\n"
"The original value (and sched_schedstats) is restored at the end, on an\n"
"error, on Ctrl-C, SIGTERM or SIGHUP (exit 128+N), and when the workload\n"
"fails.  Before the first change a record is written under /run/migtrace;\n"
"after a kill -9 run `migtrace sweep --restore`.  One sweep at a time: while\n"
"another holds the tunable, sweep says so in one line and exits 75, nothing\n"
"changed.  Where the tunable cannot be written (debugfs locked down,\n"
"read-only, not root) sweep says why and exits 1: nothing is run.\n"
"\n"
"The exports are the sweep's: --csv DIR writes sweep.csv (a row per run, then\n"
"a summary row per value), --openmetrics FILE gauges labelled by value, --plot\n"
"DIR sweep.png and sweep.svg (throughput and idle % against the value).\n"
"\n"
"--knob NAME sweeps another knob the same way (set, read back, restored,\n"
"guarded by its own record): cache-aware scheduling's, on 7.2 and later,\n"
"llc_balancing/enabled (0,1), aggr_tolerance, imb_pct, overaggr_pct,\n"
"epoch_period and epoch_affinity_timeout, with integer --values; the table\n"
"and -o only.  `sweep --restore` puts back every knob a killed sweep left.\n"
"\n"
"--root DIR is a test aid: the tunable, the records and the schedstat files\n"
"are read and written under DIR (a fake tree), while the workload still runs\n"
"for real under the real tracer.\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace sweep --values 0.5ms,2.5ms,5ms,10ms,25ms,250ms \\\n"
"         -- hackbench -g 4 -l 2000\n"
"    sudo migtrace sweep --values 0.5ms,5ms,50ms --reps 5 --cpus 0-3 \\\n"
"         -o sweep.json -- pgbench -c 8 -j 4 -T 30 bench\n"
"    sudo migtrace sweep --knob llc_balancing/enabled --values 0,1 --reps 3 \\\n"
"         -- hackbench -T -g 2 -l 2000\n"
"    sudo migtrace sweep --restore            # after a kill -9\n";

enum { OPT_VALUES = 1000, OPT_ROOT, OPT_RESTORE, OPT_FORCE, OPT_KNOB };

static const struct argp_option opts[] = {
	{ "values", OPT_VALUES, "LIST", 0, "Migration costs to sweep, comma-separated durations "
	  "(0.5ms,5ms,50ms; 2 to 32 values); with --knob, the knob's integers (0,1)", 0 },
	{ "knob", OPT_KNOB, "NAME", 0, "The knob to sweep: migration_cost_ns (default), or "
	  "cache-aware scheduling's (7.2) llc_balancing/enabled, llc_balancing/aggr_tolerance, "
	  "llc_balancing/imb_pct, llc_balancing/overaggr_pct, llc_balancing/epoch_period, "
	  "llc_balancing/epoch_affinity_timeout; its table and -o only (the exports are the "
	  "migration cost's)", 0 },
	{ "reps", 'r', "N", 0, "Repetitions of every value (default 3)", 0 },
	{ "cpus", 'C', "LIST", 0, "Pin the workload to these CPUs (default: all online); idle "
	  "time is theirs", 0 },
	{ "output", 'o', "FILE", 0, "Write the sweep (JSON, schema migtrace.sweep/1, "
	  "docs/sweep-file.md) to FILE, atomically", 0 },
	{ "root", OPT_ROOT, "DIR", 0, "Test aid: the tunable, record and schedstat files under "
	  "DIR; the workload and tracer are real", 0 },
	{ "restore", OPT_RESTORE, NULL, 0, "Put back the value a killed sweep left (its "
	  "record under /run/migtrace), then exit", 0 },
	{ "force", OPT_FORCE, NULL, 0, "With --restore: put the original back even over a "
	  "value someone set after the sweep was killed", 0 },
	MT_CLI_OPT_VERBOSE_LIBBPF,
	/* the CPU list's old spelling: refused, naming --cpus */
	{ NULL, 'c', "LIST", OPTION_HIDDEN, NULL, 0 },
	{ 0 },
};

struct sweep_env {
	struct run_config cfg;		/* the template every run starts from */
	struct export_opts exports;	/* --csv, --openmetrics, --plot */
	const char *values_arg;
	const struct tunable_knob *knob;	/* --knob; the migration cost by default */
	int64_t values[SWEEP_MAX_VALUES];	/* in the knob's unit */
	int nvalues;
	long reps;
	const char *root;
	bool restore;
	bool force;			/* --restore --force */
	/* the sweep */
	struct tunable tun;
	int64_t original;		/* in the knob's unit */
	struct schedstats_hold schedstats;	/* on for the sweep, then put back */
	bool has_schedstat;		/* /proc/schedstat readable */
	struct sweep_run *runs;
	int nruns;
};

static volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
	if (!sweep_signal)
		sweep_signal = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* --values in the knob's unit: durations for the migration cost, integers in the knob's
 * range for another. */
static int parse_values(const char *arg, struct sweep_env *env, char *bad, size_t len)
{
	const struct tunable_knob *k = env->knob;
	char buf[1024], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", arg);
	env->nvalues = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t ns = 0;
		long v = 0;
		bool bad_value;

		/* the debugfs file is a u32 of ns: 4.29 s at most */
		if (k == TUNABLE_MIGRATION_COST)
			bad_value = parse_duration(tok, &ns) || ns > UINT32_MAX;
		else
			bad_value = parse_long(tok, (long)k->min, (long)k->max, &v) != 0;
		if (k != TUNABLE_MIGRATION_COST)
			ns = (uint64_t)v;
		if (bad_value || env->nvalues == SWEEP_MAX_VALUES) {
			snprintf(bad, len, "%s", tok);
			return -EINVAL;
		}
		for (int i = 0; i < env->nvalues; i++) {
			if (env->values[i] == (int64_t)ns) {
				snprintf(bad, len, "%s (given twice)", tok);
				return -EINVAL;
			}
		}
		env->values[env->nvalues++] = (int64_t)ns;
	}
	return env->nvalues >= 2 ? 0 : (snprintf(bad, len, "%s", arg), -EINVAL);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct sweep_env *env = state->input;
	static struct cpu_set_list cpus;
	char bad[300];

	if (mt_cli_common(state, key, arg, &env->exports))
		return 0;
	switch (key) {
	case OPT_VALUES:
		env->values_arg = arg;	/* read at the end: --knob says how */
		break;
	case OPT_KNOB:
		env->knob = tunable_knob_find(arg);
		if (!env->knob) {
			char names[512];
			size_t used = 0;

			for (int i = 0; i < tunable_nknobs && used < sizeof(names); i++)
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
							 i ? ", " : "", tunable_knobs[i].name);
			argp_error(state, "--knob: no knob '%s'; the knobs: %s", arg, names);
		}
		break;
	case 'r':
		if (parse_long(arg, 1, SWEEP_MAX_REPS, &env->reps))
			argp_error(state, "--reps: '%s' is not a count from 1 to %d", arg,
				   SWEEP_MAX_REPS);
		break;
	case 'c':
		mt_cli_old_cpus(state, arg);
		break;
	case 'C':
		/* a list that cannot be right is refused before the tunable is touched */
		switch (parse_cpu_list(arg, &cpus, bad, sizeof(bad))) {
		case 0:
			break;
		case -EEXIST:
			argp_error(state, "--cpus: CPU %s is listed twice in '%s'; list each CPU "
				   "once", bad, arg);
			break;
		default:
			argp_error(state, "--cpus: '%s' is not a CPU number or range (e.g. 0-3,5)",
				   bad);
		}
		env->cfg.cpus_arg = arg;
		break;
	case 'o':
		env->cfg.output = arg;
		break;
	case OPT_ROOT:
		if (!*arg)
			argp_error(state, "--root: '' is not a directory");
		env->root = arg;
		break;
	case OPT_RESTORE:
		env->restore = true;
		break;
	case OPT_FORCE:
		env->force = true;
		break;
	case ARGP_KEY_ARG:
		if (env->restore)
			argp_error(state, "--restore takes no workload ('%s')", arg);
		env->cfg.argv = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (env->restore && (env->values_arg || env->cfg.output ||
				     export_files_wanted(&env->exports)))
			argp_error(state, "--restore only restores: no --values, no -o, no "
				   "exports");
		/* a sweep keeps no records to trace and no single run to judge again */
		export_refuse_for_sweep(state, &env->exports);
		if (env->force && !env->restore)
			argp_error(state, "--force goes with --restore only");
		if (!env->restore && !env->values_arg)
			argp_error(state, "give --values LIST (e.g. 0.5ms,5ms,50ms)");
		if (!env->knob)
			env->knob = TUNABLE_MIGRATION_COST;
		if (env->restore && env->knob != TUNABLE_MIGRATION_COST)
			argp_error(state, "--restore puts back every knob a killed sweep left: no "
				   "--knob");
		if (env->values_arg && parse_values(env->values_arg, env, bad, sizeof(bad))) {
			if (env->knob == TUNABLE_MIGRATION_COST)
				argp_error(state, "--values: '%s' is not a list of 2 to %d different "
					   "durations up to 4.29s (0.5ms,5ms,50ms)", bad,
					   SWEEP_MAX_VALUES);
			argp_error(state, "--values: '%s' is not a list of 2 to %d different "
				   "integers from %lld to %lld, %s's range", bad, SWEEP_MAX_VALUES,
				   (long long)env->knob->min, (long long)env->knob->max,
				   env->knob->name);
		}
		if (env->knob != TUNABLE_MIGRATION_COST && export_files_wanted(&env->exports))
			argp_error(state, "--csv, --openmetrics and --plot are the migration cost's "
				   "(their values are durations): a sweep of %s writes its table and "
				   "-o FILE", env->knob->name);
		if (!env->restore && !env->cfg.argv)
			argp_error(state, "give a WORKLOAD or '-- CMD ARGS'");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The workload's stdout goes to a temporary file for its report: fd 1 is pointed there
 * only while capture__open forks it, so migtrace's own output is untouched.  The report is
 * then copied to stderr, so that the user still sees it.
 */
static int stdout_to(int fd, int *saved)
{
	fflush(stdout);
	*saved = dup(STDOUT_FILENO);
	if (*saved < 0 || dup2(fd, STDOUT_FILENO) < 0)
		return -errno;
	return 0;
}

static void stdout_back(int saved)
{
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
}

static void read_report(FILE *out, char *buf, size_t len)
{
	size_t n;

	rewind(out);
	n = fread(buf, 1, len - 1, out);
	buf[n] = '\0';
	fputs(buf, stderr);
}

/* One run at value v: the run's own stages with hot_ns = v.  0, or the exit status to stop
 * the sweep with. */
static int sweep_one(struct sweep_env *env, struct sweep_run *sr, int *sig)
{
	struct sweep_cputime c0 = { 0 }, c1 = { 0 };
	struct run_config cfg = env->cfg;
	uint64_t gained0 = 0, gained1 = 0;
	struct sched_witness *w = NULL;
	struct capture *cap = NULL;
	static char report[SWEEP_OUT_MAX];
	struct run *r = run_new();
	FILE *out = tmpfile();
	int rc = MT_EXIT_FAIL, saved = -1;
	bool stat_ok, gained_ok;
	double t0;

	if (!r || !out || !(w = sched_witness_new())) {
		mt_err("out of memory or no temporary file for the "
			"workload's output (%s)", strerror(errno));
		goto cleanup;
	}
	/* the tracer's hot threshold: the value swept, or the migration cost as it stands */
	if (env->knob == TUNABLE_MIGRATION_COST)
		cfg.hot_ns = sr->value;
	rc = run_config_resolve(&cfg, r);
	if (rc)
		goto cleanup;
	if (stdout_to(fileno(out), &saved)) {
		mt_err("redirecting the workload's output failed: %s",
			strerror(errno));
		rc = MT_EXIT_FAIL;
		goto cleanup;
	}
	cap = capture__open(&cfg, r, &rc);
	stdout_back(saved);
	if (!cap)
		goto cleanup;
	/* A signal while the tracer loaded: the held workload is never released. */
	if (sweep_signal) {
		*sig = sweep_signal;
		goto cleanup;
	}
	if (sched_witness_start(w, r->meta.pid))
		mt_info("no thread for the sched files: witnesses not "
			"read");
	stat_ok = !proc_stat_cpu_times(&r->meta.cpus, &c0);
	gained_ok = env->has_schedstat && schedstat_read_hot_gained(env->root, &gained0);
	t0 = mono_s();
	rc = capture__run(cap);
	sr->wall_s = mono_s() - t0;
	sr->witness = sched_witness_stop(w, &sr->failed_hot, &sr->forced);
	stat_ok = stat_ok && !proc_stat_cpu_times(&r->meta.cpus, &c1);
	gained_ok = gained_ok && schedstat_read_hot_gained(env->root, &gained1);
	catch_signals();	/* capture's handlers are replaced by ours again */
	*sig = capture__signal(cap);
	if (rc)
		goto cleanup;
	run_analyze(r);
	read_report(out, report, sizeof(report));
	sr->tput_reported = !sweep_parse_throughput(report, sr->wall_s, &sr->tput);
	sr->idle_pct = stat_ok && c1.total > c0.total ?
		       100.0 * (double)(c1.idle - c0.idle) / (double)(c1.total - c0.total) : -1;
	memcpy(sr->migrations, r->stats.migrations, sizeof(sr->migrations));
	sr->lb_judged = r->stats.lb_judged;
	sr->lb_hot = r->stats.lb_hot;
	sr->has_lb_hot_gained = gained_ok;
	sr->lb_hot_gained = gained_ok ? gained1 - gained0 : 0;
	sr->exit_status = capture__exit_status(cap);
	sr->wake_p50_us = hist_quantile_us(r->hists.wakelat, MT_HIST_SLOTS, 0.50);
	sr->wake_p99_us = hist_quantile_us(r->hists.wakelat, MT_HIST_SLOTS, 0.99);
	sr->wait_p50_us = hist_quantile_us(r->hists.runwait, MT_HIST_SLOTS, 0.50);
	sr->wait_p99_us = hist_quantile_us(r->hists.runwait, MT_HIST_SLOTS, 0.99);
	sr->tstar_ns = r->has_verdict && r->verdict.tstar_state == CORR_HOT_FOUND ?
		       r->verdict.tstar_ns : -1;
	rc = 0;
cleanup:
	capture__free(cap);
	run_free(r);
	sched_witness_free(w);
	if (out)
		fclose(out);
	return rc;
}

/* The model the renderers read, from the sweep as it went. */
static void to_model(const struct sweep_env *env, bool complete, struct sweep *s)
{
	memset(s, 0, sizeof(*s));
	s->argv = env->cfg.argv;
	s->cpus_arg = env->cfg.cpus_arg;
	s->reps = env->reps;
	s->knob = env->knob->name;
	s->unit = env->knob->unit;
	s->in_ns = env->knob == TUNABLE_MIGRATION_COST;
	memcpy(s->values, env->values, sizeof(s->values));
	s->nvalues = env->nvalues;
	snprintf(s->tunable_path, sizeof(s->tunable_path), "%s", env->tun.path);
	s->original = env->original;
	s->root = env->root;
	s->schedstats_orig = env->schedstats.orig;
	s->has_schedstat = env->has_schedstat;
	s->runs = env->runs;
	s->nruns = env->nruns;
	s->complete = complete;
	sweep_summarize(s);
}

/* The sweep file and the exports, each written whole or not at all.  0 or MT_EXIT_FAIL. */
static int save(const struct sweep_env *env, const struct sweep *s)
{
	struct atomic_file af;
	int err;

	if (env->cfg.output) {
		if (atomic_file_open(&af, env->cfg.output))
			return MT_EXIT_FAIL;
		err = render_sweep_json(af.f, s);
		if (err) {
			mt_err("writing %s failed: %s", env->cfg.output,
				strerror(-err));
			atomic_file_abort(&af);
			return MT_EXIT_FAIL;
		}
		if (atomic_file_commit(&af))
			return MT_EXIT_FAIL;
	}
	return export_sweep_files(&env->exports, s, "migtrace sweep") ? MT_EXIT_FAIL : 0;
}

/* A value of the knob swept as the table shows it: "2.5 ms", "1", "20 %". */
static char *fmt_knob(const struct sweep_env *env, int64_t v, char *buf, size_t len)
{
	return env->knob == TUNABLE_MIGRATION_COST ? sweep_fmt_value(buf, len, v) :
						     tunable_fmt(env->knob, v, buf, len);
}

/* Every value, each repetition in a rotated order.  0, or the exit status to end with. */
static int sweep_all(struct sweep_env *env)
{
	char v[48], got[48];

	for (int rep = 0; rep < env->reps; rep++) {
		for (int k = 0; k < env->nvalues; k++) {
			int i = (k + rep) % env->nvalues, sig = 0, rc;
			struct sweep_run *sr = &env->runs[env->nruns];

			if (sweep_signal)
				return 128 + sweep_signal;
			memset(sr, 0, sizeof(*sr));
			sr->value = env->values[i];
			sr->rep = rep;
			fmt_knob(env, sr->value, v, sizeof(v));
			if (tunable_set(&env->tun, sr->value))
				return MT_EXIT_FAIL;
			tunable_fmt(env->knob, env->tun.value_ns, got, sizeof(got));
			mt_info("repetition %d/%ld, value %s (%s, read back from %s)", rep + 1,
				env->reps, v, got, env->tun.path);
			rc = sweep_one(env, sr, &sig);
			if (sig || sweep_signal)
				return 128 + (sig ? sig : sweep_signal);
			if (rc)
				return rc;
			if (sr->exit_status) {
				mt_err("the workload failed at %s "
					"(repetition %d): exit status %d; sweep stopped", v,
					rep + 1, sr->exit_status);
				return MT_EXIT_FAIL;
			}
			env->nruns++;
		}
	}
	return 0;
}

static int sweep_restore(const struct sweep_env *env)
{
	int err = tunable_restore_from_record(env->root, env->force);

	if (schedstats_restore_from_record(env->root) < 0)
		err = -EIO;
	if (err)
		return MT_EXIT_FAIL;
	mt_info("--restore: the migration cost and cache-aware scheduling's knobs are as the "
		"records left them (or there was nothing to restore)");
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct argp_child children[] = { { &export_sweep_argp, 0, NULL, 0 },
						      MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	static struct sweep model;
	struct sweep_env *env = calloc(1, sizeof(*env));
	struct mt_cli_path own;
	char v[48], got[48];
	int rc, rrc, err;

	if (!env) {
		mt_err("out of memory");
		return MT_EXIT_FAIL;
	}
	run_config_default(&env->cfg, RUN_KIND_RUN);
	env->reps = 3;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER | ARGP_NO_HELP, NULL, env)) {
		rc = MT_EXIT_USAGE;
		goto out;
	}
	if (env->restore) {
		rc = sweep_restore(env);
		goto out;
	}
	own = mt_cli_path_of("-o", env->cfg.output, MT_PATH_FILE);
	if ((env->cfg.output && atomic_file_check(env->cfg.output)) ||
	    export_check(&env->exports, "migtrace sweep", true, &own, 1)) {
		rc = MT_EXIT_USAGE;
		goto out;
	}
	tunable_probe_knob_at(env->root, env->knob, &env->tun);
	if (!env->tun.writable || env->tun.assumed) {
		if (env->knob == TUNABLE_MIGRATION_COST)
			mt_err("cannot sweep: the migration cost cannot be "
				"written here: %s; nothing was run or changed; `migtrace report "
				"--what-if` judges other values from one traced run instead",
				env->tun.why[0] ? env->tun.why : "not writable");
		else
			mt_err("cannot sweep: %s cannot be written here: %s; "
				"nothing was run or changed", env->knob->name,
				env->tun.why[0] ? env->tun.why : "not writable");
		rc = MT_EXIT_FAIL;
		goto out;
	}
	env->runs = calloc((size_t)env->nvalues * (size_t)env->reps, sizeof(*env->runs));
	if (!env->runs) {
		mt_err("out of memory for %d x %ld runs",
			env->nvalues, env->reps);
		rc = MT_EXIT_FAIL;
		goto out;
	}
	/* One sweep at a time holds the tunable: a record that exists already is a running
	 * sweep's (exit 75, try later) or a killed one's (exit 1, run --restore). */
	err = tunable_guard_begin(&env->tun, env->values, env->nvalues);
	if (err) {
		rc = err == -EBUSY ? MT_EXIT_BUSY : MT_EXIT_FAIL;
		goto out;
	}
	env->original = env->tun.value_ns;
	catch_signals();
	schedstats_hold_begin(&env->schedstats, env->root);
	env->has_schedstat = schedstat_readable(env->root);
	rc = sweep_all(env);

	/* Every path from here restores, whatever rc says. */
	rrc = tunable_guard_restore(&env->tun);
	schedstats_hold_end(&env->schedstats);
	fmt_knob(env, env->original, v, sizeof(v));
	tunable_fmt(env->knob, env->tun.value_ns, got, sizeof(got));
	if (!rrc)
		mt_info("restored %s to %s (%s, read back from %s)",
			env->knob == TUNABLE_MIGRATION_COST ? "the migration cost" :
			env->knob->name, v, got, env->tun.path);
	else if (!rc)
		rc = MT_EXIT_FAIL;
	if (env->nruns) {
		to_model(env, !rc, &model);
		render_sweep_text(stdout, &model);
		if (rc)
			printf("(incomplete: the sweep stopped after %d of %d runs)\n", env->nruns,
			       env->nvalues * (int)env->reps);
		fflush(stdout);
		if (save(env, &model) && !rc)
			rc = MT_EXIT_FAIL;
	}
out:
	free(env->runs);
	free(env);
	return rc;
}

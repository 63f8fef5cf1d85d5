// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace run: trace every migration of a workload.  The options fill a run_config; then
 * run_command() runs the stages in a straight line: resolve the configuration, capture (the
 * workload held at a barrier until the tracer is attached), analyze, render, save.
 */
#include <argp.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "atomic_file.h"
#include "capture.h"
#include "cli.h"
#include "commands.h"
#include "tracer.h"
#include "export.h"
#include "interval_out.h"
#include "parse.h"
#include "render_text.h"
#include "run_config.h"
#include "run_output.h"

static const char doc[] =
"Trace every real migration of a workload with BPF: its age, its cause, the\n"
"CPU pair, and whether the kernel's own threshold judged it cache-hot.\n"
"\n"
"USAGE: migtrace run [OPTIONS] WORKLOAD [ARGS]\n"
"       migtrace run [OPTIONS] -- CMD ARGS\n"
"       migtrace run [OPTIONS] -p PID\n"
"       migtrace run [OPTIONS] -a | -c CGROUP\n"
"       migtrace run [OPTIONS] INTERVAL [COUNT]\n"
"\n"
"INTERVAL and COUNT are runqlat's: `migtrace run 1 10' prints a block every\n"
"second, 10 times, system-wide (-a) unless -p or -c says whom; a program named\n"
"like a number runs as `-- 1'.\n"
"\n"
"WORKLOAD is a built-in workload (wakeup, cachewalk) or any program.  The\n"
"workload is pinned to --cpus and released only once tracing is attached.\n"
"migtrace exits with the workload's status (128+N if a signal N killed it).\n"
"\n"
"The workload runs in a process group of its own.  Ctrl-C, SIGTERM, SIGHUP and\n"
"--duration are passed to that whole group; if it has not ended 2 s later it\n"
"gets SIGTERM, 2 s after that SIGKILL (a second Ctrl-C: SIGKILL at once).  If\n"
"migtrace itself is killed, so is the workload's whole group (PR_SET_PDEATHSIG\n"
"for its first process, a guard process for what that started).\n"
"\n"
"-a traces every task on the machine, -c (--cgroup) every task of a cgroup v2\n"
"directory and below it, including tasks that start or move there later; the\n"
"run ends on Ctrl-C, SIGTERM or --duration.  Without -o (or --csv, --perfetto,\n"
"--what-if, --unit) no record is sent per migration: the kernel keeps the\n"
"counts and histograms, the cheapest way to watch a whole machine.\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace run wakeup                 # built-in run-and-sleep workload\n"
"    sudo migtrace run --cpus 0,1 -o run.json -- ./server --port 8080\n"
"    sudo migtrace run -a --duration 10s      # every task on the machine\n"
"    sudo migtrace run -c /sys/fs/cgroup/system.slice/nginx.service\n"
"    sudo migtrace run -p 1234 --duration 30s # a running process, all threads\n"
"    sudo migtrace run --hot-ns 5000000 -- make -j4   # judge at 5 ms instead\n"
"    migtrace report run.json                 # its text again, from the file\n"
"    sudo migtrace run --interval 1s --count 5 -T -- stress-ng --cpu 2\n"
"    sudo migtrace run -p 1234 --textfile /var/lib/prometheus/node-exporter\n"
"\n"
"--interval (or -I MSECS) prints a block per interval while tracing (-j: a\n"
"JSON line each, docs/interval-lines.md), then the whole run's summary;\n"
"--textfile DIR writes DIR/migtrace.prom for node_exporter's textfile collector\n"
"at each interval's end (every 15 s when --interval is not given), and SIGHUP\n"
"then checks DIR again and writes the file instead of ending the run.\n";

enum { OPT_HOT = 1000, OPT_RINGBUF, OPT_UNIT, OPT_CALIB, OPT_MAXREC, OPT_INTERVAL, OPT_COUNT,
       OPT_TEXTFILE, OPT_BACKEND, OPT_LISTEN, OPT_KEEP_TRACE, OPT_PROBE_MOVES, OPT_PROBE_SHARE,
       OPT_PROBE_SEED };

static const struct argp_option opts[] = {
	{ "pid", 'p', "PID", 0, "Trace an existing process (all its threads)", 0 },
	{ "all-cpus", 'a', NULL, 0, "Trace every task on the machine, system-wide (no "
	  "workload)", 0 },
	{ "cgroup", 'c', "PATH", 0, "Trace the tasks of this cgroup v2 directory and below "
	  "(no workload)", 0 },
	{ "cpus", 'C', "LIST", 0, "Pin the workload to these CPUs (default: all online)", 0 },
	{ "duration", 'd', "DUR", 0, "Stop after DUR (10s, 500ms, 2m)", 0 },
	{ "output", 'o', "FILE", 0, "Write the run file (JSON, docs/run-file.md) to FILE, "
	  "atomically; '-': to stdout, the text then goes to stderr", 0 },
	{ "user", 'u', "NAME", 0, "Run the workload as user NAME", 0 },
	{ "hot-ns", OPT_HOT, "NS", 0, "Judge hotness at NS instead of the kernel's value", 0 },
	{ "ringbuf", OPT_RINGBUF, "SIZE", 0, "Ring-buffer size, a power of two (default 32K a CPU, from 64K to 1M)", 0 },
	{ "unit", OPT_UNIT, "BINARY:FUNCTION", 0, "Time every call of FUNCTION as a unit of work "
	  "(uprobe + uretprobe); automatic for cachewalk", 0 },
	{ "max-records", OPT_MAXREC, "N", 0, "Keep at most N migration and N unit records for "
	  "-o and the correlation (default 200000, ~20 MiB each; 0: no limit); the counts and "
	  "histograms stay complete", 0 },
	{ "calibration", OPT_CALIB, "FILE", 0, "A `migtrace calibrate -o` result for the "
	  "verdict", 0 },
	{ "backend", OPT_BACKEND, "NAME", 0, "Record with bpf, ftrace (a tracefs instance, for "
	  "kernels or policies without BPF) or auto (default: bpf where its programs load)", 0 },
	{ "keep-trace", OPT_KEEP_TRACE, "FILE", 0, "Keep the ftrace backend's raw capture as a "
	  "trace-cmd file (trace.dat) for `trace-cmd report`, KernelShark or `migtrace report`; "
	  "takes the ftrace backend", 0 },
	MT_CLI_OPT_VERBOSE_LIBBPF,
	{ NULL, 0, NULL, 0, "Probed moves, the workload's own cost of a move (docs/design.md, "
	  "\"Probed moves\"):", 2 },
	{ "probe-moves", OPT_PROBE_MOVES, "RATE", 0, "At RATE random moments a second (20 is a "
	  "good start), move a sleeping thread of the workload to another CPU of its mask, or "
	  "by a coin flip leave it (a sham), and compare what it does next: a randomised "
	  "experiment; masks are given back, also if migtrace is killed", 2 },
	{ "probe-share", OPT_PROBE_SHARE, "PCT", 0, "Charge each move 1 ms of the workload's "
	  "CPU time and make moves only while they stay within PCT % of it (default 2)", 2 },
	{ "probe-seed", OPT_PROBE_SEED, "N", 0, "Seed of the draws (default fixed: a run "
	  "repeats its draws)", 2 },
	{ NULL, 0, NULL, 0, "Live intervals and the Prometheus textfile:", 1 },
	{ "interval-ms", 'I', "MSECS", 0, "--interval in milliseconds, as perf's -I (1000: "
	  "1 s)", 1 },
	{ "interval", OPT_INTERVAL, "DUR", 0, "Print a summary every DUR while tracing (1s, "
	  "500ms; at least 10ms), then the whole run's", 1 },
	{ "count", OPT_COUNT, "N", 0, "End the run after N intervals", 1 },
	{ "timestamp", 'T', NULL, 0, "Start each interval's block with the time of day "
	  "(HH:MM:SS)", 1 },
	{ "json", 'j', NULL, 0, "One JSON object per interval on stdout instead of the "
	  "blocks (docs/interval-lines.md); the text goes to stderr", 1 },
	{ "textfile", OPT_TEXTFILE, "DIR", 0, "Write DIR/migtrace.prom atomically at each "
	  "interval's end, for node_exporter's textfile collector (every 15 s without "
	  "--interval)", 1 },
	{ "listen", OPT_LISTEN, "[ADDR:]PORT", 0, "Serve the textfile's metrics at "
	  "http://ADDR:PORT/metrics for Prometheus to scrape, new at each interval's end "
	  "(ADDR: 127.0.0.1; every 15 s without --interval)", 1 },
	{ "per-pid", 'P', NULL, 0, "Name the 10 processes with the most migrations (a "
	  "label in the textfile, a line in the blocks)", 1 },
	{ 0 },
};

/* run's options: the run's configuration and its exports. */
struct run_env {
	struct run_config cfg;
	struct export_opts exports;	/* --csv, --openmetrics, --perfetto, --plot, --what-if */
	struct interval_out live;	/* --interval, -T, -j, --textfile */
	int operands;			/* runqlat's INTERVAL and COUNT read: 0, 1 or 2 */
	bool probe_tuned;		/* --probe-share or --probe-seed given */
};

/* The live options' combinations, at the end of the command line. */
static void check_live(struct argp_state *state, struct run_env *env)
{
	struct run_config *c = &env->cfg;
	bool exposed = c->textfile_dir || env->live.listen_arg;
	bool live = c->interval_ns || exposed;

	if (c->interval_count && !live)
		argp_error(state, "--count: counts intervals: give --interval DUR (or "
			   "--textfile DIR)");
	if (env->live.wall_clock && !c->interval_ns)
		argp_error(state, "-T: stamps the interval blocks: give --interval DUR");
	if (c->json_lines && !live)
		argp_error(state, "-j: writes a line per interval: give --interval DUR (or "
			   "--textfile DIR)");
	if (c->per_pid && !live)
		argp_error(state, "-P: names processes in the intervals: give --interval DUR "
			   "or --textfile DIR");
	if (c->json_lines && c->output && atomic_file_to_stdout(c->output))
		argp_error(state, "-j and -o %s both write to standard output: give -o a file",
			   c->output);
	/* blocks for --interval or -j; --textfile or --listen alone make only their
	 * exposition, every 15 s */
	env->live.text = c->interval_ns || c->json_lines ? stdout : NULL;
	if (!c->interval_ns)
		c->interval_ns = exposed ? TEXTFILE_DEFAULT_NS : 0;
}

/*
 * What is traced: a workload, -p, -a or --cgroup, one of them.  A workload with --cgroup is
 * refused, the simplest rule: start it in the cgroup and trace the cgroup, or trace it alone.
 */
static void check_scope(struct argp_state *state, const struct run_config *c)
{
	if (c->all && c->cgroup_arg)
		argp_error(state, "-a (every task) and --cgroup exclude each other");
	if (c->all && (c->argv || c->pid))
		argp_error(state, "-a traces every task: not with %s", c->pid ? "-p" : "a WORKLOAD");
	if (c->cgroup_arg && (c->argv || c->pid))
		argp_error(state, "--cgroup traces a cgroup's tasks: not with %s",
			   c->pid ? "-p" : "a WORKLOAD (start it in the cgroup instead)");
	if (!c->argv && !c->pid && !c->all && !c->cgroup_arg)
		argp_error(state, "give a WORKLOAD, '-- CMD ARGS', -p PID, -a or --cgroup PATH");
	if (c->argv && c->pid)
		argp_error(state, "-p PID and a WORKLOAD exclude each other");
	if ((c->all || c->cgroup_arg) && (c->cpus_arg || c->user))
		argp_error(state, "%s applies to a launched workload: -a and --cgroup launch none",
			   c->cpus_arg ? "--cpus" : "--user");
	if (c->backend == TRACER_BACKEND_FTRACE && c->cgroup_arg)
		argp_error(state, "--cgroup needs --backend bpf: the ftrace backend cannot "
			   "filter by cgroup (trace -a, or -p the cgroup's process)");
}

/* --probe-moves' combinations, at the end of the command line. */
static void check_probe(struct argp_state *state, const struct run_env *env)
{
	const struct run_config *c = &env->cfg;

	if (c->probe_rate_hz <= 0) {
		if (env->probe_tuned)
			argp_error(state, "--probe-share and --probe-seed tune --probe-moves: give "
				   "--probe-moves RATE");
		return;
	}
	if (c->all || c->cgroup_arg)
		argp_error(state, "--probe-moves moves the threads of one workload: give a "
			   "WORKLOAD or -p PID, not %s", c->all ? "-a" : "--cgroup");
	/* without units the runs are timed by the BPF programs (a cachewalk times its own) */
	if (c->backend == TRACER_BACKEND_FTRACE && !c->unit_arg &&
	    !(c->argv && !strcmp(basename(strdupa(c->argv[0])), "cachewalk")))
		argp_error(state, "--probe-moves times a program without units by its runs to the "
			   "next block, which only the BPF programs record: give --unit "
			   "BINARY:FUNCTION, or not --backend ftrace%s",
			   c->keep_trace ? " (--keep-trace takes it)" : "");
}

/* Whether arg is a plain number (1, 0.5): runqlat's interval or count, not a program. */
static bool numeric(const char *arg)
{
	return *arg && strspn(arg, "0123456789.") == strlen(arg);
}

/*
 * `migtrace run 1 10', as runqlat reads it: a block every second, 10 of them, of every task
 * unless -p or -c names whom.  The count is the number after the interval; a third is refused.
 */
static void positional_interval(struct argp_state *state, struct run_env *env,
				const char *arg)
{
	struct run_config *c = &env->cfg;
	int *nth = &env->operands;
	double sec;
	char *end;

	if (*nth == 0) {
		sec = strtod(arg, &end);
		if (*end || sec < 0.01 || sec > 86400.0 * 365)
			argp_error(state, "INTERVAL '%s' is not a number of seconds from 0.01 "
				   "(as `runqlat 1 10'); a program named so runs as `-- %s'",
				   arg, arg);
		if (c->interval_ns)
			argp_error(state, "INTERVAL %s: --interval is given already: give one",
				   arg);
		c->interval_ns = (uint64_t)(sec * 1e9 + 0.5);
		*nth = 1;
	} else if (*nth == 1) {
		if (c->interval_count)
			argp_error(state, "COUNT %s: --count is given already: give one", arg);
		if (parse_long(arg, 1, INT_MAX, &c->interval_count))
			argp_error(state, "COUNT '%s' is not a number of intervals from 1 (as "
				   "`runqlat 1 10')", arg);
		*nth = 2;
	} else {
		argp_error(state, "'%s': run takes INTERVAL and COUNT, no third number (a "
			   "program runs as `-- CMD ARGS')", arg);
	}
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct run_env *env = state->input;
	struct run_config *c = &env->cfg;
	uint64_t v;
	long l;

	if (mt_cli_common(state, key, arg, &env->exports))
		return 0;
	switch (key) {
	case 'p':
		if (parse_long(arg, 1, INT_MAX, &c->pid))
			argp_error(state, "--pid: '%s' is not a process id", arg);
		break;
	case 'a':
		c->all = true;
		break;
	case 'c':
		/* -c 0,1 meant --cpus before -c was the cgroup (as in runqlat) */
		if (mt_cli_looks_like_cpus(arg) && access(arg, F_OK))
			mt_cli_old_cpus(state, arg);
		c->cgroup_arg = arg;
		break;
	case 'C':
		c->cpus_arg = arg;
		break;
	case 'd':
		if (parse_duration(arg, &c->duration_ns) || !c->duration_ns)
			argp_error(state, "--duration: '%s' is not a duration (10s, 500ms, "
				   "2m)", arg);
		break;
	case 'o':
		c->output = arg;
		break;
	case 'u':
		c->user = arg;
		break;
	case OPT_HOT:
		if (parse_long(arg, -1, LONG_MAX, &l))
			argp_error(state, "--hot-ns: '%s' is not a number of ns (-1 = always hot)",
				   arg);
		c->hot_ns = l;
		break;
	case OPT_RINGBUF:
		if (parse_size(arg, &v) || v < 4096 || (v & (v - 1)) || v > (1ULL << 30))
			argp_error(state, "--ringbuf: '%s' is not a power of two from 4K to "
				   "1G", arg);
		c->ringbuf_bytes = v;
		break;
	case OPT_BACKEND:
		if (tracer_backend_parse(arg) < 0)
			argp_error(state, "--backend: '%s' is not bpf, ftrace or auto", arg);
		c->backend = (uint8_t)tracer_backend_parse(arg);
		break;
	case OPT_KEEP_TRACE:
		c->keep_trace = arg;
		break;
	case OPT_MAXREC:
		if (parse_long(arg, 0, LONG_MAX, &c->max_records))
			argp_error(state, "--max-records: '%s' is not a count", arg);
		break;
	case OPT_CALIB:
		c->calibration = arg;
		break;
	case OPT_UNIT:
		if (!strchr(arg, ':') || strchr(arg, ':') == arg || !strchr(arg, ':')[1])
			argp_error(state, "--unit: '%s' is not BINARY:FUNCTION", arg);
		c->unit_arg = arg;
		break;
	case 'I':
		if (c->interval_ns)
			argp_error(state, "-I %s: --interval is given already: give one", arg);
		if (parse_long(arg, 10, LONG_MAX / 1000000, &l))
			argp_error(state, "--interval-ms: '%s' is not a number of ms from 10", arg);
		c->interval_ns = (uint64_t)l * 1000000;
		break;
	case OPT_INTERVAL:
		if (c->interval_ns)
			argp_error(state, "--interval %s: -I is given already: give one", arg);
		if (parse_duration(arg, &c->interval_ns) || c->interval_ns < 10000000)
			argp_error(state, "--interval: '%s' is not a duration of 10ms or more (1s, "
				   "500ms, 2m)", arg);
		break;
	case OPT_COUNT:
		if (parse_long(arg, 1, INT_MAX, &c->interval_count))
			argp_error(state, "--count: '%s' is not a number of intervals from 1",
				   arg);
		break;
	case 'T':
		env->live.wall_clock = true;
		break;
	case 'j':
		c->json_lines = env->live.json = true;
		break;
	case OPT_TEXTFILE:
		c->textfile_dir = env->live.dir = arg;
		break;
	case OPT_LISTEN: {
		char why[160];

		if (metrics_listen_parse(arg, &env->live.listen, why, sizeof(why)))
			argp_error(state, "--listen: %s", why);
		env->live.listen_arg = arg;
		break;
	}
	case 'P':
		c->per_pid = true;
		break;
	case OPT_PROBE_MOVES: {
		char *end;

		c->probe_rate_hz = strtod(arg, &end);
		if (end == arg || *end || !(c->probe_rate_hz > 0) || c->probe_rate_hz > 1000)
			argp_error(state, "--probe-moves: '%s' is not a rate of moments a second, "
				   "above 0 and at most 1000", arg);
		break;
	}
	case OPT_PROBE_SHARE: {
		char *end;
		double pct = strtod(arg, &end);

		if (end == arg || (*end && strcmp(end, "%")) || !(pct > 0) || pct > 50)
			argp_error(state, "--probe-share: '%s' is not a percentage above 0 and at "
				   "most 50", arg);
		c->probe_share = pct / 100;
		env->probe_tuned = true;
		break;
	}
	case OPT_PROBE_SEED:
		if (parse_long(arg, 0, LONG_MAX, &l))
			argp_error(state, "--probe-seed: '%s' is not a number", arg);
		c->probe_seed = (uint64_t)l;
		env->probe_tuned = true;
		break;
	case ARGP_KEY_ARG:
		/* runqlat's [INTERVAL [COUNT]]: numbers, not after `--' */
		if (!c->argv && numeric(arg) && strcmp(state->argv[state->next - 2], "--")) {
			positional_interval(state, env, arg);
			break;
		}
		/* The first non-option starts the workload's own command line. */
		c->argv = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		/* runqlat's INTERVAL alone watches the whole machine */
		if (env->operands && !c->pid && !c->cgroup_arg && !c->argv)
			c->all = true;
		check_scope(state, c);
		check_live(state, env);
		/* the capture kept is the ftrace backend's: auto takes it */
		if (c->keep_trace && c->backend == TRACER_BACKEND_BPF)
			argp_error(state, "--keep-trace keeps the ftrace backend's capture: not with "
				   "--backend bpf");
		if (c->keep_trace)
			c->backend = TRACER_BACKEND_FTRACE;
		check_probe(state, env);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct argp_child children[] = { { &export_argp, 0, NULL, 0 },
						      MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	/* the spellings before the vocabulary of migtrace(8), kept one release */
	static const struct mt_cli_rename renamed[] = {
		{ "--all", "--all-cpus", false, 0, NULL },
		{ "--json-lines", "--json", false, 0, NULL },
		{ 0 },
	};
	struct run_env env = { 0 };
	struct mt_cli_path own[4];
	char textfile[PATH_MAX];
	int rc;

	run_config_default(&env.cfg, RUN_KIND_RUN);
	mt_cli_renames(&argp, renamed, true, argc, argv);
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER | ARGP_NO_HELP, NULL, &env))
		return MT_EXIT_USAGE;
	mt_cli_json_errors(env.cfg.json_lines ||
			   (env.cfg.output && atomic_file_to_stdout(env.cfg.output)));
	/* -P names processes from the migration records */
	/* the native Perfetto trace shows what ran on each CPU: the switches are recorded */
	env.cfg.switch_records = env.exports.perfetto && render_perfetto_native(env.exports.perfetto);
	env.cfg.records_wanted = env.exports.csv_dir || env.exports.perfetto ||
				 env.exports.whatif_arg || env.cfg.per_pid;
	/* an export that cannot be written, or an output over the calibration read or over
	 * another output, is found before the workload runs */
	own[0] = mt_cli_path_of("--calibration file", env.cfg.calibration, MT_PATH_INPUT);
	own[1] = mt_cli_path_of("-o", env.cfg.output, MT_PATH_FILE);
	/* the textfile too: -o DIR/migtrace.prom would have the run file replaced by it (its
	 * file, not its directory: other outputs may share a directory with it) */
	if (env.live.dir && snprintf(textfile, sizeof(textfile), "%s/%s", env.live.dir,
				     TEXTFILE_NAME) >= (int)sizeof(textfile)) {
		mt_err("--textfile: %s is too long a path", env.live.dir);
		return MT_EXIT_USAGE;
	}
	own[2] = mt_cli_path_of("--textfile", env.live.dir ? textfile : NULL, MT_PATH_FILE);
	own[3] = mt_cli_path_of("--keep-trace", env.cfg.keep_trace, MT_PATH_FILE);
	if (export_check(&env.exports, "migtrace run", false, own, 4) ||
	    (env.cfg.keep_trace && atomic_file_check_named(env.cfg.keep_trace,
							   "migtrace run: --keep-trace")))
		return MT_EXIT_USAGE;
	if (env.live.dir) {
		if (interval_out_check_dir(env.live.dir) || interval_out_lock_dir(env.live.dir))
			return MT_EXIT_USAGE;
		snprintf(env.live.path, sizeof(env.live.path), "%s/%s", env.live.dir,
			 TEXTFILE_NAME);
	}
	/* the port is taken before the workload starts: a taken one ends nothing */
	if (env.live.listen_arg) {
		env.live.server = metrics_server_start(&env.live.listen);
		if (!env.live.server)
			return MT_EXIT_USAGE;
		mt_info("serving http://%s" METRICS_PATH " (every %.3g s)", env.live.listen.text,
			(double)env.cfg.interval_ns / 1e9);
	}
	if (env.cfg.interval_ns) {
		env.cfg.on_interval = interval_out_event;
		env.cfg.on_interval_ctx = &env.live;
	}
	rc = run_command(&env.cfg, &env.exports, NULL);
	if (env.live.server) {
		fprintf(run_config_text(&env.cfg), "--listen %s: %lu scrape%s answered\n",
			env.live.listen.text, metrics_server_scrapes(env.live.server),
			metrics_server_scrapes(env.live.server) == 1 ? "" : "s");
		metrics_server_stop(env.live.server);
	}
	return rc;
}

int run_command(struct run_config *cfg, const struct export_opts *exports, struct run *r)
{
	FILE *text = run_config_text(cfg);
	struct capture *cap = NULL;
	struct run *own = NULL;
	int rc;

	if (!r && !(r = own = run_new())) {
		mt_err("out of memory");
		return MT_EXIT_FAIL;
	}
	rc = run_config_resolve(cfg, r);
	if (rc)
		goto cleanup;
	cap = capture__open(cfg, r, &rc);
	if (!cap)
		goto cleanup;
	render_text_header(text, r);
	fflush(text);
	rc = capture__run(cap);
	if (rc)
		goto cleanup;
	if (run_analyze(r))
		mt_err("correlating units failed: out of memory");
	render_text_results(text, r);
	export_text(exports, text, r);
	fflush(text);
	if ((cfg->output && run_output_save(cfg->output, r, "migtrace run")) ||
	    export_files(exports, r, "migtrace run") ||
	    (cfg->on_interval == interval_out_event &&
	     interval_out_final(cfg->on_interval_ctx, r))) {
		rc = MT_EXIT_FAIL;
		goto cleanup;
	}
	rc = capture__exit_status(cap);
cleanup:
	capture__free(cap);
	run_free(own);
	return rc;
}

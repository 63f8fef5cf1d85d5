// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace validate: the main job.  Calibrate the migration cost between two CPUs, then run
 * the controlled cachewalk experiment under the tracer (real migrations at chosen ages, with
 * a same-CPU control arm), and put the calibrated, the kernel's and the observed hot time
 * side by side with a verdict.  The options fill the run's configuration directly (the
 * experiment's cachewalk options included); run_command() does the rest.
 */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "atomic_file.h"
#include "calib_footprint.h"
#include "calibrate.h"
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "tracer.h"
#include "export.h"
#include "footprint_levels.h"
#include "mem_room.h"
#include "parse.h"
#include "polluter_size.h"
#include "render_text.h"
#include "run_config.h"
#include "sequence.h"
#include "topology.h"
#include "units.h"

/* What validate takes beyond the run's configuration: its calibration's options. */
struct validate_env {
	struct run_config cfg;
	struct export_opts exports;	/* --csv, --openmetrics, --perfetto, --plot, --what-if */
	const char *cpus_arg;		/* the two CPUs, as given */
	long polluter_mbps;		/* --polluter: one rate on CPU A, MB/s; 0 for none; -1:
					 * not given (the grid of --rates) */
	bool rates_given;		/* --rates */
	const char *size_arg;		/* the calibration's cache size, as calibrate's --size */
	enum topo_caches caches;
	long chase_rounds;		/* --rounds: the chase's in step 1; 0: its default */
	double budget_s;		/* --budget, s; -1: not given */
	bool samples_given;		/* --samples */
	/* the sequence's clock: validate's start, the experiment's, the last look's */
	uint64_t start_ns, exp_start_ns, look_ns;
	uint32_t look_rounds;		/* rounds done at the last look */
	bool size_given;		/* --polluter-size: else the footprint curve sizes it */
};

static const char doc[] =
"Calibrate, run the controlled experiment, and judge the kernel's migration\n"
"cost.\n"
"\n"
"Step 1 measures the migration cost between two CPUs (the 2004 method), and\n"
"beside it the chase: the experiment's working set walked by dependent loads\n"
"on B minus on A after D bytes streamed through A's caches (refill cost a\n"
"line with 1, 2, 4 and 8 chains, and D*).\n"
"Step 2 runs cachewalk under the tracer: warm on CPU A, off-CPU for each\n"
"age in 50 µs .. 50 ms while a polluter streams through A's cache at each\n"
"rate of --rates, then either a real migration to B (sched_setaffinity, seen\n"
"by sched_migrate_task) or a wake on A; the first unit after each is timed.\n"
"The cost is read against the bytes the polluter displaced meanwhile: D*,\n"
"past which a migration costs no more than staying, is the machine's; the\n"
"hot time is D* divided by the rate at which the tasks sharing a CPU\n"
"displace its cache, so the verdict says at which rate the kernel's value\n"
"is right, and judges it at each rate measured.  Where the rates agree on the\n"
"hot time by age and not on D*, the cache decays with time, not bytes: the\n"
"verdict is then the pooled hot time by age against the kernel's value (the\n"
"regime: line says which model the rates support).\n"
"Step 2 samples until it decides: whole rounds of the schedule, judged after\n"
"8, 12, 18, 27 rounds and at the last look (5 at most, every interval at 99 %\n"
"so that the whole sequence errs at most 5 % of the time), until a verdict is\n"
"decided with an interval 2x wide at most, or --budget (60 s from the start)\n"
"holds no more rounds.\n"
"Step 1 sizes its buffer as calibrate does: against the largest per-core\n"
"cache from sysfs, or CPUID where sysfs lists none, or --size.  Step 1 ends\n"
"with the footprint curve: a pointer chase's latency a line on A, and on B\n"
"just after A walked the same footprint, from 16 KiB up; where A's latency\n"
"steps up is a cache level, and B's latency above A's there says B does not\n"
"share it.  The polluter's buffer is twice the largest level B does not\n"
"share, a power of two, 4 MiB at least (--polluter-size overrides it; the\n"
"polluter: line says which).\n"
"\n"
"USAGE: migtrace validate [--cpus A,B] [--budget DUR] [--samples N]\n"
"                         [--ws SIZE] [--rates MBPS,...|--polluter MBPS]\n"
"                         [--ages US,US,...] [-o run.json] [--size SIZE]\n"
"                         [--caches auto|sysfs|cpuid]\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace validate\n"
"    sudo migtrace validate --cpus 2,3 --samples 50 -o validate.json\n"
"    sudo migtrace validate --rates 100,1000,10000   # a finer grid of rates\n"
"    sudo migtrace validate --polluter 0   # no polluter: cost read against age\n";

enum { OPT_CACHES = 1000, OPT_BACKEND, OPT_ROUNDS, OPT_AGES, OPT_POLLUTER, OPT_BUDGET };

/*
 * The default grid of polluter rates: 25x from the slowest to the fastest set, and as fast as
 * the polluter can (often another 2-5x), so that the same D is reached at ages 10x apart.
 */
#define VALIDATE_RATES "200,1000,5000,max"
/*
 * Sampling until it decides: the time budget from validate's start, s, so that `make run`
 * stays near 90 s, and the most rounds a budget may run (each ~0.8 s with the default grid).
 */
#define VALIDATE_BUDGET_S 60
#define VALIDATE_MAX_ROUNDS 500

static const struct argp_option opts[] = {
	{ "cpus", 'C', "A,B", 0, "The two CPUs: warm on A, migrate to B (default: first two)", 0 },
	{ "samples", 'n', "N", 0, "Samples per (age, arm) cell: the rounds of the schedule "
	  "(default: as many as --budget allows, up to 500; 30 with --budget 0)", 0 },
	{ "budget", OPT_BUDGET, "DUR", 0, "Sample until the verdict is decided or DUR from "
	  "validate's start is spent (90s, 2m; default 60s; 0: the fixed schedule of --samples, "
	  "judged once at its end)", 0 },
	{ "ws", 'w', "SIZE", 0, "cachewalk working set (default 256K)", 0 },
	{ "ages", OPT_AGES, "LIST", 0, "Ages in µs (default 50,100,200,500,1000,...,50000)", 0 },
	{ "rates", 'R', "LIST", 0, "Polluter rates on A in MB/s, 'max' for as fast as it can "
	  "(default 200,1000,5000,max)", 0 },
	{ "polluter", OPT_POLLUTER, "MBPS", 0, "One polluter rate instead of --rates; 0: no polluter "
	  "(the cost is read against age)", 0 },
	{ "polluter-size", 'S', "SIZE", 0, "The polluter's buffer, the most it can displace "
	  "(default: measured, 2x the largest cache level B does not share, 4M at least)", 0 },
	{ "output", 'o', "FILE", 0, "Write the run file with the verdict (JSON, "
	  "docs/run-file.md); '-': to stdout, the text then goes to stderr", 0 },
	{ "size", 's', "SIZE", 0, "Calibrate against a cache of SIZE (4M, 512K) instead of "
	  "the largest per-core cache", 0 },
	{ "rounds", OPT_ROUNDS, "N", 0, "The chase's rounds of every trial in step 1 (default "
	  "7), as calibrate --rounds", 0 },
	{ "caches", OPT_CACHES, "SRC", 0, "Cache sizes from auto (default: sysfs, CPUID where "
	  "sysfs lists none), sysfs or cpuid", 0 },
	{ "backend", OPT_BACKEND, "NAME", 0, "Record with bpf, ftrace or auto (default: bpf "
	  "where its programs load), as run --backend", 0 },
	MT_CLI_OPT_VERBOSE_LIBBPF,
	/* the CPU list's old spelling: refused, naming --cpus */
	{ NULL, 'c', "LIST", OPTION_HIDDEN, NULL, 0 },
	{ 0 },
};

/* One of cachewalk's own options, checked by cachewalk's parser. */
static void cw_option(struct argp_state *state, const char *name, const char *arg)
{
	struct validate_env *env = state->input;
	char err[256];

	if (cachewalk_config_option(&env->cfg.cw, name, arg, err, sizeof(err)))
		argp_error(state, "%s", err);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct validate_env *env = state->input;

	if (mt_cli_common(state, key, arg, &env->exports))
		return 0;
	switch (key) {
	case 'c':
		mt_cli_old_cpus(state, arg);
		break;
	case 'C':
		env->cpus_arg = arg;
		break;
	case 'n':
		cw_option(state, "samples", arg);
		env->samples_given = true;
		break;
	case OPT_BUDGET:
		{
			uint64_t ns;

			if (parse_duration(arg, &ns) || ns > 86400000000000ULL)
				argp_error(state, "--budget: '%s' is not a time from 0 to a day "
					   "(90, 90s, 2m)", arg);
			env->budget_s = (double)ns / 1e9;
		}
		break;
	case 'w':
		cw_option(state, "ws", arg);
		break;
	case OPT_AGES:
		cw_option(state, "ages", arg);
		break;
	case OPT_POLLUTER:
		if (parse_long(arg, 0, 1000000, &env->polluter_mbps))
			argp_error(state, "--polluter: '%s' is not a rate in MB/s", arg);
		break;
	case 'R':
		cw_option(state, "rates", arg);
		env->rates_given = true;
		break;
	case 'S':
		cw_option(state, "polluter-size", arg);
		env->size_given = true;
		break;
	case 'o':
		env->cfg.output = arg;
		break;
	case 's':
		env->size_arg = arg;
		break;
	case OPT_ROUNDS:
		if (parse_long(arg, 1, 1000, &env->chase_rounds))
			argp_error(state, "--rounds: '%s' is not a whole number of rounds from 1 "
				   "to 1000", arg);
		break;
	case OPT_CACHES:
		if (topology_caches_arg(arg, &env->caches))
			argp_error(state, "--caches: '%s' is none of auto, sysfs, cpuid", arg);
		break;
	case OPT_BACKEND:
		if (tracer_backend_parse(arg) < 0)
			argp_error(state, "--backend: '%s' is not bpf, ftrace or auto", arg);
		env->cfg.backend = (uint8_t)tracer_backend_parse(arg);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (env->rates_given && env->polluter_mbps >= 0)
			argp_error(state, "--rates and --polluter exclude each other: --polluter is "
				   "one rate, --rates a grid of them");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The two CPUs: as given, or the first two online. */
static int pick_cpus(const struct validate_env *env, const struct topology *topo,
		     struct cpu_set_list *cpus)
{
	if (env->cpus_arg) {
		int bad = topology_cpus_arg(topo, env->cpus_arg, "validate", cpus);

		if (!bad && cpus->n != 2)
			mt_err("--cpus: give two CPUs, e.g. 0,1");
		return bad || cpus->n != 2 ? MT_EXIT_USAGE : 0;
	}
	if (topo->online.n < 2) {
		mt_err("needs two online CPUs; this machine has one");
		return MT_EXIT_FAIL;
	}
	cpus->n = 2;
	cpus->cpu[0] = topo->online.cpu[0];
	cpus->cpu[1] = topo->online.cpu[1];
	return 0;
}

/*
 * The polluter's buffer from the footprint curve (docs/design.md, "The polluter's size"):
 * measured, its levels read, and twice the largest level B does not share, unless
 * --polluter-size gave it.  private_bytes: the per-core cache the calibration is sized
 * against, the fallback's.
 */
static int size_step(struct validate_env *env, struct footprint *fp, uint64_t private_bytes)
{
	struct mem_room room;

	if (footprint_measure(fp)) {
		mt_err("the footprint curve failed");
		return -1;
	}
	footprint_levels(fp);
	if (mem_room_probe(NULL, &room))
		room.bytes = 0;
	polluter_size(fp, private_bytes, room.bytes, room.what,
		      env->size_given ? env->cfg.cw.polluter_bytes : 0);
	env->cfg.cw.polluter_bytes = fp->polluter_bytes;
	return 0;
}

/*
 * Step 1: the 2004 calibration between the two CPUs, into the run's calibration, and the
 * chase beside it over the experiment's own working set (docs/design.md, "The chase
 * calibration"): its D* is the one step 2 measures, by another way.
 */
static int calibrate_step(struct validate_env *env, struct topology *topo,
			  const struct cpu_set_list *cpus, struct run *r)
{
	struct run_calibration *cal = &r->calib;
	FILE *text = run_config_text(&env->cfg);
	struct calib_opts co = { 0 };
	struct topo_choice ch;
	int err;

	/* Calibrating against a size nobody gave would make every later number wrong. */
	err = topology_calib_cache(topo, cpus->cpu[0], 0, env->size_arg, "validate", &ch);
	if (err)
		return err == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAIL;
	co.method = CALIB_2004;
	co.cpus = *cpus;
	co.reps = CALIB_DEFAULT_REPS;
	co.factor = CALIB_FACTOR_SCALE;
	co.topo = topo;
	co.cache_size = ch.size_bytes;
	co.cache = &ch;
	co.chase = true;
	co.chase_rounds = (int)env->chase_rounds;
	co.chase_nws = 1;
	co.chase_ws[0] = env->cfg.cw.ws_bytes;
	cal->inline_run = true;
	/* --polluter 0 runs no polluter: nothing to size */
	cal->has_footprint = env->polluter_mbps != 0;
	if (cal->has_footprint)
		footprint_plan(topo, cpus->cpu[0], cpus->cpu[1], 0, &cal->footprint);
	/* what is about to be measured, said before the second or so it takes */
	if (calib_prepare(&co, &cal->cal) == 0) {
		render_text_calib_intro(text, r);
		fflush(text);
	}
	if (calibrate_run(&co, &cal->cal) || !cal->cal.has_hot) {
		mt_err("calibration failed");
		return MT_EXIT_FAIL;
	}
	cal->valid = true;
	cal->robust = true;
	cal->hot_ns = cal->cal.hot_robust_ns;
	if (cal->has_footprint && size_step(env, &cal->footprint, cal->cal.cache_bytes))
		return MT_EXIT_FAIL;
	render_text_calib_result(text, r);
	fflush(text);
	return 0;
}

/*
 * A look of step 2 (docs/design.md, "Sampling until it decides"): the units so far judged at
 * the sequence's level, said in one line, and the rounds allowed next.
 */
static uint32_t look(void *ctx, struct run *r, uint32_t rounds)
{
	struct validate_env *env = ctx;
	FILE *text = run_config_text(&env->cfg);
	uint64_t t0 = now_ns(), since = env->look_ns ? env->look_ns : env->exp_start_ns;
	struct verdict v;
	struct seq_clock c;
	uint32_t next;
	char a[32], b[32], d[32];

	memset(&v, 0, sizeof(v));
	if (run_look(r, &v)) {
		mt_err("judging the units of %u rounds failed: out of memory", rounds);
		v.kind = VERDICT_UNDETERMINED;
	}
	c.now_s = (double)(now_ns() - env->start_ns) / 1e9;
	c.judge_s = (double)(now_ns() - t0) / 1e9;
	/* the first look's rounds also paid for loading the tracer: an estimate on the safe
	 * side */
	c.round_s = (double)(t0 - since) / 1e9 / (rounds - env->look_rounds);
	next = seq_after_look(&r->setup, &r->seq, rounds, v.kind, seq_span(&v), &c);
	fprintf(text, "  look %d: %u rounds, %.1f s in: %s", r->seq.nlooks, rounds, c.now_s,
		verdict_names[v.kind]);
	/* by rate, D* and both ends are finite: the verdict says so only then */
	if (v.kind == VERDICT_BY_RATE)
		fprintf(text, ", D* %s (%s to %s)", fmt_bytes(a, sizeof(a), (uint64_t)v.dstar_bytes),
			fmt_bytes(b, sizeof(b), (uint64_t)v.dstar_lo_bytes),
			fmt_bytes(d, sizeof(d), (uint64_t)v.dstar_hi_bytes));
	else if (isfinite(v.hot_ns) && v.hot_lo_ns > 0 && isfinite(v.hot_hi_ns))
		fprintf(text, ", hot time %s (%s to %s)", fmt_ns(a, sizeof(a), v.hot_ns),
			fmt_ns(b, sizeof(b), v.hot_lo_ns), fmt_ns(d, sizeof(d), v.hot_hi_ns));
	if (seq_decided(v.kind) && !(seq_span(&v) <= SEQ_PRECISE_SPAN))
		fprintf(text, ", an interval wider than %.0fx", SEQ_PRECISE_SPAN);
	if (next)
		fprintf(text, "; %u rounds more (~%.0f s)\n", next - rounds,
			(next - rounds) * c.round_s);
	else
		fprintf(text, "; %s\n", r->seq.end == SEQ_END_DECIDED ? "decided" :
			r->seq.end == SEQ_END_BUDGET ? "the budget holds no more rounds" :
			r->seq.end == SEQ_END_LOOKS ? "the last look" : "every round run");
	fflush(text);
	env->look_ns = now_ns();
	env->look_rounds = rounds;
	return next;
}

/* The sequence (--budget): looks at the Bonferroni level, up to --samples rounds or 500. */
static void sequence(struct validate_env *env)
{
	struct run_config *cfg = &env->cfg;

	if (env->budget_s < 0)
		env->budget_s = env->samples_given ? 0 : VALIDATE_BUDGET_S;
	if (!(env->budget_s > 0))
		return;
	if (!env->samples_given)
		cfg->cw.samples = VALIDATE_MAX_ROUNDS;
	cfg->budget_s = env->budget_s;
	cfg->max_looks = SEQ_DEFAULT_LOOKS;
	cfg->level = seq_level(cfg->max_looks);
	cfg->first_rounds = seq_first_rounds(cfg->cw.samples);
	cfg->min_look_rounds = SEQ_MIN_LOOK_ROUNDS;
	cfg->on_round = look;
	cfg->on_round_ctx = env;
	/* the budget's end less a look's and the final analysis' few seconds: past it, the
	 * next look comes at the end of the round under way */
	cfg->gate_deadline_ns = env->start_ns + (uint64_t)(fmax(env->budget_s - SEQ_DEADLINE_S,
								 env->budget_s / 2) * 1e9);
}

/* Step 2's configuration: cachewalk's controlled experiment between the two CPUs. */
static void experiment(struct validate_env *env, const struct cpu_set_list *cpus,
		       char *cpus_buf, size_t len)
{
	struct run_config *cfg = &env->cfg;

	snprintf(cpus_buf, len, "%d,%d", cpus->cpu[0], cpus->cpu[1]);
	cfg->cpus_arg = cpus_buf;
	cfg->cw.controlled = true;
	cfg->cw.cpu_a = cpus->cpu[0];
	cfg->cw.cpu_b = cpus->cpu[1];
	if (env->polluter_mbps == 0) {
		cfg->cw.nrates = 0;
		return;		/* no polluter: the cache decays by itself, read against age */
	}
	snprintf(cfg->cw.polluter_cpus, sizeof(cfg->cw.polluter_cpus), "%d", cpus->cpu[0]);
	if (env->polluter_mbps > 0) {
		cfg->cw.nrates = 1;
		cfg->cw.rates_mbps[0] = (double)env->polluter_mbps;
	}
}

int cmd_validate(int argc, char **argv)
{
	static const struct argp_child children[] = { { &export_argp, 0, NULL, 0 },
						      MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	/*
	 * the spellings before the vocabulary of migtrace(8), kept one release: -a is
	 * system-wide and -P per-pid in run, so validate's are long only now
	 */
	static const struct mt_cli_rename renamed[] = {
		{ "-a", "--ages", true, -1, "use --ages (-a is --all-cpus in run)" },
		{ "-P", "--polluter", true, -1, "use --polluter (-P is --per-pid in run)" },
		{ 0 },
	};
	struct validate_env env = { .polluter_mbps = -1, .budget_s = -1, .start_ns = now_ns() };
	struct cpu_set_list cpus = { 0 };
	struct topology topo = { 0 };
	struct run *r = NULL;
	struct mt_cli_path own;
	char cpus_buf[32];
	int rc;

	run_config_default(&env.cfg, RUN_KIND_VALIDATE);
	cachewalk_config_option(&env.cfg.cw, "rates", VALIDATE_RATES, NULL, 0);
	mt_cli_renames(&argp, renamed, false, argc, argv);
	if (argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, &env))
		return MT_EXIT_USAGE;
	mt_cli_json_errors(env.cfg.output && atomic_file_to_stdout(env.cfg.output));
	/* A bad output path, or two outputs in one file, is found now, not after the
	 * calibration and the experiment. */
	own = mt_cli_path_of("-o", env.cfg.output, MT_PATH_FILE);
	if ((env.cfg.output && atomic_file_check(env.cfg.output)) ||
	    export_check(&env.exports, "migtrace validate", false, &own, 1))
		return MT_EXIT_USAGE;
	if (topology_read_caches(NULL, env.caches, &topo))
		return MT_EXIT_FAIL;
	r = run_new();
	rc = r ? pick_cpus(&env, &topo, &cpus) : MT_EXIT_FAIL;
	if (!rc) {
		/* what cannot fit in memory is refused before the calibration, not after */
		experiment(&env, &cpus, cpus_buf, sizeof(cpus_buf));
		sequence(&env);
		rc = run_config_check_cachewalk(&env.cfg, &cpus, "validate");
	}
	if (!rc)
		rc = calibrate_step(&env, &topo, &cpus, r);
	env.exp_start_ns = now_ns();
	if (!rc)
		rc = run_command(&env.cfg, &env.exports, r);
	run_free(r);
	topology_free(&topo);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace validate: the main job.  Calibrate the migration cost between two CPUs, then run
 * the controlled cachewalk experiment under the tracer (real migrations at chosen ages, with
 * a same-CPU control arm), and put the calibrated, the kernel's and the observed hot time
 * side by side with a verdict.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate.h"
#include "commands.h"
#include "parse.h"
#include "topology.h"
#include "units.h"

static struct validate_env {
	const char *cpus_arg;
	const char *output;
	const char *ws;
	const char *ages;
	const char *samples;
	const char *polluter_rate;	/* MB/s on the source CPU; "0" for none */
	const char *size_arg;		/* the calibration's cache size, as calibrate's --size */
	enum topo_caches caches;
} env;

static const char doc[] =
"Calibrate, run the controlled experiment, and judge the kernel's migration\n"
"cost.\n"
"\n"
"Step 1 measures the migration cost between two CPUs (the 2004 method).\n"
"Step 2 runs cachewalk under the tracer: warm on CPU A, off-CPU for each\n"
"age in 50 µs .. 50 ms while a polluter streams through A's cache, then\n"
"either a real migration to B (sched_setaffinity, seen by\n"
"sched_migrate_task) or a wake on A; the first unit after each is timed.\n"
"The verdict compares the observed hot time with the kernel's value and the\n"
"calibrated one.  Step 1 sizes its buffer as calibrate does: against the\n"
"largest per-core cache from sysfs, or CPUID where sysfs lists none, or --size.\n"
"\n"
"USAGE: migtrace validate [--cpus A,B] [--samples N] [--ws SIZE]\n"
"                         [--polluter MBPS] [--ages US,US,...] [-o run.json]\n"
"                         [--size SIZE] [--caches auto|sysfs|cpuid]\n"
"\n"
"EXAMPLES:\n"
"    sudo migtrace validate\n"
"    sudo migtrace validate --cpus 2,3 --samples 50 -o validate.json\n"
"    sudo migtrace validate --polluter 0   # no polluter: the cache decays\n";

enum { OPT_CACHES = 1000 };

static const struct argp_option opts[] = {
	{ "cpus", 'c', "A,B", 0, "The two CPUs: warm on A, migrate to B (default: first two)", 0 },
	{ "samples", 'n', "N", 0, "Samples per (age, arm) cell (default 30)", 0 },
	{ "ws", 'w', "SIZE", 0, "cachewalk working set (default 256K)", 0 },
	{ "ages", 'a', "LIST", 0, "Ages in µs (default 50,100,200,500,1000,...,50000)", 0 },
	{ "polluter", 'P', "MBPS", 0, "Polluter rate on A in MB/s, 0 for none (default 200)", 0 },
	{ "output", 'o', "FILE", 0, "Write the run record with the verdict as JSON", 0 },
	{ "size", 's', "SIZE", 0, "Calibrate against a cache of SIZE (4M, 512K) instead of "
	  "the largest per-core cache", 0 },
	{ "caches", OPT_CACHES, "SRC", 0, "Cache sizes from auto (default: sysfs, CPUID where "
	  "sysfs lists none), sysfs or cpuid", 0 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's messages", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;
	uint64_t b;

	switch (key) {
	case 'c': env.cpus_arg = arg; break;
	case 'n':
		if (parse_long(arg, 1, 100000, &v))
			argp_error(state, "--samples: '%s' is not a number from 1 to 100000", arg);
		env.samples = arg;
		break;
	case 'w':
		if (parse_size(arg, &b) || b < 64)
			argp_error(state, "--ws: '%s' is not a size (4K, 256K, 1M)", arg);
		env.ws = arg;
		break;
	case 'a': env.ages = arg; break;
	case 'P':
		if (parse_long(arg, 0, 1000000, &v))
			argp_error(state, "--polluter: '%s' is not a rate in MB/s", arg);
		env.polluter_rate = arg;
		break;
	case 'o': env.output = arg; break;
	case 's': env.size_arg = arg; break;
	case OPT_CACHES:
		if (topology_caches_arg(arg, &env.caches))
			argp_error(state, "--caches: '%s' is none of auto, sysfs, cpuid", arg);
		break;
	case 'v': mt_verbose++; break;
	case ARGP_KEY_ARG: argp_error(state, "unexpected argument '%s'", arg); break;
	default: return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, NULL, doc, NULL, NULL, NULL };
	struct run_calibration cal = { 0 };
	struct calib_result res = { 0 };
	struct calib_opts co = { 0 };
	struct topo_choice ch;
	struct topology topo;
	char a[16], b[16], pol[64], cpus[40], t1[32], t2[32];
	char *rargv[40];
	int rargc = 0, rc, err;

	memset(&env, 0, sizeof(env));
	env.polluter_rate = "200";
	env.samples = "30";
	env.ws = "256K";
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return MT_EXIT_USAGE;
	if (topology_read_caches(NULL, env.caches, &topo))
		return MT_EXIT_FAIL;
	if (env.cpus_arg) {
		int bad = topology_cpus_arg(&topo, env.cpus_arg, "validate", &co.cpus);

		if (!bad && co.cpus.n != 2)
			fprintf(stderr, "migtrace validate: --cpus: give two CPUs, e.g. 0,1\n");
		if (bad || co.cpus.n != 2) {
			topology_free(&topo);
			return MT_EXIT_USAGE;
		}
	} else if (topo.online.n >= 2) {
		co.cpus.n = 2;
		co.cpus.cpu[0] = topo.online.cpu[0];
		co.cpus.cpu[1] = topo.online.cpu[1];
	} else {
		fprintf(stderr, "migtrace validate: needs two online CPUs; this machine has one\n");
		topology_free(&topo);
		return MT_EXIT_FAIL;
	}

	/* Calibrating against a size nobody gave would make every later number wrong. */
	err = topology_calib_cache(&topo, co.cpus.cpu[0], 0, env.size_arg, "validate", &ch);
	if (err) {
		topology_free(&topo);
		return err == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAIL;
	}
	printf("== step 1 of 2: calibrate CPUs %d and %d (method 2004)\n", co.cpus.cpu[0],
	       co.cpus.cpu[1]);
	printf("against the %s (buffer %s)\n", ch.what,
	       fmt_bytes(t1, sizeof(t1), ch.size_bytes * 5 / 3));
	co.method = CALIB_2004;
	co.reps = CALIB_DEFAULT_REPS;
	co.factor = CALIB_FACTOR_SCALE;
	co.topo = &topo;
	co.cache_size = ch.size_bytes;
	if (calibrate_run(&co, &res) || !res.has_hot) {
		fprintf(stderr, "migtrace validate: calibration failed\n");
		calib_result_free(&res);
		topology_free(&topo);
		return MT_EXIT_FAIL;
	}
	printf("calibrated hot time: %s (median x 6; the seed's max rule: %s), cache %s from "
	       "%s\n", fmt_ns(t2, sizeof(t2), (double)res.hot_robust_ns), fmt_ns(t1, sizeof(t1),
	       (double)res.hot_ns), fmt_bytes(a, sizeof(a), co.cache_size),
	       strcmp(ch.source, "cpuid") == 0 ? "CPUID" : ch.source);
	cal.valid = 1;
	cal.hot_ns = (double)res.hot_robust_ns;
	snprintf(cal.source, sizeof(cal.source), "method 2004 inline, robust (median x 6); seed "
		 "rule gave %s; cache %s from %s", t1, a,
		 strcmp(ch.source, "cpuid") == 0 ? "CPUID" : ch.source);

	printf("\n== step 2 of 2: controlled experiment (cachewalk)\n");
	fflush(stdout);
	snprintf(a, sizeof(a), "%d", co.cpus.cpu[0]);
	snprintf(b, sizeof(b), "%d", co.cpus.cpu[1]);
	snprintf(cpus, sizeof(cpus), "%d,%d", co.cpus.cpu[0], co.cpus.cpu[1]);
	rargv[rargc++] = argv[0];
	if (env.output) {
		rargv[rargc++] = "-o";
		rargv[rargc++] = (char *)env.output;
	}
	if (mt_verbose)
		rargv[rargc++] = "-v";
	rargv[rargc++] = "--cpus";
	rargv[rargc++] = cpus;
	rargv[rargc++] = "cachewalk";
	rargv[rargc++] = "--controlled";
	rargv[rargc++] = "--from";
	rargv[rargc++] = a;
	rargv[rargc++] = "--to";
	rargv[rargc++] = b;
	rargv[rargc++] = "--samples";
	rargv[rargc++] = (char *)env.samples;
	rargv[rargc++] = "--ws";
	rargv[rargc++] = (char *)env.ws;
	if (strcmp(env.polluter_rate, "0") != 0) {
		snprintf(pol, sizeof(pol), "%d:%s", co.cpus.cpu[0], env.polluter_rate);
		rargv[rargc++] = "--polluter";
		rargv[rargc++] = pol;
	}
	if (env.ages) {
		rargv[rargc++] = "--ages";
		rargv[rargc++] = (char *)env.ages;
	}
	rargv[rargc] = NULL;
	rc = run_command(rargc, rargv, &cal);
	calib_result_free(&res);
	topology_free(&topo);
	return rc;
}

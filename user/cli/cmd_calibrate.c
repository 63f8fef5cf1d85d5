// SPDX-License-Identifier: GPL-2.0
/* migtrace calibrate: the migration-cost matrix between CPUs, measured from user space. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "calib_report.h"
#include "calibrate.h"
#include "cli.h"
#include "mem_room.h"
#include "commands.h"
#include "parse.h"
#include "run_output.h"
#include "topology.h"
#include "tunable.h"
#include "units.h"

enum calib_format { FMT_TEXT, FMT_SEED };

static struct calib_env {
	const char *cpus_arg;
	const char *root;	/* --root: the sysfs tree to read */
	const char *json_path;	/* -o FILE; "-" with -j */
	bool json_stdout;	/* -j */
	FILE *text;		/* stdout, or stderr when the JSON is on stdout */
	const char *size_arg;
	enum topo_caches caches;
	int level;		/* 0: the largest per-core cache */
	long reps;
	long method;
	bool chase;		/* --method chase: the chase beside the 2004 method */
	long rounds;		/* --rounds: the chase's; 0: its default */
	int nws;		/* --ws: the chase's working sets */
	uint64_t ws[CHASE_MAX_WS];
	long factor;
	enum calib_format format;
	bool sweep_size;
	bool dry_run;
	bool quiet;
} env;

static const char doc[] =
"Measure the migration cost between every pair of CPUs and derive a cache-hot\n"
"time.\n"
"\n"
"For each ordered pair (src, dst) the calibrating thread dirties a buffer of\n"
"5/3 x the cache size on src, migrates to dst, dirties a private buffer\n"
"there, then times a scattered fill of the first buffer: the cost of moving a\n"
"cache-hot task (the 2004 boot-time auto-tuning: the max of 20 fills x 6).\n"
"The robust hot time is the median of the undisturbed fills among all --reps\n"
"x 6 (a fill more than 10 % slower than an undisturbed one is counted as\n"
"disturbed), with a 95 % interval (block bootstrap).  --method 2005 runs the\n"
"variant merged in 2.6.16.\n"
"\n"
"--method chase measures, beside the 2004 method, what a migrated task pays as\n"
"validate's cachewalk pays it: a working set walked by dependent loads (1, 2, 4\n"
"and 8 chains) is warmed on one CPU, D bytes are streamed through that CPU's\n"
"caches, and the set is walked on the other CPU minus on the same one.  It\n"
"gives the refill cost a line and D*, the displaced bytes past which a move\n"
"costs no more than a stay, per CPU distance (docs/design.md).\n"
"\n"
"The cache sizes come from sysfs; on a machine whose sysfs lists none (some\n"
"VMs), from CPUID (x86); --caches chooses, --size overrides both.\n"
"\n"
"USAGE: migtrace calibrate [--cpus LIST] [--level N | --size SIZE] [--reps N]\n"
"                          [--method 2004|2005|chase] [--format text|seed]\n"
"                          [--rounds N] [--ws SIZE,...]\n"
"                          [--caches auto|sysfs|cpuid] [-o FILE | -j]\n"
"\n"
"EXAMPLES:\n"
"    migtrace calibrate                  # all online CPUs, largest core cache\n"
"    migtrace calibrate --format=seed    # the 2004 kernel's boot log lines\n"
"    migtrace calibrate --cpus 0,1 --reps 5 -o cal.json\n"
"    migtrace calibrate --level 3        # size the buffer against the L3\n"
"    migtrace calibrate --size 4M        # against a 4 MiB cache\n"
"    migtrace calibrate --caches cpuid   # cache sizes from CPUID, not sysfs\n"
"    migtrace calibrate --method 2005    # 2.6.16: size sweep, cross minus self\n"
"    migtrace calibrate --method chase   # refill a line and D*, beside 2004\n"
"    migtrace calibrate --sweep-size     # 1/4x .. 4x the cache: the cost step\n";

enum {
	OPT_ROOT = 1000, OPT_FORMAT, OPT_SWEEP, OPT_FACTOR, OPT_DRY, OPT_CACHES,
	OPT_ROUNDS, OPT_WS,
};

static const struct argp_option opts[] = {
	{ "cpus", 'C', "LIST", 0, "CPUs to calibrate (default: all online), e.g. 0-3,6", 0 },
	{ "level", 'l', "N", 0, "Size the buffer against the cache of level N", 0 },
	{ "size", 's', "SIZE", 0, "Size the buffer against a cache of SIZE (4M, 512K, 3145728)", 0 },
	{ "reps", 'r', "N", 0, "Timed repetitions per pair (default 1000; 2005: per size, 1)", 0 },
	{ "method", 'm', "METHOD", 0, "2004 (default), 2005, or chase (beside 2004)", 0 },
	{ "rounds", OPT_ROUNDS, "N", 0, "chase: rounds of every trial (default 7)", 0 },
	{ "ws", OPT_WS, "LIST", 0, "chase: working sets (default a quarter of the cache and "
	  "twice it), e.g. 256K,2M", 0 },
	{ "factor", OPT_FACTOR, "N", 0, "2005 migration_factor in 1/128 (default 128 = x1)", 0 },
	{ "format", OPT_FORMAT, "FMT", 0, "text (default, real units) or seed (the kernel's log)", 0 },
	{ "output", 'o', "FILE", 0, "Also write the result as JSON to FILE (atomically; '-': "
	  "stdout, as -j)", 0 },
	{ "json", 'j', NULL, 0, "The result as JSON on stdout; the text goes to stderr", 0 },
	{ "sweep-size", OPT_SWEEP, NULL, 0, "Repeat at 1/4x .. 4x the cache size", 0 },
	{ "caches", OPT_CACHES, "SRC", 0, "Cache sizes from auto (default: sysfs, CPUID where "
	  "sysfs lists none), sysfs or cpuid", 0 },
	{ "root", OPT_ROOT, "DIR", 0, "Read topology from DIR/devices/system/cpu", 0 },
	{ "dry-run", OPT_DRY, NULL, 0, "Print what would be measured, measure nothing", 0 },
	{ "quiet", 'q', NULL, 0, "No progress on stderr", 0 },
	{ "verbose", 'v', NULL, 0, "Print each repetition's samples (ns, per CPU pair) on stderr", 0 },
	/* the CPU list's old spelling: refused, naming --cpus */
	{ NULL, 'c', "LIST", OPTION_HIDDEN, NULL, 0 },
	{ 0 },
};

/* A bad combination of options: one line (mt_err), exit status 2. */
#define usage_error(...) (mt_err(__VA_ARGS__), MT_EXIT_USAGE)

/* --ws: up to CHASE_MAX_WS sizes, each at least 4 KiB. */
static void parse_ws(struct argp_state *state, const char *arg)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_size(tok, &v) || v < 4096)
			argp_error(state, "--ws: '%s' is not a size of 4K or more (256K, 2M)", tok);
		if (env.nws == CHASE_MAX_WS)
			argp_error(state, "--ws: more than %d working sets", CHASE_MAX_WS);
		env.ws[env.nws++] = v;
	}
	if (!env.nws)
		argp_error(state, "--ws: '%s' names no size", arg);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;

	if (mt_cli_common(state, key, arg, NULL))
		return 0;
	switch (key) {
	case 'c':
		mt_cli_old_cpus(state, arg);
		break;
	case 'C':
		env.cpus_arg = arg;
		break;
	case 'l':
		if (parse_long(arg, 1, 9, &v))
			argp_error(state, "--level: '%s' is not a cache level 1-9", arg);
		env.level = (int)v;
		break;
	case 's':
		env.size_arg = arg;
		break;
	case 'r':
		if (parse_long(arg, 1, 100000, &env.reps))
			argp_error(state, "--reps: '%s' is not a whole number of repetitions "
				   "from 1 to 100000", arg);
		break;
	case 'm':
		env.chase = !strcmp(arg, "chase");
		if (env.chase)
			env.method = CALIB_2004;
		else if (parse_long(arg, 2004, 2005, &env.method))
			argp_error(state, "--method: '%s' is none of 2004, 2005, chase", arg);
		break;
	case OPT_ROUNDS:
		if (parse_long(arg, 1, 1000, &env.rounds))
			argp_error(state, "--rounds: '%s' is not a whole number of rounds from 1 "
				   "to 1000", arg);
		break;
	case OPT_WS:
		parse_ws(state, arg);
		break;
	case OPT_FACTOR:
		if (parse_long(arg, 1, 128 * 64, &env.factor))
			argp_error(state, "--factor: '%s' is not a factor 1-8192 (in 1/128)", arg);
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			env.format = FMT_TEXT;
		else if (strcmp(arg, "seed") == 0)
			env.format = FMT_SEED;
		else
			argp_error(state, "--format: '%s' is neither text nor seed", arg);
		break;
	case 'o':
		env.json_path = arg;
		break;
	case 'j':
		env.json_stdout = true;
		break;
	case OPT_SWEEP:
		env.sweep_size = true;
		break;
	case OPT_ROOT:
		env.root = arg;
		break;
	case OPT_CACHES:
		if (topology_caches_arg(arg, &env.caches))
			argp_error(state, "--caches: '%s' is none of auto, sysfs, cpuid", arg);
		break;
	case OPT_DRY:
		env.dry_run = true;
		break;
	case 'q':
		env.quiet = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* --sweep-size: the 2004 measurement at 1/4x .. 4x the cache, each size printed as done. */
static int sweep_sizes(const struct calib_opts *o, struct calibration *c)
{
	int err = 0;

	calib_print_sweep_head(env.text, c);
	for (int i = 0; i < CALIB_SWEEP_NSIZES && !err; i++) {
		err = calib_sweep_size(o, c, i);
		if (!err)
			calib_print_sweep_size(env.text, c, i);
	}
	calib_print_sweep_peak(env.text, c);
	return err;
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct argp_child children[] = { MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	/* the spellings before the vocabulary of migtrace(8), kept one release */
	static const struct mt_cli_rename renamed[] = {
		{ "--sysfs-root", "--root", true, -1, NULL },
		{ "--json", "--output", true, 0, "use -o FILE (-j alone: the JSON on stdout)" },
		{ 0 },
	};
	struct topology topo = { 0 };
	struct calibration cal = { 0 };
	struct calib_opts o = { 0 };
	struct topo_choice ch;
	struct tunable kern;
	int rc = MT_EXIT_OK, err;

	memset(&env, 0, sizeof(env));
	env.reps = -1;
	env.method = CALIB_2004;
	env.factor = CALIB_FACTOR_SCALE;
	mt_cli_renames(&argp, renamed, false, argc, argv);
	err = argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, NULL);
	if (err)
		return MT_EXIT_USAGE;
	if (env.json_stdout && env.json_path)
		return usage_error("-j and -o %s both write the JSON: give one", env.json_path);
	if (env.json_stdout)
		env.json_path = "-";
	env.text = env.json_path && !strcmp(env.json_path, "-") ? stderr : stdout;
	mt_cli_json_errors(env.text == stderr);
	if (env.level && env.size_arg)
		return usage_error("--level and --size both choose the cache: give one");
	if ((env.rounds || env.nws) && !env.chase)
		return usage_error("--rounds and --ws are the chase's: give --method chase");
	if (env.chase && env.format == FMT_SEED)
		return usage_error("--format seed is the 2004 kernel's log, which has no "
				   "chase: leave out --method chase");
	for (int w = 0; w < env.nws; w++) {
		struct mem_room room;
		char b[32];

		/* the working sets beside the polluter, in half of what a buffer may take */
		if (!mem_room_probe(NULL, &room) && env.ws[w] > room.bytes / 4) {
			mt_err("--ws %s would not fit in the %s; give a smaller size",
			       fmt_bytes(b, sizeof(b), env.ws[w]), room.what);
			return MT_EXIT_USAGE;
		}
	}
	if (env.chase && env.sweep_size)
		return usage_error("--sweep-size repeats the 2004 method alone: leave out "
				   "--method chase");
	/* a bad -o path is found before the measurement, not after it */
	if (env.json_path &&
	    atomic_file_check_named(env.json_path, "migtrace calibrate: -o"))
		return MT_EXIT_USAGE;
	/* --root names a tree the user gave: its absence is bad input */
	if (env.root && access(env.root, R_OK | X_OK)) {
		mt_err("--root: cannot read '%s': %s", env.root, strerror(errno));
		return MT_EXIT_USAGE;
	}
	if (topology_read_caches(env.root, env.caches, &topo))
		return env.root ? MT_EXIT_USAGE : MT_EXIT_FAIL;
	o.method = (enum calib_method)env.method;
	o.reps = (int)(env.reps > 0 ? env.reps : (o.method == CALIB_2005 ? 1 : CALIB_DEFAULT_REPS));
	o.factor = (int)env.factor;
	o.chase = env.chase;
	o.chase_rounds = (int)env.rounds;
	o.chase_nws = env.nws;
	memcpy(o.chase_ws, env.ws, sizeof(o.chase_ws));
	o.topo = &topo;
	o.progress = !env.quiet && isatty(STDERR_FILENO);
	o.verbose = mt_verbose > 0;
	if (topology_cpus_arg(&topo, env.cpus_arg, "calibrate", &o.cpus)) {
		rc = MT_EXIT_USAGE;
		goto cleanup;
	}
	err = topology_calib_cache(&topo, o.cpus.cpu[0], env.level, env.size_arg, "calibrate", &ch);
	if (err) {
		rc = err == -EINVAL ? MT_EXIT_USAGE : MT_EXIT_FAIL;
		goto cleanup;
	}
	o.cache_size = ch.size_bytes;
	o.cache = &ch;
	tunable_probe(&kern);
	o.kernel = &kern;
	err = calib_prepare(&o, &cal);
	if (err) {
		mt_err("%s", strerror(-err));
		rc = MT_EXIT_FAIL;
		goto cleanup;
	}

	if (env.format == FMT_TEXT || env.dry_run)
		calib_print_intro(env.text, &cal);
	if (env.dry_run) {
		calib_print_dry_run(env.text, &cal);
		goto cleanup;
	}
	if (o.cpus.n < 2)
		mt_info("migration cost needs two CPUs; measuring the same-CPU cost of CPU %d "
			"only", o.cpus.cpu[0]);

	err = calibrate_run(&o, &cal);
	if (err) {
		mt_err("calibration failed: %s", strerror(-err));
		rc = MT_EXIT_FAIL;
		goto cleanup;
	}
	if (env.format == FMT_SEED && o.method == CALIB_2005)
		calib_print_seed_2005(env.text, &cal);
	else if (env.format == FMT_SEED)
		calib_print_seed_2004(env.text, &cal);
	else
		calib_print_report(env.text, &cal);
	if (env.sweep_size && sweep_sizes(&o, &cal)) {
		mt_err("size sweep failed");
		rc = MT_EXIT_FAIL;
		goto cleanup;
	}
	if (env.json_path && calib_output_save(env.json_path, &cal, "migtrace calibrate"))
		rc = MT_EXIT_FAIL;
cleanup:
	calib_free(&cal);
	topology_free(&topo);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace report: a saved run rendered again, or two runs compared.  A run file is read
 * whole and checked before anything is printed, so bad input (missing, truncated, corrupt,
 * another schema, totals that disagree) is one line and exit status 2 with no output at
 * all; outputs go through atomic_file, so a failed write leaves nothing half-written
 * behind.  The records are kept only for the outputs that list them (-o, --csv,
 * --perfetto); otherwise the reader counts them as it goes, and a report's memory does not
 * grow with the file.  Out of memory is exit 1, whatever ran out: the file is not at fault.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"
#include "atomic_file.h"
#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "export.h"
#include "gz_stream.h"
#include "probe_judge.h"
#include "render_compare.h"
#include "render_text.h"
#include "run_file.h"
#include "run_output.h"
#include "trace_dat.h"

struct report_env {
	const char *files[2];
	int nfiles;
	const char *output;		/* --text: the text to FILE instead of stdout */
	const char *json;		/* -o (or -j, "-"): the run file again */
	bool json_stdout;		/* -j */
	int64_t hot_ns;			/* --hot-ns: a trace-cmd capture's threshold */
	long pid;			/* --pid: a capture's task and its children; 0 all */
	struct export_opts exports;	/* --csv, --openmetrics, --perfetto, --plot, --what-if */
};

static const char doc[] =
"Render a saved run again, or compare two.\n"
"\n"
"With one FILE (written by `migtrace run -o` or `migtrace validate -o`), prints\n"
"the text that run printed, byte for byte, from the file alone.  With two, puts\n"
"them side by side: migrations by cause, the age histogram, the migration cost\n"
"by age and the hot times, with '*' where a difference is larger than both\n"
"runs' own 95 % intervals.  FILE may be '-' for stdin.  A file that is not a\n"
"run file of this schema (docs/run-file.md), or whose totals disagree with\n"
"their parts, is refused in one line, exit 2.  Out of memory is exit 1: the\n"
"text, --what-if, --openmetrics and --plot hold no record, -o, --csv and\n"
"--perfetto hold every record of the file (96 bytes each).\n"
"\n"
"FILE may also be a trace-cmd capture (trace.dat, told by its first bytes;\n"
"`trace-cmd record -e sched`): its sched events are replayed over every task\n"
"and rendered like a run (docs/design.md, \"The ftrace backend\"), judged at\n"
"the kernel's default 500 µs unless --hot-ns; --pid PID keeps one task and the\n"
"tasks it forked in the capture.  A sched event the capture lacks\n"
"is named, one line each; a capture with none is refused, exit 2.\n"
"\n"
"USAGE: migtrace report [--text OUT] [-o OUT | -j] [EXPORTS] FILE\n"
"       migtrace report [--text OUT] A.json B.json\n"
"\n"
"EXAMPLES:\n"
"    migtrace report run.json\n"
"    migtrace report before.json after.json   # a tuning's effect\n"
"    migtrace report --csv out trace.dat        # a trace-cmd capture\n"
"    migtrace report --csv out --openmetrics run.prom --plot out run.json\n";

enum { OPT_TEXT = 1000, OPT_HOT };

static const struct argp_option opts[] = {
	{ "output", 'o', "FILE", 0, "Write the run file again as read (one FILE only; '-': "
	  "stdout, as -j)", 0 },
	{ "json", 'j', NULL, 0, "The run file again on stdout; the text goes to stderr", 0 },
	{ "text", OPT_TEXT, "FILE", 0, "Write the text to FILE (atomically) instead of stdout",
	  0 },
	{ "hot-ns", OPT_HOT, "NS", 0, "A trace-cmd capture: judge hotness at NS instead of the "
	  "kernel's default (500000)", 0 },
	{ "pid", 'p', "PID", 0, "A trace-cmd capture: only task PID and the tasks it forked "
	  "in it (not the threads it had before: a capture holds no tgid)", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct report_env *env = state->input;

	if (mt_cli_common(state, key, arg, &env->exports))
		return 0;
	switch (key) {
	case OPT_TEXT:
		env->output = arg;
		break;
	case 'o':
		/* -o was the text before the vocabulary of migtrace(8): said one release */
		if (strcmp(arg, "-") && (strlen(arg) < 5 || strcmp(arg + strlen(arg) - 5, ".json")))
			mt_info("-o now writes the run file (JSON), as in run; the text is "
				"--text %s", arg);
		env->json = arg;
		break;
	case 'j':
		env->json_stdout = true;
		break;
	case OPT_HOT: {
		long l;

		if (parse_long(arg, -1, LONG_MAX, &l))
			argp_error(state, "--hot-ns: '%s' is not a number of ns (-1 = always hot)",
				   arg);
		env->hot_ns = l;
		break;
	}
	case 'p':
		if (parse_long(arg, 1, INT_MAX, &env->pid))
			argp_error(state, "--pid: '%s' is not a pid", arg);
		break;
	case ARGP_KEY_ARG:
		if (env->nfiles == 2)
			argp_error(state, "unexpected argument '%s': give one run file, or two "
				   "to compare", arg);
		env->files[env->nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (!env->nfiles)
			argp_error(state, "give a run file (migtrace run -o FILE), or two to "
				   "compare");
		if (env->json_stdout && env->json)
			argp_error(state, "-j and -o %s both write the run file: give one",
				   env->json);
		if (env->json_stdout)
			env->json = "-";
		if (env->json && env->nfiles == 2)
			argp_error(state, "%s writes one run: give one FILE",
				   env->json_stdout ? "-j" : "-o");
		if ((export_files_wanted(&env->exports) || env->exports.nwhatif) &&
		    env->nfiles == 2)
			argp_error(state, "the exports and --what-if are of one run: give one "
				   "FILE");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The text, to stdout or (--text) a file written whole or not at all.  0 or an exit status: 2,
 * or 1 out of memory. */
static int write_text(const struct report_env *env, struct run *const runs[2])
{
	struct run_compare *cmp = NULL;
	struct atomic_file af = { .f = stdout };
	int rc = MT_EXIT_USAGE, err;

	/* the run file on stdout: the text goes to stderr, as with run -o - */
	if (env->json && !strcmp(env->json, "-"))
		af.f = stderr;
	if (env->nfiles == 2 && !(cmp = malloc(sizeof(*cmp)))) {
		mt_err("out of memory comparing the runs");
		return MT_EXIT_FAIL;
	}
	err = env->output ? atomic_file_open(&af, env->output) : 0;
	if (err) {
		rc = err == -ENOMEM ? MT_EXIT_FAIL : MT_EXIT_USAGE;
		goto out;
	}
	if (cmp) {
		run_compare(runs[0], runs[1], cmp);
		render_compare(af.f, cmp, env->files[0], env->files[1]);
	} else {
		render_text(af.f, runs[0]);
		export_text(&env->exports, af.f, runs[0]);
	}
	if (env->output) {
		rc = atomic_file_commit(&af) ? MT_EXIT_USAGE : 0;
	} else if (fflush(af.f) || ferror(af.f)) {
		err = errno ? errno : EIO;
		mt_err("writing %s failed: %s", af.f == stdout ? "stdout" : "stderr",
		       strerror(err));
	} else {
		rc = 0;
	}
out:
	free(cmp);
	return rc;
}

/* Whether a file a reader refused starts like JSON at all (after blanks), or like a gzip
 * (whose reader says what was wrong inside): if not, it is neither of the inputs report
 * takes, which the message says. */
static bool looks_like_json(const char *path)
{
	unsigned char magic[3];
	struct stat st;
	int c = EOF;
	FILE *f;

	/* stdin, a pipe, unreadable: the reader's own message */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return true;
	f = fopen(path, "rb");
	if (!f)
		return true;
	if (fread(magic, 1, sizeof(magic), f) == sizeof(magic) && gz_magic(magic, sizeof(magic))) {
		fclose(f);
		return true;
	}
	rewind(f);
	do
		c = fgetc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(f);
	return c == '{' || c == EOF;
}

/* Whether path names a regular file (one that can be read twice); "-" does not. */
static bool regular_file(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A run file, or a trace-cmd capture replayed into a run and analysed: as run_file_read. */
static int read_input(const struct report_env *env, const char *path,
		      const struct run_read_opts *o, struct run **out, char *err, size_t len)
{
	struct run_read_opts keep;
	struct trace_dat_opts to = {
		.hot_ns = env->hot_ns,
		.pid = (uint32_t)env->pid,
		.drop_records = o->drop_records,
		.threshold_ns = o->threshold_ns,
		.nthresholds = o->nthresholds,
	};
	int e;

	if (strcmp(path, "-") && trace_dat_is_capture(path)) {
		e = trace_dat_read(path, &to, out, err, len);
		if (!e && run_analyze(*out)) {
			run_free(*out);
			*out = NULL;
			snprintf(err, len, "out of memory analysing it");
			return -ENOMEM;
		}
		/* records not kept: the wake-up placements were counted as read */
		if (!e && (*out)->tally.records_dropped) {
			(*out)->sum.wakeup_records = (*out)->tally.by_cause[MT_CAUSE_WAKEUP];
			(*out)->sum.wakeup_hot = (*out)->tally.wakeup_hot;
		}
		return e;
	}
	/* a run file keeps its own tasks and threshold */
	if (env->pid || env->hot_ns != RUN_NO_HOT_ARG) {
		snprintf(err, len, "%s is for a trace-cmd capture: a run file keeps the tasks "
			 "and the threshold of its run", env->pid ? "--pid" : "--hot-ns");
		return -EINVAL;
	}
	/* standard input or a pipe cannot be read twice (below): its records are kept */
	if (o->drop_records && !regular_file(path)) {
		keep = *o;
		keep.drop_records = false;
		o = &keep;
	}
	e = run_file_read(path, o, out, err, len);
	/* run --probe-moves: its arms are judged again from the moments and units kept, and
	 * the wait side beside them from the pulls' records, so those are read again, kept */
	if (!e && (*out)->probe.on && o->drop_records) {
		keep = *o;
		keep.drop_records = false;
		run_free(*out);
		*out = NULL;
		e = run_file_read(path, &keep, out, err, len);
	}
	if (!e && (*out)->probe.on && probe_judge(*out)) {
		run_free(*out);
		*out = NULL;
		snprintf(err, len, "out of memory judging its probed moves");
		return -ENOMEM;
	}
	if (e == -EINVAL && !looks_like_json(path))
		snprintf(err, len, "not a migtrace run file (migtrace run -o), nor a trace-cmd "
			 "capture (trace.dat)");
	return e;
}

int cmd_report(int argc, char **argv)
{
	static const struct argp_child children[] = { { &export_argp, 0, NULL, 0 },
						      MT_CLI_STD_CHILD, { 0 } };
	static const struct argp argp = { opts, parse_arg, NULL, doc, children, NULL, NULL };
	/* the spelling before the vocabulary of migtrace(8), kept one release */
	static const struct mt_cli_rename renamed[] = {
		{ "--json", "--output", true, 1, "use -o FILE (-j alone: the run file on "
		  "stdout)" },
		{ 0 },
	};
	struct report_env env = { .hot_ns = RUN_NO_HOT_ARG };
	struct run *runs[2] = { NULL, NULL };
	struct run_read_opts opts = { 0 };
	struct mt_cli_path paths[4];
	int rc = MT_EXIT_USAGE, e;
	char err[400];

	mt_cli_renames(&argp, renamed, false, argc, argv);
	if (argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, &env))
		return MT_EXIT_USAGE;
	mt_cli_json_errors(env.json && !strcmp(env.json, "-"));
	/* an output that cannot be written, or would replace a run file read or another
	 * output, is found before any work */
	paths[0] = mt_cli_path_of("run file", env.files[0], MT_PATH_INPUT);
	paths[1] = mt_cli_path_of("run file", env.files[1], MT_PATH_INPUT);
	paths[2] = mt_cli_path_of("--text", env.output, MT_PATH_FILE);
	paths[3] = mt_cli_path_of("-o", env.json, MT_PATH_FILE);
	if ((env.output && atomic_file_check(env.output)) ||
	    (env.json && atomic_file_check(env.json)) ||
	    export_check(&env.exports, "migtrace report", false, paths, 4))
		return MT_EXIT_USAGE;
	/* only the outputs that list the records need them kept */
	opts.drop_records = !env.json && !env.exports.csv_dir && !env.exports.perfetto;
	/* two runs: a natural one's units are correlated again against the other's D* */
	opts.keep_units = env.nfiles == 2;
	opts.nthresholds = env.exports.nwhatif;
	opts.threshold_ns = env.exports.whatif_ns;
	for (int i = 0; i < env.nfiles; i++) {
		int e = read_input(&env, env.files[i], &opts, &runs[i], err, sizeof(err));

		if (e == -ENOMEM) {
			mt_err("%s: %s: free memory or raise the limit (ulimit -v)%s",
			       env.files[i], err, opts.drop_records ? "" :
				", or leave out -o, --csv and --perfetto, which hold every "
				"record");
			rc = MT_EXIT_FAIL;
			goto cleanup;
		}
		if (e) {
			mt_err("%s: %s", env.files[i], err);
			goto cleanup;
		}
	}
	/* the run file first: if it cannot be written, no text has been printed either; the
	 * exports next, each whole or not at all; the text last, as before */
	e = env.json ? run_output_save(env.json, runs[0], "migtrace report") : 0;
	if (!e)
		e = export_files(&env.exports, runs[0], "migtrace report");
	if (e) {
		rc = e == -ENOMEM ? MT_EXIT_FAIL : MT_EXIT_USAGE;
		goto cleanup;
	}
	rc = write_text(&env, runs);
cleanup:
	run_free(runs[0]);
	run_free(runs[1]);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The export options and their render step (export.h).  Every path is checked before the
 * run (or the report) does any work; every file is written through atomic_file, so a
 * failure leaves the old file, or none, never half of one.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli.h"
#include "commands.h"
#include "export.h"
#include "parse.h"

enum { OPT_CSV = 2000, OPT_OPENMETRICS, OPT_PERFETTO, OPT_PLOT, OPT_WHATIF };

static const struct argp_option opts[] = {
	{ NULL, 0, NULL, 0, "Exports (made from the run model; `report` makes the same):", 20 },
	{ "csv", OPT_CSV, "DIR", 0, "Write migrations.csv, units.csv, correlation.csv, "
	  "histograms.csv (and whatif.csv) into DIR", 20 },
	{ "openmetrics", OPT_OPENMETRICS, "FILE", 0, "Write the Prometheus text exposition "
	  "(for node_exporter's textfile collector) to FILE", 20 },
	{ "perfetto", OPT_PERFETTO, "FILE", 0, "Write a Chrome trace-event JSON file "
	  "(ui.perfetto.dev) of the records to FILE", 20 },
	{ "plot", OPT_PLOT, "DIR", 0, "Draw PNG and SVG plots into DIR (needs gnuplot)", 20 },
	{ "what-if", OPT_WHATIF, "T,T,...", 0, "For each threshold (0.5ms,2.5ms,...): what the "
	  "kernel would have judged, estimated from this run", 20 },
	{ 0 },
};

/* "0.5ms,2.5ms,5ms": up to WHATIF_MAX durations; a bare number is seconds, as --duration. */
static int parse_whatif(struct argp_state *state, struct export_opts *o, const char *arg)
{
	char *list = strdupa(arg), *save = NULL, *tok;
	uint64_t ns;

	o->nwhatif = 0;
	if (!*arg)
		argp_error(state, "--what-if: give thresholds, e.g. 0.5ms,2.5ms,5ms");
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nwhatif == WHATIF_MAX)
			argp_error(state, "--what-if: '%s': at most %d thresholds", arg,
				   WHATIF_MAX);
		if (parse_duration(tok, &ns) || ns > INT64_MAX)
			argp_error(state, "--what-if: '%s' is not a threshold (0.5ms, 500us, "
				   "5000000ns)", tok);
		o->whatif_ns[o->nwhatif++] = (int64_t)ns;
	}
	if (!o->nwhatif || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		argp_error(state, "--what-if: '%s' has an empty threshold", arg);
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct export_opts *o = state->input;

	mt_cli_once(state, key, arg);

	switch (key) {
	case OPT_CSV:
		o->csv_dir = arg;
		break;
	case OPT_OPENMETRICS:
		o->openmetrics = arg;
		break;
	case OPT_PERFETTO:
		o->perfetto = arg;
		break;
	case OPT_PLOT:
		o->plot_dir = arg;
		break;
	case OPT_WHATIF:
		return parse_whatif(state, o, arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp export_argp = { opts, parse_arg, NULL, NULL, NULL, NULL, NULL };

bool export_files_wanted(const struct export_opts *o)
{
	return o->csv_dir || o->openmetrics || o->perfetto || o->plot_dir;
}

/* A directory to write files into: there and writable, or its parent so (it is made then). */
static int check_dir(const char *dir, const char *label)
{
	char *parent, *copy = strdupa(dir);
	struct stat st;

	if (!*dir) {
		fprintf(stderr, "%s: an empty path: name a directory\n", label);
		return -EINVAL;
	}
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s is not a directory: name a directory to write "
				"into\n", label, dir);
			return -ENOTDIR;
		}
		if (access(dir, W_OK | X_OK)) {
			fprintf(stderr, "%s: cannot write into %s: %s\n", label, dir,
				strerror(errno));
			return -EACCES;
		}
		return 0;
	}
	parent = dirname(copy);
	if (stat(parent, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: cannot make %s: directory %s does not exist (create it "
			"first)\n", label, dir, parent);
		return -ENOENT;
	}
	if (access(parent, W_OK | X_OK)) {
		fprintf(stderr, "%s: cannot make %s: directory %s is not writable (%s)\n", label,
			dir, parent, strerror(errno));
		return -EACCES;
	}
	return 0;
}

/* A file option: a path atomic_file can replace; '-' is refused (the text is on stdout). */
static int check_file(const char *path, const char *label)
{
	if (!strcmp(path, "-") || !*path) {
		fprintf(stderr, "%s: '%s': name a file (the text is written to stdout)\n", label,
			path);
		return -EINVAL;
	}
	return atomic_file_check_named(path, label);
}

/* gnuplot in PATH, as posix_spawnp will look for it. */
static bool have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL, buf[PATH_MAX];

	dirs = strdupa(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/gnuplot", *d ? d : ".");
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

int export_check(const struct export_opts *o, const char *cmd)
{
	char label[64];
	int err = 0;

	snprintf(label, sizeof(label), "%s: --csv", cmd);
	if (!err && o->csv_dir)
		err = check_dir(o->csv_dir, label);
	snprintf(label, sizeof(label), "%s: --openmetrics", cmd);
	if (!err && o->openmetrics)
		err = check_file(o->openmetrics, label);
	snprintf(label, sizeof(label), "%s: --perfetto", cmd);
	if (!err && o->perfetto)
		err = check_file(o->perfetto, label);
	snprintf(label, sizeof(label), "%s: --plot", cmd);
	if (!err && o->plot_dir)
		err = check_dir(o->plot_dir, label);
	if (!err && o->plot_dir && !have_gnuplot()) {
		fprintf(stderr, "%s: --plot: gnuplot is not in PATH: install it (apt-get install "
			"gnuplot-nox, or sudo make run)\n", cmd);
		err = -ENOENT;
	}
	return err ? MT_EXIT_USAGE : 0;
}

void export_text(const struct export_opts *o, FILE *text, const struct run *r)
{
	struct whatif w;

	if (o->nwhatif) {
		whatif_compute(r, o->whatif_ns, o->nwhatif, &w);
		render_whatif_text(text, &w);
	}
	/* a plot left out is said, not silently missing from the directory */
	if (o->plot_dir && render_plot_no_matrix(r))
		fprintf(text, "plots: no calibration-matrix plot: %s\n", render_plot_no_matrix(r));
}

/* The directory of --csv or --plot, made now when it is not there (checked before). */
static int make_dir(const char *dir, const char *label)
{
	const char *uid = getenv("SUDO_UID"), *gid = getenv("SUDO_GID");

	if (mkdir(dir, 0777) == 0) {
		/* under sudo, the user's directory, as atomic_file gives them their files */
		if (geteuid() == 0 && uid && gid && chown(dir, (uid_t)atol(uid), (gid_t)atol(gid))) {
			/* a root-owned directory still holds the files: not worth failing */
		}
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	fprintf(stderr, "%s: cannot make %s: %s\n", label, dir, strerror(errno));
	return -errno;
}

static int write_csv(const char *dir, const struct run *r, const struct whatif *w,
		     const char *label)
{
	char path[PATH_MAX];
	struct atomic_file af;
	int err = make_dir(dir, label);

	for (int i = 0; !err && i < render_csv_nfiles; i++) {
		if (!w && !strcmp(render_csv_names[i], "whatif.csv"))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, render_csv_names[i]) >=
		    (int)sizeof(path)) {
			fprintf(stderr, "%s: path too long: %s\n", label, dir);
			return -ENAMETOOLONG;
		}
		err = atomic_file_open(&af, path);
		if (err)
			break;
		render_csv_file(af.f, i, r, w);
		err = atomic_file_commit(&af);
	}
	return err;
}

static int write_file(const char *path, const struct run *r, const struct whatif *w,
		      int (*render)(FILE *, const struct run *, const struct whatif *),
		      const char *label)
{
	struct atomic_file af;
	int err = atomic_file_open(&af, path);

	if (err)
		return err;
	err = render(af.f, r, w);
	if (err) {
		fprintf(stderr, "%s: writing %s failed: %s\n", label, path, strerror(-err));
		atomic_file_abort(&af);
		return err;
	}
	return atomic_file_commit(&af);
}

static int openmetrics(FILE *f, const struct run *r, const struct whatif *w)
{
	render_openmetrics(f, r, w);
	return 0;
}

static int perfetto(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	return render_perfetto(f, r);
}

int export_files(const struct export_opts *o, const struct run *r, const char *cmd)
{
	const struct whatif *wp = NULL;
	char label[64];
	struct whatif w;
	int err = 0;

	if (o->nwhatif) {
		whatif_compute(r, o->whatif_ns, o->nwhatif, &w);
		wp = &w;
	}
	snprintf(label, sizeof(label), "%s: --csv", cmd);
	if (!err && o->csv_dir)
		err = write_csv(o->csv_dir, r, wp, label);
	snprintf(label, sizeof(label), "%s: --openmetrics", cmd);
	if (!err && o->openmetrics)
		err = write_file(o->openmetrics, r, wp, openmetrics, label);
	snprintf(label, sizeof(label), "%s: --perfetto", cmd);
	if (!err && o->perfetto)
		err = write_file(o->perfetto, r, wp, perfetto, label);
	snprintf(label, sizeof(label), "%s: --plot", cmd);
	if (!err && o->plot_dir) {
		err = make_dir(o->plot_dir, label);
		if (!err)
			err = render_plot(o->plot_dir, r, label);
	}
	return err;
}

/* sweep.csv in dir, made now when it is not there. */
static int write_sweep_csv(const char *dir, const struct sweep *s, const char *label)
{
	char path[PATH_MAX];
	struct atomic_file af;
	int err = make_dir(dir, label);

	if (err)
		return err;
	if (snprintf(path, sizeof(path), "%s/sweep.csv", dir) >= (int)sizeof(path)) {
		fprintf(stderr, "%s: path too long: %s\n", label, dir);
		return -ENAMETOOLONG;
	}
	err = atomic_file_open(&af, path);
	if (err)
		return err;
	render_sweep_csv(af.f, s);
	return atomic_file_commit(&af);
}

int export_sweep_files(const struct export_opts *o, const struct sweep *s, const char *cmd)
{
	struct atomic_file af;
	char label[64];
	int err = 0;

	snprintf(label, sizeof(label), "%s: --csv", cmd);
	if (o->csv_dir)
		err = write_sweep_csv(o->csv_dir, s, label);
	if (!err && o->openmetrics) {
		err = atomic_file_open(&af, o->openmetrics);
		if (!err) {
			render_sweep_openmetrics(af.f, s);
			err = atomic_file_commit(&af);
		}
	}
	snprintf(label, sizeof(label), "%s: --plot", cmd);
	if (!err && o->plot_dir) {
		err = make_dir(o->plot_dir, label);
		if (!err)
			err = render_sweep_plot(o->plot_dir, s, label);
	}
	return err;
}

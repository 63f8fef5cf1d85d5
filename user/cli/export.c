// SPDX-License-Identifier: GPL-2.0
/*
 * The export options and their render step (export.h), from one table of exporters: each
 * option's name, whether it names a file or a directory of files, and what writes it for a
 * run and for a sweep.  The table makes argp's option list, is walked by the check (every
 * path before the run or the report does any work), by the writing, and by sweep's refusal
 * of a run's own options.  Every file is written through atomic_file, so a failure leaves the
 * old file, or none, never half of one.
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

enum { OPT_CSV = 2000, OPT_OPENMETRICS, OPT_PROMETHEUS, OPT_PERFETTO, OPT_PLOT, OPT_WHATIF };

/* What an export is made from: a run and its what-if table (NULL: not asked), or a sweep. */
struct export_of {
	const struct run *run;
	const struct whatif *whatif;
	const struct sweep *sweep;
};

/* Where an exporter writes: the open file of a file option, or the directory of a directory
 * option (made by then); label starts its error lines ("migtrace run: --csv"). */
struct export_dest {
	FILE *f;
	const char *dir;
	const char *label;
	const char *path;	/* the option's argument: the file's name, or the directory */
};

/* 0, or -errno after a line on stderr. */
typedef int export_writer(const struct export_dest *to, const struct export_of *x);

enum export_kind {
	EXPORT_DIR,	/* a directory of files, made when it is not there */
	EXPORT_FILE,	/* one file */
	EXPORT_TEXT,	/* no file: more in the text (what-if) */
};

struct exporter {
	const char *option;		/* --option */
	int key;
	const char *arg;		/* its argument in --help */
	const char *doc;
	enum export_kind kind;
	size_t arg_off;			/* where struct export_opts keeps the argument */
	export_writer *for_run;		/* NULL: EXPORT_TEXT (export_text writes it) */
	export_writer *for_sweep;	/* NULL: sweep refuses the option, saying why: */
	const char *not_for_sweep;
	bool needs_gnuplot;
	/* EXPORT_DIR: the files it writes there, which no other output may be */
	void (*dir_files)(bool sweep, struct mt_cli_path *p);
	const char *sweep_doc;		/* sweep's --help, where it differs from doc */
};

static int csv_run(const struct export_dest *to, const struct export_of *x);
static int csv_sweep(const struct export_dest *to, const struct export_of *x);
static int openmetrics_run(const struct export_dest *to, const struct export_of *x);
static int openmetrics_sweep(const struct export_dest *to, const struct export_of *x);
static int prometheus_run(const struct export_dest *to, const struct export_of *x);
static int prometheus_sweep(const struct export_dest *to, const struct export_of *x);
static int perfetto_run(const struct export_dest *to, const struct export_of *x);
static int plot_run(const struct export_dest *to, const struct export_of *x);
static int plot_sweep(const struct export_dest *to, const struct export_of *x);
static void csv_dir_files(bool sweep, struct mt_cli_path *p);
static void plot_dir_files(bool sweep, struct mt_cli_path *p);

#define ARG(m) offsetof(struct export_opts, m)
static const struct exporter exporters[] = {
	{ "csv", OPT_CSV, "DIR", "Write migrations.csv, units.csv, correlation.csv, "
	  "histograms.csv (whatif.csv, probe_moments.csv, probe_cells.csv) into DIR", EXPORT_DIR, ARG(csv_dir), csv_run,
	  csv_sweep, NULL, false, csv_dir_files, "Write sweep.csv (a row per value and run) "
	  "into DIR" },
	{ "openmetrics", OPT_OPENMETRICS, "FILE", "Write the metrics as OpenMetrics 1.0 "
	  "(ending in # EOF) to FILE", EXPORT_FILE, ARG(openmetrics), openmetrics_run,
	  openmetrics_sweep, NULL, false, NULL, NULL },
	{ "prometheus", OPT_PROMETHEUS, "FILE", "Write the same metrics in the Prometheus text "
	  "format (0.0.4, which node_exporter's textfile collector reads) to FILE", EXPORT_FILE,
	  ARG(prometheus), prometheus_run, prometheus_sweep, NULL, false, NULL, NULL },
	{ "perfetto", OPT_PERFETTO, "FILE", "Write the records for ui.perfetto.dev to FILE: "
	  "Perfetto's own protobuf trace when FILE ends in .pftrace, else Chrome trace-event "
	  "JSON", EXPORT_FILE, ARG(perfetto), perfetto_run,
	  NULL, "is a run's records: sweep keeps none", false, NULL, NULL },
	{ "plot", OPT_PLOT, "DIR", "Draw PNG and SVG plots into DIR (needs gnuplot)", EXPORT_DIR,
	  ARG(plot_dir), plot_run, plot_sweep, NULL, true, plot_dir_files, NULL },
	{ "what-if", OPT_WHATIF, "T,T,...", "For each threshold (0.5ms,2.5ms,...): what the "
	  "kernel would have judged, estimated from this run", EXPORT_TEXT, ARG(whatif_arg),
	  NULL, NULL, "judges one traced run: sweep measures each value instead", false, NULL,
	  NULL },
};
#undef ARG
#define NEXPORTERS ((int)(sizeof(exporters) / sizeof(exporters[0])))

/* The option's argument as given, NULL when the option was not. */
static const char *given(const struct export_opts *o, const struct exporter *e)
{
	return *(const char *const *)((const char *)o + e->arg_off);
}

/* argp's option list: a header, then an option per exporter, in the table's order.  Made
 * before main() runs, since argp reads it before it calls any parser. */
static struct argp_option opts[NEXPORTERS + 2];
/* sweep's: the same, with the options it refuses left out of --help (still parsed, so that
 * the refusal can say why) */
static struct argp_option sweep_opts[NEXPORTERS + 2];

__attribute__((constructor)) static void make_options(void)
{
	opts[0] = (struct argp_option){ NULL, 0, NULL, 0, "Exports (made from the run model; "
					"`report` makes the same):", 20 };
	sweep_opts[0] = opts[0];
	sweep_opts[0].doc = "Exports (made from the sweep's model):";
	for (int i = 0; i < NEXPORTERS; i++) {
		opts[i + 1] = (struct argp_option){ exporters[i].option, exporters[i].key,
						    exporters[i].arg, 0, exporters[i].doc, 20 };
		sweep_opts[i + 1] = opts[i + 1];
		if (!exporters[i].for_sweep)
			sweep_opts[i + 1].flags = OPTION_HIDDEN;
		if (exporters[i].sweep_doc)
			sweep_opts[i + 1].doc = exporters[i].sweep_doc;
	}
}

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

	for (int i = 0; i < NEXPORTERS; i++) {
		if (exporters[i].key != key)
			continue;
		*(const char **)((char *)o + exporters[i].arg_off) = arg;
		return key == OPT_WHATIF ? parse_whatif(state, o, arg) : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp export_argp = { opts, parse_arg, NULL, NULL, NULL, NULL, NULL };
const struct argp export_sweep_argp = { sweep_opts, parse_arg, NULL, NULL, NULL, NULL, NULL };

bool export_files_wanted(const struct export_opts *o)
{
	for (int i = 0; i < NEXPORTERS; i++)
		if (exporters[i].kind != EXPORT_TEXT && given(o, &exporters[i]))
			return true;
	return false;
}

void export_refuse_for_sweep(struct argp_state *state, const struct export_opts *o)
{
	char use[128] = " (use";
	size_t n = strlen(use);

	/* a file option refused names those sweep writes */
	for (int i = 0; i < NEXPORTERS; i++)
		if (exporters[i].for_sweep && n < sizeof(use))
			n += (size_t)snprintf(use + n, sizeof(use) - n, "%s --%s",
					      n > strlen(" (use") ? "," : "", exporters[i].option);
	if (n < sizeof(use))
		snprintf(use + n, sizeof(use) - n, ")");
	for (int i = 0; i < NEXPORTERS; i++) {
		const struct exporter *e = &exporters[i];

		if (!e->for_sweep && given(o, e))
			argp_error(state, "--%s %s%s", e->option, e->not_for_sweep,
				   e->kind == EXPORT_TEXT ? "" : use);
	}
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

/* One more file a directory export writes, for mt_cli_distinct. */
static void dir_file(struct mt_cli_path *p, const char *name)
{
	if (p->nfiles == MT_CLI_DIR_FILES) {
		fprintf(stderr, "migtrace: %s writes more than %d files: raise MT_CLI_DIR_FILES "
			"(a bug)\n", p->option, MT_CLI_DIR_FILES);
		abort();
	}
	p->files[p->nfiles++] = name;
}

static void csv_dir_files(bool sweep, struct mt_cli_path *p)
{
	if (sweep)
		dir_file(p, "sweep.csv");
	for (int i = 0; !sweep && i < render_csv_nfiles; i++)
		dir_file(p, render_csv_files[i].name);
}

static void plot_dir_files(bool sweep, struct mt_cli_path *p)
{
	for (int i = 0; i < (sweep ? render_sweep_plot_nfiles : render_plot_nfiles); i++)
		dir_file(p, sweep ? render_sweep_plot_files[i] : render_plot_files[i]);
}

/* The command's own paths and the exports', none the same as another (mt_cli_distinct). */
static int check_distinct(const struct export_opts *o, bool sweep,
			  const struct mt_cli_path *own, int nown)
{
	struct mt_cli_path paths[EXPORT_OWN_MAX + NEXPORTERS];
	char options[NEXPORTERS][32];
	int n = 0;

	for (int i = 0; i < nown && i < EXPORT_OWN_MAX; i++)
		paths[n++] = own[i];
	for (int i = 0; i < NEXPORTERS; i++) {
		const struct exporter *e = &exporters[i];

		if (!given(o, e) || e->kind == EXPORT_TEXT)
			continue;
		snprintf(options[i], sizeof(options[i]), "--%s", e->option);
		paths[n] = mt_cli_path_of(options[i], given(o, e),
					  e->kind == EXPORT_DIR ? MT_PATH_DIR : MT_PATH_FILE);
		if (e->dir_files)
			e->dir_files(sweep, &paths[n]);
		n++;
	}
	return mt_cli_distinct(paths, n);
}

int export_check(const struct export_opts *o, const char *cmd, bool sweep,
		 const struct mt_cli_path *own, int nown)
{
	char label[64];
	int err = 0;

	for (int i = 0; !err && i < NEXPORTERS; i++) {
		const struct exporter *e = &exporters[i];
		const char *path = given(o, e);

		if (!path || e->kind == EXPORT_TEXT)
			continue;
		snprintf(label, sizeof(label), "%s: --%s", cmd, e->option);
		err = e->kind == EXPORT_DIR ? check_dir(path, label) : check_file(path, label);
		if (!err && e->needs_gnuplot && !have_gnuplot()) {
			fprintf(stderr, "%s: --%s: gnuplot is not in PATH: install it (apt-get "
				"install gnuplot-nox, or sudo make run)\n", cmd, e->option);
			err = -ENOENT;
		}
	}
	if (err)
		return MT_EXIT_USAGE;
	return check_distinct(o, sweep, own, nown);
}

void export_text(const struct export_opts *o, FILE *text, const struct run *r)
{
	struct whatif w;

	if (o->nwhatif) {
		whatif_compute(r, o->whatif_ns, o->nwhatif, &w);
		render_whatif_text(text, &w);
	}
	/* a plot left out is said, not silently missing from the directory */
	if (o->plot_dir && render_plot_no_cost(r))
		fprintf(text, "plots: no cost-vs-age plot: %s\n", render_plot_no_cost(r));
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

/* dir/name, written whole or not at all by write(f, ctx). */
static int write_in_dir(const struct export_dest *to, const char *name,
			void (*write)(FILE *f, const struct export_of *x, const void *ctx),
			const struct export_of *x, const void *ctx)
{
	char path[PATH_MAX];
	struct atomic_file af;
	int err;

	if (snprintf(path, sizeof(path), "%s/%s", to->dir, name) >= (int)sizeof(path)) {
		fprintf(stderr, "%s: path too long: %s\n", to->label, to->dir);
		return -ENAMETOOLONG;
	}
	err = atomic_file_open(&af, path);
	if (err)
		return err;
	write(af.f, x, ctx);
	return atomic_file_commit(&af);
}

static void csv_file(FILE *f, const struct export_of *x, const void *ctx)
{
	((const struct render_csv_file *)ctx)->write(f, x->run, x->whatif);
}

static int csv_run(const struct export_dest *to, const struct export_of *x)
{
	int err = 0;

	for (int i = 0; !err && i < render_csv_nfiles; i++)
		if ((x->whatif || !render_csv_files[i].whatif) &&
		    (x->run->probe.on || !render_csv_files[i].probes))
			err = write_in_dir(to, render_csv_files[i].name, csv_file, x,
					   &render_csv_files[i]);
	return err;
}

static void sweep_csv_file(FILE *f, const struct export_of *x, const void *ctx)
{
	(void)ctx;
	render_sweep_csv(f, x->sweep);
}

static int csv_sweep(const struct export_dest *to, const struct export_of *x)
{
	return write_in_dir(to, "sweep.csv", sweep_csv_file, x, NULL);
}

static int prometheus_run(const struct export_dest *to, const struct export_of *x)
{
	render_openmetrics(to->f, x->run, x->whatif, mt_cli_version());
	return 0;
}

static int prometheus_sweep(const struct export_dest *to, const struct export_of *x)
{
	render_sweep_openmetrics(to->f, x->sweep);
	return 0;
}

/* OpenMetrics 1.0: the text format's exposition, its families renamed (render_om1). */
static int as_om1(const struct export_dest *to, const struct export_of *x, export_writer *text)
{
	struct export_dest mem = *to;
	char *buf = NULL;
	size_t len = 0;
	int err;

	mem.f = open_memstream(&buf, &len);
	if (!mem.f) {
		fprintf(stderr, "%s: out of memory\n", to->label);
		return -ENOMEM;
	}
	err = text(&mem, x);
	if (fclose(mem.f) && !err) {
		fprintf(stderr, "%s: out of memory\n", to->label);
		err = -ENOMEM;
	}
	if (!err)
		render_om1(to->f, buf, len);
	free(buf);
	return err;
}

static int openmetrics_run(const struct export_dest *to, const struct export_of *x)
{
	return as_om1(to, x, prometheus_run);
}

static int openmetrics_sweep(const struct export_dest *to, const struct export_of *x)
{
	return as_om1(to, x, prometheus_sweep);
}

/* FILE.pftrace (or .perfetto-trace): Perfetto's own protobuf; any other name, the JSON */
static int perfetto_run(const struct export_dest *to, const struct export_of *x)
{
	return to->path && render_perfetto_native(to->path) ? render_perfetto_pb(to->f, x->run) :
							       render_perfetto(to->f, x->run);
}

static int plot_run(const struct export_dest *to, const struct export_of *x)
{
	return render_plot(to->dir, x->run, to->label);
}

static int plot_sweep(const struct export_dest *to, const struct export_of *x)
{
	return render_sweep_plot(to->dir, x->sweep, to->label);
}

/* One export at path: its directory made, or its file written whole. */
static int write_export(export_writer *write, enum export_kind kind, const char *path,
			const struct export_of *x, const char *label)
{
	struct export_dest to = { NULL, path, label, path };
	struct atomic_file af;
	int err;

	if (kind == EXPORT_DIR) {
		err = make_dir(path, label);
		return err ? err : write(&to, x);
	}
	err = atomic_file_open(&af, path);
	if (err)
		return err;
	to.f = af.f;
	err = write(&to, x);
	if (err) {
		fprintf(stderr, "%s: writing %s failed: %s\n", label, path, strerror(-err));
		atomic_file_abort(&af);
		return err;
	}
	return atomic_file_commit(&af);
}

/* Every file asked for, in the table's order, until one fails. */
static int write_exports(const struct export_opts *o, const struct export_of *x,
			 const char *cmd)
{
	char label[64];
	int err = 0;

	for (int i = 0; !err && i < NEXPORTERS; i++) {
		const struct exporter *e = &exporters[i];
		export_writer *write = x->sweep ? e->for_sweep : e->for_run;

		/* no writer: the text's (what-if), or refused by sweep's options */
		if (!given(o, e) || !write)
			continue;
		snprintf(label, sizeof(label), "%s: --%s", cmd, e->option);
		err = write_export(write, e->kind, given(o, e), x, label);
	}
	return err;
}

int export_files(const struct export_opts *o, const struct run *r, const char *cmd)
{
	struct export_of x = { .run = r };
	struct whatif w;

	if (o->nwhatif) {
		whatif_compute(r, o->whatif_ns, o->nwhatif, &w);
		x.whatif = &w;
	}
	return write_exports(o, &x, cmd);
}

int export_sweep_files(const struct export_opts *o, const struct sweep *s, const char *cmd)
{
	struct export_of x = { .sweep = s };

	return write_exports(o, &x, cmd);
}

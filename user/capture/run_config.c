// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving a run's configuration before anything runs: every bad input found here is one
 * line and exit status 2, before a workload is launched or a program loaded, so that a
 * mistyped option never costs a whole run.  What it resolves is recorded in the run model.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bpf_util.h"
#include "calib_file.h"
#include "elf_sym.h"
#include "environment.h"
#include "ftrace_tracer.h"
#include "install_dirs.h"
#include "launch.h"
#include "mem_room.h"
#include "run_config.h"
#include "tracer.h"
#include "topology.h"
#include "tunable.h"
#include "status.h"
#include "units.h"

/*
 * The ring buffer's default size: 32 KiB a CPU, a power of two from 64 KiB to 1 MiB.  Small
 * enough to stay in the caches of a small machine, where writing a record into lines the
 * reader has left cold was most of a migration's cost (docs/overhead.md, "What grows with
 * the number of CPUs"); large enough for the bursts of a big one.  The reader is woken at a
 * quarter full; a full ring is counted, never waited on.
 */
static uint64_t default_ringbuf_bytes(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t bytes = 64 << 10;

	while (bytes < (1 << 20) && cpus > 0 && bytes < (uint64_t)cpus * (32 << 10))
		bytes <<= 1;
	return bytes;
}

void run_config_default(struct run_config *c, enum run_kind kind)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->hot_ns = RUN_NO_HOT_ARG;
	c->max_records = 200000;
	c->ringbuf_bytes = default_ringbuf_bytes();	/* counted twice in RSS (mapped twice) */
	c->probe_share = PROBE_DEFAULT_SHARE;
	c->probe_seed = 0x70726f6265ULL;	/* "probe": the draws repeat run to run */
	cachewalk_config_default(&c->cw);
}

FILE *run_config_text(const struct run_config *c)
{
	/* a run file on stdout, by any name, has it to itself; so do -j's lines */
	return atomic_file_to_stdout(c->output) || c->json_lines ? stderr : stdout;
}

/* Whether dir has an executable name, whose path is then in path; if not, looked gets dir. */
static bool in_dir(const char *dir, const char *name, char *path, size_t len, char *looked,
		   size_t looked_len)
{
	size_t used = strlen(looked);

	if ((size_t)snprintf(path, len, "%s/%s", dir, name) < len && access(path, X_OK) == 0)
		return true;
	if (used < looked_len)
		snprintf(looked + used, looked_len - used, "%s%s", used ? " or " : "", dir);
	return false;
}

/*
 * Where a built-in workload (a name without '/') is looked for: $MIGTRACE_WORKLOADS when set,
 * then beside the binary when it sits in a build tree (.output/workloads, or workloads/ for a
 * binary inside .output), then PREFIX/libexec/migtrace for the PREFIX the binary sits in now
 * (PREFIX/sbin/migtrace: an installed tree moved elsewhere still finds its own), then where
 * `make install` put them (MT_LIBEXECDIR, from the Makefile's PREFIX); then $PATH.  looked
 * gets the directories tried, for the error when none has it.
 */
static int resolve_workload(const char *name, char *path, size_t len, char *looked,
			    size_t looked_len)
{
	const char *over = getenv("MIGTRACE_WORKLOADS");
	char exe[PATH_MAX], tree[PATH_MAX + 32];
	ssize_t n;

	looked[0] = '\0';
	if (strchr(name, '/'))
		return launch_resolve(name, path, len);
	if (over && *over && in_dir(over, name, path, len, looked, looked_len))
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		const char *dir, *last;

		exe[n] = '\0';
		dir = dirname(exe);
		last = strrchr(dir, '/');
		/* ./migtrace at the tree's top, or a build of it inside .output (migtrace-san) */
		if (last && !strcmp(last + 1, ".output"))
			snprintf(tree, sizeof(tree), "%s/workloads", dir);
		else
			snprintf(tree, sizeof(tree), "%s/.output/workloads", dir);
		if (in_dir(tree, name, path, len, looked, looked_len))
			return 0;
		/* the installed layout, relative to the binary: DIR/../libexec/migtrace */
		if (last && last != dir) {
			snprintf(tree, sizeof(tree), "%.*s/libexec/migtrace", (int)(last - dir), dir);
			if (strcmp(tree, MT_LIBEXECDIR) &&
			    in_dir(tree, name, path, len, looked, looked_len))
				return 0;
		}
	}
	if (in_dir(MT_LIBEXECDIR, name, path, len, looked, looked_len))
		return 0;
	return launch_resolve(name, path, len);
}

/* Whether NUMA balancing is on (kernel.numa_balancing nonzero): off when not readable. */
static bool numa_balancing_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}

/*
 * Each CPU's ids for the topology level of a move (topology_level_ids), into the run model,
 * which hands them to the tracer; with why an online CPU's LLC sharing is not known.
 */
static void record_topo(const struct topology *t, struct run *r)
{
	struct run_topo *o = &r->topo;

	o->ncpus = t->max_cpu + 1 < RUN_MAX_NR_CPUS ? t->max_cpu + 1 : RUN_MAX_NR_CPUS;
	for (int cpu = 0; cpu < o->ncpus; cpu++)
		topology_level_ids(t, cpu, &o->core[cpu], &o->llc[cpu], &o->node[cpu]);
	o->llc_why[0] = '\0';
	for (int i = 0; i < t->online.n && !o->llc_why[0]; i++)
		topology_llc_known(t, t->online.cpu[i], o->llc_why, sizeof(o->llc_why));
	o->numa_balancing = numa_balancing_on();
	r->has_levels = true;
}

/* The CPUs to pin to. */
static int resolve_cpus(struct run_config *c, const struct topology *t, struct run *r)
{
	return topology_cpus_arg(t, c->cpus_arg, "run", &r->meta.cpus) ? MT_EXIT_USAGE : 0;
}

/*
 * The command line the workload runs with: the one given, or (validate) the one built from
 * the cachewalk config.  The one place a workload's argv is made.  A cachewalk command line
 * is read with cachewalk's own parser, so that the experiment's mode comes from its options.
 */
static int workload_argv(struct run_config *c)
{
	char err[256];
	int argc = 0;

	if (!c->argv) {
		if (cachewalk_config_argv(&c->cw, "cachewalk", &c->cw_argv)) {
			fprintf(stderr, "migtrace run: cachewalk's command line is too long\n");
			return MT_EXIT_USAGE;
		}
		c->cachewalk = true;
		c->exec_argv = c->cw_argv.argv;
		return 0;
	}
	c->exec_argv = c->argv;
	c->cachewalk = !strcmp(basename(strdupa(c->argv[0])), "cachewalk");
	if (!c->cachewalk)
		return 0;
	while (c->argv[argc])
		argc++;
	cachewalk_config_default(&c->cw);
	if (cachewalk_config_parse(&c->cw, argc, c->argv, err, sizeof(err)) < 0) {
		fprintf(stderr, "migtrace run: cachewalk: %s\n", err);
		return MT_EXIT_USAGE;
	}
	return 0;
}

/*
 * --unit BINARY:FUNCTION, resolved and checked before anything is launched or attached:
 * the binary found the way the shell would, and the function defined in its symbol table.
 * A unit binary given by name is looked up like a command.
 */
static int resolve_unit(struct run_config *c)
{
	const char *colon = strrchr(c->unit_arg, ':');
	char *name = strndupa(c->unit_arg, (size_t)(colon - c->unit_arg));
	int err;

	snprintf(c->unit_func, sizeof(c->unit_func), "%s", colon + 1);
	/* a path is taken as it is: a shared library need not be executable */
	if (strchr(name, '/'))
		err = snprintf(c->unit_bin, sizeof(c->unit_bin), "%s", name) >=
		      (int)sizeof(c->unit_bin) ? -ENAMETOOLONG : 0;
	else
		err = launch_resolve(name, c->unit_bin, sizeof(c->unit_bin));
	if (!err)
		err = elf_defines_function(c->unit_bin, c->unit_func);
	switch (err) {
	case 0:
		return 0;
	case -ENOENT:
		if (access(c->unit_bin, F_OK) == 0) {
			fprintf(stderr, "migtrace run: --unit: %s defines no function '%s' (see nm "
				"-D %s; a stripped binary has only its dynamic symbols)\n",
				c->unit_bin, c->unit_func, c->unit_bin);
			return err;
		}
		break;
	case -ENOEXEC:
		fprintf(stderr, "migtrace run: --unit: %s is not an ELF binary\n", c->unit_bin);
		return err;
	}
	fprintf(stderr, "migtrace run: --unit: cannot use '%.*s': %s\n",
		(int)(colon - c->unit_arg), c->unit_arg, strerror(-err));
	return err;
}

/* --user: a name the workload can be started as (launch_fork looks it up again). */
static int resolve_user(const char *user)
{
	errno = 0;
	if (getpwnam(user))
		return 0;
	fprintf(stderr, "migtrace run: --user: '%s': %s\n", user,
		errno ? strerror(errno) : "no such user");
	return -ENOENT;
}

/*
 * The hot time of a calibrate --json file (docs/calibration-file.md): the robust one of a
 * 2004 calibration, else the method's own.  The whole calibration is kept in cal.
 */
static int read_calibration(const char *path, struct run_calibration *cal)
{
	char err[400];
	int version;

	memset(cal, 0, sizeof(*cal));
	if (calib_file_read(path, &cal->cal, &version, err, sizeof(err))) {
		fprintf(stderr, "migtrace run: --calibration %s: %s\n", path, err);
		return -EINVAL;
	}
	if (!cal->cal.has_hot) {
		fprintf(stderr, "migtrace run: --calibration %s has no hot time (calibrated on "
			"one CPU: calibrate two or more)\n", path);
		calib_free(&cal->cal);
		return -EINVAL;
	}
	cal->robust = cal->cal.method == CALIB_2004 && isfinite(cal->cal.hot_robust_ns);
	cal->hot_ns = cal->robust ? cal->cal.hot_robust_ns : cal->cal.hot_seed_ns;
	cal->valid = true;
	return 0;
}

/* -p PID: a live process; a thread id is taken as its process, all its threads. */
static int resolve_pid(struct run_config *c)
{
	pid_t tgid = launch_tgid_of((pid_t)c->pid);
	char state = launch_process_state((pid_t)c->pid);

	if (tgid < 0 || !launch_process_alive(tgid)) {
		fprintf(stderr, "migtrace run: -p %ld: no such process%s\n", c->pid,
			state == 'Z' ? " (it has exited: a zombie not yet reaped)" : "");
		return MT_EXIT_USAGE;
	}
	/* Threads are traced by their process: a thread id alone would match nothing. */
	if (tgid != (pid_t)c->pid) {
		fprintf(stderr, "migtrace run: -p %ld is a thread of process %d: tracing process "
			"%d, all its threads\n", c->pid, (int)tgid, (int)tgid);
		c->pid = tgid;
	}
	return 0;
}

bool run_config_scoped(const struct run_config *c)
{
	return c->all || c->cgroup_arg;
}

bool run_config_aggregates_only(const struct run_config *c)
{
	return run_config_scoped(c) && !c->output && !c->records_wanted && !c->unit_arg;
}

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

int run_config_cgroup_id(const char *path, uint64_t *id)
{
	union {
		struct file_handle fh;
		char room[sizeof(struct file_handle) + sizeof(uint64_t)];
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return -errno;
	if (h.fh.handle_bytes != sizeof(uint64_t))
		return -EINVAL;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/*
 * --cgroup PATH: a directory of a cgroup v2 file system, and its id as BPF sees it
 * (cgroup->kn->id), which is what its file handle holds, as bpftool and libbpf-tools read it.
 */
static int resolve_cgroup(struct run_config *c)
{
	const char *p = c->cgroup_arg;
	struct statfs fs;
	struct stat st;
	int err;

	if (stat(p, &st)) {
		fprintf(stderr, "migtrace run: --cgroup %s: %s (give a cgroup v2 directory, e.g. "
			"/sys/fs/cgroup/system.slice)\n", p, errno == ENOENT ? "no such cgroup" :
			strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "migtrace run: --cgroup %s: not a directory (a cgroup is one, e.g. "
			"/sys/fs/cgroup/system.slice)\n", p);
		return -ENOTDIR;
	}
	if (statfs(p, &fs))
		fs.f_type = 0;
	if (fs.f_type != CGROUP2_SUPER_MAGIC) {
		fprintf(stderr, "migtrace run: --cgroup %s: %s\n", p,
			fs.f_type == CGROUP_SUPER_MAGIC ?
				"a cgroup v1 hierarchy: --cgroup takes a cgroup v2 directory (the "
				"unified hierarchy, mounted at /sys/fs/cgroup on most systems)" :
				"not in a cgroup v2 file system (mounted at /sys/fs/cgroup on most "
				"systems)");
		return -EINVAL;
	}
	err = run_config_cgroup_id(p, &c->cgroup_id);
	if (err) {
		fprintf(stderr, "migtrace run: --cgroup %s: cannot read its cgroup id: %s\n", p,
			strerror(-err));
		return -EINVAL;
	}
	return 0;
}

/* "wakeup -t 4", "pid N", "all tasks"; a long command is cut where it says so, not silently. */
static void describe_command(const struct run_config *c, struct run_meta *m)
{
	size_t off = 0, len = sizeof(m->command) - 1;

	if (c->all || c->cgroup_arg) {
		if (c->all)
			snprintf(m->command, sizeof(m->command), "all tasks");
		else if ((size_t)snprintf(m->command, sizeof(m->command), "cgroup %s (id %llu)",
					  c->cgroup_arg, (unsigned long long)c->cgroup_id) > len)
			snprintf(m->command, sizeof(m->command), "cgroup id %llu",
				 (unsigned long long)c->cgroup_id);
		return;
	}
	if (c->pid) {
		snprintf(m->command, sizeof(m->command), "pid %ld", c->pid);
		return;
	}
	for (char **a = c->exec_argv; *a; a++)
		off += (size_t)snprintf(m->command + (off < len ? off : len),
					off < len ? len - off : 0, "%s%s",
					a == c->exec_argv ? "" : " ", *a);
	if (off >= len)
		snprintf(m->command + len - 64, 65, " [cut here: %u more characters, %u in all]",
			 (unsigned)(off - (len - 64)), (unsigned)off);
}

/* The configuration as the run file keeps it. */
static void record_setup(const struct run_config *c, struct run_setup *s)
{
	s->kind = c->kind;
	s->mode = c->cachewalk && c->cw.controlled ? CORR_CONTROLLED : CORR_NATURAL;
	s->pid_arg = c->pid;
	snprintf(s->cpus_arg, sizeof(s->cpus_arg), "%s", c->cpus_arg ? c->cpus_arg : "");
	snprintf(s->user, sizeof(s->user), "%s", c->user ? c->user : "");
	s->duration_ns = c->duration_ns;
	s->hot_ns_arg = c->hot_ns;
	s->ringbuf_bytes = c->ringbuf_bytes;
	s->max_records = (uint64_t)c->max_records;
	snprintf(s->unit_arg, sizeof(s->unit_arg), "%s", c->unit_arg ? c->unit_arg : "");
	snprintf(s->calibration_file, sizeof(s->calibration_file), "%s",
		 c->calibration ? c->calibration : "");
	s->cold_fraction = CORR_COLD_FRACTION;
	s->level = c->level > 0 ? c->level : CORR_LEVEL;
	s->budget_s = c->budget_s;
	s->max_looks = c->max_looks;
	s->cachewalk = c->cachewalk;
	s->cw = c->cw;
}

/* --probe-moves as the run file keeps it: what was asked (the mover adds its counts). */
static void record_probe(const struct run_config *c, struct probe_setup *p)
{
	memset(p, 0, sizeof(*p));
	p->on = c->probe_rate_hz > 0;
	if (!p->on)
		return;
	p->rate_hz = c->probe_rate_hz;
	p->max_share = c->probe_share;
	p->seed = c->probe_seed;
	/* without units (--unit, or cachewalk's own), a thread's run to its next block */
	p->by_runs = !c->unit_arg && !c->cachewalk;
	p->workload_cpu_s = -1;
}

static void record_threshold(const struct run_config *c, const struct tunable *k,
			     struct run_meta *m)
{
	if (c->hot_ns != RUN_NO_HOT_ARG) {
		m->hot_ns = c->hot_ns;
		snprintf(m->hot_source, sizeof(m->hot_source), "--hot-ns");
	} else {
		m->hot_ns = k->value_ns;
		snprintf(m->hot_source, sizeof(m->hot_source), "%s", k->source);
	}
}

/*
 * Rough costs of one of cachewalk's dependent loads, for the duration estimate only: from a
 * core's own cache, where a working set up to CW_CACHED_BYTES is taken to stay, and from
 * memory beyond.  The estimate says how long to expect, not what will be measured.
 */
#define CW_LINE_NS_CACHED 16
#define CW_LINE_NS_MEMORY 100
#define CW_CACHED_BYTES (1ULL << 20)
#define CW_LINE_BYTES 64	/* cachewalk's line (workloads/cachewalk.c) */
#define CW_UNITS_PER_TRIAL 5	/* 2 warm, 2 baseline, 1 after the event */
#define CW_LONG_S 60		/* longer than this, the estimate is said */

/* The memory cachewalk allocates: a working set per walking thread (one in the controlled
 * experiment, --threads or one per CPU in natural mode), a buffer per polluter (its size
 * rounded down to a power of two, as cachewalk does). */
static uint64_t cachewalk_bytes(const struct cachewalk_config *cw, int ncpus)
{
	uint64_t ws = (cw->ws_bytes / CW_LINE_BYTES < 2 ? 2 : cw->ws_bytes / CW_LINE_BYTES) *
		      CW_LINE_BYTES, pol = cw->polluter_bytes, bytes;
	int walkers = cw->controlled ? 1 : cw->threads ? cw->threads : ncpus, npol = 0;

	while (pol & (pol - 1))
		pol &= pol - 1;
	for (const char *p = cw->polluter_cpus; *p; p++)
		npol += p == cw->polluter_cpus || p[-1] == ',';
	bytes = ws * (uint64_t)walkers;
	return bytes + pol * (uint64_t)(npol < 16 ? npol : 16);
}

int run_config_check_cachewalk(struct run_config *c, const struct cpu_set_list *cpus,
			       const char *cmd)
{
	const struct cachewalk_config *cw = &c->cw;
	uint64_t need = cachewalk_bytes(cw, cpus->n), lines = cw->ws_bytes / CW_LINE_BYTES;
	double unit_s, ages_s = 0, round_s, rounds;
	int nrates = cw->nrates ? cw->nrates : 1;
	struct mem_room room;
	char b1[32], b2[32], how[96];

	/* a tenth to spare: migtrace, the tracer's maps and the page tables need room too */
	if (!mem_room_probe(NULL, &room) && need > room.bytes / 10 * 9) {
		fprintf(stderr, "migtrace %s: --ws %s: cachewalk would allocate %s (working sets "
			"and polluter buffers), more than the %s leaves to spare; give a smaller "
			"--ws\n", cmd, fmt_bytes(b1, sizeof(b1), cw->ws_bytes),
			fmt_bytes(b2, sizeof(b2), need), room.what);
		return MT_EXIT_USAGE;
	}
	c->cachewalk_checked = true;
	if (!cw->controlled)
		return 0;	/* natural mode runs for its --duration */
	unit_s = (double)lines * (cw->ws_bytes <= CW_CACHED_BYTES ? CW_LINE_NS_CACHED :
				  CW_LINE_NS_MEMORY) / 1e9;
	for (int i = 0; i < cw->nages; i++)
		ages_s += (double)cw->ages_ns[i] / 1e9;
	/* a round: every (age, rate, arm) cell once, its age waited out, then its units */
	round_s = 2.0 * nrates * (ages_s + cw->nages * CW_UNITS_PER_TRIAL * unit_s);
	rounds = cw->samples;
	snprintf(how, sizeof(how), "%d rounds", cw->samples);
	if (c->budget_s > 0 && c->first_rounds) {
		/* a sequence: as many rounds as the budget holds, and never fewer than
		 * c->min_look_rounds before the first look (the bootstrap resamples rounds) */
		rounds = fmin(cw->samples, floor(c->budget_s / round_s));
		if (rounds < c->first_rounds)
			c->first_rounds = (uint32_t)fmax(rounds, fmin(c->min_look_rounds,
								      cw->samples));
		rounds = fmax(rounds, c->first_rounds);
		snprintf(how, sizeof(how), "%.0f rounds at most (--budget %.0f s)",
			 rounds, c->budget_s);
	}
	if (rounds * round_s > CW_LONG_S)
		fprintf(stderr, "migtrace %s: this will take about %.0f s: %s of %d ages x %d "
			"rate%s x 2 arms, each waiting out its age (%s a round) and timing %d "
			"units of ~%s\n", cmd, rounds * round_s, how, cw->nages, nrates,
			nrates == 1 ? "" : "s", fmt_ns(b1, sizeof(b1), round_s * 1e9),
			CW_UNITS_PER_TRIAL, fmt_ns(b2, sizeof(b2), unit_s * 1e9));
	return 0;
}

/*
 * Without the capabilities BPF needs: --backend bpf is refused, and so is auto when the
 * ftrace backend cannot run either (one line naming both); else auto records with ftrace
 * (tracer.c says why).  true: refused, with its line on stderr.
 */
static bool refuse_without_bpf(const struct run_config *c, const char *missing)
{
	char why[256];

	if (c->backend == TRACER_BACKEND_BPF || c->cgroup_arg) {
		fprintf(stderr, "migtrace run: needs %s to load BPF programs: run as root (sudo) "
			"or grant CAP_BPF and CAP_PERFMON\n", missing);
		return true;
	}
	if (!ftrace_tracer_check(why, sizeof(why)))
		return false;
	fprintf(stderr, "migtrace run: needs %s to load BPF programs, and the ftrace backend "
		"cannot run either (%s): run as root (sudo) or grant CAP_BPF and CAP_PERFMON\n",
		missing, why);
	return true;
}

int run_config_resolve(struct run_config *c, struct run *r)
{
	struct run_calibration file_cal = { 0 };
	char looked[3 * PATH_MAX + 16];
	struct topology t = { 0 };
	const char *missing;
	struct tunable kern;
	char why[256];
	int rc;

	if (c->backend != TRACER_BACKEND_FTRACE && (missing = mt_missing_bpf_cap()) &&
	    refuse_without_bpf(c, missing))
		return MT_EXIT_FAIL;
	/* --backend ftrace where tracefs cannot be mounted or written: asked for what cannot
	 * be done, before anything starts */
	if (c->backend == TRACER_BACKEND_FTRACE && ftrace_tracer_check(why, sizeof(why))) {
		fprintf(stderr, "migtrace run: the ftrace backend cannot run here: %s\n", why);
		return MT_EXIT_USAGE;
	}
	if (topology_read(NULL, &t))
		return MT_EXIT_FAIL;
	if ((rc = resolve_cpus(c, &t, r)))
		goto out;
	if ((c->argv || c->kind == RUN_KIND_VALIDATE) && (rc = workload_argv(c)))
		goto out;
	if (c->cachewalk && !c->cachewalk_checked &&
	    (rc = run_config_check_cachewalk(c, &r->meta.cpus, "run")))
		goto out;
	if (c->exec_argv && (rc = resolve_workload(c->exec_argv[0], c->path, sizeof(c->path),
						   looked, sizeof(looked)))) {
		if (rc == -ENOENT && looked[0])
			fprintf(stderr, "migtrace run: cannot run '%s': no such built-in workload "
				"in %s, nor program in PATH (a build tree has its workloads after "
				"`make`, an install after `make install`)\n", c->exec_argv[0], looked);
		else
			fprintf(stderr, "migtrace run: cannot run '%s': %s\n", c->exec_argv[0],
				strerror(-rc));
		rc = 127;
		goto out;
	}
	/* A bad output path or unit is found now, not after the whole workload has run. */
	rc = MT_EXIT_USAGE;
	if ((c->output && atomic_file_check(c->output)) || (c->unit_arg && resolve_unit(c)) ||
	    (c->calibration && read_calibration(c->calibration, &file_cal)) ||
	    (c->pid && resolve_pid(c)) || (c->user && resolve_user(c->user)) ||
	    (c->cgroup_arg && resolve_cgroup(c)))
		goto out;
	rc = 0;

	tunable_probe(&kern);
	environment_probe(&r->env, &t, &kern);
	record_topo(&t, r);
	record_setup(c, &r->setup);
	record_probe(c, &r->probe);
	record_threshold(c, &kern, &r->meta);
	if (c->calibration) {
		/* a file given names the calibration to judge by; the model owns it now */
		calib_free(&r->calib.cal);
		r->calib = file_cal;
		memset(&file_cal, 0, sizeof(file_cal));
	}
	r->meta.ringbuf_bytes = c->ringbuf_bytes;
	r->meta.attached = c->pid != 0 || run_config_scoped(c);
	r->meta.exit_status = -1;
	r->max_kept = (size_t)c->max_records;
	describe_command(c, &r->meta);
out:
	calib_free(&file_cal.cal);
	topology_free(&t);
	return rc;
}

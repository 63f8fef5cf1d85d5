// SPDX-License-Identifier: GPL-2.0
/*
 * The migration-cost tunable moved from sysctl to debugfs in 5.13 and became a u32.  Under
 * kernel lockdown (or a debugfs restricted with debugfs=no-mount/off) reading it fails with
 * EPERM even as root: say so rather than guess.  Every path is taken under a root, so that
 * the tests run all of this on a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "atomic_file.h"
#include "tunable.h"

#define DEBUGFS_DIR "/sys/kernel/debug"
#define DEBUGFS_MAGIC_NR 0x64626720
#define RECORD_DIR "/run/migtrace"
#define SYSCTL_KEY "kernel.sched_migration_cost_ns"
#define TUNED_KEY "sched_migration_cost_ns"

#define LLC_ABSENT "a kernel without cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2)"
#define LLC_KNOB(n, unit, def, lo, hi)							\
	{ "llc_balancing/" n, "llc_balancing/" n, NULL, "llc_balancing." n ".restore", unit,	\
	  LLC_ABSENT, def, lo, hi }

/* The migration cost first: TUNABLE_MIGRATION_COST.  The llc_balancing defaults are
 * kernel/sched/fair.c's of 7.2 (epoch_period: HZ / 100 jiffies, 2 at HZ 250). */
const struct tunable_knob tunable_knobs[] = {
	{ "migration_cost_ns", "migration_cost_ns", "kernel/sched_migration_cost_ns",
	  "migration_cost.restore", "ns", "a kernel without CONFIG_SCHED_DEBUG",
	  MT_KERNEL_DEFAULT_MIGRATION_COST_NS, -1, UINT32_MAX },
	LLC_KNOB("enabled", "", 1, 0, 1),
	LLC_KNOB("aggr_tolerance", "", 1, 0, 100),
	LLC_KNOB("imb_pct", "%", 20, 0, 100),
	LLC_KNOB("overaggr_pct", "%", 50, 0, 100),
	LLC_KNOB("epoch_period", "jiffies", 2, 1, INT32_MAX),
	LLC_KNOB("epoch_affinity_timeout", "epochs", 5, 0, INT32_MAX),
};
const int tunable_nknobs = (int)(sizeof(tunable_knobs) / sizeof(tunable_knobs[0]));

const struct tunable_knob *tunable_knob_find(const char *name)
{
	for (int i = 0; i < tunable_nknobs; i++)
		if (!strcmp(tunable_knobs[i].name, name))
			return &tunable_knobs[i];
	return NULL;
}

char *tunable_fmt(const struct tunable_knob *k, int64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRId64 "%s%s", v, k->unit[0] ? " " : "", k->unit);
	return buf;
}

static bool debugfs_mounted(void)
{
	struct statfs sfs;

	return statfs(DEBUGFS_DIR, &sfs) == 0 && sfs.f_type == DEBUGFS_MAGIC_NR;
}

static void lockdown_mode(const char *root, char *buf, size_t len)
{
	char path[512], line[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/kernel/security/lockdown", root);
	if (!(f = fopen(path, "r")))
		return;
	if (fgets(line, sizeof(line), f)) {
		char *l = strchr(line, '['), *r = l ? strchr(l, ']') : NULL;

		if (l && r)
			snprintf(buf, len, "%.*s", (int)(r - l - 1), l + 1);
	}
	fclose(f);
}

static int read_value(const char *path, int64_t *ns)
{
	FILE *f = fopen(path, "r");
	long long v;
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%lld", &v) != 1)
		err = ferror(f) ? -errno : -EINVAL;
	fclose(f);
	if (!err)
		*ns = v;
	return err;
}

/* What configuration on this machine asks for a value, and where. */
struct claim {
	bool set;
	int64_t ns;
	char where[300];	/* "FILE:LINE" or "TuneD profile 'P' (FILE)" */
};

/* "key = value" with the key one of ours; sysctl also spells dots as slashes. */
static bool parse_assignment(char *line, const char *key, int64_t *ns)
{
	char *eq = strchr(line, '='), *k = line, *end;
	long long v;

	if (!eq)
		return false;
	*eq = '\0';
	while (*k == ' ' || *k == '\t' || *k == '-')	/* "-key": ignore errors, still set */
		k++;
	for (char *p = k + strlen(k); p > k && (p[-1] == ' ' || p[-1] == '\t'); p--)
		p[-1] = '\0';
	for (char *p = k; *p; p++)
		if (*p == '/')
			*p = '.';
	if (strcmp(k, key) != 0)
		return false;
	v = strtoll(eq + 1, &end, 10);
	if (end == eq + 1)
		return false;
	*ns = v;
	return true;
}

static void scan_sysctl_file(const char *path, const char *shown, struct claim *c)
{
	char line[512];
	int n = 0;
	int64_t ns;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (line[0] == '#' || line[0] == ';')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (parse_assignment(line, SYSCTL_KEY, &ns)) {
			c->set = true;	/* later files and lines win, as sysctl --system applies */
			c->ns = ns;
			snprintf(c->where, sizeof(c->where), "%s:%d", shown, n);
		}
	}
	fclose(f);
}

/* Orders "/dir/NAME" paths by NAME alone, as systemd-sysctl does. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(strrchr(*(char *const *)a, '/'), strrchr(*(char *const *)b, '/'));
}

/* sysctl.d in systemd-sysctl's order (by file name; /etc hides /run hides /usr/lib), then
 * /etc/sysctl.conf, which procps applies last. */
static void find_sysctl_claim(const char *root, struct claim *c)
{
	static const char *const dirs[] = { "/etc/sysctl.d", "/run/sysctl.d",
					    "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d",
					    "/lib/sysctl.d" };
	char *names[256], path[1024], shown[600];
	int n = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		struct dirent *de;
		DIR *dir;

		snprintf(path, sizeof(path), "%s%s", root, dirs[d]);
		if (!(dir = opendir(path)))
			continue;
		while ((de = readdir(dir)) && n < 256) {
			size_t len = strlen(de->d_name);
			bool hidden = false;

			if (len < 6 || strcmp(de->d_name + len - 5, ".conf"))
				continue;
			for (int i = 0; i < n; i++)
				hidden |= !strcmp(strrchr(names[i], '/') + 1, de->d_name);
			if (!hidden && asprintf(&names[n], "%s/%s", dirs[d], de->d_name) > 0)
				n++;
		}
		closedir(dir);
	}
	qsort(names, (size_t)n, sizeof(names[0]), name_cmp);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s", root, names[i]);
		snprintf(shown, sizeof(shown), "%s", names[i]);
		scan_sysctl_file(path, shown, c);
		free(names[i]);
	}
	snprintf(path, sizeof(path), "%s/etc/sysctl.conf", root);
	scan_sysctl_file(path, "/etc/sysctl.conf", c);
}

/* A TuneD profile's tuned.conf: its include= parents first, then its own [sysctl] or
 * [scheduler] entry. */
static void scan_tuned_profile(const char *root, const char *profile, int depth,
			       struct claim *c)
{
	static const char *const dirs[] = { "/etc/tuned/profiles", "/etc/tuned",
					    "/usr/lib/tuned/profiles", "/usr/lib/tuned" };
	char path[1024], line[512], section[64] = "", shown[700];
	int64_t ns;
	FILE *f = NULL;

	if (depth > 8)
		return;
	for (size_t d = 0; !f && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		snprintf(shown, sizeof(shown), "%s/%s/tuned.conf", dirs[d], profile);
		snprintf(path, sizeof(path), "%s%s", root, shown);
		f = fopen(path, "r");
	}
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		p[strcspn(p, "\r\n")] = '\0';
		if (*p == '#' || !*p)
			continue;
		if (*p == '[') {
			snprintf(section, sizeof(section), "%.*s", (int)strcspn(p + 1, "]"), p + 1);
		} else if (!strcmp(section, "main") && !strncmp(p, "include", 7)) {
			char *v = strchr(p, '='), *save = NULL;

			for (char *inc = v ? strtok_r(v + 1, " ,\t", &save) : NULL; inc;
			     inc = strtok_r(NULL, " ,\t", &save))
				scan_tuned_profile(root, inc, depth + 1, c);
		} else if ((!strcmp(section, "sysctl") && parse_assignment(p, SYSCTL_KEY, &ns)) ||
			   (!strcmp(section, "scheduler") && parse_assignment(p, TUNED_KEY, &ns))) {
			c->set = true;
			c->ns = ns;
			snprintf(c->where, sizeof(c->where), "TuneD profile '%.60s' (%.200s)",
				 profile, shown);
		}
	}
	fclose(f);
}

static void find_tuned_claim(const char *root, struct claim *c)
{
	char path[512], line[256], *save = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/tuned/active_profile", root);
	if (!(f = fopen(path, "r")))
		return;
	if (fgets(line, sizeof(line), f))
		for (char *p = strtok_r(line, " \t\n", &save); p; p = strtok_r(NULL, " \t\n", &save))
			scan_tuned_profile(root, p, 0, c);
	fclose(f);
}

static void describe_origin(struct tunable *t)
{
	struct claim sys = { 0 }, tuned = { 0 };
	char note[400] = "";
	int64_t v = t->value_ns;

	if (t->knob != TUNABLE_MIGRATION_COST) {
		if (!t->readable)
			snprintf(t->origin, sizeof(t->origin), "unknown: the value cannot be read");
		else
			snprintf(t->origin, sizeof(t->origin), v == t->knob->kernel_default ?
				 "the kernel's default" : "changed at run time: not the kernel's "
				 "default");
		return;
	}
	find_sysctl_claim(t->root, &sys);
	find_tuned_claim(t->root, &tuned);
	/* Since 5.13 there is no such sysctl: an entry for it fails at boot, silently. */
	if (sys.set && t->debugfs)
		snprintf(note, sizeof(note), "; %.200s sets %s = %" PRId64 ", which this kernel "
			 "does not have (5.13 moved it to debugfs): that entry has no effect",
			 sys.where, SYSCTL_KEY, sys.ns);
	if (!t->readable)
		snprintf(t->origin, sizeof(t->origin), "unknown: the value cannot be read%s%s%s",
			 tuned.set ? "; " : "", tuned.set ? tuned.where : "",
			 tuned.set ? " asks for a value" : "");
	else if (tuned.set && tuned.ns == v)
		snprintf(t->origin, sizeof(t->origin), "set by %.200s: %s = %" PRId64 "%.300s",
			 tuned.where, TUNED_KEY, tuned.ns, note);
	else if (sys.set && !t->debugfs && sys.ns == v)
		snprintf(t->origin, sizeof(t->origin), "set by %s: %s = %" PRId64, sys.where,
			 SYSCTL_KEY, sys.ns);
	else if (tuned.set)
		snprintf(t->origin, sizeof(t->origin), "changed at run time: %.200s asks for %"
			 PRId64 " ns, the kernel holds %" PRId64 " ns%.300s", tuned.where, tuned.ns, v,
			 note);
	else if (v == MT_KERNEL_DEFAULT_MIGRATION_COST_NS)
		snprintf(t->origin, sizeof(t->origin), "the kernel's default (no sysctl.d entry "
			 "or TuneD profile sets it)%s", note);
	else
		snprintf(t->origin, sizeof(t->origin), "changed at run time: not the kernel's "
			 "default, and no sysctl.d entry or TuneD profile here sets it%s", note);
}

void tunable_probe_knob_at(const char *root, const struct tunable_knob *k, struct tunable *t)
{
	char mode[64], sysctl[256];
	bool real;
	int err;

	memset(t, 0, sizeof(*t));
	t->knob = k;
	snprintf(t->root, sizeof(t->root), "%s", root ? root : "");
	real = !t->root[0];
	t->value_ns = k->kernel_default;
	t->assumed = true;
	snprintf(t->source, sizeof(t->source), "kernel default, assumed: tunable not readable");

	if (k->sysctl)
		snprintf(sysctl, sizeof(sysctl), "%s/proc/sys/%s", t->root, k->sysctl);
	if (k->sysctl && access(sysctl, F_OK) == 0) {
		snprintf(t->path, sizeof(t->path), "%s", sysctl);
		t->exists = true;
	} else {
		snprintf(t->path, sizeof(t->path), "%s%s/sched/%s", t->root, DEBUGFS_DIR,
			 k->debugfs);
		t->debugfs = true;
		if (real && !debugfs_mounted() && geteuid() == 0)
			mount("debugfs", DEBUGFS_DIR, "debugfs", 0, NULL);
		if (real && !debugfs_mounted()) {
			snprintf(t->why, sizeof(t->why),
				 "debugfs is not mounted at %s and could not be mounted%s",
				 DEBUGFS_DIR, geteuid() ? " (run as root)" : "");
			goto out;
		}
		t->exists = true;
	}

	err = read_value(t->path, &t->value_ns);
	if (err) {
		t->value_ns = k->kernel_default;
		lockdown_mode(t->root, mode, sizeof(mode));
		if (err == -EPERM && mode[0] && strcmp(mode, "none") != 0)
			snprintf(t->why, sizeof(t->why), "%s: EPERM, kernel lockdown is '%s'",
				 t->path, mode);
		else if (err == -EPERM)
			snprintf(t->why, sizeof(t->why),
				 "%s: EPERM even as root: debugfs is locked down on this kernel "
				 "(lockdown or debugfs= boot option)", t->path);
		else if (err == -ENOENT)
			snprintf(t->why, sizeof(t->why), "%s does not exist (%s?)", t->path,
				 k->absent);
		else
			snprintf(t->why, sizeof(t->why), "%s: %s", t->path, strerror(-err));
		goto out;
	}
	t->readable = true;
	t->assumed = false;
	snprintf(t->source, sizeof(t->source), "read from %s", t->path);
	/* Writable only as root and where the file lets us; probed without writing. */
	t->writable = access(t->path, W_OK) == 0 && geteuid() == 0;
	if (!t->writable)
		snprintf(t->why, sizeof(t->why), "%s is readable but not writable%s", t->path,
			 geteuid() ? " (run as root)" : "");
out:
	describe_origin(t);
}

void tunable_probe_at(const char *root, struct tunable *t)
{
	tunable_probe_knob_at(root, TUNABLE_MIGRATION_COST, t);
}

void tunable_probe(struct tunable *t)
{
	tunable_probe_at(NULL, t);
}

int tunable_write(const struct tunable *t, int64_t ns)
{
	const struct tunable_knob *k = t->knob ? t->knob : TUNABLE_MIGRATION_COST;
	FILE *f;
	int err = 0;

	if (!t->exists)
		return -ENOENT;
	if ((ns < 0 && t->debugfs) || ns < k->min || ns > k->max)
		return -ERANGE;	/* a u32 since 5.13: "always hot" (-1) cannot be expressed */
	f = fopen(t->path, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%" PRId64 "\n", ns) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int tunable_set(struct tunable *t, int64_t ns)
{
	int64_t back = -1;
	int err = tunable_write(t, ns);

	if (err) {
		fprintf(stderr, "migtrace: writing %" PRId64 " to %s failed: %s\n", ns, t->path,
			err != -ERANGE ? strerror(-err) : t->knob != TUNABLE_MIGRATION_COST ?
			"out of the knob's range" :
			"it is a u32 on this kernel (-1 cannot be written)");
		return err;
	}
	err = read_value(t->path, &back);
	if (err || back != ns) {
		fprintf(stderr, "migtrace: wrote %" PRId64 " to %s but read back %s%" PRId64 "%s\n",
			ns, t->path, err ? "nothing (" : "", err ? (int64_t)0 : back,
			err ? ")" : ": the kernel did not take the value");
		return err ? err : -EIO;
	}
	t->value_ns = ns;
	return 0;
}

void tunable_record(const struct tunable *t, struct tunable_state *s)
{
	s->value_ns = t->value_ns;
	s->assumed = t->assumed;
	s->readable = t->readable;
	s->writable = t->writable;
	snprintf(s->path, sizeof(s->path), "%s", t->path);
	snprintf(s->source, sizeof(s->source), "%s", t->source);
	snprintf(s->why, sizeof(s->why), "%s", t->why);
	snprintf(s->origin, sizeof(s->origin), "%s", t->origin);
}

static void record_path(const char *root, const struct tunable_knob *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s/%s", root, RECORD_DIR, k->record);
}

/* When pid started, in clock ticks since boot (/proc/PID/stat's 22nd field), or 0 when it
 * cannot be read: with the pid, it tells a record's migtrace from a process that reused its
 * pid after a kill -9. */
static unsigned long long start_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* after "(comm) ", which may hold spaces: fields 3 to 21, then starttime */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %*s %llu", &ticks) != 1)
		return 0;
	return ticks;
}

/* Whether the migtrace that wrote rec still runs: its pid alive and, where the record says
 * when it started, started then. */
static bool record_holder_alive(const struct tunable_record *rec)
{
	if (rec->pid <= 0 || (kill(rec->pid, 0) && errno != EPERM))
		return false;
	return !rec->started || start_ticks(rec->pid) == rec->started;
}

int tunable_record_read(const char *root, struct tunable_record *rec)
{
	return tunable_record_read_knob(root, TUNABLE_MIGRATION_COST, rec);
}

int tunable_record_read_knob(const char *root, const struct tunable_knob *k,
			     struct tunable_record *rec)
{
	char path[600];
	long long v;
	unsigned long long started = 0;
	int pid;
	FILE *f;
	int n;

	record_path(root ? root : "", k, path, sizeof(path));
	if (!(f = fopen(path, "r")))
		return -errno;
	/* "started" and "values" are absent from the records of migtraces before they were
	 * written */
	n = fscanf(f, "path %255s\noriginal_ns %lld\npid %d\nstarted %llu\n", rec->path, &v, &pid,
		   &started);
	rec->nvalues = 0;
	if (n == 4 && fscanf(f, "values") == 0) {
		long long x;

		while (rec->nvalues < TUNABLE_RECORD_VALUES && fscanf(f, " %lld", &x) == 1)
			rec->values[rec->nvalues++] = x;
	}
	fclose(f);
	if (n != 3 && n != 4) {
		fprintf(stderr, "migtrace: %s is not a restore record migtrace wrote: remove it "
			"after checking the tunable's value by hand\n", path);
		return -EINVAL;
	}
	rec->original_ns = v;
	rec->pid = pid;
	rec->started = started;
	return 0;
}

/* The record exists already: one line saying whose it is and what to do.  -EBUSY while the
 * migtrace that wrote it runs, -EEXIST when it was killed (or -errno of reading it). */
static int refuse_held(const char *root, const struct tunable_knob *k)
{
	struct tunable_record old;
	int err = tunable_record_read_knob(root, k, &old);
	char path[600], v[48];
	bool alive;

	if (err)
		return err;
	record_path("", k, path, sizeof(path));
	tunable_fmt(k, old.original_ns, v, sizeof(v));
	alive = record_holder_alive(&old);
	if (alive)
		fprintf(stderr, "migtrace: %s: another migtrace (pid %d) is sweeping %s (its "
			"original value %s recorded); nothing was changed: wait for it to end\n",
			path, (int)old.pid, old.path, v);
	else
		fprintf(stderr, "migtrace: %s: a killed migtrace (pid %d) changed %s and recorded "
			"its original value %s; run `migtrace sweep --restore` to put it back\n",
			path, (int)old.pid, old.path, v);
	return alive ? -EBUSY : -EEXIST;
}

/* Writes text to a new file beside path, then links it to path: the record appears whole,
 * and only when none is there (link(2) fails with EEXIST), so that of two sweeps started
 * together exactly one holds the tunable.  0, -EEXIST, or -errno. */
static int record_create(const char *path, const char *text)
{
	char tmp[700];
	size_t len = strlen(text);
	int fd, err = 0;

	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	errno = 0;
	if (write(fd, text, len) != (ssize_t)len || fsync(fd))
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err && link(tmp, path))
		err = -errno;
	unlink(tmp);
	return err;
}

static void record_text(const struct tunable *t, const int64_t *values, int nvalues,
			char *buf, size_t len)
{
	int n = snprintf(buf, len, "path %s\noriginal_ns %" PRId64 "\npid %d\nstarted %llu\n"
			 "values", t->path, t->value_ns, (int)getpid(), start_ticks(getpid()));

	for (int i = 0; i < nvalues && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, " %" PRId64, values[i]);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "\n");
}

int tunable_guard_begin(struct tunable *t, const int64_t *values, int nvalues)
{
	char path[600], dir[600], text[1400];
	int64_t now_ns;
	int err;

	snprintf(dir, sizeof(dir), "%s/run", t->root);
	mkdir(dir, 0755);	/* there on every system; not in a fake tree */
	snprintf(dir, sizeof(dir), "%s%s", t->root, RECORD_DIR);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "migtrace: cannot create %s for the restore record: %s\n", dir,
			strerror(-err));
		return err;
	}
	record_path(t->root, t->knob, path, sizeof(path));
	/* A holder that ends between our link and our read of its record leaves the way free:
	 * try again, a few times. */
	for (int attempt = 0; attempt < 3; attempt++) {
		record_text(t, values, nvalues, text, sizeof(text));
		err = record_create(path, text);
		if (err != -EEXIST)
			break;
		err = refuse_held(t->root, t->knob);
		if (err != -ENOENT)
			return err;
	}
	if (err == -ENOENT) {
		fprintf(stderr, "migtrace: %s: other migtraces kept taking and releasing the "
			"tunable; nothing was changed: try again\n", path);
		return -EBUSY;
	}
	if (err) {
		fprintf(stderr, "migtrace: writing the restore record %s failed: %s; nothing was "
			"changed\n", path, strerror(-err));
		return err;
	}
	/*
	 * t's value was read before the record was ours: another sweep may have held the
	 * tunable then and restored it since.  What the kernel holds now is the original.
	 */
	err = read_value(t->path, &now_ns);
	if (err) {
		fprintf(stderr, "migtrace: %s: cannot read it again after writing the restore "
			"record: %s\n", t->path, strerror(-err));
	} else if (now_ns != t->value_ns) {
		t->value_ns = now_ns;
		record_text(t, values, nvalues, text, sizeof(text));
		err = atomic_write_file(path, text, strlen(text));	/* says why it failed */
	}
	if (err)
		unlink(path);	/* nothing was changed: nothing to restore */
	return err;
}

/* Whether the tunable's value now is one the sweep of rec could have left: the original, or
 * a value it set (a record without its values: anything). */
static bool left_by_sweep(const struct tunable_record *rec, int64_t now_ns)
{
	if (!rec->nvalues || now_ns == rec->original_ns)
		return true;
	for (int i = 0; i < rec->nvalues; i++)
		if (rec->values[i] == now_ns)
			return true;
	return false;
}

static int restore_record(const char *root, const struct tunable_knob *k,
			  const struct tunable_record *rec, bool force)
{
	struct tunable t;
	char path[600], now[48], orig[48];
	int err;

	tunable_probe_knob_at(root, k, &t);
	if (strcmp(t.path, rec->path) != 0) {
		fprintf(stderr, "migtrace: the restore record names %s, but the tunable is at %s "
			"now: set it by hand\n", rec->path, t.path);
		return -EINVAL;
	}
	/* someone set it after the kill: writing the original over that would undo them */
	if (!force && t.readable && !t.assumed && !left_by_sweep(rec, t.value_ns)) {
		tunable_fmt(k, t.value_ns, now, sizeof(now));
		tunable_fmt(k, rec->original_ns, orig, sizeof(orig));
		fprintf(stderr, "migtrace: %s holds %s, neither the original %s the record keeps "
			"nor a value the killed sweep set: someone set it since; left as it is "
			"(`migtrace sweep --restore --force` writes %s over it)\n", t.path, now,
			orig, orig);
		return -EEXIST;
	}
	err = tunable_set(&t, rec->original_ns);
	if (err)
		return err;
	record_path(root, k, path, sizeof(path));
	if (unlink(path) && errno != ENOENT) {
		err = -errno;
		fprintf(stderr, "migtrace: restored %s, but removing %s failed: %s\n", rec->path,
			path, strerror(-err));
		return err;
	}
	return 0;
}

int tunable_guard_restore(struct tunable *t)
{
	struct tunable_record rec;
	int err = tunable_record_read_knob(t->root, t->knob, &rec);

	if (err)
		return err;
	/* only what this migtrace set: another's record is its own to restore */
	if (rec.pid != getpid()) {
		fprintf(stderr, "migtrace: the restore record is migtrace pid %d's, not this one's "
			"(pid %d): left to it; check %s\n", (int)rec.pid, (int)getpid(), rec.path);
		return -EPERM;
	}
	err = restore_record(t->root, t->knob, &rec, true);	/* our own: always ours to undo */
	if (!err)
		t->value_ns = rec.original_ns;
	return err;
}

/* One knob's record, if there is one: 0 when there was nothing to restore. */
static int restore_knob(const char *root, const struct tunable_knob *k, bool force)
{
	struct tunable_record rec;
	int err = tunable_record_read_knob(root, k, &rec);

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (rec.pid != getpid() && record_holder_alive(&rec)) {
		fprintf(stderr, "migtrace: the migtrace that changed %s (pid %d) is still running: "
			"stop it (it restores the value itself) rather than racing it\n", rec.path,
			(int)rec.pid);
		return -EBUSY;
	}
	return restore_record(root, k, &rec, force);
}

int tunable_restore_from_record(const char *root, bool force)
{
	int first = 0;

	/* every knob's, whatever one of them says: each is undone on its own */
	for (int i = 0; i < tunable_nknobs; i++) {
		int err = restore_knob(root ? root : "", &tunable_knobs[i], force);

		if (err && !first)
			first = err;
	}
	return first;
}

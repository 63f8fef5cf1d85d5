// SPDX-License-Identifier: GPL-2.0
/*
 * The rules besides task_hot()'s age that decide a pull, read from the host (docs/design.md,
 * "When the threshold does not govern"):
 *   sched_ext      /sys/kernel/sched_ext/{state,switch_all,root/ops}: a BPF scheduler has
 *                  the tasks, and the fair class (task_hot() with it) is not asked;
 *   NUMA balancing /proc/sys/kernel/numa_balancing and the nodes: migrate_degrades_locality()
 *                  decides a pull across nodes before the age does;
 *   core scheduling PR_SCHED_CORE_GET: a cookie anywhere makes task_hot() call a task hot
 *                  when the destination core runs another cookie;
 *   cache-aware    task_struct.preferred_llc in the kernel's BTF: can_migrate_task() may
 *   balancing      refuse a pull out of the task's preferred LLC before task_hot().
 * Every path is taken under a root so that the tests run all of this on a fake tree.
 */
#include <bpf/btf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btf.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "sched_rules.h"
#include "topology.h"

#define SCHED_EXT_POLICY 7		/* SCHED_EXT, include/uapi/linux/sched.h (6.12) */
#define RESET_ON_FORK 0x40000000	/* SCHED_RESET_ON_FORK, or-ed into a policy */
#define LLC_MEMBER "preferred_llc"	/* CONFIG_SCHED_CACHE's member of task_struct */

/* One line of ROOT/REL, newline stripped; -errno. */
static int read_text(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return sysfs_read_line(path, buf, len);
}

static int read_long(const char *root, const char *rel, long *v)
{
	char buf[64];
	int err = read_text(root, rel, buf, sizeof(buf));

	return err ? err : parse_long(buf, LONG_MIN, LONG_MAX, v);
}

/*
 * The value of "name : value" in ROOT/proc/TID/sched (tid 0: self), as
 * proc_sched_show_task() prints it.  -ESRCH: no such task; -ENOENT: no such line.
 */
static int sched_line(const char *root, pid_t tid, const char *name, long long *v)
{
	char path[512], line[256];
	size_t n = strlen(name);
	int err = -ENOENT;
	FILE *f;

	if (tid)
		snprintf(path, sizeof(path), "%s/proc/%d/sched", root, (int)tid);
	else
		snprintf(path, sizeof(path), "%s/proc/self/sched", root);
	if (!(f = fopen(path, "r")))
		return -ESRCH;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + n;

		if (strncmp(line, name, n) || (*p != ' ' && *p != ':'))
			continue;
		p += strspn(p, " ");
		if (*p == ':' && sscanf(p + 1, "%lld", v) == 1)
			err = 0;
		break;
	}
	fclose(f);
	return err;
}

/*
 * PR_SCHED_CORE_GET for tid (0: this thread): 0 with *cookie (0: none), -EINVAL on a kernel
 * without CONFIG_SCHED_CORE, -ENODEV when no core has SMT siblings, -ESRCH when the task is
 * gone.  A fake root answers as the kernel would from its files: no core_cookie line in the
 * task's sched file (not built), then smt/active 0 (no SMT).
 */
static int core_cookie(const char *root, pid_t tid, unsigned long long *cookie)
{
	long long v;
	long smt;
	int err;

	if (!root[0]) {
		*cookie = 0;
		if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, tid, PR_SCHED_CORE_SCOPE_THREAD,
			  (unsigned long)cookie))
			return -errno;
		return 0;
	}
	err = sched_line(root, tid, "core_cookie", &v);
	if (err)
		return err == -ENOENT ? -EINVAL : err;
	if (!read_long(root, "/sys/devices/system/cpu/smt/active", &smt) && !smt)
		return -ENODEV;
	*cookie = (unsigned long long)v;
	return 0;
}

/* tid's scheduling policy, without the reset-on-fork flag; -errno.  A fake root: its line. */
static int task_policy(const char *root, pid_t tid)
{
	long long v;
	int p, err;

	if (!root[0]) {
		p = sched_getscheduler(tid);
		return p < 0 ? -errno : p & ~RESET_ON_FORK;
	}
	err = sched_line(root, tid, "policy", &v);
	return err ? err : (int)(v & ~RESET_ON_FORK);
}

/* The state of sched_ext: "" when the kernel has none (no /sys/kernel/sched_ext). */
static void probe_scx(const char *root, struct run_sched_rules *s)
{
	long v;

	s->scx_switch_all = -1;
	if (read_text(root, "/sys/kernel/sched_ext/state", s->scx_state, sizeof(s->scx_state)))
		s->scx_state[0] = '\0';
	/* root/ops is there while a scheduler is loaded */
	if (read_text(root, "/sys/kernel/sched_ext/root/ops", s->scx_ops, sizeof(s->scx_ops)))
		s->scx_ops[0] = '\0';
	if (!read_long(root, "/sys/kernel/sched_ext/switch_all", &v))
		s->scx_switch_all = v != 0;
}

/* An entry of /proc or /sys named by a number after prefix ("node3", "1234"). */
static bool numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || !name[n])
		return false;
	for (name += n; *name; name++)
		if (!isdigit((unsigned char)*name))
			return false;
	return true;
}

static void probe_numa(const char *root, struct run_sched_rules *s)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	long v;

	s->numa_balancing = read_long(root, "/proc/sys/kernel/numa_balancing", &v) ? -1 : (int)v;
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	if (!(dir = opendir(path)))
		return;
	while ((d = readdir(dir)))
		s->numa_nodes += numbered(d->d_name, "node");
	closedir(dir);
}

/*
 * Calls fn(root, tid, ctx) for each thread of process pid (pid 0: every thread of the
 * machine).  The threads of a process are the entries of ROOT/proc/PID/task; of the machine,
 * those of every ROOT/proc/PID.  Returns how many threads there were, or -errno when pid's (or
 * /proc's) directory cannot be listed.
 */
static int each_thread(const char *root, pid_t pid, void (*fn)(const char *, pid_t, void *),
		       void *ctx)
{
	char path[512];
	struct dirent *d;
	int n = 0, err;
	DIR *dir;

	if (pid)
		snprintf(path, sizeof(path), "%s/proc/%d/task", root, (int)pid);
	else
		snprintf(path, sizeof(path), "%s/proc", root);
	if (!(dir = opendir(path)))
		return -errno;
	while ((d = readdir(dir))) {
		if (!numbered(d->d_name, ""))
			continue;
		if (pid) {
			fn(root, (pid_t)atoi(d->d_name), ctx);
			n++;
		} else if ((err = each_thread(root, (pid_t)atoi(d->d_name), fn, ctx)) > 0) {
			n += err;	/* a process that ended meanwhile has no threads left */
		}
	}
	closedir(dir);
	return n;
}

static void count_cookie(const char *root, pid_t tid, void *ctx)
{
	unsigned long long cookie;

	if (!core_cookie(root, tid, &cookie) && cookie)
		(*(int *)ctx)++;
}

static void probe_core(const char *root, struct run_sched_rules *s)
{
	unsigned long long cookie;
	int err = core_cookie(root, 0, &cookie);

	s->core_cookie_tasks = -1;
	s->core_sched = err == -EINVAL ? RUN_CORE_NOT_BUILT : err == -ENODEV ? RUN_CORE_NO_SMT :
			!err ? RUN_CORE_AVAILABLE : RUN_CORE_NOT_CHECKED;
	if (s->core_sched != RUN_CORE_AVAILABLE)
		return;
	/* one cookie anywhere turns core scheduling on for every core (run.c, run_rules_core) */
	s->core_cookie_tasks = 0;
	if (each_thread(root, 0, count_cookie, &s->core_cookie_tasks) < 0)
		s->core_cookie_tasks = -1;
}

/*
 * Whether the BTF blob at p (size bytes) holds the string LLC_MEMBER: 1 or 0, -1 when it is
 * no BTF.  Each string of the section follows the NUL of the one before (the first is ""),
 * so the name as a whole string is "\0" LLC_MEMBER "\0".
 */
static int btf_has_llc_string(const unsigned char *p, size_t size)
{
	static const char whole[] = "\0" LLC_MEMBER;	/* and its terminating NUL */
	const struct btf_header *h = (const void *)p;
	size_t off, len;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len > size)
		return -1;
	off = (size_t)h->hdr_len + h->str_off;
	len = h->str_len;
	if (off > size || len > size - off)
		return -1;
	return memmem(p + off, len, whole, sizeof(whole)) != NULL;
}

/* libbpf's parse of path: whether struct task_struct has member name. */
static enum run_btf_member btf_parse_member(const char *path, const char *name, int *err)
{
	enum run_btf_member found = RUN_BTF_NOT_CHECKED;
	const struct btf_member *m;
	const struct btf_type *t;
	struct btf *btf;
	int id;

	btf = btf__parse(path, NULL);
	if (!btf) {
		*err = -errno;
		return found;
	}
	*err = 0;
	id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	if (id < 0) {
		*err = id;
		goto out;
	}
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	found = RUN_BTF_ABSENT;
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), name))
			found = RUN_BTF_PRESENT;
out:
	btf__free(btf);
	return found;
}

/*
 * Whether task_struct has LLC_MEMBER in ROOT/sys/kernel/btf/vmlinux.  A name no string of the
 * BTF holds is no member of any type: mapping the file and searching its strings settles the
 * usual answer without parsing it.  A name found is confirmed by libbpf's parse, and so is a
 * file that cannot be mapped when full.
 */
static enum run_btf_member probe_llc(const char *root, bool full, int *err)
{
	enum run_btf_member found = RUN_BTF_NOT_CHECKED;
	void *map = MAP_FAILED;
	char path[512];
	struct stat st;
	int fd, has;

	*err = 0;
	snprintf(path, sizeof(path), "%s/sys/kernel/btf/vmlinux", root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		*err = -errno;
		goto out;
	}
	if (st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		has = -1;
		*err = st.st_size > 0 ? -errno : -ENODATA;
	} else if ((has = btf_has_llc_string(map, (size_t)st.st_size)) < 0) {
		*err = -EINVAL;
	}
	if (!has)
		found = RUN_BTF_ABSENT;
	else if (has > 0 || full)
		found = btf_parse_member(path, LLC_MEMBER, err);
out:
	if (map != MAP_FAILED)
		munmap(map, (size_t)st.st_size);
	if (fd >= 0)
		close(fd);
	return found;
}

/*
 * Cache-aware scheduling's knobs, debugfs sched/llc_balancing/ (7.2); -1 each that cannot be
 * read (no such kernel, debugfs not mounted, or locked down).
 */
static void probe_llc_knobs(const char *root, struct run_llc_knobs *k)
{
	static const struct {
		const char *name;
		size_t off;
	} knobs[] = {
		{ "enabled", offsetof(struct run_llc_knobs, enabled) },
		{ "aggr_tolerance", offsetof(struct run_llc_knobs, aggr_tolerance) },
		{ "imb_pct", offsetof(struct run_llc_knobs, imb_pct) },
		{ "overaggr_pct", offsetof(struct run_llc_knobs, overaggr_pct) },
		{ "epoch_period", offsetof(struct run_llc_knobs, epoch_period) },
		{ "epoch_affinity_timeout", offsetof(struct run_llc_knobs, epoch_affinity_timeout) },
	};

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		char rel[96];
		long v;
		int *to = (int *)((char *)k + knobs[i].off);

		snprintf(rel, sizeof(rel), "%s/%s", SCHED_LLC_KNOBS, knobs[i].name);
		*to = !read_long(root, rel, &v) && v >= 0 && v <= INT_MAX ? (int)v : -1;
	}
}

void sched_rules_probe(const char *root, bool btf_full, struct run_sched_rules *s,
		       int *btf_err)
{
	int err;

	if (!root)
		root = "";
	memset(s, 0, sizeof(*s));
	s->checked = true;
	probe_scx(root, s);
	probe_numa(root, s);
	probe_core(root, s);
	s->preferred_llc = probe_llc(root, btf_full, &err);
	probe_llc_knobs(root, &s->llc);
	if (btf_err)
		*btf_err = err;
}

struct traced {
	struct run_sched_rules *s;
	bool cookies;		/* core scheduling is available: look for them */
};

static void check_traced(const char *root, pid_t tid, void *ctx)
{
	struct traced *t = ctx;
	unsigned long long cookie;

	t->s->traced_tasks++;
	t->s->traced_ext_tasks += task_policy(root, tid) == SCHED_EXT_POLICY;
	if (t->cookies && !core_cookie(root, tid, &cookie) && cookie)
		t->s->traced_cookie_tasks++;
}

void sched_rules_probe_tasks(const char *root, pid_t pid, struct run_sched_rules *s)
{
	struct traced t = { .s = s, .cookies = s->core_sched == RUN_CORE_AVAILABLE };

	if (!root)
		root = "";
	s->traced_tasks = s->traced_ext_tasks = s->traced_cookie_tasks = 0;
	if (each_thread(root, pid, check_traced, &t) < 0)
		check_traced(root, pid, &t);
}

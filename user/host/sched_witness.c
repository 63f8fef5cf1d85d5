// SPDX-License-Identifier: GPL-2.0
/* The kernel's witnesses of a sweep's runs (sched_witness.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "sched_witness.h"
#include "sweep.h"

#define WITNESS_TASKS 4096	/* traced tasks whose sched files are followed */
/* sched_schedstats' original while a sweep has it on (the tunable's record is tunable.c's) */
#define SCHEDSTATS_RECORD "/run/migtrace/sched_schedstats.restore"
#define SCHEDSTATS_SYSCTL "/proc/sys/kernel/sched_schedstats"

static void rooted(const char *root, const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", root ? root : "", rel);
}

/* A whole small file into a NUL-terminated buffer.  Bytes read or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

static int write_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n != (ssize_t)strlen(s))
		err = n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

void schedstats_hold_begin(struct schedstats_hold *h, const char *root)
{
	char path[512], rec[512], buf[32];
	int err;

	h->root = root;
	h->orig = -1;
	h->set = false;
	rooted(root, SCHEDSTATS_SYSCTL, path, sizeof(path));
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return;
	h->orig = atoi(buf);
	if (h->orig == 1)
		return;
	/* Its own record beside the tunable's, so that --restore undoes a kill -9 too. */
	rooted(root, SCHEDSTATS_RECORD, rec, sizeof(rec));
	snprintf(buf, sizeof(buf), "%d\n", h->orig);
	if (atomic_write_file(rec, buf, strlen(buf))) {
		fprintf(stderr, "migtrace sweep: schedstats left as they are (%d): no record of "
			"them could be written\n", h->orig);
		return;
	}
	err = write_text(path, "1\n");
	if (err) {
		fprintf(stderr, "migtrace sweep: cannot enable schedstats (%s: %s): the kernel's "
			"witnesses are not read\n", path, strerror(-err));
		unlink(rec);
	} else {
		h->set = true;
	}
}

/* sched_schedstats back to orig, and its record removed once it is.  0 or -errno. */
static int schedstats_put_back(const char *root, int orig)
{
	char path[512], rec[512], buf[16];
	int err;

	rooted(root, SCHEDSTATS_SYSCTL, path, sizeof(path));
	rooted(root, SCHEDSTATS_RECORD, rec, sizeof(rec));
	snprintf(buf, sizeof(buf), "%d\n", orig);
	err = write_text(path, buf);
	if (err) {
		fprintf(stderr, "migtrace sweep: restoring %s to %d failed: %s; run `sysctl "
			"kernel.sched_schedstats=%d` as root\n", path, orig, strerror(-err), orig);
		return err;
	}
	unlink(rec);
	return 0;
}

void schedstats_hold_end(struct schedstats_hold *h)
{
	if (!h->set)
		return;
	schedstats_put_back(h->root, h->orig);
	h->set = false;
}

int schedstats_restore_from_record(const char *root)
{
	char rec[512], buf[32];
	int err;

	rooted(root, SCHEDSTATS_RECORD, rec, sizeof(rec));
	if (read_text(rec, buf, sizeof(buf)) <= 0)
		return 0;
	err = schedstats_put_back(root, atoi(buf));
	if (err)
		return err;
	fprintf(stderr, "migtrace sweep: --restore: kernel.sched_schedstats back to %d\n",
		atoi(buf));
	return 1;
}

bool schedstat_readable(const char *root)
{
	char path[512];

	rooted(root, "/proc/schedstat", path, sizeof(path));
	return !access(path, R_OK);
}

bool schedstat_read_hot_gained(const char *root, uint64_t *v)
{
	static char buf[1 << 18];
	char path[512];

	rooted(root, "/proc/schedstat", path, sizeof(path));
	return read_text(path, buf, sizeof(buf)) > 0 && !sweep_parse_schedstat(buf, v);
}

int proc_stat_cpu_times(const struct cpu_set_list *cpus, struct sweep_cputime *ct)
{
	static char buf[1 << 18];

	if (read_text("/proc/stat", buf, sizeof(buf)) <= 0)
		return -EIO;
	return sweep_parse_proc_stat(buf, cpus && cpus->n ? cpus : NULL, ct);
}

struct sched_witness {
	pthread_t thread;
	volatile int stop;
	bool started;
	int pgid;
	int ntasks;
	struct { int tid; uint64_t failed_hot, forced; } task[WITNESS_TASKS];
};

static int proc_pgrp(int pid)
{
	char path[64], buf[512], *p;
	int pgrp = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	/* after "(comm) ", which may hold spaces: state, ppid, pgrp */
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %*d %d", &pgrp) == 1)
		return pgrp;
	return -1;
}

static void witness_task(struct sched_witness *w, int pid, int tid)
{
	char path[96], buf[8192];
	uint64_t fh, fo;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	if (read_text(path, buf, sizeof(buf)) <= 0 || sweep_parse_task_sched(buf, &fh, &fo))
		return;
	for (i = 0; i < w->ntasks && w->task[i].tid != tid; i++)
		;
	if (i == w->ntasks) {
		if (w->ntasks == WITNESS_TASKS)
			return;
		w->ntasks++;
		w->task[i].tid = tid;
	}
	w->task[i].failed_hot = fh;
	w->task[i].forced = fo;
}

static void witness_scan(struct sched_witness *w)
{
	DIR *d = opendir("/proc"), *td;
	struct dirent *e, *te;
	char path[64];

	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid = atoi(e->d_name);

		if (pid <= 0 || proc_pgrp(pid) != w->pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		if (!td)
			continue;
		while ((te = readdir(td)))
			if (atoi(te->d_name) > 0)
				witness_task(w, pid, atoi(te->d_name));
		closedir(td);
	}
	closedir(d);
}

static void *witness_main(void *arg)
{
	struct sched_witness *w = arg;
	struct timespec ts = { 0, SWEEP_WITNESS_PERIOD_MS * 1000000L };

	while (!w->stop) {
		witness_scan(w);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct sched_witness *sched_witness_new(void)
{
	return calloc(1, sizeof(struct sched_witness));
}

int sched_witness_start(struct sched_witness *w, int pgid)
{
	sigset_t all, old;
	int err;

	w->pgid = pgid;
	/* signals are migtrace's main thread's to handle */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&w->thread, NULL, witness_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	w->started = !err;
	return -err;
}

bool sched_witness_stop(struct sched_witness *w, uint64_t *failed_hot, uint64_t *forced)
{
	if (!w->started)
		return false;
	w->stop = 1;
	pthread_join(w->thread, NULL);
	w->started = false;
	for (int i = 0; i < w->ntasks; i++) {
		*failed_hot += w->task[i].failed_hot;
		*forced += w->task[i].forced;
	}
	return w->ntasks > 0;
}

void sched_witness_free(struct sched_witness *w)
{
	free(w);
}

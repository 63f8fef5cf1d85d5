// SPDX-License-Identifier: GPL-2.0
/*
 * The masks' guard (mask_guard.h).  Its messages are fixed-size records, each written whole
 * in one write() (well under PIPE_BUF, so never split); it keeps the masks held in a small
 * table.  It is forked before any thread of migtrace exists (no lock it inherited can be
 * held), and is single-threaded itself.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"
#include "mask_guard.h"

/* The masks held at once: the mover holds one; room for a few more. */
#define GUARD_MAX_HELD 64

struct guard_msg {
	char op;			/* 'h' hold, 'r' release, 'd' dismissed */
	struct mask_hold h;		/* 'h': what is held; 'r': h.tid */
};

int mask_guard_start_time(pid_t tid, uint64_t *start_time)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = 0;
	/* comm may hold spaces and parentheses: the fields start after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	/* field 3 (state) follows ") "; the start time is field 22 */
	for (field = 2; field < 22 && *p; p++)
		if (*p == ' ')
			field++;
	*start_time = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		*start_time = *start_time * 10 + (uint64_t)(*p - '0');
	return field == 22 ? 0 : -EINVAL;
}

/* Whether task id's mask is exactly {cpu}: the narrowed one. */
static bool narrowed_to(pid_t id, int cpu)
{
	cpu_set_t now;

	return cpu >= 0 && cpu < CPU_SETSIZE && !sched_getaffinity(id, sizeof(now), &now) &&
	       CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now);
}

/* Every thread of process pid narrowed to h->cpu (except h->tid), and its children's, since. */
static int sweep_process(const struct mask_hold *h, pid_t pid, bool forked, int depth)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (depth > 8 || !(dir = opendir(path)))
		return 0;
	while ((d = readdir(dir))) {
		pid_t tid = (pid_t)atoi(d->d_name);
		uint64_t st;
		int child;
		FILE *f;

		if (tid <= 0 || mask_guard_start_time(tid, &st))
			continue;
		/* in a process it forked, every thread is its; in its own, those started since */
		if (tid != h->tid && (forked || st >= h->since_ticks) && narrowed_to(tid, h->cpu) &&
		    !sched_setaffinity(tid, sizeof(h->mask), &h->mask))
			n++;
		/* the processes forked since: by the moved thread, or (in a process it forked)
		 * by any thread */
		if (!forked && tid != h->tid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)tid);
		if (!(f = fopen(path, "re")))
			continue;
		while (fscanf(f, "%d", &child) == 1)
			if (!mask_guard_start_time(child, &st) && st >= h->since_ticks)
				n += sweep_process(h, child, true, depth + 1);
		fclose(f);
	}
	closedir(dir);
	return n;
}

int mask_guard_sweep(const struct mask_hold *h)
{
	return sweep_process(h, h->tgid, false, 0);
}

/* Gives every mask still held back to its thread, if the thread is the one it was and its
 * mask still the narrowed one, and to what it started meanwhile. */
static void restore_all(struct mask_hold *held)
{
	for (int i = 0; i < GUARD_MAX_HELD; i++) {
		uint64_t st;

		if (!held[i].tid)
			continue;
		if (!mask_guard_start_time(held[i].tid, &st) && st == held[i].start_time &&
		    narrowed_to(held[i].tid, held[i].cpu))
			sched_setaffinity(held[i].tid, sizeof(held[i].mask), &held[i].mask);
		mask_guard_sweep(&held[i]);
		held[i].tid = 0;
	}
}

static void hold(struct mask_hold *held, const struct mask_hold *h)
{
	int free_at = -1;

	for (int i = 0; i < GUARD_MAX_HELD; i++) {
		if (held[i].tid == h->tid)
			return;		/* held again: the mask first noted is the one to give back */
		if (!held[i].tid && free_at < 0)
			free_at = i;
	}
	if (free_at >= 0)
		held[free_at] = *h;
}

static void release(struct mask_hold *held, pid_t tid)
{
	for (int i = 0; i < GUARD_MAX_HELD; i++)
		if (held[i].tid == tid)
			held[i].tid = 0;
}

/* The guard's life: detached from migtrace's session, reads messages until 'd' or EOF. */
static void guard_main(int fd)
{
	static struct mask_hold held[GUARD_MAX_HELD];
	struct guard_msg m;
	ssize_t n;

	launch_guard_detach(fd);
	for (;;) {
		n = read(fd, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(m))
			break;		/* EOF: migtrace ended without dismissing the guard */
		if (m.op == 'd')
			break;
		if (m.op == 'h')
			hold(held, &m.h);
		else if (m.op == 'r')
			release(held, m.h.tid);
	}
	restore_all(held);
	_exit(0);
}

int mask_guard_start(struct mask_guard *g)
{
	int p[2], err;

	g->pid = -1;
	g->fd = -1;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	g->pid = fork();
	if (g->pid == 0)
		guard_main(p[0]);
	err = errno;
	close(p[0]);
	if (g->pid < 0) {
		close(p[1]);
		return -err;
	}
	g->fd = p[1];
	return 0;
}

static int send_msg(struct mask_guard *g, const struct guard_msg *m)
{
	ssize_t n;

	do {
		n = write(g->fd, m, sizeof(*m));
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*m) ? 0 : n < 0 ? -errno : -EIO;
}

int mask_guard_hold(struct mask_guard *g, const struct mask_hold *h)
{
	struct guard_msg m = { .op = 'h', .h = *h };

	return g->fd < 0 ? -EBADF : send_msg(g, &m);
}

int mask_guard_release(struct mask_guard *g, pid_t tid)
{
	struct guard_msg m = { .op = 'r', .h.tid = tid };

	return g->fd < 0 ? -EBADF : send_msg(g, &m);
}

void mask_guard_stop(struct mask_guard *g)
{
	struct guard_msg m = { .op = 'd' };

	if (g->pid <= 0)
		return;
	send_msg(g, &m);	/* a guard already gone has restored what it held */
	close(g->fd);
	waitpid(g->pid, NULL, 0);
	g->pid = -1;
	g->fd = -1;
}

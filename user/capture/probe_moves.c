// SPDX-License-Identifier: GPL-2.0
/*
 * The mover of run --probe-moves (probe_moves.h).  One thread, which owns everything below
 * until probe_mover_finish() joins it.
 *
 * Whom it draws.  Once a second it lists the workload's processes (the root and its
 * descendants, as the programs trace them) and their threads, and keeps the threads that ran
 * since the last listing: a thread that sleeps for minutes (a server's housekeeping) would
 * hold its narrowed mask without ever running, measuring nothing.  A moment draws one of
 * them at random; then, only if it is asleep now (state S or D) and its mask is the
 * workload's, a fair coin decides move or sham.  Every check is made before the coin, so
 * that both arms are drawn from the same moments.
 *
 * The budget.  Each move is charged PROBE_CHARGE_NS; a move is made only while the moves'
 * charge stays within max_share of the CPU time the workload used since probing began.
 *
 * A move.  The mask first goes to the guard, then is narrowed to the new CPU; the mover
 * polls the thread (every PROBE_POLL_NS) until it has run on that CPU, up to
 * PROBE_HOLD_MAX_NS, and gives the mask back.  A mask given back to a running thread does not
 * move it: it stays where it runs.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "clock.h"
#include "mask_guard.h"
#include "probe_moves.h"
#include "splitmix.h"
#include "tracer.h"

#define PROBE_POLL_NS 1000000ULL	/* 1 ms between looks at a moved thread */
#define PROBE_LIST_NS 1000000000ULL	/* the workload's threads listed again every 1 s */
#define PROBE_MAX_PROCS 4096		/* processes of the workload followed */
#define PROBE_MAX_ARMS 256		/* arms remembered, to take back */
/* An arm whose thread has not run to a block this long after is taken back: the programs
 * then stop looking the map up for it (bpf/migtrace.bpf.c, probe_armed). */
#define PROBE_ARM_MAX_NS (PROBE_HOLD_MAX_NS + 1000000000ULL)
#define PROBE_UNIT_TIDS 8192		/* threads with a unit since the listing: a hash set,
					 * at most half full */
#define PROBE_DRAWS 4			/* threads drawn at a moment to find one asleep */
#define PROBE_PENDING 256		/* moments whose next unit has not come yet */

/* A thread as /proc shows it. */
struct thread_stat {
	char state;			/* R, S, D, ... */
	int cpu;			/* the CPU it last ran on (field 39) */
	uint64_t cpu_ticks;		/* utime + stime, clock ticks */
	uint64_t start_time;		/* clock ticks since boot (field 22) */
	uint64_t runs;			/* times it was switched in (schedstat's third field;
					 * its CPU ticks where schedstat is missing) */
};

struct proc_seen {
	pid_t pid;
	uint64_t start_time;		/* /proc's field 22: the pid names this process */
	uint64_t first_ticks;		/* its CPU time when first listed */
	uint64_t last_ticks;		/* and at the last listing */
};

struct candidate {
	pid_t tid, tgid;
	uint64_t runs;			/* thread_stat.runs at the listing */
	bool ran;			/* it ran since the listing before (drawn from) */
};

struct probe_mover {
	struct probe_mover_opts o;
	struct mask_guard guard;
	cpu_set_t reference;		/* the workload's mask */
	pthread_t thread;
	bool started;
	volatile bool stop;		/* set by probe_mover_finish, read by the mover */
	uint64_t rng;
	/* the workload's processes, and the threads that ran since the listing before */
	struct proc_seen *procs;
	size_t nprocs, pcap;
	struct candidate *cands, *prev;	/* every thread, at this listing and the one before */
	size_t ncands, ccap, nprev, prevcap, nran;
	uint64_t listed_ns;
	double workload_cpu_s;		/* since probing began */
	uint64_t traced_from_ticks;	/* when the mover was made, in /proc's start-time ticks */
	uint64_t gone_ticks;		/* CPU time of the processes that exited, ticks */
	uint64_t charged_ns;
	/* what it did */
	struct probe_moment *moments;
	size_t nmoments, mcap;
	int err;			/* the first failure: -ENOMEM */
	struct {
		uint32_t tid;		/* 0: none */
		uint64_t ts_ns;
	} arms[PROBE_MAX_ARMS];
	size_t narms;
	/* a run with units: the threads that ran one since the listing, from the record
	 * stream's thread (probe_mover_saw_unit), under unit_lock */
	pthread_mutex_t unit_lock;
	bool by_units;
	pid_t unit_tids[PROBE_UNIT_TIDS];
	size_t nunit_tids;
	int npending;
	/* the moments still waiting for their thread's next unit (tid 0: a free entry) */
	struct {
		pid_t tid;
		uint32_t kind;
		uint64_t ts_ns;
	} pending[PROBE_PENDING];
	pid_t ran_tids[PROBE_UNIT_TIDS];	/* the mover's copy, at a listing */
};

/* /proc/PID/task/TID/stat (or /proc/PID/stat with tid 0): 0, or -errno. */
static int read_stat(pid_t pid, pid_t tid, struct thread_stat *ts)
{
	char path[96], buf[1024], *p;
	unsigned long long v[40] = { 0 };
	FILE *f;
	int field = 3, n;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!n || !(p = strrchr(buf, ')')))
		return -EINVAL;
	p += 2;
	ts->state = *p;
	for (p += 1; *p && field < 40; field++) {
		while (*p == ' ')
			p++;
		v[field] = strtoull(p, &p, 10);
	}
	if (field < 40)
		return -EINVAL;
	/* v[k] is field k + 1 of proc(5): field 14 utime, 15 stime, 22 starttime, 39 processor */
	ts->cpu_ticks = v[13] + v[14];
	ts->start_time = v[21];
	ts->cpu = (int)v[38];
	ts->runs = ts->cpu_ticks;
	if (tid) {
		unsigned long long run_ns, wait_ns, runs;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
		if ((f = fopen(path, "re"))) {
			if (fscanf(f, "%llu %llu %llu", &run_ns, &wait_ns, &runs) == 3)
				ts->runs = runs;
			fclose(f);
		}
	}
	return 0;
}

static bool known_proc(const struct probe_mover *pm, pid_t pid)
{
	for (size_t i = 0; i < pm->nprocs; i++)
		if (pm->procs[i].pid == pid)
			return true;
	return false;
}

/* A process newly seen among the workload's: its CPU time counts from here. */
static int add_proc(struct probe_mover *pm, pid_t pid, const struct thread_stat *ts)
{
	if (known_proc(pm, pid) || pm->nprocs >= PROBE_MAX_PROCS)
		return 0;
	if (array_grow((void **)&pm->procs, &pm->pcap, pm->nprocs, sizeof(*pm->procs), 64))
		return -ENOMEM;
	pm->procs[pm->nprocs++] = (struct proc_seen){ pid, ts->start_time, ts->cpu_ticks,
						      ts->cpu_ticks };
	return 0;
}

/*
 * The children of each thread of process pid (/proc's task/TID/children) into the list: those
 * started since tracing began, which the programs trace (they follow every fork of a traced
 * process; a child -p's process had already is not traced, and would be moved unmeasured).
 */
static int add_children(struct probe_mover *pm, pid_t pid)
{
	char path[96];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;	/* exited */
	while (!err && (d = readdir(dir))) {
		int child, tid = atoi(d->d_name);
		struct thread_stat ts;
		FILE *f;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, tid);
		if (!(f = fopen(path, "re")))
			continue;
		while (!err && fscanf(f, "%d", &child) == 1)
			if (!known_proc(pm, child) && !read_stat(child, 0, &ts) &&
			    ts.start_time >= pm->traced_from_ticks)
				err = add_proc(pm, child, &ts);
		fclose(f);
	}
	closedir(dir);
	return err;
}

/*
 * The workload's processes: the root and its descendants, found through each process's
 * children (a walk of the workload's own tree, not of every process on the machine).
 */
static int list_procs(struct probe_mover *pm)
{
	struct thread_stat ts;
	int err = 0;

	if (!read_stat(pm->o.root, 0, &ts))
		err = add_proc(pm, pm->o.root, &ts);
	/* the list grows as it is walked: each new process's children are looked at too */
	for (size_t i = 0; i < pm->nprocs && !err; i++)
		err = add_children(pm, pm->procs[i].pid);
	return err;
}

/* tid's slot in a hash set of PROBE_UNIT_TIDS thread ids (0: free), by linear probing. */
static size_t tid_slot(const pid_t *set, pid_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (PROBE_UNIT_TIDS - 1);

	while (set[i] && set[i] != tid)
		i = (i + 1) & (PROBE_UNIT_TIDS - 1);
	return i;
}

bool probe_mover_unit(struct probe_mover *pm, const struct mt_unit *u, struct mt_unit *probed)
{
	pid_t tid = (pid_t)u->pid;
	bool matched = false;
	size_t at;

	if (!pm || !pm->by_units || tid <= 0)
		return false;
	pthread_mutex_lock(&pm->unit_lock);
	at = tid_slot(pm->unit_tids, tid);
	if (!pm->unit_tids[at] && pm->nunit_tids < PROBE_UNIT_TIDS / 2) {
		pm->unit_tids[at] = tid;
		pm->nunit_tids++;
	}
	for (int i = 0; i < PROBE_PENDING && pm->npending && !matched; i++) {
		if (pm->pending[i].tid != tid || u->start_ns <= pm->pending[i].ts_ns)
			continue;
		*probed = *u;
		probed->kind = MT_REC_PROBE_UNIT;
		probed->tag = pm->pending[i].kind;
		probed->nominal_age_ns = pm->pending[i].ts_ns;
		pm->pending[i].tid = 0;
		pm->npending--;
		matched = true;
	}
	pthread_mutex_unlock(&pm->unit_lock);
	return matched;
}

/*
 * A run with units: a moment waits for its thread's next unit.  A thread with a moment still
 * waiting (drawn twice while it slept) keeps the first: its unit measures that one.
 */
static void pending_add(struct probe_mover *pm, const struct probe_moment *m)
{
	int free_at = -1;

	if (!pm->by_units)
		return;
	pthread_mutex_lock(&pm->unit_lock);
	for (int i = 0; i < PROBE_PENDING; i++) {
		/* a thread that ran no unit for 10 s since its moment: that moment has none */
		if (pm->pending[i].tid && pm->pending[i].ts_ns + 10000000000ULL < m->ts_ns) {
			pm->pending[i].tid = 0;
			pm->npending--;
		}
		if (pm->pending[i].tid == (pid_t)m->tid) {
			free_at = -2;
			break;
		}
		if (!pm->pending[i].tid && free_at == -1)
			free_at = i;
	}
	if (free_at >= 0) {
		pm->pending[free_at].tid = (pid_t)m->tid;
		pm->pending[free_at].kind = m->kind;
		pm->pending[free_at].ts_ns = m->ts_ns;
		pm->npending++;
	}
	pthread_mutex_unlock(&pm->unit_lock);
}

/* A moment that made no move after all (its thread gone, the kernel refusing): its thread's
 * next unit measures nothing. */
static void pending_drop(struct probe_mover *pm, pid_t tid, uint64_t ts_ns)
{
	if (!pm->by_units)
		return;
	pthread_mutex_lock(&pm->unit_lock);
	for (int i = 0; i < PROBE_PENDING; i++)
		if (pm->pending[i].tid == tid && pm->pending[i].ts_ns == ts_ns) {
			pm->pending[i].tid = 0;
			pm->npending--;
		}
	pthread_mutex_unlock(&pm->unit_lock);
}

/* Whether tid has a moment still waiting for its unit (units) or its run (an arm younger
 * than PROBE_ARM_MAX_NS): it is not drawn again meanwhile. */
static bool awaiting(struct probe_mover *pm, pid_t tid, uint64_t now)
{
	bool waiting = false;

	if (pm->by_units) {
		pthread_mutex_lock(&pm->unit_lock);
		for (int i = 0; i < PROBE_PENDING && pm->npending && !waiting; i++)
			waiting = pm->pending[i].tid == tid;
		pthread_mutex_unlock(&pm->unit_lock);
		return waiting;
	}
	for (size_t i = 0; i < PROBE_MAX_ARMS && !waiting; i++) {
		if (pm->arms[i].tid != (uint32_t)tid || pm->arms[i].ts_ns + PROBE_ARM_MAX_NS <= now)
			continue;
		/* still in the map: its run has not been sent */
		waiting = tracer_probe_armed(pm->o.tr, (uint32_t)tid) == 1;
		if (!waiting)
			pm->arms[i].tid = 0;
	}
	return waiting;
}

static int cmp_candidate(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The runs a thread had at the last listing (sorted by tid); UINT64_MAX when not listed. */
static uint64_t prev_runs(const struct probe_mover *pm, pid_t tid)
{
	struct candidate key = { .tid = tid };
	const struct candidate *c = pm->nprev ? bsearch(&key, pm->prev, pm->nprev,
							sizeof(key), cmp_candidate) : NULL;

	return c ? c->runs : UINT64_MAX;
}

/*
 * Lists the workload's threads again; those drawn from are the ones that ran since the last
 * listing (at the first listing, every thread).  The workload's CPU time is summed.
 */
static int list_threads(struct probe_mover *pm)
{
	struct candidate *swap;
	size_t swapcap, k = 0, nran = 0;
	uint64_t ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	bool first = !pm->listed_ns;
	pid_t *ran_tids = pm->ran_tids;
	int err = list_procs(pm);

	if (err)
		return err;
	if (pm->by_units) {
		pthread_mutex_lock(&pm->unit_lock);
		memcpy(ran_tids, pm->unit_tids, sizeof(pm->unit_tids));
		memset(pm->unit_tids, 0, sizeof(pm->unit_tids));
		pm->nunit_tids = 0;
		pthread_mutex_unlock(&pm->unit_lock);
	}
	swap = pm->prev;
	swapcap = pm->prevcap;
	pm->prev = pm->cands;
	pm->prevcap = pm->ccap;
	pm->nprev = pm->ncands;
	pm->cands = swap;
	pm->ccap = swapcap;
	for (size_t i = 0; i < pm->nprocs; i++) {
		struct proc_seen *ps = &pm->procs[i];
		struct thread_stat ts;
		char path[64];
		struct dirent *d;
		DIR *dir;

		/* an exited process: its CPU time is kept, its pid no longer followed (a new
		 * process may take it: then its start time differs) */
		if (read_stat(ps->pid, 0, &ts) || ts.start_time != ps->start_time) {
			pm->gone_ticks += ps->last_ticks - ps->first_ticks;
			pm->procs[i--] = pm->procs[--pm->nprocs];
			continue;
		}
		ps->last_ticks = ts.cpu_ticks;
		ticks += ps->last_ticks - ps->first_ticks;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)ps->pid);
		if (!(dir = opendir(path)))
			continue;	/* exited */
		while ((d = readdir(dir))) {
			pid_t tid = (pid_t)atoi(d->d_name);
			uint64_t before;
			bool ran;

			if (tid <= 0 || read_stat(ps->pid, tid, &ts))
				continue;
			before = prev_runs(pm, tid);
			ran = first || before == UINT64_MAX || ts.runs != before;
			if (pm->by_units)
				ran = ran_tids[tid_slot(ran_tids, tid)] == tid;
			if (array_grow((void **)&pm->cands, &pm->ccap, k, sizeof(*pm->cands), 64)) {
				closedir(dir);
				return -ENOMEM;
			}
			pm->cands[k++] = (struct candidate){ tid, ps->pid, ts.runs, ran };
			nran += ran;
		}
		closedir(dir);
	}
	pm->ncands = k;
	pm->nran = nran;
	/* the next listing looks each thread up in this one */
	qsort(pm->cands, k, sizeof(*pm->cands), cmp_candidate);
	pm->workload_cpu_s = hz > 0 ? (double)(ticks + pm->gone_ticks) / (double)hz : -1;
	pm->listed_ns = now_ns();
	return 0;
}

/* A uniform double in (0, 1]. */
static double uniform(struct probe_mover *pm)
{
	return ((double)(splitmix64_next(&pm->rng) >> 11) + 1.0) / 9007199254740992.0;
}

/* Sleeps up to ns, in steps short enough to see a stop. */
static void nap(struct probe_mover *pm, uint64_t ns)
{
	uint64_t until = now_ns() + ns;

	while (!pm->stop) {
		uint64_t now = now_ns(), step;
		struct timespec t;

		if (now >= until)
			return;
		step = until - now < 10000000ULL ? until - now : 10000000ULL;
		t.tv_sec = 0;
		t.tv_nsec = (long)step;
		nanosleep(&t, NULL);
	}
}

static int note(struct probe_mover *pm, const struct probe_moment *m)
{
	if (array_grow((void **)&pm->moments, &pm->mcap, pm->nmoments, sizeof(*m), 256))
		return -ENOMEM;
	pm->moments[pm->nmoments++] = *m;
	return 0;
}

/* by_runs: the thread's next run is timed, tagged with the moment. */
static void arm(struct probe_mover *pm, pid_t tid, uint64_t ts_ns, uint32_t kind)
{
	size_t at = pm->narms % PROBE_MAX_ARMS;

	if (!pm->o.setup->by_runs || !pm->o.tr)
		return;
	/* the slot's older arm, if still out, is taken back first */
	if (pm->arms[at].tid)
		tracer_probe_arm(pm->o.tr, pm->arms[at].tid, 0, 0);
	pm->arms[at].tid = 0;
	if (!tracer_probe_arm(pm->o.tr, (uint32_t)tid, ts_ns, kind)) {
		pm->arms[at].tid = (uint32_t)tid;
		pm->arms[at].ts_ns = ts_ns;
		pm->narms++;
	}
}

/* Takes back the arms out longer than PROBE_ARM_MAX_NS at now (UINT64_MAX: all of them):
 * a thread that has not run to a block since is not coming (asleep, or gone). */
static void disarm_old(struct probe_mover *pm, uint64_t now)
{
	for (size_t i = 0; i < PROBE_MAX_ARMS && pm->o.tr; i++) {
		if (!pm->arms[i].tid || (now != UINT64_MAX &&
					 pm->arms[i].ts_ns + PROBE_ARM_MAX_NS > now))
			continue;
		tracer_probe_arm(pm->o.tr, pm->arms[i].tid, 0, 0);	/* -ENOENT: it came */
		pm->arms[i].tid = 0;
	}
}

/* A moment that made no move after all: no unit or run of its thread measures it. */
static void unmeasured(struct probe_mover *pm, const struct probe_moment *m)
{
	pending_drop(pm, (pid_t)m->tid, m->ts_ns);
	if (pm->o.setup->by_runs && pm->o.tr)
		tracer_probe_arm(pm->o.tr, m->tid, 0, 0);
}

/* A CPU of the reference mask other than src, at random; -1 when there is none. */
static int other_cpu(struct probe_mover *pm, int src)
{
	int n = CPU_COUNT(&pm->reference) - (src >= 0 && CPU_ISSET(src, &pm->reference));
	int pick, cpu;

	if (n < 1)
		return -1;
	pick = (int)(splitmix64_next(&pm->rng) % (uint64_t)n);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &pm->reference) || cpu == src)
			continue;
		if (!pick--)
			return cpu;
	}
	return -1;
}

/* Clock ticks since boot, as /proc's start times count them. */
static uint64_t boot_ticks(void)
{
	struct timespec t;
	long hz = sysconf(_SC_CLK_TCK);

	clock_gettime(CLOCK_BOOTTIME, &t);
	return hz > 0 ? ((uint64_t)t.tv_sec * (uint64_t)hz +
			 (uint64_t)t.tv_nsec / (1000000000ULL / (uint64_t)hz)) : 0;
}

/* tid's mask back to mask if it is still the narrowed one: 1 given back, 0 not its (the
 * workload set its own meanwhile), -errno. */
static int give_back(pid_t tid, const cpu_set_t *narrowed, const cpu_set_t *mask)
{
	cpu_set_t now;

	if (sched_getaffinity(tid, sizeof(now), &now))
		return -errno;
	if (!CPU_EQUAL(&now, narrowed))
		return 0;
	return sched_setaffinity(tid, sizeof(*mask), mask) ? -errno : 1;
}

/*
 * A move: the mask to the guard, narrowed to dst, held until the thread ran there (or for
 * PROBE_HOLD_MAX_NS), given back.
 */
static void move(struct probe_mover *pm, struct probe_moment *m, const struct thread_stat *ts,
		 const cpu_set_t *mask)
{
	struct probe_setup *s = pm->o.setup;
	struct mask_hold h = { .tid = (pid_t)m->tid, .tgid = (pid_t)m->tgid, .cpu = m->dst_cpu,
			       .start_time = ts->start_time, .since_ticks = boot_ticks(),
			       .mask = *mask };
	uint64_t t0;
	cpu_set_t one;
	int rc;

	CPU_ZERO(&one);
	CPU_SET(m->dst_cpu, &one);
	if (mask_guard_hold(&pm->guard, &h)) {
		m->outcome = PROBE_GONE;	/* no guard, no move */
		unmeasured(pm, m);
		return;
	}
	arm(pm, m->tid, m->ts_ns, MT_PROBE_MOVE);
	if (sched_setaffinity(m->tid, sizeof(one), &one)) {
		m->outcome = PROBE_GONE;
		unmeasured(pm, m);
		mask_guard_release(&pm->guard, m->tid);
		return;
	}
	s->masks_narrowed++;
	pm->charged_ns += PROBE_CHARGE_NS;
	t0 = now_ns();
	m->outcome = PROBE_NOT_RUN;
	for (;;) {
		struct thread_stat now;

		if (read_stat(m->tgid, m->tid, &now)) {
			m->outcome = PROBE_GONE;
			break;
		}
		/* switched in since, on the new CPU: the only one its mask allows */
		if (now.cpu == m->dst_cpu && now.runs != ts->runs) {
			m->outcome = PROBE_DONE;
			break;
		}
		if (now_ns() - t0 >= PROBE_HOLD_MAX_NS || pm->stop)
			break;
		nap(pm, PROBE_POLL_NS);
	}
	m->held_ns = now_ns() - t0;
	/* a mask the workload set itself meanwhile is its own: left as it set it */
	rc = give_back(m->tid, &one, mask);
	if (rc == 1)
		s->masks_restored++;
	else if (rc == 0)
		s->masks_workload_set++;
	else if (rc == -ESRCH)
		m->outcome = PROBE_GONE;
	/* refused otherwise: the guard keeps it, and tries again when migtrace ends */
	if (rc >= 0 || rc == -ESRCH)
		mask_guard_release(&pm->guard, m->tid);
	s->masks_inherited += (uint64_t)mask_guard_sweep(&h);
}

/* One moment: a thread drawn, checked, and moved or left. */
static int moment(struct probe_mover *pm)
{
	struct probe_setup *s = pm->o.setup;
	struct probe_moment m = { .dst_cpu = -1 };
	const struct candidate *c = NULL;
	struct thread_stat ts;
	cpu_set_t mask;
	int tries;

	if (!pm->nran)
		return 0;
	s->drawn++;
	/* up to PROBE_DRAWS threads at random until one is asleep: a busy server's threads are
	 * mostly running, and a moment that finds one awake measures nothing (the state alone
	 * decides, before the coin) */
	disarm_old(pm, now_ns());
	for (tries = 0; tries < PROBE_DRAWS; tries++) {
		size_t pick = splitmix64_next(&pm->rng) % pm->nran;

		for (c = pm->cands; !c->ran || pick--; c++)
			;
		/* a thread whose last moment still waits for its unit is not drawn again */
		if (!read_stat(c->tgid, c->tid, &ts) && (ts.state == 'S' || ts.state == 'D') &&
		    !awaiting(pm, c->tid, now_ns()))
			break;
	}
	if (tries == PROBE_DRAWS) {
		s->skipped_awake++;
		return 0;
	}
	if (sched_getaffinity(c->tid, sizeof(mask), &mask))
		return 0;
	if (!CPU_EQUAL(&mask, &pm->reference)) {
		s->skipped_narrowed++;
		return 0;
	}
	if (other_cpu(pm, ts.cpu) < 0) {
		s->skipped_one_cpu++;
		return 0;
	}
	/* a move only while its charge fits in the share of the workload's CPU time; checked
	 * before the coin, so that a spent share leaves out shams and moves alike */
	if ((double)(pm->charged_ns + PROBE_CHARGE_NS) / 1e9 > s->max_share * pm->workload_cpu_s) {
		s->skipped_budget++;
		return 0;
	}
	m.tid = (uint32_t)c->tid;
	m.tgid = (uint32_t)c->tgid;
	m.src_cpu = ts.cpu;
	if (splitmix64_next(&pm->rng) & 1) {
		m.kind = MT_PROBE_MOVE;
		m.dst_cpu = other_cpu(pm, ts.cpu);
		m.ts_ns = now_ns();
		pending_add(pm, &m);
		move(pm, &m, &ts, &mask);
		s->moves++;
	} else {
		m.kind = MT_PROBE_SHAM;
		m.ts_ns = now_ns();
		pending_add(pm, &m);
		arm(pm, m.tid, m.ts_ns, MT_PROBE_SHAM);
		s->shams++;
	}
	return note(pm, &m);
}

static void *mover_main(void *arg)
{
	struct probe_mover *pm = arg;

	while (!pm->stop && !pm->err) {
		/* Poisson moments: exponential gaps */
		nap(pm, (uint64_t)(-log(uniform(pm)) / pm->o.setup->rate_hz * 1e9));
		if (pm->stop)
			break;
		if (now_ns() - pm->listed_ns >= PROBE_LIST_NS)
			pm->err = list_threads(pm);
		if (!pm->err)
			pm->err = moment(pm);
	}
	return NULL;
}

struct probe_mover *probe_mover_new(const struct probe_mover_opts *o)
{
	struct probe_mover *pm = calloc(1, sizeof(*pm));
	int err;

	if (!pm) {
		fprintf(stderr, "migtrace run: --probe-moves: no memory for the mover\n");
		return NULL;
	}
	pm->o = *o;
	pm->rng = o->setup->seed;
	pm->by_units = !o->setup->by_runs;
	pm->traced_from_ticks = boot_ticks();
	pthread_mutex_init(&pm->unit_lock, NULL);
	CPU_ZERO(&pm->reference);
	if (o->cpus && o->cpus->n) {
		for (int i = 0; i < o->cpus->n; i++)
			if (o->cpus->cpu[i] >= 0 && o->cpus->cpu[i] < CPU_SETSIZE)
				CPU_SET(o->cpus->cpu[i], &pm->reference);
	} else if (sched_getaffinity(o->root, sizeof(pm->reference), &pm->reference)) {
		fprintf(stderr, "migtrace run: --probe-moves: reading the CPU mask of %d "
			"failed: %s\n", (int)o->root, strerror(errno));
		free(pm);
		return NULL;
	}
	err = mask_guard_start(&pm->guard);
	if (err) {
		fprintf(stderr, "migtrace run: --probe-moves: starting the guard of the masks "
			"failed: %s\n", strerror(-err));
		free(pm);
		return NULL;
	}
	return pm;
}

int probe_mover_go(struct probe_mover *pm)
{
	int err = pthread_create(&pm->thread, NULL, mover_main, pm);

	if (err) {
		fprintf(stderr, "migtrace run: --probe-moves: starting the mover failed: %s\n",
			strerror(err));
		return -err;
	}
	pm->started = true;
	return 0;
}

int probe_mover_finish(struct probe_mover *pm, struct run *r)
{
	int err = 0;

	if (!pm)
		return 0;
	pm->stop = true;
	if (pm->started)
		pthread_join(pm->thread, NULL);
	/* the runs of the threads that did not run again are not coming */
	disarm_old(pm, UINT64_MAX);
	mask_guard_stop(&pm->guard);
	pm->o.setup->workload_cpu_s = pm->workload_cpu_s;
	err = pm->err;
	if (err)
		fprintf(stderr, "migtrace run: --probe-moves: the mover stopped early: %s\n",
			strerror(-err));
	for (size_t i = 0; i < pm->nmoments && r; i++)
		if (!err)
			err = run_record_add_moment(r, &pm->moments[i]);
	free(pm->moments);
	free(pm->procs);
	free(pm->cands);
	free(pm->prev);
	pthread_mutex_destroy(&pm->unit_lock);
	free(pm);
	return err;
}

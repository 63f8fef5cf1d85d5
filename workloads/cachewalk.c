// SPDX-License-Identifier: GPL-2.0
/*
 * cachewalk: threads that walk their own working set in timed units, so that the refill
 * cost of a migration shows up as a slower first unit.
 *
 * A unit is one pass of dependent loads over a random cyclic permutation of the working
 * set's cache lines (pointer chasing: the prefetcher cannot hide a miss), writing each line
 * (dirty, as in the 2004 calibration).  Each unit is timed here, with CLOCK_MONOTONIC (the
 * clock of migtrace's records), and when migtrace launched us it is appended to the unit log
 * migtrace passed (workloads/unit_log.h): no probe, no trap, tens of ns per unit.  The unit
 * function stays a real, probe-able function for --unit.
 *
 * Natural mode: each thread sleeps (fixed, uniform or exponential), then runs a burst of
 * units; the scheduler decides where it wakes.  With --polluter, a SCHED_IDLE polluter per
 * CPU listed streams at its rate whenever that CPU has nothing else to run (it does not
 * catch up for the time a worker held the CPU), and the first unit after each sleep logs
 * the bytes the polluter on the CPU it left streamed meanwhile: a co-runner whose rate of
 * displacement is measured, not assumed.
 *
 * Controlled mode: one worker, warm on CPU A, then off-CPU for a chosen age while a
 * SCHED_IDLE polluter streams through A's cache at a set rate; a timer thread pinned to B
 * ends the wait: for the "migrate" arm it first sets the worker's affinity to B, so the
 * wake-up is a real migration seen by sched_migrate_task, for the "stay" arm it does not.
 * The timer also reads how many bytes the polluter streamed while the worker was away: the
 * displaced bytes the analysis measures the cost against (docs/design.md, "Displaced
 * bytes").  Ages, polluter rates (--rates) and arms are interleaved in a shuffled order,
 * each sample round visiting every cell once.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/types.h>

#include "cachewalk.h"
#include "migtrace.h"
#include "unit_log.h"

#define LINE 64

struct line {
	uint64_t next;		/* index of the next line of the cycle */
	uint64_t dirty;		/* written on every visit */
	char pad[LINE - 16];
};

struct walk {
	struct line *lines;
	uint64_t nlines;
};

/* The options, parsed by cachewalk_config.c: the same parser migtrace uses. */
static struct cachewalk_config opt;

static volatile int stopping;

/* migtrace's unit log, when it launched us with one; NULL otherwise. */
static struct mt_unit_log *unit_log;
static __thread uint32_t my_tid;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* xorshift64*: per-thread, seeded, no shared state. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double rnd01(uint64_t *s)
{
	return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

/* The unit: never inlined, so that --unit can still probe an entry and a return. */
__attribute__((noinline, used, visibility("default")))
uint64_t cachewalk_unit(struct walk *w, uint64_t tag, uint64_t nominal_age_ns)
{
	uint64_t i = 0;

	for (uint64_t k = 0; k < w->nlines; k++) {
		struct line *l = &w->lines[i];

		l->dirty++;
		i = l->next;
	}
	/* tag and age are for a probe on this function: keep them live in their registers */
	__asm__ volatile("" : : "r"(tag), "r"(nominal_age_ns), "r"(i) : "memory");
	return i;
}

static int walk_init(struct walk *w, uint64_t bytes, uint64_t seed)
{
	uint64_t n = bytes / LINE;

	if (n < 2)
		n = 2;
	w->nlines = n;
	w->lines = aligned_alloc(4096, ((n * LINE) + 4095) & ~4095ULL);
	if (!w->lines)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++)
		w->lines[i].next = i;
	/* Sattolo's shuffle: a single cycle through every line. */
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = rnd(&seed) % i, t = w->lines[i].next;

		w->lines[i].next = w->lines[j].next;
		w->lines[j].next = t;
	}
	return 0;
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * The unit log from the descriptor migtrace named in the environment.  Anything wrong with it
 * is said, and the workload runs on without it: migtrace then reports no units.
 */
static void unit_log_open(void)
{
	const char *env = getenv(MT_UNIT_LOG_ENV);
	struct mt_unit_log *log;
	struct stat st;
	char *end;
	long fd;

	if (!env)
		return;
	fd = strtol(env, &end, 10);
	if (*end || fd < 0 || fstat((int)fd, &st)) {
		fprintf(stderr, "cachewalk: %s=%s is not an open descriptor: units not logged\n",
			MT_UNIT_LOG_ENV, env);
		return;
	}
	log = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
	close((int)fd);
	if (log == MAP_FAILED) {
		fprintf(stderr, "cachewalk: mapping the unit log failed: %s: units not logged\n",
			strerror(errno));
		return;
	}
	if ((uint64_t)st.st_size < sizeof(*log) || log->magic != MT_UNIT_LOG_MAGIC ||
	    log->version != MT_UNIT_LOG_VERSION || log->slot_bytes != sizeof(log->slots[0]) ||
	    !log->nslots || (log->nslots & (log->nslots - 1)) ||
	    (uint64_t)st.st_size < mt_unit_log_bytes(log->nslots)) {
		fprintf(stderr, "cachewalk: the unit log is not version %d of this layout: units "
			"not logged\n", MT_UNIT_LOG_VERSION);
		munmap(log, (size_t)st.st_size);
		return;
	}
	unit_log = log;
}

static const struct mt_unit_trial no_trial;

/* One unit, timed and logged with what is known of its trial; its time in ns. */
static uint64_t unit(struct walk *w, uint64_t tag, const struct mt_unit_trial *trial)
{
	uint64_t t0 = now_ns(), t1;
	int cpu0, cpu1;

	/* the CPUs are read inside the timed span: a move between a clock read and a CPU
	 * read then lies inside the unit, which the join excludes */
	cpu0 = sched_getcpu();
	cachewalk_unit(w, tag, trial->nominal_age_ns);
	cpu1 = sched_getcpu();
	t1 = now_ns();
	if (unit_log) {
		if (!my_tid)
			my_tid = (uint32_t)syscall(SYS_gettid);
		mt_unit_log_put(unit_log, my_tid, (uint16_t)cpu0, (uint16_t)cpu1, t0, t1, tag,
				trial);
	}
	return t1 - t0;
}

/* For our own summary. */
struct unit_stats {
	uint64_t n;
	uint64_t sum_ns;
};

static void timed_unit(struct walk *w, uint64_t tag, const struct mt_unit_trial *trial,
		       struct unit_stats *st)
{
	st->sum_ns += unit(w, tag, trial);
	st->n++;
}

/* ---- polluter: SCHED_IDLE, so it only runs while the CPU has nothing else to do ---- */

/* The polluter streams this many bytes between two looks at its pace and its counter. */
#define POLLUTER_STEP 16384

struct polluter {
	int cpu;
	pthread_t th;
	uint64_t bytes;		/* streamed, for the summary */
	uint64_t ns;		/* over this long */
	uint64_t streamed;	/* bytes so far, read by the timer thread (relaxed atomics) */
};

/*
 * The pace every polluter keeps: target MB/s (0: as fast as it can), counted from the moment
 * it sees a new generation.  The controlled experiment sets a trial's rate and bumps the
 * generation before the worker leaves A, so each trial's budget starts when the worker does:
 * a polluter that could not run while the worker ran does not catch up in a burst.
 */
static struct {
	double target_mbps;
	unsigned gen;
} pace;

/*
 * Waits until the budget counted from *t0 at mbps covers done bytes.  Natural mode: a
 * polluter that fell behind by more than a step (it could not run: the CPU had a worker)
 * moves *t0 up instead of catching up in a burst, so that it streams at its rate whenever
 * it runs, and the bytes it streams while a worker sleeps are that rate times the sleep.
 * (The controlled experiment restarts the budget per trial, by generation.)
 */
static void pace_step(uint64_t *t0, uint64_t done, double mbps)
{
	double allowed = (double)(now_ns() - *t0) * mbps / 1e3;

	if (!opt.controlled && allowed > (double)(done + POLLUTER_STEP)) {
		*t0 = now_ns() - (uint64_t)((double)done * 1e3 / mbps);
		return;
	}
	while (!stopping && (double)(now_ns() - *t0) * mbps / 1e3 < (double)done)
		;
}

static void *polluter_main(void *arg)
{
	struct polluter *p = arg;
	struct sched_param sp = { 0 };
	uint64_t size = opt.polluter_bytes, lines, done = 0, t0, base = 0;
	unsigned gen = 0;
	double mbps;
	unsigned char *buf;

	pin_self(p->cpu);
	sched_setscheduler(0, SCHED_IDLE, &sp);
	/* a power of two, so that the scattered order is a permutation of the lines */
	while (size & (size - 1))
		size &= size - 1;
	buf = aligned_alloc(4096, size);
	if (!buf)
		return NULL;
	memset(buf, 1, size);
	lines = size / LINE;
	t0 = now_ns();
	__atomic_load(&pace.target_mbps, &mbps, __ATOMIC_RELAXED);
	for (uint64_t i = 0; !stopping; i++) {
		/*
		 * 256 lines (16 KiB) at a time, then wait for the rate to catch up.  The lines are
		 * visited in a scattered order (an odd multiplier permutes a power-of-two range):
		 * caches resist sequential scans, and a streaming polluter would barely evict.
		 */
		for (int k = 0; k < POLLUTER_STEP / LINE; k++, i++)
			buf[((i * 0x9E3779B1ULL) & (lines - 1)) * LINE]++;
		done += POLLUTER_STEP;
		__atomic_store_n(&p->streamed, done, __ATOMIC_RELAXED);
		if (__atomic_load_n(&pace.gen, __ATOMIC_ACQUIRE) != gen) {
			gen = __atomic_load_n(&pace.gen, __ATOMIC_ACQUIRE);
			__atomic_load(&pace.target_mbps, &mbps, __ATOMIC_RELAXED);
			p->ns += now_ns() - t0;
			t0 = now_ns();
			base = done;
		}
		if (mbps > 0)
			pace_step(&t0, done - base, mbps);
	}
	p->bytes = done;
	p->ns += now_ns() - t0;
	free(buf);
	return NULL;
}

static int start_polluters(struct polluter *p, int max)
{
	char list[256], *save = NULL;
	int n = 0;

	snprintf(list, sizeof(list), "%s", opt.polluter_cpus);
	for (char *tok = strtok_r(list, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
		p[n].cpu = atoi(tok);
		if (pthread_create(&p[n].th, NULL, polluter_main, &p[n]))
			return -1;
		n++;
	}
	return n;
}

/*
 * Keep-alive: a SCHED_IDLE spinner that touches no memory.  On a VM an idle vCPU may be
 * descheduled or moved by the host, and then its caches are no longer its own: keeping both
 * experiment CPUs busy at the lowest priority removes that from the measurement (a wake-up
 * preempts the spinner at once), without evicting anything.
 */
static void *keepalive_main(void *arg)
{
	struct sched_param sp = { 0 };
	unsigned long n = 0;

	pin_self(*(int *)arg);
	sched_setscheduler(0, SCHED_IDLE, &sp);
	while (!stopping)
		__asm__ volatile("" : "+r"(n));
	return NULL;
}

/* ---- natural mode ---- */

struct natural {
	pthread_t th;
	int idx;
	struct unit_stats st;
};

static uint64_t draw_sleep_ns(uint64_t *seed)
{
	double us;

	switch (opt.sleep_kind) {
	case CW_SLEEP_FIXED:
		us = opt.sleep_a_us;
		break;
	case CW_SLEEP_UNIFORM:
		us = opt.sleep_a_us + rnd01(seed) * (opt.sleep_b_us - opt.sleep_a_us);
		break;
	default:
		us = -opt.sleep_a_us * log(1.0 - rnd01(seed));
		break;
	}
	return (uint64_t)(us * 1000);
}

/* The polluters cachewalk started, to find the one on a CPU. */
static struct polluter *polluters;
static int npolluters;

static struct polluter *polluter_on(int cpu)
{
	for (int i = 0; i < npolluters; i++)
		if (polluters[i].cpu == cpu)
			return &polluters[i];
	return NULL;
}

static void *natural_main(void *arg)
{
	struct natural *nt = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(nt->idx + 1), end;
	struct walk w;

	if (walk_init(&w, opt.ws_bytes, seed))
		return NULL;
	for (int i = 0; i < 3; i++)
		unit(&w, CW_TAG_WARM, &no_trial);	/* fault the pages in */
	end = now_ns() + (uint64_t)(opt.duration_s * 1e9);
	while (!stopping && now_ns() < end) {
		/*
		 * What the polluter on the CPU this thread leaves streams until its next unit
		 * starts: the foreign bytes through the caches it left, logged with that unit
		 * as the controlled experiment logs a trial's (docs/design.md, "The natural
		 * co-runner").  The polluter cannot run while we do, so the count is still.
		 */
		struct polluter *left = polluter_on(sched_getcpu());
		struct mt_unit_trial trial = { .rate_mbps = (uint32_t)(opt.polluter_mbps + 0.5) };
		uint64_t at_sleep = left ? __atomic_load_n(&left->streamed, __ATOMIC_RELAXED) : 0;

		sleep_ns(draw_sleep_ns(&seed));
		if (left)
			trial.streamed_bytes = __atomic_load_n(&left->streamed, __ATOMIC_RELAXED) -
					       at_sleep;
		timed_unit(&w, CW_TAG_NATURAL, &trial, &nt->st);
		for (int b = 1; b < opt.burst; b++)
			timed_unit(&w, CW_TAG_NATURAL, &no_trial, &nt->st);
	}
	free(w.lines);
	return NULL;
}

/* Background load for natural mode: run 300 µs, sleep 700 µs. */
static void *load_main(void *arg)
{
	volatile uint64_t sink = 0;

	(void)arg;
	while (!stopping) {
		uint64_t stop = now_ns() + 300000;

		while (now_ns() < stop)
			sink++;
		sleep_ns(700000);
	}
	return NULL;
}

static int run_natural(void)
{
	struct natural *nt = calloc(opt.threads, sizeof(*nt));
	pthread_t load[64];
	uint64_t units = 0, sum = 0;

	if (!nt)
		return 1;
	for (int i = 0; i < opt.load_threads && i < 64; i++)
		pthread_create(&load[i], NULL, load_main, NULL);
	for (int i = 0; i < opt.threads; i++) {
		nt[i].idx = i;
		pthread_create(&nt[i].th, NULL, natural_main, &nt[i]);
	}
	for (int i = 0; i < opt.threads; i++) {
		pthread_join(nt[i].th, NULL);
		units += nt[i].st.n;
		sum += nt[i].st.sum_ns;
	}
	stopping = 1;
	for (int i = 0; i < opt.load_threads && i < 64; i++)
		pthread_join(load[i], NULL);
	printf("cachewalk: natural, %d threads, ws %llu KiB, %llu units, mean unit %.1f µs\n",
	       opt.threads, (unsigned long long)(opt.ws_bytes >> 10), (unsigned long long)units,
	       units ? (double)sum / (double)units / 1e3 : 0.0);
	free(nt);
	return 0;
}

/* ---- controlled mode ---- */

static struct {
	sem_t go, wake;
	pid_t worker_tid;
	uint64_t age_ns;
	int migrate;
	int quit;
	struct polluter *on_a;		/* the polluter streaming on A; NULL for none */
	uint64_t streamed_at_go;	/* its count when the worker left */
	uint64_t streamed_bytes;	/* what it streamed until the wake */
} timer;

static uint64_t streamed_on_a(void)
{
	return timer.on_a ? __atomic_load_n(&timer.on_a->streamed, __ATOMIC_RELAXED) : 0;
}

/*
 * Ends the worker's wait after the age; for the migrate arm, first moves it to B.  The bytes
 * the polluter streamed meanwhile are read just before the wake: what entered A's caches
 * while the worker was away.
 */
static void *timer_main(void *arg)
{
	cpu_set_t to_b;

	(void)arg;
	pin_self(opt.cpu_b);
	prctl(PR_SET_TIMERSLACK, 1UL);
	CPU_ZERO(&to_b);
	CPU_SET(opt.cpu_b, &to_b);
	for (;;) {
		sem_wait(&timer.go);
		if (timer.quit)
			return NULL;
		sleep_ns(timer.age_ns);
		timer.streamed_bytes = streamed_on_a() - timer.streamed_at_go;
		if (timer.migrate && sched_setaffinity(timer.worker_tid, sizeof(to_b), &to_b))
			perror("cachewalk: sched_setaffinity");
		sem_post(&timer.wake);
	}
}

/*
 * The round gate (workloads/unit_log.h): after round `done`, wait while migtrace has allowed
 * no more rounds and not said to end.  1: go on with the next round; 0: end the experiment.
 * The wait polls every millisecond: migtrace looks a few times a run and takes longer than
 * that to judge, and a futex on a memory file shared across two programs buys nothing here.
 */
static int gate_pass(uint32_t done)
{
	if (!unit_log || !__atomic_load_n(&unit_log->rounds_allowed, __ATOMIC_ACQUIRE))
		return 1;
	__atomic_store_n(&unit_log->rounds_done, done, __ATOMIC_RELEASE);
	while (!stopping) {
		if (__atomic_load_n(&unit_log->gate_end, __ATOMIC_ACQUIRE))
			return 0;
		if (__atomic_load_n(&unit_log->rounds_allowed, __ATOMIC_ACQUIRE) > done)
			return 1;
		sleep_ns(1000000);
	}
	return 0;
}

static int run_controlled(void)
{
	int nrates = opt.nrates ? opt.nrates : 1, ncell = opt.nages * nrates * 2;
	int ntrial = ncell * opt.samples, i;
	int *order = malloc(sizeof(int) * ntrial);
	struct unit_stats st[5] = { 0 };
	uint64_t seed = 0x5851f42d4c957f2dULL;
	pthread_t tth;
	struct walk w;

	if (!order || walk_init(&w, opt.ws_bytes, seed))
		return 1;
	sem_init(&timer.go, 0, 0);
	sem_init(&timer.wake, 0, 0);
	timer.worker_tid = (pid_t)syscall(SYS_gettid);
	if (pthread_create(&tth, NULL, timer_main, NULL))
		return 1;
	/* Interleave: every sample round visits every (age, arm) cell in a new order. */
	for (int s = 0; s < opt.samples; s++) {
		int *round = &order[s * ncell];

		for (int c = 0; c < ncell; c++)
			round[c] = c;
		for (int c = ncell - 1; c > 0; c--) {
			int j = (int)(rnd(&seed) % (uint64_t)(c + 1)), t = round[c];

			round[c] = round[j];
			round[j] = t;
		}
	}
	for (i = 0; i < ntrial && !stopping; i++) {
		int cell = order[i], migrate = cell % 2, age_i = (cell / 2) % opt.nages;
		double mbps = opt.nrates ? opt.rates_mbps[cell / 2 / opt.nages] : opt.polluter_mbps;
		struct mt_unit_trial trial = {
			.nominal_age_ns = opt.ages_ns[age_i], .round = (uint32_t)(i / ncell),
			.rate_mbps = (uint32_t)(mbps + 0.5),
		};

		pin_self(opt.cpu_a);	/* back on A: a migration too, followed by warm units */
		timed_unit(&w, CW_TAG_WARM, &no_trial, &st[CW_TAG_WARM]);
		timed_unit(&w, CW_TAG_WARM, &no_trial, &st[CW_TAG_WARM]);
		timed_unit(&w, CW_TAG_BASELINE, &no_trial, &st[CW_TAG_BASELINE]);
		timed_unit(&w, CW_TAG_BASELINE, &no_trial, &st[CW_TAG_BASELINE]);
		timer.age_ns = trial.nominal_age_ns;
		timer.migrate = migrate;
		__atomic_store(&pace.target_mbps, &mbps, __ATOMIC_RELAXED);
		__atomic_fetch_add(&pace.gen, 1, __ATOMIC_RELEASE);
		timer.streamed_at_go = streamed_on_a();
		sem_post(&timer.go);
		while (sem_wait(&timer.wake) && errno == EINTR)
			;
		trial.streamed_bytes = timer.streamed_bytes;
		timed_unit(&w, migrate ? CW_TAG_MIGRATED : CW_TAG_STAYED, &trial,
			   &st[migrate ? CW_TAG_MIGRATED : CW_TAG_STAYED]);
		if ((i + 1) % ncell == 0 && !gate_pass((uint32_t)((i + 1) / ncell))) {
			i++;
			break;
		}
	}
	timer.quit = 1;
	sem_post(&timer.go);
	pthread_join(tth, NULL);
	printf("cachewalk: controlled, CPU %d -> %d, ws %llu KiB, %d ages x %d rates x 2 arms x %d "
	       "rounds; mean unit: baseline %.1f µs, after migration %.1f µs, after same-CPU wake "
	       "%.1f µs\n", opt.cpu_a, opt.cpu_b, (unsigned long long)(opt.ws_bytes >> 10),
	       opt.nages, nrates, i / ncell,
	       st[CW_TAG_BASELINE].n ? (double)st[CW_TAG_BASELINE].sum_ns / st[CW_TAG_BASELINE].n / 1e3 : 0,
	       st[CW_TAG_MIGRATED].n ? (double)st[CW_TAG_MIGRATED].sum_ns / st[CW_TAG_MIGRATED].n / 1e3 : 0,
	       st[CW_TAG_STAYED].n ? (double)st[CW_TAG_STAYED].sum_ns / st[CW_TAG_STAYED].n / 1e3 : 0);
	free(order);
	free(w.lines);
	return 0;
}

/* ---- options ---- */

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
"usage: cachewalk [--threads N] [--ws SIZE] [--sleep fixed:US|uniform:LO-HI|exp:MEAN_US]\n"
"                 [--burst N] [--duration S] [--load N] [--polluter CPUS[:MBPS]]\n"
"       cachewalk --controlled [--ages US,US,...] [--samples N] [--from CPU --to CPU]\n"
"                 [--ws SIZE] [--polluter CPUS[:MBPS]] [--polluter-size SIZE]\n"
"                 [--rates MBPS,MBPS,...|max] [--no-keepalive]\n"
"  natural: N threads (default: one per allowed CPU) sleep, then run BURST units (3);\n"
"    a polluter on each CPU listed streams at MBPS while the CPU is free, and the first\n"
"    unit after each sleep logs the bytes it streamed meanwhile\n"
"  controlled: warm on --from, off-CPU for each age, then migrate to --to or stay\n"
"  defaults: --ws 256K, --sleep exp:2000, --duration 5, ages 50 µs .. 50 ms, 30 samples,\n"
"  a 4M polluter buffer (it evicts the L2; more than the L3 evicts that too)\n");
	exit(status);
}

int main(int argc, char **argv)
{
	struct polluter pol[16] = { 0 };
	cpu_set_t allowed;
	int npol = 0, rc, first = -1, second = -1, keep_cpu[2], nkeep = 0;
	pthread_t keep[2];
	char err[256];

	/* its summary lines are for a reader who may have gone (`validate | head -1`): the units
	 * went through the unit log, and a closed stdout must not end the experiment */
	signal(SIGPIPE, SIG_IGN);
	cachewalk_config_default(&opt);
	switch (cachewalk_config_parse(&opt, argc, argv, err, sizeof(err))) {
	case 0:
		break;
	case 1:
		usage(0);
		break;
	default:
		fprintf(stderr, "cachewalk: %s\n", err);
		return 2;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 1;
	unit_log_open();
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if (first < 0)
			first = cpu;
		else if (second < 0)
			second = cpu;
	}
	if (!opt.threads)
		opt.threads = CPU_COUNT(&allowed);
	if (opt.cpu_a < 0)
		opt.cpu_a = first;
	if (opt.cpu_b < 0)
		opt.cpu_b = second;
	if (opt.controlled && (opt.cpu_b < 0 || opt.cpu_a == opt.cpu_b)) {
		fprintf(stderr, "cachewalk: --controlled needs two CPUs (--from and --to)\n");
		return 2;
	}
	pace.target_mbps = opt.polluter_mbps;
	if (opt.polluter_cpus[0] && (npol = start_polluters(pol, 16)) < 0)
		return 1;
	polluters = pol;
	npolluters = npol;
	for (int i = 0; i < npol; i++)
		if (pol[i].cpu == opt.cpu_a)
			timer.on_a = &pol[i];
	if (opt.controlled && opt.keepalive) {
		char a[16];

		snprintf(a, sizeof(a), "%d", opt.cpu_a);
		keep_cpu[nkeep++] = opt.cpu_b;
		if (!strstr(opt.polluter_cpus, a))	/* a polluter keeps A busy already */
			keep_cpu[nkeep++] = opt.cpu_a;
		for (int i = 0; i < nkeep; i++)
			pthread_create(&keep[i], NULL, keepalive_main, &keep_cpu[i]);
	}
	rc = opt.controlled ? run_controlled() : run_natural();
	stopping = 1;
	for (int i = 0; i < npol; i++) {
		pthread_join(pol[i].th, NULL);
		printf("cachewalk: polluter on CPU %d streamed %.0f MB in %.2f s: %.0f MB/s on "
		       "average (target %s while it runs)\n", pol[i].cpu,
		       (double)pol[i].bytes / 1e6, (double)pol[i].ns / 1e9,
		       pol[i].ns ? (double)pol[i].bytes * 1e3 / (double)pol[i].ns : 0.0,
		       opt.nrates ? "per trial, --rates" : opt.polluter_mbps > 0 ? "fixed" :
		       "as fast as it can");
	}
	for (int i = 0; i < nkeep; i++)
		pthread_join(keep[i], NULL);
	return rc;
}

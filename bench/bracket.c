// SPDX-License-Identifier: GPL-2.0
/*
 * bracket: the two halves of bench/bpf/bracket.bpf.c, attached in the order the measurement
 * needs.  At start it attaches the open probes and says "opened"; the tool under test is
 * then attached (its probes come after ours on each tracepoint); SIGUSR1 attaches the close
 * probes and it says "closed"; SIGINT or SIGTERM ends it, and it prints, per event, the
 * brackets closed and the nanoseconds inside them as one JSON object.  Used by
 * bench/bench.py only.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_util.h"
#include "bracket.skel.h"

/* bench/bpf/bracket.bpf.c's per-CPU value */
struct br_cpu {
	unsigned long long opened_ns[2];
	unsigned long long sum_ns[2];
	unsigned long long events[2];
};

static volatile sig_atomic_t stop, close_now;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_close(int sig)
{
	(void)sig;
	close_now = 1;
}

static int attach(struct bpf_program *prog, struct bpf_link **link)
{
	*link = bpf_program__attach(prog);
	if (!*link) {
		fprintf(stderr, "bracket: attaching %s failed: %s\n", bpf_program__name(prog),
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The bracket's clock: a cpu-clock software event on every CPU (counting, never sampling),
 * read by the probes with bpf_perf_event_read_value().  fds[] keeps them open.  A CPU that
 * is offline has none, and its brackets never open.
 */
static int open_clocks(struct bracket_bpf *skel, int *fds, int ncpus)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	int opened = 0;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		fds[cpu] = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fds[cpu] < 0)
			continue;
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.clocks), &cpu, &fds[cpu], BPF_ANY)) {
			fprintf(stderr, "bracket: adding CPU %d's clock failed: %s\n", cpu,
				strerror(errno));
			return -1;
		}
		opened++;
	}
	if (!opened) {
		fprintf(stderr, "bracket: no cpu-clock perf event could be opened: %s (is "
			"kernel.perf_event_paranoid above 0 without root?)\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The per-CPU brackets summed and printed. */
static int print_totals(struct bracket_bpf *skel)
{
	static const char *const names[2] = { "switch", "migrate" };
	int ncpus = libbpf_num_possible_cpus();
	unsigned long long sum[2] = { 0 }, events[2] = { 0 };
	struct br_cpu *per_cpu = NULL;
	unsigned int zero = 0;
	int err = -1;

	if (ncpus <= 0 || !(per_cpu = calloc(ncpus, sizeof(*per_cpu)))) {
		fprintf(stderr, "bracket: no memory for %d CPUs' brackets\n", ncpus);
		goto out;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.brackets), &zero, per_cpu)) {
		fprintf(stderr, "bracket: reading the brackets failed: %s\n", strerror(errno));
		goto out;
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (int e = 0; e < 2; e++) {
			sum[e] += per_cpu[cpu].sum_ns[e];
			events[e] += per_cpu[cpu].events[e];
		}
	printf("{\"%s\": {\"events\": %llu, \"sum_ns\": %llu}, \"%s\": {\"events\": %llu, "
	       "\"sum_ns\": %llu}}\n", names[0], events[0], sum[0], names[1], events[1], sum[1]);
	err = 0;
out:
	free(per_cpu);
	return err;
}

int main(void)
{
	struct bpf_link *links[4] = { NULL };
	struct bracket_bpf *skel;
	int *clock_fds = NULL;
	sigset_t block, old;
	int err = 1, ncpus = 0;

	mt_libbpf_init(0);
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGUSR1, on_close);
	/* the signals wait in sigsuspend(), so none is lost between a test and the wait */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	skel = bracket_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bracket: loading bench/bpf/bracket.bpf.c failed: %s\n", strerror(errno));
		return 1;
	}
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0 || !(clock_fds = malloc((size_t)ncpus * sizeof(*clock_fds)))) {
		fprintf(stderr, "bracket: no room for the CPUs' clocks\n");
		goto out;
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		clock_fds[cpu] = -1;
	if (open_clocks(skel, clock_fds, ncpus))
		goto out;
	if (attach(skel->progs.br_open_switch, &links[0]) ||
	    attach(skel->progs.br_open_migrate, &links[1]))
		goto out;
	printf("opened\n");
	fflush(stdout);
	while (!stop && !close_now)
		sigsuspend(&old);
	if (!stop) {
		if (attach(skel->progs.br_close_switch, &links[2]) ||
		    attach(skel->progs.br_close_migrate, &links[3]))
			goto out;
		printf("closed\n");
		fflush(stdout);
	}
	while (!stop)
		sigsuspend(&old);
	for (int i = 3; i >= 0; i--)
		bpf_link__destroy(links[i]);
	memset(links, 0, sizeof(links));
	err = print_totals(skel) ? 1 : 0;
out:
	for (int i = 3; i >= 0; i--)
		bpf_link__destroy(links[i]);
	bracket_bpf__destroy(skel);
	for (int cpu = 0; clock_fds && cpu < ncpus; cpu++)
		if (clock_fds[cpu] >= 0)
			close(clock_fds[cpu]);
	free(clock_fds);
	return err;
}

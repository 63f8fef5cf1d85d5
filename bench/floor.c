// SPDX-License-Identifier: GPL-2.0
/*
 * floor: attaches bench/bpf/floor.bpf.c's empty programs, says "attached" on stdout, and waits
 * for SIGINT or SIGTERM; then prints each program's run count and run time as one JSON
 * object.  Used by bench/bench.py only.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bpf_util.h"
#include "floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(void)
{
	struct floor_bpf *skel;
	struct bpf_program *prog;
	const char *sep = "";
	int err;

	mt_libbpf_init(0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = floor_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "floor: loading bench/bpf/floor.bpf.c failed: %s\n", strerror(errno));
		return 1;
	}
	err = floor_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "floor: attaching failed: %s\n", strerror(-err));
		goto out;
	}
	printf("attached\n");
	fflush(stdout);
	while (!stop)
		pause();
	floor_bpf__detach(skel);
	printf("{");
	bpf_object__for_each_program(prog, skel->obj) {
		struct mt_prog_run run = { 0 };

		mt_prog_run_stats(bpf_program__fd(prog), &run);
		printf("%s\"%s\": {\"run_cnt\": %llu, \"run_time_ns\": %llu}", sep,
		       bpf_program__name(prog), run.run_cnt, run.run_time_ns);
		sep = ", ";
	}
	printf("}\n");
out:
	floor_bpf__destroy(skel);
	return err ? 1 : 0;
}

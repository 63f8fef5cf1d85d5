// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of a probed unit: an empty function of this binary is called in blocks, first
 * with the run's unit programs attached to its entry and return (this process traced, in a
 * tracer instance of its own that is gone before the run's is loaded), then plain.  The
 * difference per call is what each unit of --unit carries on top of its own work: two traps,
 * two program runs and a ring-buffer record (with ftrace: two traps and two trace events).
 * Blocks, not single calls, so that the clock's own cost is spread; the median of the
 * blocks, so that an interrupt in one does not move the figure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_util.h"
#include "clock.h"
#include "probe_cost.h"
#include "stats.h"
#include "tracer.h"

#define BLOCKS 9
#define CALLS_PER_BLOCK 200

/* The probed function: never inlined, and not optimised away. */
__attribute__((noinline)) int mt_probe_cost_target(int x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x + 1;
}

/* ns per call of each block. */
static void time_blocks(double *per_call)
{
	for (int b = 0; b < BLOCKS; b++) {
		uint64_t t0 = now_ns();
		int x = 0;

		for (int i = 0; i < CALLS_PER_BLOCK; i++)
			x = mt_probe_cost_target(x);
		per_call[b] = (double)(now_ns() - t0) / CALLS_PER_BLOCK;
	}
}

void probe_cost_measure(struct probe_cost *pc, int backend)
{
	/* units go to a ring nobody reads here: room for every one of them */
	struct tracer_opts o = { .hot_ns = 500000, .ringbuf_bytes = 1 << 22, .unit_probes = true,
				 .quiet_load = true, .backend = backend };
	double probed[BLOCKS], plain[BLOCKS], diff[BLOCKS], plain_median;
	struct tracer tr = { 0 };
	struct mt_stats stats;
	struct mt_hists hists;
	char *log = NULL;
	int err;

	memset(pc, 0, sizeof(*pc));
	if ((err = mt_libbpf_capture_begin()))
		goto fail;
	err = tracer_load(&tr, &o);
	log = mt_libbpf_capture_end();	/* what a refusal said is for the run's own load */
	pc->backend = tr.backend;
	if (!err)
		err = tracer_track(&tr, (uint32_t)getpid(), false);
	/* ftrace's probe events are recorded only once its instances trace, as in a run;
	 * BPF's unit programs need none of its sched programs */
	if (!err && tr.backend == TRACER_BACKEND_FTRACE)
		err = tracer_attach(&tr);
	if (!err)
		err = tracer_attach_unit(&tr, "/proc/self/exe", "mt_probe_cost_target");
	if (err)
		goto fail;
	time_blocks(probed);
	/* ftrace's units exist once its events are read and replayed; BPF's are counted */
	err = tracer_stop(&tr);		/* BPF: the records consumed, >= 0 */
	if (err >= 0)
		err = tracer_read_counts(&tr, &stats, &hists);
	if (err)
		goto fail;
	if (stats.units + stats.units_dropped < BLOCKS * CALLS_PER_BLOCK) {
		snprintf(pc->why, sizeof(pc->why), "the probes fired on %llu of %d calls",
			 (unsigned long long)(stats.units + stats.units_dropped),
			 BLOCKS * CALLS_PER_BLOCK);
		goto out;
	}
	tracer_destroy(&tr);
	time_blocks(plain);
	plain_median = median_inplace(plain, BLOCKS);
	for (int b = 0; b < BLOCKS; b++)
		diff[b] = probed[b] - plain_median;
	pc->ns = median_inplace(diff, BLOCKS);
	pc->ns_min = diff[0];
	pc->calls = BLOCKS * CALLS_PER_BLOCK;
	pc->measured = true;
	goto out;
fail:
	snprintf(pc->why, sizeof(pc->why), "probing a function of migtrace failed: %s",
		 strerror(-err));
out:
	free(log);
	tracer_destroy(&tr);
}

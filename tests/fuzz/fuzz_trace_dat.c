// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a trace-cmd capture's bytes, read as `migtrace report FILE` reads them
 * (user/capture/trace_dat.c): libtracecmd opens and decodes them in a child of its own, and
 * this process replays what the child sends.  Whatever the bytes, trace_dat_read() must
 * return a model or a refusal that says why, never crash or hang; a model's migrations must
 * be its records, each between two CPUs of the capture.  The corpus holds the checked-in
 * capture and captures whose bytes crashed libtracecmd 3.1.6 (crash-*: 46_tracedat.sh reads
 * each as a one-line refusal).  The child's own crashes are the refusals: its decoder
 * (sched_decode.c) is fuzzed in-process by fuzz_sched_decode.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run.h"
#include "trace_dat.h"

/* The file each input is written to: in $TMPDIR (run.sh gives each fuzzer its own, which it
 * removes however the fuzzer ends), removed at a normal exit. */
static char path[PATH_MAX];

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/mt-fuzz-dat.%d", dir && *dir ? dir : "/tmp",
		 (int)getpid());
	atexit(remove_file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_dat_opts o = { .hot_ns = RUN_NO_HOT_ARG, .quiet = true };
	struct run *r = NULL;
	char err[256] = "";
	uint64_t total = 0;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (trace_dat_read(path, &o, &r, err, sizeof(err))) {
		if (r || !err[0])
			abort();	/* a refusal is a reason and no model */
		return 0;
	}
	for (int c = 0; c < MT_NR_CAUSES; c++)
		total += r->stats.migrations[c];
	if (total != r->nrecs)
		abort();
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].src_cpu >= (uint32_t)r->meta.nr_cpus ||
		    r->recs[i].dst_cpu >= (uint32_t)r->meta.nr_cpus)
			abort();
	run_free(r);
	return 0;
}

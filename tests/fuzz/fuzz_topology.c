// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the sysfs topology reader over a tree whose files hold fuzzed text.
 * The input is split at '\n' into the contents of the files a 2-CPU tree has (online list,
 * core and package ids, sibling lists, cache level/type/size/sharing); the reader must
 * accept or refuse it without crashing, and what it accepts must be within bounds.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology.h"

static const char *const files[] = {
	"online",
	"cpu0/topology/core_id", "cpu0/topology/physical_package_id",
	"cpu0/topology/thread_siblings_list", "cpu0/topology/cluster_cpus_list",
	"cpu0/cache/index0/level", "cpu0/cache/index0/type", "cpu0/cache/index0/size",
	"cpu0/cache/index0/shared_cpu_list",
	"cpu1/cache/index0/level", "cpu1/cache/index0/size", "cpu1/cache/index0/shared_cpu_list",
	"cpu1/cache/index2/level", "cpu1/cache/index2/size", "cpu1/cache/index2/shared_cpu_list",
};

/* The fake tree: in $TMPDIR (run.sh gives each fuzzer its own, which it removes however the
 * fuzzer ends), removed at a normal exit. */
static char root[PATH_MAX];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(void)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/mt-fuzz-topo.%d", dir && *dir ? dir : "/tmp",
		 (int)getpid());
	mkdir(root, 0755);
	atexit(remove_tree);
	return 0;
}

static void mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct topology t;
	char path[512];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		FILE *f;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/%s", root, files[i]);
		mkdirs(path);
		f = fopen(path, "w");
		if (!f)
			continue;
		fwrite(p, 1, len, f);
		fputc('\n', f);
		fclose(f);
		p = nl ? nl + 1 : end;
	}
	if (topology_read_caches(root, TOPO_CACHES_SYSFS, &t))
		return 0;
	if (t.max_cpu < 0 || t.max_cpu >= MT_MAX_CPUS_USER || t.online.n > MT_MAX_CPUS_USER)
		abort();
	for (int cpu = 0; cpu <= t.max_cpu; cpu++)
		if (t.cpu[cpu].ncache < 0 || t.cpu[cpu].ncache > TOPO_MAX_CACHES)
			abort();
	for (int i = 0; i < t.online.n; i++) {
		const struct topo_cache *k = topology_percore_cache(&t, t.online.cpu[i]);
		const struct topo_cache *llc = topology_llc(&t, t.online.cpu[i]);

		if ((k && !k->size_bytes) || (llc && !llc->size_bytes))
			abort();
		topology_distance(&t, t.online.cpu[i], t.online.cpu[0]);
	}
	topology_free(&t);
	return 0;
}

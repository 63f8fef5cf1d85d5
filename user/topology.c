// SPDX-License-Identifier: GPL-2.0
/*
 * CPU and cache topology, read from sysfs the way lscpu does: online CPUs, each cache
 * index's level/type/size/shared_cpu_list, core and package ids, SMT siblings, NUMA nodes.
 * The root is a parameter so that tests can point it at a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

void topo_mask_set(struct topo_mask *m, int cpu)
{
	if (cpu >= 0 && cpu < MT_MAX_CPUS_USER)
		m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

bool topo_mask_test(const struct topo_mask *m, int cpu)
{
	if (cpu < 0 || cpu >= MT_MAX_CPUS_USER)
		return false;
	return m->bits[cpu / 64] & (1ULL << (cpu % 64));
}

int topo_mask_weight(const struct topo_mask *m)
{
	int w = 0;

	for (int i = 0; i < TOPO_MASK_WORDS; i++)
		w += __builtin_popcountll(m->bits[i]);
	return w;
}

bool topo_mask_equal(const struct topo_mask *a, const struct topo_mask *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

/* Reads one line of a sysfs file into buf, newline stripped.  -errno on failure. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

static int read_int(const char *path, int *out)
{
	char buf[64];
	long v;
	int err = read_line(path, buf, sizeof(buf));

	if (err)
		return err;
	if (parse_long(buf, -1, 1L << 30, &v))
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int read_mask(const char *path, struct topo_mask *m)
{
	struct cpu_set_list l;
	char buf[4096];
	int err = read_line(path, buf, sizeof(buf));

	if (err)
		return err;
	if (parse_cpu_list(buf, &l, NULL, 0))
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < l.n; i++)
		topo_mask_set(m, l.cpu[i]);
	return 0;
}

static void read_caches(const char *cpudir, struct topo_cpu *c)
{
	char path[1024], buf[64];

	c->ncache = 0;
	for (int idx = 0; idx < 32 && c->ncache < TOPO_MAX_CACHES; idx++) {
		struct topo_cache *k = &c->cache[c->ncache];
		uint64_t size;

		snprintf(path, sizeof(path), "%s/cache/index%d/level", cpudir, idx);
		if (read_int(path, &k->level))
			continue;	/* holes are allowed; absent indexes end nothing */
		snprintf(path, sizeof(path), "%s/cache/index%d/type", cpudir, idx);
		if (read_line(path, k->type, sizeof(k->type)))
			snprintf(k->type, sizeof(k->type), "Unified");
		snprintf(path, sizeof(path), "%s/cache/index%d/size", cpudir, idx);
		if (read_line(path, buf, sizeof(buf)) || parse_size(buf, &size))
			continue;
		k->size_bytes = size;
		snprintf(path, sizeof(path), "%s/cache/index%d/shared_cpu_list", cpudir, idx);
		memset(&k->shared, 0, sizeof(k->shared));
		if (read_mask(path, &k->shared))
			continue;
		c->ncache++;
	}
}

static void read_nodes(struct topology *t)
{
	char path[1024];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/devices/system/node", t->root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct topo_mask m = { { 0 } };
		int node;
		char file[1300];

		if (sscanf(de->d_name, "node%d", &node) != 1)
			continue;
		snprintf(file, sizeof(file), "%s/%s/cpulist", path, de->d_name);
		if (read_mask(file, &m))
			continue;
		for (int cpu = 0; cpu <= t->max_cpu; cpu++)
			if (topo_mask_test(&m, cpu))
				t->cpu[cpu].node = node;
	}
	closedir(d);
}

static long read_mhz(const struct topology *t)
{
	char path[1024], line[256];
	int khz;
	FILE *f;

	if (strcmp(t->root, "/sys") == 0 && (f = fopen("/proc/cpuinfo", "r"))) {
		double mhz = -1;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
				break;
		fclose(f);
		if (mhz > 0)
			return (long)mhz;
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
		 t->root, t->online.n ? t->online.cpu[0] : 0);
	if (!read_int(path, &khz) && khz > 0)
		return khz / 1000;
	return -1;
}

int topology_read(const char *sysfs_root, struct topology *t)
{
	char base[600], path[1024], buf[4096];
	struct dirent *de;
	DIR *d;
	int err = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->root, sizeof(t->root), "%s", sysfs_root ? sysfs_root : "/sys");
	snprintf(base, sizeof(base), "%s/devices/system/cpu", t->root);
	d = opendir(base);
	if (!d) {
		err = -errno;
		fprintf(stderr, "migtrace: cannot open %s: %s\n", base, strerror(-err));
		return err;
	}
	t->max_cpu = -1;
	while ((de = readdir(d))) {
		int cpu;
		char tail;

		if (sscanf(de->d_name, "cpu%d%c", &cpu, &tail) == 1 && cpu >= 0 &&
		    cpu < MT_MAX_CPUS_USER && cpu > t->max_cpu)
			t->max_cpu = cpu;
	}
	closedir(d);
	if (t->max_cpu < 0) {
		fprintf(stderr, "migtrace: no cpuN directories under %s\n", base);
		return -ENOENT;
	}
	t->cpu = calloc(t->max_cpu + 1, sizeof(*t->cpu));
	if (!t->cpu)
		return -ENOMEM;

	snprintf(path, sizeof(path), "%s/online", base);
	if (read_line(path, buf, sizeof(buf)) || parse_cpu_list(buf, &t->online, NULL, 0)) {
		/* No online file (some fake trees, very old kernels): every cpuN is online. */
		t->online.n = 0;
		for (int cpu = 0; cpu <= t->max_cpu; cpu++) {
			snprintf(path, sizeof(path), "%s/cpu%d", base, cpu);
			if ((d = opendir(path))) {
				closedir(d);
				t->online.cpu[t->online.n++] = cpu;
			}
		}
	}

	for (int cpu = 0; cpu <= t->max_cpu; cpu++) {
		struct topo_cpu *c = &t->cpu[cpu];
		char cpudir[700];

		snprintf(cpudir, sizeof(cpudir), "%s/cpu%d", base, cpu);
		if (!(d = opendir(cpudir)))
			continue;
		closedir(d);
		c->present = true;
		c->online = cpu_list_has(&t->online, cpu);
		c->node = -1;
		snprintf(path, sizeof(path), "%s/topology/core_id", cpudir);
		if (read_int(path, &c->core_id))
			c->core_id = cpu;
		snprintf(path, sizeof(path), "%s/topology/physical_package_id", cpudir);
		if (read_int(path, &c->package_id))
			c->package_id = 0;
		snprintf(path, sizeof(path), "%s/topology/thread_siblings_list", cpudir);
		if (read_mask(path, &c->siblings)) {
			memset(&c->siblings, 0, sizeof(c->siblings));
			topo_mask_set(&c->siblings, cpu);
		}
		read_caches(cpudir, c);
	}
	read_nodes(t);
	t->cpu_mhz = read_mhz(t);
	return 0;
}

void topology_free(struct topology *t)
{
	free(t->cpu);
	t->cpu = NULL;
}

static const struct topo_cpu *cpu_of(const struct topology *t, int cpu)
{
	if (cpu < 0 || cpu > t->max_cpu || !t->cpu[cpu].present)
		return NULL;
	return &t->cpu[cpu];
}

static bool is_data_cache(const struct topo_cache *k)
{
	return strcmp(k->type, "Instruction") != 0;
}

const struct topo_cache *topology_percore_cache(const struct topology *t, int cpu)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *best = NULL;

	if (!c)
		return NULL;
	for (int i = 0; i < c->ncache; i++) {
		const struct topo_cache *k = &c->cache[i];
		bool within_core = true;

		if (!is_data_cache(k))
			continue;
		/* Per-core: every CPU sharing it is an SMT sibling of this one. */
		for (int o = 0; o <= t->max_cpu; o++)
			if (topo_mask_test(&k->shared, o) && !topo_mask_test(&c->siblings, o))
				within_core = false;
		if (within_core && (!best || k->size_bytes > best->size_bytes))
			best = k;
	}
	return best;
}

const struct topo_cache *topology_cache_level(const struct topology *t, int cpu, int level)
{
	const struct topo_cpu *c = cpu_of(t, cpu);

	if (!c)
		return NULL;
	for (int i = 0; i < c->ncache; i++)
		if (c->cache[i].level == level && is_data_cache(&c->cache[i]))
			return &c->cache[i];
	return NULL;
}

const struct topo_cache *topology_llc(const struct topology *t, int cpu)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *best = NULL;

	if (!c)
		return NULL;
	for (int i = 0; i < c->ncache; i++)
		if (is_data_cache(&c->cache[i]) &&
		    (!best || c->cache[i].level > best->level))
			best = &c->cache[i];
	return best;
}

bool topology_smt_siblings(const struct topology *t, int a, int b)
{
	const struct topo_cpu *c = cpu_of(t, a);

	return c && a != b && topo_mask_test(&c->siblings, b);
}

bool topology_share_llc(const struct topology *t, int a, int b)
{
	const struct topo_cache *k = topology_llc(t, a);

	return k && topo_mask_test(&k->shared, b);
}

/* Levels in the order the scheduler builds its domains. */
enum topo_level { LVL_SMT, LVL_LLC, LVL_PKG, LVL_NODE, LVL_ALL, LVL_NR };

static bool same_at(const struct topology *t, enum topo_level lvl, int a, int b)
{
	const struct topo_cpu *ca = cpu_of(t, a), *cb = cpu_of(t, b);

	if (!ca || !cb)
		return false;
	switch (lvl) {
	case LVL_SMT:
		return a == b || topo_mask_test(&ca->siblings, b);
	case LVL_LLC:
		return a == b || topology_share_llc(t, a, b);
	case LVL_PKG:
		return ca->package_id == cb->package_id;
	case LVL_NODE:
		return ca->node == cb->node;
	default:
		return true;
	}
}

/* A level exists when it groups some online CPU with more CPUs than the level below. */
static bool level_exists(const struct topology *t, enum topo_level lvl)
{
	for (int i = 0; i < t->online.n; i++) {
		int a = t->online.cpu[i], below = 0, here = 0;

		for (int j = 0; j < t->online.n; j++) {
			int b = t->online.cpu[j];

			here += same_at(t, lvl, a, b);
			below += lvl == LVL_SMT ? (a == b) : same_at(t, lvl - 1, a, b);
		}
		if (here > below)
			return true;
	}
	return false;
}

int topology_distance(const struct topology *t, int a, int b)
{
	int dist = 0;

	for (int lvl = LVL_SMT; lvl < LVL_NR; lvl++) {
		if (!level_exists(t, lvl))
			continue;
		if (same_at(t, lvl, a, b))
			return dist;
		dist++;
	}
	return dist;
}

int topology_cpus_arg(const struct topology *t, const char *arg, const char *cmd,
		      struct cpu_set_list *out)
{
	char bad[64], buf[256];

	if (!arg) {
		*out = t->online;
		return 0;
	}
	if (parse_cpu_list(arg, out, bad, sizeof(bad))) {
		fprintf(stderr, "migtrace %s: --cpus: '%s' is not a CPU number or range (e.g. "
			"0-3,5)\n", cmd, bad);
		return -EINVAL;
	}
	for (int i = 0; i < out->n; i++) {
		if (!cpu_list_has(&t->online, out->cpu[i])) {
			fprintf(stderr, "migtrace %s: --cpus: CPU %d is not online (online: %s)\n",
				cmd, out->cpu[i], format_cpu_list(&t->online, buf, sizeof(buf)));
			return -EINVAL;
		}
	}
	return 0;
}

static void print_size(FILE *f, uint64_t b)
{
	if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
		fprintf(f, "%llu MiB", (unsigned long long)(b >> 20));
	else
		fprintf(f, "%llu KiB", (unsigned long long)(b >> 10));
}

void topology_print_summary(const struct topology *t, FILE *f)
{
	char buf[256];
	int cores = 0, pkgs = 0, smt = 1;
	const struct topo_cpu *c0;

	for (int i = 0; i < t->online.n; i++) {
		const struct topo_cpu *c = &t->cpu[t->online.cpu[i]];
		bool first_core = true, first_pkg = true;

		for (int j = 0; j < i; j++) {
			const struct topo_cpu *o = &t->cpu[t->online.cpu[j]];

			if (o->package_id == c->package_id) {
				first_pkg = false;
				if (o->core_id == c->core_id)
					first_core = false;
			}
		}
		cores += first_core;
		pkgs += first_pkg;
		if (topo_mask_weight(&c->siblings) > smt)
			smt = topo_mask_weight(&c->siblings);
	}
	fprintf(f, "%d online CPU%s (%s), %d core%s, %d package%s, %d thread%s per core",
		t->online.n, t->online.n == 1 ? "" : "s",
		format_cpu_list(&t->online, buf, sizeof(buf)), cores, cores == 1 ? "" : "s",
		pkgs, pkgs == 1 ? "" : "s", smt, smt > 1 ? "s" : "");
	if (t->cpu_mhz > 0)
		fprintf(f, ", %ld MHz", t->cpu_mhz);
	fprintf(f, "\n");
	if (!t->online.n)
		return;
	c0 = &t->cpu[t->online.cpu[0]];
	for (int i = 0; i < c0->ncache; i++) {
		const struct topo_cache *k = &c0->cache[i];
		struct cpu_set_list l = { 0 };

		for (int cpu = 0; cpu <= t->max_cpu; cpu++)
			if (topo_mask_test(&k->shared, cpu))
				l.cpu[l.n++] = cpu;
		fprintf(f, "  L%d %-11s ", k->level, k->type);
		print_size(f, k->size_bytes);
		fprintf(f, ", shared by CPUs %s\n", format_cpu_list(&l, buf, sizeof(buf)));
	}
}

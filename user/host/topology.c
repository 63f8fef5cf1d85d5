// SPDX-License-Identifier: GPL-2.0
/*
 * CPU and cache topology, read from sysfs the way lscpu does: online CPUs, each cache
 * index's level/type/size/shared_cpu_list, core and package ids, SMT siblings, clusters,
 * hybrid core types, NUMA nodes.  Some VMs' sysfs lists no caches at all; on the real
 * machine those come from CPUID instead, and every cache says which source gave it.
 * The root is a parameter so that tests can point it at a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid.h"
#include "mem_room.h"
#include "topology.h"
#include "units.h"

static void topo_mask_set(struct topo_mask *m, int cpu)
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

int sysfs_read_line(const char *path, char *buf, size_t len)
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
	int err = sysfs_read_line(path, buf, sizeof(buf));

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
	int err = sysfs_read_line(path, buf, sizeof(buf));

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
		if (sysfs_read_line(path, k->type, sizeof(k->type)))
			snprintf(k->type, sizeof(k->type), "Unified");
		/* a size of 0 describes no cache (found by fuzzing): it would size no buffer */
		snprintf(path, sizeof(path), "%s/cache/index%d/size", cpudir, idx);
		if (sysfs_read_line(path, buf, sizeof(buf)) || parse_size(buf, &size) || !size)
			continue;
		k->size_bytes = size;
		snprintf(path, sizeof(path), "%s/cache/index%d/shared_cpu_list", cpudir, idx);
		memset(&k->shared, 0, sizeof(k->shared));
		if (read_mask(path, &k->shared))
			continue;
		k->shared_known = true;
		k->source = TOPO_SRC_SYSFS;
		k->cpuid_leaf = 0;
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

/* Hybrid parts list their core types as PMU devices: cpu_core (P-cores), cpu_atom (E-cores). */
static void read_core_types(struct topology *t)
{
	static const struct {
		const char *pmu;
		enum topo_core_type type;
	} pmus[] = { { "cpu_core", TOPO_CORE_P }, { "cpu_atom", TOPO_CORE_E } };
	char path[700];

	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		struct topo_mask m;

		snprintf(path, sizeof(path), "%s/devices/%s/cpus", t->root, pmus[i].pmu);
		if (read_mask(path, &m))
			continue;
		for (int cpu = 0; cpu <= t->max_cpu; cpu++)
			if (topo_mask_test(&m, cpu))
				t->cpu[cpu].core_type = pmus[i].type;
	}
}

static void set_hybrid(struct topology *t)
{
	bool p = false, e = false;

	for (int i = 0; i < t->online.n; i++) {
		p |= t->cpu[t->online.cpu[i]].core_type == TOPO_CORE_P;
		e |= t->cpu[t->online.cpu[i]].core_type == TOPO_CORE_E;
	}
	t->hybrid = p && e;
}

/* CPUID's cache kk of info[i] as a topology cache k, its sharing from all the APIC ids. */
static void cache_from_cpuid(const struct topology *t, const struct cpu_set_list *cpus,
			     const struct cpuid_info *info, int i, const struct cpuid_cache *kk,
			     struct topo_cache *k)
{
	int cpu = cpus->cpu[i];
	uint32_t id;

	memset(k, 0, sizeof(*k));
	k->level = kk->level;
	snprintf(k->type, sizeof(k->type), "%s", kk->type);
	k->size_bytes = kk->size_bytes;
	k->source = TOPO_SRC_CPUID;
	k->cpuid_leaf = kk->leaf;
	topo_mask_set(&k->shared, cpu);
	if (!kk->shared_known)
		return;			/* shared_known stays false: the leaf does not say */
	if (kk->smt_private) {
		k->shared = t->cpu[cpu].siblings;
		k->shared_known = true;
		return;
	}
	/* Sharing by more than this CPU needs its APIC id; without one it is unknown. */
	if (kk->nsharing > 1 && !info[i].apic_leaf)
		return;
	k->shared_known = true;
	if (kk->nsharing <= 1)
		return;
	id = cpuid_share_id(info[i].apic_id, kk->nsharing);
	for (int j = 0; j < cpus->n; j++)
		if (info[j].apic_leaf && cpuid_share_id(info[j].apic_id, kk->nsharing) == id)
			topo_mask_set(&k->shared, cpus->cpu[j]);
}

void topology_apply_cpuid(struct topology *t, const struct cpu_set_list *cpus,
			  const struct cpuid_info *info, bool only_empty)
{
	for (int i = 0; i < cpus->n; i++) {
		int cpu = cpus->cpu[i];
		struct topo_cpu *c;

		if (cpu < 0 || cpu > t->max_cpu || !t->cpu[cpu].present)
			continue;
		c = &t->cpu[cpu];
		if (c->core_type == TOPO_CORE_UNKNOWN && info[i].core_type == CPUID_CORE_CORE)
			c->core_type = TOPO_CORE_P;
		if (c->core_type == TOPO_CORE_UNKNOWN && info[i].core_type == CPUID_CORE_ATOM)
			c->core_type = TOPO_CORE_E;
		if (only_empty && c->ncache)
			continue;
		c->ncache = 0;
		for (int n = 0; n < info[i].ncache && c->ncache < TOPO_MAX_CACHES; n++)
			cache_from_cpuid(t, cpus, info, i, &info[i].cache[n],
					 &c->cache[c->ncache++]);
		if (!c->ncache)
			snprintf(c->nocache_why, sizeof(c->nocache_why), "%s", info[i].why);
	}
	set_hybrid(t);
}

/*
 * CPUID on every online CPU (the sharing masks need every APIC id), applied to all or only
 * to the CPUs without caches.  Failures are not errors: they become the CPUs' nocache_why.
 */
static void add_cpuid_caches(struct topology *t, bool only_empty)
{
	struct cpuid_info *info = calloc(t->online.n ? t->online.n : 1, sizeof(*info));

	if (!info) {
		for (int cpu = 0; cpu <= t->max_cpu; cpu++)
			snprintf(t->cpu[cpu].nocache_why, sizeof(t->cpu[cpu].nocache_why),
				 "CPUID was not read: no memory for %d CPUs' answers", t->online.n);
		return;
	}
	/* A negative return still leaves a why in every info[i]: apply keeps it per CPU. */
	cpuid_read_cpus(&t->online, info);
	topology_apply_cpuid(t, &t->online, info, only_empty);
	free(info);
}

/* Why each CPU left without caches has none, in the words of the policy that left it so. */
static void explain_missing(struct topology *t, bool cpuid_tried)
{
	for (int cpu = 0; cpu <= t->max_cpu; cpu++) {
		struct topo_cpu *c = &t->cpu[cpu];
		char cpuid_why[200];

		if (!c->present || c->ncache)
			continue;
		/* CPUID's reasons are short (struct cpuid_info's why); nothing is cut here. */
		snprintf(cpuid_why, sizeof(cpuid_why), "%.199s", c->nocache_why);
		if (!c->online)
			snprintf(c->nocache_why, sizeof(c->nocache_why), "CPU %d is offline", cpu);
		else if (t->caches == TOPO_CACHES_SYSFS)
			snprintf(c->nocache_why, sizeof(c->nocache_why), "sysfs lists none and "
				 "--caches sysfs leaves CPUID out");
		else if (t->caches == TOPO_CACHES_CPUID)
			snprintf(c->nocache_why, sizeof(c->nocache_why), "%s (--caches cpuid "
				 "leaves sysfs out)", cpuid_why);
		else if (cpuid_tried)
			snprintf(c->nocache_why, sizeof(c->nocache_why), "sysfs lists none and %s",
				 cpuid_why);
		else
			snprintf(c->nocache_why, sizeof(c->nocache_why), "sysfs lists none under "
				 "%s, and CPUID describes this machine, not that tree (--caches "
				 "cpuid would use it)", t->root);
	}
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

int topology_caches_arg(const char *arg, enum topo_caches *out)
{
	if (strcmp(arg, "auto") == 0)
		*out = TOPO_CACHES_AUTO;
	else if (strcmp(arg, "sysfs") == 0)
		*out = TOPO_CACHES_SYSFS;
	else if (strcmp(arg, "cpuid") == 0)
		*out = TOPO_CACHES_CPUID;
	else
		return -EINVAL;
	return 0;
}

int topology_read(const char *sysfs_root, struct topology *t)
{
	return topology_read_caches(sysfs_root, TOPO_CACHES_AUTO, t);
}

int topology_read_caches(const char *sysfs_root, enum topo_caches caches, struct topology *t)
{
	char base[600], path[1024], buf[4096];
	bool cpuid_tried = false, real, missing = false;
	struct dirent *de;
	DIR *d;
	int err = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->root, sizeof(t->root), "%s", sysfs_root ? sysfs_root : "/sys");
	t->caches = caches;
	real = strcmp(t->root, "/sys") == 0;
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
	if (sysfs_read_line(path, buf, sizeof(buf)) || parse_cpu_list(buf, &t->online, NULL, 0)) {
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
	/* Only CPUs with a directory count: the online list can name one that has none (a
	 * hotplug racing this read, a partial tree), and everything below indexes t->cpu. */
	for (int i = 0, n = t->online.n; i < n; i++) {
		int cpu = t->online.cpu[i];

		snprintf(path, sizeof(path), "%s/cpu%d", base, cpu);
		if (cpu <= t->max_cpu && (d = opendir(path)))
			closedir(d);
		else
			cpu = -1;
		if (cpu < 0) {
			memmove(&t->online.cpu[i], &t->online.cpu[i + 1],
				sizeof(int) * (size_t)(n - i - 1));
			i--;
			n--;
			t->online.n = n;
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
		/* A cluster holds whole cores: the siblings belong to it whatever sysfs says. */
		snprintf(path, sizeof(path), "%s/topology/cluster_cpus_list", cpudir);
		if (read_mask(path, &c->cluster))
			memset(&c->cluster, 0, sizeof(c->cluster));
		for (int w = 0; w < TOPO_MASK_WORDS; w++)
			c->cluster.bits[w] |= c->siblings.bits[w];
		if (caches != TOPO_CACHES_CPUID)
			read_caches(cpudir, c);
		missing |= c->online && !c->ncache;
	}
	read_nodes(t);
	read_core_types(t);
	set_hybrid(t);
	if (caches == TOPO_CACHES_CPUID || (caches == TOPO_CACHES_AUTO && real && missing)) {
		add_cpuid_caches(t, caches == TOPO_CACHES_AUTO);
		cpuid_tried = true;
	}
	explain_missing(t, cpuid_tried);
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

/* Every CPU in k's sharing set is in m. */
static bool shared_within(const struct topology *t, const struct topo_cache *k,
			  const struct topo_mask *m)
{
	for (int o = 0; o <= t->max_cpu; o++)
		if (topo_mask_test(&k->shared, o) && !topo_mask_test(m, o))
			return false;
	return true;
}

const struct topo_cache *topology_percore_cache(const struct topology *t, int cpu)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *best = NULL;

	if (!c)
		return NULL;
	for (int i = 0; i < c->ncache; i++) {
		const struct topo_cache *k = &c->cache[i];

		/* A cache whose sharing is unknown may be shared by the whole machine. */
		if (!is_data_cache(k) || !k->shared_known || !shared_within(t, k, &c->cluster))
			continue;
		if (!best || k->size_bytes > best->size_bytes)
			best = k;
	}
	return best;
}

const char *topology_cache_scope(const struct topology *t, int cpu, const struct topo_cache *k)
{
	const struct topo_cpu *c = cpu_of(t, cpu);

	if (!c || !k->shared_known)
		return "sharing unknown";
	if (shared_within(t, k, &c->siblings))
		return "per-core";
	if (shared_within(t, k, &c->cluster))
		return "per-cluster";
	return "shared";
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

	return k && k->shared_known && topo_mask_test(&k->shared, b);
}

bool topology_llc_known(const struct topology *t, int cpu, char *why, size_t len)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *k = topology_llc(t, cpu);

	if (k && k->shared_known)
		return true;
	if (!why)
		return false;
	if (!c)
		snprintf(why, len, "CPU %d is not in %s", cpu, t->root);
	else if (!k)
		snprintf(why, len, "no caches for CPU %d: %s", cpu,
			 c->ncache ? "only instruction caches listed" : c->nocache_why);
	else
		snprintf(why, len, "CPUID 0x%x gives no sharing", k->cpuid_leaf);
	return false;
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
		/* Unknown LLC sharing merges nothing: the level then does not exist. */
		if (!topology_llc_known(t, a, NULL, 0) || !topology_llc_known(t, b, NULL, 0))
			return same_at(t, LVL_SMT, a, b);
		return a == b || topo_mask_test(&ca->siblings, b) || topology_share_llc(t, a, b);
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

/* The lowest CPU of m, or -1 when m is empty. */
static int mask_first(const struct topology *t, const struct topo_mask *m)
{
	for (int o = 0; o <= t->max_cpu; o++)
		if (topo_mask_test(m, o))
			return o;
	return -1;
}

void topology_level_ids(const struct topology *t, int cpu, int *core, int *llc, int *node)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *k = topology_llc(t, cpu);
	int first;

	*core = cpu;
	*llc = -1;
	*node = 0;
	if (!c)
		return;
	first = mask_first(t, &c->siblings);
	if (first >= 0)
		*core = first;
	if (k && k->shared_known && (first = mask_first(t, &k->shared)) >= 0)
		*llc = first;
	if (c->node >= 0)
		*node = c->node;
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
	int err;

	if (!arg) {
		*out = t->online;
		return 0;
	}
	err = parse_cpu_list(arg, out, bad, sizeof(bad));
	if (err == -EEXIST) {
		fprintf(stderr, "migtrace %s: --cpus: CPU %s is listed twice in '%s'; list each "
			"CPU once\n", cmd, bad, arg);
		return -EINVAL;
	}
	if (err) {
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

/* "sysfs" or "CPUID", as the text output names a source. */
static const char *topo_source_name(enum topo_source s)
{
	return s == TOPO_SRC_CPUID ? "CPUID" : "sysfs";
}

const char *topology_cache_source(const struct topology *t)
{
	bool sysfs = false, cpuid = false;

	for (int i = 0; i < t->online.n; i++) {
		const struct topo_cpu *c = &t->cpu[t->online.cpu[i]];

		for (int n = 0; n < c->ncache; n++) {
			sysfs |= c->cache[n].source == TOPO_SRC_SYSFS;
			cpuid |= c->cache[n].source == TOPO_SRC_CPUID;
		}
	}
	if (sysfs && cpuid)
		return "sysfs+cpuid";
	return sysfs ? "sysfs" : cpuid ? "cpuid" : "none";
}

char *topo_mask_format(const struct topology *t, const struct topo_mask *m, char *buf,
		       size_t len)
{
	struct cpu_set_list l = { 0 };

	for (int cpu = 0; cpu <= t->max_cpu; cpu++)
		if (topo_mask_test(m, cpu))
			l.cpu[l.n++] = cpu;
	return format_cpu_list(&l, buf, len);
}

/* "(from sysfs)", "(from CPUID: sysfs lists no caches)", "(from CPUID: --caches cpuid)". */
static void source_note(const struct topology *t, const struct topo_cache *k, char *buf,
			size_t len)
{
	if (k->source == TOPO_SRC_SYSFS)
		snprintf(buf, len, "from sysfs");
	else if (t->caches == TOPO_CACHES_CPUID)
		snprintf(buf, len, "from CPUID leaf 0x%x: --caches cpuid", k->cpuid_leaf);
	else
		snprintf(buf, len, "from CPUID leaf 0x%x: sysfs lists no caches", k->cpuid_leaf);
}

/* "L1, L2, L3 from sysfs": the data-cache levels a --level may name. */
static char *data_levels(const struct topo_cpu *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->ncache && n < len; i++)
		if (is_data_cache(&c->cache[i]))
			n += snprintf(buf + n, len - n, "%sL%d", n ? ", " : "",
				      c->cache[i].level);
	if (n < len)
		snprintf(buf + n, len - n, " from %s", topo_source_name(c->cache[0].source));
	return buf;
}

int topology_calib_cache(const struct topology *t, int cpu, int level, const char *size_arg,
			 const char *cmd, struct topo_choice *out)
{
	const struct topo_cpu *c = cpu_of(t, cpu);
	const struct topo_cache *k = NULL;
	char b[32], m[64], note[96], shared[256];
	struct mem_room room;
	bool has_data = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; c && i < c->ncache; i++)
		has_data |= is_data_cache(&c->cache[i]);
	if (size_arg) {
		if (parse_size(size_arg, &out->size_bytes) || out->size_bytes < 4096) {
			fprintf(stderr, "migtrace %s: --size: '%s' is not a size of at least 4K "
				"(e.g. 512K, 4M, 3145728)\n", cmd, size_arg);
			return -EINVAL;
		}
		out->source = "--size";
		snprintf(out->what, sizeof(out->what), "%s cache given by --size",
			 fmt_bytes(b, sizeof(b), out->size_bytes));
	} else {
		if (has_data) {
			k = level ? topology_cache_level(t, cpu, level)
				  : topology_percore_cache(t, cpu);
			if (!k && !level)
				k = topology_llc(t, cpu);
		}
		if (!k && level && has_data) {
			fprintf(stderr, "migtrace %s: --level %d: CPU %d has no level-%d data "
				"cache (its data caches: %s); choose one of those or give the size "
				"with --size\n", cmd, level, cpu, level,
				data_levels(c, m, sizeof(m)));
			return -EINVAL;
		}
		if (!k) {
			fprintf(stderr, "migtrace %s: no cache sizes for CPU %d: %s; give the size "
				"with --size (e.g. --size 1M)\n", cmd, cpu,
				!c ? "it is not in the topology" : c->ncache ?
				"only instruction caches are listed" : c->nocache_why);
			return -ENOENT;
		}
		out->cache = k;
		out->size_bytes = k->size_bytes;
		out->source = k->source == TOPO_SRC_CPUID ? "cpuid" : "sysfs";
		out->scope = topology_cache_scope(t, cpu, k);
		source_note(t, k, note, sizeof(note));
		if (level)
			shared[0] = '\0';
		else if (strcmp(out->scope, "per-core") == 0)
			snprintf(shared, sizeof(shared), ", the largest per-core cache");
		else if (strcmp(out->scope, "per-cluster") == 0)
			snprintf(shared, sizeof(shared), ", the largest per-cluster cache (shared "
				 "by CPUs %s)", topo_mask_format(t, &k->shared, m, sizeof(m)));
		else
			snprintf(shared, sizeof(shared), ", the last-level cache (%s; none is "
				 "known to be per-core)", out->scope);
		snprintf(out->what, sizeof(out->what), "L%d %s %s of CPU %d (%s)%s", k->level,
			 k->type, fmt_bytes(b, sizeof(b), k->size_bytes), cpu, note, shared);
	}
	/* Two buffers of 5/3 x the size (2x in the 2005 sweep) must fit, with room to spare:
	 * in MemAvailable, and under the cgroup's memory limit where there is one. */
	if (mem_room_probe(NULL, &room) == 0 && out->size_bytes > room.bytes / 5) {
		fprintf(stderr, "migtrace %s: %s %s: the buffers would not fit in the %s; give a "
			"smaller size with --size\n", cmd, size_arg ? "--size" : "the cache of",
			size_arg ? size_arg : fmt_bytes(b, sizeof(b), out->size_bytes), room.what);
		return -EINVAL;
	}
	return 0;
}

static void print_caches(const struct topology *t, FILE *f, int cpu)
{
	const struct topo_cpu *c = &t->cpu[cpu];
	char buf[256], b[32];

	for (int i = 0; i < c->ncache; i++) {
		const struct topo_cache *k = &c->cache[i];

		fprintf(f, "  L%d %-11s %s, ", k->level, k->type, fmt_bytes(b, sizeof(b),
										k->size_bytes));
		if (k->shared_known)
			fprintf(f, "shared by CPUs %s",
				topo_mask_format(t, &k->shared, buf, sizeof(buf)));
		else
			fprintf(f, "sharing unknown");
		if (k->source == TOPO_SRC_CPUID)
			fprintf(f, " (CPUID leaf 0x%x%s", k->cpuid_leaf,
				k->shared_known ? "" : ", which gives no sharing");
		else
			fprintf(f, " (sysfs");
		if (t->hybrid)
			fprintf(f, "; %s CPU %d", c->core_type == TOPO_CORE_P ? "P-core" :
				c->core_type == TOPO_CORE_E ? "E-core" : "core of unknown type",
				cpu);
		fprintf(f, ")\n");
	}
}

/* "P-cores 0-15, E-cores 16-23" */
static void print_core_types(const struct topology *t, FILE *f)
{
	static const struct {
		enum topo_core_type type;
		const char *name;
	} kinds[] = { { TOPO_CORE_P, "P-cores" }, { TOPO_CORE_E, "E-cores" },
		      { TOPO_CORE_UNKNOWN, "cores of unknown type" } };
	char buf[256];

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct cpu_set_list l = { 0 };

		for (int i = 0; i < t->online.n; i++)
			if (t->cpu[t->online.cpu[i]].core_type == kinds[k].type)
				l.cpu[l.n++] = t->online.cpu[i];
		if (l.n)
			fprintf(f, "%s %s %s", k ? "," : ";", kinds[k].name,
				format_cpu_list(&l, buf, sizeof(buf)));
	}
}

void topology_counts(const struct topology *t, int *cores, int *packages, int *smt)
{
	*cores = *packages = 0;
	*smt = 1;
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
		*cores += first_core;
		*packages += first_pkg;
		if (topo_mask_weight(&c->siblings) > *smt)
			*smt = topo_mask_weight(&c->siblings);
	}
}

void topology_print_summary(const struct topology *t, FILE *f)
{
	char buf[256];
	int cores, pkgs, smt;
	const struct topo_cpu *c0;

	topology_counts(t, &cores, &pkgs, &smt);
	fprintf(f, "%d online CPU%s (%s), %d core%s, %d package%s, %d thread%s per core",
		t->online.n, t->online.n == 1 ? "" : "s",
		format_cpu_list(&t->online, buf, sizeof(buf)), cores, cores == 1 ? "" : "s",
		pkgs, pkgs == 1 ? "" : "s", smt, smt > 1 ? "s" : "");
	if (t->cpu_mhz > 0)
		fprintf(f, ", %ld MHz", t->cpu_mhz);
	if (t->hybrid)
		print_core_types(t, f);
	c0 = t->online.n ? &t->cpu[t->online.cpu[0]] : NULL;
	/* One line, then one per cache: without caches, the reason goes on the first line. */
	if (c0 && !c0->ncache)
		fprintf(f, "; no caches for CPU %d: %s", t->online.cpu[0], c0->nocache_why);
	fprintf(f, "\n");
	if (!c0)
		return;
	print_caches(t, f, t->online.cpu[0]);
	/* On a hybrid part the other kind of core has caches of its own. */
	for (int i = 1; t->hybrid && i < t->online.n; i++) {
		if (t->cpu[t->online.cpu[i]].core_type != c0->core_type) {
			print_caches(t, f, t->online.cpu[i]);
			break;
		}
	}
}

int topology_pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	/* sched_setaffinity returns once the stopper moved us; verify like the kernel did. */
	for (int tries = 0; sched_getcpu() != cpu; tries++) {
		if (tries > 1000)
			return -EAGAIN;
		sched_yield();
	}
	return 0;
}

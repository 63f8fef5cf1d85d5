// SPDX-License-Identifier: GPL-2.0
/*
 * The environment of a run, for the run file: enough to tell two machines or two kernels
 * apart when runs are compared, with where each fact came from (a cache from sysfs or
 * CPUID, the tunable read or assumed), and what besides the tunable decides a pull.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "environment.h"
#include "sched_rules.h"

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *colon;

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* x86 "model name", arm64 has none: "CPU part" is not a name, leave it empty */
		if (strncmp(line, "model name", 10) || !(colon = strchr(line, ':')))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static void mask_list(const struct topology *t, const struct topo_mask *m, char *buf,
		      size_t len)
{
	struct cpu_set_list l = { 0 };

	for (int cpu = 0; cpu <= t->max_cpu && cpu < MT_MAX_CPUS_USER; cpu++)
		if (topo_mask_test(m, cpu))
			l.cpu[l.n++] = cpu;
	format_cpu_list(&l, buf, len);
}

/* A cache's kind: the same level, type, size, source and sharing width. */
static bool same_kind(const struct run_cache *a, const struct run_cache *b)
{
	return a->level == b->level && !strcmp(a->type, b->type) &&
	       a->size_bytes == b->size_bytes && !strcmp(a->source, b->source) &&
	       a->shared_known == b->shared_known && a->cpus_per_instance == b->cpus_per_instance;
}

/*
 * Each kind of cache of the online CPUs once.  Its instances: the online CPUs that have it,
 * over the CPUs sharing each (a kind is shared alike by definition).
 */
static void caches(struct run_environment *e, const struct topology *t)
{
	int ncpus[RUN_MAX_CACHES] = { 0 };

	for (int i = 0; i < t->online.n; i++) {
		const struct topo_cpu *c = &t->cpu[t->online.cpu[i]];

		for (int k = 0; k < c->ncache; k++) {
			const struct topo_cache *tk = &c->cache[k];
			struct run_cache rc = { 0 };
			int j;

			rc.level = tk->level;
			snprintf(rc.type, sizeof(rc.type), "%s", tk->type);
			rc.size_bytes = tk->size_bytes;
			rc.cpus_per_instance = topo_mask_weight(&tk->shared);
			if (rc.cpus_per_instance < 1)
				rc.cpus_per_instance = 1;
			rc.shared_known = tk->shared_known;
			snprintf(rc.source, sizeof(rc.source), "%s",
				 tk->source == TOPO_SRC_CPUID ? "cpuid" : "sysfs");
			rc.cpuid_leaf = tk->source == TOPO_SRC_CPUID ? tk->cpuid_leaf : 0;
			for (j = 0; j < e->ncaches && !same_kind(&e->caches[j], &rc); j++)
				;
			if (j == RUN_MAX_CACHES)
				continue;
			if (j == e->ncaches) {
				mask_list(t, &tk->shared, rc.shared_cpus, sizeof(rc.shared_cpus));
				e->caches[e->ncaches++] = rc;
			}
			ncpus[j]++;
		}
	}
	/* without the sharing, how many there are is not known either: 0 */
	for (int j = 0; j < e->ncaches; j++)
		e->caches[j].instances = !e->caches[j].shared_known ? 0 :
			(ncpus[j] + e->caches[j].cpus_per_instance - 1) /
			e->caches[j].cpus_per_instance;
}

void environment_probe(struct run_environment *e, const struct topology *t,
		       const struct tunable *k)
{
	struct utsname u;

	memset(e, 0, sizeof(*e));
	if (!uname(&u)) {
		snprintf(e->kernel_release, sizeof(e->kernel_release), "%s", u.release);
		snprintf(e->kernel_version, sizeof(e->kernel_version), "%s", u.version);
		snprintf(e->machine, sizeof(e->machine), "%s", u.machine);
	}
	cpu_model(e->cpu_model, sizeof(e->cpu_model));
	format_cpu_list(&t->online, e->online_cpus, sizeof(e->online_cpus));
	e->cpu_mhz = t->cpu_mhz;
	e->nr_online = t->online.n;
	topology_counts(t, &e->cores, &e->packages, &e->threads_per_core);
	snprintf(e->cache_source, sizeof(e->cache_source), "%s", topology_cache_source(t));
	caches(e, t);
	tunable_record(k, &e->tunable);
	/* the BTF check as cheaply as a run allows: doctor does it whole */
	sched_rules_probe(NULL, false, &e->rules, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration output.  The seed formats are reproduced byte for byte from the kernel's
 * printk()s (2.6.9-rc3 "cache-hot autodetect" patch, Oct 2004; kernel/sched.c in 2.6.16),
 * including their units: the 2004 matrix is in 2^20 ns ("msec" by shifting), the 2005 one
 * in 10^6 ns.  migtrace's own report uses real units.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib_report.h"
#include "topology.h"
#include "tunable.h"
#include "units.h"

char *calib_seed_cell(char *buf, int len, uint64_t delta)
{
	/* printk(" %3Ld.%ld", delta >> 20, (((long)delta >> 10) / 102) % 10) */
	snprintf(buf, len, "%3lld.%ld", (long long)(delta >> 20),
		 (((long)delta >> 10) / 102) % 10);
	return buf;
}

void calib_print_seed_2004(FILE *f, const struct calib_result *r, long cpu_mhz,
			   int64_t arch_decay_ns)
{
	unsigned long long min_delta = -1ULL, decay = (unsigned long long)arch_decay_ns;
	int n = r->ncpu;
	char cell[32];

	fprintf(f, "arch cache_decay_nsec: %lld\n", (long long)arch_decay_ns);
	fprintf(f, "migration cost matrix (cache_size: %llu, cpu: %ld MHz):\n",
		(unsigned long long)r->opts.cache_size, cpu_mhz);
	fprintf(f, "      ");
	for (int j = 0; j < n; j++)
		fprintf(f, "  [%02d]", r->opts.cpus.cpu[j]);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "[%02d]: ", r->opts.cpus.cpu[i]);
		for (int j = 0; j < n; j++) {
			const struct calib_cell *c = &r->cells[i * n + j];

			fprintf(f, " %s", calib_seed_cell(cell, sizeof(cell), c->cost_ns));
			if (c->src != c->dst && c->cost_ns < min_delta)
				min_delta = c->cost_ns;
		}
		fprintf(f, "\n");
	}
	fprintf(f, "min_delta: %lld\n", (long long)min_delta);
	if (min_delta != -1ULL)
		decay = min_delta;
	fprintf(f, "using cache_decay nsec: %lld (%lld msec)\n", (long long)decay,
		(long long)(decay >> 20));
}

void calib_print_seed_2005(FILE *f, const struct calib_result *r, long cpu_mhz)
{
	int n = r->ncpu;

	fprintf(f, "---------------------\n");
	fprintf(f, "| migration cost matrix (max_cache_size: %llu, cpu: %ld MHz):\n",
		(unsigned long long)r->opts.cache_size, cpu_mhz);
	fprintf(f, "---------------------\n");
	fprintf(f, "      ");
	for (int j = 0; j < n; j++)
		fprintf(f, "    [%02d]", r->opts.cpus.cpu[j]);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "[%02d]: ", r->opts.cpus.cpu[i]);
		for (int j = 0; j < n; j++) {
			const struct calib_cell *c = &r->cells[i * n + j];
			long long cost = (long long)c->cost_ns;

			if (c->src == c->dst)
				fprintf(f, "    -   ");
			else
				fprintf(f, " %2lld.%lld(%d)", cost / 1000000, (cost / 100000) % 10,
					c->distance);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "--------------------------------\n");
	fprintf(f, "| cacheflush times [%d]:", r->ndist);
	for (int d = 0; d < r->ndist; d++) {
		long long cost = (long long)r->dist[d].cost_ns;

		fprintf(f, " %lld.%lld (%lld)", cost / 1000000, (cost / 100000) % 10, cost);
	}
	fprintf(f, "\n");
	fprintf(f, "| calibration delay: %ld seconds\n", (long)r->wall_s);
	fprintf(f, "--------------------------------\n");
}

/* Union-find over calibrated-CPU indexes. */
static int uf_find(int *p, int i)
{
	while (p[i] != i)
		i = p[i] = p[p[i]];
	return i;
}

/* Renumbers roots to 0..k-1 in order of first appearance; returns k. */
static int uf_label(int *parent, int n, int *label)
{
	int k = 0, map[MT_MAX_CPUS_USER];

	for (int i = 0; i < n; i++)
		map[i] = -1;
	for (int i = 0; i < n; i++) {
		int root = uf_find(parent, i);

		if (map[root] < 0)
			map[root] = k++;
		label[i] = map[root];
	}
	return k;
}

void calib_group(const struct calib_result *r, const struct topology *t,
		 struct calib_groups *g)
{
	int n = r->ncpu, parent[MT_MAX_CPUS_USER];
	double lo = INFINITY, hi = 0, cut;
	bool sysfs = false, cpuid = false;

	memset(g, 0, sizeof(*g));
	/* Symmetrised cross cost per unordered pair: robust (median-based) when we have it. */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			double c = ((double)r->cells[i * n + j].robust_ns +
				    (double)r->cells[j * n + i].robust_ns) / 2;

			lo = fmin(lo, c);
			hi = fmax(hi, c);
		}
	g->split_ratio = n > 1 && lo > 0 ? hi / lo : 1;
	cut = sqrt(lo * hi);	/* geometric midpoint between the two cost classes */
	for (int i = 0; i < n; i++)
		parent[i] = i;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			double c = ((double)r->cells[i * n + j].robust_ns +
				    (double)r->cells[j * n + i].robust_ns) / 2;

			/* Below 1.3x the whole matrix is one class: no split is measured. */
			if (g->split_ratio < 1.3 || c < cut)
				parent[uf_find(parent, i)] = uf_find(parent, j);
		}
	g->ngroups = uf_label(parent, n, g->group_of);

	/* An LLC whose sharing nobody gave groups nothing: a guess would pass for a finding. */
	g->llc_known = 1;
	for (int i = 0; i < n && g->llc_known; i++)
		g->llc_known = topology_llc_known(t, r->opts.cpus.cpu[i], g->llc_why,
						  sizeof(g->llc_why));
	if (!g->llc_known)
		return;
	for (int i = 0; i < n; i++) {
		const struct topo_cache *k = topology_llc(t, r->opts.cpus.cpu[i]);

		sysfs |= k->source == TOPO_SRC_SYSFS;
		cpuid |= k->source == TOPO_SRC_CPUID;
	}
	snprintf(g->llc_source, sizeof(g->llc_source), "%s",
		 sysfs && cpuid ? "sysfs+CPUID" : cpuid ? "CPUID" : "sysfs");
	for (int i = 0; i < n; i++)
		parent[i] = i;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (topology_share_llc(t, r->opts.cpus.cpu[i], r->opts.cpus.cpu[j]))
				parent[uf_find(parent, i)] = uf_find(parent, j);
	g->sysfs_ngroups = uf_label(parent, n, g->sysfs_group_of);
	/* Both labelings number groups by first appearance, so equal partitions are equal. */
	g->agree = memcmp(g->group_of, g->sysfs_group_of, n * sizeof(int)) == 0;
}

static void print_groups(FILE *f, const struct calib_result *r, const int *label, int k)
{
	for (int gi = 0; gi < k; gi++) {
		struct cpu_set_list l = { 0 };
		char buf[256];

		for (int i = 0; i < r->ncpu; i++)
			if (label[i] == gi)
				l.cpu[l.n++] = r->opts.cpus.cpu[i];
		fprintf(f, "%s{%s}", gi ? " " : "", format_cpu_list(&l, buf, sizeof(buf)));
	}
}

static void print_matrix(FILE *f, const struct calib_result *r, const char *title,
			 double (*value)(const struct calib_cell *))
{
	int n = r->ncpu;
	char buf[32];

	if (title)
		fprintf(f, "%s\n", title);
	fprintf(f, "        ");
	for (int j = 0; j < n; j++) {
		snprintf(buf, sizeof(buf), "to %d", r->opts.cpus.cpu[j]);
		fprintf(f, " %10s", buf);
	}
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "  from %-2d", r->opts.cpus.cpu[i]);
		for (int j = 0; j < n; j++)
			fprintf(f, " %10s", fmt_ns(buf, sizeof(buf), value(&r->cells[i * n + j])));
		fprintf(f, "\n");
	}
}

static double cell_cost(const struct calib_cell *c)
{
	return (double)c->cost_ns;
}

static double cell_median(const struct calib_cell *c)
{
	return c->median_ns;
}

static double cell_mad(const struct calib_cell *c)
{
	return c->mad_ns;
}

static double cell_undisturbed(const struct calib_cell *c)
{
	return c->undisturbed_ns;
}

/* The interval covers this run's sampling only: the host moving the vCPUs is not in it. */
static void print_interval(FILE *f, const struct calib_result *r)
{
	char lo[32], hi[32];

	fprintf(f, "hot time, 95 %% interval: %s to %s (block bootstrap over this run's "
		"repetitions; a host that changes between runs can move it further)\n",
		fmt_ns(lo, sizeof(lo), (double)r->hot_robust_lo_ns),
		fmt_ns(hi, sizeof(hi), (double)r->hot_robust_hi_ns));
}

void calib_print_report(FILE *f, const struct calib_result *r, const struct topology *t,
			const struct tunable *k)
{
	char a[64], b[64], kbuf[700];
	struct calib_groups g;

	if (r->method == CALIB_2005) {
		fprintf(f, "method 2005 (2.6.16 auto-tuning: buffer-size sweep, cross-CPU minus "
			"same-CPU cost, max over sizes, x 2 x factor %d/128)\n", r->opts.factor);
		fprintf(f, "cache %s, sweep from %s up in 5 %% steps, %d repetition%s per size\n",
			fmt_bytes(a, sizeof(a), r->opts.cache_size),
			fmt_bytes(b, sizeof(b), r->opts.cache_size / 2 > CALIB_2005_MIN_SIZE ?
				  r->opts.cache_size / 2 : CALIB_2005_MIN_SIZE),
			r->opts.reps, r->opts.reps == 1 ? "" : "s");
		for (int d = 0; d < r->ndist; d++) {
			const struct calib_distance *cd = &r->dist[d];

			if (cd->cpu1 < 0)
				continue;
			fprintf(f, "  distance %d (CPUs %d,%d): max cost %s at a working set of %s "
				"-> hot time %s\n", d, cd->cpu1, cd->cpu2,
				fmt_ns(a, sizeof(a), (double)cd->max_cost_ns),
				fmt_bytes(b, sizeof(b), cd->size_found),
				fmt_ns(kbuf, sizeof(kbuf), (double)cd->cost_ns));
		}
	} else {
		fprintf(f, "method 2004 (boot-time auto-tuning: max of the first %d timed fills "
			"after a migration, x 6; robust: median of the undisturbed fills of all "
			"%d, x 6)\n",
			r->opts.reps < CALIB_SEED_REPS ? r->opts.reps : CALIB_SEED_REPS,
			r->opts.reps);
		fprintf(f, "cache %s, buffer %s (5/3 x cache)\n",
			fmt_bytes(a, sizeof(a), r->opts.cache_size),
			fmt_bytes(b, sizeof(b), r->buffer_size));
		print_matrix(f, r, "migration cost (worst of the first 20 fills x 6, the seed's cell):", cell_cost);
		print_matrix(f, r, "fill time after the migration, median:", cell_median);
		print_matrix(f, r, "spread of the fill time, MAD:", cell_mad);
		fprintf(f, "fill time after the migration, median of the undisturbed fills "
			"(at most %d %% above an undisturbed one):\n", CALIB_DISTURBED_PCT);
		print_matrix(f, r, NULL, cell_undisturbed);
	}
	if (r->has_hot) {
		if (r->method == CALIB_2004) {
			fprintf(f, "hot time: %s (robust: median of the undisturbed fills x 6, "
				"min over cross-CPU pairs)\n",
				fmt_ns(a, sizeof(a), (double)r->hot_robust_ns));
			if (r->has_interval)
				print_interval(f, r);
			fprintf(f, "hot time, the seed's rule (max of the first %d fills x 6): %s\n",
				CALIB_SEED_REPS, fmt_ns(a, sizeof(a), (double)r->hot_ns));
		} else {
			fprintf(f, "hot time: %s (method %d, min over cross-CPU pairs)\n",
				fmt_ns(a, sizeof(a), (double)r->hot_ns), r->method);
		}
	} else {
		fprintf(f, "hot time: none — migration cost needs two CPUs; only the same-CPU "
			"cost was measured\n");
	}
	fprintf(f, "kernel's value: %s\n", tunable_describe(k, kbuf, sizeof(kbuf)));
	if (r->has_hot && k->value_ns > 0)
		fprintf(f, "calibrated / kernel: %.2fx\n", (double)(r->method == CALIB_2004 ?
				r->hot_robust_ns : r->hot_ns) / (double)k->value_ns);
	if (r->method == CALIB_2004) {
		fprintf(f, "noise: median MAD %.1f %% of the median; max is %.2fx the median%s\n",
			r->noise_pct, r->max_over_median,
			r->max_over_median > 1.5 ? " — the seed's max is driven by outliers here; "
			"prefer the robust hot time" : "");
		fprintf(f, "disturbed fills: %.1f %% (median over cells), left out of the robust "
			"hot time\n", r->disturbed_pct);
		if (r->ncpu > 1) {
			calib_group(r, t, &g);
			fprintf(f, "CPU groups by measured cost: ");
			print_groups(f, r, g.group_of, g.ngroups);
			fprintf(f, " (max/min cross cost %.2fx); ", g.split_ratio);
			if (g.llc_known) {
				fprintf(f, "%s LLC groups: ", g.llc_source);
				print_groups(f, r, g.sysfs_group_of, g.sysfs_ngroups);
				fprintf(f, " — %s\n", g.agree ? "agree" : "differ");
			} else {
				fprintf(f, "sysfs/CPUID LLC groups: unknown (%s)\n", g.llc_why);
			}
		}
	}
	fprintf(f, "calibrated in %.2f s\n", r->wall_s);
}

static struct json_object *jint(int64_t v)
{
	return json_object_new_int64(v);
}

struct json_object *calib_to_json(const struct calib_result *r, const struct topology *t,
				  const struct tunable *k)
{
	struct json_object *o = json_object_new_object(), *cells, *cpus, *kern;
	int n = r->ncpu;

	if (!o)
		return NULL;
	json_object_object_add(o, "schema", json_object_new_string("migtrace.calibrate/1"));
	json_object_object_add(o, "method", jint(r->method));
	cpus = json_object_new_array();
	for (int i = 0; i < n; i++)
		json_object_array_add(cpus, jint(r->opts.cpus.cpu[i]));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "cache_size_bytes", jint((int64_t)r->opts.cache_size));
	json_object_object_add(o, "buffer_size_bytes", jint((int64_t)r->buffer_size));
	json_object_object_add(o, "reps", jint(r->opts.reps));
	json_object_object_add(o, "cpu_mhz", jint(t->cpu_mhz));
	cells = json_object_new_array();
	for (int i = 0; i < n * n; i++) {
		const struct calib_cell *c = &r->cells[i];
		struct json_object *jc = json_object_new_object();

		json_object_object_add(jc, "src", jint(c->src));
		json_object_object_add(jc, "dst", jint(c->dst));
		json_object_object_add(jc, "distance", jint(c->distance));
		json_object_object_add(jc, "cost_ns", jint((int64_t)c->cost_ns));
		if (r->method == CALIB_2004) {
			json_object_object_add(jc, "max_ns", jint((int64_t)c->max_ns));
			json_object_object_add(jc, "min_ns", jint((int64_t)c->min_ns));
			json_object_object_add(jc, "median_ns", jint(llround(c->median_ns)));
			json_object_object_add(jc, "mad_ns", jint(llround(c->mad_ns)));
			json_object_object_add(jc, "robust_ns", jint((int64_t)c->robust_ns));
			json_object_object_add(jc, "anchor_ns", jint(llround(c->anchor_ns)));
			json_object_object_add(jc, "undisturbed_median_ns",
					       jint(llround(c->undisturbed_ns)));
			json_object_object_add(jc, "undisturbed_fills", jint(c->undisturbed));
		}
		json_object_array_add(cells, jc);
	}
	json_object_object_add(o, "cells", cells);
	if (r->method == CALIB_2005) {
		struct json_object *dists = json_object_new_array();

		for (int d = 0; d < r->ndist; d++) {
			struct json_object *jd = json_object_new_object(), *steps;

			json_object_object_add(jd, "distance", jint(d));
			json_object_object_add(jd, "cpu1", jint(r->dist[d].cpu1));
			json_object_object_add(jd, "cpu2", jint(r->dist[d].cpu2));
			json_object_object_add(jd, "size_found_bytes",
					       jint((int64_t)r->dist[d].size_found));
			json_object_object_add(jd, "max_cost_ns", jint(r->dist[d].max_cost_ns));
			json_object_object_add(jd, "cost_ns", jint((int64_t)r->dist[d].cost_ns));
			steps = json_object_new_array();
			for (int s = 0; s < r->dist[d].nsteps; s++) {
				struct json_object *js = json_object_new_object();

				json_object_object_add(js, "size_bytes",
						       jint((int64_t)r->dist[d].steps[s].size));
				json_object_object_add(js, "cost_ns", jint(r->dist[d].steps[s].cost_ns));
				json_object_array_add(steps, js);
			}
			json_object_object_add(jd, "steps", steps);
			json_object_array_add(dists, jd);
		}
		json_object_object_add(o, "distances", dists);
		json_object_object_add(o, "factor", jint(r->opts.factor));
	}
	if (r->has_hot) {
		json_object_object_add(o, "hot_time_ns", jint((int64_t)r->hot_ns));
		json_object_object_add(o, "hot_time_robust_ns", jint((int64_t)r->hot_robust_ns));
	} else {
		json_object_object_add(o, "hot_time_ns", NULL);
	}
	if (r->has_interval) {
		json_object_object_add(o, "hot_time_robust_lo_ns",
				       jint((int64_t)r->hot_robust_lo_ns));
		json_object_object_add(o, "hot_time_robust_hi_ns",
				       jint((int64_t)r->hot_robust_hi_ns));
	}
	if (r->method == CALIB_2004) {
		json_object_object_add(o, "anchor_blocks", jint(CALIB_BLOCKS));
		json_object_object_add(o, "anchor_quantile",
				       json_object_new_double(CALIB_ANCHOR_QUANTILE));
		json_object_object_add(o, "anchor_block_quantile",
				       json_object_new_double(CALIB_ANCHOR_BLOCK_QUANTILE));
		json_object_object_add(o, "disturbed_above_anchor_pct", jint(CALIB_DISTURBED_PCT));
		json_object_object_add(o, "disturbed_pct",
				       json_object_new_double(r->disturbed_pct));
	}
	json_object_object_add(o, "noise_mad_pct", json_object_new_double(r->noise_pct));
	json_object_object_add(o, "max_over_median", json_object_new_double(r->max_over_median));
	json_object_object_add(o, "wall_s", json_object_new_double(r->wall_s));
	kern = json_object_new_object();
	json_object_object_add(kern, "value_ns", jint(k->value_ns));
	json_object_object_add(kern, "assumed", json_object_new_boolean(k->assumed));
	json_object_object_add(kern, "path", json_object_new_string(k->path));
	json_object_object_add(kern, "why", json_object_new_string(k->why));
	json_object_object_add(o, "kernel_migration_cost", kern);
	if (r->method == CALIB_2004 && n > 1) {
		struct calib_groups g;
		struct json_object *jg = json_object_new_array(), *js = json_object_new_array();

		calib_group(r, t, &g);
		for (int i = 0; i < n; i++) {
			json_object_array_add(jg, jint(g.group_of[i]));
			json_object_array_add(js, jint(g.sysfs_group_of[i]));
		}
		json_object_object_add(o, "group_of_cpu", jg);
		/*
		 * llc_group_of_cpu is the LLC grouping whatever its source; the older
		 * sysfs_llc_group_of_cpu is kept for readers of this schema, and is null unless
		 * sysfs gave it.  Unknown sharing is null in both, never a made-up partition.
		 */
		json_object_object_add(o, "llc_groups_source", json_object_new_string(
				       g.llc_known ? g.llc_source : "unknown"));
		if (!g.llc_known)
			json_object_object_add(o, "llc_groups_unknown_why",
					       json_object_new_string(g.llc_why));
		json_object_object_add(o, "llc_group_of_cpu",
				       g.llc_known ? json_object_get(js) : NULL);
		json_object_object_add(o, "sysfs_llc_group_of_cpu",
				       g.llc_known && strcmp(g.llc_source, "sysfs") == 0 ?
				       json_object_get(js) : NULL);
		json_object_put(js);
		json_object_object_add(o, "groups_agree", g.llc_known ?
				       json_object_new_boolean(g.agree) : NULL);
	}
	return o;
}

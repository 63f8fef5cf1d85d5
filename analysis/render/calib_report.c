// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration output, from the calibration model alone.  The seed formats are reproduced
 * byte for byte from the kernel's printk()s (2.6.9-rc3 "cache-hot autodetect" patch, Oct
 * 2004; kernel/sched.c in 2.6.16), including their units: the 2004 matrix is in 2^20 ns
 * ("msec" by shifting), the 2005 one in 10^6 ns.  migtrace's own report uses real units.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib_report.h"
#include "printable.h"
#include "units.h"

char *calib_seed_cell(char *buf, int len, uint64_t delta)
{
	/* printk(" %3Ld.%ld", delta >> 20, (((long)delta >> 10) / 102) % 10) */
	snprintf(buf, len, "%3lld.%ld", (long long)(delta >> 20),
		 (((long)delta >> 10) / 102) % 10);
	return buf;
}

/* The matrix's column heads, "[02]", each after pad spaces as the kernel printed them. */
static void matrix_head(FILE *f, const struct calibration *c, int pad)
{
	fprintf(f, "      ");
	for (int j = 0; j < c->cpus.n; j++)
		fprintf(f, "%*s[%02d]", pad, "", c->cpus.cpu[j]);
	fprintf(f, "\n");
}

void calib_print_seed_2004(FILE *f, const struct calibration *c)
{
	int64_t arch_decay_ns = c->tunable.value_ns;
	unsigned long long min_delta = -1ULL, decay = (unsigned long long)arch_decay_ns;
	int n = c->cpus.n;
	char cell[32];

	fprintf(f, "arch cache_decay_nsec: %lld\n", (long long)arch_decay_ns);
	fprintf(f, "migration cost matrix (cache_size: %llu, cpu: %ld MHz):\n",
		(unsigned long long)c->cache_bytes, c->cpu_mhz);
	matrix_head(f, c, 2);
	for (int i = 0; i < n; i++) {
		fprintf(f, "[%02d]: ", c->cpus.cpu[i]);
		for (int j = 0; j < n; j++) {
			const struct calib_cell *x = &c->cells[i * n + j];

			fprintf(f, " %s", calib_seed_cell(cell, sizeof(cell), x->cost_ns));
			if (x->src_cpu != x->dst_cpu && x->cost_ns < min_delta)
				min_delta = x->cost_ns;
		}
		fprintf(f, "\n");
	}
	fprintf(f, "min_delta: %lld\n", (long long)min_delta);
	if (min_delta != -1ULL)
		decay = min_delta;
	fprintf(f, "using cache_decay nsec: %lld (%lld msec)\n", (long long)decay,
		(long long)(decay >> 20));
}

void calib_print_seed_2005(FILE *f, const struct calibration *c)
{
	int n = c->cpus.n;

	fprintf(f, "---------------------\n");
	fprintf(f, "| migration cost matrix (max_cache_size: %llu, cpu: %ld MHz):\n",
		(unsigned long long)c->cache_bytes, c->cpu_mhz);
	fprintf(f, "---------------------\n");
	matrix_head(f, c, 4);
	for (int i = 0; i < n; i++) {
		fprintf(f, "[%02d]: ", c->cpus.cpu[i]);
		for (int j = 0; j < n; j++) {
			const struct calib_cell *x = &c->cells[i * n + j];
			long long cost = (long long)x->cost_ns;

			if (x->src_cpu == x->dst_cpu)
				fprintf(f, "    -   ");
			else
				fprintf(f, " %2lld.%lld(%d)", cost / 1000000, (cost / 100000) % 10,
					x->distance);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "--------------------------------\n");
	fprintf(f, "| cacheflush times [%d]:", c->ndist);
	for (int d = 0; d < c->ndist; d++) {
		long long cost = (long long)c->dist[d].cost_ns;

		fprintf(f, " %lld.%lld (%lld)", cost / 1000000, (cost / 100000) % 10, cost);
	}
	fprintf(f, "\n");
	fprintf(f, "| calibration delay: %ld seconds\n", (long)c->wall_s);
	fprintf(f, "--------------------------------\n");
}

void calib_print_intro(FILE *f, const struct calibration *c)
{
	char a[256], b[32];

	fprintf(f, "Calibrating migration cost between CPUs %s against the %s (buffer %s), "
		"method %d%s.\n", format_cpu_list(&c->cpus, a, sizeof(a)), c->cache_what,
		fmt_bytes(b, sizeof(b), c->buffer_bytes), c->method,
		c->chase ? ", and the chase beside it" : "");
}

void calib_print_dry_run(FILE *f, const struct calibration *c)
{
	const struct calib_chase *ch = c->chase;

	if (ch && ch->ncurves)
		fprintf(f, "dry run: %d ordered pairs x %d repetitions; the chase: %d curves x %d "
			"displacements x 2 arms x %d rounds, D %s; nothing measured\n",
			c->cpus.n * c->cpus.n, c->reps, ch->ncurves, ch->curves[0].npoints,
			ch->rounds, ch->sweep_why);
	else
		fprintf(f, "dry run: %d ordered pairs x %d repetitions; nothing measured\n",
			c->cpus.n * c->cpus.n, c->reps);
}

static void print_groups(FILE *f, const struct calibration *c, const int *label, int k)
{
	for (int gi = 0; gi < k; gi++) {
		struct cpu_set_list l = { 0 };
		char buf[256];

		for (int i = 0; i < c->cpus.n; i++)
			if (label[i] == gi)
				l.cpu[l.n++] = c->cpus.cpu[i];
		fprintf(f, "%s{%s}", gi ? " " : "", format_cpu_list(&l, buf, sizeof(buf)));
	}
}

static void print_matrix(FILE *f, const struct calibration *c, const char *title,
			 double (*value)(const struct calib_cell *))
{
	int n = c->cpus.n;
	char buf[32];

	if (title)
		fprintf(f, "%s\n", title);
	fprintf(f, "        ");
	for (int j = 0; j < n; j++) {
		snprintf(buf, sizeof(buf), "to %d", c->cpus.cpu[j]);
		fprintf(f, " %10s", buf);
	}
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "  from %-2d", c->cpus.cpu[i]);
		for (int j = 0; j < n; j++)
			fprintf(f, " %10s", fmt_ns(buf, sizeof(buf), value(&c->cells[i * n + j])));
		fprintf(f, "\n");
	}
}

static double cell_cost(const struct calib_cell *x)
{
	return (double)x->cost_ns;
}

static double cell_median(const struct calib_cell *x)
{
	return x->fill_median_ns;
}

static double cell_mad(const struct calib_cell *x)
{
	return x->fill_mad_ns;
}

static double cell_undisturbed(const struct calib_cell *x)
{
	return x->fill_undisturbed_ns;
}

/* The interval covers this run's sampling only: the host moving the vCPUs is not in it. */
static void print_interval(FILE *f, const struct calibration *c)
{
	char lo[32], hi[32];

	fprintf(f, "hot time, 95 %% interval: %s to %s (block bootstrap over this run's "
		"repetitions; a host that changes between runs can move it further)\n",
		fmt_ns(lo, sizeof(lo), c->hot_robust_lo_ns),
		fmt_ns(hi, sizeof(hi), c->hot_robust_hi_ns));
}

static void print_method_2005(FILE *f, const struct calibration *c)
{
	char a[64], b[64], d[64];

	fprintf(f, "method 2005 (2.6.16 auto-tuning: buffer-size sweep, cross-CPU minus "
		"same-CPU cost, max over sizes, x 2 x factor %d/128)\n", c->factor);
	fprintf(f, "cache %s, sweep from %s up in 5 %% steps, %d repetition%s per size\n",
		fmt_bytes(a, sizeof(a), c->cache_bytes),
		fmt_bytes(b, sizeof(b), c->cache_bytes / 2 > CALIB_2005_MIN_SIZE ?
			  c->cache_bytes / 2 : CALIB_2005_MIN_SIZE),
		c->reps, c->reps == 1 ? "" : "s");
	for (int i = 0; i < c->ndist; i++) {
		const struct calib_distance *cd = &c->dist[i];

		if (cd->cpu1 < 0)
			continue;
		fprintf(f, "  distance %d (CPUs %d,%d): max cost %s at a working set of %s "
			"-> hot time %s\n", i, cd->cpu1, cd->cpu2,
			fmt_ns(a, sizeof(a), (double)cd->max_cost_ns),
			fmt_bytes(b, sizeof(b), cd->size_found_bytes),
			fmt_ns(d, sizeof(d), (double)cd->cost_ns));
	}
}

static void print_method_2004(FILE *f, const struct calibration *c)
{
	char a[64], b[64];

	fprintf(f, "method 2004 (boot-time auto-tuning: max of the first %d timed fills "
		"after a migration, x 6; robust: median of the undisturbed fills of all "
		"%d, x 6)\n", c->reps < CALIB_SEED_REPS ? c->reps : CALIB_SEED_REPS, c->reps);
	fprintf(f, "cache %s, buffer %s (5/3 x cache)\n", fmt_bytes(a, sizeof(a), c->cache_bytes),
		fmt_bytes(b, sizeof(b), c->buffer_bytes));
	print_matrix(f, c, "migration cost (worst of the first 20 fills x 6, the seed's cell):",
		     cell_cost);
	print_matrix(f, c, "fill time after the migration, median:", cell_median);
	print_matrix(f, c, "spread of the fill time, MAD:", cell_mad);
	fprintf(f, "fill time after the migration, median of the undisturbed fills "
		"(at most %d %% above an undisturbed one):\n", c->disturbed_above_anchor_pct);
	print_matrix(f, c, NULL, cell_undisturbed);
}

static void print_hot(FILE *f, const struct calibration *c)
{
	char a[64];

	if (!c->has_hot) {
		fprintf(f, "hot time: none — migration cost needs two CPUs; only the same-CPU "
			"cost was measured\n");
	} else if (c->method == CALIB_2004) {
		fprintf(f, "hot time: %s (robust: median of the undisturbed fills x 6, "
			"min over cross-CPU pairs)\n", fmt_ns(a, sizeof(a), c->hot_robust_ns));
		if (c->has_interval)
			print_interval(f, c);
		fprintf(f, "hot time, the seed's rule (max of the first %d fills x 6): %s\n",
			CALIB_SEED_REPS, fmt_ns(a, sizeof(a), c->hot_seed_ns));
		/* said where the chase is, whose D* it is to be compared with */
		if (c->chase)
			calib_print_assumed_rate(f, c);
	} else {
		fprintf(f, "hot time: %s (method %d, min over cross-CPU pairs)\n",
			fmt_ns(a, sizeof(a), c->hot_seed_ns), c->method);
	}
}

/* The kernel's value beside the calibrated one, and where it came from. */
static void print_kernel(FILE *f, const struct calibration *c)
{
	const struct tunable_state *k = &c->tunable;
	double us = (double)k->value_ns / 1000.0;

	if (k->assumed)
		fprintf(f, "kernel's value: %.0f µs, kernel default, assumed — tunable not "
			"readable: %s\n", us, k->why);
	else
		fprintf(f, "kernel's value: %.0f µs (read from %s)\n", us, k->path);
	if (c->has_hot && k->value_ns > 0)
		fprintf(f, "calibrated / kernel: %.2fx\n", (c->method == CALIB_2004 ?
				c->hot_robust_ns : c->hot_seed_ns) / (double)k->value_ns);
}

static void print_noise(FILE *f, const struct calibration *c)
{
	const struct calib_groups *g = &c->groups;

	fprintf(f, "noise: median MAD %.1f %% of the median; max is %.2fx the median%s\n",
		c->noise_pct, c->max_over_median, c->max_over_median > 1.5 ?
		" — the seed's max is driven by outliers here; prefer the robust hot time" : "");
	fprintf(f, "disturbed fills: %.1f %% (median over cells), left out of the robust "
		"hot time\n", c->disturbed_pct);
	if (!g->valid)
		return;
	fprintf(f, "CPU groups by measured cost: ");
	print_groups(f, c, g->group_of, g->ngroups);
	fprintf(f, " (max/min cross cost %.2fx); ", g->split_ratio);
	if (c->llc.known) {
		fprintf(f, "%s LLC groups: ", c->llc.source);
		print_groups(f, c, c->llc.group_of, c->llc.ngroups);
		fprintf(f, " — %s\n", g->agree ? "agree" : "differ");
	} else {
		fprintf(f, "sysfs/CPUID LLC groups: unknown (%s)\n", c->llc.why);
	}
}

void calib_print_report(FILE *f, const struct calibration *c)
{
	if (c->method == CALIB_2005)
		print_method_2005(f, c);
	else
		print_method_2004(f, c);
	print_hot(f, c);
	print_kernel(f, c);
	if (c->method == CALIB_2004)
		print_noise(f, c);
	if (c->chase)
		calib_print_chase(f, c, false);
	fprintf(f, "calibrated in %.2f s\n", c->wall_s);
}

void calib_print_sweep_head(FILE *f, const struct calibration *c)
{
	fprintf(f, "\nsize sweep (method 2004, medians of %d fills; cost = cross-CPU - "
		"same-CPU):\n", c->reps);
	fprintf(f, "  %-10s %-10s %12s %12s %12s %14s\n", "cache", "buffer", "same-CPU",
		"cross-CPU", "cost", "cost per KiB");
}

static double size_cost(const struct calib_size *z)
{
	return z->has_cross ? z->cross_cpu_median_ns - z->same_cpu_median_ns : 0;
}

void calib_print_sweep_size(FILE *f, const struct calibration *c, int i)
{
	const struct calib_size *z = &c->sizes[i];
	char cache[32], buf[32], same[32], cross[32], cost[32];

	fprintf(f, "  %-10s %-10s %12s %12s %12s %11.1f ns\n",
		fmt_bytes(cache, sizeof(cache), z->cache_bytes),
		fmt_bytes(buf, sizeof(buf), z->buffer_bytes),
		fmt_ns(same, sizeof(same), z->same_cpu_median_ns),
		z->has_cross ? fmt_ns(cross, sizeof(cross), z->cross_cpu_median_ns) : "-",
		z->has_cross ? fmt_ns(cost, sizeof(cost), size_cost(z)) : "-",
		size_cost(z) / ((double)z->buffer_bytes / 1024));
}

void calib_print_sweep_peak(FILE *f, const struct calibration *c)
{
	const struct calib_size *best = NULL;
	char a[32], b[32];
	uint64_t bytes;

	for (int i = 0; i < c->nsizes; i++)
		if (c->sizes[i].has_cross && (!best || size_cost(&c->sizes[i]) > size_cost(best)))
			best = &c->sizes[i];
	if (!best)
		return;
	bytes = (uint64_t)((double)c->cache_bytes * best->factor);
	fprintf(f, "migration cost peaks with a %s buffer (cache %s x 5/3): the cache behaves "
		"as about that size\n", fmt_bytes(a, sizeof(a), bytes * 5 / 3),
		fmt_bytes(b, sizeof(b), bytes));
}

void calib_print_assumed_rate(FILE *f, const struct calibration *c)
{
	char a[32], b[32], d[32];

	if (!calib_assumed_mbps(c))
		return;
	fprintf(f, "the x 6 assumes that the tasks sharing a CPU displace its %s cache within the "
		"hot time: %s (the cache / %s)\n", fmt_bytes(a, sizeof(a), c->cache_bytes),
		fmt_rate(b, sizeof(b), calib_assumed_mbps(c)),
		fmt_ns(d, sizeof(d), c->method == CALIB_2004 ? c->hot_robust_ns : c->hot_seed_ns));
}

/* ---- the chase ---- */

static char *chains_name(char *buf, int len, int chains)
{
	snprintf(buf, len, "%d chain%s", chains, chains == 1 ? "" : "s");
	return buf;
}

/* A bound of D*'s interval: 0 is below the sweep, a bound not finite beyond it. */
static char *dstar_bound(char *buf, int len, const struct chase_curve *x, double v)
{
	char b[32];
	uint64_t first = x->points[0].displaced_bytes;
	uint64_t last = x->points[x->npoints - 1].displaced_bytes;

	if (!isfinite(v))
		snprintf(buf, len, "beyond %s", fmt_bytes(b, sizeof(b), last));
	else if (v <= 0)
		snprintf(buf, len, "below %s", fmt_bytes(b, sizeof(b), first));
	else
		fmt_bytes(buf, len, (uint64_t)llround(v));
	return buf;
}

/* "D* 2.3 MiB (95 % interval 1.5 MiB to 4 MiB)", or what stands for it. */
static void print_dstar(FILE *f, const struct chase_curve *x)
{
	char a[48], b[48];
	uint64_t last = x->points[x->npoints - 1].displaced_bytes;

	switch (x->state) {
	case CORR_HOT_FOUND:
		fprintf(f, "D* %s", fmt_bytes(a, sizeof(a), (uint64_t)llround(x->dstar_bytes)));
		break;
	case CORR_HOT_ABOVE:
		fprintf(f, "D* beyond %s", fmt_bytes(a, sizeof(a), last));
		break;
	case CORR_HOT_NO_COST:
		fprintf(f, "no cost: a move costs no more than a stay at every D (the fit's "
			"maximum: %s a line)", fmt_ns(a, sizeof(a), x->max_ns));
		return;
	default:
		fprintf(f, "D* not measured");
		return;
	}
	/* an interval wholly beyond the sweep says no more than "beyond" */
	if (x->has_interval && (isfinite(x->dstar_lo_bytes) || isfinite(x->dstar_hi_bytes)))
		fprintf(f, " (95 %% interval %s to %s)",
			dstar_bound(a, sizeof(a), x, x->dstar_lo_bytes),
			dstar_bound(b, sizeof(b), x, x->dstar_hi_bytes));
}

/* The hot time D* gives at the rate the 2004 rule assumes: its figure, comparable. */
static void print_at_assumed_rate(FILE *f, const struct calibration *c,
				  const struct chase_curve *x)
{
	double mbps = calib_assumed_mbps(c);
	char a[32], b[32], d[32];

	if (!mbps || (x->state != CORR_HOT_FOUND && x->state != CORR_HOT_ABOVE))
		return;
	/* bytes / (MB/s) = bytes / (1e6 bytes / 1e9 ns) = bytes x 1000 / MB/s ns */
	fprintf(f, "at %s, the rate the x 6 assumes, D* with 1 chain is a hot time of %s%s (D* / "
		"rate), against the 2004 rule's %s\n", fmt_rate(a, sizeof(a), mbps),
		x->state == CORR_HOT_ABOVE ? "more than " : "",
		fmt_ns(b, sizeof(b), x->dstar_bytes * 1000 / mbps),
		fmt_ns(d, sizeof(d), c->method == CALIB_2004 ? c->hot_robust_ns : c->hot_seed_ns));
}

/* One block: the curves of a pair and working set, cv[0..CHASE_NCHAINS), by chain count. */
static void print_block(FILE *f, const struct calibration *c, const struct chase_curve *cv,
			bool brief)
{
	uint64_t lines = cv[0].ws_bytes / 64;
	char a[48], b[48], d[48];
	bool beyond = false;

	fprintf(f, "CPUs %d -> %d (distance %d), working set %s (%llu lines):\n", cv[0].src_cpu,
		cv[0].dst_cpu, cv[0].distance, fmt_bytes(a, sizeof(a), cv[0].ws_bytes),
		(unsigned long long)lines);
	if (!brief) {
		fprintf(f, "  cost a line, cross - same:");
		for (int k = 0; k < CHASE_NCHAINS; k++)
			fprintf(f, " %10s", chains_name(a, sizeof(a), cv[k].chains));
		fprintf(f, "\n");
		for (int p = 0; p < cv[0].npoints; p++) {
			fprintf(f, "    D %-20s", fmt_bytes(a, sizeof(a),
							cv[0].points[p].displaced_bytes));
			for (int k = 0; k < CHASE_NCHAINS; k++)
				fprintf(f, " %10s", fmt_ns(b, sizeof(b), cv[k].points[p].cost_ns));
			fprintf(f, "\n");
		}
	}
	for (int k = 0; k < CHASE_NCHAINS; k++) {
		const struct chase_curve *x = &cv[k];

		fprintf(f, "  %-9s ", chains_name(a, sizeof(a), x->chains));
		if (x->state == CORR_HOT_NO_COST || x->state == CORR_HOT_NO_DATA) {
			print_dstar(f, x);
			fprintf(f, "\n");
			continue;
		}
		fprintf(f, "refill %s a line (%s a migration of the set), ",
			fmt_ns(b, sizeof(b), x->max_ns),
			fmt_ns(d, sizeof(d), x->max_ns * (double)lines));
		if (x->has_residual)
			fprintf(f, "residual %s a line, ", fmt_ns(b, sizeof(b), x->residual_ns));
		print_dstar(f, x);
		fprintf(f, "\n");
		beyond |= x->state == CORR_HOT_ABOVE && !x->has_residual;
	}
	if (beyond)
		fprintf(f, "  most of the cost remains at %s: the refill comes from beyond what "
			"the sweep displaced (a cache the two CPUs do not share, or memory)\n",
			fmt_bytes(a, sizeof(a), cv[0].points[cv[0].npoints - 1].displaced_bytes));
	print_at_assumed_rate(f, c, &cv[0]);
}

void calib_print_chase(FILE *f, const struct calibration *c, bool brief)
{
	const struct calib_chase *ch = c->chase;
	char a[32];

	if (!ch)
		return;
	if (!ch->ncurves) {
		fprintf(f, "chase: no pair of CPUs to move between (it needs two)\n");
		return;
	}
	fprintf(f, "chase: dependent loads over random cycles of lines, each written; warm on the "
		"source CPU, D bytes streamed through its caches as cachewalk's polluter streams "
		"them, then one walk on the destination CPU minus one on the source (median of %d "
		"rounds, %.2f s)\n", ch->rounds, ch->wall_s);
	fprintf(f, "trials: %d, %d tried again after the thread was switched out, %d kept "
		"switched out after %d tries\n", ch->trials, ch->redone, ch->switched,
		CHASE_TRIES);
	fprintf(f, "D from %s in steps of 2 %s\n",
		fmt_bytes(a, sizeof(a), ch->curves[0].points[0].displaced_bytes), ch->sweep_why);
	for (int i = 0; i + CHASE_NCHAINS <= ch->ncurves; i += CHASE_NCHAINS)
		print_block(f, c, &ch->curves[i], brief);
}

const char *calib_source_name(char *buf, size_t len, const char *source)
{
	return !strcmp(source, "cpuid") ? "CPUID" : printable(buf, len, source);
}

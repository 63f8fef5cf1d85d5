// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text exposition (format 0.0.4) of a run, as node_exporter's textfile
 * collector reads it and `promtool check metrics` lints it: HELP and TYPE for every family,
 * base units (seconds), counters ending in _total, no sample timestamps (the collector
 * refuses them).  OpenMetrics 1.0 (--openmetrics, and --listen to a scraper that asks for
 * it) is made from this text by render_om1.c, which renames the families.  Every value is
 * the run's own, read from the model; a figure the run does not have is left out, not 0.
 * Prometheus's way (docs/servers.md, "Series"): counters and histograms that rate() and
 * histogram_quantile() read, no rates or quantiles computed here; no label carries free
 * text (the workload is named by its program's file name, never its arguments: a scraped
 * file is world-readable), so the series are bounded.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "render_export.h"

/* A label value: escaped as the format says; bytes that are not UTF-8 become '?'. */
void om_label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 :
			(*p & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = n > 0 && (n == 1 || *p >= 0xc2);

		for (int i = 1; ok && i < n; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (!ok) {
			fputc('?', f);
			p++;
			continue;
		}
		if (*p == '\\' || *p == '"')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

void om_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample_s(FILE *f, const char *name, double seconds)
{
	char b[40];

	fprintf(f, "%s %s\n", name, fmt_shortest(b, sizeof(b), seconds));
}

/* The value of a sample whose name and labels are written: a number, and the line's end. */
static void value(FILE *f, double v)
{
	char b[40];

	fprintf(f, "%s\n", fmt_shortest(b, sizeof(b), v));
}

/* le of slot k's upper edge, 2^(k+1) µs, in seconds. */
static char *slot_le(char *b, size_t len, int k)
{
	return fmt_shortest(b, len, ldexp(1.0, k + 1) / 1e6);
}

/* Where in its slot an age is taken to lie for the estimated sum: the middle, µs. */
static double slot_mid_us(int k)
{
	if (k == 0)
		return 1.0;			/* [0, 2) µs */
	if (k == MT_HIST_SLOTS - 1)
		return ldexp(1.0, k);		/* open-ended: its lower edge, an underestimate */
	return 1.5 * ldexp(1.0, k);
}

/*
 * The age sums are exact when every migration counted has its record here.  A live file
 * (estimate_only) always takes the estimate: a sum that turned from exact to estimated when
 * --max-records stops keeping records could go down, which rate() would read as a reset.
 */
static bool age_sums_exact(const struct run *r, double sum_s[MT_NR_CAUSES], bool estimate_only)
{
	uint64_t nrec[MT_NR_CAUSES], ns[MT_NR_CAUSES];
	bool exact = !estimate_only && !r->stats.rb_dropped && !r->recs_not_kept;

	memset(sum_s, 0, MT_NR_CAUSES * sizeof(double));
	run_record_ages(r, nrec, ns);
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		uint64_t n = 0;

		for (int k = 0; k < MT_HIST_SLOTS; k++)
			n += r->hists.age[c][k];
		exact = exact && n == nrec[c];
	}
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		double us = 0;

		for (int k = 0; !exact && k < MT_HIST_SLOTS; k++)
			us += (double)r->hists.age[c][k] * slot_mid_us(k);
		/* divided, not multiplied by 1e-9: 267420 ns is 0.00026742 s, digit for digit */
		sum_s[c] = exact ? (double)ns[c] / 1e9 : us / 1e6;
	}
	return exact;
}

/* One labelled series of a histogram family n: its cumulative buckets, _sum, _count. */
static void histogram_series(FILE *f, const char *n, const char *label, const char *value,
			     const __u64 *slots, double sum_s)
{
	uint64_t cum = 0;
	char b[40];

	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		cum += slots[k];
		if (k + 1 < MT_HIST_SLOTS)
			fprintf(f, "%s_bucket{%s=\"%s\",le=\"%s\"} %llu\n", n, label, value,
				slot_le(b, sizeof(b), k), (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{%s=\"%s\",le=\"+Inf\"} %llu\n", n, label, value,
		(unsigned long long)cum);
	fprintf(f, "%s_sum{%s=\"%s\"} %s\n", n, label, value, fmt_shortest(b, sizeof(b), sum_s));
	fprintf(f, "%s_count{%s=\"%s\"} %llu\n", n, label, value, (unsigned long long)cum);
}

static void age_histogram(FILE *f, const struct run *r, bool live)
{
	const char *n = "migtrace_migration_age_seconds";
	double sum_s[MT_NR_CAUSES];
	bool exact = age_sums_exact(r, sum_s, live);

	fprintf(f, "# HELP %s Age at migration (since the last switch-out on the source CPU; 0 "
		"for a running task), by cause. Buckets are the kernel's log2 slots: le=2^(k+1) "
		"us holds the ages under it. %s\n", n, exact ?
		"_sum is exact: the sum of every migration record's age." : live ?
		"_sum is an estimate from slot midpoints (the open last slot at its lower edge), "
		"so that it only grows." :
		"_sum is an estimate from slot midpoints (the open last slot at its lower edge): "
		"not every migration has its record here.");
	fprintf(f, "# TYPE %s histogram\n", n);
	for (int c = 0; c < MT_NR_CAUSES; c++)
		histogram_series(f, n, "cause", mt_cause_names[c], r->hists.age[c], sum_s[c]);
}

/*
 * The topology levels and the kernel's rule, for a run that has them: migrations by level
 * and cause, judged and hot pulls by level, the pulls' kernel-age histogram by level (its
 * _sum from slot midpoints, as the HELP says), the judged pulls by the rule that decided
 * them, and each level's verdict factor where it has one.
 */
static void levels(FILE *f, const struct run *r)
{
	const char *n = "migtrace_pull_kernel_age_seconds";
	const struct mt_stats *s = &r->stats;

	om_family(f, "migtrace_level_migrations_total", "counter", "Real migrations of the "
		  "traced tasks by topology level of the CPU pair (smt, llc: the same last-level "
		  "cache, cross_llc, cross_node; unknown: the LLC sharing is not known) and cause, "
		  "from the in-kernel counters.");
	for (int l = 0; l < MT_NR_LEVELS; l++)
		for (int c = 0; c < MT_NR_CAUSES; c++)
			fprintf(f, "migtrace_level_migrations_total{level=\"%s\",cause=\"%s\"} "
				"%llu\n", mt_level_names[l], mt_cause_names[c],
				(unsigned long long)s->level_migrations[l][c]);
	om_family(f, "migtrace_level_lb_pulls_judged_total", "counter", "Load-balancer pulls "
		  "with the kernel's age, by topology level.");
	for (int l = 0; l < MT_NR_LEVELS; l++)
		fprintf(f, "migtrace_level_lb_pulls_judged_total{level=\"%s\"} %llu\n",
			mt_level_names[l], (unsigned long long)s->level_lb_judged[l]);
	om_family(f, "migtrace_level_lb_pulls_hot_total", "counter", "Of them, hot at the "
		  "threshold by the kernel's rule (its tests before the age, then the age), by "
		  "topology level.");
	for (int l = 0; l < MT_NR_LEVELS; l++)
		fprintf(f, "migtrace_level_lb_pulls_hot_total{level=\"%s\"} %llu\n",
			mt_level_names[l], (unsigned long long)s->level_lb_hot[l]);
	om_family(f, "migtrace_lb_pulls_by_rule_total", "counter", "Judged load-balancer pulls "
		  "by what decided them in the kernel's order (age: none of the tests before it).");
	for (int i = 0; i < MT_NR_RULES; i++)
		fprintf(f, "migtrace_lb_pulls_by_rule_total{rule=\"%s\"} %llu\n", mt_rule_names[i],
			(unsigned long long)s->lb_rule[i]);
	fprintf(f, "# HELP %s The kernel's age of the judged load-balancer pulls "
		"(rq_clock_task(src) - se.exec_start), by topology level. Buckets are the kernel's "
		"log2 slots; _sum is an estimate from slot midpoints (the open last slot at its "
		"lower edge).\n# TYPE %s histogram\n", n, n);
	for (int l = 0; l < MT_NR_LEVELS; l++) {
		double us = 0;

		for (int k = 0; k < MT_HIST_SLOTS; k++)
			us += (double)r->hists.kernel_age_level[l][k] * slot_mid_us(k);
		histogram_series(f, n, "level", mt_level_names[l], r->hists.kernel_age_level[l],
				 us / 1e6);
	}
	if (!r->has_level_cost)
		return;
	om_family(f, "migtrace_level_verdict_factor", "gauge", "How far the kernel's value is off "
		  "the hot time of one topology level's pulls, as migtrace_verdict_factor; levels "
		  "without a verdict are left out.");
	for (int l = 0; l < MT_NR_LEVELS; l++) {
		const struct run_level_cost *c = &r->level_cost[l];

		if (!isfinite(c->factor) || c->judged < c->min_judged || c->bias)
			continue;
		fprintf(f, "migtrace_level_verdict_factor{level=\"%s\",verdict=\"%s\","
			"exact=\"%s\"} ", mt_level_names[l], verdict_names[c->kind],
			c->factor_is_bound ? "false" : "true");
		value(f, c->factor);
	}
	for (int l = 0, said = 0; l < MT_NR_LEVELS; l++) {
		const struct run_level_cost *c = &r->level_cost[l];
		const double end[3] = { c->tstar_ns, c->tstar_lo_ns, c->tstar_hi_ns };
		static const char *const bound[3] = { "estimate", "lower", "upper" };

		if (c->tstar_state == CORR_HOT_NO_DATA || !isfinite(c->tstar_ns))
			continue;
		if (!said++)
			om_family(f, "migtrace_level_tstar_seconds", "gauge", "T* of one topology "
				  "level's pulls, as migtrace_verdict_tstar_seconds; levels without "
				  "one are left out.");
		for (int k = 0; k < 3; k++) {
			/* an open end (0 or +inf, null in the file) is left out */
			if (!(end[k] > 0) || !isfinite(end[k]))
				continue;
			fprintf(f, "migtrace_level_tstar_seconds{level=\"%s\",state=\"%s\","
				"bound=\"%s\"} ", mt_level_names[l],
				corr_hot_state_names[c->tstar_state & 3], bound[k]);
			value(f, end[k] / 1e9);
		}
	}
}

char *om_workload_name(char *buf, size_t len, const char *argv0)
{
	const char *base = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	size_t n = 0;

	for (; base[n] && n < OM_WORKLOAD_MAX && n + 1 < len; n++) {
		char c = base[n];

		buf[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '.' || c == '_' || c == '+' || c == '-' ? c : '_';
	}
	if (len)
		snprintf(buf + n, len - n, "%s", n ? "" : "unknown");
	return buf;
}

const char *render_workload_name(const struct run *r, char *buf, size_t len)
{
	const char *cmd = r->meta.command;
	char first[sizeof(r->meta.command)];

	if (!strcmp(r->meta.backend.name, "trace-cmd"))
		return "trace-cmd";
	if (r->meta.attached)
		return r->meta.pid > 0 ? "pid" : !strncmp(cmd, "cgroup", 6) ? "cgroup" : "all";
	/* meta.command is the argv joined by spaces: its first word is the program */
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(cmd, " "), cmd);
	return first[0] ? om_workload_name(buf, len, first) : "unknown";
}

/* a run file written before backends were said was recorded by BPF */
static const char *backend_of(const struct run *r)
{
	return r->meta.backend.name[0] ? r->meta.backend.name : "bpf";
}

void om_build_info(FILE *f, const char *version, const char *backend)
{
	const char *v = version && *version ? version : "unknown", *rev = strstr(v, " (");
	size_t vlen = rev && v[strlen(v) - 1] == ')' ? (size_t)(rev - v) : strlen(v);
	char release[64], revision[64] = "";

	/* "0.1 (f85a8a2)", as --version says it: the release, then the revision built */
	snprintf(release, sizeof(release), "%.*s", (int)vlen, v);
	if (vlen < strlen(v))
		snprintf(revision, sizeof(revision), "%.*s", (int)(strlen(v) - vlen - 3), v + vlen + 2);
	om_family(f, "migtrace_build_info", "gauge", "The migtrace that wrote these metrics (its "
		  "release and the revision built) and the tracer that recorded them, in its "
		  "labels (the value is always 1).");
	fprintf(f, "migtrace_build_info{version=\"");
	om_label_value(f, release);
	fprintf(f, "\",revision=\"");
	om_label_value(f, revision[0] ? revision : "unknown");
	fprintf(f, "\",backend=\"");
	om_label_value(f, backend);
	fprintf(f, "\"} 1\n");
}

static void run_info(FILE *f, const struct run *r)
{
	struct tm tm = { 0 };
	char name[OM_WORKLOAD_MAX + 1];
	const char *end;

	om_family(f, "migtrace_run_info", "gauge", "The run these metrics describe, in its labels "
		  "(the value is always 1): the workload is its program's name, never its "
		  "arguments.");
	fprintf(f, "migtrace_run_info{kind=\"%s\",mode=\"%s\",kernel_release=\"",
		r->setup.kind == RUN_KIND_VALIDATE ? "validate" : "run",
		r->setup.mode == CORR_CONTROLLED ? "controlled" : "natural");
	om_label_value(f, r->env.kernel_release);
	fprintf(f, "\",workload=\"%s\"} 1\n", render_workload_name(r, name, sizeof(name)));
	end = strptime(r->meta.start_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end && !*end) {
		om_family(f, "migtrace_run_start_time_seconds", "gauge", "When tracing began, "
			  "seconds since the Unix epoch.");
		fprintf(f, "migtrace_run_start_time_seconds %lld\n", (long long)timegm(&tm));
	}
	om_family(f, "migtrace_run_duration_seconds", "gauge", "How long tracing lasted.");
	sample_s(f, "migtrace_run_duration_seconds", r->meta.duration_s);
}

/* The counters; the CPU pairs too unless live (nr_cpus^2 series: not for a fleet). */
static void counts(FILE *f, const struct run *r, bool live)
{
	int n = r->meta.nr_cpus;
	bool replayed = run_replayed(r);

	om_family(f, "migtrace_migrations_total", "counter", replayed ? "Real migrations "
		  "(source CPU != destination) of the traced tasks, by cause, replayed in user "
		  "space from the scheduler's trace events: complete only while "
		  "migtrace_trace_events_lost_total stays 0." : "Real migrations (source CPU != "
		  "destination) of the traced tasks, by cause, from the in-kernel counters "
		  "(complete even when records were lost).");
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, "migtrace_migrations_total{cause=\"%s\"} %llu\n", mt_cause_names[c],
			(unsigned long long)r->stats.migrations[c]);
	if (!live)
		om_family(f, "migtrace_cpu_pair_migrations_total", "counter", "Real migrations of "
			  "the traced tasks by source and destination CPU, all causes, from the "
			  "in-kernel matrix; pairs without one are left out.");
	for (int i = 0; !live && r->pairs && i < n * n; i++)
		if (r->pairs[i])
			fprintf(f, "migtrace_cpu_pair_migrations_total{src_cpu=\"%d\",dst_cpu=\"%d\"}"
				" %llu\n", i / n, i % n, (unsigned long long)r->pairs[i]);
	om_family(f, "migtrace_records_lost_total", "counter", "Records lost to a full ring "
		  "buffer (the counters and histograms still count them).");
	fprintf(f, "migtrace_records_lost_total{kind=\"migration\"} %llu\n",
		(unsigned long long)r->stats.rb_dropped);
	fprintf(f, "migtrace_records_lost_total{kind=\"unit\"} %llu\n",
		(unsigned long long)r->stats.units_dropped);
	if (replayed) {
		/* the ftrace backend, a trace-cmd capture: a gap of unknown size counts 1 */
		om_family(f, "migtrace_trace_events_lost_total", "counter", "Scheduler events the "
			  "trace's buffers lost (a full ring overwritten or dropping; a gap of "
			  "unknown size counts 1): the moves and switches among them are missing "
			  "from every count here.");
		fprintf(f, "migtrace_trace_events_lost_total{backend=\"");
		om_label_value(f, r->meta.backend.name);
		fprintf(f, "\"} %llu\n", (unsigned long long)r->meta.backend.lost_events);
	}
	om_family(f, "migtrace_records_not_kept_total", "counter", "Records read but not kept "
		  "past --max-records (counted only).");
	fprintf(f, "migtrace_records_not_kept_total{kind=\"migration\"} %llu\n",
		(unsigned long long)r->recs_not_kept);
	fprintf(f, "migtrace_records_not_kept_total{kind=\"unit\"} %llu\n",
		(unsigned long long)r->units_not_kept);
}

/* The observed hot time; its interval only when it was found inside the ages measured (out
 * of range, the bootstrap's outcomes are placeholders one step past the range's ends). */
static void observed(FILE *f, const struct corr_result *c)
{
	om_family(f, "migtrace_observed_hot_seconds", "gauge", "The observed hot time; with "
		  "state \"above range\" or \"no cost\" it is a bound: the largest or smallest age "
		  "measured.");
	fprintf(f, "migtrace_observed_hot_seconds{state=\"%s\"} ",
		corr_hot_state_names[c->hot_state & 3]);
	value(f, c->hot_ns / 1e9);
	if (c->hot_state != CORR_HOT_FOUND)
		return;
	om_family(f, "migtrace_observed_hot_interval_seconds", "gauge", "The observed hot time's "
		  "bootstrap 95 % interval (bound: lower, upper; an end beyond the ages measured "
		  "is absent).");
	/* an open end is +inf in memory but null in the run file: left out, report writes
	 * the same lines as run did */
	if (c->hot_lo_ns > 0) {
		fprintf(f, "migtrace_observed_hot_interval_seconds{bound=\"lower\"} ");
		value(f, c->hot_lo_ns / 1e9);
	}
	if (isfinite(c->hot_hi_ns)) {
		fprintf(f, "migtrace_observed_hot_interval_seconds{bound=\"upper\"} ");
		value(f, c->hot_hi_ns / 1e9);
	}
}

/*
 * A grid of polluter rates: D* (bytes, with its interval; an end at the grid's edge is left
 * out), the co-runners' rate at which the kernel's value is the hot time, and each rate's
 * achieved rate and hot time.
 */
static void by_rate(FILE *f, const struct corr_result *c, const struct verdict *v)
{
	char a[40];

	om_family(f, "migtrace_dstar_bytes", "gauge", "D*: the displaced bytes past which a "
		  "migration costs no more than staying (bound: estimate, lower, upper; an end "
		  "beyond the displacements measured is absent).");
	fprintf(f, "migtrace_dstar_bytes{state=\"%s\",bound=\"estimate\"} ",
		corr_hot_state_names[c->dstar.state & 3]);
	value(f, c->dstar.at);
	if (c->dstar.lo > 0) {
		fprintf(f, "migtrace_dstar_bytes{state=\"%s\",bound=\"lower\"} ",
			corr_hot_state_names[c->dstar.state & 3]);
		value(f, c->dstar.lo);
	}
	if (isfinite(c->dstar.hi)) {
		fprintf(f, "migtrace_dstar_bytes{state=\"%s\",bound=\"upper\"} ",
			corr_hot_state_names[c->dstar.state & 3]);
		value(f, c->dstar.hi);
	}
	if (v && isfinite(v->fit_rate_mbps)) {
		om_family(f, "migtrace_verdict_fit_rate_bytes_per_second", "gauge", "The rate at "
			  "which the tasks sharing a CPU must displace its cache for the kernel's "
			  "value to be the hot time: D* / the value.");
		fprintf(f, "migtrace_verdict_fit_rate_bytes_per_second{verdict=\"%s\"} ",
			verdict_names[v->kind]);
		value(f, v->fit_rate_mbps * 1e6);
	}
	om_family(f, "migtrace_polluter_achieved_bytes_per_second", "gauge", "Each rate of the "
		  "grid as the polluter achieved it (target: its own, 0 as fast as it can).");
	for (int k = 0; k < c->nrates; k++) {
		fmt_shortest(a, sizeof(a), c->rates[k].rate_mbps * 1e6);
		fprintf(f, "migtrace_polluter_achieved_bytes_per_second{target=\"%s\"} ", a);
		value(f, c->rates[k].achieved_mbps * 1e6);
	}
	if (!v)
		return;
	om_family(f, "migtrace_rate_hot_seconds", "gauge", "The hot time at each rate of the "
		  "grid, D* / the achieved rate, and the kernel's value judged against it (absent for a "
		  "rate that displaced nothing).");
	for (int k = 0; k < v->nrates; k++) {
		if (!isfinite(v->rates[k].hot_ns))
			continue;	/* the co-runner displaced nothing: no rate, no time */
		fmt_shortest(a, sizeof(a), v->rates[k].rate_mbps * 1e6);
		fprintf(f, "migtrace_rate_hot_seconds{target=\"%s\",verdict=\"%s\"} ", a,
			verdict_names[v->rates[k].kind]);
		value(f, v->rates[k].hot_ns / 1e9);
	}
}

/* The wait side of a natural run's verdict: T* and what a pull at the kernel's value saves
 * and costs (docs/design.md, "The wait side"); an end of T*'s interval beyond the ages
 * measured is absent, as D*'s is. */
static void wait_side(FILE *f, const struct verdict *v)
{
	const char *st = corr_hot_state_names[v->tstar_state & 3];

	om_family(f, "migtrace_verdict_tstar_seconds", "gauge", "T*: the age from which a pull "
		  "saves more waiting than it costs refill (bound: estimate, lower, upper; with "
		  "state \"no cost\" or \"above range\" the estimate is a bound: the youngest or "
		  "oldest pulls measured).");
	fprintf(f, "migtrace_verdict_tstar_seconds{state=\"%s\",bound=\"estimate\"} ", st);
	value(f, v->tstar_ns / 1e9);
	if (v->tstar_lo_ns > 0 && isfinite(v->tstar_lo_ns)) {
		fprintf(f, "migtrace_verdict_tstar_seconds{state=\"%s\",bound=\"lower\"} ", st);
		value(f, v->tstar_lo_ns / 1e9);
	}
	if (isfinite(v->tstar_hi_ns)) {
		fprintf(f, "migtrace_verdict_tstar_seconds{state=\"%s\",bound=\"upper\"} ", st);
		value(f, v->tstar_hi_ns / 1e9);
	}
	if (!isfinite(v->wait_at_kernel_ns) || !isfinite(v->refill_at_kernel_ns))
		return;
	om_family(f, "migtrace_verdict_pull_at_kernel_seconds", "gauge", "A pull at the kernel's "
		  "value: the expected wait it saves (side: wait_avoided) and the refill it costs "
		  "(side: refill).");
	fprintf(f, "migtrace_verdict_pull_at_kernel_seconds{side=\"wait_avoided\"} ");
	value(f, v->wait_at_kernel_ns / 1e9);
	fprintf(f, "migtrace_verdict_pull_at_kernel_seconds{side=\"refill\"} ");
	value(f, v->refill_at_kernel_ns / 1e9);
}

static void hot_times(FILE *f, const struct run *r)
{
	const struct corr_result *c = &r->corr;
	const struct verdict *v = &r->verdict;

	om_family(f, "migtrace_kernel_hot_seconds", "gauge", "The threshold task_hot() was judged "
		  "at: the kernel's migration cost (source: tunable read, kernel default assumed, "
		  "or --hot-ns).");
	fprintf(f, "migtrace_kernel_hot_seconds{source=\"%s\"} ",
		r->setup.hot_ns_arg != RUN_NO_HOT_ARG ? "--hot-ns" :
		r->env.tunable.assumed ? "default assumed" : "tunable");
	value(f, (double)r->meta.hot_ns / 1e9);
	if (r->calib.valid && isfinite(r->calib.hot_ns)) {
		om_family(f, "migtrace_calibrated_hot_seconds", "gauge", "The calibrated hot time "
			  "the verdict used (the 2004 method, median fill x 6 when robust).");
		fprintf(f, "migtrace_calibrated_hot_seconds{robust=\"%s\"} ",
			r->calib.robust ? "true" : "false");
		value(f, r->calib.hot_ns / 1e9);
	}
	if (r->has_corr && c->hot_state != CORR_HOT_NO_DATA && isfinite(c->hot_ns))
		observed(f, c);
	if (r->has_corr && c->axis == CORR_AXIS_DISPLACED)
		by_rate(f, c, r->has_verdict ? v : NULL);
	if (r->has_verdict && isfinite(v->factor)) {
		om_family(f, "migtrace_verdict_factor", "gauge", "How far the kernel's value is "
			  "off the observed hot time (>= 1: observed/kernel when too low, "
			  "kernel/observed when too high); exact=\"false\": at least this.");
		fprintf(f, "migtrace_verdict_factor{verdict=\"%s\",exact=\"%s\"} ",
			verdict_names[v->kind], v->factor_is_bound ? "false" : "true");
		value(f, v->factor);
	}
	if (r->has_verdict && v->tstar_state != CORR_HOT_NO_DATA && isfinite(v->tstar_ns))
		wait_side(f, v);
}

/* The what-if rows, one series per threshold: an estimate, as the HELP says. */
static void whatif(FILE *f, const struct whatif *w)
{
	static const char *const what[] = { "lb_pulls_judged", "lb_pulls_hot", "wakeups",
					     "wakeups_younger" };
	char name[64], b[40];

	for (int m = 0; m < 5; m++) {
		if (m < 4)
			snprintf(name, sizeof(name), "migtrace_whatif_%s", what[m]);
		else
			snprintf(name, sizeof(name), "migtrace_whatif_refill_cost_seconds");
		/* counts of the records kept, never to be read against the complete totals */
		fprintf(f, "# HELP %s An estimate from this run (its own moves judged again at "
			"threshold_seconds, not a run at it): %s%s.\n# TYPE %s gauge\n", name,
			m == 0 ? "load-balancer pull records with the kernel's age" :
			m == 1 ? "of them, hot by task_hot()'s rule at the threshold" :
			m == 2 ? "wakeup placement records" :
			m == 3 ? "of them, younger than the threshold" :
			"the refill cost of migrations younger than the threshold, from the "
			"correlation", w->records_complete ? "" : ", of those kept: not every "
			"migration has its record here", name);
		for (int i = 0; i < w->n; i++) {
			const struct whatif_row *row = &w->row[i];
			uint64_t v = m == 0 ? row->lb_judged : m == 1 ? row->lb_hot :
				     m == 2 ? row->wakeups : row->wakeup_hot;

			if (m == 4 && !row->has_cost)
				continue;
			fprintf(f, "%s{threshold_seconds=\"%s\"} ", name,
				fmt_shortest(b, sizeof(b), (double)row->threshold_ns / 1e9));
			if (m < 4)
				fprintf(f, "%llu\n", (unsigned long long)v);
			else
				value(f, row->cost_ns / 1e9);
		}
	}
}

/* run --probe-moves: the moments by kind, the masks, and the cost of a move by age. */
static void probes(FILE *f, const struct run *r)
{
	const struct probe_setup *p = &r->probe;
	const struct probe_result *pr = &r->probe_result;

	om_family(f, "migtrace_probe_moments_total", "counter", "run --probe-moves: moments made, "
		  "by kind (move: the thread's mask narrowed to another CPU until it ran there; "
		  "sham: left where it was).");
	fprintf(f, "migtrace_probe_moments_total{kind=\"move\"} %llu\n",
		(unsigned long long)p->moves);
	fprintf(f, "migtrace_probe_moments_total{kind=\"sham\"} %llu\n",
		(unsigned long long)p->shams);
	om_family(f, "migtrace_probe_masks_total", "counter", "run --probe-moves: masks narrowed "
		  "and given back by migtrace (a thread gone before is not given one back).");
	fprintf(f, "migtrace_probe_masks_total{action=\"narrowed\"} %llu\n",
		(unsigned long long)p->masks_narrowed);
	fprintf(f, "migtrace_probe_masks_total{action=\"restored\"} %llu\n",
		(unsigned long long)p->masks_restored);
	if (!r->has_probe_result)
		return;
	om_family(f, "migtrace_probe_timed_total", "counter", "run --probe-moves: moments whose "
		  "next unit measures them, by arm.");
	fprintf(f, "migtrace_probe_timed_total{arm=\"move\"} %llu\n",
		(unsigned long long)pr->timed_moves);
	fprintf(f, "migtrace_probe_timed_total{arm=\"sham\"} %llu\n",
		(unsigned long long)pr->timed_shams);
	om_family(f, "migtrace_probe_cost_seconds", "gauge", "run --probe-moves: the cost of a "
		  "move (after a move less after a sham) by age bucket (from: its lower edge, s), "
		  "bound: estimate, lower, upper (the 95 % interval).");
	for (int i = 0; i < pr->corr.ncells; i++) {
		const struct corr_cell *c = &pr->corr.cells[i];
		const double v[3] = { c->cost_ns, c->cost_lo_ns, c->cost_hi_ns };
		static const char *const bound[3] = { "estimate", "lower", "upper" };
		char from[40];

		fmt_shortest(from, sizeof(from), c->age_ns / 1e9);
		for (int k = 0; k < 3; k++) {
			if (!isfinite(v[k]))
				continue;
			fprintf(f, "migtrace_probe_cost_seconds{from=\"%s\",bound=\"%s\"} ", from,
				bound[k]);
			value(f, v[k] / 1e9);
		}
	}
	if (isfinite(pr->cost_share)) {
		om_family(f, "migtrace_probe_cost_share", "gauge", "run --probe-moves: the moves "
			  "made times the measured cost of one, over the workload's CPU time.");
		fprintf(f, "migtrace_probe_cost_share ");
		value(f, pr->cost_share);
	}
	om_family(f, "migtrace_probe_verdict_info", "gauge", "run --probe-moves: the verdict on "
		  "the probed moves, in validate's words.");
	fprintf(f, "migtrace_probe_verdict_info{verdict=\"%s\"} 1\n",
		verdict_names[pr->verdict.kind]);
}

void render_openmetrics(FILE *f, const struct run *r, const struct whatif *w,
			const char *version)
{
	om_build_info(f, version, backend_of(r));
	run_info(f, r);
	counts(f, r, false);
	age_histogram(f, r, false);
	hot_times(f, r);
	if (r->has_levels)
		levels(f, r);
	if (w && w->n)
		whatif(f, w);
	if (r->probe.on)
		probes(f, r);
}

/* A log2 µs histogram whose _sum is estimated from slot midpoints, seconds. */
static double slots_sum_s(const __u64 *slots)
{
	double us = 0;

	for (int k = 0; k < MT_HIST_SLOTS; k++)
		us += (double)slots[k] * slot_mid_us(k);
	return us / 1e6;
}

/* The wake-up latency, cumulative, and the kernel's own count of the migrations. */
static void live_totals(FILE *f, const struct run *r, const struct om_live *live)
{
	const char *n = "migtrace_wakeup_latency_seconds";

	fprintf(f, "# HELP %s Wake-up to running of the traced tasks (run-queue clock). Buckets "
		"are the kernel's log2 slots; _sum is an estimate from slot midpoints (the open "
		"last slot at its lower edge).\n# TYPE %s histogram\n", n, n);
	histogram_series(f, n, "from", r->meta.wakeup_latency_from[0] ?
			 r->meta.wakeup_latency_from : "unknown", r->hists.wakelat,
			 slots_sum_s(r->hists.wakelat));
	if (!live->last || !live->last->per_task)
		return;
	om_family(f, "migtrace_kernel_counted_migrations_total", "counter", "The kernel's own "
		  "count of the traced tasks' migrations (se.nr_migrations, read at each "
		  "switch-in), to compare with migtrace_migrations_total less cause=\"fork\".");
	fprintf(f, "migtrace_kernel_counted_migrations_total %llu\n",
		(unsigned long long)r->stats.kernel_migrations);
}

/* How many intervals have ended: their own figures (rates, the hot share, latency
 * quantiles) are the text's and the interval lines'; here rate() makes them from the
 * counters, over the window the dashboard asks for. */
static void live_interval(FILE *f, const struct interval *iv)
{
	om_family(f, "migtrace_intervals_total", "counter", "Intervals ended since tracing began.");
	fprintf(f, "migtrace_intervals_total %u\n", iv->index);
}

/* -P: the processes with the most migration records, at most INTERVAL_TOP of them. */
static void live_pids(FILE *f, const struct interval_pids *pids)
{
	struct interval_pid top[INTERVAL_TOP];
	int n = interval_pids_top(pids, true, top, INTERVAL_TOP);

	om_family(f, "migtrace_process_migrations_total", "counter", "Migration records of the "
		  "processes with the most since tracing began (-P: the top 10; a process "
		  "leaves the list when others pass it), threads together.");
	for (int i = 0; i < n; i++) {
		fprintf(f, "migtrace_process_migrations_total{pid=\"%u\",comm=\"", top[i].tgid);
		om_label_value(f, top[i].comm);
		fprintf(f, "\"} %llu\n", (unsigned long long)top[i].total);
	}
}

void render_openmetrics_live(FILE *f, const struct run *r, const struct om_live *live)
{
	om_build_info(f, live->version, backend_of(r));
	run_info(f, r);
	counts(f, r, true);
	age_histogram(f, r, true);
	hot_times(f, r);
	if (r->has_levels)
		levels(f, r);
	live_totals(f, r, live);
	if (live->last)
		live_interval(f, live->last);
	if (live->pids)
		live_pids(f, live->pids);
}

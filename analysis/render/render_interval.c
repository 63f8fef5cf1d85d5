// SPDX-License-Identifier: GPL-2.0
/* A live interval as text or as a JSON line (render_interval.h). */
#include <string.h>
#include <time.h>

#include "hist.h"
#include "json_writer.h"
#include "printable.h"
#include "render_interval.h"
#include "units.h"

static double per_s(uint64_t n, double len_s)
{
	return len_s > 0 ? (double)n / len_s : 0;
}

/* "HH:MM:SS" of the local time, as runqlat -T prints it. */
static void time_of_day(char *b, size_t len, const struct timespec *ts)
{
	struct tm tm;

	if (!localtime_r(&ts->tv_sec, &tm) || !strftime(b, len, "%H:%M:%S", &tm))
		snprintf(b, len, "--:--:--");
}

/* "1.23e+03/s" is not for people: rates under 10 with a decimal, above without. */
static void rate(FILE *f, double v)
{
	fprintf(f, v < 10 ? "%.1f/s" : "%.0f/s", v);
}

static void by_cause(FILE *f, const struct interval *iv)
{
	const struct mt_stats *s = &iv->delta.stats;
	uint64_t n = interval_migrations(s);

	fprintf(f, "  migrations       %llu (", (unsigned long long)n);
	rate(f, per_s(n, iv->len_s));
	fprintf(f, ")%s", n ? ":" : "");
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		if (!s->migrations[c])
			continue;
		fprintf(f, " %s ", mt_cause_names[c]);
		rate(f, per_s(s->migrations[c], iv->len_s));
	}
	fprintf(f, "\n");
}

static void by_level(FILE *f, const struct interval *iv)
{
	const struct mt_stats *s = &iv->delta.stats;
	bool any = false;

	fprintf(f, "  by level        ");
	for (int l = 0; l < MT_NR_LEVELS; l++) {
		uint64_t n = interval_level_migrations(s, l);

		if (!n)
			continue;
		fprintf(f, " %s ", mt_level_names[l]);
		rate(f, per_s(n, iv->len_s));
		any = true;
	}
	fprintf(f, "%s\n", any ? "" : " none");
}

/* The pulls' kernel age, compact: each slot that holds any, "lo-hi:count" in µs. */
static void pull_ages(FILE *f, const struct interval *iv)
{
	const __u64 *h = iv->delta.hists.kernel_age;

	fprintf(f, "  pulls' age (µs) ");
	if (!hist_any(h, MT_HIST_SLOTS))
		fprintf(f, " none judged");
	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		if (!h[k])
			continue;
		if (k == MT_HIST_SLOTS - 1)
			fprintf(f, " %llu+:%llu", (unsigned long long)hist_slot_low_us(k),
				(unsigned long long)h[k]);
		else
			fprintf(f, " %llu-%llu:%llu", (unsigned long long)hist_slot_low_us(k),
				2ULL << k, (unsigned long long)h[k]);
	}
	fprintf(f, "\n");
}

static void hot_share(FILE *f, const struct interval *iv, const struct run *r)
{
	const struct mt_stats *s = &iv->delta.stats;
	char a[32], src[64];

	if (run_replayed(r)) {	/* the kernel's age is in no event */
		fprintf(f, "  hot at %s: not read (replayed events carry no kernel age)\n",
			fmt_ns(a, sizeof(a), (double)r->meta.hot_ns));
		return;
	}
	fprintf(f, "  hot at %s (%s): %llu of %llu pulls judged", fmt_ns(a, sizeof(a),
		(double)r->meta.hot_ns), printable(src, sizeof(src), r->meta.hot_source),
		(unsigned long long)s->lb_hot, (unsigned long long)s->lb_judged);
	if (s->lb_judged)
		fprintf(f, " (%.1f %%)", pct(s->lb_hot, s->lb_judged));
	fprintf(f, "\n");
}

static void wakeup_latency(FILE *f, const struct interval *iv)
{
	const __u64 *h = iv->delta.hists.wakelat;
	uint64_t n = hist_count(h, MT_HIST_SLOTS);
	char p50[32], p99[32];

	if (!n) {
		fprintf(f, "  wake-up latency  no wake-ups\n");
		return;
	}
	fprintf(f, "  wake-up latency  p50 %s, p99 %s (%llu wake-ups)\n",
		fmt_ns(p50, sizeof(p50), hist_quantile_us(h, MT_HIST_SLOTS, 0.5) * 1e3),
		fmt_ns(p99, sizeof(p99), hist_quantile_us(h, MT_HIST_SLOTS, 0.99) * 1e3),
		(unsigned long long)n);
}

static void completeness(FILE *f, const struct interval *iv, const struct run *r)
{
	const struct mt_stats *s = &iv->delta.stats;
	uint64_t seen = interval_kernel_counted(s);

	/* replayed events: se.nr_migrations is not read */
	if (!iv->per_task || run_replayed(r))
		return;
	fprintf(f, "  completeness     the kernel counted %llu (se.nr_migrations, at each "
		"switch-in), migtrace %llu, difference %lld\n",
		(unsigned long long)s->kernel_migrations, (unsigned long long)seen,
		(long long)s->kernel_migrations - (long long)seen);
}

static void top_text(FILE *f, const struct interval *iv)
{
	struct interval_pid top[INTERVAL_TOP];
	int n = iv->pids ? interval_pids_top(iv->pids, false, top, INTERVAL_TOP) : 0;
	char comm[MT_COMM_LEN * 4];

	if (!iv->pids)
		return;
	fprintf(f, "  top processes   ");
	for (int i = 0; i < n; i++)
		fprintf(f, " %s[%u] %llu", printable(comm, sizeof(comm), top[i].comm),
			top[i].tgid, (unsigned long long)(top[i].total - top[i].at_tick));
	fprintf(f, "%s\n", n ? " migration records" : " none");
}

void render_interval_text(FILE *f, const struct interval *iv, const struct run *r,
			  bool wall_clock)
{
	char tod[16];

	if (wall_clock) {
		time_of_day(tod, sizeof(tod), &iv->wall_end);
		fprintf(f, "%s ", tod);
	}
	fprintf(f, "interval %u%s: +%.2f s to +%.2f s (%.2f s)\n", iv->index,
		iv->partial ? " (partial: the run ended in it)" : "", iv->start_s,
		iv->start_s + iv->len_s, iv->len_s);
	by_cause(f, iv);
	by_level(f, iv);
	pull_ages(f, iv);
	hot_share(f, iv, r);
	wakeup_latency(f, iv);
	completeness(f, iv, r);
	top_text(f, iv);
	if (iv->delta.stats.rb_dropped)
		fprintf(f, "  records lost     %llu (ring buffer full; the counts above are "
			"complete)\n", (unsigned long long)iv->delta.stats.rb_dropped);
}

/* UTC, ISO 8601 with milliseconds: "2026-12-05T00:30:07.123Z". */
static void iso_time(char *b, size_t len, const struct timespec *ts)
{
	struct tm tm;
	char s[32];

	if (!gmtime_r(&ts->tv_sec, &tm) || !strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(b, len, "1970-01-01T00:00:00.000Z");
		return;
	}
	snprintf(b, len, "%.20s.%03dZ", s, (int)(ts->tv_nsec / 1000000 % 1000));
}

static void json_named_counts(struct json_writer *w, const char *name,
			      const char *const *names, const uint64_t *v, int n)
{
	jw_name(w, name);
	jw_start_object(w);
	for (int i = 0; i < n; i++)
		jw_field_u64(w, names[i], v[i]);
	jw_end_object(w);
}

static void json_quantile(struct json_writer *w, const char *name, const __u64 *h, double q)
{
	if (hist_any(h, MT_HIST_SLOTS))
		jw_field_double(w, name, hist_quantile_us(h, MT_HIST_SLOTS, q));
	else
		jw_field_null(w, name);
}

static void json_top(struct json_writer *w, const struct interval *iv)
{
	struct interval_pid top[INTERVAL_TOP];
	int n = interval_pids_top(iv->pids, false, top, INTERVAL_TOP);

	jw_name(w, "top");
	jw_start_array(w);
	for (int i = 0; i < n; i++) {
		jw_start_object(w);
		jw_field_u64(w, "pid", top[i].tgid);
		jw_field_string(w, "comm", top[i].comm);
		jw_field_u64(w, "migrations", top[i].total - top[i].at_tick);
		jw_end_object(w);
	}
	jw_end_array(w);
}

int render_interval_json(FILE *f, const struct interval *iv, const struct run *r)
{
	const struct mt_stats *s = &iv->delta.stats;
	const __u64 *wl = iv->delta.hists.wakelat;
	uint64_t causes[MT_NR_CAUSES], levels[MT_NR_LEVELS], n = interval_migrations(s);
	struct json_writer w;
	char t[48];

	for (int c = 0; c < MT_NR_CAUSES; c++)
		causes[c] = s->migrations[c];
	for (int l = 0; l < MT_NR_LEVELS; l++)
		levels[l] = interval_level_migrations(s, l);
	iso_time(t, sizeof(t), &iv->wall_end);
	jw_init(&w, f);
	jw_start_object(&w);
	jw_field_string(&w, "schema", INTERVAL_SCHEMA);
	jw_field_u64(&w, "interval", iv->index);
	jw_field_bool(&w, "partial", iv->partial);
	jw_field_string(&w, "time", t);
	jw_field_double(&w, "start_s", iv->start_s);
	jw_field_double(&w, "length_s", iv->len_s);
	jw_field_u64(&w, "migrations", n);
	jw_field_double(&w, "migrations_per_s", per_s(n, iv->len_s));
	jw_field_u64(&w, "migrations_since_start", interval_migrations(&iv->total.stats));
	json_named_counts(&w, "by_cause", mt_cause_names, causes, MT_NR_CAUSES);
	json_named_counts(&w, "by_level", mt_level_names, levels, MT_NR_LEVELS);
	jw_name(&w, "pull_kernel_age_log2_us");
	jw_start_array(&w);
	for (int k = 0; k < MT_HIST_SLOTS; k++)
		jw_u64(&w, iv->delta.hists.kernel_age[k]);
	jw_end_array(&w);
	jw_name(&w, "hot");
	jw_start_object(&w);
	jw_field_s64(&w, "threshold_ns", r->meta.hot_ns);
	jw_field_string(&w, "source", r->meta.hot_source);
	jw_field_u64(&w, "judged", s->lb_judged);
	jw_field_u64(&w, "hot", s->lb_hot);
	if (s->lb_judged)
		jw_field_double(&w, "share", (double)s->lb_hot / (double)s->lb_judged);
	else
		jw_field_null(&w, "share");
	jw_end_object(&w);
	jw_name(&w, "wakeup_latency_us");
	jw_start_object(&w);
	jw_field_u64(&w, "count", hist_count(wl, MT_HIST_SLOTS));
	json_quantile(&w, "p50", wl, 0.5);
	json_quantile(&w, "p99", wl, 0.99);
	jw_end_object(&w);
	jw_name(&w, "completeness");
	if (iv->per_task) {
		uint64_t seen = interval_kernel_counted(s);

		jw_start_object(&w);
		jw_field_u64(&w, "kernel_counted", s->kernel_migrations);
		jw_field_u64(&w, "migtrace_counted", seen);
		jw_field_s64(&w, "difference", (int64_t)s->kernel_migrations - (int64_t)seen);
		jw_end_object(&w);
	} else {
		jw_null(&w);
	}
	jw_field_u64(&w, "records_lost", s->rb_dropped);
	/* replayed events: what the trace's buffers lost so far (the counts miss their moves) */
	if (run_replayed(r))
		jw_field_u64(&w, "trace_events_lost", r->meta.backend.lost_events);
	else
		jw_field_null(&w, "trace_events_lost");
	if (iv->pids)
		json_top(&w, iv);
	jw_end_object(&w);
	return jw_finish(&w);
}

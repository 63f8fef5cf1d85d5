// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a run file back into the run model.  The schema is checked first (the first
 * member must be "schema", of this version exactly); then every section is read straight
 * into the model with the tables of run_schema.c, strictly: a member of the wrong type, out
 * of its range, negative where it cannot be, twice in its object, a required one missing,
 * an array longer than its place in the model, or a total that disagrees with its parts
 * (the counts in stats, the histograms, the CPU pairs and the records, checked as soon as
 * both sides are read), and the file is refused with one line saying where.  Members this
 * reader does not know are skipped.  Nothing half-read is returned.  A file is read through
 * a window, and the records may be counted instead of kept (run_file.h): then what reading
 * costs does not grow with the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib_file.h"
#include "gz_stream.h"
#include "json_reader.h"
#include "run_file.h"
#include "run_schema.h"

struct file_reader {
	struct json_reader jr;
	struct run *r;
	bool keep;				/* the records into the model, not only counted */
	bool keep_units;			/* the units, whatever keep says */
	bool oom;
	unsigned seen, checked;			/* sections read; checks made (checks[]) */
	uint64_t records_read, units_read;	/* what stats says the arrays hold */
	bool have_counts;
	uint64_t unseen_found;			/* completeness's (by_cause has its own) */
	uint64_t pairs_total;			/* the migrations cpu_pairs counts */
	int ncore, nllc, nnode;			/* levels' topology arrays, as read */
};

/* The top-level sections, each required once. */
enum section {
	S_SCHEMA, S_ENVIRONMENT, S_CONFIG, S_CALIBRATION, S_META, S_STATS, S_COST,
	S_HISTOGRAMS, S_PAIRS, S_CORRELATION, S_VERDICT, S_MIGRATIONS, S_UNITS, S_LEVELS,
	S_SWITCHES, S_WAKINGS, S_PROBES, S_NR,
};

static const char *const section_names[S_NR] = {
	"schema", "environment", "config", "calibration", "meta", "stats", "cost",
	"histograms", "cpu_pairs", "correlation", "verdict", "migrations", "units", "levels",
	"switches", "wakings", "probes",
};

/* Sections a file written before them does not have (migtrace.run/3's levels). */
#define SECTIONS_OPTIONAL (1u << S_LEVELS | 1u << S_SWITCHES | 1u << S_WAKINGS | 1u << S_PROBES)

#define FAIL(fr, ...) jr_fail(&(fr)->jr, __VA_ARGS__)
#define LLU(v) ((unsigned long long)(v))

/*
 * Walks the members of an object: for each, fn(fr, key, ctx) reads the value (or returns 0
 * to have it skipped).  where names the object in messages.
 */
typedef int (*member_fn)(struct file_reader *fr, const char *key, void *ctx);

/* A member this reader skips is malformed (or has a member twice): where.key says which. */
static int skip_failed(struct file_reader *fr, const char *where, const char *key)
{
	char at[192];

	snprintf(at, sizeof(at), "%s%s%s", where, *where ? "." : "", key);
	jr_context(&fr->jr, at);
	return -1;
}

static int each_member(struct file_reader *fr, const char *where, member_fn fn, void *ctx)
{
	char key[64];
	int more, rc;

	if (jr_object_begin(&fr->jr)) {
		jr_context(&fr->jr, where);
		return -1;
	}
	while ((more = jr_object_next(&fr->jr, key, sizeof(key))) > 0) {
		rc = fn(fr, key, ctx);
		if (rc < 0)
			return -1;
		if (!rc && jr_skip(&fr->jr))
			return skip_failed(fr, where, key);
	}
	if (more < 0)
		jr_context(&fr->jr, where);
	return more;
}

/* An array of integers into out[max]: *n gets how many.  Each in [min, max_v]. */
static int int_array(struct file_reader *fr, const char *where, int *out, int max, int *n,
		     int64_t min, int64_t max_v)
{
	int more;
	int64_t v;

	*n = 0;
	if (jr_array_begin(&fr->jr))
		goto fail;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (*n == max) {
			FAIL(fr, "more than %d entries", max);
			goto fail;
		}
		if (jr_s64(&fr->jr, min, max_v, &v))
			goto fail;
		out[(*n)++] = (int)v;
	}
	if (!more)
		return 0;
fail:
	jr_context(&fr->jr, where);
	return -1;
}

/* A log2 histogram: exactly MT_HIST_SLOTS counts. */
static int hist_array(struct file_reader *fr, const char *where, __u64 *slots)
{
	int more, n = 0;
	uint64_t v;

	if (jr_array_begin(&fr->jr))
		goto fail;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (n == MT_HIST_SLOTS) {
			FAIL(fr, "more than %d slots", MT_HIST_SLOTS);
			goto fail;
		}
		if (jr_u64(&fr->jr, &v))
			goto fail;
		slots[n++] = v;
	}
	if (more < 0)
		goto fail;
	if (n == MT_HIST_SLOTS)
		return 0;
	FAIL(fr, "%d slots, not %d", n, MT_HIST_SLOTS);
fail:
	jr_context(&fr->jr, where);
	return -1;
}

/* ---- environment ---- */

static int environment_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_environment *e = &fr->r->env;
	uint64_t *seen = ctx;
	int more;

	if (!strcmp(key, "tunable"))
		return rs_read_object(&fr->jr, &e->tunable, &rs_tunable, "environment.tunable") ?
		       -1 : 1;
	if (!strcmp(key, "sched_rules")) {
		e->rules.checked = true;	/* optional: files before it have none */
		/* members added later (0.2), not known in a file without them */
		e->rules.llc = (struct run_llc_knobs){ -1, -1, -1, -1, -1, -1 };
		return rs_read_object(&fr->jr, e, &rs_sched_rules, "environment.sched_rules") ?
		       -1 : 1;
	}
	if (strcmp(key, "caches"))
		return rs_read(&fr->jr, e, &rs_environment, key, seen);
	if (jr_array_begin(&fr->jr))
		return -1;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (e->ncaches == RUN_MAX_CACHES)
			return FAIL(fr, "environment.caches: more than %d caches", RUN_MAX_CACHES);
		if (rs_read_object(&fr->jr, &e->caches[e->ncaches++], &rs_cache,
				   "environment.caches[]"))
			return -1;
	}
	return more < 0 ? -1 : 1;
}

static int read_environment(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "environment", environment_member, &seen))
		return -1;
	return rs_check(&fr->jr, &rs_environment, seen, "environment");
}

/* ---- config ---- */

static int cachewalk_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct cachewalk_config *cw = &fr->r->setup.cw;
	uint64_t v;
	int more;

	if (!strcmp(key, "rates_mbps")) {
		double d;

		cw->nrates = 0;
		if (jr_array_begin(&fr->jr))
			goto fail_rates;
		while ((more = jr_array_next(&fr->jr)) > 0) {
			if (cw->nrates == CACHEWALK_MAX_RATES) {
				FAIL(fr, "more than %d rates", CACHEWALK_MAX_RATES);
				goto fail_rates;
			}
			if (jr_double(&fr->jr, &d) || !(d >= 0)) {
				FAIL(fr, "a rate is not a number of MB/s >= 0");
				goto fail_rates;
			}
			cw->rates_mbps[cw->nrates++] = d;
		}
		if (!more)
			return 1;
fail_rates:
		jr_context(&fr->jr, "config.cachewalk.rates_mbps");
		return -1;
	}
	if (strcmp(key, "ages_ns"))
		return rs_read(&fr->jr, cw, &rs_cachewalk, key, ctx);
	cw->nages = 0;
	if (jr_array_begin(&fr->jr))
		goto fail;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (cw->nages == CACHEWALK_MAX_AGES) {
			FAIL(fr, "more than %d ages", CACHEWALK_MAX_AGES);
			goto fail;
		}
		if (jr_u64(&fr->jr, &v))
			goto fail;
		cw->ages_ns[cw->nages++] = v;
	}
	if (!more)
		return 1;
fail:
	jr_context(&fr->jr, "config.cachewalk.ages_ns");
	return -1;
}

static int config_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_setup *s = &fr->r->setup;
	uint64_t seen = 0;

	if (strcmp(key, "cachewalk"))
		return rs_read(&fr->jr, s, &rs_config, key, ctx);
	s->cachewalk = !jr_null(&fr->jr);
	if (!s->cachewalk)
		return 1;
	if (each_member(fr, "config.cachewalk", cachewalk_member, &seen) ||
	    rs_check(&fr->jr, &rs_cachewalk, seen, "config.cachewalk"))
		return -1;
	return 1;
}

static int read_config(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "config", config_member, &seen))
		return -1;
	return rs_check(&fr->jr, &rs_config, seen, "config");
}

/* ---- calibration ---- */

/* validate's calibration: the members it shares with the calibration file (calib_file.c). */
static int measured_member(struct file_reader *fr, const char *key, void *ctx)
{
	return calib_read_measured(&fr->jr, &fr->r->calib.cal, key, ctx, false, 2,
				   "calibration.measured");
}

/* One of the footprint's arrays of objects of t: into base[max], *n of them. */
static int footprint_array(struct file_reader *fr, const char *where, void *base, size_t size,
			   int max, int *n, const struct rs_table *t)
{
	int more;

	*n = 0;
	if (jr_array_begin(&fr->jr))
		return -1;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (*n == max)
			return FAIL(fr, "%s: more than %d entries", where, max);
		if (rs_read_object(&fr->jr, (char *)base + (size_t)(*n)++ * size, t, where))
			return -1;
	}
	return more < 0 ? -1 : 1;
}

static int footprint_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct footprint *fp = &fr->r->calib.footprint;

	if (!strcmp(key, "points"))
		return footprint_array(fr, "calibration.footprint.points", fp->points,
				       sizeof(fp->points[0]), FP_MAX_POINTS, &fp->npoints,
				       &rs_footprint_point);
	if (!strcmp(key, "levels"))
		return footprint_array(fr, "calibration.footprint.levels", fp->levels,
				       sizeof(fp->levels[0]), FP_MAX_LEVELS, &fp->nlevels,
				       &rs_footprint_level);
	if (!strcmp(key, "hints"))
		return footprint_array(fr, "calibration.footprint.hints", fp->hints,
				       sizeof(fp->hints[0]), FP_MAX_HINTS, &fp->nhints,
				       &rs_footprint_hint);
	return rs_read(&fr->jr, fp, &rs_footprint, key, ctx);
}

/* calibration.footprint: its members, then what its parts say of each other. */
static int read_footprint(struct file_reader *fr)
{
	struct footprint *fp = &fr->r->calib.footprint;
	uint64_t seen = 0;

	if (fr->r->calib.has_footprint)
		return FAIL(fr, "calibration.footprint: twice");
	memset(fp, 0, sizeof(*fp));
	fr->r->calib.has_footprint = true;
	if (each_member(fr, "calibration.footprint", footprint_member, &seen) ||
	    rs_check(&fr->jr, &rs_footprint, seen, "calibration.footprint"))
		return -1;
	for (int i = 1; i < fp->npoints; i++)
		if (fp->points[i].footprint_bytes <= fp->points[i - 1].footprint_bytes)
			return FAIL(fr, "calibration.footprint.points[%d]: footprint_bytes not above "
				    "the one before", i);
	for (int i = 0; i < fp->nlevels; i++)
		if (fp->levels[i].hint >= fp->nhints)
			return FAIL(fr, "calibration.footprint.levels[%d].hint: %d, of %d hints", i,
				    fp->levels[i].hint, fp->nhints);
	for (int i = 0; i < fp->nhints; i++)
		if (fp->hints[i].matched >= fp->nlevels)
			return FAIL(fr, "calibration.footprint.hints[%d].matched_level: %d, of %d "
				    "levels", i, fp->hints[i].matched, fp->nlevels);
	if (fp->polluter_level >= fp->nlevels)
		return FAIL(fr, "calibration.footprint.polluter_level: %d, of %d levels",
			    fp->polluter_level, fp->nlevels);
	if (!fp->polluter_bytes)
		return FAIL(fr, "calibration.footprint.polluter_bytes: 0");
	return 1;
}

static int calibration_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_calibration *c = &fr->r->calib;
	struct calib_seen seen = { 0 };

	if (!strcmp(key, "footprint"))
		return read_footprint(fr);
	if (strcmp(key, "measured"))
		return rs_read(&fr->jr, c, &rs_calibration, key, ctx);
	c->inline_run = !jr_null(&fr->jr);
	if (!c->inline_run)
		return 1;
	if (each_member(fr, "calibration.measured", measured_member, &seen))
		return -1;
	if (seen.cpus && c->cal.cpus.n != 2)
		return FAIL(fr, "calibration.measured.cpus: %d CPUs, not 2", c->cal.cpus.n);
	return calib_check_measured(&fr->jr, &c->cal, &seen, "calibration.measured") ? -1 : 1;
}

static int read_calibration(struct file_reader *fr)
{
	uint64_t seen = 0;

	fr->r->calib.valid = !jr_null(&fr->jr);
	if (!fr->r->calib.valid)
		return 0;
	if (each_member(fr, "calibration", calibration_member, &seen))
		return -1;
	return rs_check(&fr->jr, &rs_calibration, seen, "calibration");
}

/* ---- meta ---- */

static int meta_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_meta *m = &fr->r->meta;

	if (!strcmp(key, "cpus"))
		return int_array(fr, "meta.cpus", m->cpus.cpu, MT_MAX_CPUS_USER, &m->cpus.n, 0,
				 MT_MAX_CPUS_USER - 1) ? -1 : 1;
	if (!strcmp(key, "backend"))	/* optional: files before it have none */
		return rs_read_object(&fr->jr, m, &rs_backend, "meta.backend") ? -1 : 1;
	return rs_read(&fr->jr, m, &rs_meta, key, ctx);
}

static int read_meta(struct file_reader *fr)
{
	uint64_t seen = 0;
	int err;

	if (each_member(fr, "meta", meta_member, &seen) ||
	    rs_check(&fr->jr, &rs_meta, seen, "meta"))
		return -1;
	err = run_alloc_pairs(fr->r, fr->r->meta.nr_cpus);
	if (err == -ENOMEM) {
		fr->oom = true;
		return FAIL(fr, "meta.nr_cpus: out of memory for its %d x %d CPU-pair matrix",
			    fr->r->meta.nr_cpus, fr->r->meta.nr_cpus);
	}
	if (err)
		return FAIL(fr, "meta.nr_cpus: %d is not a number of CPUs from 1 to %d",
			    fr->r->meta.nr_cpus, RUN_MAX_NR_CPUS);
	return 0;
}

/* ---- stats ---- */

static int by_cause_member(struct file_reader *fr, const char *key, void *ctx)
{
	uint64_t *seen = ctx, v;

	for (int c = 0; c < MT_NR_CAUSES; c++) {
		if (strcmp(key, mt_cause_names[c]))
			continue;
		if (jr_u64(&fr->jr, &v)) {
			jr_context(&fr->jr, "stats.by_cause");
			return -1;
		}
		fr->r->stats.migrations[c] = v;
		*seen |= 1ULL << c;
		return 1;
	}
	return 0;
}

static int completeness_member(struct file_reader *fr, const char *key, void *ctx)
{
	__u64 *unseen = &fr->r->stats.migrations[MT_CAUSE_UNSEEN], by_cause = *unseen;
	int rc = rs_read(&fr->jr, fr->r, &rs_completeness, key, ctx);

	/* unseen_found is by_cause.unseen again: kept aside, to be checked against it */
	if (rc > 0 && !strcmp(key, "unseen_found")) {
		fr->unseen_found = *unseen;
		*unseen = by_cause;
	}
	return rc;
}

static int stats_member(struct file_reader *fr, const char *key, void *ctx)
{
	uint64_t seen = 0;

	if (!strcmp(key, "records_read") || !strcmp(key, "units_read")) {
		fr->have_counts = true;
		if (jr_u64(&fr->jr, key[0] == 'r' ? &fr->records_read : &fr->units_read)) {
			jr_context(&fr->jr, key[0] == 'r' ? "stats.records_read" :
				   "stats.units_read");
			return -1;
		}
		return 1;
	}
	if (!strcmp(key, "by_cause")) {
		if (each_member(fr, "stats.by_cause", by_cause_member, &seen))
			return -1;
		if (seen != (1ULL << MT_NR_CAUSES) - 1)
			return FAIL(fr, "stats.by_cause lacks a cause (all %d are always there)",
				    MT_NR_CAUSES);
		return 1;
	}
	if (!strcmp(key, "completeness")) {
		if (each_member(fr, "stats.completeness", completeness_member, &seen) ||
		    rs_check(&fr->jr, &rs_completeness, seen, "stats.completeness"))
			return -1;
		return 1;
	}
	return rs_read(&fr->jr, fr->r, &rs_stats, key, ctx);
}

static int read_stats(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "stats", stats_member, &seen))
		return -1;
	if (!fr->have_counts)
		return FAIL(fr, "stats has no records_read and units_read");
	return rs_check(&fr->jr, &rs_stats, seen, "stats");
}

/* ---- cost ---- */

static int program_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_cost *c = &fr->r->cost;
	uint64_t *v = !strcmp(key, "run_cnt") ? &c->progs[c->nprogs].run_cnt :
		      !strcmp(key, "run_time_ns") ? &c->progs[c->nprogs].run_time_ns :
		      !strcmp(key, "recursion_misses") ? &c->progs[c->nprogs].recursion_misses :
		      NULL;

	(void)ctx;
	if (!v)
		return 0;
	if (jr_u64(&fr->jr, v)) {
		jr_context(&fr->jr, "cost.programs");
		return -1;
	}
	return 1;
}

static int programs_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_cost *c = &fr->r->cost;

	(void)ctx;
	if (c->nprogs == RUN_MAX_PROGS)
		return FAIL(fr, "cost.programs: more than %d programs", RUN_MAX_PROGS);
	if (strlen(key) >= sizeof(c->progs[0].name))
		return FAIL(fr, "cost.programs: a program name longer than %zu bytes",
			    sizeof(c->progs[0].name) - 1);
	snprintf(c->progs[c->nprogs].name, sizeof(c->progs[0].name), "%s", key);
	if (each_member(fr, "cost.programs", program_member, NULL))
		return -1;
	c->nprogs++;
	return 1;
}

static int cost_member(struct file_reader *fr, const char *key, void *ctx)
{
	if (!strcmp(key, "programs"))
		return each_member(fr, "cost.programs", programs_member, NULL) ? -1 : 1;
	return rs_read(&fr->jr, &fr->r->cost, &rs_cost, key, ctx);
}

static int read_cost(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "cost", cost_member, &seen))
		return -1;
	return rs_check(&fr->jr, &rs_cost, seen, "cost");
}

/* ---- histograms and CPU pairs ---- */

static int age_member(struct file_reader *fr, const char *key, void *ctx)
{
	uint64_t *seen = ctx;

	for (int c = 0; c < MT_NR_CAUSES; c++) {
		if (strcmp(key, mt_cause_names[c]))
			continue;
		*seen |= 1ULL << c;
		return hist_array(fr, "histograms.age", fr->r->hists.age[c]) ? -1 : 1;
	}
	return 0;
}

static int histograms_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct mt_hists *h = &fr->r->hists;
	unsigned *seen = ctx;
	uint64_t causes = 0;

	if (!strcmp(key, "age")) {
		if (each_member(fr, "histograms.age", age_member, &causes))
			return -1;
		if (causes != (1ULL << MT_NR_CAUSES) - 1)
			return FAIL(fr, "histograms.age lacks a cause (all %d are always there)",
				    MT_NR_CAUSES);
		*seen |= 1;
		return 1;
	}
	if (!strcmp(key, "kernel_age_lb_pull")) {
		*seen |= 2;
		return hist_array(fr, "histograms.kernel_age_lb_pull", h->kernel_age) ? -1 : 1;
	}
	if (!strcmp(key, "run_slice")) {
		*seen |= 4;
		return hist_array(fr, "histograms.run_slice", h->slice) ? -1 : 1;
	}
	if (!strcmp(key, "wakeup_latency")) {
		*seen |= 8;
		return hist_array(fr, "histograms.wakeup_latency", h->wakelat) ? -1 : 1;
	}
	/* migtrace.run/3: optional, all 0 in older files */
	if (!strcmp(key, "runnable_wait"))
		return hist_array(fr, "histograms.runnable_wait", h->runwait) ? -1 : 1;
	if (!strcmp(key, "runnable_wait_pulled"))
		return hist_array(fr, "histograms.runnable_wait_pulled", h->runwait_pulled) ? -1 :
		       1;
	return 0;
}

static int read_histograms(struct file_reader *fr)
{
	unsigned seen = 0;

	if (each_member(fr, "histograms", histograms_member, &seen))
		return -1;
	if (seen != 15)
		return FAIL(fr, "histograms lacks one of age, kernel_age_lb_pull, run_slice, "
			    "wakeup_latency");
	return 0;
}

struct pair {
	int64_t src, dst;
	uint64_t count;
	unsigned seen;
};

static int pair_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct pair *p = ctx;
	int64_t n = fr->r->meta.nr_cpus;

	if (!strcmp(key, "src")) {
		p->seen |= 1;
		return jr_s64(&fr->jr, 0, n - 1, &p->src) ? -1 : 1;
	}
	if (!strcmp(key, "dst")) {
		p->seen |= 2;
		return jr_s64(&fr->jr, 0, n - 1, &p->dst) ? -1 : 1;
	}
	if (!strcmp(key, "count")) {
		p->seen |= 4;
		return jr_u64(&fr->jr, &p->count) ? -1 : 1;
	}
	return 0;
}

static int read_pairs(struct file_reader *fr)
{
	int more;

	if (!fr->r->pairs)
		return FAIL(fr, "cpu_pairs comes before meta (its nr_cpus sizes the matrix)");
	if (jr_array_begin(&fr->jr))
		return -1;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		struct pair p = { 0 };
		uint64_t *n;

		if (each_member(fr, "cpu_pairs[]", pair_member, &p))
			return -1;
		if (p.seen != 7)
			return FAIL(fr, "cpu_pairs[]: an entry without src, dst and count");
		n = &fr->r->pairs[p.src * fr->r->meta.nr_cpus + p.dst];
		if (*n)
			return FAIL(fr, "cpu_pairs[]: %lld -> %lld appears twice", (long long)p.src,
				    (long long)p.dst);
		/* zero would pass as "not listed yet" above, and the writer lists none */
		if (!p.count)
			return FAIL(fr, "cpu_pairs[]: %lld -> %lld has a count of 0 (only pairs "
				    "with a migration are listed)", (long long)p.src,
				    (long long)p.dst);
		if (__builtin_add_overflow(fr->pairs_total, p.count, &fr->pairs_total))
			return FAIL(fr, "cpu_pairs: the counts add up past 2^64 - 1");
		*n = p.count;
	}
	return more;
}

/* ---- levels ---- */

/* A count into one of the kernel's __u64 counters; where names it in an error. */
static int read_count(struct file_reader *fr, __u64 *out, const char *where)
{
	uint64_t v;

	if (jr_u64(&fr->jr, &v)) {
		jr_context(&fr->jr, where);
		return -1;
	}
	*out = v;
	return 0;
}

/* The index of name in names[n], or -1. */
static int name_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* An object of counts by name (levels.rules, a level's by_cause): every name, once. */
struct named_counts {
	const char *const *names;
	int n;
	__u64 *out;
	const char *where;
	uint64_t seen;
};

static int named_count_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct named_counts *nc = ctx;
	int i = name_index(nc->names, nc->n, key);

	if (i < 0)
		return 0;
	nc->seen |= 1ULL << i;
	return read_count(fr, &nc->out[i], nc->where) ? -1 : 1;
}

static int named_counts(struct file_reader *fr, const char *where, const char *const *names,
			int n, __u64 *out)
{
	struct named_counts nc = { names, n, out, where, 0 };

	if (each_member(fr, where, named_count_member, &nc))
		return -1;
	if (nc.seen != (1ULL << n) - 1)
		return FAIL(fr, "%s lacks one of its %d members (all are always there)", where, n);
	return 0;
}

struct level_ctx {
	int level;
	unsigned seen;				/* by_cause, lb_judged, lb_hot, kernel_age */
};

static int level_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct level_ctx *lc = ctx;
	struct run *r = fr->r;
	int l = lc->level;

	if (!strcmp(key, "by_cause")) {
		lc->seen |= 1;
		return named_counts(fr, "levels.by_level.by_cause", mt_cause_names, MT_NR_CAUSES,
				    r->stats.level_migrations[l]) ? -1 : 1;
	}
	if (!strcmp(key, "lb_judged") || !strcmp(key, "lb_hot")) {
		lc->seen |= key[3] == 'j' ? 2 : 4;
		return read_count(fr, key[3] == 'j' ? &r->stats.level_lb_judged[l] :
					  &r->stats.level_lb_hot[l], "levels.by_level") ? -1 : 1;
	}
	if (!strcmp(key, "kernel_age_lb_pull")) {
		lc->seen |= 8;
		return hist_array(fr, "levels.by_level.kernel_age_lb_pull",
				  r->hists.kernel_age_level[l]) ? -1 : 1;
	}
	return 0;
}

static int by_level_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct level_ctx lc = { .level = name_index(mt_level_names, MT_NR_LEVELS, key) };
	unsigned *seen = ctx;

	if (lc.level < 0)
		return 0;
	*seen |= 1u << lc.level;
	if (each_member(fr, "levels.by_level", level_member, &lc))
		return -1;
	if (lc.seen != 15)
		return FAIL(fr, "levels.by_level.%s lacks one of by_cause, lb_judged, lb_hot, "
			    "kernel_age_lb_pull", key);
	return 1;
}

struct cost_ctx {
	int level;
	uint64_t seen;
	struct run_level_cost c;
};

static int level_cost_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct cost_ctx *cc = ctx;
	char name[32];

	if (strcmp(key, "level"))
		return rs_read(&fr->jr, &cc->c, &rs_level_cost, key, &cc->seen);
	if (jr_string(&fr->jr, name, sizeof(name), NULL)) {
		jr_context(&fr->jr, "levels.cost[].level");
		return -1;
	}
	cc->level = name_index(mt_level_names, MT_NR_LEVELS, name);
	if (cc->level < 0)
		return FAIL(fr, "levels.cost[].level: \"%s\" is not a level", name);
	return 1;
}

/* levels.cost: one entry per level, each once. */
static int read_level_cost(struct file_reader *fr)
{
	unsigned levels = 0;
	int more;

	fr->r->has_level_cost = !jr_null(&fr->jr);
	if (!fr->r->has_level_cost)
		return 0;
	if (jr_array_begin(&fr->jr))
		return -1;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		/* an entry written before the wait side per level has no T* */
		struct cost_ctx cc = { .level = -1, .c = { .tstar_state = CORR_HOT_NO_DATA,
			.tstar_ns = NAN, .tstar_lo_ns = NAN, .tstar_hi_ns = NAN } };

		if (each_member(fr, "levels.cost[]", level_cost_member, &cc) ||
		    rs_check(&fr->jr, &rs_level_cost, cc.seen, "levels.cost[]"))
			return -1;
		if (cc.level < 0)
			return FAIL(fr, "levels.cost[]: an entry without its level");
		if (levels & (1u << cc.level))
			return FAIL(fr, "levels.cost[]: %s twice", mt_level_names[cc.level]);
		levels |= 1u << cc.level;
		fr->r->level_cost[cc.level] = cc.c;
	}
	if (more < 0)
		return -1;
	if (levels != (1u << MT_NR_LEVELS) - 1)
		return FAIL(fr, "levels.cost lacks a level (all %d are always there)",
			    MT_NR_LEVELS);
	return 0;
}

static int levels_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_topo *t = &fr->r->topo;
	struct run *r = fr->r;
	unsigned *seen = ctx, inner = 0;

	if (!strcmp(key, "core") || !strcmp(key, "llc") || !strcmp(key, "node")) {
		*seen |= key[0] == 'c' ? 1 : key[0] == 'l' ? 2 : 4;
		return int_array(fr, key[0] == 'c' ? "levels.core" : key[0] == 'l' ? "levels.llc" :
			"levels.node", key[0] == 'c' ? t->core : key[0] == 'l' ? t->llc : t->node,
			RUN_MAX_NR_CPUS, key[0] == 'c' ? &fr->ncore : key[0] == 'l' ? &fr->nllc :
			&fr->nnode, key[0] == 'l' ? -1 : 0, key[0] == 'n' ? INT16_MAX :
			RUN_MAX_NR_CPUS - 1) ? -1 : 1;
	}
	if (!strcmp(key, "llc_unknown_why")) {
		*seen |= 8;
		if (jr_null(&fr->jr))
			return 1;
		if (jr_string(&fr->jr, t->llc_why, sizeof(t->llc_why), NULL)) {
			jr_context(&fr->jr, "levels.llc_unknown_why");
			return -1;
		}
		return 1;
	}
	if (!strcmp(key, "numa_balancing")) {
		*seen |= 16;
		if (jr_bool(&fr->jr, &t->numa_balancing)) {
			jr_context(&fr->jr, "levels.numa_balancing");
			return -1;
		}
		return 1;
	}
	if (!strcmp(key, "rules")) {
		*seen |= 32;
		return named_counts(fr, "levels.rules", mt_rule_names, MT_NR_RULES,
				    r->stats.lb_rule) ? -1 : 1;
	}
	if (!strcmp(key, "delayed_pulls") || !strcmp(key, "numa_weighed_pulls")) {
		*seen |= key[0] == 'd' ? 64 : 128;
		return read_count(fr, key[0] == 'd' ? &r->stats.lb_delayed : &r->stats.lb_numa_weighed,
				  key[0] == 'd' ? "levels.delayed_pulls" :
				  "levels.numa_weighed_pulls") ? -1 : 1;
	}
	if (!strcmp(key, "by_level")) {
		*seen |= 256;
		if (each_member(fr, "levels.by_level", by_level_member, &inner))
			return -1;
		if (inner != (1u << MT_NR_LEVELS) - 1)
			return FAIL(fr, "levels.by_level lacks a level (all %d are always there)",
				    MT_NR_LEVELS);
		return 1;
	}
	if (!strcmp(key, "cost")) {
		*seen |= 512;
		return read_level_cost(fr) ? -1 : 1;
	}
	return 0;
}

static int read_levels(struct file_reader *fr)
{
	unsigned seen = 0;

	fr->r->has_levels = !jr_null(&fr->jr);
	if (!fr->r->has_levels)
		return 0;
	if (each_member(fr, "levels", levels_member, &seen))
		return -1;
	if (seen != 1023)
		return FAIL(fr, "levels lacks one of core, llc, node, llc_unknown_why, "
			    "numa_balancing, rules, delayed_pulls, numa_weighed_pulls, by_level, "
			    "cost");
	if (fr->ncore != fr->nllc || fr->ncore != fr->nnode)
		return FAIL(fr, "levels: core, llc and node have %d, %d and %d CPUs, not as many",
			    fr->ncore, fr->nllc, fr->nnode);
	fr->r->topo.ncpus = fr->ncore;
	return 0;
}

/* ---- correlation, verdict ---- */

static int correlation_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct corr_result *c = &fr->r->corr;
	int more;

	if (!strcmp(key, "rates")) {
		if (jr_array_begin(&fr->jr))
			return -1;
		c->nrates = 0;
		while ((more = jr_array_next(&fr->jr)) > 0) {
			if (c->nrates == CORR_MAX_RATES)
				return FAIL(fr, "correlation.rates: more than %d rates",
					    CORR_MAX_RATES);
			if (rs_read_object(&fr->jr, &c->rates[c->nrates++], &rs_corr_rate,
					   "correlation.rates[]"))
				return -1;
		}
		return more < 0 ? -1 : 1;
	}
	if (strcmp(key, "cells"))
		return rs_read(&fr->jr, c, &rs_correlation, key, ctx);
	if (jr_array_begin(&fr->jr))
		return -1;
	c->ncells = 0;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (c->ncells == CORR_MAX_CELLS)
			return FAIL(fr, "correlation.cells: more than %d cells", CORR_MAX_CELLS);
		/* what migtrace.run/2 files do not have: not measured */
		c->cells[c->ncells].fit_cost_ns = c->cells[c->ncells].rate_mbps = NAN;
		c->cells[c->ncells].achieved_mbps = c->cells[c->ncells].displaced_bytes = NAN;
		c->cells[c->ncells].pen_other_ns = c->cells[c->ncells].cost_other_ns = NAN;
		c->cells[c->ncells].cost_other_lo_ns = c->cells[c->ncells].cost_other_hi_ns = NAN;
		c->cells[c->ncells].wait_avoided_ns = c->cells[c->ncells].gain_ns =
			c->cells[c->ncells].gain_lo_ns = c->cells[c->ncells].gain_hi_ns = NAN;
		if (rs_read_object(&fr->jr, &c->cells[c->ncells++], &rs_cell,
				   "correlation.cells[]"))
			return -1;
	}
	return more < 0 ? -1 : 1;
}

static int read_correlation(struct file_reader *fr)
{
	struct corr_result *c = &fr->r->corr;
	uint64_t seen = 0;

	fr->r->has_corr = !jr_null(&fr->jr);
	if (!fr->r->has_corr)
		return 0;
	/* what migtrace.run/2 files do not have: no D*, the age axis */
	c->dstar.state = CORR_HOT_NO_DATA;
	c->dstar.at = c->dstar.lo = c->dstar.hi = c->dstar.max_cost_ns = NAN;
	c->dstar.min_cost_ns = c->refill_line_ns = c->stay_line_ns = NAN;
	c->capped = c->stay_decay = c->stay_reach = c->dstar;
	c->corunner_mbps = c->corunner_lo_mbps = c->corunner_hi_mbps = NAN;
	c->level = CORR_LEVEL;	/* files from before the sequential experiment: 95 % */
	if (each_member(fr, "correlation", correlation_member, &seen) ||
	    rs_check(&fr->jr, &rs_correlation, seen, "correlation"))
		return -1;
	if (c->max_cell < 0 || (c->max_cell && c->max_cell >= c->ncells))
		return FAIL(fr, "correlation.max_cell: %d is not one of its %d cells",
			    c->max_cell, c->ncells);
	return 0;
}

static int sequence_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run_sequence *q = &fr->r->seq;
	int more;

	if (strcmp(key, "looks"))
		return rs_read(&fr->jr, q, &rs_sequence, key, ctx);
	if (jr_array_begin(&fr->jr))
		return -1;
	q->nlooks = 0;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (q->nlooks == SEQ_MAX_LOOKS)
			return FAIL(fr, "verdict.sequence.looks: more than %d looks",
				    SEQ_MAX_LOOKS);
		if (rs_read_object(&fr->jr, &q->looks[q->nlooks++], &rs_seq_look,
				   "verdict.sequence.looks[]"))
			return -1;
	}
	return more < 0 ? -1 : 1;
}

/* verdict.sequence: 1 once read, -1 on an error (as each_member's handlers) */
static int read_sequence(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "verdict.sequence", sequence_member, &seen) ||
	    rs_check(&fr->jr, &rs_sequence, seen, "verdict.sequence"))
		return -1;
	return 1;
}

static int verdict_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct verdict *v = &fr->r->verdict;
	int more;

	if (!strcmp(key, "model"))
		return rs_read_object(&fr->jr, &v->model, &rs_verdict_model, "verdict.model") ?
		       -1 : 1;
	if (!strcmp(key, "sequence"))
		return read_sequence(fr);
	if (strcmp(key, "rates"))
		return rs_read(&fr->jr, v, &rs_verdict, key, ctx);
	if (jr_array_begin(&fr->jr))
		return -1;
	v->nrates = 0;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		if (v->nrates == CORR_MAX_RATES)
			return FAIL(fr, "verdict.rates: more than %d rates", CORR_MAX_RATES);
		if (rs_read_object(&fr->jr, &v->rates[v->nrates++], &rs_verdict_rate,
				   "verdict.rates[]"))
			return -1;
	}
	return more < 0 ? -1 : 1;
}

static int read_verdict(struct file_reader *fr)
{
	uint64_t seen = 0;

	struct verdict *v = &fr->r->verdict;

	fr->r->has_verdict = !jr_null(&fr->jr);
	if (!fr->r->has_verdict)
		return 0;
	/* what migtrace.run/2 files do not have */
	v->factor_lo = v->factor_hi = v->dstar_bytes = v->dstar_lo_bytes = NAN;
	v->dstar_hi_bytes = v->fit_rate_mbps = v->fit_rate_lo_mbps = v->fit_rate_hi_mbps = NAN;
	v->decay_factor = v->decay_factor_lo = v->decay_factor_hi = NAN;
	v->tstar_state = CORR_HOT_NO_DATA;
	v->tstar_ns = v->tstar_lo_ns = v->tstar_hi_ns = NAN;
	v->wait_at_kernel_ns = v->refill_at_kernel_ns = NAN;
	/* a file without verdict.model: the run tested no model */
	memset(&v->model, 0, sizeof(v->model));
	v->model.regime = MODEL_NOT_TESTED;
	v->model.pooled_hot_ns = v->model.pooled_hot_lo_ns = v->model.pooled_hot_hi_ns = NAN;
	if (each_member(fr, "verdict", verdict_member, &seen))
		return -1;
	return rs_check(&fr->jr, &rs_verdict, seen, "verdict");
}

/* ---- records ---- */

/* Each record is counted into the tally, and kept when fr->keep. */
static int read_records(struct file_reader *fr, bool units)
{
	const char *where = units ? "units[]" : "migrations[]";
	struct run *r = fr->r;
	struct mt_migrate m;
	struct mt_unit u;
	int more, err = 0;

	/* the tally judges the records at meta.hot_ns */
	if (!units && !(fr->seen & (1u << S_META)))
		return FAIL(fr, "migrations comes before meta (its hot_ns judges the records)");
	if (jr_array_begin(&fr->jr)) {
		jr_context(&fr->jr, units ? "units" : "migrations");
		return -1;
	}
	/* every record is kept: the file holds what the run kept, max_kept applied already */
	r->max_kept = 0;
	while ((more = jr_array_next(&fr->jr)) > 0) {
		memset(&m, 0, sizeof(m));
		memset(&u, 0, sizeof(u));
		if (units) {
			u.kind = MT_REC_UNIT;
			if (rs_read_object(&fr->jr, &u, &rs_unit, where))
				return -1;
			r->tally.units++;
			if (fr->keep || fr->keep_units)
				err = run_record_add_unit(r, &u);
		} else {
			m.kind = MT_REC_MIGRATE;
			if (rs_read_object(&fr->jr, &m, &rs_migration, where))
				return -1;
			run_tally_migration(&r->tally, &m, r->meta.hot_ns);
			if (fr->keep)
				err = run_record_add(r, &m);
		}
		if (err) {
			fr->oom = true;
			return FAIL(fr, "out of memory keeping the records (%llu read)",
				    LLU(units ? r->tally.units : r->tally.migrations));
		}
	}
	return more;
}

/* Adds one record of an optional array to the model: run_record_add_switch, ..._waking. */
typedef int (*add_record_fn)(struct run *r, const void *rec);

static int add_switch(struct run *r, const void *rec)
{
	return run_record_add_switch(r, rec);
}

static int add_waking(struct run *r, const void *rec)
{
	return run_record_add_waking(r, rec);
}

/*
 * An optional record array of run --perfetto (switches, wakings): each record read with its
 * table (its kind set first), kept when fr->keep, and no more of them than stats says were
 * sent (`limit`, named by `stat`).
 */
static int read_view_records(struct file_reader *fr, const char *name, const struct rs_table *t,
			     size_t size, uint32_t kind, add_record_fn add, uint64_t limit,
			     const char *stat)
{
	_Alignas(8) unsigned char rec[128];	/* the largest record, aligned as its u64s */
	uint64_t n = 0;
	int more;

	if (size > sizeof(rec))
		return FAIL(fr, "%s: a record of %zu bytes", name, size);
	if (jr_array_begin(&fr->jr)) {
		jr_context(&fr->jr, name);
		return -1;
	}
	while ((more = jr_array_next(&fr->jr)) > 0) {
		memset(rec, 0, size);
		memcpy(rec, &kind, sizeof(kind));	/* every record starts with its kind */
		if (rs_read_object(&fr->jr, rec, t, t->object))
			return -1;
		n++;
		if (fr->keep && add(fr->r, rec)) {
			fr->oom = true;
			return FAIL(fr, "out of memory keeping the %s (%llu read)", name, LLU(n));
		}
	}
	if (!more && n > limit)
		return FAIL(fr, "%s: %llu records, more than stats.%s %llu", name, LLU(n), stat,
			    LLU(limit));
	return more;
}

/* probes: its counts, its moments, its probed runs (units of kind MT_REC_PROBE_UNIT). */
static int probes_member(struct file_reader *fr, const char *key, void *ctx)
{
	struct run *r = fr->r;
	bool moments = !strcmp(key, "moments");
	int more, err = 0;

	if (!strcmp(key, "result"))
		return 0;	/* judged again from the moments and units (skipped) */
	if (!moments && strcmp(key, "units"))
		return rs_read(&fr->jr, &r->probe, &rs_probe, key, ctx);
	if (jr_array_begin(&fr->jr)) {
		jr_context(&fr->jr, moments ? "probes.moments" : "probes.units");
		return -1;
	}
	while ((more = jr_array_next(&fr->jr)) > 0) {
		struct probe_moment m = { 0 };
		struct mt_unit u = { .kind = MT_REC_PROBE_UNIT };

		if (moments && rs_read_object(&fr->jr, &m, &rs_probe_moment, "probes.moments[]"))
			return -1;
		if (!moments && rs_read_object(&fr->jr, &u, &rs_unit, "probes.units[]"))
			return -1;
		if (moments && (m.kind != MT_PROBE_SHAM && m.kind != MT_PROBE_MOVE))
			return FAIL(fr, "probes.moments[]: kind %u is neither sham nor move",
				    m.kind);
		if (!moments && u.tag != MT_PROBE_SHAM && u.tag != MT_PROBE_MOVE)
			return FAIL(fr, "probes.units[].tag: %llu is neither 1 (sham) nor 2 (move)",
				    LLU(u.tag));
		/* always kept, a few thousand at most: report judges the probed moves again */
		err = moments ? run_record_add_moment(r, &m) : run_record_add_probe_unit(r, &u);
		if (err) {
			fr->oom = true;
			return FAIL(fr, "out of memory keeping the probes");
		}
	}
	return more < 0 ? -1 : 1;
}

static int read_probes(struct file_reader *fr)
{
	uint64_t seen = 0;

	if (each_member(fr, "probes", probes_member, &seen) ||
	    rs_check(&fr->jr, &rs_probe, seen, "probes"))
		return -1;
	fr->r->probe.on = true;
	return 0;
}

/* ---- the document ---- */

static int read_schema(struct file_reader *fr)
{
	char schema[64], key[16];
	int rc = jr_object_begin(&fr->jr) ? -1 : jr_object_next(&fr->jr, key, sizeof(key));

	if (rc < 0) {
		jr_context(&fr->jr, "not a migtrace run file");
		return -1;
	}
	if (!rc || strcmp(key, "schema"))
		return FAIL(fr, "not a migtrace run file: its first member is not \"schema\"");
	if (jr_string(&fr->jr, schema, sizeof(schema), NULL)) {
		jr_context(&fr->jr, "schema");
		return -1;
	}
	if (!strcmp(schema, RUN_SCHEMA) || !strcmp(schema, RUN_SCHEMA_OLDEST))
		return 0;
	if (!strncmp(schema, "migtrace.run/", 13))
		return FAIL(fr, "schema %s: this migtrace reads %s and %s only (make the run "
			    "again with this migtrace, or report it with the migtrace that made it)",
			    schema, RUN_SCHEMA_OLDEST, RUN_SCHEMA);
	return FAIL(fr, "schema %s: not a run file (%s is what `migtrace run -o` writes)", schema,
		    RUN_SCHEMA);
}

static int read_section(struct file_reader *fr, enum section s, const char *key)
{
	switch (s) {
	case S_ENVIRONMENT:
		return read_environment(fr);
	case S_CONFIG:
		return read_config(fr);
	case S_CALIBRATION:
		return read_calibration(fr);
	case S_META:
		return read_meta(fr);
	case S_STATS:
		return read_stats(fr);
	case S_COST:
		return read_cost(fr);
	case S_HISTOGRAMS:
		return read_histograms(fr);
	case S_PAIRS:
		return read_pairs(fr);
	case S_CORRELATION:
		return read_correlation(fr);
	case S_VERDICT:
		return read_verdict(fr);
	case S_MIGRATIONS:
		return read_records(fr, false);
	case S_UNITS:
		return read_records(fr, true);
	case S_LEVELS:
		return read_levels(fr);
	case S_SWITCHES:
		return read_view_records(fr, "switches", &rs_switch, sizeof(struct mt_switch),
					 MT_REC_SWITCH, add_switch, fr->r->stats.switch_records,
					 "switch_records");
	case S_WAKINGS:
		return read_view_records(fr, "wakings", &rs_waking, sizeof(struct mt_waking),
					 MT_REC_WAKING, add_waking, fr->r->stats.waking_records,
					 "waking_records");
	case S_PROBES:
		return read_probes(fr);
	default:
		return jr_skip(&fr->jr) ? skip_failed(fr, "", key) : 0;
	}
}

/* ---- what the sections say about each other ---- */

/* The counters of stats against each other: the totals are the sums of their parts. */
static int check_stats(struct file_reader *fr)
{
	const struct run *r = fr->r;
	const struct mt_stats *st = &r->stats;
	uint64_t sum = 0, total;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		if (__builtin_add_overflow(sum, st->migrations[c], &sum))
			return FAIL(fr, "stats.by_cause: its sum is past 2^64 - 1");
	if (r->sum.migrations != sum)
		return FAIL(fr, "stats.migrations: %llu, not the sum of stats.by_cause (%llu)",
			    LLU(r->sum.migrations), LLU(sum));
	/* every migration is recorded or counted lost (bpf/migtrace.bpf.c, emit()) */
	if (__builtin_add_overflow(st->rb_records, st->rb_dropped, &total) || total != sum)
		return FAIL(fr, "stats.migrations: %llu, not stats.records (%llu) + "
			    "stats.records_lost (%llu)", LLU(sum), LLU(st->rb_records),
			    LLU(st->rb_dropped));
	if (fr->unseen_found != st->migrations[MT_CAUSE_UNSEEN])
		return FAIL(fr, "stats.completeness.unseen_found: %llu, not stats.by_cause.unseen "
			    "(%llu)", LLU(fr->unseen_found), LLU(st->migrations[MT_CAUSE_UNSEEN]));
	/* the kernel does not count a fork placement in se.nr_migrations (judge/analyze.c) */
	if (r->sum.kernel_counted != sum - st->migrations[MT_CAUSE_FORK])
		return FAIL(fr, "stats.completeness.seen: %llu, not stats.migrations less fork "
			    "placements (%llu)", LLU(r->sum.kernel_counted),
			    LLU(sum - st->migrations[MT_CAUSE_FORK]));
	if (r->sum.completeness_gap != (int64_t)(st->kernel_migrations - r->sum.kernel_counted))
		return FAIL(fr, "stats.completeness.difference: %lld, not kernel_counted - seen "
			    "(%lld)", (long long)r->sum.completeness_gap,
			    (long long)(int64_t)(st->kernel_migrations - r->sum.kernel_counted));
	if (st->lb_judged > st->migrations[MT_CAUSE_LB_PULL])
		return FAIL(fr, "stats.lb_judged: %llu, more than stats.by_cause.lb_pull (%llu)",
			    LLU(st->lb_judged), LLU(st->migrations[MT_CAUSE_LB_PULL]));
	if (st->lb_hot > st->lb_judged)
		return FAIL(fr, "stats.lb_hot: %llu, more than stats.lb_judged (%llu)",
			    LLU(st->lb_hot), LLU(st->lb_judged));
	if (r->sum.wakeup_hot > r->sum.wakeup_records)
		return FAIL(fr, "stats.wakeup_hot: %llu, more than stats.wakeup_records (%llu)",
			    LLU(r->sum.wakeup_hot), LLU(r->sum.wakeup_records));
	return 0;
}

/* Each histogram the kernel kept beside a counter holds every event the counter counts. */
static int check_histograms(struct file_reader *fr)
{
	const struct run *r = fr->r;
	uint64_t n;

	for (int c = -1; c < MT_NR_CAUSES; c++) {
		const __u64 *h = c < 0 ? r->hists.kernel_age : r->hists.age[c];

		n = 0;
		for (int k = 0; k < MT_HIST_SLOTS; k++)
			if (__builtin_add_overflow(n, h[k], &n))
				return FAIL(fr, "histograms.%s%s: its counts add up past 2^64 - 1",
					    c < 0 ? "kernel_age_lb_pull" : "age.",
					    c < 0 ? "" : mt_cause_names[c]);
		if (c < 0 && n != r->stats.lb_judged)
			return FAIL(fr, "histograms.kernel_age_lb_pull: %llu pulls, not "
				    "stats.lb_judged (%llu)", LLU(n), LLU(r->stats.lb_judged));
		if (c >= 0 && n != r->stats.migrations[c])
			return FAIL(fr, "histograms.age.%s: %llu migrations, not stats.by_cause.%s "
				    "(%llu)", mt_cause_names[c], LLU(n), mt_cause_names[c],
				    LLU(r->stats.migrations[c]));
	}
	return 0;
}

/* A sum of n counts in the file that must come out at a total: "a + b" past 2^64 fails. */
#define SUM_OR_FAIL(fr, sum, v, what) \
	do { \
		if (__builtin_add_overflow(sum, v, &(sum))) \
			return FAIL(fr, "%s: the counts add up past 2^64 - 1", what); \
	} while (0)

/*
 * The levels against stats and histograms: each is a split of the run's own counts by
 * topology level, or by the rule that decided a pull.
 */
static int check_levels(struct file_reader *fr)
{
	const struct run *r = fr->r;
	const struct mt_stats *st = &r->stats;
	uint64_t judged = 0, hot = 0, rules = 0, n;

	if (!r->has_levels)
		return 0;
	for (int c = 0; c < MT_NR_CAUSES; c++) {
		n = 0;
		for (int l = 0; l < MT_NR_LEVELS; l++)
			SUM_OR_FAIL(fr, n, st->level_migrations[l][c], "levels.by_level");
		if (n != st->migrations[c])
			return FAIL(fr, "levels.by_level: %llu %s migrations, not "
				    "stats.by_cause.%s (%llu)", LLU(n), mt_cause_names[c],
				    mt_cause_names[c], LLU(st->migrations[c]));
	}
	for (int l = 0; l < MT_NR_LEVELS; l++) {
		const char *name = mt_level_names[l];

		if (st->level_lb_hot[l] > st->level_lb_judged[l] ||
		    st->level_lb_judged[l] > st->level_migrations[l][MT_CAUSE_LB_PULL])
			return FAIL(fr, "levels.by_level.%s: lb_hot %llu, lb_judged %llu, by_cause."
				    "lb_pull %llu: each is at most the next", name,
				    LLU(st->level_lb_hot[l]), LLU(st->level_lb_judged[l]),
				    LLU(st->level_migrations[l][MT_CAUSE_LB_PULL]));
		n = 0;
		for (int k = 0; k < MT_HIST_SLOTS; k++)
			SUM_OR_FAIL(fr, n, r->hists.kernel_age_level[l][k], "levels.by_level");
		if (n != st->level_lb_judged[l])
			return FAIL(fr, "levels.by_level.%s.kernel_age_lb_pull: %llu pulls, not "
				    "its lb_judged (%llu)", name, LLU(n),
				    LLU(st->level_lb_judged[l]));
		SUM_OR_FAIL(fr, judged, st->level_lb_judged[l], "levels.by_level");
		SUM_OR_FAIL(fr, hot, st->level_lb_hot[l], "levels.by_level");
	}
	if (judged != st->lb_judged || hot != st->lb_hot)
		return FAIL(fr, "levels.by_level: %llu judged and %llu hot pulls, not "
			    "stats.lb_judged (%llu) and stats.lb_hot (%llu)", LLU(judged), LLU(hot),
			    LLU(st->lb_judged), LLU(st->lb_hot));
	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		n = 0;
		for (int l = 0; l < MT_NR_LEVELS; l++)
			n += r->hists.kernel_age_level[l][k];	/* bounded by the sums above */
		if (n != r->hists.kernel_age[k])
			return FAIL(fr, "levels.by_level: slot %d of kernel_age_lb_pull holds %llu "
				    "pulls, histograms.kernel_age_lb_pull %llu", k, LLU(n),
				    LLU(r->hists.kernel_age[k]));
	}
	for (int i = 0; i < MT_NR_RULES; i++)
		SUM_OR_FAIL(fr, rules, st->lb_rule[i], "levels.rules");
	if (rules != st->lb_judged || st->lb_delayed > st->lb_judged ||
	    st->lb_numa_weighed > st->lb_judged)
		return FAIL(fr, "levels: rules add up to %llu, delayed_pulls %llu, "
			    "numa_weighed_pulls %llu, against stats.lb_judged %llu (the rules "
			    "split it, the others are parts of it)", LLU(rules),
			    LLU(st->lb_delayed), LLU(st->lb_numa_weighed), LLU(st->lb_judged));
	for (int l = 0; r->has_level_cost && l < MT_NR_LEVELS; l++)
		if (r->level_cost[l].judged > r->level_cost[l].pulls ||
		    r->level_cost[l].cell_pulls > r->level_cost[l].judged)
			return FAIL(fr, "levels.cost[] %s: cell_pulls %llu, judged_pulls %llu, "
				    "pulls %llu: each is at most the next", mt_level_names[l],
				    LLU(r->level_cost[l].cell_pulls), LLU(r->level_cost[l].judged),
				    LLU(r->level_cost[l].pulls));
	return 0;
}

/* Every migration has its CPU pair: the recorded ones and the lost ones alike. */
static int check_pairs(struct file_reader *fr)
{
	if (fr->pairs_total != fr->r->sum.migrations)
		return FAIL(fr, "cpu_pairs: %llu migrations, not stats.migrations (%llu)",
			    LLU(fr->pairs_total), LLU(fr->r->sum.migrations));
	return 0;
}

/*
 * A record array against stats (its members named `stats` "records" or "units"): read is
 * what the array held, kept and not_kept what stats says of it, submitted what the kernel
 * sent; max the config's max_records (0: all kept).
 */
static int check_kept(struct file_reader *fr, const char *kind, const char *stats,
		      uint64_t read, uint64_t kept, uint64_t not_kept, uint64_t submitted,
		      uint64_t max)
{
	uint64_t total;

	if (read != kept)
		return FAIL(fr, "stats says %llu %s records, the file holds %llu (cut short or "
			    "edited?)", LLU(kept), kind, LLU(read));
	if (__builtin_add_overflow(kept, not_kept, &total) || total != submitted)
		return FAIL(fr, "stats.%s: %llu, not %s_read (%llu) + %s_not_kept (%llu)", stats,
			    LLU(submitted), stats, LLU(kept), stats, LLU(not_kept));
	/* the first max are kept, the rest counted (model/run.c, keep()); 0 keeps all */
	if ((max && kept > max) || (not_kept && kept != max))
		return FAIL(fr, "stats: %llu %s records kept and %llu not, with config.max_records "
			    "%llu", LLU(kept), kind, LLU(not_kept), LLU(max));
	return 0;
}

static int check_migrations(struct file_reader *fr)
{
	const struct run *r = fr->r;
	const struct run_tally *t = &r->tally;

	if (check_kept(fr, "migration", "records", t->migrations, fr->records_read,
		       r->recs_not_kept, r->stats.rb_records, r->setup.max_records))
		return -1;
	if (r->sum.wakeup_records != t->by_cause[MT_CAUSE_WAKEUP])
		return FAIL(fr, "stats.wakeup_records: %llu, not the wakeup placements in "
			    "migrations (%llu)", LLU(r->sum.wakeup_records),
			    LLU(t->by_cause[MT_CAUSE_WAKEUP]));
	if (r->sum.wakeup_hot != t->wakeup_hot)
		return FAIL(fr, "stats.wakeup_hot: %llu, not the wakeup placements in migrations "
			    "hot at meta.hot_ns (%llu)", LLU(r->sum.wakeup_hot),
			    LLU(t->wakeup_hot));
	/* with every record here, the kernel's counts of the pulls are the records' own, by
	 * the same rule (MT_RULE_HOT): what the text and the what-if say cannot disagree */
	if (r->stats.rb_dropped || r->recs_not_kept)
		return 0;
	if (r->stats.lb_judged != t->lb_judged || r->stats.lb_hot != t->lb_hot_meta)
		return FAIL(fr, "stats.lb_judged %llu and lb_hot %llu, not the judged pulls in "
			    "migrations (%llu) and those hot at meta.hot_ns by the kernel's rule "
			    "(%llu)", LLU(r->stats.lb_judged), LLU(r->stats.lb_hot),
			    LLU(t->lb_judged), LLU(t->lb_hot_meta));
	for (int i = 0; r->has_levels && i < MT_NR_RULES; i++)
		if (r->stats.lb_rule[i] != t->lb_rule[i])
			return FAIL(fr, "levels.rules.%s: %llu, not the judged pulls in migrations "
				    "it decides (%llu)", mt_rule_names[i], LLU(r->stats.lb_rule[i]),
				    LLU(t->lb_rule[i]));
	return 0;
}

static int check_units(struct file_reader *fr)
{
	const struct run *r = fr->r;

	return check_kept(fr, "unit", "units", r->tally.units, fr->units_read,
			  r->units_not_kept, r->stats.units, r->setup.max_records);
}

/* The correlation was made of the units of this file (judge/analyze.c). */
static int check_correlation(struct file_reader *fr)
{
	const struct run *r = fr->r;

	if (r->has_corr && r->corr.n_units != r->tally.units)
		return FAIL(fr, "correlation.units: %zu, not stats.units_read (%llu)",
			    r->corr.n_units, LLU(r->tally.units));
	return 0;
}

/* A natural run's verdict counts the migration records of this file (judge/verdict.c). */
static int check_verdict(struct file_reader *fr)
{
	const struct verdict *v = &fr->r->verdict;

	if (!fr->r->has_verdict || !v->has_run_share)
		return 0;
	if (v->run_migrations != fr->r->tally.migrations)
		return FAIL(fr, "verdict.run_migrations: %llu, not stats.records_read (%llu)",
			    LLU(v->run_migrations), LLU(fr->r->tally.migrations));
	if (v->band_migrations > v->run_migrations)
		return FAIL(fr, "verdict.band_migrations: %llu, more than verdict.run_migrations "
			    "(%llu)", LLU(v->band_migrations), LLU(v->run_migrations));
	return 0;
}

#define SEC(s) (1u << (s))

/* Each check, made once every section it compares is read: an error is placed where the
 * last of them ends. */
static const struct {
	unsigned needs;
	int (*check)(struct file_reader *fr);
} checks[] = {
	{ SEC(S_STATS), check_stats },
	{ SEC(S_STATS) | SEC(S_HISTOGRAMS), check_histograms },
	{ SEC(S_STATS) | SEC(S_PAIRS), check_pairs },
	{ SEC(S_STATS) | SEC(S_CONFIG) | SEC(S_MIGRATIONS) | SEC(S_LEVELS), check_migrations },
	{ SEC(S_STATS) | SEC(S_CONFIG) | SEC(S_UNITS), check_units },
	{ SEC(S_UNITS) | SEC(S_CORRELATION), check_correlation },
	{ SEC(S_MIGRATIONS) | SEC(S_VERDICT), check_verdict },
	{ SEC(S_STATS) | SEC(S_HISTOGRAMS) | SEC(S_LEVELS), check_levels },
};

static int check_sections(struct file_reader *fr)
{
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if ((fr->checked & (1u << i)) || (checks[i].needs & fr->seen) != checks[i].needs)
			continue;
		fr->checked |= 1u << i;
		if (checks[i].check(fr))
			return -1;
	}
	return 0;
}

static int read_document(struct file_reader *fr)
{
	char key[64];
	int more;

	fr->seen = SEC(S_SCHEMA);
	if (read_schema(fr))
		return -1;
	while ((more = jr_object_next(&fr->jr, key, sizeof(key))) > 0) {
		enum section s = S_NR;

		for (int i = 0; i < S_NR; i++)
			if (!strcmp(key, section_names[i]))
				s = (enum section)i;
		if (read_section(fr, s, key))
			return -1;
		if (s != S_NR)
			fr->seen |= SEC(s);
		if (check_sections(fr))
			return -1;
	}
	if (more < 0 || jr_end(&fr->jr))
		return -1;
	for (int i = 0; i < S_NR; i++)
		if (!(fr->seen & SEC(i)) && !(SECTIONS_OPTIONAL & SEC(i)))
			return FAIL(fr, "no \"%s\" section (a run file of %s always has it)",
				    section_names[i], RUN_SCHEMA);
	/* an optional section that is not there reads as null: the checks that wait for it
	 * are made now */
	fr->seen |= SECTIONS_OPTIONAL;
	if (check_sections(fr))
		return -1;
	fr->r->max_kept = (size_t)fr->r->setup.max_records;
	return 0;
}

/* Reads the document jr was set up on into a new model. */
static int read_run(struct file_reader *fr, const struct run_read_opts *o, struct run **out,
		    char *err, size_t errlen)
{
	int rc;

	fr->r = run_new();
	if (!fr->r) {
		snprintf(err, errlen, "out of memory reading it");
		return -ENOMEM;
	}
	fr->keep = !o || !o->drop_records;
	fr->keep_units = o && o->keep_units;
	run_tally_init(&fr->r->tally, o ? o->threshold_ns : NULL, o ? o->nthresholds : 0);
	fr->r->tally.records_dropped = !fr->keep;
	if (read_document(fr)) {
		jr_error(&fr->jr, err, errlen);
		rc = fr->oom ? -ENOMEM : -EINVAL;
		run_free(fr->r);
		return rc;
	}
	*out = fr->r;
	return 0;
}

int run_file_parse(const char *buf, size_t len, const struct run_read_opts *o,
		   struct run **out, char *err, size_t errlen)
{
	struct file_reader fr = { 0 };

	*out = NULL;
	jr_init(&fr.jr, buf, len);
	return read_run(&fr, o, out, err, errlen);
}

int run_file_read(const char *path, const struct run_read_opts *o, struct run **out,
		  char *err, size_t errlen)
{
	struct file_reader *fr = NULL;
	struct gz_stream *gz = NULL;
	char *win = NULL;
	struct stat st;
	ssize_t n;
	int fd, zfd = -1, rc;

	*out = NULL;
	fd = !strcmp(path, "-") ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "cannot open it: %s", strerror(-rc));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		snprintf(err, errlen, "a directory, not a run file");
		goto out;
	}
	/* the reader holds a window of the file, whatever its size (a pipe has none) */
	fr = calloc(1, sizeof(*fr));
	win = malloc(RUN_FILE_WINDOW_BYTES);
	if (!fr || !win) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory reading it");
		goto out;
	}
	do
		n = read(fd, win, RUN_FILE_WINDOW_BYTES);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "reading it failed: %s", strerror(-rc));
		goto out;
	}
	if (!n) {
		rc = -EINVAL;
		snprintf(err, errlen, "empty: not a run file");
		goto out;
	}
	/* run.json.gz: read through zlib, the JSON from a thread that inflates it */
	if (gz_magic(win, (size_t)n)) {
		gz = calloc(1, sizeof(*gz));
		rc = zfd = gz ? gz_stream_start(gz, fd, win, (size_t)n) : -ENOMEM;
		if (rc < 0) {
			snprintf(err, errlen, "cannot inflate it (gzip): %s", strerror(-rc));
			goto out;
		}
		do
			n = read(zfd, win, RUN_FILE_WINDOW_BYTES);
		while (n < 0 && errno == EINTR);
		if (n <= 0) {
			rc = -EINVAL;
			snprintf(err, errlen, "empty once inflated: not a run file");
			goto out;
		}
	}
	jr_init_fd(&fr->jr, zfd >= 0 ? zfd : fd, win, RUN_FILE_WINDOW_BYTES, (size_t)n);
	rc = read_run(fr, o, out, err, errlen);
out:
	if (zfd >= 0)
		close(zfd);
	/* a damaged or cut gzip stream is why the JSON ended where it did: said so */
	if (gz && gz_stream_finish(gz) && rc != -ENOMEM) {
		if (!rc) {
			run_free(*out);
			*out = NULL;
		}
		rc = gz->err;
		snprintf(err, errlen, "%s", gz->why);
	}
	if (fd >= 0)
		close(fd);
	free(gz);
	free(win);
	free(fr);
	return rc;
}

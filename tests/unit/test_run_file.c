// SPDX-License-Identifier: GPL-2.0
/*
 * The run file: the streaming JSON writer and the strict reader, a synthetic run model
 * written and read back (the same bytes, the same numbers), every kind of bad file refused
 * in one line, and every member of the schema documented in docs/run-file.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "json_reader.h"
#include "json_writer.h"
#include "render_export.h"
#include "render_text.h"
#include "run_file.h"
#include "run_schema.h"
#include "text_edit.h"
#include "verdict.h"

/* What a writer wrote, as a string (the caller frees it). */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
}

static char *mem_close(struct mem *m)
{
	assert_int_equal(fclose(m->f), 0);
	return m->buf;
}

static void writer_escapes_and_numbers(void **state)
{
	struct json_writer w;
	struct mem m;
	char *s;

	(void)state;
	mem_open(&m);
	jw_init(&w, m.f);
	jw_start_object(&w);
	jw_field_string(&w, "q", "a\"b\\c\nd\te\x01");
	jw_field_string(&w, "utf8", "12.3 µs");
	jw_name(&w, "bytes");
	jw_string_len(&w, "x\xff\xc3", 3);	/* not UTF-8: kept as bytes, escaped */
	jw_field_double(&w, "half", 0.5);
	jw_field_double(&w, "third", 1.0 / 3);
	jw_field_double(&w, "whole", 500000.0);
	jw_field_double(&w, "nan", NAN);
	jw_field_double(&w, "inf", INFINITY);
	jw_field_s64(&w, "neg", -5);
	jw_field_u64(&w, "big", UINT64_MAX);
	jw_end_object(&w);
	assert_int_equal(jw_finish(&w), 0);
	s = mem_close(&m);
	assert_string_equal(s, "{\"q\":\"a\\\"b\\\\c\\nd\\te\\u0001\",\"utf8\":\"12.3 µs\","
			    "\"bytes\":\"x\\u00ff\\u00c3\",\"half\":0.5,"
			    "\"third\":0.3333333333333333,\"whole\":500000,\"nan\":null,"
			    "\"inf\":null,\"neg\":-5,\"big\":18446744073709551615}\n");
	free(s);
}

static void writer_refuses_misuse(void **state)
{
	struct json_writer w;
	struct mem m;

	(void)state;
	mem_open(&m);
	jw_init(&w, m.f);
	jw_start_object(&w);
	jw_u64(&w, 1);			/* a value in an object without its name */
	jw_end_object(&w);
	assert_int_equal(jw_finish(&w), -EINVAL);
	free(mem_close(&m));
	mem_open(&m);
	jw_init(&w, m.f);
	jw_start_array(&w);		/* never closed */
	assert_int_equal(jw_finish(&w), -EINVAL);
	free(mem_close(&m));
}

/* The reader on text, expecting one object with a string member "s". */
static int read_s(const char *text, char *out, size_t cap, char *err, size_t errlen)
{
	struct json_reader r;
	char key[16];

	jr_init(&r, text, strlen(text));
	if (jr_object_begin(&r) || jr_object_next(&r, key, sizeof(key)) != 1 ||
	    jr_string(&r, out, cap, NULL) || jr_object_next(&r, key, sizeof(key)) != 0 ||
	    jr_end(&r)) {
		jr_error(&r, err, errlen);
		return -1;
	}
	return 0;
}

static void reader_strings(void **state)
{
	char s[32], err[256];

	(void)state;
	assert_int_equal(read_s("{\"s\":\"a\\u00e9\\n\\ud83d\\ude00\"}", s, sizeof(s), err,
				sizeof(err)), 0);
	/* \u00e9 is the byte 0xe9 (the writer's escape for a non-UTF-8 byte); the pair is
	 * U+1F600 in UTF-8 */
	assert_memory_equal(s, "a\xe9\n\xf0\x9f\x98\x80", 7);
	assert_int_equal(read_s("{\"s\":\"0123456789012345678901234567890123\"}", s, sizeof(s),
				err, sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than 31 bytes"));
	assert_int_equal(read_s("{\"s\":\"\\ud83d\"}", s, sizeof(s), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "surrogate"));
	assert_int_equal(read_s("{\"s\":\"a\\u0000\"}", s, sizeof(s), err, sizeof(err)), -1);
	assert_int_equal(read_s("{\"s\":\"a\nb\"}", s, sizeof(s), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "control character"));
	assert_int_equal(read_s("{\"s\":\"ab", s, sizeof(s), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "truncated"));
	/* the error is one line even when the input it quotes is not */
	assert_int_equal(read_s("{\"s\":\"\\\n\"}", s, sizeof(s), err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
}

static void reader_grammar(void **state)
{
	static const char *const bad[] = {
		"{\"s\":\"a\",}",		/* trailing comma */
		"{\"s\":\"a\"} x",		/* data after the document */
		"{\"s\" \"a\"}",		/* no colon */
		"{\"s\":\"a\"",			/* cut short */
		"[1]",				/* not an object */
		"",
	};
	struct json_reader r;
	char s[8], err[256];
	int64_t v;
	double d;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(read_s(bad[i], s, sizeof(s), err, sizeof(err)), -1);
	jr_init(&r, "01", 2);
	assert_int_equal(jr_s64(&r, 0, 10, &v), 0);	/* "0", then "1" is left over */
	assert_int_equal(jr_end(&r), -1);
	jr_init(&r, "1.5", 3);
	assert_int_equal(jr_s64(&r, 0, 10, &v), -1);	/* an integer member takes no fraction */
	jr_init(&r, "11", 2);
	assert_int_equal(jr_s64(&r, 0, 10, &v), -1);
	assert_non_null(strstr(jr_error(&r, err, sizeof(err)), "out of range"));
	jr_init(&r, "1e999", 5);
	assert_int_equal(jr_double(&r, &d), -1);
	jr_init(&r, "null", 4);
	assert_int_equal(jr_double(&r, &d), 0);
	assert_true(isnan(d));
	jr_init(&r, "-", 1);
	assert_int_equal(jr_double(&r, &d), -1);
	assert_non_null(strstr(jr_error(&r, err, sizeof(err)), "truncated"));
	/* line and column of the error */
	jr_init(&r, "{\n  \"a\": tru }", 14);
	assert_int_equal(jr_skip(&r), -1);
	assert_non_null(strstr(jr_error(&r, err, sizeof(err)), "line 2, column 8"));
}

static void reader_depth_is_bounded(void **state)
{
	char deep[2 * JR_MAX_DEPTH + 8];
	struct json_reader r;
	size_t n = 0;

	(void)state;
	for (int i = 0; i <= JR_MAX_DEPTH; i++)
		deep[n++] = '[';
	for (int i = 0; i <= JR_MAX_DEPTH; i++)
		deep[n++] = ']';
	jr_init(&r, deep, n);
	assert_int_equal(jr_skip(&r), -1);
	jr_init(&r, deep + 1, n - 2);
	assert_int_equal(jr_skip(&r), 0);
}

/* A run model with something in every section. */
/* validate's 2 x 2 calibration matrix. */
static void sample_matrix(struct calibration *c)
{
	assert_int_equal(calib_alloc_cells(c, 2), 0);
	for (int i = 0; i < RUN_CALIB_CELLS; i++)
		c->cells[i] = (struct calib_cell){
			.src_cpu = c->cpus.cpu[i / 2], .dst_cpu = c->cpus.cpu[i % 2],
			.fill_median_ns = 30000.5 + i, .fill_mad_ns = 1200,
			.fill_undisturbed_ns = 29000.25 + i, .fills_undisturbed = 900 + i,
			.fill_min_ns = 25000,
			.fill_max_ns = 60000 + i, .cost_ns = 6 * (60000 + i),
			.robust_ns = 180003 + 6 * i };
}

static struct run *sample_run(void)
{
	struct run *r = run_new();
	struct mt_migrate m = { .kind = MT_REC_MIGRATE };
	struct mt_unit u = { .kind = MT_REC_UNIT };

	assert_non_null(r);
	snprintf(r->env.kernel_release, sizeof(r->env.kernel_release), "6.18.0-test");
	snprintf(r->env.cpu_model, sizeof(r->env.cpu_model), "Test CPU \"quoted\"");
	snprintf(r->env.online_cpus, sizeof(r->env.online_cpus), "0-3");
	r->env.nr_online = 4;
	r->env.ncaches = 1;
	r->env.caches[0] = (struct run_cache){ .level = 2, .size_bytes = 1 << 20, .instances = 4,
					       .cpus_per_instance = 1, .shared_known = true,
					       .cpuid_leaf = 0x80000006 };
	snprintf(r->env.caches[0].type, sizeof(r->env.caches[0].type), "Unified");
	snprintf(r->env.caches[0].source, sizeof(r->env.caches[0].source), "cpuid");
	snprintf(r->env.caches[0].shared_cpus, sizeof(r->env.caches[0].shared_cpus), "0");
	r->env.tunable.value_ns = 500000;
	r->env.tunable.assumed = true;
	r->setup.kind = RUN_KIND_VALIDATE;
	r->setup.mode = CORR_CONTROLLED;
	r->setup.cachewalk = true;
	r->setup.cw.controlled = true;
	r->setup.cw.nages = 2;
	r->setup.cw.ages_ns[0] = 50000;
	r->setup.cw.ages_ns[1] = 5000000;
	r->setup.max_records = 200000;
	r->setup.bootstrap = 200;
	r->calib.valid = r->calib.inline_run = r->calib.robust = true;
	r->calib.hot_ns = r->calib.cal.hot_robust_ns = 298123.5;
	r->calib.cal.hot_seed_ns = 395000;
	r->calib.cal.has_hot = true;
	r->calib.cal.cpus.n = 2;
	r->calib.cal.cpus.cpu[1] = 1;
	r->calib.cal.method = 2004;
	snprintf(r->calib.cal.cache_source, sizeof(r->calib.cal.cache_source), "cpuid");
	r->calib.cal.reps = 1000;
	sample_matrix(&r->calib.cal);
	snprintf(r->meta.command, sizeof(r->meta.command), "cachewalk --controlled");
	r->meta.pid = 42;
	r->meta.cpus.n = 2;
	r->meta.cpus.cpu[1] = 1;
	r->meta.hot_ns = 500000;
	r->meta.exit_status = 0;
	r->meta.duration_s = 1.25;
	assert_int_equal(run_alloc_pairs(r, 4), 0);
	r->pairs[0 * 4 + 1] = 7;
	r->pairs[1 * 4 + 0] = 5;
	/* the counts agree with each other as a run's do: 12 migrations, 2 records read and
	 * 10 lost, all of them in the age histogram and the CPU pairs */
	r->stats.migrations[MT_CAUSE_AFFINITY] = 12;
	r->stats.kernel_migrations = 12;
	r->stats.rb_records = 2;
	r->stats.rb_dropped = 10;
	r->stats.units = 1;
	r->hists.age[MT_CAUSE_AFFINITY][3] = 12;
	r->hists.slice[27] = 1;
	r->cost.workload_cpu_s = -1;	/* -p: written as null, read back as -1 */
	r->cost.nprogs = 1;
	snprintf(r->cost.progs[0].name, sizeof(r->cost.progs[0].name), "mt_switch");
	r->cost.progs[0].run_cnt = 99;
	m.pid = 43;
	m.cause = MT_CAUSE_AFFINITY;
	m.state = MT_STATE_WAKING;
	m.age_ns = 51000;
	m.kernel_age_ns = -1;		/* no KAGE flag: null */
	memcpy(m.comm, "sixteen-bytes-ok", 16);	/* a full comm has no NUL */
	assert_int_equal(run_record_add(r, &m), 0);
	m.flags = MT_RF_KAGE_VALID;
	m.kernel_age_ns = 40000;
	m.cause = 200;			/* out of the names: written as a number */
	assert_int_equal(run_record_add(r, &m), 0);
	u.pid = 43;
	u.end_ns = 100;
	u.tag = CW_TAG_MIGRATED;
	u.migs_before = 1;
	u.mig_age_ns = 51000;
	u.mig_cause = MT_CAUSE_AFFINITY;
	assert_int_equal(run_record_add_unit(r, &u), 0);
	r->sum.migrations = 12;
	r->sum.kernel_counted = 12;
	r->has_corr = true;
	r->corr.mode = CORR_CONTROLLED;
	r->corr.cold_fraction = 0.1;
	r->corr.ncells = 2;
	r->corr.n_units = 1;
	r->corr.cells[0] = (struct corr_cell){ .age_ns = 50000, .n_mig = 4, .n_stay = 4,
					       .cost_ns = 414000.25, .cost_lo_ns = -0.0,
					       .cost_hi_ns = 436000, .age_median_ns = 135000 };
	r->corr.cells[1] = (struct corr_cell){ .age_ns = 5000000, .cost_ns = NAN };
	r->corr.hot_state = CORR_HOT_ABOVE;
	r->corr.hot_ns = 5000000;
	r->has_verdict = true;
	verdict_none(&r->verdict, 500000);
	r->verdict.kind = VERDICT_TOO_LOW;
	r->verdict.factor = 10;
	r->verdict.hot_hi_ns = INFINITY;	/* written as null */
	r->verdict.has_calib = true;
	r->verdict.calib_ns = 298123.5;
	return r;
}

/* m into r as a run has it: recorded, and in every count, histogram and pair it is part of. */
static void add_migration(struct run *r, const struct mt_migrate *m)
{
	assert_int_equal(run_record_add(r, m), 0);
	r->stats.rb_records++;
	r->stats.migrations[m->cause]++;
	r->hists.age[m->cause][0]++;
	if (m->cause == MT_CAUSE_LB_PULL && (m->flags & MT_RF_KAGE_VALID)) {
		r->stats.lb_judged++;
		r->stats.lb_hot += MT_TASK_HOT(m->kernel_age_ns, r->meta.hot_ns);
		r->hists.kernel_age[0]++;
	}
	if (m->cause == MT_CAUSE_WAKEUP) {
		r->sum.wakeup_records++;
		r->sum.wakeup_hot += MT_TASK_HOT((int64_t)m->age_ns, r->meta.hot_ns);
	}
	r->pairs[m->src_cpu * r->meta.nr_cpus + m->dst_cpu]++;
	r->sum.migrations++;
	r->sum.kernel_counted++;
	r->stats.kernel_migrations++;
}

/* The sample with n more records: wakeups and pulls, young and old. */
static struct run *sample_run_with(size_t n)
{
	struct run *r = sample_run();

	for (size_t i = 0; i < n; i++) {
		struct mt_migrate m = { .kind = MT_REC_MIGRATE, .pid = 50 + i % 7, .src_cpu = 1,
					.cause = i % 2 ? MT_CAUSE_WAKEUP : MT_CAUSE_LB_PULL,
					.flags = i % 3 ? MT_RF_KAGE_VALID : 0,
					.age_ns = 1000 * (i % 1000), .ts_ns = 1000000 + i,
					.kernel_age_ns = 3000 * (int64_t)(i % 500) };

		add_migration(r, &m);
	}
	return r;
}

static char *write_run(const struct run *r, size_t *len)
{
	struct mem m;

	mem_open(&m);
	assert_int_equal(run_file_write(m.f, r), 0);
	mem_close(&m);
	*len = m.len;
	return m.buf;
}

static void round_trip(void **state)
{
	struct run *r = sample_run(), *back;
	char err[400], *one, *two;
	size_t n1, n2;

	(void)state;
	/* cache-aware scheduling: one move's preference read (LLC 3), the other's not */
	r->recs[0].flags |= MT_RF_PREF_LLC;
	r->recs[0].pref_llc = 3;
	r->recs[1].pref_llc = 5;	/* not read: written null whatever it holds */
	r->env.rules.checked = true;
	r->env.rules.llc = (struct run_llc_knobs){ 1, 1, 20, 50, 2, -1 };
	snprintf(r->env.rules.llc_ids, sizeof(r->env.rules.llc_ids), "0:0-1;3:2-3");
	one = write_run(r, &n1);
	assert_non_null(strstr(one, "\"preferred_llc\":3"));
	assert_non_null(strstr(one, "\"preferred_llc\":null"));
	assert_non_null(strstr(one, "\"llc_balancing_epoch_affinity_timeout\":null"));
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	two = write_run(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	assert_int_equal(back->recs[0].pref_llc, 3);
	assert_int_equal(back->recs[1].pref_llc, -1);
	assert_false(back->recs[1].flags & MT_RF_PREF_LLC);
	assert_int_equal(back->env.rules.llc.imb_pct, 20);
	assert_int_equal(back->env.rules.llc.epoch_affinity_timeout, -1);
	assert_string_equal(back->env.rules.llc_ids, "0:0-1;3:2-3");
	/* the numbers, not only the bytes */
	assert_string_equal(back->env.cpu_model, "Test CPU \"quoted\"");
	assert_int_equal(back->env.caches[0].cpuid_leaf, 0x80000006);
	assert_int_equal(back->setup.mode, CORR_CONTROLLED);
	assert_int_equal(back->setup.cw.nages, 2);
	assert_int_equal(back->setup.cw.ages_ns[1], 5000000);
	assert_true(back->calib.inline_run && back->calib.hot_ns == 298123.5);
	assert_non_null(back->calib.cal.cells);
	assert_memory_equal(back->calib.cal.cells, r->calib.cal.cells,
			    RUN_CALIB_CELLS * sizeof(*r->calib.cal.cells));
	assert_int_equal(back->pairs[1], 7);
	assert_int_equal(back->pairs[4], 5);
	assert_int_equal(back->cost.workload_cpu_s, -1);
	assert_int_equal(back->nrecs, 2);
	assert_memory_equal(back->recs[0].comm, "sixteen-bytes-ok", 16);
	assert_false(back->recs[0].flags & MT_RF_KAGE_VALID);
	assert_int_equal(back->recs[1].kernel_age_ns, 40000);
	assert_int_equal(back->recs[1].cause, 200);
	assert_int_equal(back->nunits, 1);
	assert_int_equal(back->units[0].mig_age_ns, 51000);
	assert_true(back->corr.cells[0].cost_ns == 414000.25);
	assert_true(signbit(back->corr.cells[0].cost_lo_ns));	/* -0 stays -0 */
	assert_true(isnan(back->corr.cells[1].cost_ns));
	assert_int_equal(back->verdict.kind, VERDICT_TOO_LOW);
	assert_true(isnan(back->verdict.hot_hi_ns));
	assert_true(back->verdict.has_calib && !back->verdict.has_run_share);
	free(one);
	free(two);
	run_free(back);
	run_free(r);
}

static void refuses_bad_files(void **state)
{
	static const struct {
		const char *from, *to, *says;
	} bad[] = {
		{ "migtrace.run/3", "migtrace.run/1", "reads migtrace.run/2 and migtrace.run/3 only" },
		{ "migtrace.run/3", "migtrace.calibrate/1", "not a run file" },
		{ "{\n\"schema\"", "{\n\"other\":1,\"schema\"", "first member is not \"schema\"" },
		{ "\"records_read\":2", "\"records_read\":3", "the file holds 2" },
		{ "\"nr_cpus\":4", "\"nr_cpus\":0", "meta.nr_cpus" },
		{ "\"pid\":42", "\"pid\":\"42\"", "meta.pid: expected a number, found a string" },
		{ "\"pid\":42", "\"pid\":4294967296", "meta.pid" },
		{ "\"cause\":\"affinity\"", "\"cause\":\"teleport\"", "migrations[].cause" },
		{ "\"lb_pull\":0,", "", "by_cause lacks a cause" },
		{ "[0,0,0,12,", "[0,0,12,", "slots, not 28" },
		{ "\"units\":[\n", "\"units\":[\n{},", "units[] has no \"pid\"" },
		{ "\"cpu_pairs\":[{\"src\":0", "\"cpu_pairs\":[{\"src\":9", "out of range" },
		{ "\n\"verdict\":", "\n\"verdict\":null,\"verdict\":", "appears twice" },
		{ "\n\"units\":[", "\n\"unitz\":[", "no \"units\" section" },
		{ "\"cpuid_leaf\":\"0x80000006\"", "\"cpuid_leaf\":\"80000006\"", "hex" },
		/* the optional calibration matrix: when there, whole and consistent */
		{ "\"cells\":[\n", "\"cells\":[\n{\"src_cpu\":0,\"dst_cpu\":0,\"fill_median_ns\":1,"
		  "\"fill_mad_ns\":1,\"fill_undisturbed_median_ns\":1,\"fills_undisturbed\":1,"
		  "\"fill_min_ns\":1,\"fill_max_ns\":1,\"cost_ns\":6,"
		  "\"robust_ns\":6},", "more than 4 cells" },
		{ "\"cells\":[\n", "\"cells\":[\n{\"src_cpu\":0},",
		  "cells[] has no \"dst_cpu\"" },
		{ "\"cells\":[\n", "\"cells\":{},\"y\":[\n", "expected an array" },
		{ "\"src_cpu\":1,\"dst_cpu\":0", "\"src_cpu\":0,\"dst_cpu\":0",
		  "cells[2]: CPUs 0 -> 0, not 1 -> 0" },
		{ "\"fill_median_ns\":30000.5", "\"fill_median_ns\":-1", "times of 0 ns or more" },
		{ "\"fill_median_ns\":30000.5", "\"fill_median_ns\":null",
		  "times of 0 ns or more" },
		{ "\"fill_min_ns\":25000", "\"fill_min_ns\":\"x\"",
		  "fill_min_ns: expected a number" },
		{ "\"fills_undisturbed\":901", "\"fills_undisturbed\":1001",
		  "cells[1]: fills_undisturbed 1001 is not a count of the 1000 fills" },
		/* a member twice, at any depth, is refused: the last would win silently */
		{ "\"pid\":42", "\"pid\":42,\"pid\":43", "meta: \"pid\" appears twice" },
		{ "\"same_cpu_events\":0", "\"same_cpu_events\":0,\"same_cpu_events\":1",
		  "stats: \"same_cpu_events\" appears twice" },
		{ "\"affinity\":12", "\"affinity\":22,\"affinity\":12",
		  "stats.by_cause: \"affinity\" appears twice" },
		{ "\"bootstrap\":200", "\"bootstrap\":200,\"bootstrap\":100",
		  "config: \"bootstrap\" appears twice" },
		{ "\"age_ns\":51000", "\"age_ns\":51000,\"age_ns\":1",
		  "migrations[]: \"age_ns\" appears twice" },
		{ "\"unit\":\"log2", "\"unit\":\"x\",\"unit\":\"log2",
		  "histograms: \"unit\" appears twice" },
		{ "\"run_cnt\":99", "\"run_cnt\":99,\"run_cnt\":98",
		  "cost.programs: \"run_cnt\" appears twice" },
		{ "\"ts_ns\":\"CLOCK", "\"ts_ns\":1,\"ts_ns\":\"CLOCK",
		  "meta.clocks: \"ts_ns\" appears twice" },
		{ "{\"src\":0,\"dst\":1,\"count\":7}",
		  "{\"src\":0,\"dst\":1,\"count\":7},{\"src\":0,\"dst\":1,\"count\":7}",
		  "cpu_pairs[]: 0 -> 1 appears twice" },
		/* totals that disagree with their parts */
		{ "\"migrations\":12", "\"migrations\":18446744073709551615",
		  "stats.migrations: 18446744073709551615, not the sum of stats.by_cause (12)" },
		{ "\"affinity\":12", "\"affinity\":13",
		  "stats.migrations: 12, not the sum of stats.by_cause (13)" },
		{ "\"unseen\":0", "\"unseen\":18446744073709551615",
		  "stats.by_cause: its sum is past 2^64 - 1" },
		{ "\"records\":2", "\"records\":3",
		  "stats.migrations: 12, not stats.records (3) + stats.records_lost (10)" },
		{ "\"records_not_kept\":0", "\"records_not_kept\":1",
		  "stats.records: 2, not records_read (2) + records_not_kept (1)" },
		{ "\"units_not_kept\":0", "\"units_not_kept\":1",
		  "stats.units: 1, not units_read (1) + units_not_kept (1)" },
		{ "\"max_records\":200000", "\"max_records\":1",
		  "stats: 2 migration records kept and 0 not, with config.max_records 1" },
		{ "\"unseen_found\":0", "\"unseen_found\":1",
		  "stats.completeness.unseen_found: 1, not stats.by_cause.unseen (0)" },
		{ "\"seen\":12", "\"seen\":11",
		  "stats.completeness.seen: 11, not stats.migrations less fork placements (12)" },
		{ "\"difference\":0", "\"difference\":5",
		  "stats.completeness.difference: 5, not kernel_counted - seen (0)" },
		{ "\"wakeup_records\":0", "\"wakeup_records\":1",
		  "stats.wakeup_records: 1, not the wakeup placements in migrations (0)" },
		{ "\"lb_judged\":0", "\"lb_judged\":1",
		  "stats.lb_judged: 1, more than stats.by_cause.lb_pull (0)" },
		{ "\"lb_hot\":0", "\"lb_hot\":1",
		  "stats.lb_hot: 1, more than stats.lb_judged (0)" },
		{ "\"kernel_age_lb_pull\":[0,", "\"kernel_age_lb_pull\":[1,",
		  "histograms.kernel_age_lb_pull: 1 pulls, not stats.lb_judged (0)" },
		{ "[0,0,0,12,", "[0,0,0,11,",
		  "histograms.age.affinity: 11 migrations, not stats.by_cause.affinity (12)" },
		{ "\"count\":7", "\"count\":8",
		  "cpu_pairs: 13 migrations, not stats.migrations (12)" },
		{ "\"count\":7", "\"count\":0", "cpu_pairs[]: 0 -> 1 has a count of 0" },
		{ "\"units\":1,\"warm_units\"", "\"units\":2,\"warm_units\"",
		  "correlation.units: 2, not stats.units_read (1)" },
		/* times and durations are not negative */
		{ "\"duration_s\":1.25", "\"duration_s\":-1",
		  "meta.duration_s: -1 is negative" },
		{ "\"self_user_s\":0", "\"self_user_s\":-0.5",
		  "cost.self_user_s: -0.5 is negative" },
		{ "\"workload_cpu_s\":null", "\"workload_cpu_s\":-1",
		  "cost.workload_cpu_s: -1 is negative" },
	};
	struct run *r = sample_run(), *back = (struct run *)1;
	char err[400], *text, *e;
	size_t n;

	(void)state;
	text = write_run(r, &n);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e = edit(text, bad[i].from, bad[i].to);
		err[0] = '\0';
		if (run_file_parse(e, strlen(e), NULL, &back, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu: '%s' made '%s' and the file was not refused", i,
				 bad[i].from, bad[i].to);
		assert_null(back);
		if (!strstr(err, bad[i].says))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].says);
		assert_null(strchr(err, '\n'));
		free(e);
	}
	/* every cut of the file is refused, never half-read */
	for (size_t cut = 0; cut + 1 < n; cut += 97) {
		assert_int_equal(run_file_parse(text, cut, NULL, &back, err, sizeof(err)), -EINVAL);
		assert_null(back);
	}
	free(text);
	run_free(r);
}

/* A file without the optional matrix (written before it was kept) reads, without one. */
static void matrix_absent(void **state)
{
	struct run *r = sample_run(), *back;
	char err[400], *one, *two;
	size_t n1, n2;

	(void)state;
	free(r->calib.cal.cells);
	r->calib.cal.cells = NULL;
	one = write_run(r, &n1);
	assert_null(strstr(one, "\"cells\":[\n{\"src_cpu\""));
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	assert_true(back->calib.inline_run && !back->calib.cal.cells);
	assert_non_null(render_plot_no_matrix(back));
	two = write_run(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	run_free(back);
	/* with it, the plot has its data */
	sample_matrix(&r->calib.cal);
	free(one);
	one = write_run(r, &n1);
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	assert_null(render_plot_no_matrix(back));
	free(one);
	free(two);
	run_free(back);
	run_free(r);
}

/* environment.sched_rules: absent, read as "not checked" and written again without it; present,
 * read back whole; a name it does not take refused. */
static void sched_rules_optional(void **state)
{
	struct run *r = sample_run(), *back;
	char err[400], *one, *two, *bad;
	size_t n1, n2;

	(void)state;
	one = write_run(r, &n1);
	assert_null(strstr(one, "sched_rules"));
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	assert_false(back->env.rules.checked);
	two = write_run(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	run_free(back);
	free(one);
	free(two);
	r->env.rules = (struct run_sched_rules){ .checked = true, .scx_switch_all = 1,
						 .numa_balancing = -1, .numa_nodes = 2,
						 .core_sched = RUN_CORE_AVAILABLE,
						 .core_cookie_tasks = 4, .traced_tasks = 3,
						 .traced_ext_tasks = 2, .traced_cookie_tasks = 1,
						 .preferred_llc = RUN_BTF_PRESENT,
						 .llc = { -1, -1, -1, -1, -1, -1 } };
	strcpy(r->env.rules.scx_state, "enabled");
	strcpy(r->env.rules.scx_ops, "scx_rusty");
	one = write_run(r, &n1);
	assert_non_null(strstr(one, "\"sched_rules\":{\"sched_ext_state\":\"enabled\","
			       "\"sched_ext_ops\":\"scx_rusty\",\"sched_ext_switch_all\":1,"
			       "\"numa_balancing\":null,\"numa_nodes\":2,"
			       "\"core_sched\":\"available\",\"core_cookie_tasks\":4,"
			       "\"traced_tasks\":3,\"traced_sched_ext_tasks\":2,"
			       "\"traced_cookie_tasks\":1,\"preferred_llc\":\"present\","
			       "\"llc_balancing_enabled\":null,\"llc_balancing_aggr_tolerance\":null,"
			       "\"llc_balancing_imb_pct\":null,\"llc_balancing_overaggr_pct\":null,"
			       "\"llc_balancing_epoch_period\":null,"
			       "\"llc_balancing_epoch_affinity_timeout\":null,\"llc_ids\":null}"));
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	assert_true(back->env.rules.checked);
	assert_string_equal(back->env.rules.scx_state, "enabled");
	assert_string_equal(back->env.rules.scx_ops, "scx_rusty");
	assert_int_equal(back->env.rules.scx_switch_all, 1);
	assert_int_equal(back->env.rules.numa_balancing, -1);
	assert_int_equal(back->env.rules.numa_nodes, 2);
	assert_int_equal(back->env.rules.core_sched, RUN_CORE_AVAILABLE);
	assert_int_equal(back->env.rules.core_cookie_tasks, 4);
	assert_int_equal(back->env.rules.traced_tasks, 3);
	assert_int_equal(back->env.rules.traced_ext_tasks, 2);
	assert_int_equal(back->env.rules.traced_cookie_tasks, 1);
	assert_int_equal(back->env.rules.preferred_llc, RUN_BTF_PRESENT);
	run_free(back);
	bad = edit(one, "\"preferred_llc\":\"present\"", "\"preferred_llc\":\"maybe\"");
	assert_int_equal(run_file_parse(bad, strlen(bad), NULL, &back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "environment.sched_rules.preferred_llc"));
	free(bad);
	free(one);
	run_free(r);
}

/* meta.backend: absent, written again without it; bpf, its replay members null; replayed,
 * read back whole and written again as the same bytes. */
static void backend_optional(void **state)
{
	struct run *r = sample_run(), *back;
	struct run_backend *b = &r->meta.backend;
	char err[400], *one, *two;
	size_t n1, n2;

	(void)state;
	one = write_run(r, &n1);
	assert_null(strstr(one, "\"backend\""));
	free(one);
	strcpy(b->name, "bpf");
	one = write_run(r, &n1);
	assert_non_null(strstr(one, "\"backend\":{\"name\":\"bpf\",\"why\":null,"
			       "\"replayed\":false,\"events\":null,"));
	free(one);
	strcpy(b->name, "trace-cmd");
	strcpy(b->source, "capture.dat");
	strcpy(b->missing, "sched_waking,sched_process_exec");
	strcpy(b->not_read, "kernel_age,kernel_migrations");
	b->replayed = true;
	b->events = 1000;
	b->out_of_order = 2;
	b->lost_events = 3;
	b->stopper_moves = 4;
	b->unknown_age = 5;
	one = write_run(r, &n1);
	assert_int_equal(run_file_parse(one, n1, NULL, &back, err, sizeof(err)), 0);
	assert_true(back->meta.backend.replayed);
	assert_true(run_replayed(back));
	assert_string_equal(back->meta.backend.name, "trace-cmd");
	assert_string_equal(back->meta.backend.source, "capture.dat");
	assert_string_equal(back->meta.backend.missing, "sched_waking,sched_process_exec");
	assert_int_equal(back->meta.backend.events, 1000);
	assert_int_equal(back->meta.backend.stopper_moves, 4);
	assert_int_equal(back->meta.backend.unknown_age, 5);
	two = write_run(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	free(one);
	free(two);
	run_free(back);
	run_free(r);
}

/* A document in a temporary file, its descriptor at its start. */
static int temp_fd(const char *text, size_t n)
{
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	fd = dup(fileno(f));
	fclose(f);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* The whole of text walked from memory and from a file through a 256-byte window: the same
 * result, the same error at the same line and column. */
static void walk_both(const char *text, size_t n)
{
	char win[256], e1[300] = "", e2[300] = "";
	struct json_reader *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	int fd = temp_fd(text, n), rc1, rc2;
	ssize_t first;

	assert_non_null(a);
	assert_non_null(b);
	jr_init(a, text, n);
	rc1 = jr_skip(a) || jr_end(a) ? -1 : 0;
	if (rc1)
		jr_error(a, e1, sizeof(e1));
	first = read(fd, win, 100);
	assert_true(first >= 0);
	jr_init_fd(b, fd, win, sizeof(win), (size_t)first);
	rc2 = jr_skip(b) || jr_end(b) ? -1 : 0;
	if (rc2)
		jr_error(b, e2, sizeof(e2));
	if (rc1 != rc2 || strcmp(e1, e2))
		fail_msg("from memory: %d '%s'; through a window: %d '%s'", rc1, e1, rc2, e2);
	close(fd);
	free(a);
	free(b);
}

static void reader_window(void **state)
{
	static const struct {
		const char *from, *to;
	} edits[] = {
		{ "", "" },				/* as written */
		{ "\"pid\":42", "\"pid\":42,\"pid\":43" },
		{ "\"pid\":42", "\"pid\":4x2" },
		/* a number longer than any kept */
		{ "\"pid\":42", "\"pid\":12345678901234567890123456789012345678901234567890"
		  "12345678901234567890" },
		{ "\"command\":\"", "\"command\":\"\\u00e9\\ud83d\\ude00\\n" },
		{ "\"command\":\"", "\"command\":\"\\ud83d" },
		/* escapes in a string skipped */
		{ "\"unit\":\"log2", "\"unit\":\"\\\"\\u00b5\\\\log2" },
		{ "\"attached\":false", "\"attached\":fals" },
	};
	struct run *r = sample_run_with(40);
	char *text, *e;
	size_t n;

	(void)state;
	text = write_run(r, &n);
	assert_true(n > 4 * 256);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		e = *edits[i].from ? edit(text, edits[i].from, edits[i].to) : strdup(text);
		assert_non_null(e);
		walk_both(e, strlen(e));
		/* and cut short anywhere */
		for (size_t cut = 1; i < 2 && cut < strlen(e); cut += 331)
			walk_both(e, cut);
		free(e);
	}
	free(text);
	run_free(r);
}

/*
 * A report that keeps no record counts them as it reads: no record in the model, and the
 * text, the what-if, the OpenMetrics exposition as from the records kept.
 */
static void dropped_records_counted(void **state)
{
	static const int64_t t_ns[] = { 500, 100000, 700000, 5000000 };
	const struct run_read_opts o = { .drop_records = true, .nthresholds = 4,
					 .threshold_ns = t_ns };
	struct run *r = sample_run_with(300), *kept, *dropped;
	struct whatif wk, wd;
	char err[400], *text, *out[2][2];
	struct mem m;
	size_t n;

	(void)state;
	text = write_run(r, &n);
	assert_int_equal(run_file_parse(text, n, NULL, &kept, err, sizeof(err)), 0);
	assert_int_equal(run_file_parse(text, n, &o, &dropped, err, sizeof(err)), 0);
	assert_int_equal(kept->nrecs, 302);
	assert_true(!dropped->nrecs && !dropped->recs && !dropped->nunits && !dropped->units);
	assert_int_equal(dropped->tally.migrations, 302);
	assert_int_equal(dropped->tally.units, 1);
	whatif_compute(kept, t_ns, 4, &wk);
	whatif_compute(dropped, t_ns, 4, &wd);
	assert_memory_equal(&wk, &wd, sizeof(wk));
	assert_true(wk.row[1].lb_hot > 0 && wk.row[1].lb_hot < wk.row[1].lb_judged);
	assert_true(wk.row[1].wakeup_hot > 0 && wk.row[1].wakeup_hot < wk.row[1].wakeups);
	for (int i = 0; i < 2; i++) {
		struct run *x = i ? dropped : kept;

		mem_open(&m);
		render_text(m.f, x);
		out[i][0] = mem_close(&m);
		mem_open(&m);
		render_openmetrics(m.f, x, i ? &wd : &wk, "v-test");
		out[i][1] = mem_close(&m);
	}
	assert_string_equal(out[0][0], out[1][0]);
	assert_string_equal(out[0][1], out[1][1]);
	for (int i = 0; i < 4; i++)
		free(out[i / 2][i % 2]);
	free(text);
	run_free(kept);
	run_free(dropped);
	run_free(r);
}

/* A file larger than the reader's window reads as it does from memory, and from a pipe. */
static void read_file_through_window(void **state)
{
	struct run *r = sample_run_with(20000), *back;
	char err[400], path[] = "/tmp/test_run_file.XXXXXX", *one, *two;
	size_t n1, n2;
	int fd;

	(void)state;
	one = write_run(r, &n1);
	assert_true(n1 > 2 * RUN_FILE_WINDOW_BYTES);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, one, n1), (ssize_t)n1);
	close(fd);
	if (run_file_read(path, NULL, &back, err, sizeof(err)))
		fail_msg("%s", err);
	two = write_run(back, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	run_free(back);
	free(two);
	/* an error past the first window: its line and column as from memory */
	one = edit(two = one, "\"ts_ns\":1019000,", "\"ts_ns\":1019000,\"ts_ns\":1,");
	free(two);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, one, strlen(one)), (ssize_t)strlen(one));
	close(fd);
	assert_int_equal(run_file_read(path, NULL, &back, err, sizeof(err)), -EINVAL);
	assert_null(back);
	assert_non_null(strstr(err, "migrations[]: \"ts_ns\" appears twice"));
	two = strdup(err);
	assert_int_equal(run_file_parse(one, strlen(one), NULL, &back, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, two);
	unlink(path);
	free(one);
	free(two);
	run_free(r);
}

static void read_file_errors(void **state)
{
	struct run *back;
	char err[400];

	(void)state;
	assert_int_equal(run_file_read("/nonexistent/run.json", NULL, &back, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(run_file_read("/", NULL, &back, err, sizeof(err)), -EISDIR);
	assert_int_equal(run_file_read("/dev/null", NULL, &back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty"));
}

/* Table sizes agree with the members they point at. */
static size_t type_size(enum rs_type t)
{
	switch (t) {
	case RS_U64:
	case RS_S64:
		return 8;
	case RS_U32:
	case RS_HEX32:
		return 4;
	case RS_INT:
	case RS_ENUM:
		return sizeof(int);
	case RS_LONG:
		return sizeof(long);
	case RS_U16:
		return 2;
	case RS_U8:
	case RS_ENUM_U8:
		return 1;
	case RS_SIZE:
		return sizeof(size_t);
	case RS_DBL:
		return sizeof(double);
	case RS_BOOL:
		return sizeof(bool);
	default:
		return 0;	/* strings: any buffer */
	}
}

/* Every member of the tables is documented in docs/NAME, and read as its size. */
static void tables_documented(const char *name, const struct rs_table *const *tables, int n)
{
	const char *root = getenv("MT_ROOT");
	char path[4096], *doc;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/%s", root ? root : ".", name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open it (run from the repository's top, or set MT_ROOT)",
		path);
	doc = malloc(1 << 20);
	assert_non_null(doc);
	len = fread(doc, 1, (1 << 20) - 1, f);
	doc[len] = '\0';
	fclose(f);
	for (int t = 0; t < n; t++) {
		const struct rs_table *tb = tables[t];

		assert_true(tb->n <= 64);
		for (int i = 0; i < tb->n; i++) {
			const struct rs_field *fl = &tb->f[i];
			char quoted[80];

			if (type_size(fl->type) && type_size(fl->type) != fl->size)
				fail_msg("%s.%s: a %zu-byte member read as %zu bytes", tb->object,
					 fl->name, fl->size, type_size(fl->type));
			snprintf(quoted, sizeof(quoted), "`%s`", fl->name);
			if (!strstr(doc, quoted))
				fail_msg("%s.%s is not in docs/%s", tb->object, fl->name, name);
		}
	}
	free(doc);
}

static void schema_tables_and_docs(void **state)
{
	(void)state;
	tables_documented("run-file.md", rs_all_tables, rs_ntables);
	tables_documented("calibration-file.md", rs_calib_file_tables, rs_calib_file_ntables);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_escapes_and_numbers),
		cmocka_unit_test(writer_refuses_misuse),
		cmocka_unit_test(reader_strings),
		cmocka_unit_test(reader_grammar),
		cmocka_unit_test(reader_depth_is_bounded),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(refuses_bad_files),
		cmocka_unit_test(matrix_absent),
		cmocka_unit_test(sched_rules_optional),
		cmocka_unit_test(backend_optional),
		cmocka_unit_test(reader_window),
		cmocka_unit_test(dropped_records_counted),
		cmocka_unit_test(read_file_through_window),
		cmocka_unit_test(read_file_errors),
		cmocka_unit_test(schema_tables_and_docs),
	};

	return cmocka_run_group_tests_name("run_file", tests, NULL, NULL);
}
